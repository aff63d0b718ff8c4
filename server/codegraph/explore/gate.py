"""The gate: each file's mode (bodies, focused family file, sibling skeleton) and the bodies a
family file keeps (docs/explore.md, "The gate")."""

from __future__ import annotations



import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..graph.likely import CTOR_NAMES, likely_graph
from ..index.facts import Unit
from ..index.index import RootIndex
from ..model.facts import in_test_module
from .flow import DISPATCH_RULES, Flow
from .model import ExploreRequest
from .relevance import split_words, stem, STOP
from .steps import _statements_they_use
from .tables import Derived, MIN_SIBLINGS, _interchangeable, family_size, per_version


WHOLE_FILE_LINES = 220


NEAR_UNIQUE = 2  # a named callable with at most this many definitions spares its file


VARIANT_DEPTH = 2  # levels of family members built by a named type, then by those


MAX_VARIANT_TYPES = 3


@dataclass
class FilePlan:
    path: str
    score: float
    units: list[tuple[float, Unit]] = field(default_factory=list)  # relevant units, best first
    mode: str = "bodies"  # bodies|skeleton|focused (pack.py decides which bodies, or the whole file)
    reason: str = ""
    keep: set[str] = field(default_factory=set)  # focused: units whose bodies stay, first
    hide: set[str] = field(default_factory=set)  # focused: family members shown as signatures only
    must: set[str] = field(default_factory=set)  # spine and near-unique named symbols: kept first, up to the whole budget
    sibling: bool = False  # defines a member of a family (MIN_SIBLINGS or more implementers)


FAMILY_KEEP_SEED = 0.5  # how strongly the question must point at a constructed member to keep its body


def _wanted_in_family(index: RootIndex, d: Derived, flow: Flow, anchors: set[str], seeds: dict[str, float]) -> set[str]:
    """Units whose bodies a family member's file keeps: the question's own anchors, what the
    flow reaches by a call it can name, and the members the question points at of a type the
    flow itself constructs (`new OkHttpCall(…)` makes OkHttpCall.execute the `call.execute()`
    that runs). A dispatch hop counts only when it is the one implementation of an abstract
    method (`ServiceMethod.invoke` → `HttpServiceMethod.invoke`); a call that may land on
    MIN_SIBLINGS or more implementations, or on the override of a concrete base method,
    reaches interchangeable siblings. Context around the flow (callers above it, helpers below)
    stays unless it is itself a family member."""
    by_site: dict[tuple[str, int], list] = defaultdict(list)
    for h in flow.hops:
        by_site[(h.src.id, h.line)].append(h)
    alternatives: set[str] = set()
    for hops in by_site.values():
        dispatched = {h.dst.id for h in hops if h.how in DISPATCH_RULES}
        concrete_base = any(h.dst.end_line - h.dst.sig_end_line > 1 for h in hops if h.how not in DISPATCH_RULES)
        if len(dispatched) >= MIN_SIBLINGS or concrete_base:
            alternatives |= dispatched
    reached = {h.dst.id for h in flow.hops} | {h.src.id for h in flow.hops}
    units = index.resolver.units
    likely = likely_graph(index)
    built: set[str] = set()
    for uid in sorted(reached | flow.spine):
        for e in likely.out(uid):
            dst = units.get(e.dst)
            if e.rule == "resolved" and dst is not None:
                built.add(dst.parent if dst.kind == "constructor" and dst.parent else dst.id)
    pointed = {uid for uid, s in seeds.items() if s >= FAMILY_KEEP_SEED and uid in units and units[uid].parent in built}
    context = {uid for uid in flow.periphery if uid in units and not _interchangeable(d, units[uid])}
    wanted = anchors | pointed | context | {uid for uid in reached if uid not in alternatives or uid in flow.spine}
    # a body on its signature's line (a default no-op, a one-line forward) is what the focused
    # file's signatures show anyway: no reason to bring the file in
    return {uid for uid in wanted if uid in flow.spine or uid not in units or units[uid].end_line > units[uid].sig_end_line}


