"""Every language spec against its pinned grammar and its hand-written fixture.

Each `fixtures/lang/<language>/` is a tiny repository with an `expected.json`: the gold
units (kind, qualname, spans, signature end, decorators, parent), supertypes, imports,
every resolved edge, and calls that must stay unresolved. The gold is what the code
*should* say; where the code is known to disagree, the test is a strict xfail naming the
bug, so fixing it turns the test red until the marker is removed.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
from tree_sitter import Query
from tree_sitter_language_pack import get_language

from codegraph.index.extract import KINDS, compiled
from codegraph.index.index import RootIndex
from codegraph.languages import SPECS

LANG_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lang"
LANGUAGES = [s.name for s in SPECS]

# (language, aspect) -> the bug that makes the code disagree with the gold answer.
KNOWN_BUGS: dict[tuple[str, str], str] = {}


def _params(aspect: str) -> list:
    out = []
    for lang in LANGUAGES:
        bug = KNOWN_BUGS.get((lang, aspect))
        marks = [pytest.mark.xfail(reason=bug, strict=True)] if bug else []
        out.append(pytest.param(lang, marks=marks, id=lang))
    return out


@lru_cache(maxsize=None)
def _indexed(lang: str) -> RootIndex:
    index = RootIndex(LANG_FIXTURES / lang, use_cache=False)
    index.build()
    return index


@lru_cache(maxsize=None)
def _expected(lang: str) -> dict:
    return json.loads((LANG_FIXTURES / lang / "expected.json").read_text("utf-8"))


# ---- grammar drift ----------------------------------------------------------------------


def test_every_language_has_a_fixture_with_gold_answers():
    missing = [lang for lang in LANGUAGES if not (LANG_FIXTURES / lang / "expected.json").is_file()]
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_spec_queries_compile_against_the_pinned_grammar(lang):
    spec = next(s for s in SPECS if s.name == lang)
    language = get_language(spec.grammar)
    optional = tuple(q for q in (spec.macros, spec.declarations) if q)  # languages without them leave them empty
    for source in (spec.definitions, spec.calls, spec.assignments, spec.imports) + optional:
        query = Query(language, source)  # raises QueryError on a node type or field the grammar lacks
        assert query.pattern_count > 0
    assert compiled(lang).spec is spec


@pytest.mark.parametrize("lang", LANGUAGES)
def test_definition_captures_are_known_unit_kinds(lang):
    query = compiled(lang).definitions
    names = {query.capture_name(i) for i in range(query.capture_count)}
    assert names - {"name"} <= set(KINDS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_call_captures_follow_the_contract(lang):
    query = compiled(lang).calls
    names = {query.capture_name(i) for i in range(query.capture_count)}
    assert "name" in names and names <= {"name", "call", "construct", "receiver"}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if next(s for s in SPECS if s.name == lang).declarations])
def test_declaration_captures_follow_the_contract(lang):
    spec = next(s for s in SPECS if s.name == lang)
    query = Query(get_language(spec.grammar), spec.declarations)
    # typed locals; where the language records every local (`complete_locals`), the untyped ones
    # too; an anonymous function's untyped parameters (`@untyped`) where its typed ones count; a
    # capture named with a leading `_` only feeds a predicate (Go's `new(T)`: `#eq? @_new "new"`);
    # a loop's variable (`@element`) and what it walks (`@of`), a local (`@holder`) and the field read
    # it is initialised by (`@held`) come in pairs; a lambda binding the language's implicit parameter
    # (`@implicit`: Kotlin's `it`) walks (`@of`) or holds (`@held`) in place of a named local; a
    # lambda's parameter names the lambda it is its own in (`@scope`); a pattern of an enum variant
    # (`@bind`) names its variant (`@variant`) and the arm or block it binds in (`@scope`)
    want = {"name", "type", "local"} if spec.complete_locals else {"name", "type"}
    names = {query.capture_name(i) for i in range(query.capture_count)}
    assert ("element" in names) == ("of" in names)
    assert ("bind" in names) == ("variant" in names) and ("bind" not in names or "scope" in names)
    assert ("holder" in names or "implicit" in names) == ("held" in names)
    assert ("implicit" in names) == bool(spec.implicit_parameter)
    assert {n for n in names if not n.startswith("_")} - {"untyped", "element", "of", "holder", "held", "implicit", "scope", "bind", "variant"} == want


@pytest.mark.parametrize("lang", LANGUAGES)
def test_assignment_captures_follow_the_contract(lang):
    spec = next(s for s in SPECS if s.name == lang)
    query = Query(get_language(spec.grammar), spec.assignments)
    assert {query.capture_name(i) for i in range(query.capture_count)} == {"target", "value"}


# A local initialised by a call or construction (directly or through await/`?`/parentheses)
# records the local's name on the call; tuples, destructuring and fields do not, but for a
# destructuring of a callable's listed results (Go's `y, err := g()`, `_, b := h()`; Rust's
# `let (a, b) = h()`), whose locals each hold their position (`Call.assigned_rest`).
ASSIGNED = {
    "python": ("p.py", "async def f():\n    x = Foo()\n    y = await g()\n    a, b = h()\n    self.z = k()\n    t = m(), n()\n"),
    "typescript": ("p.ts", "async function f() { const x = new Foo(); const y = await g(); const { a } = h(); this.z = k(); }"),
    "tsx": ("p.tsx", "async function f() { const x = new Foo(); const y = await g(); const { a } = h(); this.z = k(); }"),
    "javascript": ("p.js", "async function f() { const x = new Foo(); let y = await (g()); const [a] = h(); this.z = k(); }"),
    "java": ("P.java", "class P { void f() { Foo x = new Foo(); var y = g(); this.z = k(); } }"),
    "kotlin": ("p.kt", "fun f() { val x = Foo(); var y = (g()); z = k() }"),
    "go": ("p.go", "package p\nfunc f() { x := NewFoo(); y, err := g(); _, b := h(); z = k() }\n"),
    "rust": ("p.rs", "fn f() { let x = Foo::new(); let y = g()?; let (a, b) = h(); z = k(); }\n"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_calls_that_initialise_a_plain_local_record_its_name(lang):
    from codegraph.index.extract import extract_source

    path, source = ASSIGNED[lang]
    facts, _, _ = extract_source(path, lang, source.encode())
    got = {c.name: c.assigned_to for c in facts.calls}
    rest = {c.name: c.assigned_rest for c in facts.calls}
    first = {"python": "Foo", "go": "NewFoo", "rust": "new"}.get(lang, "Foo")
    assert got[first] == "x" and got["g"] == "y", got
    destructured = {"go": ("", ",b"), "rust": ("a", "a,b")}.get(lang, ("", ""))
    assert (got.get("h", ""), rest.get("h", "")) == destructured, (got, rest)
    assert all(got.get(n, "") == "" for n in ("k", "m", "n")), got
    assert rest.get("g", "") == ("y,err" if lang == "go" else ""), rest


# ---- fixtures ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_fixture_files_are_indexed_in_their_language_without_parse_errors(lang):
    index = _indexed(lang)
    assert sorted(index.files) == _expected(lang)["files"]
    assert {f.language for f in index.files.values()} == {lang}
    assert {p: f.parse_errors for p, f in index.files.items() if f.parse_errors} == {}
    assert index.skipped == {}


def _unit_rows(index: RootIndex) -> list[dict]:
    rows = []
    for facts in index.files.values():
        for u in facts.units:
            row = {
                "id": u.id, "kind": u.kind, "qualname": u.qualname, "start_line": u.start_line, "end_line": u.end_line,
                "name_line": u.name_line, "sig_end_line": u.sig_end_line, "decorators": list(u.decorators), "parent": u.parent,
            }
            if u.stmt_kind:
                row["stmt_kind"] = u.stmt_kind
            rows.append(row)
    return sorted(rows, key=lambda r: r["id"])


@pytest.mark.parametrize("lang", _params("units"))
def test_units_match_gold(lang):
    assert _unit_rows(_indexed(lang)) == sorted(_expected(lang)["units"], key=lambda r: r["id"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_unit_spans_are_consistent(lang):
    for facts in _indexed(lang).files.values():
        for u in facts.units:
            assert u.start_line <= u.name_line <= u.sig_end_line <= u.end_line, u.id
            assert u.start_byte <= u.sig_end_byte <= u.end_byte, u.id


@pytest.mark.parametrize("lang", _params("supertypes"))
def test_supertypes_match_gold(lang):
    got = sorted(
        ({"unit": s.unit, "name": s.name, "text": s.text, "kind": s.kind} for f in _indexed(lang).files.values() for s in f.supertypes),
        key=lambda r: (r["unit"], r["name"]),
    )
    assert got == sorted(_expected(lang)["supertypes"], key=lambda r: (r["unit"], r["name"]))


@pytest.mark.parametrize("lang", _params("imports"))
def test_imports_with_aliases_match_gold(lang):
    got = sorted(
        ({"path": p, "line": i.line, "module": i.module, "name": i.name, "alias": i.alias} for p, f in _indexed(lang).files.items() for i in f.imports),
        key=lambda r: (r["path"], r["line"], r["name"]),
    )
    assert got == sorted(_expected(lang)["imports"], key=lambda r: (r["path"], r["line"], r["name"]))


@pytest.mark.parametrize("lang", _params("edges"))
def test_resolved_edges_match_gold(lang):
    got = sorted(
        ({"src": e.src, "dst": e.dst, "kind": e.kind, "line": e.line} for b in _indexed(lang).bindings.values() for e in b.edges),
        key=lambda r: (r["src"], r["line"], r["dst"], r["kind"]),
    )
    assert got == sorted(_expected(lang)["edges"], key=lambda r: (r["src"], r["line"], r["dst"], r["kind"]))


@pytest.mark.parametrize("lang", _params("unresolved"))
def test_listed_calls_stay_unresolved(lang):
    index = _indexed(lang)
    unresolved = {
        (p, f.calls[i].line, f.calls[i].receiver, f.calls[i].name) for p, f in index.files.items() for i in index.bindings[p].unresolved
    }
    expected = {(c["path"], c["line"], c["receiver"], c["name"]) for c in _expected(lang)["unresolved"]}
    assert expected - unresolved == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_call_is_either_resolved_or_unknown(lang):
    index = _indexed(lang)
    for path, facts in index.files.items():
        b = index.bindings[path]
        call_edges = [e for e in b.edges if e.kind in ("calls", "constructs")]
        assert len(call_edges) + len(b.unresolved) == len(facts.calls), path


def test_java_static_methods_have_no_receiver():
    from codegraph.index.extract import extract_source

    source = b"class A { static void s() {} void i() {} A() {} }"
    facts, _, _ = extract_source("A.java", "java", source)
    assert {u.name: u.receiver for u in facts.units if u.kind in ("method", "constructor")} == {"s": "", "i": "this", "A": "this"}


def test_rust_calls_inside_macro_arguments_are_recorded():
    from codegraph.index.extract import extract_source

    source = (
        b"fn compute(x: u8) -> u8 { x }\n"
        b"fn f(a: Vec<u8>) {\n"
        b"    assert_eq!(a.len(), compute(1));\n"
        b"    let v = vec![Foo::new(1), g().h(2)];\n"
        b"    if matches!(v, Some(Pattern(_))) { println!(\"{}\", inner!(k(3))); }\n"
        b"}\n"
    )
    facts, _, _ = extract_source("src/lib.rs", "rust", source)
    got = sorted((c.line, c.receiver, c.name) for c in facts.calls)
    # matches! holds a pattern (no call); inner!(…) is a macro, k(3) inside it a call; a chain
    # after a call of a name is written as outside a macro (`g()`, arguments left out)
    assert got == [(3, "", "compute"), (3, "a", "len"), (4, "", "g"), (4, "Foo", "new"), (4, "g()", "h"), (5, "", "k")]
    assert all(c.caller == "src/lib.rs::f" for c in facts.calls)


def test_rust_turbofish_calls_inside_macro_arguments_are_recorded():
    """`ok!(self.get::<T>(id))`: generic arguments between the name and its call (nested ones too);
    a comparison before parentheses is no call."""
    from codegraph.index.extract import extract_source

    source = (
        b"fn f(m: M, a: u8, b: u8) {\n"
        b"    let x = ok!(m.try_get::<T>(1));\n"
        b"    let y = ok!(Parser::parse::<Vec<Vec<u8>>>(2));\n"
        b"    assert!(a < b && b > (a));\n"
        b"}\n"
    )
    facts, _, _ = extract_source("src/lib.rs", "rust", source)
    assert sorted((c.line, c.receiver, c.name) for c in facts.calls) == [(2, "m", "try_get"), (3, "Parser", "parse")]


RUST_ITEM_MACROS = b"""use std::future::Future;

