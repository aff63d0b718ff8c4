"""The ranked graph for selection: resolved edges plus *likely* call and reference targets.

The proven graph (`index.bindings`, `index.graph`) stays what it is: facts and distill
evidence read only that. This module answers, for explore's search, "where does this unit
probably go, and who probably comes here": every resolved call/construct edge (rule
`resolved`, confidence 1.0; constructing a type reaches its constructor), then the targets
named rules propose for the call sites the resolver left unknown and for functions handed
over as values, each with a calibrated confidence (`RULE_CONFIDENCE`: measured precision).

Rules, by what they read:
- typed receivers: `self.x.m()` where the type's member holds a declared type or was assigned
  a construction (`attr-type`, `field-type`; Java/Kotlin fields without `this.`), a local made
  by a call with a declared return type or a construction (`return-type`, `local-type`), a
  parameter or local whose declared type the resolver could not bind (`declared-type`);
  containers and wrappers from outside the index stand for their element type
- dispatch: a call bound to a base/interface method may run each override below it
  (`family-dispatch`); `self.m()` with m defined only below (`subtype-method`) or twice
  (`base-method`); calling an object (`protocol-call`: `__call__`, `invoke`) and building a
  Rust future or stream (its `poll`: `built-protocol`)
- views and bindings of self: a view call (`self.as_mut()`, `let me = self.project()`) and a
  wrapper (`Pin::new(x)`) keep the type; a local named like a field of the method's own type,
  with no type of its own, holds that field (`field-binding`: destructured from self)
- names: a bare name defined in this file, a file it imports, its package (`same-file`,
  `import-reach`, `same-package`), once anywhere (`unique-name`); untyped member calls by
  receiver name ↔ type name (`receiver-name`) and by locality (`member-*`)
- references: a function or method passed, stored or listed as a value (`callback-ref`,
  `method-value`; `fn.bind(this)`)
Test files never serve non-test callers; sources beat examples/docs and compiled copies.
Closures' edges count for their enclosing callable too.

Lazy per unit: `out()` evaluates one unit's sites (and its closures'); `into()` asks the
resolver's reverse name index which files name the unit and evaluates only the sites there
that can land on it. Nothing decodes every file's calls up front.
"""

from __future__ import annotations

import posixpath
import re
import threading
import weakref
from collections import defaultdict
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from ..index.facts import CLASS_KINDS, Call, DeferredCalls, FileFacts, Unit
from ..languages import BY_NAME, spec_for_path
from ..languages.spec import LanguageSpec, last_segment
from ..workspace.scope import is_test_path

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex


class Likely(NamedTuple):
    src: str  # caller unit id
    dst: str  # callee/referenced unit id
    line: int  # call/reference site line in src's file
    confidence: float  # 0..1, calibrated: measured precision of the rule
    rule: str  # short plain name of the rule that proposed it


# Calibrated confidence of one proposed target per rule: its measured precision
# (bench/bench_likely.py on the 12 development corpora). Two measures: (a) resolved edges
# hidden and recovered — an upper bound, since resolved sites are the easy ones; (a2) Python
# unknown sites and references checked against jedi's goto — the sites the rules are for, but
# jedi answers mostly where the receiver is a builtin or library object. Where (a2) has a
# sample it decides; rules neither measure can test (dispatch alternatives, protocols) carry
# a prior, marked. A rule proposing k targets for one site gives each `_K_FACTOR[k]` of it
# (measured: k=2 0.47-0.51, k=3 0.32-0.33).
PROTOTYPE_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})  # `T.prototype.m` is T's method m
RULE_CONFIDENCE: dict[str, float] = {
    "resolved": 1.0,
    # functions handed over as values: (a2) 255/255 and 96/96
    "callback-ref": 0.95,
    "method-value": 0.95,
    # typed receivers: (a2) attr-type 13/13, field-type 28/28, return-type 10/10, local-type 3/3;
    # (a) declared-type 449/449, local-type 172/172
    "attr-type": 0.95,
    "field-type": 0.95,
    "declared-type": 0.95,
    "local-type": 0.95,
    "return-type": 0.9,
    "base-method": 0.9,  # (a) 712/712, (a2) 1/1: members defined twice in the type or its bases
    # bare names the resolver could not bind (JavaScript default imports, re-exports): (a) 0.99-1.00
    # at k=1 on 1179-1665 sites; (a2) too few Python sites (most bare unknowns are builtins)
    "same-file": 0.9,
    "import-reach": 0.9,
    "same-package": 0.85,
    # `utils.merge()` where `utils` is an imported module or its default-exported object: the
    # function of that name defined at the top of the imported file
    "module-member": 0.9,
    "unique-name": 0.2,  # (a) 0/2, (a2) 0/7: a name defined once elsewhere is usually a builtin's namesake
    # untyped member calls are mostly calls into libraries and builtins: (a2)
    "receiver-name": 0.3,  # (a) 270/270 but (a2) 0.13-0.17; a hand check of 12 sites jedi cannot answer: 9 right
    "member-same-file": 0.25,  # (a2) 0.20-0.24
    "member-import-reach": 0.06,  # (a2) 0.05-0.06
    # priors, not measurable by hiding (they add alternatives to a bound target) nor by jedi
    # (which answers the declared method): kept below the measured rules
    "family-dispatch": 0.5,  # / sqrt(number of implementations)
    "subtype-method": 0.5,  # / sqrt(number of implementations)
    "protocol-call": 0.4,
    # a local named like a field of its method's own type, with no type of its own: that field,
    # destructured from self (Rust patterns): a hand check, see docs/explore.md
    "field-binding": 0.8,
    # a Rust future or stream built here is polled later (`Server { … }` → `Server::poll`): a hand
    # check of 25 sampled sites on two async corpora, 25 right (returned, spawned, awaited or
    # stored to be polled); kept at the typed rules' level, not above (the poll runs later)
    "built-protocol": 0.9,
    # `super(…)` / `super.m()`: the supertype's constructor or member
    "super-call": 0.95,
    # `Type.member()` where `Type` is an import binding a class of the imported file
    "class-member": 0.9,
    # a callable indexing a module-level table of functions of its file (`strategies[key]`)
    "table-lookup": 0.9,
}
_K_FACTOR = {1: 1.0, 2: 0.5, 3: 0.33}
MAX_NAME_CANDIDATES = 3  # more same-named definitions in the best locality tier: no guess
MAX_DISPATCH = 8  # overriding implementations listed for one call on a base/interface method
MAX_INTO_FILES = 48  # files that only share a common name, computed for one into()
CTOR_NAMES = ("__init__", "constructor")
_SECONDARY_DIRS = frozenset({"examples", "example", "docs", "doc", "benchmarks", "benchmark", "bench", "samples", "sample", "demo", "demos", "scripts"})
_COMPILED_DIRS = frozenset({"dist", "build", "umd", "bundles"})  # not `lib/`: JavaScript packages keep their source there
_SOURCE_EXTS = (".ts", ".tsx", ".mts", ".cts")


def _type_args(text: str) -> list[str]:
    """Top-level type arguments: `Map<K, List<V>>` → [`K`, `List<V>`]."""
    for opener, closer in ("<>", "[]"):
        start = text.find(opener)
        if start > 0 and text.rstrip().endswith(closer):
            inner, depth, cur, out = text[start + 1 : text.rstrip().rfind(closer)], 0, "", []
            for ch in inner:
                if ch in "<[(":
                    depth += 1
                elif ch in ">])":
                    depth -= 1
                if ch == "," and depth == 0:
                    out.append(cur.strip())
                    cur = ""
                else:
                    cur += ch
            out.append(cur.strip())
            return [a.lstrip("?").replace("out ", "").replace("in ", "").replace("extends ", "").strip() for a in out if a.strip() not in ("", "?", "*")]
    return []


_SEGMENT = re.compile(r"^([A-Za-z_$][\w$]*)((?:\([^()]*\)|\[[^\[\]]*\])*)$")


# `list.get(i)`, `items.elementAt(0)`: a container's element, whose type is the declared type argument
ELEMENT_ACCESSORS = frozenset({"get", "elementAt", "getOrNull", "first", "last", "firstOrNull", "lastOrNull", "at"})
_ONE_INDEX = re.compile(r"\((?:\w+|\w+\s*[-+]\s*\d+)?\)")


