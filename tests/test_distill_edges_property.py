"""A property of every distill pack: each arrow of its lifecycle picture is a proven relation.

The walk may read likely edges to decide what to show, but the pack's `flow.edges` (the
flowchart's arrows) and its facts speak of proven ones only: for each edge (a, b, kind) there is
a relation of that kind the resolver proved, from code inside source a (a unit held by a type
shown whole speaks for that type) to code inside source b. Over every hand-written fixture
repository, as an overview and as a question about one of its names, at budgets from small to the
release cap.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.index.index import RootIndex
from codegraph.requests import run_distill_frame

from conftest import FIXTURES, fixture_index

REPOS = sorted(
    [p for p in (FIXTURES / "distill").iterdir() if p.is_dir()]
    + [p for p in (FIXTURES / "explore").iterdir() if p.is_dir()]
    + [FIXTURES / "likely", FIXTURES / "queries" / "py-shop"]
)
index_of = fixture_index


def proven_edges(index: RootIndex) -> set[tuple[str, int, str, int, str]]:
    """(src path, src line, dst path, dst line, kind) of every relation the resolver proved,
    each end at its unit's first line (so a span check can place it)."""
    units = index.resolver.units
    out = set()
    for bindings in index.bindings.values():
        for e in bindings.edges:
            src, dst = units.get(e.src), units.get(e.dst)
            if src is not None and dst is not None:
                out.add((src.path, src.start_line, dst.path, dst.start_line, e.kind))
    return out


def inside(source: dict, files: list[dict], path: str, line: int) -> bool:
    first, last = source["lines"]
    return files[source["file"]]["path"] == path and first <= line <= last


def unproven_arrows(pack: dict, index: RootIndex) -> list[str]:
    sources, files = pack["sources"], pack["files"]
    proven = proven_edges(index)
    return [
        f"{sources[a]['symbol']} → {sources[b]['symbol']} ({kind})"
        for a, b, kind in pack.get("flow", {}).get("edges", [])
        if not any(k == kind and inside(sources[a], files, sp, sl) and inside(sources[b], files, dp, dl) for sp, sl, dp, dl, k in proven)
    ]


@pytest.mark.parametrize("root", REPOS, ids=lambda p: p.name)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), budget=st.integers(4_000, 22_016))
def test_every_arrow_of_the_picture_is_a_proven_relation(root, data, budget):
    index = index_of(root)
    params: dict = {"format": "json", "budgetBytes": budget}
    names = sorted({u.name for facts in index.files.values() for u in facts.units if u.kind != "statement" and u.name.isidentifier()})
    if names and data.draw(st.booleans(), label="as a question"):
        params.update(scenario="query", question=f"how does {data.draw(st.sampled_from(names), label='name')} work?")
    pack = run_distill_frame(index, params)["pack"]
    assert unproven_arrows(pack, index) == []


def test_the_check_sees_an_arrow_no_call_proves():
    """Not vacuous: the fixtures' packs draw arrows, and an arrow turned around (callee → caller)
    is one the index does not prove."""
    index = index_of(FIXTURES / "distill" / "py-wsgi-lib")
    pack = run_distill_frame(index, {"format": "json"})["pack"]
    edges = pack["flow"]["edges"]
    assert edges and unproven_arrows(pack, index) == []
    pack["flow"]["edges"] = [[b, a, kind] for a, b, kind in edges if [b, a, kind] not in edges]
    assert unproven_arrows(pack, index)
