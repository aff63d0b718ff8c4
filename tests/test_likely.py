"""The ranked graph of likely edges (codegraph.graph.likely) on a small hand-written repository:
every expected edge with its rule, resolved edges first at confidence 1.0, incoming edges, and
the proven graph untouched (no likely edge is ever a resolved fact)."""

from __future__ import annotations

import json
import threading

import pytest

from codegraph.graph.likely import Likely, LikelyGraph, likely_graph
from codegraph.index.extract import extract_source
from codegraph.index.index import RootIndex
from codegraph.index.store import decode, encode

from conftest import FIXTURES

EXPECTED = json.loads((FIXTURES / "likely" / "expected.json").read_text())


@pytest.fixture(scope="module")
def index():
    idx = RootIndex(FIXTURES / "likely", use_cache=False)
    idx.build()
    return idx


def _edge(graph: LikelyGraph, src: str, dst: str) -> Likely | None:
    return next((e for e in graph.out(src) if e.dst == dst), None)


@pytest.mark.parametrize("want", EXPECTED["edges"], ids=lambda w: f"{w['rule']}:{w['dst'].split('::')[1]}")
def test_expected_likely_edges(index, want):
    graph = likely_graph(index)
    edge = _edge(graph, want["src"], want["dst"])
    assert edge is not None, f"missing {want['src']} -> {want['dst']} ({want['why']})"
    assert edge.rule == want["rule"]
    assert 0.0 < edge.confidence < 1.0
    assert edge.src == want["src"] and edge.line > 0
    # the same edge seen from the callee's side
    assert any(e.src == want["src"] and e.rule == want["rule"] for e in graph.into(want["dst"]))


@pytest.mark.parametrize("want", EXPECTED["resolved"], ids=lambda w: w["dst"].split("::")[1])
def test_resolved_edges_lead_at_full_confidence(index, want):
    graph = likely_graph(index)
    edge = _edge(graph, want["src"], want["dst"])
    assert edge is not None and edge.rule == "resolved" and edge.confidence == 1.0
    out = graph.out(want["src"])
    assert [e.confidence for e in out if e.rule == "resolved"] == [1.0] * sum(e.rule == "resolved" for e in out)
    assert out.index(edge) < min((i for i, e in enumerate(out) if e.rule != "resolved"), default=len(out))


def test_likely_edges_are_never_resolved_facts(index):
    graph = likely_graph(index)
    resolved = {(e.src, e.dst) for b in index.bindings.values() for e in b.edges}
    units = index.resolver.units
    for uid in units:
        for e in graph.out(uid):
            if e.rule != "resolved":
                assert (e.src, e.dst) not in resolved or any(x.rule == "resolved" and x.dst == e.dst for x in graph.out(uid))
    # every expected likely edge's site stays unknown in the proven graph
    for want in EXPECTED["edges"]:
        assert (want["src"], want["dst"]) not in resolved
        assert all(dst != want["dst"] for dst, _, _ in index.graph.out(want["src"]))


