"""The lifecycle flow: entry surfaces, the paths from them, and the units those paths pass through.

Overview selection follows the flow a request (or a call into a library) takes:

1. **Architecture scope.** Tests, examples, samples, demos, docs, tutorials, benchmarks and
   build scripts are never the architecture's entry or core (path rules that hold for any
   repository, see `non_architecture`).
2. **Selection graph.** Proven call/construct edges plus *likely* edges: an unresolved call
   whose name matches at most `LIKELY_MAX` callables in scope (same class first). Likely
   edges only choose *what to read*; facts and evidence use the proven graph only.
3. **Entry surfaces.** Host interfaces (WSGI/ASGI callables, `ServeHTTP`), declared entries
   (console scripts, bins, main functions and guards), and public roots: public callables
   nothing in scope calls. Ranked by tier, then by how much of the code base they reach.
4. **Orchestrating core.** Units reachable from the chosen entries that drive further
   work, ranked by how much lies downstream of them (the trunk of the flow), then by
   distance from the entry. This deliberately uses graph structure: the earlier rule
   "never from degree" kept high-fan-in helpers out, but also kept the trunk out.
   Downstream reach is not fan-in, so a helper called from everywhere does not rise.
5. **Assembly, sinks, boundaries.** Constructors and factories of the classes the flow
   runs through (found by what they construct), output/persistence calls on the flow, and
   units called from error handlers (`except`/`catch`) on the flow.

Everything is computed in sorted order: same index ⇒ same plan.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from tree_sitter import Query, QueryCursor

from ..index.extract import grammar
from ..index.facts import Unit
from ..languages import BY_NAME
from .signals import NETWORK_NAMES, OUTPUT_NAMES, OUTPUT_PARAM, QUERY_CALL, boundary_marks, output_like, parsed
from .topology import Model, _scc

# `obj.attr = Foo(`: written from the dot (a literal first lets the scan skip ahead); the byte
# before it must be a word byte, checked per hit (the same matches as `\b\w+\.(\w+)…`).
# (possessive `++`/`*+`: the next byte is never one the shorter match could use, so the same matches; no backtracking
# through every `obj.name` of a file: half the time over a code base's sources)
ATTR_FROM_CONSTRUCT = re.compile(rb"\.(\w++)\s*+=\s*+(?:new\s+|await\s+)?([A-Z]\w*+)\s*+[(<{]")
WORD_BYTE = re.compile(rb"\w")
# `.name` read as a value: not called, not assigned, not followed by `.` or `[` (within 40 bytes, as _scan reads it)
MEMBER_READ = re.compile(rb"\.([A-Za-z0-9_]++)(?![ \t\n\r\x0b\x0c]{0,39}[(=.\[])")
# a body whose last expression builds a struct (`… Connection { conn, fallback } }`): its value, returned
TAIL_STRUCT = re.compile(rb"[;{}]\s*([A-Z]\w*)\s*\{[^;]*\}\s*\}\s*$")
RETURNS_NEW = re.compile(rb"\breturn\s+(?:new\s+|&)?([A-Z]\w*)\s*[({<]")  # `return new Foo(`, `return &Foo{`
# `self.f = g(`, `this.f = new G(`: matched from the dot (a literal: the scan skips ahead), the
# `self`/`this` before it checked per hit (`_fields_from_calls`: the matches of `\b(?:self|this)\.(\w+)…`).
FIELD_FROM_CALL = re.compile(rb"\.(\w++)\s*+=\s*+(?:new\s+|await\s+)?((?:self\.|this\.)?\w++)\s*+\(")  # (possessive: as above)
FIELD_FROM_PARAM = re.compile(rb"\b(?:self|this)\.(\w+)\s*=\s*(\w+)\s*;?\s*$", re.M)
LIKELY_MAX = 3
QUOTED_NAME = re.compile(rb"""['\"]([A-Za-z_$][\w$]*)['\"]""")
WIRED_NAMES_MIN = 3  # a registration naming this many members of the flow wires them (one or two may be labels)
# Types that only hold one value of their type argument: a field declared `Option<Conn>` holds a Conn
VALUE_WRAPPERS = frozenset({"Option", "Box", "Arc", "Rc", "Pin", "RefCell", "Cell", "Mutex", "RwLock", "Optional"})
QUALIFIED_NEW = re.compile(rb"new\s+([A-Za-z_$][\w$]*)\.[\w$.]*[\w$]")  # `new pkg.Type.Inner(`: its first qualifier
FAMILY_MAX = 24
# a receiver as a callable's first parameter (Rust `self`, `&self`, `&'a mut self`, `mut self: Pin<…>`)
RECEIVER_PARAM = re.compile(rb"\s*(?:&\s*)?(?:'\w+\s+)?(?:mut\s+)?self\b")
# the ranked graph's rules that follow a built future or a future held in a declared field (`_poll_chain`), and
# the confidence they must reach: its typed rules (0.95), a built future's `poll` (0.9, 0.81 when the
# construction itself was guessed), a field destructured from the object (0.8)
POLL_CHAIN_RULES = frozenset({"built-protocol", "field-type", "field-binding"})
POLL_CHAIN_CONFIDENCE = 0.8
MAX_DEPTH = 12
CAPS = {"entry": 4, "assembly": 6, "core": 13, "sink": 5, "boundary": 4}
TOTAL = 30
# error syntax named in a body (`try`, `catch`, `except`, `recover()`, `throw`, `raise`, Go's new errors): a
# cheap filter before the language's own boundary syntax is parsed
ERROR_WORDS = re.compile(rb"\b(?:try|catch|except|recover|throw|raise|Errorf)\b|\berrors\.New\b")
QUERY_REACH = 16  # a query (`is…`, `has…`, `get…`) setting fewer units in motion answers a question: a helper
FEW_CALLEES = 8  # a unit that calls more distinct units than this sets the flow in motion: not a writer
MAX_OUTER_BYTES = 12_000  # a closure's enclosing function is read whole up to this size
SMALL_TYPE_BYTES = 4_000  # a type this small is read whole in the place of its picked members
WHOLE_TYPE_BYTES = 8_000  # a larger one only when that saves places, up to this size …
WHOLE_TYPE_EXTRA = 2_000  # … and at most this much larger than the members it stands for

# Directory names that hold material about the code, not the code's architecture.
NON_ARCH_DIRS = frozenset({
    "example", "examples", "sample", "samples", "demo", "demos", "doc", "docs", "documentation", "tutorial",
    "tutorials", "bench", "benches", "benchmark", "benchmarks", "scripts", "test", "tests", "testing", "testdata",
    "fixtures", "fixture", "e2e", "spec", "specs", "__tests__", "__mocks__", "testutil", "testutils", "playground",
})
TEST_SOURCE_SET = re.compile(r"^[a-z][A-Za-z0-9]*Test(s|Fixtures)?$|^test[-_A-Z]|[-_](tests?|testing|mocks?|fakes?|stubs?)$|^(mocks?|fakes?|stubs?)$")
BUILD_FILES = re.compile(
    r"(^|/)(build\.rs|setup\.py|noxfile\.py|fabfile\.py|conftest\.py|[Gg]runtfile\.[jt]s|gulpfile\.[jt]s|"
    r"[\w.-]+\.config\.[cm]?[jt]s|\.eslintrc\.[cm]?js|Makefile|build\.gradle(\.kts)?|settings\.gradle(\.kts)?)$|"
    r"\.d\.[cm]?ts$|(^|/)(testing|test[\w-]*)\.\w+$"
)


def non_architecture(path: str) -> bool:
    """Tests, examples, docs, benchmarks and build scripts: never entry, assembly or core."""
    parts = path.split("/")
    if any(p.lstrip("_.") in NON_ARCH_DIRS or TEST_SOURCE_SET.search(p.lstrip("_.")) for p in parts[:-1]):
        return True
    return bool(BUILD_FILES.search(path))


def is_public(u: Unit, language: str, source: bytes) -> bool:
    """Public by the language's own convention (syntax, not naming taste): its spec's `is_public`."""
    spec = BY_NAME.get(language)
    if spec is None:
        return not u.name.startswith("_")
    return spec.is_public(u.name, source[u.start_byte : max(u.sig_end_byte, u.start_byte)])


HOST_ARGS = re.compile(rb"\(\s*(?:(scope\s*,\s*\w*receive\w*\s*,\s*\w*send\w*)|environ\s*,\s*\w*start_response\w*)\s*\)")


def host_interface(u: Unit, language: str) -> str:
    """The host contract a callable implements, from its signature ('' when none): by its parameter
    names (the spec's `param_hosts`), or a method a structural contract names."""
    spec = BY_NAME.get(language)
    if spec is not None and spec.param_hosts and u.is_callable and len(u.param_names) >= 2:
        joined = " ".join(u.param_names)
        if any(wanted[0] in joined for wanted, _ in spec.param_hosts):  # cheap: every contract names its first
            names = tuple(n.lstrip("*&") for n in u.param_names)
            for wanted, shown in spec.param_hosts:
                if all(n in names for n in wanted):
                    return shown
    if spec is not None and spec.structural_hosts and u.kind == "method":
        for _, method, shown in spec.host_contracts:
            if u.name == method:
                return f"{shown} ({method})"
    return ""


@dataclass
class Plan:
    picks: list[tuple[str, str, str, int]] = field(default_factory=list)  # (uid, role key, reason, depth)
    qualities: dict[str, dict[str, str]] = field(default_factory=dict)  # uid → role key → reason
    likely: int = 0  # likely edges used for selection
    down: dict[str, int] = field(default_factory=dict)  # units downstream of each unit on the selection graph
    out: dict[str, set[str]] = field(default_factory=dict)  # the selection graph's callees of each unit
    fill: set[str] = field(default_factory=set)  # picked only because slots were free: never the skeleton
    # a small type shown whole for members the plan picked (`whole_types`) → the members' role keys, in pick order:
    # it holds one place per distinct role, so each member's main role keeps its label
    whole: dict[str, list[str]] = field(default_factory=dict)
    members: dict[str, list[str]] = field(default_factory=dict)  # such a type → the units it holds (facts, arrows)
    stands_for: dict[str, list[str]] = field(default_factory=dict)  # such a type → the picks it took the place of


def _fields_from_calls(src: bytes, lo: int, hi: int):
    """(start of `self`/`this`, field, callee) of each `self.field = callee(` within [lo, hi)."""
    for hit in FIELD_FROM_CALL.finditer(src, lo, hi):
        start = hit.start() - 4
        if start < lo or src[start : hit.start()] not in (b"self", b"this") or (start and WORD_BYTE.match(src, start - 1)):
            continue
        yield start, hit.group(1), hit.group(2)


def _error_regions(index, path: str) -> list[tuple[int, int]]:
    facts = index.files.get(path)
    spec = BY_NAME.get(facts.language) if facts else None
    types = spec.catch_node if spec is not None else ""
    if not types:
        return []
    key = (facts.language, types)
    query = _QUERIES.get(key)
    if query is None:
        try:
            query = _QUERIES.setdefault(key, Query(grammar(facts.language), f"({types}) @e"))
        except Exception:  # a grammar without this node type: no error regions
            return []
    tree = parsed(facts.language, index.sources[path])
    return sorted((n.start_byte, n.end_byte) for n in QueryCursor(query).captures(tree.root_node).get("e", []))


_QUERIES: dict = {}


class _Caller(NamedTuple):
    """What a caller knows when its unresolved calls are read (see `Flow._caller_context`)."""
    u: Unit
    owner: str | None
    me: set[str]
    local_type: dict[str, str]
    foreign: set[str]
    outside: set[str]
    views: frozenset[str]
    implicit_this: bool
    jvm: bool
    own_blocks: set[str]
    params: frozenset[str]
    class_param: str


