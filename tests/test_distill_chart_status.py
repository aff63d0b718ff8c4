"""The pack's picture and a question pack's status say what the code and the pack hold.

- The chart's arrows: a proven call made inside a closure, callback or nested function of a chosen
  unit is that unit's call (and a call to a unit inside a chosen one is a call to it); unproven
  calls stay out.
- A question pack is `complete` only when it holds the code of every unit the question points to
  (its seeds: the symbols it names, then the ranking's best places); otherwise its status line says
  which are left out, or not chosen.
"""

from __future__ import annotations

from pathlib import Path

from codegraph.distill.engine import _edges
from codegraph.distill.facts import SourceRow
from codegraph.distill.topology import build_model
from codegraph.index.index import RootIndex
from codegraph.requests import run_distill_frame
from test_distill_learned import same_as_measuring_every_trial


def _repo(root: Path, files: dict[str, str]) -> RootIndex:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    index = RootIndex(root, use_cache=False)
    index.build()
    return index


SERVER = '''class Registry:
    def __init__(self):
        self.handlers = {}

    def add(self, name, fn):
        self.handlers[name] = fn

    def find(self, name):
        return self.handlers[name]


def serve(registry, requests):
    """Answers each request with the handler registered for it."""

    def on_request(req):
        handler = lookup(registry, req)
        return respond(handler(req))

    return [on_request(r) for r in requests]


def lookup(registry, req):
    return registry.find(req)


def respond(result):
    print(result)
    return result


def build(name):
    return Registry().find(name)
'''


def _arrows(pack: dict) -> set[tuple[str, str, str]]:
    src = pack["sources"]
    return {(src[a]["symbol"], src[b]["symbol"], kind) for a, b, kind in pack["flow"]["edges"]}


def test_a_call_made_in_a_closure_is_an_arrow_of_the_unit_holding_it(tmp_path: Path) -> None:
    """`serve` calls `lookup` and `respond` only from its nested `on_request`: the picture (`flow.edges`,
    which the markdown chart draws) had no arrow from it — the calls' caller is the closure, no source of
    its own."""
    index = _repo(tmp_path, {"app/__init__.py": "from .server import serve\n", "app/server.py": SERVER})
    pack = run_distill_frame(index, {"format": "json"})["pack"]
    symbols = {s["symbol"] for s in pack["sources"]}
    assert {"serve", "lookup", "respond"} <= symbols, symbols
    arrows = _arrows(pack)
    assert ("serve", "lookup", "calls") in arrows and ("serve", "respond", "calls") in arrows, arrows
    assert not [a for a in arrows if a[:2] == ("lookup", "Registry.find")]  # `registry.find` is not proven


def test_a_call_to_a_unit_inside_a_chosen_one_is_an_arrow_to_it(tmp_path: Path) -> None:
    """A type shown whole holds its methods: `build`'s proven call of `Registry().find` ends at it."""
    index = _repo(tmp_path, {"app/__init__.py": "", "app/server.py": SERVER})
    model = build_model(index)
    rows = [SourceRow("app/server.py::Registry", "skeleton", "test"), SourceRow("app/server.py::build", "skeleton", "test"),
            SourceRow("app/server.py::serve", "skeleton", "test"), SourceRow("app/server.py::lookup", "skeleton", "test")]
    edges = set(_edges(model, rows, {}))
    assert ("app/server.py::build", "app/server.py::Registry", "calls") in edges, edges
    assert ("app/server.py::serve", "app/server.py::lookup", "calls") in edges, edges
    assert not [e for e in edges if e[0] == "app/server.py::lookup"]  # `registry.find(req)`: unproven, no arrow


BLUEPRINTS = '''class App:
    def __init__(self):
        self.settings = {}
        self.blueprints = []


def register_blueprint(app, blueprint):
    """Adds a blueprint to the app and copies its options."""
    app.blueprints.append(blueprint)
''' + "\n".join(f"    app.settings['option_{i}'] = blueprint.options.get('option_{i}', {i})" for i in range(40)) + '''
    return app


def make_app():
    return register_blueprint(App(), None)
'''
QUESTION = "how does register_blueprint work?"


