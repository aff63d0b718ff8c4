"""Canonical JSON: one spelling per value, so digests are stable and sizes are predictable."""

from __future__ import annotations

import json
from typing import Any, Callable


def canonical_json(value: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """Sorted keys, no spaces, UTF-8 (not \\u escapes), no NaN."""
    return json.dumps(value, default=default, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
