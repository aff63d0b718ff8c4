"""The walk's selection graph: the calls the model resolves within the architecture, plus the edges a
reader would follow though no call names them outright (*likely* edges: constructors, closures, handed
members, families of overrides, host calls, unresolved calls read by `calls.py`), and the reach of every
unit over its condensation. Likely edges only choose what to read; facts and evidence use the proven graph."""

from __future__ import annotations

import bisect
import re

from ...graph.structural import structural_implementers
from ...index.facts import CALLABLE_KINDS, CLASS_KINDS
from ...languages import BY_NAME
from ...workspace.manifest import rust_crates
from ..surfaces import HOST_ARG_WORDS, HOST_ARGS, host_interface, non_architecture
from ..topology import Model, _scc
from .bodies import _module_names, return_type
from .calls import CallReading
from .patterns import (
    ATTR_FROM_CONSTRUCT, FAMILY_MAX, FIELD_FROM_CALL, FIELD_FROM_PARAM, MAX_DEPTH, POLL_CHAIN_CONFIDENCE,
    POLL_CHAIN_RULES, QUALIFIED_NEW, RECEIVER_PARAM, WORD_BYTE,
)
from .units import _owner_type


def _fields_from_calls(src: bytes, lo: int, hi: int):
    """(start of `self`/`this`, field, callee) of each `self.field = callee(` within [lo, hi)."""
    for hit in FIELD_FROM_CALL.finditer(src, lo, hi):
        start = hit.start() - 4
        if start < lo or src[start : hit.start()] not in (b"self", b"this") or (start and WORD_BYTE.match(src, start - 1)):
            continue
        yield start, hit.group(1), hit.group(2)


class Flow(CallReading):
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
        self._file_contexts: dict[str, tuple] = {}
        self._callables_by_path: dict[str, list] | None = None
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
            spec = BY_NAME.get(self.index.files[u.path].language) if u.kind in CALLABLE_KINDS else None
            if spec is None or not spec.construct_protocol:
                continue
            if graph is None:
                from ...graph.likely import likely_graph

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
            if u.kind in CALLABLE_KINDS:
                by_name.setdefault(u.name, []).append(uid)
                if u.parent and (u.kind == "constructor" or u.name in ("__init__", "constructor")):
                    ctor_of.setdefault(u.parent, uid)
            elif u.kind in CLASS_KINDS:
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
            if not (u.kind in CALLABLE_KINDS and u.parent and m.units[u.parent].kind in CLASS_KINDS):
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
            if u.kind in CALLABLE_KINDS and u.parent and m.units[u.parent].kind in CLASS_KINDS:
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
            if u.parent in self.out and u.kind in CALLABLE_KINDS and m.units[u.parent].kind in CALLABLE_KINDS:
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
            if u.kind in CALLABLE_KINDS:
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
        # a Go interface, a Protocol: implemented by shape. A call the index proves to the interface's
        # declaration runs one of them (up to FAMILY_MAX), as a call by name read them before
        for contract, impls in structural_implementers(self.index).items():
            if contract in arch:
                for t in impls & arch:
                    supers.setdefault(t, set()).add(m.units[contract].name)
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
                    if du.kind in CALLABLE_KINDS and _owner_type(m, d):
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
            if u.kind in CALLABLE_KINDS and (u.parent is None or m.units[u.parent].kind == "statement"):
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
        from ...graph.likely import likely_graph

        graph = likely_graph(self.index)
        named: dict[str, list[str]] = {}
        for src in self.ordered:
            u = m.units[src]
            if u.path not in with_tables or u.kind not in CALLABLE_KINDS:
                continue
            for table, _line in graph._tables_read(u, self.index.files[u.path]):
                if table.id not in named:
                    named[table.id] = [e.dst for e in graph.out(table.id) if e.dst in self.arch and m.units[e.dst].kind in CALLABLE_KINDS]
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
            if kind and hu.kind in CALLABLE_KINDS and not (hu.kind == "constructor" or hu.name in ("__init__", "constructor")) \
                    and not kind.startswith("http.Handler"):
                hosts.setdefault(kind, []).append(uid)
        hosted: dict[str, list[str]] = {}
        may_hand_on: dict[str, bool] = {}  # path → its text names a host's own argument at all (most files do not)
        for src in sorted(m.unresolved, key=m.order.__getitem__) if hosts else ():
            if src not in self.arch:
                continue
            path = m.units[src].path
            text = self.index.sources[path]
            if path not in may_hand_on:
                may_hand_on[path] = any(word in text for word in HOST_ARG_WORDS)
            if not may_hand_on[path]:
                continue
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
                        if c.construct or m.units[d].kind in CLASS_KINDS or d in self.ctor_units:
                            self.constructs.add((src, d))


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
        # a unit and what lies downstream of it: its component's `with_own` (shared, not built per ask)
        self.reach_bits = {u: with_own[comp[i]] for i, u in enumerate(nodes)}
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
            self._crate_names = {"crate", "self", "super", *rust_crates(self.index.root, self.index.files)}
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
