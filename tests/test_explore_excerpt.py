"""A flow body too long for what is left of the budget is shown as an excerpt: its signature, its
call sites and the lines that answer (what it hands back, the question's words), and its heading
says it is an excerpt, never "full bodies"."""

from __future__ import annotations

import pytest

from codegraph.explore.engine import explore
from codegraph.explore.model import ExploreRequest
from codegraph.explore.pack import Piece, file_view, pack
from codegraph.index.index import RootIndex
from codegraph.model.facts import Unit
from conftest import FIXTURES
from explore_metrics import sections

ROOT = FIXTURES / "explore" / "excerpt-rust"
QUESTION = "How does a job go from `Queue::submit` to the pump that drives the inner handler, and how does the caller get the outcome back?"
PUMP = "src/pump.rs"


@pytest.fixture(scope="module")
def index() -> RootIndex:
    idx = RootIndex(ROOT, use_cache=False)
    idx.build(workers=1)
    return idx


def _line(text: str, n: int) -> int:
    return text.index(f"\n{n}\t")


def test_a_cut_flow_body_keeps_the_lines_that_hand_its_result_back(index):
    """`Pump::run` is 50 lines of bookkeeping around one answer: `job.reply.send(Ok(outcome))`
    (line 76) after `self.inner.handle(…)` (75). Cut to its call sites alone it showed only the
    error sends (`requeue`, `fail` and `send(Err(e))`), never how the caller gets the outcome back."""
    cut = 0
    for budget in (2_000, 2_500, 3_000):
        result = explore(index, ExploreRequest(QUESTION, budget), lambda: None)
        text = result["text"]
        assert len(text) <= budget
        symbols = next(f["symbols"] for f in result["files"] if f["path"] == PUMP)
        if "Pump.run" in symbols:
            continue  # whole at this budget
        if "Pump.run (excerpt)" not in symbols and "`Pump.run`" in text.rsplit("_Left out", 1)[-1]:
            continue  # left out whole at the smallest budget (the flow's proven hops into `Handler` take the room)
        cut += 1
        shown = sections(text)[PUMP][1]
        assert {75, 76} <= shown, text  # the inner handler's outcome, sent back
        assert "Pump.run (excerpt)" in symbols, symbols
        assert 50 not in shown, text  # the bookkeeping stays elided
        # in source order, `⋮` where lines are left out
        assert _line(text, 42) < _line(text, 75) < _line(text, 76) < _line(text, 83), text
        assert any(f"\n⋮\n{n}\t" in text for n in (72, 73, 75)), text  # (73: `self.inner.ready()`, a proven call)
    assert cut, "no budget cut Pump.run: the fixture no longer tests the excerpt"


def _pump_view(index, mode: str):
    units = list(index.files[PUMP].units)
    run = next(u for u in units if u.qualname == "Pump.run")
    view = file_view(PUMP, mode, "spine", 1.0, index.sources[PUMP], units)
    return view, run


@pytest.mark.parametrize("mode", ["focused", "bodies"])
def test_the_heading_of_an_excerpt_says_so(index, mode):
    """A focused heading promises "full bodies for the flow"; over a body cut to an excerpt it
    must say which are not whole, and the body's name is marked wherever the heading lists it."""
    view, run = _pump_view(index, mode)
    whole, _ = pack({PUMP: view}, [Piece(run, PUMP, 0.9, 0, True)], {run.id: [79, 82]}, 100_000, lambda: None, question=QUESTION)
    assert "Pump.run" in whole[0].symbols and "(excerpt)" not in whole[0].text
    view, run = _pump_view(index, mode)
    budget = len(whole[0].text) - 600  # too little for the whole body, enough for its excerpt
    shown, left_out = pack({PUMP: view}, [Piece(run, PUMP, 0.9, 0, True)], {run.id: [79, 82]}, budget, lambda: None, question=QUESTION)
    assert not left_out and len(shown[0].text) <= budget
    text = shown[0].text
    head = text.splitlines()[0]
    assert shown[0].symbols == ["Pump.run (excerpt)"] and "Pump.run (excerpt)" in head, head
    if mode == "focused":
        assert "full bodies for the flow and the named methods but those marked (excerpt)" in head, head
        assert "full bodies for the flow and the named methods;" not in head, head
    assert "let _ = job.reply.send(Ok(outcome));" in text, text


def test_an_excerpt_name_is_never_hidden_behind_more():
    from codegraph.render.markdown import section

    head = section("a.py", [f"f{k}" for k in range(10)] + ["g (excerpt)"], "clusters", "1\tx", excerpts=["g (excerpt)"]).splitlines()[0]
    assert "g (excerpt), +2 more" in head, head


def _unit(start: int, end: int) -> Unit:
    return Unit("m::f", "m", "f", "f", "function", 0, 1, start, end, start, start, 0)


@pytest.mark.parametrize(
    "source, question, expected",
    [
        (  # Go: the result sent on a channel, not the error returns that fill the body
            "func (w *worker) loop(jobs chan job, results chan<- result) error {\n"
            + "\tif err := w.open(); err != nil {\n\t\treturn fmt.Errorf(\"open: %w\", err)\n\t}\n" * 4
            + "\tout := w.process(j)\n\tresults <- out\n\treturn nil\n}",
            "how does the worker hand the result back",
            [15],
        ),
        (  # Python: the docstring's words are prose; the value yielded is the answer
            'def scrape(self, response):\n    """The response is parsed here, and the item handed on."""\n'
            "    self.stats.inc()\n    self.log(1)\n    item = self.parse(response)\n    yield item\n",
            "how is the response parsed into an item",
            [6, 5],
        ),
        (  # TypeScript: the settled promise first, the rejection's `reject(new Error(…))` not at all
            "function request(config) {\n  return new Promise((resolve, reject) => {\n    const xhr = open(config);\n"
            "    xhr.onerror = () => reject(new Error('network'));\n    xhr.onload = () => resolve(settle(xhr));\n  });\n}",
            "how does the adapter settle the promise",
            [5, 2],
        ),
    ],
)
def test_answer_lines_are_found_by_syntax_in_any_language(source, question, expected):
    from codegraph.explore.pack import answer_lines, question_words

    lines = source.splitlines()
    got = [n for n, _ in answer_lines(_unit(1, len(lines)), lines, question_words(question), [], len(expected))]
    assert got == expected, [lines[n - 1] for n, _ in answer_lines(_unit(1, len(lines)), lines, question_words(question), [], 6)]