pin_project! {
    /// A server future.
    pub struct Server<F> {
        #[pin]
        inner: F,
    }
}

impl<F: Future> Future for Server<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.project().inner.poll(cx)
    }
}

ffi_fn! {
    fn hyper_thing(x: u8) -> u8 {
        x + 1
    } ?= 0
}

macro_rules! noop { () => {}; }

pub fn serve<F: Future>(inner: F) -> Server<F> {
    Server { inner }
}
"""


def test_rust_items_inside_item_macros_are_indexed_where_they_are_written(tmp_path):
    """`pin_project! { pub struct … }` declares a struct the compiler sees: the index has it, at
    its own lines; a macro with a syntax of its own stays a token tree and breaks nothing."""
    from codegraph.graph.likely import likely_graph
    from codegraph.index.extract import extract_source

    facts, _, _ = extract_source("src/server.rs", "rust", RUST_ITEM_MACROS)
    assert not facts.parse_errors
    server = next(u for u in facts.units if u.kind == "struct" and u.name == "Server")
    assert (server.start_line, server.end_line) == (5, 8)  # the struct's own lines, not the macro's
    assert not any(u.name == "hyper_thing" for u in facts.units)
    assert any(u.qualname == "serve" for u in facts.units)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "server.rs").write_bytes(RUST_ITEM_MACROS)
    idx = RootIndex(tmp_path, use_cache=False)
    idx.build()
    out = {(e.dst.split("::")[1], e.rule) for e in likely_graph(idx).out("src/server.rs::serve")}
    assert ("Server", "resolved") in out and ("Server.poll", "built-protocol") in out  # built here, polled later


RUST_FEATURE_MACROS = b"""cfg_io_util! {
    /// Defines numeric readers.
    macro_rules! read_impl {
        ($name:ident) => { fn $name(&mut self) {} };
    }

    /* The reading half. */
    pub trait AsyncReadExt {
        fn read_all(&mut self) -> usize {
            fill(self)
        }
    }
}

