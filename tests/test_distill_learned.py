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
    assert set(weights["role"]["features"]) <= set(features.ALL_NAMES)  # the role model also reads the job features
    n = len(weights["features"])
    assert len(weights["anchor"]["coef"]) == n and len(weights["role"]["coef"][0]) == len(weights["role"]["features"])
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


def _units(name: str) -> tuple:
    from codegraph.distill.topology import build_model

    index = built(name)
    return index, build_model(index)


def test_job_features_read_the_units_signature_body_and_name() -> None:
    """py-jobs: the role model's job features say what a unit's own code says about its job — an error
    handed in, error syntax, errors made, an output handed in, a call to an output or resource interface,
    a built value returned, and the job words of its name — and what shape its body has and what its callees do."""
    index, model = _units("py-jobs")
    uids = sorted(model.units)
    job = {uid: dict(zip(features.JOB_NAMES, row)) for uid, row in zip(uids, features.jobs(index, model, uids, {}, []))}
    assert all(list(job[u].values())[: len(features.OWN_JOB_NAMES)] == features.job(index, model, u) for u in uids)
    handler = job["ledger/book.py::Book.handle_error"]
    assert handler["err_param"] == handler["err_syntax"] == handler["throws"] == handler["w_error"] == 1.0, handler
    writer = job["ledger/book.py::Book.save_to"]
    assert writer["out_param"] == writer["calls_output"] == writer["w_write"] == 1.0, writer
    assert writer["err_param"] == writer["throws"] == 0.0, writer
    builder = job["ledger/book.py::build_book"]
    assert builder["returns_new"] == builder["w_build"] == 1.0, builder
    assert job["ledger/book.py::open_book"]["calls_output"] == 1.0  # opens a resource
    total = job["ledger/book.py::Book.total"]
    assert {n: total[n] for n in features.OWN_JOB_NAMES} == dict.fromkeys(features.OWN_JOB_NAMES, 0.0), total
    # the shape of the body: most of the handler's body is inside its error handler and it raises; the writer
    # loops; the builder constructs what it returns; what calls a reader says so
    assert handler["error_share"] > 0.5 and handler["reports_error"] == 1.0, handler
    assert writer["loops"] > 0 and writer["returns_value"] == 0.0, writer
    assert builder["constructs"] > 0 and builder["returns_value"] == 1.0 and builder["loops"] == 0.0, builder
    assert job["ledger_cloud/sync.py::sync"]["callees_read"] > 0


def test_the_main_module_is_the_one_the_others_call_into() -> None:
    """py-jobs: a port beside the main package calls into it and nothing calls into the port: the
    module features tell the module others build on from the modules beside it."""
    index, model = _units("py-jobs")
    roles = {}
    cands = features.candidates(index, model, roles, [])
    row = {uid: dict(zip(features.NAMES, r)) for uid, r in zip(cands.uids, cands.rows)}
    main, port = row["ledger/book.py::Book.total"], row["ledger_cloud/sync.py::sync"]
    assert main["module_in"] > port["module_in"] == 0.0, (main["module_in"], port["module_in"])
    assert main["module_share"] > port["module_share"], (main["module_share"], port["module_share"])


def same_as_measuring_every_trial(answers) -> list:
    """`answers()` with the pack gate's size bound, asserted equal to `answers()` with every trial
    assembled and measured (the bound only saves work); returns the first."""
    from codegraph.distill import pack

    pruned = answers()
    saved = pack._body_growth
    try:
        pack._body_growth = lambda t, i: -10**9  # never skip: every trial assembled and measured
        measured = answers()
    finally:
        pack._body_growth = saved
    assert pruned == measured
    return pruned


def test_a_body_that_cannot_fit_is_skipped_exactly() -> None:
    """The pack gate skips a body whose bytes alone overflow the frame without measuring it: at every
    budget, in both formats, the pack is the one measuring every trial gives (markdown's "body left out"
    line is longer than JSON's entry: the bound reads the longer)."""
    from codegraph.distill import engine

    def answers() -> list:
        got = []
        for name in ("py-lib-surface", "py-service"):
            index = built(name)
            for fmt in ("json", "markdown"):
                for budget in range(2600, 9000, 300):
                    engine._memo.clear()
                    engine._analyses.clear()
                    got.append(run_distill_frame(index, {"format": fmt, "budgetBytes": budget}))
        return got

    pruned = same_as_measuring_every_trial(answers)
    assert any("body_left_out" in s for r in pruned if "pack" in r for s in r["pack"]["sources"]), "a budget must leave a body out"


