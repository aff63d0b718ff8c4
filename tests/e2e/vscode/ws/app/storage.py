"""An in-memory order store."""
from app.parser import Order


class OrderStore:
    def __init__(self) -> None:
        self._orders: dict[int, Order] = {}

    def save(self, order: Order) -> int:
        order_id = len(self._orders) + 1
        self._orders[order_id] = order
        return order_id
