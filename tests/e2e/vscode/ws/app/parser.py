"""Parses `item:quantity` requests."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    item: str
    quantity: int


def parse_order(raw: str) -> Order | None:
    item, _, quantity = raw.partition(":")
    if not item or not quantity.isdigit():
        return None
    return Order(item.strip(), int(quantity))