class Flow:
    def __init__(self, index, model: Model) -> None:
        self.index, self.m = index, model
        outside: dict[str, bool] = {}
        for path in {u.path for u in model.units.values()}:
            outside[path] = non_architecture(path)
        self.arch = {uid for uid, u in model.units.items() if not outside[u.path]}
        self.ordered = sorted(self.arch, key=model.order.__getitem__)
        self.arch_paths = sorted(p for p, out in outside.items() if not out)  # the files of the units in scope
        # the language specs of the files in scope: a stage for a feature none of them has (Rust's
        # convention constructors, poll chains) is skipped instead of visiting every unit to find none
        self.specs = [spec for spec in {BY_NAME.get(index.files[p].language) for p, out in outside.items() if not out}
                      if spec is not None]
        self.out: dict[str, set[str]] = {}
        self.likely: set[tuple[str, str]] = set()
        self._modules: dict[str, set[str]] = {}
        self._outside: dict[str, set[str]] = {}
        self._roots: set[str] | None = None
        self._dirs: set[str] | None = None
        self._crate_names: set[str] | None = None
        self._outside_fields: set[tuple[str, str]] | None = None
        self._graph()
        self._reach()

    # ---- the selection graph ----------------------------------------------------------
    def _graph(self) -> None:
        """The selection graph: the calls the model resolves within the architecture, then the edges a reader
        would follow though no call names them outright (`likely`), stage by stage. Every stage only adds
        edges; the tables the stages share (`_by_name`, `_types`, `_methods_of`, …) are kept on the flow."""
        self._index_units()
        self._handed_members()
        self._constructors_and_closures()
        self._value_types()
        self._families()
        self._dispatch_to_overrides()
        self._handed_functions()
        self._table_lookups()
        self._host_calls()
        self._unresolved_calls()
        self._poll_chain()

    def _poll_chain(self) -> None:
        """In a language whose built values run their protocol method later (Rust: a future built here is
        polled by whoever it is handed to, `spawn(NewTask::new(…))`), the work goes on through what is built
        and through the futures an object holds in its declared fields (`self.conn.poll(cx)`, `let me =
        self.project(); me.state.poll(cx)`). The ranked graph reads exactly those (`built-protocol`,
        `field-type`, `field-binding`); its edges at POLL_CHAIN_CONFIDENCE or more go into the selection
        graph, for such languages only. *Why:* a server's accept loop spawns each connection's task, so the
        server's flow stopped at the spawn and the server never became an entry."""
        m, graph = self.m, None
        for src in self.ordered if any(spec.construct_protocol for spec in self.specs) else ():
            u = m.units[src]
            spec = BY_NAME.get(self.index.files[u.path].language) if u.is_callable else None
            if spec is None or not spec.construct_protocol:
                continue
            if graph is None:
                from ..graph.likely import likely_graph

                graph = likely_graph(self.index)
            for e in graph.out(src):
                if e.rule in POLL_CHAIN_RULES and e.confidence >= POLL_CHAIN_CONFIDENCE and e.dst in self.arch and e.dst != src:
                    self._link(src, e.dst)

    def _link(self, src: str, d: str) -> bool:
        """A likely edge src → d; False when it was there already."""
        if d in self.out[src]:
            return False
        self.out[src].add(d)
        self.likely.add((src, d))
        return True

    def _index_units(self) -> None:
        """Callables by name, types by name, each type's constructor, and the resolved edges in scope."""
        m = self.m
        self._by_name = by_name = {}
        self._types = types = {}
        ctor_of: dict[str, str] = {}
        for uid in self.ordered:
            u = m.units[uid]
            if u.is_callable:
                by_name.setdefault(u.name, []).append(uid)
                if u.parent and (u.kind == "constructor" or u.name in ("__init__", "constructor")):
                    ctor_of.setdefault(u.parent, uid)
            elif u.is_type:
                types.setdefault(u.name, []).append(uid)
        self.ctor_of = ctor_of
        self.ctor_units = set(ctor_of.values())
        self.convention_ctors = self._convention_ctors()
        self.constructs = {(s, d) for (s, d), k in m.kinds.items() if k == "constructs"}
        for src in self.ordered:
            self.out[src] = {d for d in m.out.get(src, ()) if d in self.arch}

    def _convention_ctors(self) -> set[str]:
        """A type's functions that are its constructors by the language's convention (the spec's
        `self_constructors`): no receiver parameter, and the type itself is what they return (Rust's
        `fn new(…) -> Self`). The language has no constructor syntax, so these are where its values are built."""
        m, out = self.m, set()
        for uid in self.ordered if any(spec.self_constructors for spec in self.specs) else ():
            u = m.units[uid]
            if not (u.is_callable and u.parent and m.units[u.parent].is_type):
                continue
            spec = BY_NAME.get(self.index.files[u.path].language)
            if spec is None or not spec.self_constructors:
                continue
            sig = self.index.sources[u.path][u.start_byte : max(u.sig_end_byte, u.start_byte)]
            if RECEIVER_PARAM.match(sig.partition(b"(")[2]):
                continue
            if return_type(sig, u.name, spec.name) in ("Self", m.units[u.parent].name):
                out.add(uid)
        return out

    def _handed_members(self) -> None:
        """`self.add` / `s.put` handed on (a callback table): it will run. The object's own method, else the
        one method of that name in the file."""
        m = self.m
        self._methods_of = methods_of = {}  # type → {method name → uid}
        for uid in self.ordered:
            u = m.units[uid]
            if u.is_callable and u.parent and m.units[u.parent].is_type:
                methods_of.setdefault(u.parent, {}).setdefault(u.name, uid)
        in_file: dict[str, dict[str, list[str]]] = {}
        for t, ms in methods_of.items():
            for name, d in ms.items():
                in_file.setdefault(m.units[t].path, {}).setdefault(name, []).append(d)
        for uid, found in self._scan({path: sorted(names) for path, names in in_file.items()}, member=True):
            u = m.units[uid]
            local = in_file.get(u.path, {})
            mine = methods_of.get(u.parent or "", {})
            me = {"self", "this", u.receiver} - {""}
            for obj, name in sorted(found):
                key = name.decode("utf-8", "replace")
                d = mine.get(key) if obj.decode("utf-8", "replace") in me else None
                if d is None and len(local.get(key, ())) == 1:
                    d = local[key][0]
                if d and d != uid:
                    self._link(uid, d)

    def _constructors_and_closures(self) -> None:
        """Constructing a type runs its constructor; a closure runs as part of (or is handed out by) its function."""
        m = self.m
        for t, ctor in sorted(self.ctor_of.items()):
            if t in self.out and ctor in self.arch:
                self.out[t].add(ctor)
        for uid in self.ordered:
            u = m.units[uid]
            if u.parent in self.out and u.is_callable and m.units[u.parent].is_callable:
                self.out[u.parent].add(uid)
                self.likely.add((u.parent, uid))

    def _value_types(self) -> None:
        """What values hold, to name the target of a call on them: the type each callable's signature returns
        (`returns`), the type stored in each field (`_field_type`: from a typed constructor parameter or a
        constructing call), and the one type an attribute name is ever assigned anywhere (`_attr_type`)."""
        m, types = self.m, self._types
        self.returns = returns = {}  # callable → the type name its signature says it returns (a type in scope)
        for uid in self.ordered:
            u = m.units[uid]
            if u.is_callable:
                t = return_type(self.index.sources[u.path][u.start_byte : max(u.sig_end_byte, u.start_byte)], u.name,
                                self.index.files[u.path].language)
                if t in types:
                    returns[uid] = t
        self._field_type = self._fields_from_params()
        self._fields_from_constructing_calls(self._field_type)
        attr_types: dict[str, set[str]] = {}  # `cmd.process = Process(...)` anywhere: what that attribute holds
        for path in self.arch_paths:
            text = self.index.sources[path]
            for hit in ATTR_FROM_CONSTRUCT.finditer(text):
                if not hit.start() or not WORD_BYTE.match(text, hit.start() - 1):
                    continue
                f, ty = hit.groups()
                name = ty.decode("utf-8", "replace")
                if name in types:
                    attr_types.setdefault(f.decode("utf-8", "replace"), set()).add(name)
        self._attr_type = {f: next(iter(ts)) for f, ts in attr_types.items() if len(ts) == 1}

    def _fields_from_params(self) -> dict[tuple[str, str], str]:
        """(type, field) → declared type of the value stored there: a constructor storing a typed parameter."""
        m = self.m
        field_type: dict[tuple[str, str], str] = {}
        for t, ctor in sorted(self.ctor_of.items()):
            u = m.units[ctor]
            typed = {n: ty for n, ty in zip(u.param_names, u.param_types) if ty}
            if not typed:
                continue
            body = self.index.sources[u.path][u.start_byte : u.end_byte]
            for f, val in FIELD_FROM_PARAM.findall(body):
                ty = typed.get(val.decode("utf-8", "replace"))
                if ty:
                    field_type[(t, f.decode("utf-8", "replace"))] = ty
        return field_type

    def _fields_from_constructing_calls(self, field_type: dict[tuple[str, str], str]) -> None:
        """`self.engine = Engine(...)`, `self.engine = self._create_engine()` in a method: one pass a file."""
        m, methods_of = self.m, self._methods_of
        spans: dict[str, list[tuple[int, int, str]]] = {}  # path → (start, end, type) of each method body
        for t, ms in methods_of.items():
            for uid in ms.values():
                u = m.units[uid]
                spans.setdefault(u.path, []).append((u.sig_end_byte, u.end_byte, t))
        for path in sorted(spans):
            owned = sorted(spans[path])
            starts = [a for a, _, _ in owned]
            for start, field_name, value in _fields_from_calls(self.index.sources[path], owned[0][0], max(b for _, b, _ in owned)):
                i = bisect.bisect_right(starts, start) - 1
                if i < 0 or start >= owned[i][1]:
                    continue
                t = owned[i][2]
                key = value.decode("utf-8", "replace").rsplit(".", 1)[-1]
                ty = key if key in self._types else self.returns.get(methods_of[t].get(key, ""), "")
                if ty:
                    field_type.setdefault((t, field_name.decode("utf-8", "replace")), ty)

    def _families(self) -> None:
        """Families: a base type's method and its overrides in subtypes (dispatch through a family). Also the
        classes that extend something outside the code base (`class Session(dict)`): a `self.get(…)` their
        own code does not answer comes from there, not from a same-named method of some other class."""
        m, arch, types = self.m, self.arch, self._types
        self._supers = supers = {}
        for path in self.arch_paths:
            for st in self.index.files[path].supertypes:
                if st.unit in arch:
                    supers.setdefault(st.unit, set()).add(st.name)
        self._outside_base = {t for t, names in supers.items()
                              if m.units[t].kind == "class" and any(n not in types for n in names)}
        self._base_of = base_of = {}  # type name → its first base type declared in scope
        for t, names in supers.items():
            bases = sorted(b for b in names if b in types and b != m.units[t].name)
            if bases:
                base_of.setdefault(m.units[t].name, bases[0])
        self.family_of = family_of = {}  # method uid → the root type name of its family
        for b, ts in types.items():
            for t in ts:
                for name, d in self._methods_of.get(t, {}).items():
                    family_of.setdefault(d, self._root(b))

    def _ancestors(self, t: str) -> set[str]:
        """The types in scope that `t` extends, transitively."""
        seen, todo = set(), [t]
        while todo:
            for n in self._supers.get(todo.pop(), ()):
                for b in self._types.get(n, ()):
                    if b not in seen:
                        seen.add(b)
                        todo.append(b)
        return seen

    def _root(self, name: str) -> str:
        """The top of a hierarchy in scope (families are transitive)."""
        seen = {name}
        while name in self._base_of and self._base_of[name] not in seen:
            name = self._base_of[name]
            seen.add(name)
        return name

    def _dispatch_to_overrides(self, edges: dict[str, list[str]] | None = None) -> None:
        """A call to a method may run any override in its family (up to FAMILY_MAX of them); `edges`: only
        those calls (a host call's targets), else every call the graph holds."""
        m, family_of = self.m, self.family_of
        overrides: dict[tuple[str, str], list[str]] = getattr(self, "_overrides", {})
        if not overrides:  # built once, kept for the host calls' pass
            for d, b in sorted(family_of.items(), key=lambda x: m.order[x[0]]):
                overrides.setdefault((b, m.units[d].name), []).append(d)
            self._overrides = overrides
        units = m.units
        subs_of: dict[str, list[str]] = {}  # d → the overrides a call of d may run: the same for every caller of d
        for src in self.ordered if edges is None else sorted(edges, key=m.order.__getitem__):
            for d in tuple(self.out[src]) if edges is None else edges[src]:  # only sets grow: order does not matter
                subs = subs_of.get(d)
                if subs is None:
                    du = units[d]
                    subs = []
                    if du.is_callable and _owner_type(m, d):
                        subs = [x for x in overrides.get((family_of.get(d, ""), du.name), []) if x != d]
                        if len(subs) > FAMILY_MAX:
                            subs = []
                    subs_of[d] = subs
                for x in subs:
                    if x != src:
                        self._link(src, x)

    def _handed_functions(self) -> None:
        """A top-level function of the file handed on by name (`run(cb)`, `handlers = [cb]`) will run."""
        m = self.m
        functions: dict[str, dict[bytes, str]] = {}
        for uid in self.ordered:
            u = m.units[uid]
            if u.is_callable and (u.parent is None or m.units[u.parent].kind == "statement"):
                functions.setdefault(u.path, {}).setdefault(u.name.encode(), uid)
        for uid, found in self._scan({path: sorted(n.decode() for n in names) for path, names in functions.items()}, body_only=True):
            u = m.units[uid]
            local = functions[u.path]
            for name in sorted({f.encode() for f in found} & local.keys()):
                d = local[name]
                if d != uid:
                    self._link(uid, d)

    def _table_lookups(self) -> None:
        """A function that reads a lookup table of its file (`const adapters = {http, fetch: {get: getFetch}}`,
        then `adapters[name]`) may run the callables the table names: the entry it reads is called or handed
        on. Which functions read a table, and what the table names, is the ranked graph's (`table-lookup`)."""
        m = self.m
        with_tables = {m.units[x].path for x in self.arch if m.units[x].kind == "statement"
                       and m.units[x].stmt_kind == "table" and m.units[x].parent is None}
        if not with_tables:
            return
        from ..graph.likely import likely_graph

        graph = likely_graph(self.index)
        named: dict[str, list[str]] = {}
        for src in self.ordered:
            u = m.units[src]
            if u.path not in with_tables or not u.is_callable:
                continue
            for table, _line in graph._tables_read(u, self.index.files[u.path]):
                if table.id not in named:
                    named[table.id] = [e.dst for e in graph.out(table.id) if e.dst in self.arch and m.units[e.dst].is_callable]
                for d in named[table.id]:
                    if d != src:
                        self._link(src, d)

    def _host_calls(self) -> None:
        """A call that hands on a host interface's own arguments (`await self.app(scope, receive, send)`,
        `app(environ, start_response)`) may run any implementation of that interface in scope."""
        m = self.m
        hosts: dict[str, list[str]] = {}
        self.host_kind: dict[str, str] = {}
        for uid in self.ordered:
            hu = m.units[uid]
            kind = host_interface(hu, self.index.files[hu.path].language)
            if kind:
                self.host_kind[uid] = kind
            if kind and hu.is_callable and not (hu.kind == "constructor" or hu.name in ("__init__", "constructor")) \
                    and not kind.startswith("http.Handler"):
                hosts.setdefault(kind, []).append(uid)
        hosted: dict[str, list[str]] = {}
        for src in sorted(m.unresolved, key=m.order.__getitem__) if hosts else ():
            if src not in self.arch:
                continue
            text = self.index.sources[m.units[src].path]
            for c in m.unresolved[src]:
                args = HOST_ARGS.search(text, c.start_byte, c.end_byte)
                if not args:
                    continue
                kind = next((k for k in hosts if k.startswith("ASGI" if args.group(1) else "WSGI")), "")
                targets = [d for d in hosts.get(kind, ()) if d != src]
                if len(targets) > FAMILY_MAX:  # too wide to guess: only the implementations its own type names
                    targets = self._named_by_owner(src, targets, self._base_of)
                if 0 < len(targets) <= FAMILY_MAX:  # like a family: beyond that, too wide to guess
                    for d in targets:
                        self._link(src, d)
                        hosted.setdefault(src, []).append(d)
        # the implementation a host call runs may be any override of it (`Reply.__call__` named, a `ChunkedReply`
        # handed back): the family rule, for these edges too
        self._dispatch_to_overrides(hosted)

    def _unresolved_calls(self) -> None:
        """The calls the model leaves unresolved: each names its likely targets from what the caller knows
        (its own type's blocks, what its locals and fields hold, which names come from outside)."""
        m, types = self.m, self._types
        # a type's blocks in one file are one type (Rust's `impl Pump` beside `impl Future for Pump`):
        # a method of either is the object's own
        self._blocks = blocks = {}
        for name, ts in types.items():
            for t in ts:
                if m.units[t].kind == "impl":
                    blocks.setdefault((m.units[t].path, name), set()).add(t)
        for (path, name), ids in blocks.items():
            ids.update(t for t in types.get(name, ()) if m.units[t].path == path)
        self._declared = None  # read on first use (Java, Kotlin)
        self._groups: dict[str, tuple] = {}  # name → its callables by parent, file, free (`_name_groups`)
        by_name = self._by_name
        class_params = {spec.class_param for spec in BY_NAME.values() if spec.class_param}
        for src in sorted(m.unresolved, key=m.order.__getitem__):
            if src not in self.arch:
                continue
            # a call whose name nothing in scope defines reaches nothing (`fn.call(…)` is a call of fn, `cls(…)`
            # builds the class method's own type)
            calls = [c for c in m.unresolved[src] if c.name in by_name or c.name in types or c.name in class_params
                     or (c.name in ("call", "apply", "bind") and c.receiver in by_name)]
            if not calls:
                continue
            ctx = self._caller_context(src)
            for c in calls:
                c, cands = self._call_targets(src, ctx, c)
                for d in cands:
                    if d != src and self._link(src, d):
                        if c.construct or m.units[d].is_type or d in self.ctor_units:
                            self.constructs.add((src, d))

    def _caller_context(self, src: str) -> "_Caller":
        """What a caller knows when its unresolved calls are read: its owner type (a closure's is its method's)
        and that type's blocks, the names that mean itself, what its locals hold (`x = Foo(...)`, `x =
        make_foo()` with `-> Foo`: x holds a Foo; `t := template.New(…)`: t holds what an imported package
        built), and its language's knowledge."""
        m, types, returns = self.m, self._types, self.returns
        u = m.units[src]
        owner = u.parent
        while owner and m.units[owner].is_callable:  # a closure's `this`/`self` is its method's
            owner = m.units[owner].parent
        me = {"self", "this", u.receiver} - {""}
        local_type: dict[str, str] = {}
        foreign: set[str] = set()
        mods = self.modules(u.path)
        outside = self.outside_names(u.path)
        spec = BY_NAME.get(self.index.files[u.path].language)
        views = spec.self_views if spec is not None else frozenset()
        implicit_this = spec is not None and spec.implicit_this
        jvm = spec is not None and spec.outside_imports == "package"  # where `new pkg.Type()` names a package
        own_blocks = self._blocks.get((m.units[owner].path, m.units[owner].name), {owner}) if owner else set()
        called: dict[str, list[str]] | None = None  # name → the caller's edges to units of that name, built on first use
        for c in m.calls.get(src, ()):
            if not c.assigned_to:  # every rule below reads what a call's result is assigned to
                continue
            if called is None:  # one pass over the edges, not one per assigned call
                called = {}
                for d in self.out[src]:
                    called.setdefault(m.units[d].name, []).append(d)
            if (c.receiver in mods and c.assigned_to not in local_type
                    and c.name not in called):
                foreign.add(c.assigned_to)
            elif jvm and c.construct and not c.receiver and self._outside_type(u.path, c, outside):
                foreign.add(c.assigned_to)  # `builder = new Headers.Builder()`: an outside package's object
            if c.assigned_to not in local_type:
                if c.name in types and (c.construct or c.name[:1].isupper()):
                    local_type[c.assigned_to] = c.name
                else:
                    f = [d for d in called.get(c.name, ()) if d in returns]
                    if len(f) == 1:
                        local_type[c.assigned_to] = returns[f[0]]
        if outside:  # a parameter declared with an outside type (`headers: &mut HeaderMap`): an outside object
            for n, t in zip(u.param_names, u.param_types):
                if t and self._outside_text(u.path, t):
                    foreign.add(n.lstrip("*&"))
        params, up = set(u.param_names), u.parent  # its own parameters and those of the functions around it
        while up and m.units[up].is_callable:
            params.update(m.units[up].param_names)
            up = m.units[up].parent
        params = frozenset(p.lstrip("*&") for p in params)
        return _Caller(u, owner, me, local_type, foreign, outside, views, implicit_this, jvm, own_blocks, params,
                       spec.class_param if spec is not None else "")

    def _call_targets(self, src: str, ctx: "_Caller", c) -> tuple:
        """The call as read (a `fn.call(this, …)` is a call of fn, `self.as_mut().poll_next()` a call on self),
        and the units it likely runs: none for an outside package's object or type."""
        u = ctx.u
        if c.name in ("call", "apply", "bind") and c.receiver.isidentifier() and c.receiver in self._by_name:
            c = c._replace(name=c.receiver, receiver="")  # JS `fn.call(this, …)` calls fn
        if ctx.views and "(" in c.receiver:  # `self.as_mut().poll_next(cx)`: a call on self
            c = c._replace(receiver=_without_views(c.receiver, ctx.views))
        if (c.receiver in ctx.foreign or c.receiver.split(".")[0] in ctx.outside) and not c.construct:
            return c, []  # a method of an outside package's object is not ours to guess
        if not c.construct and c.receiver.count(".") == 1 and self._outside_member(ctx, "".join(c.receiver.split())):
            return c, []  # `head.headers.get(k)` with `headers: http::HeaderMap` declared: an outside object
        if ctx.jvm and (c.construct and not c.receiver or c.receiver.startswith("new ")) and self._outside_type(u.path, c, ctx.outside):
            return c, []  # `new vendor.kit.Ticket.Maker()` (and calls on it): an outside package's type, not ours
        if (not c.receiver and ctx.owner and ctx.class_param and c.name == ctx.class_param
                and u.param_names[:1] == (ctx.class_param,)):  # `cls(…)` in a class method builds its own type
            return c._replace(construct=True), [self.ctor_of.get(ctx.owner, ctx.owner)]
        if c.construct or (c.name[:1].isupper() and c.name in self._types and not self._by_name.get(c.name)):
            tt = self._types.get(c.name, [])
            return c, [self.ctor_of.get(t, t) for t in tt] if len(tt) <= LIKELY_MAX else []
        return c, self._method_targets(src, ctx, c)

    def _method_targets(self, src: str, ctx: "_Caller", c) -> list[str]:
        """The callables a (non-constructing) call likely runs: its own type's method for a call on itself;
        on some other object, the one of that name, or those of the type the receiver holds, or one family."""
        m, u, owner, me = self.m, ctx.u, ctx.owner, ctx.me
        root = c.receiver if c.receiver in me else ("." if c.receiver else "")  # own member, other object, bare
        named = self._by_name.get(c.name, [])
        groups = self._name_groups(c.name) if len(named) > 1 else None  # a common name (`get`: hundreds of
        # definitions) is split once by parent, file and kind, not filtered again for every call of it
        if not c.receiver:  # a bare call runs what was handed in (`send(message)`), else a function: a type's
            if c.name in ctx.params:  # method only where a bare name can mean the object's member
                return []
            if not ctx.implicit_this:
                named = groups[2] if groups else [d for d in named if not (m.units[d].parent and m.units[m.units[d].parent].is_type)]
        if root in me:
            if groups is None:
                same = [d for d in named if d != src and (m.units[d].parent in ctx.own_blocks if owner else m.units[d].path == u.path)]
            else:
                same = [d for d in (self._in_blocks(groups, ctx.own_blocks) if owner else groups[1].get(u.path, ())) if d != src]
            if not same and owner in self._outside_base:  # `self.get(…)` on a `dict` subclass: inherited from outside,
                ancestors = self._ancestors(owner)  # unless a base in scope has it
                named = [d for d in named if m.units[d].parent in ancestors]
            if not same and c.name in ctx.views:  # `self.as_mut()` its type does not define: the language's
                named = []
            named = same or named
        elif not c.receiver and owner and ctx.implicit_this and c.name != u.name:  # `run(request)` in a method: this.run
            same = self._in_blocks(groups, ctx.own_blocks) if groups else [d for d in named if m.units[d].parent in ctx.own_blocks]
            named = same or named
        # a member call on some other object names its target only when the name is unique
        typed = []
        held = self._held_by_receiver(ctx, c.receiver)
        if held:  # `self.store.save()` where the constructor stored a `store: SqliteStore` parameter
            typed = [d for d in named if m.units[d].parent and m.units[m.units[d].parent].name == held]
            named = typed + [d for d in named if self.family_of.get(d) == held and d not in typed] if typed else named
        if len(named) <= (FAMILY_MAX if held and typed else LIKELY_MAX if root != "." or held else 1):
            return named
        if len(named) <= FAMILY_MAX:
            fams = {self.family_of.get(d, "") for d in named}
            if len(fams) == 1 and "" not in fams:  # one family of implementations: dispatch may reach any
                return named
        return []

    def _name_groups(self, name: str) -> tuple[dict[str | None, list[str]], dict[str, list[str]], list[str]]:
        """The callables of that name by parent, by file, and those no type holds; each list in flow order
        (as `_by_name` is). Built on first use of the name."""
        got = self._groups.get(name)
        if got is None:
            units = self.m.units
            by_parent: dict[str | None, list[str]] = {}
            by_path: dict[str, list[str]] = {}
            free: list[str] = []
            for d in self._by_name[name]:
                du = units[d]
                by_parent.setdefault(du.parent, []).append(d)
                by_path.setdefault(du.path, []).append(d)
                if not (du.parent and units[du.parent].is_type):
                    free.append(d)
            got = self._groups[name] = (by_parent, by_path, free)
        return got

    def _in_blocks(self, groups: tuple, blocks: set[str]) -> list[str]:
        """The callables of a name held by one of these blocks, in flow order."""
        by_parent = groups[0]
        if len(blocks) == 1:
            return list(by_parent.get(next(iter(blocks)), ()))
        found = [d for b in blocks for d in by_parent.get(b, ())]
        return sorted(found, key=self.m.order.__getitem__)

    def _outside_member(self, ctx: "_Caller", receiver: str) -> bool:
        """`x.f` where x is the object itself or a parameter whose declared type is a type of the code base, and
        that type declares the field f with a type its file imports from outside the code base."""
        m = self.m
        head, f = receiver.split(".")
        if head in ctx.me:
            base = m.units[ctx.owner].name if ctx.owner else ""
        else:
            t = dict(zip(ctx.u.param_names, ctx.u.param_types)).get(head, "")
            base = _held_type(t) if t else ""
        if not base or base not in self._types:
            return False
        if self._outside_fields is None:
            out: set[tuple[str, str]] = set()
            for name, ts in self._types.items():
                for t in ts:
                    tu = m.units[t]
                    for field, text in tu.attrs:
                        if self._outside_text(tu.path, text):
                            out.add((name, field))
            self._outside_fields = out
        return (base, f) in self._outside_fields

    def _outside_text(self, path: str, text: str) -> bool:
        """A declared type that is no type of the code base and that its file imports from outside, or names
        with a path that starts outside (`http::HeaderMap`, `vendor.Kit` with `vendor` imported)."""
        held = _held_type(text)
        if not held or held in self._types:
            return False
        outside = self.outside_names(path)
        if held in outside:
            return True
        t = text.strip().lstrip("*&").removeprefix("mut ").strip()
        head = re.split(r"::|\.|<", t, maxsplit=1)[0].strip()
        if head == t or not head:
            return False
        spec = BY_NAME.get(self.index.files[path].language)
        if spec is not None and spec.outside_imports == "crate":
            return head not in self._crates()
        return head in outside

    def _held_by_receiver(self, ctx: "_Caller", receiver: str) -> str | None:
        """The type of the code base the receiver holds: a field of the caller's own type, a local, a bare
        field its type declares, or an attribute only ever assigned one type; else falsy."""
        m, u, owner = self.m, ctx.u, ctx.owner
        parts = receiver.split(".")
        held = self._field_type.get((owner or "", parts[1])) if len(parts) == 2 and parts[0] in ctx.me else ctx.local_type.get(receiver)
        if not held and owner and ctx.implicit_this and len(parts) == 1 and receiver not in u.param_names:
            # a bare field its type declares (Java `planner.plan(args)` with
            # `private final Planner planner;`)
            if self._declared is None:
                self._declared = self._declared_fields(self._types)
            held = self._declared.get((m.units[owner].path, m.units[owner].name, receiver), "")
        if not held and len(parts) >= 2:  # an attribute that is only ever assigned one type
            held = self._attr_type.get(parts[-1])
        if not held and len(parts) == 1 and receiver in self._types and receiver not in ctx.params:
            held = receiver  # `AxiosError.from(…)`: a call on the type itself (a static or class method)
        return held

    def _declared_fields(self, types: dict[str, list[str]]) -> dict[tuple[str, str, str], str]:
        """(file, type name, field) → the type of the code base its declaration holds, seen through the
        wrappers that only hold one value (`Option<ProtoServer<…>>`, `Arc<Pool>`, `*node`). Keyed by file
        and name, so a Rust `impl` block finds the fields of its struct."""
        m = self.m
        out: dict[tuple[str, str, str], str] = {}
        for t in sorted({t for ts in types.values() for t in ts}, key=m.order.__getitem__):
            tu = m.units[t]
            for field, text in tu.attrs:
                held = _held_type(text)
                if held in types:
                    out.setdefault((tu.path, tu.name, field), held)
        return out

    def _named_by_owner(self, src: str, targets: list[str], base_of: dict[str, str]) -> list[str]:
        """The targets whose type (or, for a closure, whose function) the caller's own type names in its
        code (`Router(…)`, `layers = [ErrorGuard, …]`, `self.app = wrap(endpoint)`): what that object
        wires in is what its handed-on call runs. A named subtype counts for its bases (`TextResponse(…)`
        runs `Response.__call__`)."""
        m = self.m
        scope = _owner_type(m, src) or _outermost(m, src)
        u = m.units[scope]
        named = set(re.findall(r"[A-Za-z_]\w*", self.index.sources[u.path][u.start_byte : u.end_byte].decode("utf-8", "replace")))
        for name in tuple(named):
            seen = {name}
            while name in base_of and base_of[name] not in seen:
                name = base_of[name]
                seen.add(name)
                named.add(name)
        return [d for d in targets if m.units[d].parent and m.units[_outermost(m, d, stop_at_type=True)].name in named]

    def _scan(self, names: dict[str, list[str]], member: bool = False, body_only: bool = False) -> list[tuple[str, set]]:
        """Where each file's names are used as values, not called (`self.add` stored, `run(cb)`), per
        innermost enclosing callable. `member`: only as `obj.name`, found as (obj, name). Plain byte
        searches for the few names in question: no per-file pattern to compile, no pass over every word."""
        m = self.m
        by_path: dict[str, list[Unit]] = {}
        for uid in self.arch:
            u = m.units[uid]
            if u.path in names and u.is_callable:
                by_path.setdefault(u.path, []).append(u)
        out: list[tuple[str, set]] = []
        for path in sorted(by_path):
            units = sorted(by_path[path], key=lambda u: (u.start_byte, -u.end_byte))
            scan = self._scan_member_reads if member else self._scan_values
            found = scan(self.index.sources[path], units, names[path], body_only)
            out += sorted(found.items(), key=lambda x: m.order[x[0]])
        return out

    @staticmethod
    def _innermost(units: list[Unit], starts: list[int], pos: int, body_only: bool) -> int:
        """The index of the innermost unit holding this position (in its body, with `body_only`), or -1."""
        i = bisect.bisect_right(starts, pos) - 1
        while i >= 0 and not (units[i].start_byte <= pos < units[i].end_byte
                              and (not body_only or pos >= units[i].sig_end_byte)):
            i -= 1
        return i

    def _scan_member_reads(self, src: bytes, units: list[Unit], names: list[str], body_only: bool) -> dict[str, set]:
        """One pass over the file's member reads (not calls, stores or chains), then the names: uid →
        {(obj, name)} for each `obj.name` read inside that unit."""
        starts = [u.start_byte for u in units]
        lo, hi = units[0].start_byte, max(u.end_byte for u in units)
        found: dict[str, set] = {}
        wanted = {n.encode() for n in names}  # compared as bytes: a hit is ASCII, no decode per member read
        for hit in MEMBER_READ.finditer(src, lo):
            pos = hit.start()
            if hit.end() > hi:
                if pos >= hi:
                    break
                continue
            name = hit.group(1)
            if name not in wanted or pos == 0 or not WORD_BYTE.match(src, pos - 1):
                continue  # `obj.name`: a word byte before the dot
            i = self._innermost(units, starts, pos, body_only)
            if i >= 0:
                j = pos
                while j > 0 and (src[j - 1 : j].isalnum() or src[j - 1 : j] == b"_"):
                    j -= 1
                found.setdefault(units[i].id, set()).add((src[j:pos], name))
        return found

    def _scan_values(self, src: bytes, units: list[Unit], names: list[str], body_only: bool) -> dict[str, set]:
        """Each name as a whole word that is not called nor a member (`run(cb)`, `[cb]`): uid → {name}."""
        starts = [u.start_byte for u in units]
        lo, hi = units[0].start_byte, max(u.end_byte for u in units)
        found: dict[str, set] = {}
        for name in names:
            needle = name.encode()
            pos = src.find(needle, lo, hi)
            while pos != -1:
                end = pos + len(needle)
                before = src[pos - 1 : pos] if pos else b""
                after = src[end : end + 1]
                rest = src[end : end + 40].lstrip()
                ok = not (after.isalnum() or after == b"_") and not rest.startswith(b"(")
                ok = ok and not (before.isalnum() or before in (b"_", b"."))
                if ok:
                    i = self._innermost(units, starts, pos, body_only)
                    if i >= 0:
                        found.setdefault(units[i].id, set()).add(name)
                pos = src.find(needle, end, hi)
        return found

    # ---- reach over the condensation (bitsets) ------------------------------------------
    def _reach(self) -> None:
        """Upstream and downstream counts of every unit, as bitsets over the condensation."""
        nodes = self.ordered
        self.bit = bit = {u: i for i, u in enumerate(nodes)}
        self.callers = callers = {u: set() for u in nodes}
        succ: list[list[int]] = []
        for u in nodes:  # successors and callers in one pass over the edges
            ws = []
            for d in self.out.get(u, ()):
                if d in bit:
                    ws.append(bit[d])
                    callers[d].add(u)
            succ.append(ws)
        comp, members = _scc(succ)  # components in reverse topological order (sinks first)
        csucc: list[set[int]] = [set() for _ in members]
        for v, ws in enumerate(succ):
            for w in ws:
                if comp[v] != comp[w]:
                    csucc[comp[v]].add(comp[w])
        own = [1 << vs[0] for vs in members]  # most components are one unit: its bit, no OR
        for c, vs in enumerate(members):
            for v in vs[1:]:
                own[c] |= 1 << v
        down = [0] * len(members)
        with_own = [0] * len(members)  # down | own of each finished component: one big-int OR per edge, not two
        # (an int is shared where it would only be OR-ed into a zero: no copy of a set as wide as the graph)
        for c in range(len(members)):  # successors have smaller numbers: already done
            bits = own[c] if len(members[c]) > 1 else 0
            for d in csucc[c]:
                bits = bits | with_own[d] if bits else with_own[d]
            down[c] = bits
            with_own[c] = bits | own[c]
        up = [0] * len(members)
        for c in reversed(range(len(members))):
            if len(members[c]) > 1:
                up[c] |= own[c]
            if csucc[c]:
                bits = up[c] | own[c]
                for d in csucc[c]:
                    up[d] = up[d] | bits if up[d] else bits
        # a unit alone in its component is not in its own sets: share the component's ints and counts
        down_n = [b.bit_count() for b in down]
        up_n = [b.bit_count() for b in up]
        self.down_bits, self.down, self.up_bits, self.up = {}, {}, {}, {}
        for i, u in enumerate(nodes):
            c = comp[i]
            if len(members[c]) > 1:
                self.down_bits[u] = b = down[c] & ~(1 << i)
                self.down[u] = b.bit_count()
                self.up_bits[u] = b = up[c] & ~(1 << i)
                self.up[u] = b.bit_count()
            else:
                self.down_bits[u], self.down[u] = down[c], down_n[c]
                self.up_bits[u], self.up[u] = up[c], up_n[c]

    def up_members(self, uid: str) -> list[str]:
        """The units upstream of uid (those leading into it), in flow order."""
        b = self.up_bits.get(uid, 0)
        return [u for u in self.ordered if b >> self.bit[u] & 1]

    def modules(self, path: str) -> set[str]:
        """Local names bound to whole outside modules or packages in that file."""
        mods = self._modules.get(path)
        if mods is None:
            mods = self._modules[path] = _module_names(self.index.files[path].imports)
        return mods

    def outside_names(self, path: str) -> set[str]:
        """Names a file imports from a package outside the code base (`from twisted.internet import reactor`):
        a member call on one of them (`reactor.run()`) is that package's, never a same-named method in scope."""
        got = self._outside.get(path)
        if got is not None:
            return got
        if self._roots is None:
            roots: set[str] = set()
            for p in self.index.files:
                parts = p.split("/")
                roots.update(parts[:-1])
                roots.add(parts[-1].rsplit(".", 1)[0])
            self._roots = roots
        got = set()
        facts = self.index.files[path]
        spec = BY_NAME.get(facts.language)
        jvm = spec is not None and spec.outside_imports == "package"
        if spec is not None and spec.outside_imports:
            for imp in facts.imports:
                if imp.level or imp.module.startswith(".") or not imp.module:
                    continue
                if spec.outside_imports == "crate":  # a path inside this crate, or one of the code base's crates
                    if imp.module.split("::")[0] in self._crates():
                        continue
                    top = ""
                else:
                    top = imp.module.lstrip("@").split("/")[0].split(".")[0]
                if (imp.module.replace(".", "/") in self._package_dirs()) if jvm else top and top in self._roots:
                    continue  # a package of this code base (Java, Kotlin: a directory of that package path)
                local = imp.alias or (imp.name if imp.name not in ("", "*", "default") else "")
                if local == "self":  # Rust `use std::io::{self, …}` binds `io`
                    local = re.split(r"::", imp.module)[-1]
                if local.isidentifier():
                    got.add(local)
        self._outside[path] = got
        return got

    def _crates(self) -> set[str]:
        """The names a Rust path inside the code base starts with: `crate`, `self`, `super`, and the crates its
        `Cargo.toml` files declare (`my-lib` is written `my_lib`)."""
        if self._crate_names is None:
            from .manifests import _manifest_dirs, load
            names = {"crate", "self", "super"}
            for d in _manifest_dirs(self.index):
                data = load(self.index, f"{d}/Cargo.toml" if d else "Cargo.toml")
                pkg = data.get("package") if data is not None else None
                if isinstance(pkg, dict) and isinstance(pkg.get("name"), str):
                    names.add(pkg["name"].replace("-", "_"))
            self._crate_names = names
        return self._crate_names

    def _package_dirs(self) -> set[str]:
        """Every trailing part of every directory path in scope (`a/b/c` → `c`, `b/c`, `a/b/c`): a JVM
        package `b.c` is the code base's own when some directory ends with `b/c`."""
        if self._dirs is None:
            self._dirs = set()
            for p in self.index.files:
                parts = p.split("/")[:-1]
                for i in range(len(parts)):
                    self._dirs.add("/".join(parts[i:]))
        return self._dirs

    def _outside_type(self, path: str, c, outside: set[str]) -> bool:
        """A construction written with a qualifier that names an outside package or one of its types
        (`new vendor.kit.Ticket.Maker()`, `new Labels.Maker()` with `Labels` imported from outside)."""
        hit = QUALIFIED_NEW.search(self.index.sources[path], c.start_byte, c.end_byte)
        if hit is None:
            return False
        head = hit.group(1).decode("utf-8", "replace")
        self.outside_names(path)  # fills the code base's root names
        return head in outside or (head[:1].islower() and head not in (self._roots or ()))

    def depths(self, start: str) -> dict[str, int]:
        seen = {start: 0}
        frontier = [start]
        for depth in range(1, MAX_DEPTH + 1):
            nxt = []
            for s in frontier:
                for d in sorted(self.out.get(s, ()), key=self.m.order.__getitem__):
                    if d not in seen:
                        seen[d] = depth
                        nxt.append(d)
            frontier = nxt
        return seen


