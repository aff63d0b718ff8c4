"""The one declaration of the protocol, `protocol.json` beside this module (docs/protocol.md).

JSON rather than Python so every side can read the same file: the server takes its limits and
budget tiers from it, the MCP tool schemas are built from its `params`, and
tests/test_protocol.py checks the server's answers, the VS Code client (lsp_ext.ts, package.json)
and the Neovim plugin against it, so a field, limit or language added on one side only fails there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PROTOCOL: dict[str, Any] = json.loads((Path(__file__).with_name("protocol.json")).read_text(encoding="utf-8"))
LANGUAGES: dict[str, tuple[str, ...]] = {lang: tuple(exts) for lang, exts in PROTOCOL["languages"].items()}


def params(request: str) -> dict[str, dict]:
    """The request's fields as JSON Schema, in their declared order."""
    return PROTOCOL["requests"][request]["params"]


def param(request: str, name: str) -> dict:
    return params(request)[name]


def bounds(request: str, name: str) -> tuple[int, int]:
    """(minimum, maximum) of an integer field."""
    p = param(request, name)
    return p["minimum"], p["maximum"]


def explore_budget(file_count: int) -> int:
    """Explore's default `maxOutputChars` for a repository of this many files (the first tier it is below)."""
    for tier in PROTOCOL["requests"]["explore"]["budgetTiers"]:
        if tier["filesBelow"] is None or file_count < tier["filesBelow"]:
            return tier["maxOutputChars"]
    raise AssertionError("the last budget tier has no bound")