def test_memoized_per_version_and_thread_safe(index):
    first = likely_graph(index)
    assert likely_graph(index) is first
    results: list[list[Likely]] = []
    fresh = LikelyGraph(index)
    uid = EXPECTED["edges"][0]["src"]
    threads = [threading.Thread(target=lambda: results.append(fresh.out(uid))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == results[0] for r in results) and results[0]
    index.version += 1
    try:
        assert likely_graph(index) is not first
    finally:
        index.version -= 1
        index.memo["likely"] = first


def test_unknown_unit_has_no_edges(index):
    graph = likely_graph(index)
    assert graph.out("nope.py::missing") == [] and graph.into("nope.py::missing") == []


def test_test_files_never_serve_non_test_callers(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "pkg" / "main.py").write_text("def run():\n    helper_only_in_tests()\n")
    (tmp_path / "tests" / "test_x.py").write_text("def helper_only_in_tests():\n    pass\n")
    idx = RootIndex(tmp_path, use_cache=False)
    idx.build()
    assert likely_graph(idx).out("pkg/main.py::run") == []


def test_extracted_facts_round_trip_through_the_cache():
    src = b"class A:\n    x: Store\n    def __init__(self):\n        self.q = Queue()\n    def f(self) -> Ctx:\n        g(self.h)\n"
    facts, _, _ = extract_source("a.py", "python", src)
    a = next(u for u in facts.units if u.name == "A")
    assert dict(a.attrs) == {"x": "Store", "q": "Queue()"}
    assert next(u for u in facts.units if u.name == "f").returns == "Ctx"
    assert [(r.receiver, r.name) for r in facts.refs] == [("self", "h")]
    back = decode("a.py", facts.sha256, encode(facts))
    assert back == facts
    assert tuple(back.refs) == tuple(facts.refs)


def test_into_agrees_with_out(index):
    graph = LikelyGraph(index)
    for uid in sorted(index.resolver.units):
        for e in graph.into(uid):
            assert e in graph.out(e.src), e
        for e in graph.out(uid):
            assert e.src == uid


def test_computing_the_ranked_graph_changes_no_fact(tmp_path):
    import shutil

    root = tmp_path / "likely"
    shutil.copytree(FIXTURES / "likely", root)
    idx = RootIndex(root, use_cache=False)
    idx.build()
    before = (idx.status(), {p: b.edges for p, b in idx.bindings.items()}, sorted(idx.graph.g.edges(keys=True)))
    graph = LikelyGraph(idx)
    for uid in list(idx.resolver.units):
        graph.out(uid)
        graph.into(uid)
    after = (idx.status(), {p: b.edges for p, b in idx.bindings.items()}, sorted(idx.graph.g.edges(keys=True)))
    assert before == after


def test_into_from_cached_facts_equals_into_from_parsed_ones(tmp_path):
    """into() skips files by names read off undecoded cached rows (a byte search first): a warm
    index whose calls were never decoded gives the same edges as freshly parsed facts."""
    from codegraph.index.facts import DeferredCalls

    fresh = RootIndex(FIXTURES / "likely", use_cache=False)
    fresh.build()
    first = RootIndex(FIXTURES / "likely", cache_dir=tmp_path)
    first.build()
    first.close()
    warm = RootIndex(FIXTURES / "likely", cache_dir=tmp_path)
    assert warm.build().from_cache == len(fresh.files)
    assert any(isinstance(f.calls, DeferredCalls) and f.calls._calls is None for f in warm.files.values())
    want = {uid: LikelyGraph(fresh).into(uid) for uid in sorted(fresh.resolver.units)}
    graph = LikelyGraph(warm)  # into() first: no file's context is built by out()
    got = {uid: graph.into(uid) for uid in sorted(warm.resolver.units)}
    assert got == want
    assert sum(map(len, got.values())) > 0
    warm.close()


def test_an_overload_call_lands_on_the_overload_that_takes_its_arguments(index):
    """`execute(request, 1)` inside the one-parameter `execute` delegates to the two-parameter
    overload; the caller itself cannot take two arguments and is no target. The count of arguments
    proves it (bindings/resolve.py)."""
    graph = likely_graph(index)
    src = "kt/src/main/kotlin/demo/Loader.kt::Loader.execute"
    assert [(e.dst, e.rule, e.confidence) for e in graph.out(src)] == [(src + "#2", "resolved", 1.0)]


def test_a_member_initialised_in_the_class_body_is_no_local(tmp_path):
    """`private val cache = MemoryCache()` in a Kotlin class body is a member: `cache.get(k)` in a
    method calls MemoryCache.get, not whatever else is named `get` — a proven call now (a bare
    property is a field of `this`, and an initialised property has its construction's type)."""
    src = tmp_path / "src" / "main" / "kotlin" / "demo"
    src.mkdir(parents=True)
    (src / "Cache.kt").write_text(
        "package demo\n\nclass MemoryCache {\n    fun get(key: String): String? = null\n}\n\n"
        "class DiskCache {\n    fun get(key: String): String? = key\n}\n"
    )
    (src / "Engine.kt").write_text(
        "package demo\n\nclass Engine {\n    private val cache = MemoryCache()\n\n"
        "    fun run(key: String): String? {\n        return cache.get(key)\n    }\n}\n"
    )
    idx = RootIndex(tmp_path, use_cache=False)
    idx.build()
    out = [(e.dst.split("::")[1], e.rule) for e in likely_graph(idx).out("src/main/kotlin/demo/Engine.kt::Engine.run")]
    assert out == [("MemoryCache.get", "resolved")]


def test_an_objects_own_apply_method_is_reached_through_its_member_type(tmp_path):
    """`this.controller.apply(…)`: `apply` names a method of the member's type, not Function.apply.
    (The member is also handed in, so the call is no proven one: a guess takes the construction.)"""
    (tmp_path / "controller.js").write_text("class Controller {\n  apply(result) {\n    return result;\n  }\n}\nmodule.exports = { Controller };\n")
    (tmp_path / "router.js").write_text(
        "const { Controller } = require('./controller');\n"
        "class Router {\n  constructor() {\n    this.controller = new Controller();\n  }\n"
        "  use(controller) {\n    this.controller = controller;\n  }\n"
        "  handle(result) {\n    return this.controller.apply(result);\n  }\n}\n"
    )
    idx = RootIndex(tmp_path, use_cache=False)
    idx.build()
    edge = _edge(likely_graph(idx), "router.js::Router.handle", "controller.js::Controller.apply")
    assert edge is not None and edge.rule == "attr-type"


def test_a_method_reading_a_property_unit_of_its_own_type_reaches_it(tmp_path):
    """Kotlin: `components.newBuilder()` in a method reads the property `components` (a unit of its
    own: a builder chain over several lines); a parameter of that name shadows it."""
    (tmp_path / "Loader.kt").write_text(
        "class Loader(private val options: Options) {\n"
        "    val components = options.registry\n        .newBuilder()\n        .build()\n\n"
        "    fun execute() {\n        components.intercept()\n    }\n\n"
        "    fun shadowed(components: Registry) {\n        components.intercept()\n    }\n}\n"
    )
    idx = RootIndex(tmp_path, use_cache=False)
    idx.build()
    graph = likely_graph(idx)
    edge = _edge(graph, "Loader.kt::Loader.execute", "Loader.kt::Loader.components")
    assert edge is not None and edge.rule == "member-read"
    assert _edge(graph, "Loader.kt::Loader.shadowed", "Loader.kt::Loader.components") is None


def test_a_method_of_an_anonymous_class_held_by_a_field_reaches_the_outer_classs_methods(tmp_path):
    (tmp_path / "Outer.java").write_text(
        "class Outer {\n"
        "    static final Factory FACTORY = new Factory() {\n"
        "        public Object create(String name) {\n            return build(name);\n        }\n    };\n\n"
        "    static Object build(String name) {\n        return name;\n    }\n\n"
        "    static Object build(String name, int size) {\n        return name;\n    }\n}\n"
    )
    idx = RootIndex(tmp_path, use_cache=False)
    idx.build()
    graph = likely_graph(idx)
    # two overloads, one of them taking one argument: the outer class's method, proven
    assert ("Outer.java::Outer.build", "resolved") in [(e.dst, e.rule) for e in graph.out("Outer.java::Outer.FACTORY.create")]


def test_a_python_function_reading_a_lookup_table_of_its_module_may_run_its_entries(tmp_path):
    """A module-level dict of functions (`READERS = {"json": read_json, …}`) is a lookup table, as a
    JavaScript object of functions is: `READERS[kind](s)` leads to the table and on to its entries;
    a dict of plain values is no table."""
    (tmp_path / "m.py").write_text(
        "def read_json(s):\n    return s\n\n"
        "def read_csv(s):\n    return s\n\n"
        'READERS = {"json": read_json, "csv": read_csv}\n'
        'LIMITS = {"json": 1, "csv": 2}\n\n'
        "def read(kind, s):\n    return READERS[kind](s[: LIMITS[kind]])\n"
    )
    idx = RootIndex(tmp_path, use_cache=False)
    idx.build()
    tables = [u for u in idx.files["m.py"].units if u.kind == "statement" and u.stmt_kind == "table"]
    assert [u.name for u in tables] == ["READERS"]
    graph = likely_graph(idx)
    assert _edge(graph, "m.py::read", tables[0].id).rule == "table-lookup"
    assert {e.dst for e in graph.out(tables[0].id)} >= {"m.py::read_json", "m.py::read_csv"}


def test_a_go_call_to_a_function_defined_once_per_build_variant_reaches_the_default_builds(tmp_path):
    """A package that defines `newPoller` once per platform (a file per poller, chosen by a
    `//go:build` line or a `_windows.go` name) compiles one of them in any build: four same-named
    candidates are no ambiguity to give up on but alternatives, and the call runs the one a default
    build compiles (linux/amd64). A name two files of one build both define stays a guess."""
    (tmp_path / "watch").mkdir()
    files = {
        "watch/watcher.go": "package watch\n\nfunc NewWatcher() *backend {\n\treturn newPoller()\n}\n\nfunc Close() {\n\tshared()\n}\n",
        "watch/poller_epoll.go": "//go:build linux && !appengine\n\npackage watch\n\nfunc newPoller() *backend { return readEpoll() }\n\nfunc readEpoll() *backend { return nil }\n",
        "watch/poller_kqueue.go": "//go:build darwin || freebsd\n\npackage watch\n\nfunc newPoller() *backend { return readKevents() }\n\nfunc readKevents() *backend { return nil }\n",
        "watch/poller_windows.go": "package watch\n\nfunc newPoller() *backend { return nil }\n",
        "watch/poller_other.go": "//go:build appengine || (!linux && !darwin && !freebsd && !windows)\n\npackage watch\n\nfunc newPoller() *backend { return nil }\n",
        "watch/types.go": "package watch\n\ntype backend struct{}\n",
        "watch/shared_a.go": "package watch\n\nfunc shared() {}\n",
        "watch/shared_b.go": "//go:build !windows\n\npackage watch\n\nfunc shared() {}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    index = RootIndex(tmp_path)
    index.build()
    graph = likely_graph(index)
    out = {e.dst: e for e in graph.out("watch/watcher.go::NewWatcher")}
    assert "watch/poller_epoll.go::newPoller" in out
    assert not {"watch/poller_kqueue.go::newPoller", "watch/poller_windows.go::newPoller", "watch/poller_other.go::newPoller"} & set(out)
    # both `shared` definitions build on linux: no variant to prefer, the candidates stay as they are
    assert {e.dst for e in graph.out("watch/watcher.go::Close")} == {"watch/shared_a.go::shared", "watch/shared_b.go::shared"}
