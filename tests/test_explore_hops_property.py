"""A property of every explore answer, for any question: a hop the answer gives as a fact is one.

The flow may follow likely edges (a rule's guess at dynamic dispatch, callbacks, name matches) to
decide what to read, but what the answer *says* keeps them apart: a hop labelled `resolved` is a
call (or construction) the index proves, at that line; a `nested` hop is a callable defined inside
the other; every other hop names its likely rule, in the JSON and in the `## Flow` listing
("(likely: rule)"). Questions are drawn from each repository's own names and words, in code form
and in prose, with noise, at budgets from tiny to the default.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.explore.engine import explore, understand
from codegraph.explore.model import ExploreRequest
from codegraph.explore.relevance import split_words
from codegraph.index.index import RootIndex

from conftest import FIXTURES, fixture_index

REPOS = sorted(
    [p for p in (FIXTURES / "explore").iterdir() if p.is_dir()]
    + [p for p in (FIXTURES / "distill").iterdir() if p.is_dir()]
    + [FIXTURES / "likely", FIXTURES / "queries" / "py-shop", FIXTURES / "idioms"]
)
PROVEN_KINDS = ("calls", "constructs")
_HOP_LINE = re.compile(r"^\d+\. `(?P<src>[^`]+)` → `(?P<dst>[^`]+)` — (?P<verb>called|constructed|defined inside it) at (?P<path>\S+):(?P<line>\d+)(?P<how>.*)$")
index_of = fixture_index


def vocabulary(index: RootIndex) -> tuple[list[str], list[str]]:
    """The repository's qualified names (code form) and the words its names are made of (prose)."""
    units = [u for facts in index.files.values() for u in facts.units if u.kind != "statement"]
    names = sorted({u.qualname for u in units})
    words = sorted({w.lower() for u in units for w in split_words(u.name) if len(w) > 2})
    return names, words


@st.composite
def questions(draw, names: list[str], words: list[str]) -> str:
    parts = draw(st.lists(st.one_of(
        st.sampled_from(words).map(lambda w: w),
        st.sampled_from(names).map(lambda n: f"`{n}`"),
        st.sampled_from(["how does", "where is", "what happens when", "and", "then", "the", "walk me through", "I run"]),
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz._()", min_size=1, max_size=12),
    ), min_size=1, max_size=9))
    return " ".join(parts) + draw(st.sampled_from(["?", "", "."]))


def proven(index: RootIndex, src, dst, line: int, kinds: tuple[str, ...] = PROVEN_KINDS) -> bool:
    """A call or construction (an edge of one of `kinds`) the resolver proved from src, or from a
    callable nested in it (a closure runs as part of its callable: graph/likely.py gives its calls
    to the enclosing one too, at the same line), to dst on `line`. A construction proven on the
    class is shown as a hop to its constructor."""
    targets = {dst.id}
    if dst.parent and (dst.kind == "constructor" or dst.name in ("__init__", "constructor")):
        targets.add(dst.parent)
    units = index.resolver.units

    def inside(uid: str) -> bool:
        while uid:
            if uid == src.id:
                return True
            u = units.get(uid)
            uid = u.parent if u is not None and u.is_callable else ""
        return False

    bindings = index.bindings.get(src.path)
    return bindings is not None and any(
        e.dst in targets and e.line == line and e.kind in kinds and inside(e.src) for e in bindings.edges
    )


def flow_lines(text: str) -> list[re.Match]:
    if not text.startswith("## Flow"):
        return []
    section = text.split("\n#### ", 1)[0]
    return [m for m in (_HOP_LINE.match(line) for line in section.splitlines()) if m]


@pytest.mark.parametrize("root", REPOS, ids=lambda p: p.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), budget=st.integers(1_500, 28_000))
def test_a_hop_given_as_fact_is_proven_and_every_other_names_its_rule(root, data, budget):
    index = index_of(root)
    names, words = vocabulary(index)
    query = data.draw(questions(names, words), label="question")
    req = ExploreRequest(query, budget)
    flow = understand(index, req, lambda: None).flow
    answer = explore(index, req, lambda: None)
    # the answer's hops are the flow's, in order
    assert [(h["from"], h["to"], h["line"], h["how"]) for h in answer["hops"]] == [(h.src.qualname, h.dst.qualname, h.line, h.how) for h in flow.hops]
    for hop in flow.hops:
        if hop.how == "resolved":
            assert proven(index, hop.src, hop.dst, hop.line), f"{hop.src.id} → {hop.dst.id} at line {hop.line} is labelled resolved but the index proves no such call"
        elif hop.how == "nested":
            assert hop.dst.parent == hop.src.id, f"{hop.dst.id} is not defined inside {hop.src.id}"
        else:
            assert hop.how and hop.how not in ("proven", "called"), hop
    facts = {(h.src.qualname, h.dst.qualname, h.line) for h in flow.hops if h.how in ("resolved", "nested")}
    for m in flow_lines(answer["text"]):
        said = m.group("how")
        key = (m.group("src"), m.group("dst"), int(m.group("line")))
        if said.startswith(" (likely: "):
            continue
        # a hop listed without a rule must be a proven one (or a callable defined inside its caller)
        assert key in facts, f"listed as a fact: {m.group(0)}"
        assert said == "", m.group(0)
        nested = key in {(h.src.qualname, h.dst.qualname, h.line) for h in flow.hops if h.how == "nested"}
        assert (m.group("verb") == "defined inside it") == nested, m.group(0)  # a definition is never "called at"
        # a construction (a struct or composite literal, `new T`, `T(…)`) is never "called at", nor a call "constructed at"
        built = any(proven(index, h.src, h.dst, h.line, ("constructs",)) for h in flow.hops if h.how == "resolved" and (h.src.qualname, h.dst.qualname, h.line) == key)
        assert (m.group("verb") == "constructed") == built, m.group(0)


def test_the_property_sees_likely_hops():
    """The property is not vacuous: on the likely-edge fixture a question about a dispatched call
    traces a hop that only a rule proposes, and the listing says so."""
    index = index_of(FIXTURES / "likely")
    seen_likely = 0
    for _, words in [vocabulary(index)]:
        for w in words[:60]:
            flow = understand(index, ExploreRequest(f"how does {w} work", 28_000), lambda: None).flow
            seen_likely += sum(1 for h in flow.hops if h.how not in ("resolved", "nested"))
    assert seen_likely > 0


def test_a_likely_hop_says_its_rule_in_words():
    """A reader of the listing gets what the guess rests on ("a method of that name in this file"),
    not the rule's internal name; the JSON hops keep the name. Every rule a hop can carry has words."""
    from codegraph.explore.flow import NAMED_VARIANT
    from codegraph.graph.rules import RULE_CONFIDENCE, RULE_WORDS

    assert set(RULE_CONFIDENCE) - {"resolved"} | {"table-entry", NAMED_VARIANT} <= set(RULE_WORDS)
    index = index_of(FIXTURES / "likely")
    said = []
    for w in vocabulary(index)[1][:60]:
        answer = explore(index, ExploreRequest(f"how does {w} work", 28_000), lambda: None)
        likely = {h["how"] for h in answer["hops"] if h["how"] not in ("resolved", "nested")}
        said += [(m.group("how"), likely) for m in flow_lines(answer["text"]) if m.group("how")]
    assert said, "no likely hop listed: the test would be vacuous"
    for how, rules in said:
        assert any(how == f" (likely: {RULE_WORDS[r]})" for r in rules), how
        assert not any(r in how for r in rules), how
