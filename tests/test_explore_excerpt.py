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
        cut += 1
        shown = sections(text)[PUMP][1]
        assert {75, 76} <= shown, text  # the inner handler's outcome, sent back
        assert "Pump.run (excerpt)" in symbols, symbols
        assert 50 not in shown, text  # the bookkeeping stays elided
        # in source order, `⋮` where lines are left out
        assert _line(text, 42) < _line(text, 75) < _line(text, 76) < _line(text, 83), text
        assert "\n⋮\n73\t" in text or "\n⋮\n75\t" in text, text
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
