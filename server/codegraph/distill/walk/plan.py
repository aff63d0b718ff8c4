"""The walk's plan, first stages: entry candidates and their ranking, the trunks of the chosen entries' flows
and the core on them (`stages.py` has the rest). Its picks are features of the learned selection
(`features.py`: `plan_*`), not the selection itself."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...index.facts import CALLABLE_KINDS, CLASS_KINDS
from ..roles import _counted
from ..signals import QUERY_CALL
from ..surfaces import is_public_api
from ..topology import Model
from .bodies import _takes_output
from .graph import Flow
from .patterns import CAPS, QUERY_REACH, TOTAL
from .stages import PlanStages
from .units import _implementations, _owner_type, _type_reach


@dataclass
class Plan:
    picks: list[tuple[str, str, str, int]] = field(default_factory=list)  # (uid, role key, reason, depth)
    down: dict[str, int] = field(default_factory=dict)  # units downstream of each unit on the selection graph
    out: dict[str, set[str]] = field(default_factory=dict)  # the selection graph's callees of each unit
    hosts: dict[str, str] = field(default_factory=dict)  # the host contract of each unit of `out` that has one
    # a small type shown whole for members the plan picked (`whole_types`) → the members' role keys, in pick order:
    # it holds one place per distinct role, so each member's main role keeps its label
    whole: dict[str, list[str]] = field(default_factory=dict)
    members: dict[str, list[str]] = field(default_factory=dict)  # such a type → the units it holds (facts, arrows)
    stands_for: dict[str, list[str]] = field(default_factory=dict)  # such a type → the picks it took the place of


def plan(index, model: Model, roles, sink_tier, assembly_units: set[str]) -> tuple[Plan, Flow]:
    """The overview plan: entries, then per entry the trunk of its flow, assembly, sinks, boundaries."""
    return _Planner(index, model, roles, sink_tier, assembly_units).run()


class _Planner(PlanStages):
    """The state the overview plan is built in, one stage after another (see `run`). Each stage sets
    what the later ones read: the entry stages `cands`, `kind_of`, `ranked`, `entries`, `chosen`;
    `trunks` the `depth` of each unit and what is `flowing`; `take_core` the `core` and `spare_core`;
    `boundaries` the `err_callees`; `sinks` the `sink_units`; `assembly` the `asm` table; every
    pick goes to `p.picks`."""

    def __init__(self, index, model: Model, roles, sink_tier, assembly_units: set[str]):
        self.index, self.m, self.roles, self.assembly_units = index, model, roles, assembly_units
        self.sink_tier = dict(sink_tier)  # sinks found on the flow are added to a copy
        self.flow = Flow(index, model)
        self.p = Plan()
        self.p.down = self.flow.down
        self.p.out = self.flow.out
        self.p.hosts = self.flow.host_kind
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
            nested = bool(u.parent and m.units[u.parent].kind in CALLABLE_KINDS)  # a closure is part of its function's surface
            if (u.kind in CALLABLE_KINDS and not nested and flow.down.get(uid, 0) >= 2
                    and not (u.kind == "constructor" or u.name in ("__init__", "constructor"))):
                if uid in implements:
                    cands[uid], kind_of[uid] = (3, f"implements `{implements[uid][0]}`, part of the public interface"), "surface"
                elif is_public_api(self.index, m, u):  # (2 or more downstream; 1 may lead into it)
                    up = flow.up[uid]
                    led = f"{_counted((up, 'unit'))} {'leads' if up == 1 else 'lead'}" if up else "nothing leads"
                    cands[uid], kind_of[uid] = (3, f"public; {led} into it, {flow.down[uid]} lie downstream"), "surface"
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
            mine = flow.reach_bits[uid]
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
            trunk = [u for u in d if u not in self.chosen and m.units[u].kind in CALLABLE_KINDS and flow.down.get(u, 0) >= 1]
            reach = flow.reach_bits[e]
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
            if (x.kind in CALLABLE_KINDS and x.parent and m.units[x.parent].kind in CLASS_KINDS and not flow.callers.get(u)
                    and flow.down.get(u, 0) >= 1 and not (x.kind == "constructor" or x.name in ("__init__", "constructor"))
                    and not (x.name.startswith("__") and x.name.endswith("__")) and not is_public_api(self.index, m, x)):
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
            t = dst if m.units[dst].kind in CLASS_KINDS else m.units[dst].parent
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
                if (d not in core and d not in self.chosen and d in self.flowing and m.units[d].kind in CALLABLE_KINDS
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

