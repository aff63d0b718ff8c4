"""A question pack carries the code it is asked about.

- The bodies of the units the question points to (its seeds) come first, in seed order, then the other
  chosen units' bodies; rows of units that cannot carry a body are dropped before a seed's body is.
  Before, every chosen unit's row was packed before any body: 25 rows filled a markdown question pack
  (12 KB) and the named unit's code was left out.
- The symbols a question names leave the ranking's best places at least two of the seed places.
"""

from __future__ import annotations

from pathlib import Path

from codegraph.distill import query
from codegraph.distill.topology import build_model
from codegraph.index.index import RootIndex
from codegraph.requests import reference_frame_bytes, run_distill_frame
from test_distill_chart_status import _repo  # the same small-repository builder

QUESTION = "how does dispatch route a request?"


def _router(root: Path, handlers: int = 24) -> RootIndex:
    """`dispatch` (2.4 KB) sends a request to one of many small handlers, each in its own file: the
    question's pack chooses 25 units, whose rows alone nearly fill a markdown question pack."""
    lines = ["def dispatch(request, table):", '    """Sends a request to the handler registered for its route."""']
    for i in range(handlers):
        lines += [f"    if request.route == 'r{i}':", f"        return handler_{i}(request, table.get('r{i}'))"]
    lines.append("    raise LookupError(request.route)")
    files = {"app/__init__.py": "from .core import dispatch\n",
             "app/core.py": "".join(f"from .h{i} import handler_{i}\n" for i in range(handlers)) + "\n\n" + "\n".join(lines) + "\n"}
    steps = "\n".join(f"    value = value + {j} * len(str(option))" for j in range(6))
    for i in range(handlers):
        files[f"app/h{i}.py"] = f"def handler_{i}(request, option):\n    value = 0\n{steps}\n    request.write(value)\n    return value\n"
    return _repo(root, files)


def _body_share(result: dict, pack: dict) -> float:
    body = sum(len(s["body"].encode()) for s in pack["sources"] if "body" in s)
    return body / reference_frame_bytes(result)


def test_a_question_packs_seed_bodies_come_before_the_other_units_rows(tmp_path: Path) -> None:
    """At the question cap (12,288 bytes) the markdown pack listed 25 units, 7 with their code, and left out
    the body of `dispatch`, the unit the question names (status: 1 of 6 left out). Now every seed carries
    its code, in both formats, and most of the frame is code."""
    from codegraph.distill import engine

    index = _router(tmp_path)
    captured: list[dict] = []
    real = engine.render_markdown
    engine.render_markdown = lambda pack: captured.append(pack) or real(pack)
    try:
        for fmt in ("json", "markdown"):
            captured.clear()
            result = run_distill_frame(index, {"format": fmt, "scenario": "query", "question": QUESTION})
            pack = result["pack"] if fmt == "json" else captured[-1]  # the last rendering is the one sent
            named = next(s for s in pack["sources"] if s["symbol"] == "dispatch")
            assert "body" in named, fmt
            cov = pack["question_units"]
            assert cov["with_code"] == cov["count"] >= 2, (fmt, cov)
            assert _body_share(result, pack) >= 0.5, (fmt, _body_share(result, pack))
            # the units left without code are the ones whose rows were dropped or come after every seed's code
            assert pack["selection"]["units"] > len(pack["sources"]), fmt
    finally:
        engine.render_markdown = real


def test_seed_bodies_fill_in_seed_order(tmp_path: Path) -> None:
    """With room for one seed's code, it is the first seed's (the named `dispatch`), not a row list."""
    index = _router(tmp_path)
    pack = run_distill_frame(index, {"format": "json", "scenario": "query", "question": QUESTION,
                                     "budgetBytes": 4_200})["pack"]
    with_code = [s["symbol"] for s in pack["sources"] if "body" in s]
    assert "dispatch" in with_code, [s["symbol"] for s in pack["sources"]]
    assert pack["status"] == "partial"


# ---- the seed places ------------------------------------------------------------------------------
LOOP = '''class Loop:
    def run_callback(self, callback):
        """Runs one callback, reporting what it raises."""
        try:
            return callback()
        except Exception as exc:
            return self.report(exc)

    def start(self, callbacks):
        return [self.run_callback(c) for c in callbacks]

    def add_callback(self, callback):
        self.pending.append(callback)

    def report(self, exc):
        print(exc)
'''


