"""distill's learned selection and its frame: entry surfaces of a library, weights shipped as data,
a frame that carries code."""

from __future__ import annotations

import json
from pathlib import Path

from codegraph.distill import features, ranker
from codegraph.index.index import RootIndex
from codegraph.requests import run_distill_frame

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "distill"
_CACHE: dict[str, RootIndex] = {}


def built(name: str) -> RootIndex:
    if name not in _CACHE:
        index = RootIndex(FIXTURES / name, use_cache=False)
        index.build()
        _CACHE[name] = index
    return _CACHE[name]


def pack_of(name: str, **params) -> dict:
    return run_distill_frame(built(name), {"format": "json", **params})["pack"]


def main_roles(pack: dict) -> dict[str, str]:
    return {pack["files"][s["file"]]["path"] + "::" + s["symbol"]: s["roles"][0] for s in pack["sources"]}


def test_a_library_enters_through_what_its_package_exports() -> None:
    """A library has no main: its entry is what `__init__` exports, not a maintainers' tool program
    beside it, nor a module's `__main__` self-test block."""
    roles = main_roles(pack_of("py-lib-surface"))
    entries = {k for k, r in roles.items() if r == "TRIGGER_ENTRY"}
    assert "kvlite/client.py::connect" in entries, roles
    assert not any(k.startswith("tools/") for k in entries), roles
    assert not any("main_guard" in k for k in entries), roles


def test_test_support_shipped_in_the_package_is_not_the_core() -> None:
    roles = main_roles(pack_of("py-lib-surface"))
    assert "kvlite/store.py::Store.save" in roles, roles
    assert not any(k.startswith("kvlite/mock_store.py") and r != "AUXILIARY" and r in ("TRIGGER_ENTRY", "STATE_ORCHESTRATE")
                   for k, r in roles.items()), roles


def test_the_weights_are_data_over_named_features() -> None:
    weights = json.loads(ranker.WEIGHTS.read_text())
    assert set(weights["features"]) <= set(features.NAMES)
    n = len(weights["features"])
    assert len(weights["anchor"]["coef"]) == n and len(weights["role"]["coef"][0]) == n
    assert set(weights["role"]["classes"]) <= set(ranker.ROLE_KEYS)
    # the weights are numbers and feature names: nothing in them names a path, a symbol or a corpus
    text = json.dumps(weights)
    assert "/" not in text and "::" not in text


def test_every_source_carries_its_body_or_says_what_was_left_out() -> None:
    pack = pack_of("py-wsgi-lib", budgetBytes=3000)
    left = [s for s in pack["sources"] if "alias_of" not in s and "body" not in s]
    assert left, "the small budget should leave some body out"
    assert all(s["body_left_out"] == s["bytes"] for s in left)


def test_bodies_come_before_notes_about_them() -> None:
    """A frame too small for everything keeps code over facts: no fact is delivered while a body
    that would fit in its place is left out."""
    pack = pack_of("py-wsgi-lib", budgetBytes=6000)
    frame = len(json.dumps({"pack": pack}, ensure_ascii=False, separators=(",", ":")).encode())
    bodies = sum(len(s.get("body", "").encode()) for s in pack["sources"])
    facts = sum(len(json.dumps(f).encode()) for f in pack["facts"])
    assert bodies > facts, (bodies, facts, frame)