def _the_named_variant(index: RootIndex, d: Derived, strong: list[Unit]) -> set[str]:
    """When the question names one member of a family (`RxJava3CallAdapterFactory`, one call
    adapter factory among many), the types that member builds, and those they build in turn,
    are that variant's parts: `get` makes the `RxJava3CallAdapter` whose `adapt` makes the
    observables that run the call. Their methods keep their bodies even where their files
    are family members themselves."""
    units = index.resolver.units
    likely = likely_graph(index)
    named = {u.id for u in strong if u.is_type} | {u.parent for u in strong if u.parent and u.parent in units}
    frontier = sorted(t for t in named if units[t].is_type and _implements_a_family(index, d, units[t]))
    seen = set(frontier)
    # the named member's own methods first: "a Route's endpoint" means Route.matches and handle
    out = {m.id for tid in frontier for members in index.resolver.members_of(units[tid]).values() for m in members if m.is_callable and m.parent == tid}
    for _ in range(VARIANT_DEPTH):
        built: list[str] = []
        for tid in frontier:
            for members in index.resolver.members_of(units[tid]).values():
                for m in members:
                    for e in likely.out(m.id) if m.is_callable else ():
                        dst = units.get(e.dst)
                        t = units.get(dst.parent) if dst is not None and (dst.kind == "constructor" or dst.name in CTOR_NAMES) and dst.parent else dst
                        if e.rule == "resolved" and t is not None and t.is_type and t.id not in seen and not in_test_module(t):
                            seen.add(t.id)
                            built.append(t.id)
        # several members of one family built together (an interceptor list) are that family
        per_family = Counter(key for tid in built for key, _ in d.supers.get(tid, []) if family_size(d, key) >= MIN_SIBLINGS)
        frontier = [tid for tid in built if all(per_family[key] < MIN_SIBLINGS for key, _ in d.supers.get(tid, []))][:MAX_VARIANT_TYPES]
        for tid in frontier:  # the type's methods and those of the types nested in it (its callbacks)
            facts = index.files[units[tid].path]
            nested = [tid] + [u.id for u in facts.units if u.is_type and u.parent == tid]
            out |= {m.id for n in nested for members in index.resolver.members_of(units[n]).values() for m in members if m.is_callable}
    return out


def _members_named_by_words(index: RootIndex, d: Derived, q, flow: Flow) -> set[str]:
    """A family member the question singles out by a plain word ("tuples, bytes or datetimes"
    → TagTuple, TagBytes, TagDateTime) is a distinct step, not an interchangeable sibling: the
    family names its members by a shared word (`Tag…`), and the word that tells this one apart
    is in the question. Only when the question lists two or more members so (a single common
    word, "body", "spider", tells nothing apart) and fewer than half of the family, and for a
    family beside the flow (a member's file holds a unit of the flow's hops). The member keeps its
    whole body, and the base the methods it overrides (its contract)."""
    plain = {stem(w) for w in _PLAIN_WORD.findall(re.sub(r"`[^`]*`", " ", q.text)) if w not in STOP}
    units = index.resolver.units
    on_flow = flow.spine | {h.src.id for h in flow.hops} | {h.dst.id for h in flow.hops}
    flow_files = {units[uid].path for uid in on_flow if uid in units}
    out: set[str] = set()
    for base, typed, family_words in per_version(d, "named_families", lambda: _named_families(index, d)):
        if not any(t.path in flow_files for t in typed):
            continue
        told_apart: dict[str, Unit] = {}  # the question's word → the member it names
        for t in typed:
            words = _type_words(t)
            own = [w for w in words if w not in family_words]
            hit = ({stem(w) for w in own} | {stem("".join(own))}) & plain if own and len(own) < len(words) else set()
            told_apart.update((w, t) for w in hit)
        chosen = {t.id: t for t in told_apart.values()}
        # an enumeration: two or more members by distinct words, but not most of the family
        if len(told_apart) < 2 or 2 * len(chosen) >= len(typed):
            continue
        for t in chosen.values():
            out.add(t.id)
            for name, ms in index.resolver.members_of(t).items():
                out |= {m.id for m in ms if m.is_callable and m.parent == t.id}
                out |= {m.id for m in index.resolver.members_of(base).get(name, ()) if m.is_callable and m.parent == base.id}
    return out


def _named_families(index: RootIndex, d: Derived) -> list[tuple[Unit, list[Unit], set[str]]]:
    """Each family (a base and MIN_SIBLINGS or more members) with the words most of its
    members' names share: what `_members_named_by_words` reads of the version."""
    units = index.resolver.units
    out = []
    for key, members in d.implementers.items():
        base = units.get(key)
        typed = [units[m] for m in sorted(members) if m in units]
        if base is None or len(typed) < MIN_SIBLINGS:
            continue
        shared = Counter(w for t in typed for w in set(_type_words(t)))
        out.append((base, typed, {w for w, n in shared.items() if n * 2 >= len(typed)}))
    return out


def _type_words(t: Unit) -> list[str]:
    """The words a family member is named by, its enclosing types' too: nested variants are named
    by their container (`ParameterHandler.Path`, `Event.Click`), so "path" tells that one apart."""
    return [w for part in t.qualname.split(".") for w in split_words(part)]


_PLAIN_WORD = re.compile(r"(?<![\w.`])[a-z]{3,}(?![\w(`])")


def _implements_a_family(index: RootIndex, d: Derived, t: Unit) -> bool:
    """A variant of a family: it defines a method of a supertype with MIN_SIBLINGS or more
    implementers (a mixin that only lends methods, like a tracking base, makes no variants)."""
    own = {name for name, ms in index.resolver.members_of(t).items() if name not in CTOR_NAMES and name != t.name and any(m.parent == t.id for m in ms)}
    units = index.resolver.units
    return any(
        family_size(d, key) >= MIN_SIBLINGS and key in units and own & set(index.resolver.members_of(units[key]))
        for key, _ in d.supers.get(t.id, [])
    )