def _held_type(text: str) -> str:
    """The named type a declaration holds: `Option<Foo<T>>` → `Foo`, `&mut pkg::Bar` → `Bar`."""
    t = text.strip().lstrip("*&").removeprefix("mut ").strip()
    while True:
        head, _, rest = t.partition("<")
        if head.strip() in VALUE_WRAPPERS and rest:
            t = rest.rsplit(">", 1)[0].split(",", 1)[0].strip().lstrip("*&")
            continue
        return re.split(r"::|\.", head.strip())[-1]


def _without_views(receiver: str, views: frozenset[str]) -> str:
    """A receiver without the steps that only view it (`self.as_mut().project().conn` →
    `self.conn`): a pinned or projected `self` is still the object itself."""
    parts = receiver.split(".")
    kept = parts[:1] + [p for p in parts[1:] if not (p.strip().endswith("()") and p.strip()[:-2] in views)]
    return ".".join(kept)


@lru_cache(maxsize=16)
def _host_methods(language: str) -> dict[str, str]:
    """Interface or trait name → the method a host calls through it (languages/* specs)."""
    spec = BY_NAME.get(language)
    return {name: method for name, method, _ in spec.host_contracts} if spec is not None else {}


def _outermost(model: Model, uid: str, stop_at_type: bool = False) -> str:
    """The outermost callable holding a unit (itself when none); `stop_at_type`: the type holding it, if any."""
    while (parent := model.units[uid].parent) and (model.units[parent].is_callable or model.units[parent].is_type):
        if model.units[parent].is_type:
            return parent if stop_at_type else uid
        uid = parent
    return uid