cfg_rt! {
    cfg_net! {
        pub fn spawn_listener() -> usize {
            fill(&mut 0)
        }
    }
}

fn fill<T>(_t: &mut T) -> usize { 0 }
"""


def test_rust_items_behind_feature_macros_that_open_with_a_macro_or_a_comment_are_units():
    """A crate that gates whole files behind feature macros (`cfg_io_util! { macro_rules! … pub
    trait … }`, `cfg_rt! { cfg_net! { … } }`) lost every item inside when the block opened with a
    macro definition, a block comment or another gate: the file became one token tree, and distill
    chose that tree as a module statement the size of the file."""
    from codegraph.index.extract import extract_source

    facts, _, _ = extract_source("src/io/util.rs", "rust", RUST_FEATURE_MACROS)
    names = {u.qualname for u in facts.units}
    assert {"AsyncReadExt", "AsyncReadExt.read_all", "spawn_listener", "fill"} <= names
    read_all = next(u for u in facts.units if u.qualname == "AsyncReadExt.read_all")
    assert (read_all.start_line, read_all.end_line) == (9, 11)
    assert not any(u.kind == "statement" for u in facts.units)  # no file-sized module statement


JS_ASSIGNED_FUNCTIONS = b"""function Reply (res) {
  this.raw = res
}