def _segments(receiver: str) -> list[tuple[str, bool]] | None:
    """A receiver as (name, called) steps: `a.b` → [(a, F), (b, F)]; `handlers[p]` and
    `factories.get(i)` → [(handlers, F)] (an element keeps the declared element type);
    `x.make()` → [(x, F), (make, T)]; None when a step is no plain name with calls/indexes after it."""
    parts = [p for p in receiver.replace("::", ".").replace("?.", ".").replace("!!", "").replace("?", "").split(".") if p]
    out: list[tuple[str, bool]] = []
    for part in parts:
        m = _SEGMENT.match(part.strip())
        if m is None:
            return None
        if out and m.group(1) in ELEMENT_ACCESSORS and _ONE_INDEX.fullmatch(m.group(2)):
            continue  # `factories.get(i)`: an element, like `handlers[p]`
        out.append((m.group(1), m.group(2).startswith("(")))
    return out or None


def _unwrapped(receiver: str, wrappers: tuple[str, ...]) -> str:
    """`Pin::new(self.conn.as_mut().unwrap())` → `self.conn.as_mut().unwrap()`: a wrapper call
    hands back its one argument (a receiver with anything after the wrapper's parentheses stays)."""
    for w in wrappers:
        if receiver.startswith(w + "(") and receiver.endswith(")"):
            inner = receiver[len(w) + 1 : -1]
            depth = 0
            for ch in inner:  # the parentheses must close only at the end
                depth += (ch == "(") - (ch == ")")
                if depth < 0:
                    return receiver
            return inner.lstrip("&").removeprefix("mut ").strip() if depth == 0 else receiver
    return receiver


_NEAR_NAME_RULES = frozenset({"same-file", "import-reach", "same-package"})  # not a namesake anywhere
_STATIC = re.compile(rb"\s*(?:@\w+\s*)*(?:public\s+|protected\s+|private\s+)?static\b")


@lru_cache(maxsize=4096)
def _indexed(name: str) -> re.Pattern[bytes]:
    """`name[` as a whole identifier read by index (not a member `x.name[`, not a longer name)."""
    return re.compile(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"\s*\[")


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


def _calls(facts: FileFacts) -> tuple[Call, ...]:
    """A file's call records as a plain tuple (a cached file's are decoded on first use)."""
    calls = facts.calls
    return calls.materialize() if isinstance(calls, DeferredCalls) else calls  # type: ignore[return-value]


def _arity(source: bytes, call: Call) -> int:
    """How many arguments a call passes (commas at the top level of its first parentheses);
    -1 when the text does not say (no parentheses, a spread, a trailing lambda)."""
    text = source[call.start_byte : call.end_byte]
    open_ = text.find(b"(")
    if open_ < 0 or b"..." in text or text.rstrip().endswith(b"}"):
        return -1
    depth, commas, empty, quote = 0, 0, True, 0
    for ch in text[open_ + 1 :]:
        if quote:  # inside a string literal: its commas and brackets are text
            quote = 0 if ch == quote else quote
            continue
        if ch in b"\"'`":
            quote, empty = ch, False
        elif ch in b"([{":
            depth += 1
        elif ch in b")]}":
            if depth == 0:
                return 0 if empty else commas + 1
            depth -= 1
        elif ch == 44 and depth == 0:  # ","
            commas += 1
        if ch not in b" \t\r\n":
            empty = False
    return -1


@lru_cache(maxsize=65536)
def _dirname(path: str) -> str:
    return posixpath.dirname(path)


@lru_cache(maxsize=65536)
def _is_test(path: str) -> bool:
    return is_test_path(path)


@lru_cache(maxsize=65536)
def _secondary(path: str) -> int:
    """0 main source, 1 examples/docs/benchmarks, 2 compiled copies and declarations."""
    spec = spec_for_path(path)
    if spec is not None and spec.copy_suffixes and path.endswith(spec.copy_suffixes):  # declarations, bundles
        return 2
    parts = path.split("/")[:-1]
    if any(p in _COMPILED_DIRS for p in parts) and not path.endswith(_SOURCE_EXTS):
        return 2
    if any(p.lower() in _SECONDARY_DIRS for p in parts):
        return 1
    return 0


class _FileState:
    __slots__ = ("out",)

    def __init__(self) -> None:
        self.out: dict[str, list[Likely]] = defaultdict(list)


class _FileCtx:
    """What the rules read of one file beyond its facts: which call each resolved edge came
    from, and which calls initialise which locals."""

    __slots__ = ("call_dst", "assigned", "unresolved_by_caller", "refs_by_caller", "resolved_by_src", "children", "memo")

    def __init__(self, facts: FileFacts, bindings) -> None:
        self.call_dst: dict[int, str] = {}
        self.assigned: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.unresolved_by_caller: dict[str, list[int]] = defaultdict(list)
        self.refs_by_caller: dict[str, list[Call]] = defaultdict(list)
        self.resolved_by_src: dict[str, list] = defaultdict(list)
        self.children: dict[str, list[str]] = defaultdict(list)  # callable → callables nested directly in it
        self.memo: dict[tuple, list[tuple[Unit, float, str]]] = {}  # a (caller, receiver, name) site repeats often
        unresolved = set(bindings.unresolved) if bindings is not None else set()
        edges = [e for e in bindings.edges if e.kind in ("calls", "constructs")] if bindings is not None else []
        calls = _calls(facts)
        resolved = [i for i in range(len(calls)) if i not in unresolved]
        if len(resolved) == len(edges):  # the resolver emits one edge per resolved call, in order
            self.call_dst = {i: e.dst for i, e in zip(resolved, edges)}
        for e in edges:
            self.resolved_by_src[e.src].append(e)
        for i, c in enumerate(calls):
            if c.assigned_to and c.caller:
                self.assigned[(c.caller, c.assigned_to)].append(i)
        for i in sorted(unresolved):
            caller = calls[i].caller
            if caller:
                self.unresolved_by_caller[caller].append(i)
        for r in facts.refs:
            if r.caller:
                self.refs_by_caller[r.caller].append(r)
        by_id = {u.id: u for u in facts.units}
        for u in facts.units:
            parent = by_id.get(u.parent) if u.parent else None
            if parent is not None and u.is_callable and parent.is_callable:
                self.children[parent.id].append(u.id)