def _holders(model: Model, uid: str) -> set[str]:
    """The units a unit is nested in (`Retrofit.Builder` is held by `Retrofit`)."""
    out, parent = set(), model.units[uid].parent if uid else None
    while parent:
        out.add(parent)
        parent = model.units[parent].parent
    return out


def _owner_type(model: Model, uid: str) -> str:
    """The type holding a unit ("" when none); each unit's is walked once per model (the plan asks ~30,000 times)."""
    got = model.owner_types.get(uid)
    if got is None:
        parent = model.units[uid].parent
        while parent and not model.units[parent].is_type:
            parent = model.units[parent].parent
        got = model.owner_types[uid] = parent or ""
    return got


def _implementations(index, model: Model, arch: set[str], ordered: list[str]) -> dict[str, tuple[str, bool]]:
    """Methods implementing an interface: uid → (interface.method, is a host contract).

    Interfaces declared in scope count when they are public; a few runtime contracts
    (`Future::poll`, `Service::call`) are host interfaces even though they are declared elsewhere."""
    declared: dict[str, set[str]] = {}
    for uid, u in model.units.items():
        if u.parent and uid in arch and model.units[u.parent].kind in ("interface", "trait") and u.is_callable:
            declared.setdefault(model.units[u.parent].name, set()).add(u.name)
    supers: dict[str, set[str]] = {}
    for path in sorted({model.units[x].path for x in arch}):
        for st in index.files[path].supertypes:
            supers.setdefault(st.unit, set()).add(st.name)
    out: dict[str, tuple[str, bool]] = {}
    for uid in ordered:  # arch in stable order
        u = model.units[uid]
        if not (u.is_callable and u.parent and u.parent in supers):
            continue
        for name in sorted(supers[u.parent]):
            if _host_methods(index.files[u.path].language).get(name) == u.name:
                spec = BY_NAME.get(index.files[u.path].language)
                out[uid] = (f"{name}{spec.member_separator if spec is not None else '.'}{u.name}", True)
                break
            if u.name in declared.get(name, ()):
                out.setdefault(uid, (f"{name}.{u.name}", False))
    return out


def _type_reach(model: Model, flow: "Flow", owners: set[str]) -> dict[str, int]:
    """What an object can set in motion: the reach of its methods and of the methods of every
    type it constructs, transitively (an application object builds its router, and so on)."""
    methods: dict[str, list[str]] = {}
    for y in flow.ordered:
        t = _owner_type(model, y)
        if t:
            methods.setdefault(t, []).append(y)
    builds: dict[str, set[str]] = {}
    for t, ms in methods.items():
        for y in ms:
            for d in flow.out.get(y, ()):
                if (y, d) in flow.constructs:
                    builds.setdefault(t, set()).add(d if model.units[d].is_type else _owner_type(model, d))
    own: dict[str, int] = {}  # a type's methods and what lies downstream of them: one int per type, built once

    def type_bits(t: str) -> int:
        b = own.get(t)
        if b is None:
            b = 0
            for y in methods.get(t, ()):
                b |= flow.down_bits.get(y, 0) | (1 << flow.bit[y])
            own[t] = b
        return b

    out: dict[str, int] = {}
    for owner in sorted(owners):
        seen, stack, bits = {owner}, [owner], 0
        while stack:
            t = stack.pop()
            bits |= type_bits(t)
            for b in sorted(builds.get(t, set()) - seen - {""}):
                seen.add(b)
                stack.append(b)
        out[owner] = bits.bit_count()
    return out


def _referenced_types(index, model: Model, arch: set[str]) -> dict[str, int]:
    """How many other files in scope name a type (imports, constructions, calls): the application
    object a host runs is built by its user, so nothing else in scope refers to it."""
    by_name: dict[str, list[str]] = {}
    for uid in arch:
        u = model.units[uid]
        if u.is_type:
            by_name.setdefault(u.name, []).append(uid)
    files: dict[str, set[str]] = {}
    for path in sorted({model.units[x].path for x in arch}):
        f = index.files[path]
        names = {i.name or i.alias for i in f.imports} | {c.name for c in f.calls} | {c.receiver.split(".")[0] for c in f.calls}
        for n in names:
            for t in by_name.get(n, ()):
                if model.units[t].path != path and not path.rsplit("/", 1)[-1].startswith(("__init__.", "index.", "mod.", "lib.")):
                    files.setdefault(t, set()).add(path)
    return {t: len(v) for t, v in files.items()}


REGISTER = re.compile(
    rb"(?:\b(?:self|this)\.\w+\s*(?:\[[^\]\n]*\]\s*=|\.(?:append|push|unshift|extend)\s*\()|"
    rb"\b(\w+)\.(\w+)\s*=\s*append\(\s*\1\.\2\b)"
)


def _module_names(imports) -> set[str]:
    """Local names that bind a whole imported module or package (`import json`, Go `"text/template"`)."""
    out: set[str] = set()
    for imp in imports:
        if imp.level or imp.module.startswith("."):
            continue  # a module of this code base
        if imp.name in ("", "*") or imp.alias:
            local = imp.alias or imp.module.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[-1]
            if local.isidentifier():
                out.add(local)
    return out


# What a trunk unit does, read from its body (the unit's main role; see docs/distill.md).
# Composition: a local wrapped in layers and handed back (`app = cls(app, …)`, `h = mw[i](h)`).
WRAPS = re.compile(rb"(?<![\w.])(\w+)\s*:?=\s*(?:await\s+)?\w+(?:\[[\w.\- ]*\])?\(\s*&?\1\b")
# A part built and stored on the unit's own object (`self.engine = self._create_engine()`,
# `this.slot = new Slot(…)`, `self._session = iface.open_session(…)`).
TOOL_MAKERS = frozenset({b"new", b"make"})  # Go's builtin allocators
STORES_BUILT = re.compile(rb"\b(?:self|this)\.(\w+)\s*=\s*(?:await\s+)?(new\s+|&)?([\w.]+)\s*[(<{]")
# An output handed on as an argument: a response, a writer, a stream, a socket, `c.OutOrStdout()`.
OUTPUT_ARG = re.compile(rb"(?<![\w.])(response|resp|res|w|wr|writer|out|output|stream|socket|sink)\b(?!\s*[.(\[])|"
                        rb"\.(?:Out\w*|Writer|writer|stdout|stderr)\(\)")
# A parameter that carries an error: typed as one, or, untyped, named as one.
ERROR_NAME = re.compile(r"(?i)^(err|error|exc|exception|failure|throwable|cause)$")
# (`ErrorResult` carries one; `ErrorHandler` handles them and is not one)
ERROR_TYPE = re.compile(r"(Error|Exception|Throwable|Failure)(?![a-z]|Handler|Listener|Callback|Reporter|Factory|Mapper)|^error$")
RETURNS_WHAT = re.compile(rb"\breturn\s+(?:(?:new\s+)?([\w.]+)\s*(?:<[^>\n]*>)?\s*\(|(\w+)\s*;?\s*[})]*\s*$)")
CALLISH = re.compile(rb"^\s*[A-Z]|^\s*new\b")


ACCUMULATE = frozenset({b"append", b"concat", b"list", b"tuple", b"sorted", b"reversed", b"str", b"len", b"int",
                        b"String", b"Array", b"Object", b"merge", b"copy"})  # language builtins that grow or convert


def _error_param(u: Unit, loose: bool = False) -> str:
    """The parameter that carries an error into the unit ('' when none). `loose`: a parameter typed as anything
    at all (`err: any`, `interface{}`) is read by its name, as an untyped one."""
    types = tuple(u.param_types) + ("",) * len(u.param_names)
    return next((p.lstrip("*&") for p, t in zip(u.param_names, types)
                 if (ERROR_TYPE.search(t) if t and not (loose and ANY_TYPE.match(t)) else ERROR_NAME.match(p.lstrip("*&")))), "")


ANY_TYPE = re.compile(r"^\s*(any|unknown|object|Object|interface\{\}|Any|Any\?|\*?any)\s*$")


# Where a process ends on failure (`os.Exit(1)`, `log.Fatal(err)`, `sys.exit(…)`, Rust's `process::exit(1)`): the last
# place its errors reach. Writing to the error stream alone is not such a place: debug logs and tracers write there
# too (policy `exits`).
EXITS = re.compile(rb"\b(?:os\.Exit|sys\.exit|process\.exit|process::exit|System\.exit|exitProcess|log\.Fatal\w*)(?=\s*\()")


def reports_error(index, u: Unit) -> str:
    """Why a unit that writes out is an error boundary first ('' when it is not): it takes an error it
    is handed (an error handler that reports or logs), or it ends the process (`os.Exit(1)`): a unit that
    only writes to the error stream, taking no error, is a log (a sink), not where failures end."""
    err = _error_param(u)
    if err:
        return f"handles the error it is handed (`{err}`)"
    hit = EXITS.search(index.sources[u.path], u.sig_end_byte, u.end_byte)
    return f"reports a failure (`{hit.group().decode()}`)" if hit else ""


def _guards_handoff(index, model: Model, u: Unit, regions: dict[str, list[tuple[int, int]]]) -> str:
    """The call a wrapper guards ('' when none): it hands all of its own arguments on (`self.app(scope,
    receive, send)`, a middleware calling the app it wraps) before an error handler of its own body."""
    params = [p.lstrip("*&") for p in u.param_names if p not in ("self", "this")]
    if len(params) < 2:
        return ""
    if u.path not in regions:
        regions[u.path] = _error_regions(index, u.path)
    handler = min((a for a, b in regions[u.path] if u.sig_end_byte <= a < u.end_byte), default=None)
    if handler is None:
        return ""
    src = index.sources[u.path]
    for c in sorted(model.calls.get(u.id, ()), key=lambda c: c.start_byte):
        text = src[c.start_byte : c.end_byte]
        args = text[text.find(b"(") + 1 :].decode("utf-8", "replace") if b"(" in text else ""
        if c.start_byte < handler and all(re.search(r"(?<![\w.])_?" + re.escape(p) + r"\b", args) for p in params) \
                and _held_callable(model, u, c):
            return text[: text.find(b"(")].decode("utf-8", "replace")
    return ""


CAUGHT_ARG = re.compile(rb"[(,]\s*(?:e|err|error|ex|exc|exception|cause)\s*[,)]")  # the caught error handed on
HANDLER_KEEPS = re.compile(rb"\b(\w+)\s*(?:=(?!=)|\.(?:push|append|add)\()")  # `errors = [e]`, `errors.push(e)`
RAISES_NEW = re.compile(rb"\b(?:throw|raise)\s+(?:new\s+)?([A-Z]\w*)\s*\(")  # `throw new Failure(…)`, `raise Failure(…)`


def _error_turn(index, model: Model, u: Unit, regions: dict[str, list[tuple[int, int]]]) -> str:
    """How a unit with an error handler of its own ends the errors it meets ('' when it does not): it hands
    what it catches to an output it was given (`catch (err) { sink.error(err) }`), or it catches and raises an
    error of its own (`throw new CombinedFailure(errors)`)."""
    if u.path not in regions:
        regions[u.path] = _error_regions(index, u.path)
    handlers = [(a, b) for a, b in regions[u.path] if u.sig_end_byte <= a < u.end_byte]
    if not handlers:
        return ""
    params = {p.lstrip("*&") for p in u.param_names} - {"self", "this", ""}
    src = index.sources[u.path]
    for c in model.calls.get(u.id, ()):
        root = c.receiver.split(".")[0] if c.receiver else ""
        if (root in params and any(a <= c.start_byte < b for a, b in handlers)
                and CAUGHT_ARG.search(src, c.start_byte + len(c.receiver) + len(c.name) + 1, c.end_byte)):
            return f"hands the errors it catches to `{c.receiver}.{c.name}`, which its caller gave it"
    kept = {n for a, b in handlers for n in HANDLER_KEEPS.findall(src, a, b)}  # what its handlers collect
    for raised in RAISES_NEW.finditer(src, handlers[0][0], u.end_byte):
        inside = any(a <= raised.start() < b for a, b in handlers)
        close = src.find(b")", raised.end(), u.end_byte)
        named = set(re.findall(rb"\w+", src[raised.end() : close if close >= 0 else u.end_byte]))
        if inside or named & kept:  # `catch (e) { throw new Failure(e) }`, or the caught errors raised together
            return f"catches errors and raises its own (`{raised.group(1).decode()}`)"
    return ""


def _held_callable(model: Model, u: Unit, c) -> bool:
    """The call runs a callable the unit holds, not a method of its own: a field of its object that its
    class does not define (`self.app`, the app a middleware wraps) or a parameter."""
    if not c.receiver:
        return c.name in u.param_names
    if c.receiver not in ("self", "this") or not u.parent:
        return False
    return not any(x.parent == u.parent and x.name == c.name for x in model.units.values())


def _wraps(body: bytes) -> str:
    """The local a unit builds in layers and returns (`app = cls(app, …)` … `return app`), or ''."""
    for hit in WRAPS.finditer(body):
        name = hit.group(1)
        if name in (b"self", b"this", b"err") or len(name) > 40:
            continue
        callee = body[hit.start(): hit.end()].split(b"=", 1)[1].strip().split(b"(")[0].split(b"[")[0]
        if callee.strip().removeprefix(b"await ").strip() in ACCUMULATE:
            continue  # `xs = append(xs, x)`: a collection grows, nothing is wrapped
        if re.search(rb"\breturn\s+&?" + re.escape(name) + rb"\b\s*(?:[;\n,)}]|$)", body):
            return name.decode()
    return ""


RETURNS_LOCAL = re.compile(rb"\breturn\s+(\w+)\s*;?\s*[})]*\s*$")


def _fills(body: bytes) -> str:
    """The local a unit creates, fills (two or more fields set) and returns: a context or a config object."""
    hit = RETURNS_LOCAL.search(body.rstrip())
    if not hit:
        return ""
    name = re.escape(hit.group(1))
    if not re.search(rb"(?:\b(?:const|let|var|val)\s+)?(?<![\w.])" + name + rb"\s*:?=\s*(?:new\b|\{|\[|\w+(?:\.\w+)*\()", body):
        return ""
    sets = re.findall(rb"(?<![\w.])" + name + rb"(?:\.\w+|\[[^\]\n]+\])\s*=(?!=)", body)
    return hit.group(1).decode() if len(sets) >= 2 else ""


def _stores_built(body: bytes, receiver: str, types: set[str], outside: set[str]) -> list[str]:
    """Fields of its own object the unit sets from a construction or a call: at least two stores, or one
    construction of a type of the code base (`new(bytes.Buffer)`, `threading.Lock()`: a tool, not a part).
    A store of what a builtin or an outside module makes (`new(…)`, `bytes.NewBufferString(…)`, `threading.Lock()`;
    `outside`: the file's names for whole outside modules) is a tool too and does not count. *Why:* a lazy
    getter that creates its buffers on first use read as assembly and took its places."""
    pattern = STORES_BUILT
    if receiver and receiver.isidentifier() and receiver not in ("self", "this"):  # Go `c.help = &Command{…}`
        pattern = re.compile(STORES_BUILT.pattern.replace(b"(?:self|this)", b"(?:self|this|" + receiver.encode() + b")"))
    found = pattern.findall(body)
    built = [f for f, amp, rhs in found if (CALLISH.match(rhs) or amp)
             and rhs.rsplit(b".", 1)[-1].decode("utf-8", "replace") in types]
    hits = [(f.decode(), rhs) for f, _, rhs in found if not _tool(rhs, outside)]
    if built or len(hits) >= 2:
        return sorted({f for f, _ in hits})
    return []


