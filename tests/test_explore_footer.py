"""The answer's last line accounts for what it leaves out: every candidate file the answer does not
show (`stats.dropped`) is named, by its flow bodies or its path, or counted as holding no body to
add; and a file's `related:` reason names a unit its section shows."""

from __future__ import annotations

import re

import pytest

from codegraph.explore.engine import explore
from codegraph.explore.model import ExploreRequest
from conftest import FIXTURES, fixture_index

QUESTIONS = {
    "excerpt-python": "what exceptions can be raised when a connection fails or times out?",
    "excerpt-rust": "How does a job go from `Queue::submit` to the pump that drives the inner handler?",
    "pipeline-ts": "how does a stage hand its output to the next stage?",
    "middleware-go": "how does a request pass through the middleware chain to the handler?",
    "family-python": "how is a shape drawn?",
}


def _accounted(text: str) -> int:
    """How many left-out files the footer accounts for apart from those it names by flow bodies."""
    footer = text.rsplit("\n_", 1)[-1] if text.endswith("_\n") else ""
    files = re.search(r"(\d+) less related files?", footer)
    idle = re.search(r"(\d+) (?:other )?candidate files? held no body", footer)
    return (int(files.group(1)) if files else 0) + (int(idle.group(1)) if idle else 0)


@pytest.mark.parametrize("name", sorted(QUESTIONS))
@pytest.mark.parametrize("budget", [1_500, 2_500, 4_000, 6_000])
def test_every_file_left_out_is_accounted_for(name, budget):
    index = fixture_index(FIXTURES / "explore" / name)
    answer = explore(index, ExploreRequest(QUESTIONS[name], budget), lambda: None)
    text, dropped = answer["text"], answer["stats"]["dropped"]
    assert len(text) <= budget
    if dropped:
        assert text.endswith("_\n") and ("_Left out" in text or "held no body" in text), text[-300:]
        assert _accounted(text) <= dropped, text[-300:]
    for f in answer["files"]:
        if f["reason"].startswith("related:") and f["mode"] != "full":
            named = f["reason"].removeprefix("related:")
            assert named in {s.removesuffix(" (excerpt)").split("@")[0] for s in f["symbols"]}, f


def test_a_file_left_out_without_flow_bodies_is_named():
    """Only the flow bodies that did not fit were named; a candidate file crowded out whole (no
    flow body in it) left `stats.dropped` above zero and no footer at all."""
    index = fixture_index(FIXTURES / "explore" / "excerpt-python")
    answer = explore(index, ExploreRequest("what exceptions can be raised when a connection fails or times out?", 1_500), lambda: None)
    shown = {f["path"] for f in answer["files"]}
    assert answer["stats"]["dropped"] > 0
    unnamed = [p for p in ("transport/errors.py", "transport/pool.py") if p not in shown]
    assert unnamed, answer["files"]
    assert all(p in answer["text"].rsplit("\n_", 1)[-1] for p in unnamed), answer["text"][-400:]


def test_the_footer_shrinks_to_fit_its_room():
    from codegraph.explore.engine import _footer

    bodies, files = [f"Type{k}.method_{k}" for k in range(12)], [f"src/pkg/module_{k}.py" for k in range(9)]
    roomy = _footer(bodies, files, 2, 28_000, 10_000)
    assert "`Type7.method_7` and 4 more" in roomy and "9 less related files: src/pkg/module_0.py" in roomy and "2 other candidate files" in roomy
    tight = _footer(bodies, files, 2, 1_000, 160)
    assert len(tight) <= 160 and "12 flow bodies; 9 less related files" in tight, tight
    assert _footer([], [], 1, 1_000, 100) == "\n_1 candidate file held no body to add._\n"
    assert _footer([], [], 0, 1_000, 100) == ""


def test_a_related_reason_names_a_unit_the_section_shows():
    """The file was brought in for `Pump.run`, its best unit, which is too long for 1,500
    characters; its reason said `related:Pump.run` over a section showing `Pump.fail` and
    `Pump.requeue`. It names the best unit shown."""
    index = fixture_index(FIXTURES / "explore" / "excerpt-rust")
    answer = explore(index, ExploreRequest("how is the result returned?", 1_500), lambda: None)
    pump = next(f for f in answer["files"] if f["path"] == "src/pump.rs")
    assert "Pump.run" not in pump["symbols"] and pump["reason"].startswith("related:"), pump
    assert pump["reason"].removeprefix("related:") in pump["symbols"], pump