def test_a_fact_that_cannot_fit_is_skipped_exactly() -> None:
    """The pack gate skips a fact whose text alone overflows the frame without measuring it, and a fill
    for a `complete` pack stops at the first core fact left out: at every budget, in both formats, the
    answer is the one measuring every trial of every fill gives."""
    from codegraph.distill import engine, pack

    def answers(names: list[str]) -> list:
        got = []
        for name in names:
            index = built(name)
            for fmt in ("json", "markdown"):
                for budget in range(1200, 9000, 700):
                    engine._memo.clear()
                    engine._analyses.clear()
                    try:
                        got.append(run_distill_frame(index, {"format": fmt, "budgetBytes": budget}))
                    except Exception as e:  # the minimum does not fit: the same error either way
                        got.append(str(e))
        return got

    names = ["py-lib-surface", "py-service", "go-kv", "ts-client"]
    pruned = answers(names)
    saved_fact, saved_fill = pack._fact_growth, pack._fill
    try:
        pack._fact_growth = lambda t, i: -10**9  # never skip a fact: every such trial assembled and measured
        pack._fill = lambda *a, core_facts_or_stop=False: saved_fill(*a)  # every fill to its end
        measured = answers(names)
    finally:
        pack._fact_growth, pack._fill = saved_fact, saved_fill
    assert pruned == measured
    assert any(isinstance(r, dict) and r.get("pack", {}).get("status") == "partial" for r in pruned), "some budget must cut facts"
    assert any(isinstance(r, dict) and "markdown" in r and r["status"] == "partial" for r in pruned)


def test_test_support_by_compound_name_and_inline_tests_are_not_architecture() -> None:
    """rs-inline-tests: a module named for a fake (`<lib>-fakeclock`, a mock server) and a `#[cfg(test)] mod tests`
    inside a source file are test code: never a candidate the selection may choose, never a source of the pack.
    A package named for mocking as a whole word (a mocking library's own code) stays in scope."""
    from codegraph.distill.surfaces import non_architecture

    assert non_architecture("lib-fakefs/src/main/kotlin/Fs.kt")
    assert non_architecture("tally-fakeclock/src/lib.rs") and non_architecture("stubhttpserver/src/Server.java")
    assert not non_architecture("mockito/src/main/java/Mocks.java") and not non_architecture("stubborn/core.py")
    # a dummy server the tests run against, beside a src layout (`dummyserver/`), a mock one spelled apart
    assert non_architecture("dummyserver/server.py") and non_architecture("mock_server/app.py")
    assert not non_architecture("lib/multiprocessing/dummy/connection.py")
    index, model = _units("rs-inline-tests")
    cands = features.candidates(index, model, {}, [])
    row = {uid: dict(zip(features.NAMES, r)) for uid, r in zip(cands.uids, cands.rows)}
    tests = [u for u in row if "::tests." in u]
    assert tests and all(row[u]["non_arch"] == 1.0 for u in tests), tests
    assert row["src/counter.rs::Counter.run"]["non_arch"] == 0.0
    srcs = main_roles(pack_of("rs-inline-tests"))
    assert "src/counter.rs::Counter.run" in srcs or "src/counter.rs::Counter.bump" in srcs, srcs
    assert not [k for k in srcs if "::tests" in k or k.startswith("tally-fakeclock/")], srcs


def test_module_statements_that_register_or_tabulate_are_candidates() -> None:
    """js-proto-verbs: a module-level loop that adds the verbs to Client.prototype (`registration`) is
    code the anchor score may choose — libraries define their API so (a verb loop, a delegation
    table, an object of operations) —; an import (`wiring`) is not."""
    index, model = _units("js-proto-verbs")
    cands = features.candidates(index, model, {}, [])
    kinds = {model.units[u].stmt_kind for u in cands.uids if model.units[u].kind == "statement"}
    assert "lib/core/Client.js::<registration@28>" in cands.uids
    assert "wiring" not in kinds, kinds
    row = dict(zip(features.NAMES, cands.rows[cands.uids.index("lib/core/Client.js::<registration@28>")]))
    assert row["k_statement"] == 1.0


def test_the_context_reads_the_call_direction() -> None:
    """A thin way in (a package's one-line `get` handing on to the engine) calls the likely anchors and is called by
    none of them; a leaf helper is called by them; a side unit reaches none: the directed context columns say which."""
    # 0 way in -> 1 engine -> 2 step -> 3 helper; 4 a side unit calling a unit far from the top; 195 unlikely others
    down = [[1], [2], [3], [], [150]] + [[] for _ in range(195)]
    near = [[1], [0, 2], [1, 3], [2], [150]] + [[] for _ in range(195)]
    near[150] = [4]
    stage1 = [-3.0, 4.0, 3.0, -2.0, -3.0] + [-9.0] * 195
    rows = ranker.context(stage1, near, list(range(200)), down)
    at = {n: (ranker.CONTEXT + ranker.DIRECTED).index(n) for n in ranker.DIRECTED}
    way_in, helper, side = rows[0], rows[3], rows[4]
    assert way_in[at["down_top"]] > 0 and way_in[at["up_top"]] == 0  # it hands on to the engine
    assert helper[at["up_top"]] > 0 and helper[at["down_top"]] == 0
    assert side[at["down_top"]] == 0 and side[at["up_top"]] == 0
    # without callees given, the context is the undirected one the weights before it read
    assert {len(r) for r in ranker.context(stage1, near, list(range(200)))} == {len(ranker.CONTEXT)}