def _tool(callee: bytes, outside: set[str]) -> bool:
    """A callee that makes a tool, not a part: a builtin allocator or an outside module's function."""
    return callee in TOOL_MAKERS or callee.split(b".", 1)[0].decode("utf-8", "replace") in outside


def _hands_output(body: bytes, calls, start: int, writes) -> tuple[str, str]:
    """(output, callee) when the unit passes an output (a response, a writer) on as a call argument to
    a writer: a call outside the code base, or a unit that writes (`writes(name)`)."""
    for c in calls:
        if not c.receiver and c.name[:1].isupper() or c.construct:
            continue  # `Ok(resp)`, `new Foo(res)`: a value wrapped, not written
        if not writes(c):
            continue
        a, b = c.start_byte - start, c.end_byte - start
        if a < 0 or b > len(body):
            continue
        text = body[a:b]
        open_at = text.find(b"(")
        if open_at < 0 or c.name in ("len", "isinstance", "print", "println"):
            continue
        hit = OUTPUT_ARG.search(text, open_at + 1)
        if hit:
            return hit.group(0).decode().lstrip("."), c.name
    return "", ""


LOCAL_DEF = re.compile(rb"(?:\b(?:const|let|var|val)\s+)(\w+)\s*(?::[^=\n]*)?=(?!=)")
# A loop variable over a collection (Go `for i, x := range items`, `for x in items:`, `for (const x of items)`):
# each element of what the unit is handed
LOOP_DEF = re.compile(rb"\bfor\s*\(?\s*(?:(?:const|let|var|val)\s+)?(?:\w+\s*,\s*)?(\w+)\s*(?::=\s*range\b|\bin\b|\bof\b)\s*([\w.]+)")


def _statement_end(body: bytes, start: int, limit: int = 2000) -> int:
    """End of the statement that continues at start: the line's end, or past the brackets it opens
    (`this.handlers.push({ fulfilled, rejected })` over several lines)."""
    depth, i, end = 0, start, min(len(body), start + limit)
    while i < end:
        ch = body[i]
        if ch in b"([{":
            depth += 1
        elif ch in b")]}":
            depth -= 1
            if depth < 0:
                return i
        elif ch == 10 and depth == 0:  # newline outside brackets
            return i
        i += 1
    return end


def _registrations(index, model: Model, uids: list[str]) -> dict[str, str]:
    """Units that store a part they were handed into their object's collections (`self.rules[path] = view`,
    `this.middleware.push(fn)`, Go `mx.mws = append(mx.mws, mw)`): where the parts get wired in."""
    out: dict[str, str] = {}
    for uid in uids:
        u = model.units[uid]
        params = [p.lstrip("*&") for p in u.param_names if p not in ("self", "this")]
        if not (u.is_callable and params):
            continue
        handed = set(params)
        body = index.sources[u.path][u.sig_end_byte : u.end_byte]
        # every REGISTER match holds `[` (`x[k] =`) or `append`, `.push`, `.unshift`, `.extend`: most bodies hold none
        maybe = b"[" in body or b"append" in body or b".push" in body or b".unshift" in body or b".extend" in body
        hits = list(REGISTER.finditer(body)) if maybe else []
        if u.receiver and u.receiver.isidentifier() and u.receiver not in ("self", "this"):
            # Go: `n.endpoints[method] = h` on the method's receiver
            # or on an element its collection hands out (`n.endpoints.Value(m).handler = h`)
            hits += list(re.finditer(rb"\b" + re.escape(u.receiver.encode())
                                     + rb"\.\w+\s*(?:\[[^\]\n]*\]|\.\w+\([^()\n]*\)\.\w+)\s*=(?!=)", body))
        if not hits:
            continue
        for local in LOCAL_DEF.finditer(body):  # `const handler = { fulfilled, rejected }`: a part built from them
            name = local.group(1).decode("utf-8", "replace")
            stmt = body[local.end() : _statement_end(body, local.end())]
            if name not in params and any(re.search(rb"(?<![\w.])" + re.escape(p.encode()) + rb"\b", stmt) for p in params):
                params.append(name)
        for loop in LOOP_DEF.finditer(body) if b"for" in body else ():  # `for _, x := range items`: x is handed in
            name, over = loop.group(1).decode("utf-8", "replace"), loop.group(2).decode("utf-8", "replace")
            if name not in params and over in handed:
                params.append(name)
        for hit in hits:
            if hit.re is REGISTER and hit.group(1) and hit.group(1).decode("utf-8", "replace") != u.receiver:
                continue  # `x.f = append(x.f, …)` registers only on the method's own object
            rest = body[hit.start() : _statement_end(body, hit.end())]
            used = [p for p in params if re.search(rb"\b" + re.escape(p.encode()) + rb"\b", rest)]
            if used:
                out[uid] = (f"stores the `{used[0]}` it is handed into its object's state (registration)" if used[0] in handed
                            else f"stores `{used[0]}`, built from what it is handed, into its object's state (registration)")
                break
    return out


def _registrations_memo(index, model: Model, uids: list[str], memo: dict[str, str | None]) -> dict[str, str]:
    """`_registrations` reading each unit's body once per plan (the plan asks for overlapping sets)."""
    todo = [u for u in dict.fromkeys(uids) if u not in memo]
    got = _registrations(index, model, todo)
    for u in todo:
        memo[u] = got.get(u)
    return {u: memo[u] for u in uids if memo[u] is not None}


LOCAL_SET = re.compile(rb"(?<![\w.])(\w+)\s*:?=(?!=)")  # `x = …`, Go `x := …`


def _stands_for(body: bytes, params: list[str]) -> dict[str, set[str]]:
    """Each parameter, and each local set from an expression naming parameters (`mountHandler :=
    HandlerFunc(func(…) { handler.ServeHTTP(…) })`), → the parameters it carries."""
    names = {p: {p} for p in params}
    for hit in LOCAL_SET.finditer(body):
        name = hit.group(1).decode("utf-8", "replace")
        if name in names:
            continue
        stmt = body[hit.end() : _statement_end(body, hit.end())]
        got = {p for p in params if re.search(rb"(?<![\w.])" + re.escape(p.encode()) + rb"\b", stmt)}
        if got:
            names[name] = got
    return names


def forwarded_registration(index, model: Model, uid: str, memo: dict[str, str | None], out: dict[str, set[str]],
                           depth_left: int = 3) -> str:
    """The registration a unit hands all it is handed on to (`out`: the selection graph), a few calls deep
    (`Mount(pattern, h)` → `mx.handle(…, pattern+"*", mounted)` → `tree.InsertRoute(…)` → `n.endpoints[m] = h`);
    '' when none. Such a unit wires a part in, though the store is written elsewhere. All of it: a step that
    hands one of its values to a store on the way (`session.remember(path, result)`) does more than wire."""
    u = model.units[uid]
    params = [p.lstrip("*&") for p in u.param_names if p not in ("self", "this", "cls")]
    if not params or depth_left == 0:
        return ""
    src = index.sources[u.path]
    carried = _stands_for(src[u.sig_end_byte : u.end_byte], params)
    words = re.compile(rb"(?<![\w.])(" + b"|".join(re.escape(n.encode()) for n in carried) + rb")\b")
    handed: dict[str, set[str]] = {}  # one known target → the parameters its calls carry
    for c in model.calls.get(uid, ()):
        named = [d for d in out.get(uid, ()) if model.units[d].name == c.name and model.units[d].is_callable]
        if len(named) != 1 or named[0] == uid:  # one known target: a guessed fan-out (`cmd.run(…)`) proves nothing
            continue
        text = src[c.start_byte : c.end_byte]
        args = text[text.find(c.name.encode()) + len(c.name) :]
        for w in words.findall(args):
            handed.setdefault(named[0], set()).update(carried[w.decode("utf-8", "replace")])
    for d in sorted(handed, key=model.order.__getitem__):
        if len(handed[d]) < len(params):
            continue
        if _registrations_memo(index, model, [d], memo) or forwarded_registration(index, model, d, memo, out, depth_left - 1):
            return d
    return ""


def body_role(index, model: Model, uid: str, out: dict[str, set[str]] | None = None) -> str:
    """Why a unit is assembly, read from its body alone ('' when it is not): it registers a part it is
    handed, composes a value in layers, builds parts and stores them on its object, or creates, fills
    and returns an object. For units outside the flow plan (the one-hop context)."""
    u = model.units.get(uid)
    if u is None or not u.is_callable:
        return ""
    if u.kind == "constructor" or u.name in ("__init__", "constructor"):
        return ""  # the classifier's own reason for a constructor stands
    wired = _registrations(index, model, [uid])
    if uid in wired:
        return wired[uid]
    into = forwarded_registration(index, model, uid, {}, model.out if out is None else out)
    if into:
        return f"hands a part it is handed on to `{model.units[into].qualname}`, which registers it"
    body = index.sources[u.path][u.sig_end_byte : u.end_byte]
    wraps = _wraps(body)
    if wraps:
        return f"composes `{wraps}` in layers and hands it back"
    stores = _stores_built(body, u.receiver, model.type_names(), _module_names(index.files[u.path].imports))
    if stores:
        return "builds parts and stores them on its object: " + ", ".join(f"`{f}`" for f in stores[:3])
    made = _fills(body)
    if made:
        return f"creates `{made}`, sets its parts and hands it back"
    return ""


def return_type(signature: bytes, name: str, language: str) -> str:
    """The type name a callable's signature says it returns ('' when none or not written): the spec's
    `signature_return`, or the type just before the name (`return_type_before_name`)."""
    spec = BY_NAME.get(language)
    if spec is not None and spec.return_type_before_name:
        hit = re.search(rb"\b([A-Za-z_]\w*)(?:<[^>]*>)?(?:\[\])?\s+" + re.escape(name.encode()) + rb"\s*\(", signature)
    else:
        pattern = spec.signature_return if spec is not None else None
        hit = pattern.search(signature) if pattern else None
    return hit.group(1).decode("utf-8", "replace").rsplit(".", 1)[-1] if hit else ""


def _takes_output(u: Unit) -> bool:
    """A parameter typed or named as an output (a writer, a stream, a response)."""
    typed = zip(u.param_names, tuple(u.param_types) + ("",) * len(u.param_names))
    return any(output_like(t, True) if t else output_like(p.lstrip("*&")) for p, t in typed if p not in ("self", "this"))


def _public(index, model: Model, u: Unit) -> bool:
    lang = index.files[u.path].language
    if not is_public(u, lang, index.sources[u.path]):
        return False
    parent = model.units.get(u.parent) if u.parent else None
    spec = BY_NAME.get(lang)
    if spec is not None and u.kind == "function" and (parent is None or parent.kind == "statement"):
        exported = _exported(spec.exported_names, index.sources[u.path])  # a module's function: public if exported
        if exported is not None and u.name not in exported:
            return False
    if parent is not None and parent.is_type and spec is not None and spec.public_through_type:
        return is_public(parent, lang, index.sources[u.path])
    return True


@lru_cache(maxsize=4096)
def _exported(names_of, source: bytes) -> "frozenset[str] | None":
    """The names a module file exports (read once per file content)."""
    return names_of(source)


def plan(index, model: Model, roles, sink_tier, assembly_units: set[str]) -> tuple[Plan, Flow]:
    """The overview plan: entries, then per entry the trunk of its flow, assembly, sinks, boundaries."""
    return _Planner(index, model, roles, sink_tier, assembly_units).run()