Reply.prototype.send = function (payload) {
  if (payload === undefined) {
    return this
  }
  this.raw.end(payload)
  return this
}

exports.helper = function helper (x) {
  return x + 1
}
"""


def test_a_function_assigned_to_a_member_has_a_body_after_its_signature():
    """`T.prototype.m = function () {…}` held its function in the assignment's `right`, where the
    body was not looked for: the signature ran to the end, the unit had no body, and explore's
    packer dropped it silently (a question naming `Reply.send` never showed it)."""
    from codegraph.index.extract import extract_source

    facts, _, _ = extract_source("lib/reply.js", "javascript", JS_ASSIGNED_FUNCTIONS)
    units = {u.qualname: u for u in facts.units}
    for name, sig_line in (("Reply.send", 5), ("helper", 13)):
        u = units[name]
        assert u.sig_end_line == sig_line and u.sig_end_byte < u.end_byte, (name, u.sig_end_line, u.end_line)


RUST_CFG_IF = b"""cfg_if::cfg_if! {
    // the platform's own clock
    if #[cfg(all(target_family = "wasm", target_os = "unknown"))] {
        struct TimeoutInstant;
        impl TimeoutInstant {
            fn now() -> TimeoutInstant { TimeoutInstant }
        }
    } else if #[cfg(windows)] {
    } else {
        use std::time::Instant as TimeoutInstant;
    }
}

cfg_if! {
    if #[cfg(unix)] {
        pub fn sys_open() -> u32 { helper() }
    } else {
        pub fn sys_open() -> u32 { 2 }
    }
}