def test_a_question_pack_without_the_code_it_is_asked_about_is_not_complete(tmp_path: Path) -> None:
    """At 3,000 bytes the pack lists `register_blueprint`, the symbol the question names, but its body
    (3 KB) does not fit: it said `complete`. Now it is `partial` and its status line names what is missing."""
    index = _repo(tmp_path, {"bp/__init__.py": "from .core import register_blueprint, App\n", "bp/core.py": BLUEPRINTS})
    params = {"scenario": "query", "question": QUESTION, "budgetBytes": 3_000}
    pack = run_distill_frame(index, {"format": "json", **params})["pack"]
    named = next(s for s in pack["sources"] if s["symbol"] == "register_blueprint")
    assert "body" not in named
    assert pack["status"] == "partial"
    assert "register_blueprint" in pack["question_units"]["left_out"]
    assert pack["question_units"]["with_code"] < pack["question_units"]["count"]
    result = run_distill_frame(index, {"format": "markdown", **params})
    status = next(line for line in result["markdown"].splitlines() if line.startswith("Status:"))
    assert result["status"] == "partial" and "left out to fit the size limit: `register_blueprint`" in status, status
    # with room for it, the pack holds the code of everything the question points to, and says so
    full = run_distill_frame(index, {"format": "json", "scenario": "query", "question": QUESTION})["pack"]
    assert full["status"] == "complete" and full["question_units"]["with_code"] == full["question_units"]["count"] >= 1
    text = run_distill_frame(index, {"format": "markdown", "scenario": "query", "question": QUESTION})["markdown"]
    assert "the question points to are here with their code" in text or "the question points to is here with its code" in text


def test_a_question_whose_unit_was_not_chosen_is_incomplete(tmp_path: Path) -> None:
    """Required checks fill the main-path lane (16 places) first: the unit the question names finds no
    place, and the pack says so instead of `complete`."""
    files = {"lib/__init__.py": ""}
    files["lib/steps.py"] = "\n\n".join(f"def step_{i}(x):\n    return x + {i}\n" for i in range(16))
    files["lib/target.py"] = "def register_blueprint(app):\n    return app\n"
    index = _repo(tmp_path, files)
    obligations = [{"id": f"step{i}", "required": True, "evidence": "direct_syntax",
                    "witnessSets": [[f"lib/steps.py::step_{i}"]]} for i in range(16)]
    params = {"scenario": "query", "question": QUESTION, "obligations": obligations}
    pack = run_distill_frame(index, {"format": "json", **params})["pack"]
    assert "register_blueprint" not in {s["symbol"] for s in pack["sources"]}
    assert pack["status"] == "incomplete"
    assert "register_blueprint" in pack["question_units"]["not_chosen"]
    status = next(line for line in run_distill_frame(index, {"format": "markdown", **params})["markdown"].splitlines()
                  if line.startswith("Status:"))
    assert "not chosen: `register_blueprint`" in status, status


def test_a_question_packs_body_gate_stays_exact(tmp_path: Path) -> None:
    """A body that holds the code of a unit the question points to also shortens the status's list of
    what is left out, so the gate measures it rather than skip it by its size: at every budget, in both
    formats, the pack is the one measuring every trial gives."""
    from codegraph.distill import engine

    index = _repo(tmp_path, {"bp/__init__.py": "from .core import register_blueprint, App\n", "bp/core.py": BLUEPRINTS})

    def answers() -> list:
        got = []
        for fmt in ("json", "markdown"):
            for budget in range(1500, 5000, 100):
                engine._memo.clear()
                try:
                    got.append(run_distill_frame(index, {"format": fmt, "scenario": "query", "question": QUESTION,
                                                         "budgetBytes": budget}))
                except Exception as e:  # the minimum does not fit: the same error either way
                    got.append(str(e))
        return got

    same_as_measuring_every_trial(answers)