def test_the_context_model_reads_the_columns_its_weights_name() -> None:
    """Weights name their context columns (`context_features`); weights without the name read the first five."""
    weights = json.loads(ranker.WEIGHTS.read_text())
    n = len(weights["features"])
    rows, near, group, down = [[0.0] * n, [1.0] * n], [[1], [0]], [0, 1], [[1], []]
    base = ranker.Ranker(weights).scores(rows, near, group, down)
    named = dict(weights, context_features=list(weights.get("context_features", ranker.CONTEXT)))
    assert ranker.Ranker(named).scores(rows, near, group, down) == base


SESSION_PY = '''\
class Session:
    def request(self, method, url, **kwargs):
        prepared = self.prepare(method, url)
        return self.send(prepared, **kwargs)

    def prepare(self, method, url):
        return (method, url)

    def send(self, prepared, **kwargs):
        return prepared

    def get(self, url, **kwargs):
        """Sends a GET request."""
        kwargs.setdefault("allow_redirects", True)
        return self.request("GET", url, **kwargs)

    def post(self, url, data=None, **kwargs):
        """Sends a POST request."""
        return self.request("POST", url, data=data, **kwargs)

    def put(self, url, data=None, **kwargs):
        """Sends a PUT request."""
        return self.request("PUT", url, data=data, **kwargs)
'''


def test_thin_wrappers_of_one_unit_take_one_place(tmp_path) -> None:
    """`get`, `post` and `put` each only hand over to `Session.request`: one way in, not three of the
    pack's places; `request`, which does the work, is no wrapper."""
    from codegraph.distill.topology import build_model

    (tmp_path / "client").mkdir()
    (tmp_path / "client" / "__init__.py").write_text("")
    (tmp_path / "client" / "sessions.py").write_text(SESSION_PY)
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    model = build_model(index)
    base = "client/sessions.py::Session."
    assert {m: features.wrapper_of(model, base + m) for m in ("get", "post", "put", "request")} == {
        "get": base + "request", "post": base + "request", "put": base + "request", "request": ""}
    uids = [base + m for m in ("get", "post", "put", "request", "prepare")]
    scores = [5.0, 4.0, 3.0, 2.0, 1.0]
    wraps = [features.wrapper_of(model, u) for u in uids]
    chosen = ranker.select(scores, [100] * 5, uids, ["client/sessions.py::Session"] * 5, ["method"] * 5, wraps=wraps)
    assert [uids[i] for i in chosen] == [base + "get", base + "request", base + "prepare"]
    assert len(ranker.select(scores, [100] * 5, uids, ["client/sessions.py::Session"] * 5, ["method"] * 5)) == 5


def test_a_large_body_waits_for_the_smaller_bodies_of_its_lane(monkeypatch) -> None:
    """A body larger than a third of the room left waits until the smaller chosen bodies of its lane
    are in: a library's 9 KB metaclass took 40 % of the frame and left the main path's fifteen other
    units without code. At every budget the pack carries at least as many bodies as in chosen order,
    at some budgets more, and every body of its lane is still tried before the next lane's."""
    from codegraph.distill import engine, pack

    def bodies(share: float) -> list[int]:
        monkeypatch.setattr(pack, "LARGE_BODY_SHARE", share)
        got = []
        for name in ("py-lib-surface", "py-service"):
            index = built(name)
            for budget in range(2600, 9000, 300):
                engine._memo.clear()
                engine._analyses.clear()
                result = run_distill_frame(index, {"format": "json", "budgetBytes": budget})
                got.append(sum("body" in s for s in result["pack"]["sources"]) if "pack" in result else 0)
        return got

    waiting, in_order = bodies(1 / 3), bodies(float("inf"))
    assert all(w >= o for w, o in zip(waiting, in_order)), (waiting, in_order)
    assert any(w > o for w, o in zip(waiting, in_order)), (waiting, in_order)


