"""Turns a raw request into a stored order."""
from app.parser import parse_order
from app.storage import OrderStore

STORE = OrderStore()


def handle_request(raw: str, store=STORE) -> str:
    order = parse_order(raw)
    if order is None:
        return "rejected"
    order_id = store.save(order)  # an untyped parameter: a likely call (receiver-name)
    return f"accepted {order_id}"