cfg_if! {
    if #[cfg(feature = "std")] {
        cfg_if! { if #[cfg(unix)] { pub fn nested() {} } }
    }
}

fn helper() -> u32 { 1 }
"""


def test_rust_items_in_cfg_if_branches_are_units():
    """`cfg_if! { if #[cfg(…)] { items } else { items } }` (the cfg-if crate's conditional items)
    was one token tree: its structs, impls, functions and `use`s were not in the index."""
    from codegraph.index.extract import extract_source

    facts, _, _ = extract_source("src/parking_lot.rs", "rust", RUST_CFG_IF)
    assert not facts.parse_errors
    units = {u.id.split("::", 1)[1]: u for u in facts.units}
    assert {"TimeoutInstant", "TimeoutInstant.now", "sys_open", "sys_open#2", "nested", "helper"} <= set(units)
    assert (units["TimeoutInstant.now"].start_line, units["TimeoutInstant.now"].end_line) == (6, 6)
    assert not any(u.kind == "statement" for u in facts.units)  # no macro-sized registration statement
    assert any(i.name == "Instant" and i.alias == "TimeoutInstant" for i in facts.imports)
    assert any(c.name == "helper" and c.caller == "src/parking_lot.rs::sys_open" for c in facts.calls)


RUST_BITFLAGS = b"""use libc::c_int;

bitflags! {
    /// Flags for opening a file.
    #[derive(Default)]
    pub struct OFlag: c_int {
        const O_RDONLY = libc::O_RDONLY;
        const O_RDWR = 0x2;
    }
}

bitflags::bitflags! {
    pub struct Mode: u32 { const A = 1; }
}

impl OFlag {
    pub fn readable(self) -> bool { self.contains(OFlag::O_RDONLY) }
}
"""


def test_rust_structs_declared_by_the_bitflags_idiom_are_units():
    """`bitflags! { pub struct OFlag: c_int { const …; } }` declares a struct with a representation type
    and constants for a body, which the grammar cannot read: the macro stayed one registration
    statement and a crate's flag types had no unit. They are structs spanning their declaration."""
    from codegraph.index.extract import extract_source

    facts, _, _ = extract_source("src/fcntl.rs", "rust", RUST_BITFLAGS)
    assert not facts.parse_errors
    units = {u.qualname: u for u in facts.units if u.kind != "impl"}
    assert units["OFlag"].kind == "struct" and (units["OFlag"].start_line, units["OFlag"].end_line) == (5, 9)
    assert units["Mode"].kind == "struct" and "OFlag.readable" in units
    assert not any(u.kind == "statement" for u in facts.units)


GO_GENERICS = b"""package list

type List[T any] struct{ head *node[T] }

type node[T any] struct {
	v    T
	next *node[T]
}

type values[T any] []T

func NewList[T any]() *List[T] { return &List[T]{} }

func (l *List[T]) Push(v T) { l.head = &node[T]{v: v, next: l.head} }

func Collect[T any](l *List[T]) values[T] {
	out := values[T](nil)
	return out
}

func use(handlers map[string]func()) {
	l := NewList[int]()
	l.Push(1)
	_ = Collect[int](l)
	_ = sync.Pool[int]{}
	_ = atomic.Load[int](nil)
	handlers["x"]()
}
"""


def test_go_generic_instantiations_are_calls_and_constructions():
    """Go 1.18 generics: `&node[T]{…}` constructs node, `NewList[int]()` calls NewList,
    `values[T](nil)` (a conversion to an instantiated type, as `values(nil)` is) calls values;
    indexing a map of functions calls nothing named."""
    from codegraph.index.extract import extract_source

    facts, _, _ = extract_source("list.go", "go", GO_GENERICS)
    assert not facts.parse_errors
    got = {(c.caller.split("::")[1], c.receiver, c.name, c.construct) for c in facts.calls}
    assert {
        ("NewList", "", "List", True),
        ("List.Push", "", "node", True),
        ("Collect", "", "values", False),
        ("use", "", "NewList", False),
        ("use", "", "Collect", False),
        ("use", "sync", "Pool", True),
        ("use", "atomic", "Load", False),
    } <= got
    assert not any(name == "handlers" for _, _, name, _ in got)


RUST_QUALIFIED_FNS = b"""pub struct Backoff { step: u32 }

impl Backoff {
    pub const fn new() -> Backoff { Backoff { step: 0 } }
    pub const unsafe fn from_raw(step: u32) -> Backoff { Backoff { step } }
    pub async unsafe fn wait(&self) {}
    pub(crate) const fn reset(&mut self) {}
    const fn limit() -> u32 { 6 }
}

pub extern "C" fn backoff_new() -> u32 { 0 }
pub unsafe extern "C" fn backoff_free(_b: u32) {}
extern "C" fn callback() {}
"""


def test_rust_functions_with_qualifiers_are_public_by_their_pub():
    """`pub const fn new()` is as public as `pub fn new()`: the qualifiers Rust allows between
    `pub` and `fn` (const, async, unsafe, extern "ABI") do not hide a function from the API."""
    from codegraph.distill.surfaces import is_public
    from codegraph.index.extract import extract_source

    facts, source, _ = extract_source("src/backoff.rs", "rust", RUST_QUALIFIED_FNS)
    public = {u.qualname for u in facts.units if u.is_callable and is_public(u, "rust", source)}
    assert public == {"Backoff.new", "Backoff.from_raw", "Backoff.wait", "backoff_new", "backoff_free"}


def test_rust_methods_of_a_trait_object_with_bounds_belong_to_the_trait():
    """`impl dyn Error + Send + Sync { pub fn downcast_ref … }` adds methods to the trait object's
    principal trait; its qualname was the type's whole text (`Error + Send + Sync.downcast_ref`)."""
    from codegraph.index.extract import extract_source

    source = (
        b"pub trait Value {}\n"
        b"impl dyn Error + Send + Sync + 'static {\n    pub fn downcast_ref(&self) -> bool { true }\n}\n"
        b"impl<'a> fmt::Debug for dyn Value + 'a {\n    fn fmt(&self) {}\n}\n"
        b"impl dyn MessageEncrypter {\n    pub fn invalid() {}\n}\n"
    )
    facts, _, _ = extract_source("src/error.rs", "rust", source)
    assert {"Error.downcast_ref", "Value.fmt", "MessageEncrypter.invalid"} <= {u.qualname for u in facts.units}


def test_rust_macro_rules_definitions_are_units():
    """`macro_rules! ready { … }` defines what a reader asks about (`select!`, `ready!`): a file of
    macro definitions had no unit at all. A macro defined inside a feature macro is one too; one
    defined inside a function is not (it expands in that function's body, no step of its own); its
    invocations stay unlinked (a macro's namespace is not a function's)."""
    from codegraph.index.extract import extract_source

    source = (
        b"#[macro_export]\nmacro_rules! ready {\n    ($e:expr) => { match $e { x => x } };\n}\n"
        b"cfg_rt! {\n    macro_rules! gated { () => {} }\n    pub fn spawn() {}\n}\n"
        b"fn poll() { let r = ready!(step()); macro_rules! local { () => {} } }\n"
    )
    facts, _, _ = extract_source("src/macros/ready.rs", "rust", source)
    units = {u.qualname: u for u in facts.units}
    assert {"ready", "gated", "spawn", "poll"} <= set(units) and "poll.local" not in units
    assert (units["ready"].start_line, units["ready"].end_line) == (1, 4)
    assert [c.name for c in facts.calls] == ["step"]


PY_GUARDED = """\
import sys

def register(name):
    return name

def fallback():
    return None

if not hasattr(sys, "pypy_version_info"):
    register("ctypes")
try:
    import json
except ImportError:
    json = fallback()
    def loads(s):
        return s
for name in ("a", "b"):
    register(name)
if __name__ == "__main__":
    register("main")
"""


def test_python_calls_under_a_module_level_guard_are_module_statements():
    """Module-level code under `if`, `try`, `with` or `for` runs at import like the rest: its calls
    had no unit to come from (a plugin's `if not PYPY: register(…)`); a definition in such a block
    stays the module's own name, and a main guard stays one statement."""
    from codegraph.index.extract import extract_source

    facts, _, _ = extract_source("m.py", "python", PY_GUARDED.encode())
    statements = {u.qualname: u.stmt_kind for u in facts.units if u.kind == "statement"}
    assert statements == {"<registration@10>": "registration", "<wiring@14>": "wiring",
                          "<registration@18>": "registration", "<main_guard@19>": "main_guard"}
    callers = {(c.line, c.name): c.caller for c in facts.calls}
    assert callers[(10, "register")] == "m.py::<registration@10>"
    assert callers[(14, "fallback")] == "m.py::<wiring@14>"
    assert callers[(20, "register")] == "m.py::<main_guard@19>"
    assert next(u for u in facts.units if u.name == "loads").parent is None