class _Planner:
    """The state the overview plan is built in, one stage after another (see `run`). Each stage sets
    what the later ones read: the entry stages `cands`, `kind_of`, `ranked`, `entries`, `chosen`;
    `trunks` the `depth` of each unit and what is `flowing`; `take_core` the `core` and `spare_core`;
    `boundaries` the `err_callees`; `sinks` the `sink_units`; `assembly` the `asm` table; every
    pick goes to `p.picks` (and its other roles to `p.qualities`)."""

    def __init__(self, index, model: Model, roles, sink_tier, assembly_units: set[str]):
        self.index, self.m, self.roles, self.assembly_units = index, model, roles, assembly_units
        self.sink_tier = dict(sink_tier)  # sinks found on the flow are added to a copy
        self.flow = Flow(index, model)
        self.p = Plan()
        self.p.likely = len(self.flow.likely)
        self.p.down = self.flow.down
        self.p.out = self.flow.out
        self.stable = model.stable
        self.arch = self.flow.arch
        self.reg_memo: dict[str, str | None] = {}
        self.handing: dict[str, bool] = {}
        self.total = TOTAL  # the plan's places (`whole_types` lowers it to what the picks held before)
        self.left = 0  # places held by the extra role labels of types shown whole
        self.wholes: set[str] = set()

    def run(self) -> tuple[Plan, Flow]:
        """The stages in reading order: what enters, what the flow runs through, what builds and feeds it,
        where it writes and fails; then the slots left free, and the roles each pick qualifies for."""
        self.entry_candidates()
        self.entry_ranking()
        self.choose_entries()
        self.outer_doors()
        self.trunks()
        self.take_core()
        self.boundaries()
        self.sinks()
        self.assembly()
        self.place_picks()
        self.fill()
        self.closures_to_outer()
        self.error_writers_to_boundaries()
        self.whole_types()
        self.all_qualities()
        return self.p, self.flow

    # ---- entries ---------------------------------------------------------------------------
    def entry_candidates(self) -> None:
        """Every unit that could be an entry, with its kind: a host interface's implementation (`host`), a
        declared entry such as a main guard (`declared`), or a public unit that sets much in motion (`surface`)."""
        m, flow, roles = self.m, self.flow, self.roles
        self.implements = implements = _implementations(self.index, m, self.arch, flow.ordered)
        self.cands = cands = {}  # uid -> (tier, why)
        self.kind_of = kind_of = {}  # host|declared|surface
        for uid in flow.ordered:
            u = m.units[uid]
            ctor = u.kind == "constructor" or u.name in ("__init__", "constructor")
            implemented = implements.get(uid, ("", False))
            host = "" if ctor else flow.host_kind.get(uid, "") or implemented[0] * implemented[1]
            if host:
                cands[uid], kind_of[uid] = (1, f"implements the host interface: {host}"), "host"
                continue
            mine = roles.get(uid, {}).get("TRIGGER_ENTRY")
            own_entry = mine and (mine[0] == 1 or u.stmt_kind == "main_guard" or (u.name == "main" and not u.decorators))
            if own_entry and not (u.kind == "statement" and u.stmt_kind == "wiring" and not flow.out.get(uid)):
                cands[uid], kind_of[uid] = (mine[0], mine[1]), "declared"
                continue
            nested = bool(u.parent and m.units[u.parent].is_callable)  # a closure is part of its function's surface
            if (u.is_callable and not nested and flow.down.get(uid, 0) >= 2
                    and not (u.kind == "constructor" or u.name in ("__init__", "constructor"))):
                if uid in implements:
                    cands[uid], kind_of[uid] = (3, f"implements `{implements[uid][0]}`, part of the public interface"), "surface"
                elif _public(self.index, m, u):
                    cands[uid], kind_of[uid] = (3, f"public; {flow.up[uid]} units lead into it, {flow.down[uid]} lie downstream"), "surface"
            if uid not in cands and mine and flow.out.get(uid):  # registrations: a signal, not proof
                cands[uid], kind_of[uid] = (3, mine[1]), "surface"

    def entry_ranking(self) -> None:
        """What `rank` weighs: how much each host type and each public surface sets in motion."""
        m, flow, cands, kind_of = self.m, self.flow, self.cands, self.kind_of
        self.type_reach = _type_reach(m, flow, {_owner_type(m, x) for x in cands if kind_of[x] in ("host", "surface")} - {""})
        self.surface_reach = {x: flow.down.get(x, 0) * (1 + flow.up.get(x, 0) / (flow.up.get(x, 0) + 8))
                              for x in cands if kind_of[x] == "surface"}
        self.best_of_type: dict[str, float] = {}
        for x, r in self.surface_reach.items():
            owner = _owner_type(m, x)
            if owner:
                self.best_of_type[owner] = max(self.best_of_type.get(owner, 0), r)
        self.best_surface = max(self.surface_reach.values(), default=0)
        self.ranked = sorted(cands, key=lambda x: (cands[x][0], self.rank(x), self.stable(x)))

    def rank(self, x: str) -> tuple:
        """An entry candidate's place within its tier: the most set in motion first."""
        m, flow = self.m, self.flow
        if self.kind_of[x] == "host":  # the application object: the one that sets the most in motion
            owner = _owner_type(m, x)
            return (-self.type_reach.get(owner, flow.down.get(x, 0)), -flow.down.get(x, 0))
        if self.kind_of[x] == "surface":  # the main methods of the object that sets the most in motion; then reach
            own_reach = self.surface_reach[x]
            owner = _owner_type(m, x)
            lifted = owner and own_reach * 4 >= self.best_of_type.get(owner, 0) and own_reach * 10 >= self.best_surface
            return (-max(self.type_reach.get(owner, 0) if lifted else 0, own_reach), -own_reach)
        return (0, -self.flow.down.get(x, 0))

    def choose_entries(self) -> None:
        """The entries, best first: each must set in motion mostly what the ones before it do not; public
        surfaces stop counting once the application shows entries of its own."""
        flow, cands, kind_of, p = self.flow, self.cands, self.kind_of, self.p
        self.entries = entries = []
        self.extra = extra = set()  # shown, not counted
        covered = 0
        hosts = 0
        first_host = mounted = 0
        first_kind = ""
        own = sum(1 for x in cands if kind_of[x] == "declared" and cands[x][0] <= 2)
        for uid in self.ranked:
            mine = flow.down_bits.get(uid, 0) | (1 << flow.bit[uid])
            if kind_of[uid] == "declared" and self.only_calls_chosen(uid, covered):  # shown, not counted
                if not self.guard_shown(uid, entries, extra):
                    entries.append(uid)
                    extra.add(uid)
                    p.picks.append((uid, "entry", cands[uid][1], 0))
                continue
            if len(entries) - sum(1 for e in entries if e in extra) >= CAPS["entry"]:
                break
            if kind_of[uid] == "surface" and own + hosts + mounted >= 2:
                break  # an application with its own entries: public surfaces are not further entries
            if kind_of[uid] == "surface" and entries and flow.down.get(uid, 0) * 4 < max(flow.down.get(e, 0) for e in entries):
                continue  # a public helper that sets in motion under a quarter of what a chosen entry does: not a further entry
            if kind_of[uid] == "surface" and entries and self.writes_out(uid):
                continue  # a public writer (`GenCompletionFile(path)`, `GenCompletion(w)`): where results leave
            if kind_of[uid] == "host" and hosts >= 2 and own + hosts >= 2:
                continue
            if kind_of[uid] == "host" and hosts and -self.rank(uid)[0] * 2 < first_host and cands[uid][1] == first_kind:
                mounted += 1  # a host object that sets in motion less than half of what the first one does: a part
                continue  # it mounts, not a second entry (it still shows the code base is built around the host);
                # one of another contract (a client's `Service::call` beside a server's `Future::poll`) is no such part
            if kind_of[uid] == "host" and not hosts:
                first_host, first_kind = -self.rank(uid)[0], cands[uid][1]
            if kind_of[uid] != "declared":
                if covered >> flow.bit[uid] & 1 and kind_of[uid] == "surface":
                    continue  # reached from a chosen entry: part of its flow, not a second entry
                if mine & ~covered == 0 or (mine & covered).bit_count() * 5 > mine.bit_count() * 4:
                    inner = self.inner_entry(uid)
                    if inner is not None:  # the candidate leads into a chosen free function: callers enter here
                        entries[entries.index(inner)] = uid
                        p.picks = [(uid, k, cands[uid][1], d) if u == inner else (u, k, w, d) for u, k, w, d in p.picks]
                        covered |= mine
                    continue
            hosts += kind_of[uid] == "host"
            entries.append(uid)
            covered |= mine
            p.picks.append((uid, "entry", cands[uid][1], 0))

    def only_calls_chosen(self, uid: str, covered: int) -> bool:
        """A declared entry (a main guard) whose flow lies in chosen entries' flows (80 % or more, as for any
        candidate): it calls a chosen entry, and perhaps a cleanup beside it. Its own bit is left out: nothing
        calls a guard, so no chosen flow covers it."""
        down = self.flow.down_bits.get(uid, 0)
        return down != 0 and (down & covered).bit_count() * 5 > down.bit_count() * 4

    def guard_shown(self, uid: str, entries: list[str], extra: set[str]) -> bool:
        """A main guard already shown calls the entries this one calls (`__main__.py` beside the module's own
        guard): it stands for this one, a duplicate would take a unit's place."""
        out = self.flow.out
        calls = set(out.get(uid, ())) & set(entries)
        return bool(calls) and any(calls <= set(out.get(x, ())) for x in extra)

    def inner_entry(self, uid: str) -> str | None:
        """A chosen public-surface entry that the public method `uid` leads into (through private steps: no other
        public surface leads into it) and that is a free function, not an interface's implementation: a step
        of `uid`'s flow, which sets in motion at least as much. The units leading into it lifted it above `uid`.
        (A free function leading into it is a door, `outer_doors`; a method there is taken for a client.)"""
        m, flow = self.m, self.flow
        if self.kind_of[uid] != "surface" or not _owner_type(m, uid):  # a free function leading in is a door (below)
            return None
        for e in self.entries:
            if (e not in self.extra and self.kind_of[e] == "surface" and e not in self.implements
                    and not _owner_type(m, e) and flow.down_bits.get(uid, 0) >> flow.bit[e] & 1
                    and flow.down.get(uid, 0) >= flow.down.get(e, 0)
                    and not any(x != uid and self.kind_of.get(x) == "surface" for x in flow.up_members(e))):
                return e
        return None

    def writes_out(self, uid: str) -> bool:
        """It writes results out: to an output it is handed (`w io.Writer`) or through an imported I/O module."""
        return _takes_output(self.m.units[uid]) or self.sink_tier.get(uid, (9,))[0] == 1

    def outer_doors(self) -> None:
        """The outermost door: a public surface that nothing calls and that leads into a chosen surface
        (and everything it reaches) is where callers enter; the inner one is part of its flow, unless
        it implements a public interface (callers holding the interface enter there): then both are entries."""
        m, flow, kind_of, entries, p = self.m, self.flow, self.kind_of, self.entries, self.p
        doors: list[tuple[str, str, str]] = []
        for i, e in enumerate(entries):
            if kind_of[e] != "surface" or e in self.extra:
                continue
            e_bits = flow.down_bits.get(e, 0)
            outer = [x for x in flow.callers.get(e, ()) if kind_of.get(x) == "surface" and x not in entries
                     and _owner_type(m, x) in ("", _owner_type(m, e))  # another type's method is a client, not a door
                     and not self.writes_out(x)  # nor is a writer that uses it
                     and all(kind_of.get(c) == "surface" for c in flow.callers.get(x, ()))
                     and flow.down_bits.get(x, 0) & e_bits == e_bits]
            if outer:  # the nearest door: the least set in motion besides the inner entry's flow
                x = min(outer, key=lambda x: (flow.down.get(x, 0), m.cost(x), self.stable(x)))
                why = f"public door into `{m.units[e].qualname}`: only other public methods call it"
                if e in self.implements and len(entries) + len(doors) - len(self.extra) < CAPS["entry"]:
                    doors.append((e, x, why))  # an interface's implementation is entered through the interface too
                    continue
                entries[i] = x
                p.picks = [(x, k, why, d) if u == e else (u, k, w, d) for u, k, w, d in p.picks]
        for e, x, why in doors:  # the door goes just before the entry it leads into
            entries.insert(entries.index(e), x)
            at = next(j for j, pick in enumerate(p.picks) if pick[0] == e)
            p.picks.insert(at, (x, "entry", why, 0))
        self.chosen = set(entries)

    # ---- the trunk of each entry's flow ---------------------------------------------------
    def trunks(self) -> None:
        """Per entry, two orderings of its flow's callables (what sets the most in motion, and where the
        flow converges), weighted by what the entry sets in motion; and each unit's depth from the entries."""
        m, flow, stable = self.m, self.flow, self.stable
        self.depth = depth = {}
        self.per_entry = per_entry = []
        self.weights = weights = []  # an entry's share of the trunk follows what it sets in motion
        self.ctor_trunk: set[str] = set()
        hidden = self.hidden_steps()
        for e in self.entries:
            d = flow.depths(e)
            for src, k in list(d.items()):  # breadth-first order: the nearest construction gives the depth
                for o in hidden.get(src, ()):
                    if o not in d and o not in self.chosen:
                        d[o] = k + 1
            for uid, k in d.items():
                if uid not in depth or k < depth[uid]:
                    depth[uid] = k
            trunk = [u for u in d if u not in self.chosen and m.units[u].is_callable and flow.down.get(u, 0) >= 1]
            reach = flow.down_bits.get(e, 0) | (1 << flow.bit[e])
            # two views of the trunk, taking turns: what sets the most in motion, and where this
            # entry's flow converges (paths through u: units of the flow leading into it × downstream)
            through = {u: min(flow.down[u], 400) * (1 + (flow.up_bits[u] & reach).bit_count()) for u in trunk}
            converging = sorted(trunk, key=lambda u: (-through[u], d[u], stable(u)))
            trunk.sort(key=lambda u: (-min(flow.down[u], 400), d[u], stable(u)))
            # a constructor is assembly, never a core turn; one that would rank in the core marks its type
            # as one the flow runs through (assembly builds it)
            ctors = flow.ctor_units | flow.convention_ctors  # `fn new(…) -> Self` too: a task built on the way
            self.ctor_trunk.update(u for u in converging[: CAPS["core"]] if u in ctors)
            trunk, converging = ([u for u in x if u not in ctors] for x in (trunk, converging))
            per_entry += [trunk, converging]
            weights += [max(1, flow.down.get(e, 0))] * 2
        self.flowing = set(depth)
        self._imported: dict[str, int] | None = None  # type name → files importing it (best_known)
        self.families_taken = {k for k in map(self.sibling_key, self.entries) if k}

    def hidden_steps(self) -> dict[str, list[str]]:
        """Unit → the hidden steps of the objects it builds: methods that are not public (by the language's
        convention; a protocol method such as `__call__` is the language's to call) and that nothing in scope calls,
        not even by a likely edge, of a type the unit constructs or of a base of it. Only the code base can call
        such a method, and it does, through what the graph cannot follow (an abstract method's caller holding a
        value returned by a factory, an element of an array of handlers): the flow that builds the object goes on
        there (policy `hidden-steps`). *Why:* a client library's service method was built on the flow, but the
        `invoke` every proxied call runs was reached by no edge and never ranked."""
        m, flow = self.m, self.flow
        hidden: dict[str, list[str]] = {}
        for u in flow.ordered:
            x = m.units[u]
            if (x.is_callable and x.parent and m.units[x.parent].is_type and not flow.callers.get(u)
                    and flow.down.get(u, 0) >= 1 and not (x.kind == "constructor" or x.name in ("__init__", "constructor"))
                    and not (x.name.startswith("__") and x.name.endswith("__")) and not _public(self.index, m, x)):
                hidden.setdefault(x.parent, []).append(u)
        if not hidden:
            return {}
        related: dict[str, list[str]] = {}  # a built type → the hidden steps of it and of its bases

        def of_type(t: str) -> list[str]:
            got = related.get(t)
            if got is None:
                got = related[t] = [o for b in [t] + sorted(flow._ancestors(t), key=m.order.__getitem__)
                                    for o in hidden.get(b, ())]
            return got

        out: dict[str, list[str]] = {}
        for src, dst in sorted(flow.constructs, key=lambda e: (m.order[e[0]], m.order[e[1]])):
            t = dst if m.units[dst].is_type else m.units[dst].parent
            if t and of_type(t):
                out.setdefault(src, []).extend(o for o in of_type(t) if o not in out.get(src, ()))
        return out

    def query_helper(self, u: str) -> bool:
        """A query that sets little in motion (`isThenable`, `hasBody`, `get_value`): it answers a question. Called
        in an error handler it tests the error, it does not handle it; called by the core it is a helper, not a
        step the core hands its work to. (A query that drives much, a `getAdapter` dispatching, is a step.)"""
        return bool(QUERY_CALL.search(self.m.units[u].name)) and self.flow.down.get(u, 0) < QUERY_REACH

    def sibling_key(self, u: str) -> tuple | None:
        """One member of a family of overrides stands for the family (`run` of six commands, the
        constructors of five response types): siblings are interchangeable for a reader."""
        m = self.m
        fam = self.flow.family_of.get(u)
        if fam and fam != m.units[m.units[u].parent].name:
            return (fam, m.units[u].name)
        out = self.flow.out.get(u, ())
        if 0 < len(out) <= 2 and m.units[u].parent:  # look-alikes: methods of one type that only call the same units
            return ("same-callees", m.units[u].parent, tuple(sorted(out)))
        return None

    def one_per_family(self, units: list[str]) -> list[str]:
        """The units in order, leaving out a sibling of a family member already taken."""
        kept = []
        for u in units:
            k = self.sibling_key(u)
            if k and k in self.families_taken:
                continue
            if k:
                self.families_taken.add(k)
            kept.append(u)
        return kept

    def take_core(self) -> None:
        """The core: the entries' trunk lists take smooth weighted turns, one unit per family; beyond the
        core's share, the rest (`spare_core`) fills slots the other stages leave."""
        per_entry, weights = self.per_entry, self.weights
        core: list[str] = []
        i = 0
        credit = [0] * len(per_entry)
        while len(core) < TOTAL and any(per_entry):  # more than the core's share: the rest fills slots others leave
            # smooth weighted turns: every list gains its weight, the richest (then the first) takes a turn
            live = [j for j, lst in enumerate(per_entry) if lst]
            for j in live:
                credit[j] += weights[j]
            turn = max(live, key=lambda j: (credit[j], -j))
            credit[turn] -= sum(weights[j] for j in live)
            lst = per_entry[turn]
            while lst:
                u = lst.pop(0)
                k = self.sibling_key(u)
                if u not in core and not (k and k in self.families_taken):
                    u = self.best_known(u, k, lst) if k and k[0] != "same-callees" else u
                    core.append(u)
                    if k:
                        self.families_taken.add(k)
                    break
            i += 1
            if i > 10_000:
                break
        self.core = core[: CAPS["core"]]
        below = self.below_core()  # the steps the core hands its work to, before more of the turns
        self.spare_core = below + [u for u in core[CAPS["core"] :] if u not in below]

    def below_core(self) -> list[str]:
        """The flow's units that the core calls directly, most core callers first (queries that set little in
        motion after all the others), then nearest the entries, then by reach; one per family (without claiming
        the family for the later stages). Leaves and constructors never, as in the trunk."""
        m, flow, core = self.m, self.flow, set(self.core)
        count: dict[str, float] = {}
        for c in self.core:
            named: dict[str, int] = {}  # a call that may reach any of n same-named units counts 1/n for each
            for d in flow.out.get(c, ()):
                named[m.units[d].name] = named.get(m.units[d].name, 0) + 1
            sites: dict[str, int] = {}
            for call in m.calls.get(c, ()):
                sites[call.name] = sites.get(call.name, 0) + 1
            for d in flow.out.get(c, ()):
                if (d not in core and d not in self.chosen and d in self.flowing and m.units[d].is_callable
                        and d not in flow.ctor_units and d not in flow.convention_ctors and flow.down.get(d, 0) >= 1):
                    name = m.units[d].name
                    count[d] = count.get(d, 0) + min(1, max(1, sites.get(name, 0)) / named[name])
        ordered = sorted(count, key=lambda d: (self.query_helper(d), -count[d], self.depth.get(d, 99),
                                               -flow.down.get(d, 0), self.stable(d)))
        kept, keys = [], set(self.families_taken)
        for d in ordered:
            k = self.sibling_key(d)
            if k is None or k not in keys:
                keys.add(k)
                kept.append(d)
        return kept

    def best_known(self, u: str, key: tuple, rest: list[str]) -> str:
        """The member of an override family that stands for it: the one whose type the most other files of
        the code base import (the rule everyone writes, not a rarer variant); among equals, the one whose type the
        family's base names (`Route` beside `BaseRoute`, `Handler` beside `AbstractHandler`: the implementation the
        base was written for, not a variant that sets more in motion); else the first by reach."""
        m = self.m
        members = [u] + [x for x in rest if x != u and self.sibling_key(x) == key]
        if len(members) == 1:
            return u
        if self._imported is None:
            self._imported = self.files_importing()

        def known(x: str) -> int:
            parent = m.units[x].parent
            return self._imported.get(m.units[parent].name, 0) if parent else 0

        root = key[0]
        plain = {root[len(w):] for w in ("Base", "Abstract") if root.startswith(w) and root[len(w):][:1].isupper()}
        plain |= {root[: -len(w)] for w in ("Base",) if root.endswith(w) and len(root) > len(w)}

        def named_plainly(x: str) -> bool:  # `Route` beside its base `BaseRoute`: the implementation the base names
            parent = m.units[x].parent
            return bool(parent) and m.units[parent].name in plain

        return max(members, key=lambda x: (known(x), named_plainly(x), -members.index(x)))

    def files_importing(self) -> dict[str, int]:
        """Type name → how many other files of the code base import it by name (package index files aside):
        the type a reader meets most. Imports only: a file's calls are decoded on demand, and that costs."""
        home: dict[str, set[str]] = {}  # type name → the files defining it (they do not count)
        for t in self.flow._methods_of:
            home.setdefault(self.m.units[t].name, set()).add(self.m.units[t].path)
        count: dict[str, int] = {}
        for path in sorted({self.m.units[x].path for x in self.flow.arch}):
            if path.rsplit("/", 1)[-1].startswith(("__init__.", "index.", "mod.", "lib.")):
                continue
            imported = {x for imp in self.index.files[path].imports for x in (imp.name, imp.alias) if x}
            for name in home.keys() & imported:
                if path not in home[name]:
                    count[name] = count.get(name, 0) + 1
        return count

    # ---- boundaries: what the flow calls from its error handlers --------------------------
    def boundaries(self) -> None:
        """The units the entries and the core call from inside their error handlers."""
        m, flow = self.m, self.flow
        self.regions = regions = {}  # path -> error-handler byte ranges
        self.err_callees = err_callees = {}
        for s in self.entries + self.core:
            u = m.units[s]
            calls = m.calls.get(s, ())
            if not calls:
                continue
            if u.path not in regions:
                regions[u.path] = _error_regions(self.index, u.path)
            reg = regions[u.path]
            if not reg:
                continue
            in_err = {c.name for c in calls if any(a <= c.start_byte < b for a, b in reg)}
            for d in sorted(flow.out.get(s, ()), key=m.order.__getitem__):
                if (m.units[d].name in in_err and d not in err_callees and flow.down.get(d, 0) >= 1
                        and not self.query_helper(d)):  # `isThenable(err)` in a handler tests the error
                    err_callees[d] = f"called from an error handler in `{u.qualname}`"
        # where the handlers' errors end: follow the error a handler's callee hands on (`relay(err)` → `report(err)`:
        # callees that take an error) to the units that hand it to no further one
        handed_on: set[str] = set()
        frontier, seen = list(err_callees), set(err_callees)
        for _ in range(3):
            nxt = []
            for s in frontier:
                for d in sorted(flow.out.get(s, ()), key=m.order.__getitem__):
                    du = m.units[d]
                    if not (du.is_callable and _error_param(du, True)):
                        continue
                    handed_on.add(s)  # it hands the error on (`wrap_failure(kind, error)`): not where it ends
                    if (d not in seen and d in self.flowing and flow.down.get(d, 0) >= 1
                            and du.kind != "constructor" and du.name not in ("__init__", "constructor")):
                        seen.add(d)
                        nxt.append(d)
            frontier = nxt
        ends = [d for d in seen - set(err_callees) - handed_on - set(self.core) if not self.query_helper(d)]
        for d in sorted(ends, key=lambda d: (self.depth.get(d, 99), self.stable(d))):  # nearest the entries first
            err_callees[d] = f"where the errors a handler hands on end: it takes `{_error_param(m.units[d], True)}` and hands it to no further handler"
        # a unit of the flow that ends the process (prints and exits) is where its errors end, though no error
        # handler calls it (`check(t.usage())`): after the handlers' callees, nearest the entries first
        src = self.index.sources
        exits = sorted((d for d in self.flowing if d not in err_callees and d not in self.core and m.units[d].is_callable
                        and EXITS.search(src[m.units[d].path], m.units[d].sig_end_byte, m.units[d].end_byte)),
                       key=lambda d: (self.depth.get(d, 99), self.stable(d)))
        for d in exits:
            err_callees[d] = "ends the process on failure (`" + EXITS.search(
                src[m.units[d].path], m.units[d].sig_end_byte, m.units[d].end_byte).group().decode() + "`)"
        self.boundary_all = [u for u in err_callees if u not in self.chosen]
        self.boundary = self.boundary_all[: CAPS["boundary"]]

    def hands_out(self, uid: str, depth_left: int = 3) -> bool:
        """The unit writes: an output sink, or it hands an output on to one (a few calls deep)."""
        m, handing = self.m, self.handing
        if self.sink_tier.get(uid, (9,))[0] == 1:
            return True
        if uid in handing or depth_left == 0:
            return handing.get(uid, False)
        handing[uid] = False  # cycles: not a writer unless proven otherwise
        u = m.units[uid]
        if not u.is_callable:
            return False
        callees = {m.units[d].name for d in self.flow.out.get(uid, ())}
        if len(callees) > FEW_CALLEES:
            return False  # it sets much in motion: the flow, not a writer
        body = self.index.sources[u.path][u.sig_end_byte : u.end_byte]
        handing[uid] = bool(_hands_output(body, m.calls.get(uid, ()), u.sig_end_byte,
                                          lambda c: self.writer(uid, c, depth_left - 1))[0])
        return handing[uid]

    def writer(self, uid: str, call, depth_left: int = 3) -> bool:
        """The call goes to a writer: an output call (`write`, `send`) or a method of an outside package's
        object (`fmt.Fprintf`, `t.Execute(w, …)` with `t := template.New(…)`) that nothing in scope
        answers, or a unit that writes."""
        m = self.m
        targets = [d for d in self.flow.out.get(uid, ()) if m.units[d].name == call.name]
        if targets:
            return all(self.hands_out(d, depth_left) for d in targets)
        u = m.units[uid]
        mods = self.flow.modules(u.path)
        root = call.receiver.split(".")[0].split("::")[0]
        foreign = {c.assigned_to for c in m.calls.get(uid, ()) if c.assigned_to and c.receiver in mods}
        return call.name in OUTPUT_NAMES or (bool(root) and (root in mods or root in foreign))

    # ---- sinks: output and persistence on the flow -----------------------------------------
    def sinks(self) -> None:
        """The flow's output and persistence, nearest first, one per family; a leaf that hands the output it
        is given (`w io.Writer`) to an outside writer (`t.Execute(w, …)`) counts as one."""
        m, flow, sink_tier = self.m, self.flow, self.sink_tier
        for uid in flow.ordered:
            u = m.units[uid]
            if uid not in self.flowing or uid in sink_tier or not u.is_callable or flow.out.get(uid) or not m.calls.get(uid):
                continue
            typed = dict(zip(u.param_names, tuple(u.param_types) + ("",) * len(u.param_names)))
            if not any(output_like(t, True) if t else output_like(p.lstrip("*&")) for p, t in typed.items() if p not in ("self", "this")):
                continue
            handed, to = _hands_output(self.index.sources[u.path][u.sig_end_byte : u.end_byte], m.calls[uid], u.sig_end_byte,
                                       lambda c, uid=uid: self.writer(uid, c))
            if handed:
                sink_tier[uid] = (1, f"hands its output `{handed}` to `{to}`, which writes it out")
        sinks_all = sorted((u for u in self.flowing if sink_tier.get(u) and u not in self.chosen),
                           key=lambda u: (sink_tier[u][0], self.depth[u], self.stable(u)))
        self.sinks_all = self.one_per_family(sinks_all)
        self.sink_units = self.sinks_all[: CAPS["sink"]]

    # ---- assembly: constructors and factories of what the flow runs through ------------------
    def assembly(self) -> None:
        """What builds and wires the flow's objects, by tier: constructors of the types the flow runs through
        (0), units that construct them or fill and hand back an object (1), registrations (2), declared init (3)."""
        m = self.m
        self.asm = {}  # uid -> (tier, -weight, why)
        owners: dict[str, int] = {}
        for s in self.entries + self.core + self.sink_units:
            parent = m.units[s].parent
            if parent:
                owners[parent] = owners.get(parent, 0) + 1
        for s in sorted(self.ctor_trunk, key=m.order.__getitem__):  # a type the flow builds on its way
            owners[m.units[s].parent] = owners.get(m.units[s].parent, 0) + 1
        # a type's blocks in one file are one type: the flow runs through `impl Server`, `Server { … }` builds it
        for o, n in sorted(owners.items(), key=lambda x: m.order[x[0]]):
            for t in sorted(self.flow._blocks.get((m.units[o].path, m.units[o].name), ()), key=m.order.__getitem__):
                owners.setdefault(t, n)
        self.constructors(owners)
        self.constructing(owners)
        self.patching(owners)
        self.registrations()
        # a type is built before the flow enters it: its constructor sits at the depth of its nearest method
        built_at: dict[str, int] = {}
        for s in self.entries + self.core + self.sink_units:
            parent = m.units[s].parent
            if parent and parent in self.flow.ctor_of:
                built_at[parent] = min(built_at.get(parent, 99), self.depth.get(s, 99))
        at = {self.flow.ctor_of[t]: k for t, k in built_at.items()}
        assembly = sorted((u for u in self.asm if u not in self.chosen),
                          key=lambda u: (self.asm[u][0], min(self.depth.get(u, 99), at.get(u, 99)), self.asm[u][1],
                                         self.stable(u)))
        self.assembly_all, self.assembly_units_picked = assembly, assembly[: CAPS["assembly"]]

    def constructors(self, owners: dict[str, int]) -> None:
        """Tier 0: the constructors of the types whose methods the flow runs through. A class expression
        (`module.exports = class … {}`) leaves its methods without a parent: a file whose parentless
        methods include exactly one constructor, that constructor is theirs."""
        m, flow, asm = self.m, self.flow, self.asm
        picked = self.entries + self.core + self.sink_units
        orphan_ctor: dict[str, str] = {}
        for s in picked:
            u = m.units[s]
            if u.parent or u.kind != "method" or u.path in orphan_ctor:
                continue
            ctors = [x for x in flow.ordered if m.units[x].path == u.path and not m.units[x].parent
                     and m.units[x].kind in ("method", "constructor") and m.units[x].name in ("constructor", "__init__")]
            orphan_ctor[u.path] = ctors[0] if len(ctors) == 1 else ""
        for path, ctor in sorted(orphan_ctor.items()):
            if ctor:
                n = sum(1 for s in picked if m.units[s].path == path and not m.units[s].parent)
                asm[ctor] = (0, -n, f"constructor of the class whose methods the flow runs through ({n} of them)")
        for parent, n in owners.items():
            ctor = flow.ctor_of.get(parent)
            if ctor and ctor in self.arch:
                asm[ctor] = (0, -n, f"constructor of `{m.units[parent].qualname}`, which the flow runs through")

    def constructing(self, owners: dict[str, int]) -> None:
        """Tier 1: units that construct the flow's objects, and leaves on the flow that create, fill and
        return an object (a context, a config)."""
        m, flow, asm = self.m, self.flow, self.asm
        entry_types = {t for t in (_owner_type(m, e) for e in self.entries) if t}
        for src in flow.ordered:
            if src in asm or not m.units[src].is_callable:
                continue
            built = [d for d in flow.out.get(src, ()) if (src, d) in flow.constructs  # a constructor stands for its type;
                     and (d in owners or (d in flow.ctor_units and m.units[d].parent in owners))]  # a nested type for itself
            made = {m.units[d].parent if d in flow.ctor_units else d for d in built}
            if made:
                n = sum(owners.get(x, 0) for x in made)
                names = ", ".join(sorted(f"`{m.units[x].qualname}`" for x in made)[:3])
                # the entry object's own builder (`Retrofit.Builder.build()` → `Retrofit`) ranks with the constructors
                own = any(t in _holders(m, _owner_type(m, src)) for t in made & entry_types)
                asm[src] = (0 if own else 1, -n, f"constructs {names}, which the flow runs through")
        for src in flow.ordered:
            if src in asm or src not in self.flowing or not m.units[src].is_callable or flow.out.get(src):
                continue
            u = m.units[src]
            body = self.index.sources[u.path][u.sig_end_byte : u.end_byte]
            if made := _fills(body):
                asm[src] = (1, 0, f"creates `{made}`, sets its parts and hands it back")
            elif layered := _wraps(body):  # a leaf: it only calls what it is handed (`h = mw[i](h)`), so no
                asm[src] = (1, 0, f"composes `{layered}` in layers and hands it back")  # trunk turn finds it

    def patching(self, owners: dict[str, int]) -> None:
        """Tier 1 too: module-level code that gives a type the flow runs through members when its module loads
        (`Axios.prototype[method] = …` for each verb): nothing calls it, but it builds that type's surface."""
        m, asm = self.m, self.asm
        weight = {m.units[t].name: n for t, n in owners.items()}
        entry_types = {m.units[t].name for t in (_owner_type(m, e) for e in self.entries) if t}
        self.entry_patches: dict[str, str] = {}  # statement → why: it gives an entry's type more public methods
        for uid in self.flow.ordered:
            u = m.units[uid]
            spec = BY_NAME.get(self.index.files[u.path].language) if u.kind == "statement" and uid not in asm else None
            if spec is None or spec.runtime_members is None:
                continue
            body = self.index.sources[u.path][u.start_byte : u.end_byte]
            named = [h.group(1).decode() for h in spec.runtime_members.finditer(body) if h.group(1).decode() in weight]
            if named and named[0] in entry_types:  # more of the entry object's own methods: an entry surface
                self.entry_patches[uid] = f"gives `{named[0]}`, the entry's type, more public methods when its module loads"
            elif named:
                asm[uid] = (1, -weight[named[0]], f"gives `{named[0]}` members when its module loads")

    def registrations(self) -> None:
        """Tiers 2 and 3: where handed-in parts are stored (routes, middleware, handlers), also when a
        constructor of the flow wires them in (`self._add_route(…)` in `__init__`); then declared init."""
        m, flow, asm = self.m, self.flow, self.asm
        wired = _registrations_memo(self.index, m, [u for u in flow.ordered if u in self.flowing], self.reg_memo)
        for uid, why in wired.items():
            asm.setdefault(uid, (2, 0, why))
        ctor_callees = sorted({d for c, t in asm.items() if t[0] == 0 for d in flow.out.get(c, ()) if d not in self.flowing
                               and m.units[d].is_callable}, key=m.order.__getitem__)
        for uid, why in _registrations_memo(self.index, m, ctor_callees, self.reg_memo).items():
            asm.setdefault(uid, (2, 0, f"{why}; a constructor of the flow wires its parts in through it"))
        for uid, why in self.wired_by_name().items():
            asm.setdefault(uid, (2, 0, why))
        for uid, why in self.offered_registrations().items():  # no flow reaches them: callers outside call them
            asm.setdefault(uid, (2, 0, why))
        for uid in sorted(self.assembly_units & self.flowing, key=m.order.__getitem__):
            asm.setdefault(uid, (3, 0, self.roles[uid]["ASSEMBLY_INIT"][1]))

    def offered_registrations(self) -> dict[str, str]:
        """Public methods nothing in the code base calls that store a part they are handed, on an entry's type or on
        a type the entry type's constructor builds (`this.interceptors = {request: new InterceptorManager()}`): where
        callers wire their parts into the object they hold (`client.interceptors.request.use(fn)`)."""
        m, flow = self.m, self.flow
        entry_types = {t for t in (_owner_type(m, e) for e in self.entries) if t}
        held = set(entry_types)
        for t in entry_types:
            c = flow.ctor_of.get(t)
            if c:
                held |= {d if m.units[d].is_type else m.units[d].parent for d in flow.out.get(c, ()) if (c, d) in flow.constructs}
        held.discard(None)
        cands = [u for u in flow.ordered if m.units[u].is_callable and u not in self.flowing and not flow.callers.get(u)
                 and _owner_type(m, u) in held and _public(self.index, m, m.units[u])]
        return {u: f"{why}; callers wire their parts in through it"
                for u, why in _registrations_memo(self.index, m, cands, self.reg_memo).items()}

    def wired_by_name(self) -> dict[str, str]:
        """Module-level registration calls that name members of the flow as strings (`delegate(proto,
        'response').method('redirect').access('body')`): they wire those members onto an object."""
        m = self.m
        members = {m.units[u].name for u in self.flowing if m.units[u].is_callable}
        out: dict[str, str] = {}
        for uid in self.flow.ordered:
            u = m.units[uid]
            if u.kind != "statement" or u.stmt_kind != "registration" or u.parent:
                continue
            named = [n.decode() for n in dict.fromkeys(QUOTED_NAME.findall(self.index.sources[u.path][u.start_byte : u.end_byte]))]
            named = [n for n in named if n in members]
            if len(named) >= WIRED_NAMES_MIN:
                out[uid] = "wires members of the flow onto an object by name: " + ", ".join(f"`{n}`" for n in named[:3])
        return out

    # ---- the picks -------------------------------------------------------------------------
    def place_picks(self) -> None:
        """The core (each trunk unit saying first what else it is), then assembly, sinks and boundaries;
        the spare core takes the slots they leave."""
        m, p, flow = self.m, self.p, self.flow
        self.taken = set(self.chosen)
        self.registers = _registrations_memo(self.index, m, self.core + self.spare_core, self.reg_memo)
        self.entry_owners = {_owner_type(m, e) for e in self.entries} - {""}
        # component types: the flow runs through their methods (a returned result or value object is not assembly)
        self.types_in_scope = {m.units[t].name for t in {_owner_type(m, x) for x in self.flowing} if t}
        for uid, why in self.entry_patches.items():  # beside the entries they extend
            self.taken.add(uid)
            p.picks.append((uid, "entry", why, 0))
        for uid in self.core:
            self.trunk_pick(uid)
        for uid in self.assembly_units_picked:
            if uid not in self.taken:
                self.taken.add(uid)
                p.picks.append((uid, "assembly", self.asm[uid][2], self.depth.get(uid, 0)))
        for uid in self.sink_units:
            if uid not in self.taken:
                self.taken.add(uid)
                if self.sink_tier[uid][0] >= 2 and flow.down[uid] > 3:  # it calls a read/write interface, but drives more
                    p.qualities.setdefault(uid, {})["sink"] = self.sink_tier[uid][1]
                    p.picks.append((uid, "core", f"on the flow from the entries: {flow.down[uid]} units downstream", self.depth.get(uid, 0)))
                else:
                    p.picks.append((uid, "sink", self.sink_tier[uid][1], self.depth.get(uid, 0)))
        for uid in self.boundary:
            if uid not in self.taken:
                self.taken.add(uid)
                p.picks.append((uid, "boundary", self.err_callees[uid], self.depth.get(uid, 0)))
        self.spare_picks()

    def spare_picks(self) -> None:
        """Slots the other stages left free go to more of the flow (a unit a type shown whole holds needs none)."""
        p = self.p
        for uid in self.spare_core:
            if len(p.picks) + self.left >= self.total:
                break
            if uid not in self.taken and not self.held(uid):
                self.trunk_pick(uid)

    def hands_back_built(self, uid: str, body: bytes) -> str:
        """The factory whose product the unit returns (`return Factory.make(…)`, or a local last assigned
        from it): a unit of the flow's assembly (a constructor or a factory of a component), or ''."""
        m = self.m
        hit = RETURNS_WHAT.search(body.rstrip())
        if not hit:
            return ""
        calls = m.calls.get(uid, ())
        if hit.group(2):  # `return x`: the call that last assigned x
            named = [c for c in calls if c.assigned_to == hit.group(2).decode()]
            if not named:
                return ""
            name = max(named, key=lambda c: c.start_byte).name
        else:
            name = hit.group(1).decode().rsplit(".", 1)[-1]
        recv = hit.group(1).decode().rsplit(".", 1)[0].rsplit(".", 1)[-1] if hit.group(1) and b"." in hit.group(1) else ""

        def owner_name(d: str) -> str:
            return m.units[m.units[d].parent].name if m.units[d].parent else ""
        named = [d for d in self.flow.out.get(uid, ()) if m.units[d].name == name]
        if recv and any(owner_name(d) == recv for d in named):
            named = [d for d in named if owner_name(d) == recv]  # `Type.make(…)`: that type's method
        for d in sorted(named, key=m.order.__getitem__):
            tier = self.asm.get(d, (9,))[0]
            built = d in self.flow.ctor_units or m.units[d].is_type  # a result value the flow never enters is not a part
            if d != uid and (tier <= 1 or (tier <= 3 and owner_name(d) == recv) or (built and self.component(d))):
                return d
        return ""

    def component(self, d: str) -> bool:
        """The type `d` builds (a type or its constructor) is one the flow runs through: it has methods on the flow."""
        m = self.m
        t = d if m.units[d].is_type else m.units[d].parent
        return bool(t) and m.units[t].name in self.types_in_scope

    def builds_own_class(self, u: Unit, body: bytes) -> str:
        """A class method that returns a new object of its class (`return cls(*parts)`): its type's name, or ''."""
        spec = BY_NAME.get(self.index.files[u.path].language)
        cp = spec.class_param if spec is not None else ""
        owner = _owner_type(self.m, u.id)
        if not (cp and owner and u.param_names[:1] == (cp,)):
            return ""
        return self.m.units[owner].name if re.search(rb"\breturn\s+" + cp.encode() + rb"\s*\(", body) else ""

    def handed_output(self, uid: str, body: bytes) -> tuple[str, str]:
        """The output a trunk unit hands to a writer, and the writer, when besides writing it sets little else
        in motion (as for a direct writer: at most 3 units); else ('', …)."""
        m, flow, u = self.m, self.flow, self.m.units[uid]
        handed, to = ("", "") if len({m.units[d].name for d in flow.out.get(uid, ())}) > FEW_CALLEES else \
            _hands_output(body, m.calls.get(uid, ()), u.sig_end_byte, lambda c: self.writer(uid, c))
        if handed:
            written = 0
            for d in flow.out.get(uid, ()):
                if m.units[d].name == to and d in flow.bit:
                    written |= flow.down_bits.get(d, 0) | (1 << flow.bit[d])
            if (flow.down_bits.get(uid, 0) & ~written).bit_count() > 3:
                handed = ""
        return handed, to

    def trunk_pick(self, uid: str) -> None:
        """A trunk unit whose main job is something else says so first."""
        m, flow, p = self.m, self.flow, self.p
        self.taken.add(uid)
        u = m.units[uid]
        key, why = self.trunk_role(uid, u, self.index.sources[u.path][u.sig_end_byte : u.end_byte])
        p.picks.append((uid, key, why or f"on the flow from the entries: {flow.down[uid]} units downstream", self.depth.get(uid, 0)))
        p.qualities.setdefault(uid, {})["core"] = f"on the flow from the entries: {flow.down[uid]} units downstream"

    def trunk_role(self, uid: str, u, body: bytes) -> tuple[str, str]:
        """The role of a trunk unit, first match wins: entry, boundary, assembly, sink, else core ('' why)."""
        m, flow = self.m, self.flow
        tier = self.sink_tier.get(uid, (9,))[0]  # a unit that writes out and sets little else in motion is a sink
        built = [t.decode() for t in RETURNS_NEW.findall(body) if t.decode() in self.types_in_scope]
        spec = BY_NAME.get(self.index.files[u.path].language)
        if not built and spec is not None and spec.self_constructors and (tail := TAIL_STRUCT.search(body)):
            name = tail.group(1).decode()  # Rust's value is its body's last expression: `Connection { … }`
            name = m.units[_owner_type(m, uid)].name if name == "Self" and _owner_type(m, uid) else name
            built = [name] if name in self.types_in_scope else []
        ctor = u.kind == "constructor" or u.name in ("__init__", "constructor")
        wraps = _wraps(body)
        stores = _stores_built(body, u.receiver, m.type_names(), flow.modules(u.path))
        factory = self.hands_back_built(uid, body)
        error_param = _error_param(u)
        handed, to = self.handed_output(uid, body)
        if uid in self.cands and self.kind_of.get(uid) == "host" and _owner_type(m, uid) in self.entry_owners:
            return "entry", self.cands[uid][1]  # the chosen application object's other host method
        if (not ctor and not flow.callers.get(uid) and not (u.parent and m.units[u.parent].is_callable)
                and _public(self.index, m, u)):
            return "entry", "public, and nothing in the code base calls it: callers from outside enter here"
        if uid in self.err_callees:
            return "boundary", self.err_callees[uid]
        if error_param and not ctor:
            return "boundary", f"handles the error it is handed (`{error_param}`)"
        if guarded := _guards_handoff(self.index, m, u, self.regions):
            return "boundary", f"catches what goes wrong in `{guarded}`, to which it hands its own arguments on"
        if turned := _error_turn(self.index, m, u, self.regions):
            return "boundary", turned
        if u.kind == "constructor" or u.name in ("__init__", "constructor"):
            return "assembly", f"constructor of `{m.units[u.parent].qualname if u.parent else u.qualname}`, on the flow"
        if uid in self.registers:
            return "assembly", self.registers[uid]
        if built:
            return "assembly", f"builds and hands on a `{built[0]}`"
        if own := self.builds_own_class(u, body):
            return "assembly", f"builds and hands back its own class, `{own}`"
        if factory:
            return "assembly", f"hands back what `{m.units[factory].qualname}` builds"
        if wraps:
            return "assembly", f"composes `{wraps}` in layers and hands it back"
        if stores:
            return "assembly", "builds parts and stores them on its object: " + ", ".join(f"`{f}`" for f in stores[:3])
        if handed:
            return "sink", f"hands its output `{handed}` to `{to}`, which writes it out"
        if into := forwarded_registration(self.index, m, uid, self.reg_memo, flow.out):  # a writer first
            return "assembly", f"hands a part it is handed on to `{m.units[into].qualname}`, which registers it"
        if _fills(body):
            return "assembly", f"creates `{_fills(body)}`, sets its parts and hands it back"
        if tier == 1 or (tier == 2 and flow.down[uid] <= 3):
            return "sink", self.sink_tier[uid][1]
        if sent := next((c.name for c in m.calls.get(uid, ()) if c.name in NETWORK_NAMES and c.receiver), ""):
            return "sink", f"sends the request through the platform's network client (`{sent}`)"
        return "core", ""

    # ---- a small code base leaves slots free: more of each stage, then the rest of the public surface ----
    def fill(self) -> None:
        """Free slots take, in order: more assembly, public methods that register parts, more sinks, the
        remaining public surfaces, more boundaries, error doors, then the rest of the public API that calls anything."""
        m, flow, p = self.m, self.flow, self.p
        if len(p.picks) + self.left >= self.total:  # no slot free (a large code base): nothing below could be placed
            return
        api = sorted((u for u in flow.ordered if u not in self.cands and m.units[u].is_callable
                      and not (m.units[u].parent and m.units[m.units[u].parent].is_callable)
                      and not (m.units[u].kind == "constructor" or m.units[u].name in ("__init__", "constructor"))
                      and _public(self.index, m, m.units[u])), key=lambda u: (-flow.down.get(u, 0), self.stable(u)))
        api = api[: TOTAL]
        surfaces_left = [u for u in self.ranked if self.kind_of[u] == "surface" and u not in self.chosen]
        wired_api = _registrations_memo(self.index, m, surfaces_left + api, self.reg_memo)  # a public method that registers a part is assembly
        more = [(u, "assembly", self.asm[u][2]) for u in self.assembly_all[CAPS["assembly"] :]]
        more += [(u, "assembly", wired_api[u]) for u in surfaces_left + api if u in wired_api]  # before the rest of the surface
        more += [(u, "sink", self.sink_tier[u][1]) for u in self.sinks_all[CAPS["sink"] :]]
        more += [(u, "entry", self.cands[u][1]) for u in self.ranked if self.kind_of[u] == "surface" and u not in self.chosen]
        more += [(u, "boundary", self.err_callees[u]) for u in self.boundary_all[CAPS["boundary"] :]]
        more += self.error_doors()
        more += [(u, "entry", "public, part of the API") for u in api
                 if u not in wired_api and flow.down.get(u, 0) >= 1]  # a public leaf helper is not a surface
        bounds = sum(1 for _, k, _, _ in p.picks if k == "boundary")
        for uid, key, why in more:
            full = len(p.picks) + self.left >= self.total
            if full and bounds >= CAPS["boundary"]:
                break
            if uid in self.taken or self.held(uid):
                continue
            err = reports_error(self.index, m.units[uid]) if key == "entry" else ""
            if full and not (err or key == "boundary"):
                continue  # the plan's slots are spent, but the boundary lane's own places are still free
            self.taken.add(uid)
            bounds += bool(err) or key == "boundary"
            if err:  # a public method whose job is the error it is handed (`fail(err)`): a boundary first
                p.qualities.setdefault(uid, {})["entry"] = why
                key, why = "boundary", err
            elif key == "entry" and self.sink_tier.get(uid):  # a public writer (`moveTo(url)`): a sink first, so
                p.qualities.setdefault(uid, {})["entry"] = why  # it may go to context when the main path is full
                key, why = "sink", self.sink_tier[uid][1]
            p.picks.append((uid, key, why, self.depth.get(uid, 0)))
            p.fill.add(uid)

    def error_doors(self) -> list[tuple[str, str, str]]:
        """Public callables whose own body catches errors (`try`, Go's deferred `recover()`) or makes a new one
        (`throw`, `raise`): where a library's callers get their errors caught or made (a recovering middleware,
        `ctx.throw`), whether or not the code base calls them. Catching first, then by reach. The language's
        boundary syntax decides; only files where a public callable names such syntax are parsed."""
        m, flow, src = self.m, self.flow, self.index.sources
        public = [u for u in self.arch if u not in self.taken and m.units[u].is_callable
                  and not (m.units[u].parent and m.units[m.units[u].parent].is_callable)
                  and not (m.units[u].kind == "constructor" or m.units[u].name in ("__init__", "constructor"))
                  and ERROR_WORDS.search(src[m.units[u].path], m.units[u].sig_end_byte, m.units[u].end_byte)
                  and _public(self.index, m, m.units[u])]
        tier: dict[str, int] = {}
        for path in sorted({m.units[u].path for u in public}):
            for mark in boundary_marks(self.index.files[path], src[path]):
                outer = mark.unit  # a mark in a closure is its function's (`defer func() { recover() }()`)
                while outer in m.units and m.units[outer].parent and m.units[m.units[outer].parent].is_callable:
                    outer = m.units[outer].parent
                if mark.tier <= 3 and mark.tier < tier.get(outer, 9):
                    tier[outer] = mark.tier
        doors = sorted((u for u in public if u in tier), key=lambda u: (tier[u], -flow.down.get(u, 0), self.stable(u)))
        return [(u, "boundary", ("catches errors in its own body" if tier[u] <= 2 else "makes an error of its own")
                 + ", offered to callers") for u in doors]

    def held(self, uid: str) -> bool:
        """The unit lies inside a type shown whole: it is read there."""
        m = self.m
        t = m.units[uid].parent
        while t:
            if t in self.wholes:
                return True
            t = m.units[t].parent
        return False

    def whole_types(self) -> None:
        """Slot efficiency: a type holding picks of the plan is shown whole in its first member's place when it is
        small (SMALL_TYPE_BYTES), or, up to WHOLE_TYPE_BYTES, when that saves places (its picked members carry fewer
        distinct roles than they are many) and it costs at most WHOLE_TYPE_EXTRA more than those members — only
        when units of the flow still wait for a place (a small code base keeps its members apart). It holds one
        place per distinct role, so each member keeps its role label; the places saved go to the next units of the
        plan (no more than the picks held before, so the one hop keeps its own), and its other members are read
        with it. *Why:* every pack was full at 32 units, while a core class's entry, steps and handlers took a
        place each and its other members (the components it builds, `next` beside `error`) had none."""
        m, p = self.m, self.p
        if all(u in self.taken for u in self.spare_core):
            return  # every unit of the flow found a place: nothing waits for one
        groups: dict[str, list[int]] = {}
        for i, (uid, _key, _why, _dep) in enumerate(p.picks):
            u = m.units[uid]
            t = u.parent
            if t and m.units[t].is_type and m.units[t].path == u.path and m.units[t].start_byte <= u.start_byte \
                    and u.end_byte <= m.units[t].end_byte:
                groups.setdefault(t, []).append(i)
        drop: set[int] = set()
        for t, idx in groups.items():
            keys = list(dict.fromkeys(p.picks[i][1] for i in idx))
            saves = len(keys) < len(idx)  # its members carry fewer roles than they are many: places saved
            if not (m.cost(t) <= SMALL_TYPE_BYTES or (saves and m.cost(t) <= min(
                    WHOLE_TYPE_BYTES, sum(m.cost(p.picks[i][0]) for i in idx) + WHOLE_TYPE_EXTRA))):
                continue
            q = p.qualities.setdefault(t, {})
            for i in idx:
                q.setdefault(p.picks[i][1], p.picks[i][2])
                for k, v in p.qualities.get(p.picks[i][0], {}).items():
                    q.setdefault(k, v)
            p.stands_for[t] = [p.picks[i][0] for i in idx]
            uid, key, why, dep = p.picks[idx[0]]
            names = ", ".join(f"`{m.units[p.picks[i][0]].name}`" for i in idx)
            p.picks[idx[0]] = (t, key, f"{why} (the type whole, for {names})", dep)
            if uid in p.fill:  # the lane of the member it stands in for
                p.fill.add(t)
            p.whole[t] = keys
            self.taken.add(t)
            self.wholes.add(t)
            drop.update(idx[1:])
        if not p.whole:
            return
        members: dict[str, list[str]] = {t: [] for t in p.whole}
        for x in self.flow.ordered:  # one pass: the units each whole type holds (their relations are its own)
            t = m.units[x].parent
            while t and t not in members:
                t = m.units[t].parent
            if t:
                members[t].append(x)
        p.members = members
        if not drop:
            return
        before = len(p.picks)
        p.picks = [x for i, x in enumerate(p.picks) if i not in drop]
        self.left = sum(len(k) - 1 for k in p.whole.values())
        self.total = min(TOTAL, before)
        self.spare_picks()
        self.fill()
        self.closures_to_outer()
        self.error_writers_to_boundaries()

    def closures_to_outer(self) -> None:
        """A closure is read inside its function: pick the enclosing callable (when it is not huge)."""
        m, p = self.m, self.p
        remapped: list[tuple[str, str, str, int]] = []
        seen_pick: set[str] = set()
        for uid, key, why, dep in p.picks:
            original = outer = uid
            while m.units[outer].parent and m.units[m.units[outer].parent].is_callable:
                outer = m.units[outer].parent
            if outer != uid and m.cost(outer) <= MAX_OUTER_BYTES:
                why = f"{why} (in `{m.units[uid].name}`, inside it)"
                if uid in p.qualities:
                    p.qualities.setdefault(outer, {}).update({k: v for k, v in p.qualities.pop(uid).items()
                                                              if k not in p.qualities.get(outer, {})})
                uid = outer
            if uid not in seen_pick:
                seen_pick.add(uid)
                remapped.append((uid, key, why, dep))
                if outer != original and original in p.fill:
                    p.fill.add(uid)
        p.picks = remapped

    def error_writers_to_boundaries(self) -> None:
        """An error handler that writes out (reports, logs) is a boundary first."""
        p = self.p
        for i, (uid, key, why, dep) in enumerate(p.picks):
            err = reports_error(self.index, self.m.units[uid]) if key == "sink" else ""
            if err:
                p.qualities.setdefault(uid, {})["sink"] = why
                p.picks[i] = (uid, "boundary", err, dep)

    def all_qualities(self) -> None:
        """Every role a picked unit qualifies for, each with its reason."""
        p = self.p
        for uid, key, why, _ in p.picks:
            q = p.qualities.setdefault(uid, {})
            q[key] = why
            if uid in self.err_callees:
                q.setdefault("boundary", self.err_callees[uid])
            if uid in self.sink_tier:
                q.setdefault("sink", self.sink_tier[uid][1])
            if uid in self.asm:
                q.setdefault("assembly", self.asm[uid][2])
            if uid in self.cands and (uid in self.chosen or uid in self.implements):
                q.setdefault("entry", self.cands[uid][1])  # a door of a public interface the core passes through is both