TRANSPORT = FIXTURES / "explore" / "excerpt-python"
ERRORS_QUESTION = "what exceptions can be raised when a connection fails or times out?"
RAISES = {37, 40, 41, 44, 45}  # HTTPAdapter.send's `raise ConnectionError/ConnectTimeout/ReadTimeout/ProxyError/SSLError`


@pytest.fixture(scope="module")
def transport() -> RootIndex:
    idx = RootIndex(TRANSPORT, use_cache=False)
    idx.build(workers=1)
    return idx


def test_a_question_about_errors_is_answered_by_the_lines_that_raise_them(transport):
    """Asked what can be raised, the raises are the answer: each scores as a handoff, not as a
    line that merely says "raise"; "connection" meets `ConnectTimeout` and "exceptions" meets
    `except`. Scored as before, the lines that mention a connection (`conn.connection_timeout =
    timeout`) came ahead of the later raises and the cap cut `ProxyError` and `SSLError`."""
    from codegraph.explore.pack import answer_lines, question_words

    path = "transport/adapters.py"
    send = next(u for u in transport.files[path].units if u.qualname == "HTTPAdapter.send")
    lines = transport.sources[path].decode().splitlines()
    got = [n for n, _ in answer_lines(send, lines, question_words(ERRORS_QUESTION), [], len(RAISES))]
    assert set(got) == RAISES, [lines[n - 1] for n in got]
    # asked about something else, a raise is no handoff: the result sent back comes first
    got = [n for n, _ in answer_lines(send, lines, question_words("what does the adapter send back?"), [], 1)]
    assert got == [46], [lines[n - 1] for n in got]


def _transport_pack(index: RootIndex, budget: int, sites: list[int] | None = None):
    views = {p: file_view(p, "bodies", "spine", 1.0, index.sources[p], list(index.files[p].units)) for p in ("transport/adapters.py", "transport/pool.py")}
    unit = lambda path, name: next(u for u in index.files[path].units if u.qualname == name)  # noqa: E731
    send = unit("transport/adapters.py", "HTTPAdapter.send")
    pieces = [  # in this order (alpha 0: by probability): a long flow body, a body off the flow, a short flow body
        Piece(send, "transport/adapters.py", 0.9, 0, True),
        Piece(unit("transport/pool.py", "PoolManager.describe"), "transport/pool.py", 0.5, -1, False),
        Piece(unit("transport/pool.py", "PoolManager.clear"), "transport/pool.py", 0.1, 1, True),
    ]
    shown, left_out = pack(views, pieces, {send.id: [14] if sites is None else sites}, budget, lambda: None, alpha=0.0, question=ERRORS_QUESTION)
    return {v.path: v for v in shown}, left_out


def test_an_excerpt_keeps_its_answer_before_the_bodies_off_the_flow(transport):
    """A cut flow body's answer lines come at its turn: ahead of a body off the flow ranked after it
    (`PoolManager.describe`), which took their room before and left the excerpt its call sites."""
    shown, left_out = _transport_pack(transport, 1_200)
    assert sum(len(v.text) for v in shown.values()) <= 1_200 and not left_out
    adapters = shown["transport/adapters.py"]
    assert adapters.symbols == ["HTTPAdapter.send (excerpt)"]
    assert RAISES <= sections(adapters.text)["transport/adapters.py"][1], adapters.text
    assert shown["transport/pool.py"].symbols == ["PoolManager.clear"]  # the flow's short body, whole; not `describe`


def test_an_excerpt_gives_its_answer_lines_back_to_a_whole_flow_body(transport):
    """Part of a flow body never takes a whole one's room: a later flow body that fits only
    without the excerpt's answer lines takes them back, the least telling first."""
    shown, left_out = _transport_pack(transport, 800)
    assert sum(len(v.text) for v in shown.values()) <= 800 and not left_out
    assert shown["transport/pool.py"].symbols == ["PoolManager.clear"]
    kept = sections(shown["transport/adapters.py"].text)["transport/adapters.py"][1]
    assert 37 in kept and not {40, 41, 44, 45} & kept, shown["transport/adapters.py"].text  # the best raise stays


def test_an_excerpt_that_would_show_only_its_signature_is_left_out(transport):
    """A cut body with no call sites whose answer lines do not fit would be its class line and its
    `def` line: no excerpt, it is left out and named as such."""
    from codegraph.explore.pack import compact_ranges

    path = "transport/adapters.py"
    view = file_view(path, "bodies", "spine", 1.0, transport.sources[path], list(transport.files[path].units))
    send = next(u for u in view.defs if u.qualname == "HTTPAdapter.send")
    signature = view.render(compact_ranges(send, [], {u.id: u for u in view.defs}), ["HTTPAdapter.send (excerpt)"], "clusters")
    shown, left_out = _transport_pack(transport, len(signature) + 5, sites=[])
    assert path not in shown, shown[path].text
    assert "HTTPAdapter.send" in left_out, left_out