def _loops(root: Path) -> tuple[RootIndex, dict[str, str]]:
    """A loop that runs callbacks, and five unrelated `run` methods: the plain word `run` names them all."""
    files = {"ev/__init__.py": "", "ev/loop.py": LOOP}
    for name in ("Runner", "Job", "Conn", "Test", "Worker"):
        files[f"ev/{name.lower()}.py"] = f"class {name}:\n    def run(self):\n        return '{name}'\n"
    index = _repo(root, files)
    model = build_model(index)
    return index, {u.qualname: uid for uid, u in model.units.items()}


def test_a_plain_word_names_a_definition_only_where_the_ranking_agrees(tmp_path: Path) -> None:
    """"how does the Loop run callbacks?": the word `run` named five unrelated `run` methods, which took five
    of the six seed places before the ranking's best (the loop's own methods) had any."""
    index, uid = _loops(tmp_path)
    model = build_model(index)
    ranked = [uid["Loop.run_callback"], uid["Loop.start"], uid["Runner.run"], uid["Loop.add_callback"]]
    got = [model.units[u].qualname for u in query.seeds("how does the Loop run callbacks?", model, ranked)]
    # the ranking's places first (a `run` it lists too counts as named), the other `run`s after them
    assert got[:4] == ["Runner.run", "Loop.run_callback", "Loop.start", "Loop.add_callback"], got
    assert len(got) == query.MAX_SEEDS
    # an identifier-shaped token names its unit whatever the ranking says; without a ranking, words name as before
    assert [model.units[u].qualname for u in query.seeds("what does run_callback do?", model, [uid["Loop.start"]])] == [
        "Loop.run_callback", "Loop.start"]
    assert len(query.seeds("how does the Loop run callbacks?", model, [])) == 5


def test_a_plain_word_question_pack_holds_the_rankings_places(tmp_path: Path, monkeypatch) -> None:
    """End to end, with a ranking that lists the loop's methods: the pack's question units are the loop's."""
    index, uid = _loops(tmp_path)
    ranking = [uid["Loop.run_callback"], uid["Loop.start"], uid["Loop.add_callback"]]
    monkeypatch.setattr(query, "RANKING", query.Ranking(lambda index, question, limit: ranking, "fixed"))
    pack = run_distill_frame(index, {"format": "json", "scenario": "query", "question": "how does the Loop run callbacks?"})["pack"]
    with_code = [s["symbol"] for s in pack["sources"] if "body" in s]
    assert {"Loop.run_callback", "Loop.start", "Loop.add_callback"} <= set(with_code), with_code
    assert pack["question_units"]["count"] == query.MAX_SEEDS


OVERLOADS = '''export function merge(a: string): string;
export function merge(a: number): number;
export function merge(a: any): any {
  const parts = [a, a];
  return parts.join("");
}

export function flatten(xs: any[]): any[] {
  return xs.reduce((acc, x) => acc.concat(x), []);
}
'''


def test_overloads_of_one_name_take_one_seed_place(tmp_path: Path) -> None:
    """`mergeMap`'s three overload signatures and its implementation took four of six places; now one, the
    implementation (the definition with the code)."""
    index = _repo(tmp_path, {"src/index.ts": "export { merge, flatten } from './merge';\n", "src/merge.ts": OVERLOADS})
    model = build_model(index)
    merges = sorted((uid for uid, u in model.units.items() if u.qualname == "merge"), key=lambda u: model.units[u].start_byte)
    assert len(merges) == 3, merges
    flatten = next(uid for uid, u in model.units.items() if u.qualname == "flatten")
    got = query.seeds("how does merge work?", model, [merges[0], flatten])
    assert got == [merges[2], flatten], got


def test_a_question_packs_key_names_how_it_chooses_and_fills(tmp_path: Path, monkeypatch) -> None:
    """Question packs changed for the same snapshot and request: their key says so; the overview's key stays."""
    from codegraph.distill import engine

    index = _router(tmp_path, handlers=2)
    asked, overview = engine.parse_distill({"scenario": "query", "question": QUESTION}), engine.parse_distill({})
    keys = [engine.identity(index, r, [])["cache_key"] for r in (asked, overview)]
    monkeypatch.setattr(engine, "QUESTION_POLICY", "other")
    assert engine.identity(index, asked, [])["cache_key"] != keys[0]
    assert engine.identity(index, overview, [])["cache_key"] == keys[1]
