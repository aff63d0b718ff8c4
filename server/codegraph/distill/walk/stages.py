"""The plan's later stages: what the flow calls from its error handlers (boundaries), where it writes (sinks),
what builds and wires its parts (assembly), then placing the picks, the slots a small code base leaves free,
closures read in their function and small types read whole."""

from __future__ import annotations

import re

from ...index.facts import CALLABLE_KINDS, CLASS_KINDS, Unit
from ...languages import BY_NAME
from ..roles import _counted
from ..signals import NETWORK_NAMES, OUTPUT_NAMES, boundary_marks, output_like
from ..surfaces import is_public_api
from .bodies import (
    EXITS, RETURNS_WHAT, _error_param, _error_regions, _error_turn, _fills, _guards_handoff, _hands_output,
    _registrations_memo, _stores_built, _wraps, forwarded_registration, reports_error,
)
from .patterns import (
    CAPS, ERROR_WORDS, FEW_CALLEES, MAX_OUTER_BYTES, QUOTED_NAME, RETURNS_NEW, SMALL_TYPE_BYTES, TAIL_STRUCT,
    TOTAL, WHOLE_TYPE_BYTES, WHOLE_TYPE_EXTRA, WIRED_NAMES_MIN,
)
from .units import _holders, _owner_type


class PlanStages:
    """The plan's later stages (see `plan._Planner.run`)."""

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
                    if not (du.kind in CALLABLE_KINDS and _error_param(du, True)):
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
        exits = sorted((d for d in self.flowing if d not in err_callees and d not in self.core and m.units[d].kind in CALLABLE_KINDS
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
        if u.kind not in CALLABLE_KINDS:
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
            if uid not in self.flowing or uid in sink_tier or u.kind not in CALLABLE_KINDS or flow.out.get(uid) or not m.calls.get(uid):
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
            if src in asm or m.units[src].kind not in CALLABLE_KINDS:
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
            if src in asm or src not in self.flowing or m.units[src].kind not in CALLABLE_KINDS or flow.out.get(src):
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
                               and m.units[d].kind in CALLABLE_KINDS}, key=m.order.__getitem__)
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
                held |= {d if m.units[d].kind in CLASS_KINDS else m.units[d].parent
                         for d in flow.out.get(c, ()) if (c, d) in flow.constructs}
        held.discard(None)
        cands = [u for u in flow.ordered if m.units[u].kind in CALLABLE_KINDS and u not in self.flowing and not flow.callers.get(u)
                 and _owner_type(m, u) in held and is_public_api(self.index, m, m.units[u])]
        return {u: f"{why}; callers wire their parts in through it"
                for u, why in _registrations_memo(self.index, m, cands, self.reg_memo).items()}

    def wired_by_name(self) -> dict[str, str]:
        """Module-level registration calls that name members of the flow as strings (`delegate(proto,
        'response').method('redirect').access('body')`): they wire those members onto an object."""
        m = self.m
        members = {m.units[u].name for u in self.flowing if m.units[u].kind in CALLABLE_KINDS}
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
            built = d in self.flow.ctor_units or m.units[d].kind in CLASS_KINDS  # a result value the flow never enters is not a part
            if d != uid and (tier <= 1 or (tier <= 3 and owner_name(d) == recv) or (built and self.component(d))):
                return d
        return ""

    def component(self, d: str) -> bool:
        """The type `d` builds (a type or its constructor) is one the flow runs through: it has methods on the flow."""
        m = self.m
        t = d if m.units[d].kind in CLASS_KINDS else m.units[d].parent
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
                    written |= flow.reach_bits[d]
            if (flow.down_bits.get(uid, 0) & ~written).bit_count() > 3:
                handed = ""
        return handed, to

    def trunk_pick(self, uid: str) -> None:
        """A trunk unit whose main job is something else says so first."""
        m, flow, p = self.m, self.flow, self.p
        self.taken.add(uid)
        u = m.units[uid]
        key, why = self.trunk_role(uid, u, self.index.sources[u.path][u.sig_end_byte : u.end_byte])
        why = why or f"on the flow from the entries: {_counted((flow.down[uid], 'unit')) or '0 units'} downstream"
        p.picks.append((uid, key, why, self.depth.get(uid, 0)))

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
        if (not ctor and not flow.callers.get(uid) and not (u.parent and m.units[u.parent].kind in CALLABLE_KINDS)
                and is_public_api(self.index, m, u)):
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
        api = sorted((u for u in flow.ordered if u not in self.cands and m.units[u].kind in CALLABLE_KINDS
                      and not (m.units[u].parent and m.units[m.units[u].parent].kind in CALLABLE_KINDS)
                      and not (m.units[u].kind == "constructor" or m.units[u].name in ("__init__", "constructor"))
                      and is_public_api(self.index, m, m.units[u])), key=lambda u: (-flow.down.get(u, 0), self.stable(u)))
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
                key, why = "boundary", err
            elif key == "entry" and self.sink_tier.get(uid):  # a public writer (`moveTo(url)`): a sink first
                key, why = "sink", self.sink_tier[uid][1]
            p.picks.append((uid, key, why, self.depth.get(uid, 0)))

    def error_doors(self) -> list[tuple[str, str, str]]:
        """Public callables whose own body catches errors (`try`, Go's deferred `recover()`) or makes a new one
        (`throw`, `raise`): where a library's callers get their errors caught or made (a recovering middleware,
        `ctx.throw`), whether or not the code base calls them. Catching first, then by reach. The language's
        boundary syntax decides; only files where a public callable names such syntax are read."""
        m, flow, src = self.m, self.flow, self.index.sources
        public = [u for u in self.arch if u not in self.taken and m.units[u].kind in CALLABLE_KINDS
                  and not (m.units[u].parent and m.units[m.units[u].parent].kind in CALLABLE_KINDS)
                  and not (m.units[u].kind == "constructor" or m.units[u].name in ("__init__", "constructor"))
                  and ERROR_WORDS.search(src[m.units[u].path], m.units[u].sig_end_byte, m.units[u].end_byte)
                  and is_public_api(self.index, m, m.units[u])]
        tier: dict[str, int] = {}
        for path in sorted({m.units[u].path for u in public}):
            for mark in boundary_marks(self.index.files[path]):
                outer = mark.unit  # a mark in a closure is its function's (`defer func() { recover() }()`)
                while outer in m.units and m.units[outer].parent and m.units[m.units[outer].parent].kind in CALLABLE_KINDS:
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
            if t and m.units[t].kind in CLASS_KINDS and m.units[t].path == u.path and m.units[t].start_byte <= u.start_byte \
                    and u.end_byte <= m.units[t].end_byte:
                groups.setdefault(t, []).append(i)
        drop: set[int] = set()
        for t, idx in groups.items():
            keys = list(dict.fromkeys(p.picks[i][1] for i in idx))
            saves = len(keys) < len(idx)  # its members carry fewer roles than they are many: places saved
            if not (m.cost(t) <= SMALL_TYPE_BYTES or (saves and m.cost(t) <= min(
                    WHOLE_TYPE_BYTES, sum(m.cost(p.picks[i][0]) for i in idx) + WHOLE_TYPE_EXTRA))):
                continue
            p.stands_for[t] = [p.picks[i][0] for i in idx]
            uid, key, why, dep = p.picks[idx[0]]
            names = ", ".join(f"`{m.units[p.picks[i][0]].name}`" for i in idx)
            p.picks[idx[0]] = (t, key, f"{why} (the type whole, for {names})", dep)
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
            outer = uid
            while m.units[outer].parent and m.units[m.units[outer].parent].kind in CALLABLE_KINDS:
                outer = m.units[outer].parent
            if outer != uid and m.cost(outer) <= MAX_OUTER_BYTES:
                why = f"{why} (in `{m.units[uid].name}`, inside it)"
                uid = outer
            if uid not in seen_pick:
                seen_pick.add(uid)
                remapped.append((uid, key, why, dep))
        p.picks = remapped

    def error_writers_to_boundaries(self) -> None:
        """An error handler that writes out (reports, logs) is a boundary first."""
        p = self.p
        for i, (uid, key, why, dep) in enumerate(p.picks):
            err = reports_error(self.index, self.m.units[uid]) if key == "sink" else ""
            if err:
                p.picks[i] = (uid, "boundary", err, dep)