def _with_own_helpers(index: RootIndex, facts, kept: set[str], depth: int = 2) -> set[str]:
    """A kept body's proven callees in the same file (`execute` → `getRawCall` → `createRawCall`):
    the member's own steps, not interchangeable siblings."""
    likely = likely_graph(index)
    here = {u.id for u in facts.units}
    out, frontier = set(kept), set(kept)
    for _ in range(depth):
        frontier = {e.dst for uid in sorted(frontier) for e in likely.out(uid) if e.rule == "resolved" and e.dst in here} - out
        out |= frontier
    return out


def _gate(index: RootIndex, d: Derived, q, req: ExploreRequest, plans: list[FilePlan], flow: Flow, wanted: set[str] = frozenset(), wired: set[str] = frozenset(), distinct: set[str] = frozenset()) -> None:
    """Each file's mode and reason (docs/explore.md, "The gate")."""
    named_ids = {u.id for u in q.named_units()}
    # A near-unique named callable spares its file; a focused view also keeps the bodies of a
    # qualified `Class.method` the question writes out (few definitions); `as_sql` ×100 neither.
    named_unique_callables = {u.id for hits in q.named.values() for u in hits if u.is_callable and len(hits) <= NEAR_UNIQUE}
    named_focus = named_unique_callables | {
        u.id for token, hits in q.named.items() for u in hits if u.is_callable and "." in token and len(hits) <= 2 * NEAR_UNIQUE
    }
    weak_named_ids = {u.id for units_ in q.weak.values() for u in units_}
    flow_exists = bool(flow.hops)
    for plan in plans:
        facts = index.files[plan.path]
        plan.must = {u.id for u in facts.units if u.id in flow.spine or u.id in named_unique_callables or (u.kind == "statement" and u.id in named_ids)}
        plan.must |= {u.id for u in facts.units if u.id in wired}
        plan.must |= _statements_they_use(index, facts, plan.must)
        types_ = [u for u in facts.units if u.is_type]
        sibling = [(key, disp) for t in types_ for key, disp in d.supers.get(t.id, []) if family_size(d, key) >= MIN_SIBLINGS]
        shaped = [u for u in facts.units if u.id in d.shape_family]
        if shaped and not sibling:
            u = shaped[0]
            sibling = [(u.id, f"{u.returns}-shaped functions({d.shape_family[u.id]})")]
        plan.sibling = bool(sibling)
        family = [t for t in types_ if len(d.implementers.get(t.id, ())) >= MIN_SIBLINGS]
        on_spine = any(u.id in flow.spine for u in facts.units)
        spared = any(u.id in named_unique_callables for u in facts.units)
        large = facts.lines > WHOLE_FILE_LINES
        plan.reason = _reason(plan, flow, on_spine, sibling, family, spared, named_ids, d)
        if not req.adaptive:
            plan.mode = "bodies"
        elif family and sibling and (large or (flow_exists and not on_spine)):
            plan.mode = "focused"
            base_ids = {t.id for t in family}
            plan.keep = _with_own_helpers(index, facts, {
                u.id for u in facts.units
                if u.id in flow.spine or u.id in named_focus or (u.id in wanted and u.is_callable) or u.id in distinct
                or ((u.id in named_ids or u.id in weak_named_ids) and u.parent in base_ids)
            })
            # the family's interchangeable members show signatures; the base, the helpers and
            # whatever else the file holds compete for the budget like any other body
            plan.hide = {u.id for u in facts.units if u.id not in plan.keep and _interchangeable(d, u)}
            if not plan.keep and flow_exists and not on_spine:
                plan.mode = "skeleton"
            plan.reason = f"family-file:{family[0].name}({len(d.implementers[family[0].id])})" + (" on-spine" if on_spine else "")
        elif flow_exists and not on_spine and sibling and not spared:
            plan.mode = "skeleton"
            kept = _with_own_helpers(index, facts, {u.id for u in facts.units if (u.id in wanted and u.is_callable) or u.id in distinct})
            if kept:  # the member the flow runs through: its signatures and those bodies
                plan.mode, plan.keep = "focused", kept
                plan.hide = {u.id for u in facts.units if u.id not in kept}
        else:
            plan.mode = "bodies"


def _reason(plan: FilePlan, flow: Flow, on_spine: bool, sibling, family, spared: bool, named_ids: set[str], d: Derived) -> str:
    if on_spine:
        base = "on-spine"
    elif sibling:
        key, disp = sibling[0]
        base = f"sibling:{disp}" if key in d.shape_family else f"sibling:{disp}({family_size(d, key)})"
    elif any(u.id in named_ids for _, u in plan.units):
        base = "named:" + next(u.qualname for _, u in plan.units if u.id in named_ids)
    elif plan.units:
        base = "related:" + plan.units[0][1].qualname
    else:
        base = "named-path"
    if spared and sibling and not on_spine:
        base = "spared:named-unique-callable " + base
    return base