class LikelyGraph:
    def __init__(self, index: "RootIndex") -> None:
        # A proxy, not a reference: the graph lives in index.memo, and a cycle would keep a
        # dropped index alive (its build freezes memory out of the cyclic GC's scans).
        self.index = weakref.proxy(index)
        self.version = index.version
        self._lock = threading.RLock()
        self._into: dict[str, list[Likely]] = {}
        self._by_name: dict[str, list[Unit]] | None = None
        self._subtypes: dict[str, set[str]] | None = None
        self._imported: dict[str, frozenset[str]] = {}
        self._ctor: dict[str, Unit | None] = {}
        self._overrides: dict[tuple[str, str], list[Unit]] = {}
        self._ctxs: dict[str, _FileCtx] = {}
        self._outs: dict[str, list[Likely]] = {}
        self._memo_types: dict[tuple[str, str], Unit | None] = {}
        self._aliases: dict[str, dict[str, str]] = {}  # path → type alias name → what it stands for
        self._memo_tier: dict[str, dict[str, int]] = {}  # caller path → definition path → tier
        self._landing: dict[str, frozenset[str]] = {}  # path → names its unresolved calls and references can land on
        self._memo_rn: dict[tuple[str, str], list[Unit]] = {}
        self._method_owner_names: dict[str, list[tuple[Unit, tuple[str, ...]]]] = {}
        self._memo_names: dict[tuple[str, str, bool, bool], list[tuple[Unit, float, str]]] = {}

    # ---- public ------------------------------------------------------------------------
    def out(self, unit_id: str) -> list[Likely]:
        hit = self._outs.get(unit_id)
        if hit is None:
            with self._lock:
                hit = self._unit_out(unit_id)
        return list(hit)

    def into(self, unit_id: str) -> list[Likely]:
        hit = self._into.get(unit_id)
        if hit is not None:
            return list(hit)
        with self._lock:
            hit = self._into.get(unit_id)
            if hit is None:
                hit = self._into[unit_id] = self._compute_into(unit_id)
        return list(hit)

    # ---- shared tables (built on first use) -------------------------------------------------
    def by_name(self) -> dict[str, list[Unit]]:
        if self._by_name is None:
            table: dict[str, list[Unit]] = defaultdict(list)
            for u in self.index.resolver.units.values():
                if u.kind != "statement" and u.kind != "impl":
                    table[u.name].append(u)
            self._by_name = dict(table)
        return self._by_name

    def subtypes(self) -> dict[str, set[str]]:
        """Type unit id → ids of the types that extend/implement it (resolved edges)."""
        if self._subtypes is None:
            memo = self.index.memo.get("explore")
            impl = getattr(memo, "implementers", None) if getattr(memo, "version", None) == self.index.version else None
            self._subtypes = impl if impl is not None else self.index.graph.implementers()
        return self._subtypes

    def constructor(self, t: Unit) -> Unit | None:
        if t.id not in self._ctor:
            members = self.index.resolver.members_of(t)
            self._ctor[t.id] = next((m for n in (*CTOR_NAMES, t.name) for m in members.get(n, []) if m.is_callable), None)
        return self._ctor[t.id]

    def overrides(self, t: Unit, name: str) -> list[Unit]:
        """Methods named `name` in the types below `t` (transitively), nearest first."""
        key = (t.id, name)
        hit = self._overrides.get(key)
        if hit is None:
            units, sub = self.index.resolver.units, self.subtypes()
            found: list[Unit] = []
            seen = {t.id}
            frontier = [t.id]
            for _ in range(6):
                nxt = []
                for tid in frontier:
                    for s in sorted(sub.get(tid, ())):
                        if s in seen:
                            continue
                        seen.add(s)
                        nxt.append(s)
                        st = units.get(s)
                        if st is not None:
                            found += [m for m in self.index.resolver.members_of(st).get(name, []) if m.is_callable]
                frontier = nxt
                if not frontier:
                    break
            hit = self._overrides[key] = found
        return hit

    def imported_files(self, path: str) -> frozenset[str]:
        hit = self._imported.get(path)
        if hit is None:
            b = self.index.bindings.get(path)
            hit = frozenset(e.dst for e in b.edges if e.kind == "imports") if b is not None else frozenset()
            self._imported[path] = hit
        return hit

    # ---- per file ----------------------------------------------------------------------
    def _file(self, path: str) -> _FileState:
        """Every unit's edges in one file (benchmarks and whole-file questions)."""
        state = _FileState()
        facts = self.index.files.get(path)
        if facts is None:
            return state
        with self._lock:
            for u in facts.units:
                edges = self._unit_out(u.id)
                if edges:
                    state.out[u.id] = list(edges)
        return state

    def _ctx(self, path: str) -> _FileCtx:
        ctx = self._ctxs.get(path)
        if ctx is None:
            ctx = self._ctxs[path] = _FileCtx(self.index.files[path], self.index.bindings.get(path))
        return ctx

    def _unit_out(self, unit_id: str) -> list[Likely]:
        """A unit's edges: its own call sites and references, then those of the functions nested
        in it (a closure, an arrow function, a local handler runs as part of its callable: its
        edges are the enclosing callable's too, same line and rule). Call with the lock held."""
        hit = self._outs.get(unit_id)
        if hit is not None:
            return hit
        units = self.index.resolver.units
        unit = units.get(unit_id)
        if unit is None or unit.path not in self.index.files or unit.path not in self.index.bindings:
            return []
        self._outs[unit_id] = []  # a cycle through nesting cannot happen; guards re-entry all the same
        edges = self._own_edges(unit)
        if unit.is_callable:
            have = {(e.dst, e.line) for e in edges}
            for child in self._ctx(unit.path).children.get(unit_id, ()):
                for e in self._unit_out(child):
                    if e.dst != unit_id and (e.dst, e.line) not in have:
                        have.add((e.dst, e.line))
                        edges.append(e._replace(src=unit_id))
        edges.sort(key=lambda e: (e.confidence < 1.0, e.line, -e.confidence))
        self._outs[unit_id] = edges
        return edges

    def _own_edges(self, unit: Unit) -> list[Likely]:
        facts = self.index.files[unit.path]
        ctx = self._ctx(unit.path)
        units = self.index.resolver.units
        spec = BY_NAME.get(facts.language)
        src = unit.id
        out: list[Likely] = []
        seen: set[tuple[str, int]] = set()

        def add(src: str, dst: Unit, line: int, conf: float, rule: str) -> None:
            if dst.id == src or (dst.id, line) in seen:
                return
            seen.add((dst.id, line))
            out.append(Likely(src, dst.id, line, round(conf, 3), rule))

        for e in ctx.resolved_by_src.get(src, ()):
            dst = units.get(e.dst)
            if dst is None:
                continue
            if dst.kind in CLASS_KINDS:
                dst = self.constructor(dst) or dst
            add(src, dst, e.line, 1.0, "resolved")
            if dst.kind == "method":
                self._dispatch(add, src, dst, e.line)
            if e.kind == "constructs" and spec is not None and spec.construct_protocol:
                t = units.get(e.dst)
                for m in self._constructed_protocol(t, spec) if t is not None else ():
                    add(src, m, e.line, RULE_CONFIDENCE["built-protocol"], "built-protocol")
        calls = _calls(facts)
        for idx in ctx.unresolved_by_caller.get(src, ()):
            call = calls[idx]
            key = (src, call.receiver, call.name, call.construct)
            found = ctx.memo.get(key)
            if found is None:
                found = ctx.memo[key] = self.targets(facts, call)
            for dst, conf, rule in found:
                add(src, dst, call.line, conf, rule)
                if call.construct and spec is not None and spec.construct_protocol:
                    # a value built here runs its protocol method later (`Server { … }.await`)
                    t = units.get(dst.parent) if dst.kind == "constructor" and dst.parent else dst
                    for m in self._constructed_protocol(t, spec) if t is not None else ():
                        add(src, m, call.line, conf * RULE_CONFIDENCE["built-protocol"], "built-protocol")
        for ref in ctx.refs_by_caller.get(src, ()):
            for dst, conf, rule in self.ref_targets(facts, ref):
                add(src, dst, ref.line, conf, rule)
        if unit.is_callable:
            for dst, line in self._tables_read(unit, facts):
                add(src, dst, line, RULE_CONFIDENCE["table-lookup"], "table-lookup")
        return out

    def _tables_read(self, unit: Unit, facts: FileFacts) -> list[tuple[Unit, int]]:
        """The lookup tables of its file a callable indexes (`strategies[key]`, `(table[k] ||
        fallback)(…)`): the entry it reads is called or handed on, so the table's functions are
        where the call goes (the table's own references lead on to them)."""
        tables = [u for u in facts.units if u.kind == "statement" and u.stmt_kind == "table" and u.parent is None]
        if not tables:
            return []
        source = self.index.sources.get(facts.path, b"")
        out = []
        for t in tables:
            m = _indexed(t.name).search(source, unit.start_byte, unit.end_byte)
            if m is not None:
                out.append((t, unit.start_line + source.count(b"\n", unit.start_byte, m.start())))
        return out

    def returned_protocol(self, callable_: Unit) -> list[Unit]:
        """The protocol methods a runtime runs on what a callable returns (`fn serve(…) ->
        Server<…>` where `impl Future for Server` → `Server::poll`): what awaiting its result runs."""
        facts = self.index.files.get(callable_.path)
        spec = BY_NAME.get(facts.language) if facts is not None else None
        if spec is None or not spec.construct_protocol or not callable_.is_callable or not callable_.returns:
            return []
        t = self._type_from_text(facts, callable_.returns)
        return self._constructed_protocol(t, spec) if t is not None else []

    def _constructed_protocol(self, t: Unit, spec: LanguageSpec) -> list[Unit]:
        """Methods a runtime calls on a value of type `t` once it is built (`impl Future for T`
        → `T::poll`): the type implements the named trait in one of its impl blocks."""
        if t.kind not in CLASS_KINDS:
            return []
        facts = self.index.files.get(t.path)
        if facts is None:
            return []
        impls = {u.id for u in facts.units if u.kind == "impl" and u.name == t.name}
        traits = {s.name for s in facts.supertypes if s.unit in impls or s.unit == t.id}
        out = []
        for trait, method in spec.construct_protocol:
            if trait in traits:
                m = self._member(t, method)
                if m is not None and m.is_callable:
                    out.append(m)
        return out

    def _member(self, t: Unit, name: str) -> Unit | None:
        """`t`'s member `name`. Same-named types of other modules share a member table (Rust
        impl blocks anywhere in the crate): when that leaves two, the type's own file decides."""
        m = self.index.resolver.find_member(t, name)
        if m is None:
            own = [x for x in self.index.resolver.members_of(t).get(name, ()) if x.path == t.path]
            m = own[0] if len(own) == 1 else None
        return m

    def _dispatch(self, add, src: str, method: Unit, line: int) -> None:
        """A resolved call on a base/interface method may run any override below it."""
        owner = self.index.resolver.units.get(method.parent) if method.parent else None
        if owner is None or owner.kind not in CLASS_KINDS:
            return
        for m, conf in self._family(owner, method.name, self.index.resolver.units[src].path if src in self.index.resolver.units else ""):
            add(src, m, line, conf, "family-dispatch")

    def _family(self, owner: Unit, name: str, caller_path: str) -> list[tuple[Unit, float]]:
        found = [m for m in self.overrides(owner, name) if not _is_test(m.path) or _is_test(caller_path)]
        if not found or len(found) > MAX_DISPATCH:
            return []
        conf = RULE_CONFIDENCE["family-dispatch"] / len(found) ** 0.5
        return [(m, conf) for m in found]

    # ---- types of what a receiver holds ----------------------------------------------------
    def _enclosing(self, caller: Unit | None) -> tuple[Unit | None, Unit | None]:
        """(innermost method, the type it belongs to): Go methods and Rust impl blocks name
        their type by qualname, wherever in the package it is declared."""
        resolver = self.index.resolver
        method, owner = resolver._enclosing_type(caller)
        if method is None:
            cur = caller
            while cur is not None and cur.kind not in ("method", "constructor"):
                cur = resolver.units.get(cur.parent) if cur.parent else None
            method = cur
        if owner is not None and owner.kind == "impl":
            owner = self._type_named(owner.path, owner.name) or owner
        if owner is None and method is not None and "." in method.qualname:
            owner = self._type_named(method.path, method.qualname.rsplit(".", 1)[0].rsplit(".", 1)[-1])
        if owner is None and method is None and caller is not None and caller.kind == "statement":
            owner = self._patched_type(caller)
        return method, owner

    def _patched_type(self, statement: Unit) -> Unit | None:
        """The type a module-level statement gives members when it loads (`Axios.prototype[m] =
        function () { return this.request(…) }`): `this` in the functions it assigns is that type."""
        facts = self.index.files.get(statement.path)
        spec = BY_NAME.get(facts.language) if facts is not None else None
        if spec is None or spec.runtime_members is None:
            return None
        hit = spec.runtime_members.search(self.index.sources.get(statement.path, b""), statement.start_byte, statement.end_byte)
        return self._type_named(statement.path, hit.group(1).decode()) if hit else None

    def _type_named(self, path: str, name: str) -> Unit | None:
        """A type called `name` near `path`: in the file, else the one in the nearest tier."""
        key = (path, name)
        if key not in self._memo_types:
            self._memo_types[key] = self._find_type_named(path, name)
        return self._memo_types[key]

    def _find_type_named(self, path: str, name: str) -> Unit | None:
        facts = self.index.files.get(path)
        if facts is None:
            return None
        local = [u for u in self.index.resolver.top.get(path, {}).get(name, []) if u.kind in CLASS_KINDS and u.kind != "impl"]
        if len(local) == 1:
            return local[0]
        defs = [u for u in self.by_name().get(name, []) if u.kind in CLASS_KINDS and u.kind != "impl"]
        hits = self._best_tier(path, defs)
        if len(hits) == 1 and self._tier(path, hits[0]) <= 2:
            return hits[0]
        # imported by name through a re-export (`use crate::cache::ReadyCache` where cache/mod.rs
        # re-exports it): the one type of that name in the workspace
        if len(defs) == 1 and not _is_test(defs[0].path) and any((imp.alias or imp.name) == name for imp in facts.imports):
            return defs[0]
        return None

    def _type_from_text(self, facts: FileFacts, text: str) -> Unit | None:
        """A declared type as a type unit; an array or a container/wrapper from outside the
        index (`List<Factory>`, `Lazy<Cache>`, `Foo[]`) stands for its element type."""
        key = (facts.path, text)
        if key not in self._memo_types:
            self._memo_types[key] = self._find_type_from_text(facts, text)
        return self._memo_types[key]

    def _find_type_from_text(self, facts: FileFacts, text: str) -> Unit | None:
        text = text.strip()
        while text.endswith("[]"):
            text = text[:-2].strip()
        t = self.index.resolver._resolve_type_text(facts, text)
        if t is not None:
            return t
        name = last_segment(text)
        t = self._type_by_path(facts, text, name)  # `proto::h2::Server`: the path decides before locality
        if t is not None:
            return t
        t = self._type_named(facts.path, name) if name and name[:1].isupper() else None
        if t is not None:
            return t
        aliased = self._alias_of(facts, name) if name and name[:1].isupper() else ""
        if aliased:
            return self._type_from_text(facts, aliased)
        for args in _type_args(text)[::-1]:
            t = self._type_from_text(facts, args)
            if t is not None:
                return t
        return None

    def _type_by_path(self, facts: FileFacts, text: str, name: str) -> Unit | None:
        """`proto::h1::Dispatcher<…>`: the one type of that name whose file lies under the
        directories the path spells (`…/proto/h1/…`), where the path's modules do not resolve."""
        head = text.split("<", 1)[0].replace("::", ".").split(".")
        dirs = [p for p in head[:-1] if p not in ("crate", "self", "super", "")]
        if not dirs or not name:
            return None
        spelled = "/" + "/".join(dirs) + "/"
        hits = [
            u for u in self.by_name().get(name, ())
            if u.kind in CLASS_KINDS and u.kind != "impl" and (spelled in "/" + u.path or ("/" + posixpath.splitext(u.path)[0]).endswith(spelled[:-1]))
        ]
        hits = [u for u in hits if not _is_test(u.path)] if not _is_test(facts.path) else hits
        return hits[0] if len(hits) == 1 else None

    def _alias_of(self, facts: FileFacts, name: str) -> str:
        """What a type alias declared in the file stands for (`type H1<T> = proto::Dispatcher<T>;`),
        "" when the file declares none of that name. An alias of itself is none."""
        aliases = self._aliases.get(facts.path)
        if aliases is None:
            spec = BY_NAME.get(facts.language)
            source = self.index.sources.get(facts.path, b"") if spec is not None and spec.type_alias is not None else b""
            aliases = self._aliases[facts.path] = {  # the first declaration of a name wins (`#[cfg]` variants)
                m.group(1).decode(): m.group(2).decode("utf-8", "replace").strip()
                for m in reversed(list(spec.type_alias.finditer(source)))
            } if b"type " in source else {}
        target = aliases.get(name, "")
        return target if target and last_segment(target) != name else ""

    def _held_type(self, facts: FileFacts, held: str) -> tuple[Unit | None, bool]:
        """The type a member or local holds: (type, made by a call)."""
        if not held.endswith("()"):
            return self._type_from_text(facts, held), False
        callee = held[:-2]
        resolver = self.index.resolver
        parts = [p for p in callee.replace("::", ".").split(".") if p]
        if not parts:
            return None, True
        head = resolver._lookup(facts, None, parts[0])
        for part in parts[1:]:
            head = resolver._member_of(head, part)
        if isinstance(head, Unit):
            if head.kind in CLASS_KINDS:
                return head, True
            if head.is_callable and head.returns:
                other = self.index.files.get(head.path)
                return (self._type_from_text(other, head.returns) if other is not None else None), True
            return None, True
        return self._type_named(facts.path, parts[-1]) if parts[-1][:1].isupper() else None, True

    def _member_type(self, t: Unit, name: str) -> tuple[Unit | None, str]:
        """What member `name` of type `t` (or of its supertypes) holds: (type, rule)."""
        resolver = self.index.resolver
        frontier, seen = [t], set()
        for _ in range(5):
            nxt = []
            for cur in frontier:
                if cur.id in seen:
                    continue
                seen.add(cur.id)
                held = next((h for n, h in cur.attrs if n == name), None)
                if held:
                    facts = self.index.files.get(cur.path)
                    if facts is None:
                        return None, ""
                    found, made = self._held_type(facts, held)
                    return found, ("attr-type" if made else "field-type")
                nxt += resolver.supertypes_of(cur)
            frontier = nxt
            if not frontier:
                break
        return None, ""

    def _local_type(self, facts: FileFacts, caller: Unit | None, local: str) -> tuple[Unit | None, str]:
        """`x = Foo()` / `x = f()` (f declared `-> Ctx`) in the same callable: x's type."""
        if caller is None:
            return None, ""
        ctx = self._ctx(facts.path)
        idxs = ctx.assigned.get((caller.id, local))
        if not idxs:
            return None, ""
        dsts = {ctx.call_dst.get(i) for i in idxs}
        if dsts == {None} and len(idxs) == 1:  # `let me = self.project()`: a view of what it is called on
            return self._view_type(facts, caller, _calls(facts)[idxs[0]])
        if len(dsts) != 1 or None in dsts:
            return None, ""
        target = self.index.resolver.units.get(next(iter(dsts)))  # type: ignore[arg-type]
        if target is None:
            return None, ""
        if target.kind == "constructor" and target.parent:
            return self.index.resolver.units.get(target.parent), "local-type"
        return self._made_by(target)

    def _receiver_type(self, facts: FileFacts, caller: Unit | None, steps: list[tuple[str, bool]]) -> tuple[Unit | None, str]:
        """The type a receiver holds (`self.session_interface`, `ctx`, `factories.get(i)`), and
        the rule that typed its last step."""
        resolver = self.index.resolver
        method, owner = self._enclosing(caller)
        self_words = {"self", "this", "Self"} | ({method.receiver} if method is not None and method.receiver else set())
        head, called = steps[0]
        t: Unit | None
        if called:
            hit = resolver._lookup(facts, caller, head)
            t, rule = self._made_by(hit)
        elif head in self_words:
            t, rule = owner, "self"
        else:
            declared = resolver._declared_type(caller, head)
            if declared:
                t, rule = self._type_from_text(facts, declared), "declared-type"
            else:
                t, rule = self._local_type(facts, caller, head)
                if t is None and owner is not None:
                    spec = BY_NAME.get(facts.language)
                    if spec is not None and spec.implicit_this and not self._is_local(facts, caller, head):
                        t, rule = self._member_type(owner, head)
                    elif spec is not None and spec.field_bindings and not self._is_local(facts, caller, head):
                        t, rule = self._field_binding(owner, head)
        views = self._self_views(facts)
        rest = steps[1:]
        while rest:
            (name, called), rest = rest[0], rest[1:]
            if t is None:
                return None, ""
            if called:  # `x.make()`: what make returns; `list.get(i)` on a container: its element
                m = resolver.find_member(t, name)
                if m is None and (rule != "self" or name in views):  # `self.as_mut()`: self itself
                    continue
                t, rule = self._made_by(m)
            elif rest and not rest[0][1] and self._member_type(t, f"{name}.{rest[0][0]}")[0] is not None:
                # `this.queues.request`: an entry of an object literal the member holds
                t, rule = self._member_type(t, f"{name}.{rest[0][0]}")
                rest = rest[1:]
            else:
                t, rule = self._member_type(t, name)
        return (t, rule) if t is not None else (None, "")

    def _self_views(self, facts: FileFacts) -> frozenset[str]:
        spec = BY_NAME.get(facts.language)
        return spec.self_views if spec is not None else frozenset()

    def _view_type(self, facts: FileFacts, caller: Unit | None, call: Call) -> tuple[Unit | None, str]:
        """The type a view call hands back (`self.project()`, `self.as_mut()`): its receiver's,
        when that type does not define the call itself."""
        if call.name not in self._self_views(facts) or not call.receiver:
            return None, ""
        steps = _segments(call.receiver)
        if steps is None or (steps[0][0], call.assigned_to) == (call.assigned_to, call.assigned_to):
            return None, ""  # `let x = x.as_ref()`: no self-reference
        t, rule = self._receiver_type(facts, caller, steps)
        if t is None or self.index.resolver.find_member(t, call.name) is not None:
            return None, ""
        return t, rule

    def _field_binding(self, owner: Unit, local: str) -> tuple[Unit | None, str]:
        """A local named like a field of the method's own type (or one of its enum variants'),
        destructured from self: that field's declared type."""
        t, rule = self._member_type(owner, local)
        return (t, "field-binding") if t is not None and rule == "field-type" else (None, "")

    def _made_by(self, hit) -> tuple[Unit | None, str]:
        """The type a call of `hit` makes: a type's instance, a callable's declared return type."""
        if not isinstance(hit, Unit):
            return None, ""
        if hit.kind in CLASS_KINDS:
            return hit, "local-type"
        if hit.is_callable and hit.returns:
            other = self.index.files.get(hit.path)
            return (self._type_from_text(other, hit.returns) if other is not None else None), "return-type"
        return None, ""

    def _is_local(self, facts: FileFacts, caller: Unit | None, name: str) -> bool:
        resolver = self.index.resolver
        assigned = self._ctx(facts.path).assigned
        cur = caller
        # a name assigned in a class body (`private val cache = Cache()`) is a member, not a local
        while cur is not None and not cur.is_type:
            if name in cur.param_names or (cur.id, name) in assigned or any(n == name for n, _ in cur.local_types):
                return True
            cur = resolver.units.get(cur.parent) if cur.parent else None
        return False

    # ---- the rules for one unknown call site ------------------------------------------------
    def targets(self, facts: FileFacts, call: Call) -> list[tuple[Unit, float, str]]:
        """Likely targets of one call site as if it were unknown, best first."""
        resolver = self.index.resolver
        caller = resolver.units.get(call.caller) if call.caller else None
        spec = BY_NAME.get(facts.language)
        if spec is not None and spec.super_name and spec.super_name in (call.name, call.receiver):
            return self._super_member(caller, call)
        if call.name not in self.by_name():  # defined nowhere: only a reference or a call protocol can lead anywhere
            if spec is None:
                return []
            if call.receiver and call.name in spec.value_calls:
                pass
            elif spec.call_protocol and (not call.receiver or call.receiver in ("self", "this")):
                pass
            else:
                return []
        if call.receiver:
            if spec is not None and call.name in spec.value_calls:  # `dispatch.bind(this)`: a reference
                receiver, _, name = call.receiver.rpartition(".")
                if name.isidentifier():
                    found = self.ref_targets(facts, call._replace(name=name, receiver=receiver))
                    if not found and not receiver and not self._is_local(facts, caller, name):
                        # `transform.call(config, fns)`: calls the function a bare name the resolver
                        # could not bind denotes (a default import), found like a bare call
                        found = [h for h in self._name_rules(facts, caller, call._replace(name=name, receiver="")) if h[2] in _NEAR_NAME_RULES]
                    return found
            member = self._module_member(facts, call.receiver, call.name) or self._imported_class_member(facts, call.receiver, call.name)
            if member:
                return member
            typed = self._receiver_rules(facts, caller, call, spec)
            if typed:
                return typed
        else:
            if spec is not None and spec.implicit_this and not call.construct:  # `foo()` in a method: this.foo()
                _, owner = self._enclosing(caller)
                base = [m for m in self._members_named(owner, call.name) if m.kind != "constructor"] if owner is not None else []
                base = self._overload(facts, call, base)
                if base and len(base) <= MAX_NAME_CANDIDATES:
                    conf = RULE_CONFIDENCE["base-method"] * _K_FACTOR[len(base)]
                    return [(m, conf, "base-method") for m in base]
            if spec is not None and spec.call_protocol:
                proto = self._protocol(facts, caller, call, spec)
                if proto:
                    return proto
        return self._name_rules(facts, caller, call)

    def _module_member(self, facts: FileFacts, receiver: str, name: str) -> list[tuple[Unit, float, str]]:
        """`mod.name()` where `mod` binds a whole imported module or its default export: the
        top-level callable `name` of the file the import resolved to."""
        if not receiver.isidentifier() or receiver in ("self", "this"):
            return []
        lines = {imp.line for imp in facts.imports if imp.name in ("", "*", "default") and (imp.alias or last_segment(imp.module)) == receiver}
        if not lines:
            return []
        b = self.index.bindings.get(facts.path)
        files = {e.dst for e in b.edges if e.kind == "imports" and e.line in lines} if b is not None else set()
        units = self.index.resolver.units
        found = [
            u for u in self.by_name().get(name, ())
            if u.path in files and u.is_callable and (not u.parent or units.get(u.parent) is None or units[u.parent].kind not in CLASS_KINDS)
        ]
        if not 0 < len(found) <= MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["module-member"] * _K_FACTOR[len(found)]
        return [(u, conf, "module-member") for u in found]

    def _super_member(self, caller: Unit | None, call: Call) -> list[tuple[Unit, float, str]]:
        """`super(…)` in a constructor runs the supertype's constructor; `super.close()` the
        supertype's `close` (the nearest one up the chain)."""
        method, owner = self._enclosing(caller)
        if owner is None:
            return []
        name = call.name if call.receiver else (method.name if method is not None else "")
        for base in self.index.resolver.supertypes_of(owner):
            m = self.index.resolver.find_member(base, name) if name else None
            if m is None and not call.receiver and base.kind in CLASS_KINDS:
                m = self.constructor(base)
            if m is not None and m.is_callable:
                return [(m, RULE_CONFIDENCE["super-call"], "super-call")]
        return []

    def _imported_class(self, facts: FileFacts, receiver: str) -> Unit | None:
        """The class an import binds to `receiver` (`import Axios from './core/Axios.js'`), when
        the imported file defines one class of that name."""
        if not receiver.isidentifier() or not receiver[:1].isupper():
            return None
        lines = {imp.line for imp in facts.imports if (imp.alias or imp.name) == receiver or (imp.name == "default" and imp.alias == receiver)}
        b = self.index.bindings.get(facts.path)
        files = {e.dst for e in b.edges if e.kind == "imports" and e.line in lines} if b is not None and lines else set()
        owners = [u for u in self.by_name().get(receiver, ()) if u.path in files and u.kind in CLASS_KINDS and not u.parent]
        return owners[0] if len(owners) == 1 else None

    def _prototype_member(self, facts: FileFacts, caller: Unit | None, ref: Call) -> list[tuple[Unit, float, str]]:
        """`bind(Axios.prototype.request, ctx)`: a JavaScript class's prototype holds its methods,
        so the reference hands over that method (the class defined or imported here)."""
        cls = ref.receiver.removesuffix(".prototype")
        if facts.language not in PROTOTYPE_LANGUAGES or cls == ref.receiver or not cls.isidentifier():
            return []
        hit = self.index.resolver._lookup(facts, caller, cls)
        owner = hit if isinstance(hit, Unit) and hit.kind in CLASS_KINDS else self._imported_class(facts, cls)
        if owner is None:
            return []
        source = self.index.sources.get(owner.path, b"")
        # the prototype holds the instance methods, not the static ones
        found = [m for m in self.index.resolver.members_of(owner).get(ref.name, []) if m.is_callable and not _STATIC.match(source, m.start_byte)]
        return [(found[0], RULE_CONFIDENCE["method-value"], "method-value")] if len(found) == 1 else []

    def _imported_class_member(self, facts: FileFacts, receiver: str, name: str) -> list[tuple[Unit, float, str]]:
        """`Headers.concat(a, b)` where `Headers` is an import binding the class of that name in
        the imported file: a call on the class itself, so its static member when it has one."""
        owner = self._imported_class(facts, receiver)
        if owner is None:
            return []
        found = [m for m in self.index.resolver.members_of(owner).get(name, []) if m.is_callable]
        source = self.index.sources.get(owner.path, b"")
        static = [m for m in found if _STATIC.match(source, m.start_byte)]
        found = static or found
        if not 0 < len(found) <= MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["class-member"] * _K_FACTOR[len(found)]
        return [(m, conf, "class-member") for m in found]

    def _protocol(self, facts: FileFacts, caller: Unit | None, call: Call, spec: LanguageSpec) -> list[tuple[Unit, float, str]]:
        """`handler(x)` where `handler` holds an object: the object's call protocol method."""
        t, _ = self._receiver_type(facts, caller, [(call.name, False)]) if call.name not in ("self", "this") else (None, "")
        return self._protocol_of(t, spec)

    def _protocol_of(self, t: Unit | None, spec: LanguageSpec) -> list[tuple[Unit, float, str]]:
        if t is None or t.kind not in CLASS_KINDS:
            return []
        resolver = self.index.resolver
        for pname in spec.call_protocol:
            m = resolver.find_member(t, pname)
            found = ([m] if m is not None else []) + [x for x in self.overrides(t, pname) if x is not m]
            if found and len(found) <= MAX_DISPATCH:
                conf = RULE_CONFIDENCE["protocol-call"] / len(found) ** 0.5
                return [(x, conf, "protocol-call") for x in found]
        return []

    def _receiver_rules(self, facts: FileFacts, caller: Unit | None, call: Call, spec: LanguageSpec | None) -> list[tuple[Unit, float, str]]:
        resolver = self.index.resolver
        steps = _segments(_unwrapped(call.receiver, spec.wrapper_calls if spec is not None else ()))
        if steps is None:
            return []
        if len(steps) == 1 and steps[0] == ("this", False) and self._enclosing(caller)[1] is None:
            # `this.m()` in an object literal or a class the index has no unit for (`module.exports =
            # class …`): a callable of that name in the same file
            local = [u for u in self.by_name().get(call.name, ()) if u.path == facts.path and u.is_callable and u.id != call.caller]
            if 0 < len(local) <= MAX_NAME_CANDIDATES:
                conf = RULE_CONFIDENCE["same-file"] * _K_FACTOR[len(local)]
                return [(u, conf, "same-file") for u in local]
        t, rule = self._receiver_type(facts, caller, steps)
        if t is not None:
            if rule == "self":  # self.m() the resolver could not bind
                # defined more than once in the type or its bases (a getter and a setter, a
                # conditional definition): each of them
                base = self._overload(facts, call, self._members_named(t, call.name))
                if base and len(base) <= MAX_NAME_CANDIDATES:
                    conf = RULE_CONFIDENCE["base-method"] * _K_FACTOR[len(base)]
                    return [(m, conf, "base-method") for m in base]
                # not defined in the type: a template method implemented below
                out = [(m, conf, "subtype-method") for m, conf in self._family(t, call.name, facts.path)]
                if out:
                    return out
                # `self.handler(…)` where handler is a member holding an object
                held, _ = self._member_type(t, call.name)
                if held is not None and spec is not None:
                    return self._protocol_of(held, spec)
                return self._name_rules(facts, caller, call)  # a member set from outside: by name
            m = self._member(t, call.name)
            out: list[tuple[Unit, float, str]] = []
            if m is not None and m.is_callable:
                out.append((m, RULE_CONFIDENCE[rule], rule))
                owner = resolver.units.get(m.parent) if m.parent else None
                if owner is not None:
                    out += [(x, c, "family-dispatch") for x, c in self._family(owner, call.name, facts.path) if x.id != m.id]
            else:
                out += [(x, c * RULE_CONFIDENCE[rule], "family-dispatch") for x, c in self._family(t, call.name, facts.path)]
                if not out:
                    held, _ = self._member_type(t, call.name)
                    if held is not None and spec is not None:
                        out = self._protocol_of(held, spec)
            if out:
                return out
        return self._receiver_name(facts, call, steps[-1][0])

    def _overload(self, facts: FileFacts, call: Call, cands: list[Unit]) -> list[Unit]:
        """Among overloads (`execute(request)` delegating to `execute(request, type)`), those
        that can take as many arguments as the call passes (more parameters may have defaults),
        when any can."""
        if len(cands) < 2:
            return cands
        n = _arity(self.index.sources.get(facts.path, b""), call)
        fit = [u for u in cands if u.params < 0 or u.params >= n]
        return fit if n >= 0 and fit else cands

    def _members_named(self, t: Unit, name: str) -> list[Unit]:
        """Callables named `name` in `t` or, when it has none, in its nearest supertypes."""
        resolver = self.index.resolver
        frontier, seen = [t], set()
        for _ in range(6):
            found: list[Unit] = []
            nxt: list[Unit] = []
            for cur in frontier:
                if cur.id in seen:
                    continue
                seen.add(cur.id)
                found += [m for m in resolver.members_of(cur).get(name, []) if m.is_callable]
                nxt += resolver.supertypes_of(cur)
            if found:
                return found
            frontier = nxt
            if not frontier:
                break
        return []

    def _receiver_name(self, facts: FileFacts, call: Call, last: str) -> list[tuple[Unit, float, str]]:
        """Receiver-name ↔ type-name: `session_interface.save_session` → `…SessionInterface.save_session`."""
        last = last.strip("_")
        if len(last) < 4 or not last.replace("_", "").isalnum():
            return []
        key = (_norm(last), call.name)
        hits = self._memo_rn.get(key)
        if hits is None:
            hits = self._memo_rn[key] = self._find_receiver_name(*key)
        if not hits:
            return []
        hits = self._best_tier(facts.path, hits)
        if not hits or len(hits) > MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["receiver-name"] * _K_FACTOR[len(hits)]
        return [(m, conf, "receiver-name") for m in hits]

    def _find_receiver_name(self, key: str, name: str) -> list[Unit]:
        """Methods named `name` whose type (or a type below it that inherits them) is named like
        the receiver (normalized: `session_interface` ~ `SecureCookieSessionInterface`)."""
        table = self._method_owner_names.get(name)
        if table is None:
            units, sub = self.index.resolver.units, self.subtypes()
            table = []
            for m in self.by_name().get(name, ()):
                owner = units.get(m.parent) if m.is_callable and m.parent else None
                if owner is None or owner.kind not in CLASS_KINDS:
                    continue
                names = {_norm(owner.name)} | {_norm(units[x].name) for x in sub.get(owner.id, ()) if x in units}
                table.append((m, tuple(names)))
            self._method_owner_names[name] = table
        return [m for m, norms in table if any(n.endswith(key) or (len(n) >= 5 and key.endswith(n)) for n in norms)]

    # ---- references: functions handed over as values -----------------------------------------
    def ref_targets(self, facts: FileFacts, ref: Call) -> list[tuple[Unit, float, str]]:
        if ref.name not in self.by_name():
            return []
        resolver = self.index.resolver
        caller = resolver.units.get(ref.caller) if ref.caller else None
        if not ref.receiver:
            cur = caller
            while cur is not None:  # a parameter or a local of that name is a value, not the function
                if ref.name in cur.param_names or (cur.id, ref.name) in self._ctx(facts.path).assigned:
                    return []
                cur = resolver.units.get(cur.parent) if cur.parent else None
            hit = resolver._lookup(facts, caller, ref.name)
            if isinstance(hit, Unit) and hit.is_callable:
                return [(hit, RULE_CONFIDENCE["callback-ref"], "callback-ref")]
            return []
        proto = self._prototype_member(facts, caller, ref)
        if proto:
            return proto
        steps = _segments(ref.receiver)
        if steps is None:
            return []
        parts = [name for name, _ in steps]
        t, rule = self._receiver_type(facts, caller, steps) if not any(called for _, called in steps) else (None, "")
        if t is None:  # a module, package or type named explicitly (`mod.handler`, `Foo::bar`)
            head = resolver._lookup(facts, caller, parts[0])
            for part in parts[1:]:
                head = resolver._member_of(head, part)
            if isinstance(head, Unit) and head.kind in CLASS_KINDS:
                t = head
            elif isinstance(head, tuple):
                m = resolver._member_of(head, ref.name)
                if isinstance(m, Unit) and m.is_callable:
                    return [(m, RULE_CONFIDENCE["callback-ref"], "callback-ref")]
                return []
        if t is None:
            if len(parts) == 1 and parts[0] in ("this", "self"):  # `this` of an object or class the index has no unit for
                local = [u for u in self.by_name().get(ref.name, ()) if u.path == facts.path and u.is_callable]
                if len(local) == 1:
                    return [(local[0], RULE_CONFIDENCE["method-value"] * 0.9, "method-value")]
            return []
        m = resolver.find_member(t, ref.name)
        if m is None or not m.is_callable:
            return []
        out = [(m, RULE_CONFIDENCE["method-value"], "method-value")]
        owner = resolver.units.get(m.parent) if m.parent else None
        if owner is not None:
            out += [(x, c, "family-dispatch") for x, c in self._family(owner, ref.name, facts.path) if x.id != m.id]
        return out

    def _name_rules(self, facts: FileFacts, caller: Unit | None, call: Call) -> list[tuple[Unit, float, str]]:
        key = (facts.path, call.name, call.construct, bool(call.receiver))
        hit = self._memo_names.get(key)
        if hit is None:
            hit = self._memo_names[key] = self._find_by_name(facts, call)
        return [h for h in hit if caller is None or h[0].id != caller.id]

    def _find_by_name(self, facts: FileFacts, call: Call) -> list[tuple[Unit, float, str]]:
        defs = self.by_name().get(call.name)
        if not defs:
            return []
        if call.construct:
            cands = [u for u in defs if u.kind in CLASS_KINDS]
        else:
            if call.receiver:  # a member call on something untyped: methods (a module's functions are resolved)
                cands = [u for u in defs if u.kind == "method"]
            else:  # a bare name: functions and types (a method named bare is resolved inside its type)
                cands = [u for u in defs if u.kind == "function" or u.kind in CLASS_KINDS]
        if not cands:
            return []
        total = len(cands)
        best = self._best_tier(facts.path, cands, with_tier=True)
        if not best:
            return []
        tier, hits = best
        if len(hits) > MAX_NAME_CANDIDATES:
            return []
        if tier == 0:
            rule = "same-file"
        elif tier == 1:
            rule = "import-reach"
        elif total == 1 or len(hits) == total:
            rule = "unique-name" if tier >= 3 else "same-package"
        else:
            rule = "same-package" if tier == 2 else "unique-name"
        if tier >= 3 and total > MAX_NAME_CANDIDATES:
            return []
        if call.receiver:  # a member call on something untyped: often a library's or a builtin's method
            rule = "member-" + rule
            if rule not in RULE_CONFIDENCE:  # beyond the caller's file and its imports: measured noise (≤ 0.06)
                return []
        conf = RULE_CONFIDENCE[rule] * _K_FACTOR[len(hits)]
        out = []
        for u in hits:
            if u.kind in CLASS_KINDS:
                u = self.constructor(u) or u
            out.append((u, conf, rule))
        return out

    def _best_tier(self, path: str, cands: list[Unit], with_tier: bool = False):
        """The candidates in the best locality tier (`_tier`). Test files never serve a non-test
        caller; main source beats examples/docs/benchmarks and compiled copies."""
        caller_test = _is_test(path)
        cands = [u for u in cands if caller_test or not _is_test(u.path)]
        if not cands:
            return None if with_tier else []
        # a caller in examples/ or a compiled copy may use its own kind of file: only a kind
        # below the caller's own ranks lower
        own = _secondary(path)
        ranks = [max(0, _secondary(u.path) - own) for u in cands]
        least = min(ranks)
        cands = [u for u, r in zip(cands, ranks) if r == least]
        seen = self._memo_tier.get(path)
        if seen is None:
            seen = self._memo_tier[path] = {}
        tiers = []
        for u in cands:  # many candidates share a file (methods of one name): one tier per file
            t = seen.get(u.path)
            if t is None:
                t = seen[u.path] = self._find_tier(path, u.path)
            tiers.append(t)
        best = min(tiers)
        hits = [u for t, u in zip(tiers, cands) if t == best]
        return (best, hits) if with_tier else hits

    def _tier(self, path: str, u: Unit) -> int:
        """Locality of a definition seen from `path`: same file (0), a file `path` imports (1),
        same directory or package (2), same top-level tree (3), anywhere (4)."""
        seen = self._memo_tier.get(path)
        if seen is None:
            seen = self._memo_tier[path] = {}
        hit = seen.get(u.path)
        if hit is None:
            hit = seen[u.path] = self._find_tier(path, u.path)
        return hit

    def _find_tier(self, path: str, other_path: str) -> int:
        if other_path == path:
            return 0
        if other_path in self.imported_files(path):
            return 1
        if _dirname(other_path) == _dirname(path):
            return 2
        files = self.index.files
        facts = files.get(path)
        if facts is not None and facts.package:
            other = files.get(other_path)
            if other is not None and other.package == facts.package and other.language == facts.language:
                return 2
        if other_path.split("/", 1)[0] == path.split("/", 1)[0]:
            return 3
        return 4

    # ---- incoming --------------------------------------------------------------------------
    def _may_land(self, facts: FileFacts, path: str, names: set[str], into_dsts: set[str]) -> bool:
        """Whether into() can find an edge in a file: a resolved call edge into the unit's
        family, or an unresolved call or a reference (with a caller) naming one of `names`
        (by its name or the last step of its receiver). The names come from a table per file,
        built once per version without the file's context (no call records, no rows for the
        resolved calls)."""
        b = self.index.bindings[path]
        if any(e.dst in into_dsts for e in b.edges):
            return True
        landing = self._landing.get(path)
        if landing is None:
            found: set[str] = set()
            calls, unresolved = facts.calls, b.unresolved
            if (
                isinstance(calls, DeferredCalls) and isinstance(facts.refs, DeferredCalls)
                and not calls.may_hold(names) and not facts.refs.may_hold(names)
            ):
                return False  # no call or reference anywhere in the file names the unit (a byte search)
            rows = calls.raw_rows() if unresolved and isinstance(calls, DeferredCalls) else None
            if rows is not None:  # a cached file's calls stay undecoded
                for i in unresolved:
                    row = rows[i]
                    if row[0] >= 0:
                        found.add(row[1])
                        found.add(row[2].rpartition(".")[2])
                if not found.isdisjoint(names):
                    calls.materialize(rows)  # its context is read next: no second decode
            else:
                for i in unresolved:
                    c = calls[i]
                    if c.caller:
                        found.add(c.name)
                        found.add(c.receiver.rpartition(".")[2])
            refs = facts.refs
            rows = refs.raw_rows() if isinstance(refs, DeferredCalls) else None
            if rows is not None:
                found.update(row[1] for row in rows if row[0] >= 0)
            else:
                found.update(r.name for r in refs if r.caller)
            landing = self._landing[path] = frozenset(found)
        return not landing.isdisjoint(names)

    def _compute_into(self, unit_id: str) -> list[Likely]:
        """Every likely and resolved edge into a unit: only the files that can call it are read
        (`_into_files`), and in them only the sites that can land on it (`_edges_into`)."""
        resolver = self.index.resolver
        unit = resolver.units.get(unit_id)
        if unit is None:
            return []
        names, files, full, family = self._into_files(unit)
        found: list[Likely] = []
        for path in sorted(files | full):
            facts = self.index.files.get(path)
            if facts is None or path not in self.index.bindings:
                continue
            if path in full:
                for u in facts.units:
                    found += [e for e in self._unit_out(u.id) if e.dst == unit_id]
            elif path in self._ctxs or self._may_land(facts, path, names, family | ({unit.parent} if unit.kind == "constructor" and unit.parent else set())):
                found += self._edges_into(unit, facts, names, family)
        out: list[Likely] = []
        seen: set[tuple[str, int]] = set()
        for e in found:  # in the order out() adds them: the first edge of a site wins there too
            if (e.src, e.line) not in seen:
                seen.add((e.src, e.line))
                out.append(e)
        out.sort(key=lambda e: (-e.confidence, e.src, e.line))
        return out

    def _into_files(self, unit: Unit) -> tuple[set[str], set[str], set[str], set[str]]:
        """(the names a call into `unit` writes, the files that may hold such calls, the files
        whose every site counts (a protocol method's: the call names a member holding the
        object, not the method), the unit and the base methods it overrides)."""
        resolver = self.index.resolver
        names = {unit.name}
        parent = resolver.units.get(unit.parent) if unit.parent else None
        anchors: set[str] = set()  # names a likely caller's file tends to mention: the unit's type and its family
        protocol: set[str] = set()
        if parent is not None:
            spec = BY_NAME.get(self.index.files[unit.path].language) if unit.path in self.index.files else None
            protocol = set(spec.call_protocol) | {m for _, m in spec.construct_protocol} if spec is not None else set()
            # a constructor is reached by naming its type; a protocol method by holding or building one
            if unit.kind == "constructor" or unit.name in protocol:
                names.add(parent.name)
            if parent.kind in CLASS_KINDS:
                anchors.add(parent.name)
                anchors.update(t.name for t in resolver.supertypes_of(parent))
                anchors.update(resolver.units[x].name for x in self.subtypes().get(parent.id, ()) if x in resolver.units)
        below, super_name = self._subtype_files(unit, parent)
        files: set[str] = {unit.path} | below
        for src, _, _ in self.index.graph.inc(unit.id):
            su = resolver.units.get(src)
            if su is not None:
                files.add(su.path)
        candidates: set[str] = set()
        for name in names:
            candidates |= resolver.refs.get(name, set())
        candidates -= files
        near: set[str] = set()
        for a in anchors:
            near |= resolver.refs.get(a, set())
        if len(candidates) > MAX_INTO_FILES:
            # a common name (`get`, `run`): keep the files that also name the unit's type or family,
            # import its file or sit beside it
            here = _dirname(unit.path)

            def rank(p: str) -> tuple:
                return (
                    p not in near and unit.path not in self.imported_files(p) and _dirname(p) != here,
                    _is_test(p) and not _is_test(unit.path),
                    _secondary(p),
                    p,
                )

            candidates = set(sorted(candidates, key=rank)[:MAX_INTO_FILES])
        family = {unit.id}
        if unit.kind == "method" and parent is not None and parent.kind in CLASS_KINDS:
            family |= {m.id for t in resolver.supertypes_of(parent) for m in resolver.members_of(t).get(unit.name, [])}
        full: set[str] = set()
        if unit.kind == "statement" and unit.stmt_kind == "table":
            full = {unit.path}  # read by index (`table[key]`), which no call or reference records
        if unit.name in protocol:
            full = {unit.path} | set(sorted(near, key=lambda p: (_is_test(p), _secondary(p), p))[:MAX_INTO_FILES])
        if super_name:
            names.add(super_name)  # after the name lookups: `super` is written in most files
        return names, files | candidates, full, family

    def _subtype_files(self, unit: Unit, parent: Unit | None) -> tuple[set[str], str]:
        """A type's member is reached by `super(…)` / `super.m()` in its subtypes' files: those
        files, and the language's super name (a name a call into the member writes there)."""
        if parent is None or parent.kind not in CLASS_KINDS or not unit.is_callable:
            return set(), ""
        spec = BY_NAME.get(self.index.files[unit.path].language) if unit.path in self.index.files else None
        subtypes = self.subtypes().get(parent.id, ()) if spec is not None and spec.super_name else ()
        if not subtypes:
            return set(), ""
        units = self.index.resolver.units
        return {units[x].path for x in subtypes if x in units}, spec.super_name

    def _edges_into(self, unit: Unit, facts: FileFacts, names: set[str], family: set[str]) -> list[Likely]:
        """The edges of one file into `unit`: resolved edges into it or a method it overrides,
        unresolved calls and references naming it; a closure's edges are its enclosing
        callables' too."""
        unit_id = unit.id
        ctx = self._ctx(facts.path)
        here: list[Likely] = []
        for src, edges in ctx.resolved_by_src.items():
            for e in edges:
                if e.dst in family or (e.dst == unit.parent and unit.kind == "constructor"):
                    here += [x for x in self._unit_out(src) if x.dst == unit_id]
                    break
        calls = _calls(facts)
        for caller, idxs in ctx.unresolved_by_caller.items():
            for i in idxs:
                c = calls[i]
                if c.name not in names and c.receiver.rpartition(".")[2] not in names:
                    continue
                key = (caller, c.receiver, c.name, c.construct)
                hit = ctx.memo.get(key)
                if hit is None:
                    hit = ctx.memo[key] = self.targets(facts, c)
                here += [Likely(caller, d.id, c.line, round(conf, 3), rule) for d, conf, rule in hit if d.id == unit_id and caller != unit_id]
        for caller, refs in ctx.refs_by_caller.items():
            for r in refs:
                if r.name in names:
                    here += [Likely(caller, d.id, r.line, round(conf, 3), rule) for d, conf, rule in self.ref_targets(facts, r) if d.id == unit_id and caller != unit_id]
        units = self.index.resolver.units
        for e in list(here):
            cur = units.get(e.src)
            while cur is not None and cur.is_callable and cur.parent:
                up = units.get(cur.parent)
                if up is None or not up.is_callable or up.id == unit_id:
                    break
                here.append(e._replace(src=up.id))
                cur = up
        return here


_build_lock = threading.Lock()


def likely_graph(index: "RootIndex") -> LikelyGraph:
    """The ranked graph of one index version (memoized on the index)."""
    hit = index.memo.get("likely")
    if hit is not None and hit.version == index.version:  # type: ignore[attr-defined]
        return hit  # type: ignore[return-value]
    with _build_lock:
        hit = index.memo.get("likely")
        if hit is not None and hit.version == index.version:  # type: ignore[attr-defined]
            return hit  # type: ignore[return-value]
        graph = LikelyGraph(index)
        index.memo["likely"] = graph
        return graph
