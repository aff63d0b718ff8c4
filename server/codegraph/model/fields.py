"""The request errors and the field readers every request's validation uses (docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any


class InvalidParams(Exception):
    """-32602: names the field and the rule it broke."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"invalid params: `{field}` {rule}")
        self.field = field
        self.rule = rule


class RequestFailed(Exception):
    """-32803: the request was understood but cannot be answered as asked."""


def key_name(key: str) -> str:
    """An unknown key as an error names it: as sent, or by its JSON spelling cut short when it is
    blank, unprintable or huge."""
    return key if key.strip() and key.isprintable() and len(key) <= 80 else json.dumps(key)[:80]


def require_object(params: Any) -> dict:
    if params is None:
        return {}
    if hasattr(params, "_asdict"):  # pygls hands custom params over as namedtuples
        params = params._asdict()
    if not isinstance(params, dict):
        raise InvalidParams("params", "must be an object")
    return {k: _plain(v) for k, v in params.items()}


def _plain(value: Any) -> Any:
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def get_str(params: dict, field: str, *, required: bool = False, default: str | None = None, max_len: int = 4000) -> str | None:
    value = params.get(field, None)
    if value is None:
        if required:
            raise InvalidParams(field, "is required")
        return default
    if not isinstance(value, str):
        raise InvalidParams(field, f"must be a string, got {type(value).__name__}")
    if required and not value.strip():
        raise InvalidParams(field, "must not be blank")
    if len(value) > max_len:
        raise InvalidParams(field, f"must be at most {max_len} characters (got {len(value)})")
    return value


def get_int(params: dict, field: str, lo: int, hi: int, default: int | None) -> int | None:
    value = params.get(field, None)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InvalidParams(field, f"must be an integer, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise InvalidParams(field, f"must be between {lo:,} and {hi:,} (got {value:,})")
    return value


def get_bool(params: dict, field: str, default: bool) -> bool:
    value = params.get(field, None)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidParams(field, f"must be a boolean, got {type(value).__name__}")
    return value


def get_enum(params: dict, field: str, allowed: tuple[str, ...], default: str) -> str:
    value = params.get(field, None)
    if value is None:
        return default
    if value not in allowed:
        raise InvalidParams(field, f"must be one of {', '.join(repr(a) for a in allowed)} (got {value!r})"[:300])
    return value
