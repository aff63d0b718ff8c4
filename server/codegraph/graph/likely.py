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
  `method-value`; `fn.bind(this)`), an accessor read as a property (`accessor-read`: accessors.py),
  a Python definition named by its import path in a string (`import-path`: paths.py)
- extension functions: `x.f()` reaching `fun T.f()` (`extension-call`), and an extension's body
  typed as its extended type's (extension.py)
- values called: a parameter called reaches the functions its resolved callers pass in its place
  (`handed-in`), a local made by a resolved call the nested function that maker returns
  (`returned-function`); neither is ever guessed by its name elsewhere
- guards: no member-name guess on a receiver known to hold a builtin's or a library's value
  (foreign.py); no name guess for a name bound by a library import, nor a closure of another
  function as a target; a declared project type without the member gets no guess; `super`
  calls and private methods (`#m`, `private`, Python's `__m`) do not dispatch down
Test files never serve non-test callers; sources beat examples/docs and compiled copies.
Closures' edges count for their enclosing callable too.

Lazy per unit: `out()` evaluates one unit's sites (and its closures'); `into()` asks the
resolver's reverse name index which files name the unit and evaluates only the sites there
that can land on it. Nothing decodes every file's calls up front.
"""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict
from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, Call, FileFacts, Unit
from ..languages import BY_NAME
from ..languages.spec import LanguageSpec
from .structural import dispatch_subtypes
from .rules import CTOR_NAMES, Likely, MAX_DISPATCH, MAX_NAME_CANDIDATES, RULE_CONFIDENCE, MAX_NARROW_DISPATCH, _FileCtx, _FileState, _K_FACTOR, _NEAR_NAME_RULES, _arity, _calls, _indexed, _is_test, _norm, _secondary, _segments, _unwrapped  # noqa: F401 (CTOR_NAMES, RULE_CONFIDENCE: the module's public names)
from .accessors import AccessorReads
from .extension import ExtensionRules
from .foreign import ForeignValues
from .into import IntoGraph
from .names import NameRules
from .paths import ImportPaths
from .guards import Guards
from .imported import ImportedReceivers
from .typed import TypedReceivers

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex

_TYPED_RULES = frozenset({"attr-type", "field-type", "declared-type", "local-type", "return-type", "param-flow"})
_DECLARED_RULES = frozenset({"declared-type", "field-type"})  # a type written in the code, not inferred


class LikelyGraph(TypedReceivers, NameRules, ExtensionRules, AccessorReads, ImportPaths, ImportedReceivers, ForeignValues, Guards, IntoGraph):
    def __init__(self, index: "RootIndex") -> None:
        # A proxy, not a reference: the graph lives in index.memo, and a cycle would keep a
        # dropped index alive (its build freezes memory out of the cyclic GC's scans).
        self.index = weakref.proxy(index)
        self.version = index.version
        self._lock = threading.RLock()
        self._into: dict[str, list[Likely]] = {}
        # what was asked, least recent first — (True, unit) its callers, (False, unit) its edges: the
        # working set a new version computes again ahead of the next question (explore/warm.py)
        self.asked: dict[tuple[bool, str], None] = {}
        self._by_name: dict[str, list[Unit]] | None = None
        self._subtypes: dict[str, set[str]] | None = None
        self._imported: dict[str, frozenset[str]] = {}
        self._ctor: dict[str, Unit | None] = {}
        self._overrides: dict[tuple[str, str], list[Unit]] = {}
        self._ctxs: dict[str, _FileCtx] = {}
        self._outs: dict[str, list[Likely]] = {}
        self._memo_types: dict[tuple[str, str], Unit | None] = {}
        self._memo_texts: dict[tuple[str, str], Unit | None] = {}  # (path, written type) → its type unit
        self._aliases: dict[str, dict[str, str]] = {}  # path → type alias name → what it stands for
        self._memo_tier: dict[str, dict[str, int]] = {}  # caller path → definition path → tier
        self._landing: dict[str, frozenset[str]] = {}  # path → names its unresolved calls and references can land on
        self._memo_rn: dict[tuple[str, str], list[Unit]] = {}
        self._method_owner_names: dict[str, list[tuple[Unit, tuple[str, ...]]]] = {}
        self._memo_names: dict[tuple[str, str, bool, bool], list[tuple[Unit, float, str]]] = {}
        self._extensions: dict[str, list[Unit]] | None = None
        self._memo_actuals: dict[str, list[Unit]] = {}  # an `expect` type → its actual declarations and the types below them
        self._accessor_tables: dict[tuple[str, str], tuple] = {}  # (type or object, name of `this`) → accessors, their reads' pattern
        self._accessor_reads: dict[str, list[tuple[Unit, int]]] = {}
        self._typing: set[tuple[str, str]] = set()  # locals being typed through a likely call (a guard)
        self._memo_flow: dict[tuple[str, str], Unit | None] = {}  # (type id, member) → the type its constructions pass in
        self._constructs: dict[str, list[tuple[FileFacts, int, Call]]] = {}  # type name → its constructions (param-flow)
        self._flowing = 0  # param-flow's depth (graph/typed.py)
        self._flow_stack: list[tuple[str, str]] = []
        # what receivers and names hold (graph/foreign.py)
        self._memo_foreign: dict[tuple[str, str], str] = {}  # (caller, receiver) → "exact" / "declared" / ""
        self._memo_bindings: dict = {}  # path → where its source binds which names
        self._memo_holes: dict[str, tuple] = {}  # callable → the spans of the callables nested in it
        self._memo_holes_done: set[str] = set()  # paths whose units filled _memo_holes
        self._memo_imports: dict[tuple[str, str], str | None] = {}  # (path, name) → what the imports binding it say
        self._memo_generics: dict[str, frozenset[str]] = {}  # unit → the type parameters its signature declares
        self._memo_variadic: dict[str, frozenset[str]] = {}  # callable → its variadic parameters
        self._memo_extends: dict[str, bool] = {}  # method name → the project adds it to a type it does not define
        self._memo_implements: dict[str, bool] = {}  # type → it (or a type above it) implements a library type
        self._memo_private: dict[tuple[str, str], bool] = {}  # (type, method name) → private there (graph/guards.py)
        self._defined_type_names: frozenset[str] | None = None  # supertypes the project's types name
        self._memo_aliases: dict[tuple[str, str], bool] = {}  # (path, name) → a type alias of the project seen from there
        self._project_path_names: frozenset[str] | None = None  # directory and file names of the project
        self._module_roots: dict[str, frozenset[str]] = {}  # language → first segments of its module names
        # values called (graph/typed.py, graph/names.py)
        self._memo_handed: dict[tuple[str, str], list[Unit]] = {}  # (function, parameter) → the functions its callers pass there
        self._memo_returned: dict[str, list[Unit]] = {}  # function → the nested functions it returns by name
        self._memo_closure: dict[str, bool] = {}  # nested unit → local to its function
        self._memo_default_build: dict[str, bool | None] = {}  # path → a default build compiles it (names.py)
        # definitions named by import path in Python strings (graph/paths.py)
        self._memo_paths: dict[str, Unit | None] = {}  # path text → the definition it names
        self._memo_path_attrs: dict[str, dict[str, Unit]] = {}  # class → its attributes holding import paths
        self._by_path: dict[str, set[str]] | None = None  # definition → the units that may name it by path
        self._walk_order: list[str] | None = None  # walk_order()

    # ---- public ------------------------------------------------------------------------
    def out(self, unit_id: str, wide: bool = False) -> list[Likely]:
        """The unit's edges, best first. `wide-dispatch` edges (one override of nine or more) only
        when asked: the call hierarchy lists a whole family, the selection walks leave them out
        (one implementation of many is rarely the step a question follows)."""
        self._asked(False, unit_id)
        hit = self.prefill_out(unit_id)
        return list(hit) if wide else [e for e in hit if e.rule != "wide-dispatch"]

    def prefill_out(self, unit_id: str) -> list[Likely]:
        """The unit's edges computed (all of them) without counting as asked."""
        hit = self._outs.get(unit_id)
        if hit is None:
            with self._lock:
                hit = self._unit_out(unit_id)
        return hit

    def into(self, unit_id: str, wide: bool = False) -> list[Likely]:
        self._asked(True, unit_id)
        hit = self.prefill_into(unit_id)
        return list(hit) if wide else [e for e in hit if e.rule != "wide-dispatch"]

    def prefill_into(self, unit_id: str) -> list[Likely]:
        """The unit's callers computed (all of them, `wide-dispatch` too) without counting as asked."""
        hit = self._into.get(unit_id)
        if hit is None:
            with self._lock:
                hit = self._into.get(unit_id)
                if hit is None:
                    hit = self._into[unit_id] = self._compute_into(unit_id)
        return hit

    def walk_order(self) -> list[str]:
        """The units a question may walk, main path first (examples and docs next, declarations
        and compiled copies last) — the order into() reads callers' files in; tests left to the
        questions that include them."""
        if self._walk_order is None:
            units = [u for u in self.index.resolver.units.values() if u.kind != "impl" and not _is_test(u.path)]
            units.sort(key=lambda u: (_secondary(u.path), u.path, u.start_line, u.id))
            self._walk_order = [u.id for u in units]
        return self._walk_order

    def _asked(self, callers: bool, unit_id: str) -> None:
        key = (callers, unit_id)
        self.asked.pop(key, None)  # to the end: the most recent
        self.asked[key] = None

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
        """Type unit id → ids of the types a call through it may run (`structural.dispatch_subtypes`)."""
        if self._subtypes is None:
            self._subtypes = dispatch_subtypes(self.index)
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
            for a in self._actuals(t):  # an `expect` type: its actual declarations and the types below them
                if a.id not in seen:
                    found += [m for m in self.index.resolver.members_of(a).get(name, []) if m.is_callable]
                seen.add(a.id)
                frontier.append(a.id)
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
            if dst.kind == "method" and not self._static_site(ctx.static_sites.get((src, e.line, e.dst)), dst):
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
        for dst, line in self._import_paths(unit, facts):
            add(src, dst, line, RULE_CONFIDENCE["import-path"], "import-path")
        if unit.is_callable:
            for dst, line in self._tables_read(unit, facts):
                add(src, dst, line, RULE_CONFIDENCE["table-lookup"], "table-lookup")
            for dst, line in self._members_read(unit, ctx, spec):
                add(src, dst, line, RULE_CONFIDENCE["member-read"], "member-read")
            for dst, line in self._accessors_read(unit, facts):
                add(src, dst, line, RULE_CONFIDENCE["accessor-read"], "accessor-read")
        return out

    def _members_read(self, unit: Unit, ctx: _FileCtx, spec: LanguageSpec | None) -> list[tuple[Unit, int]]:
        """Property units of the method's own type its calls go through (`this.cache.get(k)`, or
        `components.x()` where a bare name can be a member): the member is read there."""
        receivers = ctx.receivers_by_caller.get(unit.id)
        if not receivers or spec is None:
            return []
        method, owner = self._enclosing(unit)
        if owner is None or method is None:
            return []
        members = self.index.resolver.members_of(owner)
        out: list[tuple[Unit, int]] = []
        for receiver, line in receivers.items():
            head, _, rest = receiver.replace("?.", ".").replace("!!", "").partition(".")
            if head in ("this", "self") or (method.receiver and head == method.receiver):
                head = rest.partition(".")[0]
            elif not spec.implicit_this or head in unit.param_names or (unit.id, head) in ctx.assigned or head in dict(unit.local_types):
                # a parameter or a local of that name shadows the member: what its type holds
                out += self._typed_member_read(unit, receiver, line)
                continue
            found = [m for m in members.get(head, ()) if m.kind in ("variable", "object")]
            if len(found) == 1:
                out.append((found[0], line))
            elif not found:
                out += self._typed_member_read(unit, receiver, line)
        return out

    def _typed_member_read(self, unit: Unit, receiver: str, line: int) -> list[tuple[Unit, int]]:
        """`imageLoader.components.newX()` where `imageLoader` holds a known type: that type's
        property unit `components` is read there."""
        steps = _segments(receiver)
        if steps is None or len(steps) < 2 or steps[0][1] or steps[1][1]:
            return []
        facts = self.index.files[unit.path]
        t, _ = self._receiver_type(facts, unit, steps[:1])
        if t is None:
            return []
        resolver, name = self.index.resolver, steps[1][0]
        found = [m for m in resolver.members_of(t).get(name, ()) if m.kind in ("variable", "object")]
        if not found and not resolver.members_of(t).get(name):  # declared by an interface: the one type below that holds it
            units = resolver.units
            below = [units[x] for x in sorted(self.subtypes().get(t.id, ())) if x in units]
            found = [m for b in below for m in resolver.members_of(b).get(name, ()) if m.kind in ("variable", "object")]
        return [(found[0], line)] if len(found) == 1 else []

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
        for m, conf, rule in self._family(owner, method.name, self.index.resolver.units[src].path if src in self.index.resolver.units else ""):
            add(src, m, line, conf, rule)

    def _family(self, owner: Unit, name: str, caller_path: str, narrow: str = "family-dispatch") -> list[tuple[Unit, float, str]]:
        """The overrides a call on `owner.name` may run, each at 0.5/√n: rule `narrow` for up to
        MAX_NARROW_DISPATCH of them, `wide-dispatch` for a wider family (up to MAX_DISPATCH), which
        explore's flow walk leaves out (one of many is rarely the step a question follows)."""
        if self._private(owner, name):  # `#locate()`, `private void locate()`: never overridden
            return []
        found = [m for m in self.overrides(owner, name) if not _is_test(m.path) or _is_test(caller_path)]
        if not found or len(found) > MAX_DISPATCH:
            return []
        conf = RULE_CONFIDENCE["family-dispatch"] / len(found) ** 0.5
        rule = narrow if len(found) <= MAX_NARROW_DISPATCH else "wide-dispatch"
        return [(m, conf, rule) for m in found]

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
        if owner is None and method is None:
            method, owner = self._extended(caller)
        return method, owner

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
                    if found:
                        return found
                # no function behind the receiver: an object's own `apply`/`call` method
                # (`this.controller.apply(…)`), when its type is known, or when the receiver is
                # named exactly like the type (`this.pipesConsumer.apply(…)` → PipesConsumer.apply);
                # a name that only ends like a type says nothing here
                typed = self._receiver_rules(facts, caller, call, spec) or []
                last = _norm(call.receiver.rpartition(".")[2])
                units = self.index.resolver.units
                return [
                    h for h in typed if h[2] in _TYPED_RULES
                    or (h[2] == "receiver-name" and h[0].parent in units and _norm(units[h[0].parent].name) == last)
                ]
            member = self._module_member(facts, call.receiver, call.name) or self._imported_class_member(facts, call.receiver, call.name)
            if member:
                return member
            if call.name in self.extensions():  # `source.buffer()` with `fun Source.buffer()` in reach
                ext = self._extension_call(facts, caller, call, spec)
                if ext:
                    return ext
            typed = self._receiver_rules(facts, caller, call, spec)
            if typed is None:  # a declared project type without that member: no guess by name
                return []
            found = typed or self._name_rules(facts, caller, call)
            # what the receiver holds only matters for a guess (most sites have none): read after
            # the rules, which memoize nothing that depends on the order they run in
            foreign = self._foreign(facts, caller, call.receiver) if found and not self._extends_foreign(call.name) else ""
            if foreign == "exact":
                # `kwargs.get(…)`, `sb.toString()` on a `new StringBuilder()`, `self.adapters.items()`
                # on an `OrderedDict()`: a builtin's or a library's method, never a project method
                # of that name (graph/foreign.py)
                return []
            if foreign:  # declared a library's type: only a project type implementing a library type can be the value
                return [h for h in found if self._implements_foreign(h[0])]
            return found
        else:
            if self._import_kind(facts, call.name) == "module" and not self.index.resolver.top.get(facts.path, {}).get(call.name):
                # `Connection(…)` after `from kombu import Connection`: a library's, which the
                # resolver could not map to a file; no project definition of that name (unless the
                # file defines a fallback of its own: `except ImportError: def SOCKSProxyManager…`)
                return []
            if self._value_named(facts, caller, call.name):
                # `next()` where `next` is a parameter or a local of an enclosing function: a value
                # handed in, never a definition of that name elsewhere; the functions the resolved
                # callers pass in its place (`handed-in`), or an object's call protocol
                aliased = self._aliased_member(facts, caller, call.name)
                if aliased:  # `const isFunction = astUtils.isFunction`: that module's function
                    return aliased
                handed = self._handed_in(facts, caller, call.name)
                if handed:
                    conf = RULE_CONFIDENCE["handed-in"] * _K_FACTOR[len(handed)]
                    return [(u, conf, "handed-in") for u in handed]
                made = self._made_function(facts, caller, call.name)
                if made:  # `handler = make_handler(); handler(…)`: the nested function the maker returns
                    return [(made[0], RULE_CONFIDENCE["returned-function"], "returned-function")]
                proto = self._protocol(facts, caller, call, spec) if spec is not None and spec.call_protocol else []
                return proto
            if spec is not None and spec.implicit_this and not call.construct:  # `foo()` in a method: this.foo()
                _, owner = self._enclosing(caller)
                base: list[Unit] = []
                units = self.index.resolver.units
                while owner is not None and not base:  # an inner or anonymous class sees its outer class's members
                    base = [m for m in self._members_named(owner, call.name) if m.kind != "constructor"]
                    owner = units.get(owner.parent) if owner.parent else None
                    while owner is not None and not owner.is_type:
                        owner = units.get(owner.parent) if owner.parent else None
                base = self._overload(facts, call, base)
                if base and len(base) <= MAX_NAME_CANDIDATES:
                    conf = RULE_CONFIDENCE["base-method"] * _K_FACTOR[len(base)]
                    return [(m, conf, "base-method") for m in base]
            if spec is not None and spec.call_protocol:
                proto = self._protocol(facts, caller, call, spec)
                if proto:
                    return proto
        return self._name_rules(facts, caller, call)

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

    def _receiver_rules(self, facts: FileFacts, caller: Unit | None, call: Call, spec: LanguageSpec | None) -> list[tuple[Unit, float, str]] | None:
        """The targets a typed receiver gives, else the receiver-name guess; None when the receiver's
        type is declared (a parameter's, a local's or a field's) and neither it nor a type above or
        below it has that member: no other type's method of that name is a guess worth making."""
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
                out = self._family(t, call.name, facts.path, "subtype-method")
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
                    out += [h for h in self._family(owner, call.name, facts.path) if h[0].id != m.id]
            else:
                out += [(x, c * RULE_CONFIDENCE[rule], r) for x, c, r in self._family(t, call.name, facts.path)]
                if not out:
                    held, _ = self._member_type(t, call.name)
                    if held is not None and spec is not None:
                        out = self._protocol_of(held, spec)
            if out:
                return out
            if rule in _DECLARED_RULES and not any(called for _, called in steps) and self._lacks(t, call.name):
                return None  # (a call step the type does not define keeps the type: a guess, not a declaration)
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
            out += [h for h in self._family(owner, ref.name, facts.path) if h[0].id != m.id]
        return out

    def _name_rules(self, facts: FileFacts, caller: Unit | None, call: Call) -> list[tuple[Unit, float, str]]:
        if not call.receiver:  # a function or type nested in the caller or a callable around it
            units = self.index.resolver.units
            scopes = set()
            cur = caller
            while cur is not None and cur.is_callable:
                scopes.add(cur.id)
                cur = units.get(cur.parent) if cur.parent else None
            near = [u for u in self.by_name().get(call.name, ()) if u.parent in scopes and u.id not in scopes and (u.kind == "function" or u.kind in CLASS_KINDS)]
            if 0 < len(near) <= MAX_NAME_CANDIDATES:
                conf = RULE_CONFIDENCE["same-file"] * _K_FACTOR[len(near)]
                return [((self.constructor(u) or u) if u.kind in CLASS_KINDS else u, conf, "same-file") for u in near]
        key = (facts.path, call.name, call.construct, bool(call.receiver))
        hit = self._memo_names.get(key)
        if hit is None:
            hit = self._memo_names[key] = self._find_by_name(facts, call)
        return [h for h in hit if caller is None or h[0].id != caller.id]



_build_lock = threading.Lock()
ASKED_KEPT = 16384  # a working set of this many asks carries from version to version


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
        if hit is not None:  # the last version's working set carries over, most recent last
            graph.asked = dict.fromkeys(list(hit.asked)[-ASKED_KEPT:])  # type: ignore[attr-defined]
        index.memo["likely"] = graph
        return graph
