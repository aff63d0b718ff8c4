"""Turns a raw request into a stored order."""
from app.parser import parse_order
from app.storage import OrderStore

STORE = OrderStore()


def handle_request(raw: str) -> str:
    order = parse_order(raw)
    if order is None:
        return "rejected"
    order_id = STORE.save(order)
    return f"accepted {order_id}"