def test_size_is_priced_only_where_the_byte_cap_binds() -> None:
    """A few very large bodies took the byte cap's room and left the pack at half its units (a compiler's 30 KB
    transforms): where the order by score fills the bytes before the units, size pays, least as needed for the
    units to fill; where it does not, the order by score stands."""
    scores, sizes = [5, 4, 3, 2, 1, 0.5], [600, 300, 200, 150, 100, 100]
    uids, parents, kinds = list("ABCDEF"), [""] * 6, ["function"] * 6
    roomy = ranker.select(scores, sizes, uids, parents, kinds, max_units=4, max_bytes=2000)
    assert roomy == [0, 1, 2, 3]
    tight = ranker.select(scores, sizes, uids, parents, kinds, max_units=4, max_bytes=1000)
    # by score alone: A and B take 900 of the 1,000 bytes, then only E fits — three units of four
    assert len(tight) == 4 and sum(sizes[i] for i in tight) <= 1000, tight
    assert tight == [1, 2, 3, 4]
    # where no price could fill the units (too few fit at all), the order by score stands
    assert ranker.select([3, 2, 1], [600, 600, 300], list("abc"), [""] * 3, ["function"] * 3, max_units=4, max_bytes=1000) == [0, 2]


def test_spares_come_after_the_selection_and_leave_it_as_it_was() -> None:
    """The pack's lanes may turn a chosen unit away (its role's lanes full); the next units by score, under the
    bytes left, wait behind the selection for the places left free — the selection itself does not change."""
    scores, sizes = [5, 4, 3, 2, 1, 0.5], [300, 300, 200, 150, 100, 100]
    uids, parents, kinds = list("ABCDEF"), [""] * 6, ["function"] * 6
    plain = ranker.select(scores, sizes, uids, parents, kinds, max_units=3, max_bytes=1000)
    spared = ranker.select(scores, sizes, uids, parents, kinds, max_units=3, max_bytes=1000, spares=2)
    assert plain == [0, 1, 2]
    assert spared[:3] == plain and spared[3:] == [3]  # E no longer fits the 1,000 bytes after D


def test_the_boundary_places_no_boundary_took_go_to_the_picks_the_lanes_turned_away(monkeypatch) -> None:
    """The lanes turn a learned pick away when its role's lanes are full, while the boundary lane's places stay
    empty where the code has fewer boundaries than places: once every stage has run, those picks take them, in
    score order, and the pack holds as many units as its lanes together."""
    from codegraph.distill import selection

    for lane, cap in {"skeleton": 2, "context": 1, "boundary": 3}.items():
        monkeypatch.setitem(selection.LANE_CAPS, lane, cap)
    index = RootIndex(FIXTURES / "py-lib-surface", use_cache=False)  # a new index: no answer from memory
    index.build()
    pack = run_distill_frame(index, {"format": "json"})["pack"]
    lanes = pack["selection"]["lanes"]
    assert len(pack["sources"]) == 6, [s["symbol"] for s in pack["sources"]]
    assert lanes["skeleton"] == 2 and lanes["context"] + lanes["boundary"] == 4 and lanes["context"] > 1, lanes


def test_an_implementation_stands_for_its_overload_signatures() -> None:
    """TypeScript's overload signatures and Python's `@overload` stubs are definitions without code: the
    implementation stands for them, however long the last signature's parameter list and comment."""
    uids = ["a.ts::Obs.pipe", "a.ts::Obs.pipe#2", "a.ts::Obs.pipe#3", "a.ts::Obs.other"]
    kinds, sizes = ["method"] * 4, [21, 402, 116, 50]
    assert ranker.twins(uids, kinds, sizes)[0] == 1  # without knowing which have code: the largest
    assert ranker.twins(uids, kinds, sizes, [True, True, False, False]) == {0: 2, 1: 2, 2: 2}
    chosen = ranker.select([3.0, 2.0, 1.0, 0.5], sizes, uids, [""] * 4, kinds, bodiless=[True, True, False, False])
    assert chosen == [2, 3]


def test_a_model_in_use_answers_until_the_shipped_weights_are_restored() -> None:
    """The end-to-end leave-one-corpus-out answers each corpus with its fold's model (`ranker.use`); the
    pack then follows that model, and `use(None)` brings the shipped weights back."""
    from codegraph.distill import engine

    shipped = pack_of("py-lib-surface")
    weights = json.loads(ranker.WEIGHTS.read_text())
    weights["anchor"] = {**weights["anchor"], "coef": [-c for c in weights["anchor"]["coef"]]}  # the score turned around
    try:
        ranker.use(ranker.Ranker(weights))
        engine._analyses.clear()
        engine._memo.clear()
        turned = pack_of("py-lib-surface")
    finally:
        ranker.use(None)
        engine._analyses.clear()
        engine._memo.clear()
    assert ranker.shipped() is ranker._shipped()
    assert [s["symbol"] for s in turned["sources"]] != [s["symbol"] for s in shipped["sources"]]
    assert pack_of("py-lib-surface")["sources"] == shipped["sources"]
