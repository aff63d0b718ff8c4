"""What the `## Flow` listing says of a hop, and how often: a construction is no call, and a call to
an overloaded name is one call site; an `@overload` declaration is no body."""

from __future__ import annotations

import re

from codegraph.explore.engine import explore
from codegraph.explore.model import ExploreRequest
from codegraph.explore.pack import Piece, file_view, pack
from conftest import FIXTURES, fixture_index


def _listing(text: str) -> list[str]:
    return [line for line in text.split("\n#### ", 1)[0].splitlines() if re.match(r"\d+\. ", line)]


def test_a_struct_or_composite_literal_is_constructed_not_called():
    """Go's `Log{Data: cmd}` and `&logFuture{log: l}` build values: the resolver proves them as
    `constructs` edges, and the listing says "constructed at", never "called at"."""
    index = fixture_index(FIXTURES / "explore" / "construct-go")
    text = explore(index, ExploreRequest("what does `Raft.Apply` do when the node is not the leader?", 6_000), lambda: None)["text"]
    hops = _listing(text)
    assert "1. `Raft.Apply` → `Raft.ApplyLog` — called at raft.go:25" in hops, hops
    assert any(h.endswith("`Raft.Apply` → `Log` — constructed at raft.go:25") for h in hops), hops
    assert any(h.endswith("`Raft.ApplyLog` → `logFuture` — constructed at raft.go:30") for h in hops), hops
    assert not any("constructed" in h for h in hops if "ApplyLog`" in h.split("→")[1]), hops


OVERLOADS = FIXTURES / "explore" / "overload-python"
ENV = "tmpl/environment.py"


def test_a_call_to_an_overloaded_name_is_listed_once():
    """`self.compile(source)` reaches the implementation the `@overload` declarations stand above (a
    proven call: the stubs are no target of their own), one hop in the JSON and one line in the listing."""
    index = fixture_index(OVERLOADS)
    answer = explore(index, ExploreRequest("how does `Environment.from_string` compile a template?", 6_000), lambda: None)
    hops = [h for h in _listing(answer["text"]) if "`Environment.from_string` → `Environment.compile`" in h]
    assert len(hops) == 1, _listing(answer["text"])
    to_compile = [h for h in answer["hops"] if (h["from"], h["to"]) == ("Environment.from_string", "Environment.compile")]
    assert [h["how"] for h in to_compile] == ["resolved"], to_compile


def test_an_overload_declaration_takes_no_body_place():
    """The two `@overload` declarations of `compile` are signatures, `...` for a body: shown
    beside the implementation they were `compile@24` and `compile@27` in the heading, and the
    implementation `compile@30`."""
    index = fixture_index(OVERLOADS)
    units = list(index.files[ENV].units)
    view = file_view(ENV, "bodies", "spine", 1.0, index.sources[ENV], units)
    compiles = [u for u in units if u.qualname == "Environment.compile"]
    assert len(compiles) == 3
    pieces = [Piece(u, ENV, 0.9, k, True) for k, u in enumerate(compiles)]
    shown, left_out = pack({ENV: view}, pieces, {}, 100_000, lambda: None)
    assert shown[0].symbols == ["Environment.compile"] and not left_out, shown[0].symbols
    implementation = max(compiles, key=lambda u: u.start_line)
    assert f"{implementation.start_line}\t    def compile(self, source, raw=False):" in shown[0].text
    assert "24\t    @t.overload" not in shown[0].text, shown[0].text
