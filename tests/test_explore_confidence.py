"""How sure an answer is: `stats.expectedRecall`, the ranking's own estimate of the share of the
needed code the answer shows in full, and the line a doubtful answer ends with (docs/explore.md,
"How sure the answer is"). Its calibration on unseen code is measured by `bench/eval_explore.py`."""

from __future__ import annotations

import json

import pytest

from codegraph.explore import engine
from codegraph.explore.engine import explore
from codegraph.explore.model import ExploreRequest
from codegraph.index.index import RootIndex
from conftest import FIXTURES
from test_explore import CASES, indexes  # noqa: F401  (the fixtures' indexes, built once per module)


def ask(index: RootIndex, name: str, budget: int) -> dict:
    query = json.loads((FIXTURES / "explore" / name / "gold.json").read_text())["query"]
    return explore(index, ExploreRequest(query, budget, True), lambda: None)


@pytest.mark.parametrize("name", CASES)
def test_the_estimate_is_a_share_that_grows_with_the_budget(indexes, name):
    small = ask(indexes(name), name, 1_000)["stats"]["expectedRecall"]
    large = ask(indexes(name), name, 200_000)["stats"]["expectedRecall"]
    assert 0.0 <= small <= large <= 1.0


def test_a_doubtful_answer_says_so_in_the_footers_room_and_shows_the_same_code(indexes, monkeypatch):
    # the family fixture at 3,000 characters: most of the flow cannot fit
    result = ask(indexes("family-python"), "family-python", 3_000)
    assert result["stats"]["expectedRecall"] < engine.LOW_CONFIDENCE
    assert len(result["text"]) <= 3_000
    last = result["text"].rstrip("\n").splitlines()[-1]
    assert last.startswith("_Low confidence:") and f"{result['stats']['expectedRecall']:.0%}" in last
    assert "`" not in last  # it advises, it names no code
    monkeypatch.setattr(engine, "LOW_CONFIDENCE", 0.0)
    quiet = ask(indexes("family-python"), "family-python", 3_000)
    assert "Low confidence" not in quiet["text"]
    assert [(f["path"], f["mode"], f["symbols"], f["chars"]) for f in quiet["files"]] == [(f["path"], f["mode"], f["symbols"], f["chars"]) for f in result["files"]]


def test_a_sure_answer_says_nothing(indexes):
    result = ask(indexes("family-member-python"), "family-member-python", 6_000)
    assert result["stats"]["expectedRecall"] >= engine.LOW_CONFIDENCE
    assert "Low confidence" not in result["text"]
