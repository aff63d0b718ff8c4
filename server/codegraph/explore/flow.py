"""find_flow: the connected spine of a question over the ranked graph (graph/likely.py).

Hops follow resolved call/construct edges and likely ones; a likely hop keeps the name of the
rule that proposed it, so the answer never presents a guess as a fact.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable

from ..index.facts import Unit
from ..index.index import RootIndex
from ..model.facts import bodiless, in_test_module
from .relevance import path_prior

MAX_SOURCES = 12


@dataclass(frozen=True)
class Hop:
    src: Unit
    dst: Unit
    line: int  # call site line in src's file
    how: str  # "resolved", "nested" (a callable defined inside it) or the likely rule's name


@dataclass
class Flow:
    hops: list[Hop] = field(default_factory=list)
    spine: set[str] = field(default_factory=set)  # unit ids on the traced chain(s): shown first, in full
    entry: list[Unit] = field(default_factory=list)
    periphery: dict[str, float] = field(default_factory=dict)  # callers above and callees below: unit id → how likely it matters
    doors: set[str] = field(default_factory=set)  # core units that only forward to the entry (`__call__` → `wsgi_app`)


# ---- the flow search over the ranked graph ----------------------------------------------

MEMBER_RELEVANCE = 0.25  # a named type's method this relevant to the question is a source of the flow
MAX_MEMBER_SOURCES = 6
DISPATCH_RULES = frozenset({"family-dispatch", "subtype-method"})
ENTRY_DEPTH = 4  # levels of callers walked up from each of the question's units
ENTRY_TARGETS = 12  # ...from the most important of them (each walk asks for callers, which reads other files)
ENTRY_FANIN = 3  # likeliest callers followed per unit and level
ENTRY_MIN_CONF = 0.5
ENTRY_FADE = 0.85  # a vote fades by this much (times the edge's confidence) per level
MAX_ENTRIES = 2
MAX_CHAINED = 2  # ...and entries above those, which extend the same flow upward
DOWN_DEPTH = 3  # callees followed below each core unit
MAX_DOWN_NAMED = 14
DOWN_DEPTH_NAMED = 6
MAX_DOWN_COST_NAMED = 1.0
HOP_COST = 0.05  # every hop down costs this much at least...
DOWN_REL_COST = 0.08  # a callee the question's words do not touch costs this much more
DOWN_FANIN_COST = 0.03  # ...and a helper called from everywhere this much per doubling of its callers
MAX_DOWN_COST = 0.6  # ...and a callee costlier than this in all is not on the flow
UP_DEPTH = 3  # callers followed above the entry anchor, to where the work enters
MAX_UP = 6  # callers kept per core unit, likeliest and most relevant first
UP_FADE = 0.6  # a caller's value: confidence × (0.3 + relevance) × this
MAX_UP_VALUE = 0.9
MIN_FAMILY_CALLERS = 3  # this many family members calling one core unit are the family
MAX_DOWN = 6  # callees kept per core unit: the packer takes them cheapest first while the budget lasts
SURE_STEP = 0.8  # below where a named flow's core path ends, hops this likely carry the core on
SURE_WIDTH = 2  # ...at most this many callees of each unit on that line
SURE_MAX = 12  # ...and this many units below each end
SURE_CALLERS = 2  # ...and never a helper with more callers than this
JOINT_ROUNDS = 2  # a step between two parts of the core may need one more between it and the next
SURE_PROVEN = 0.9  # with no callable named, a core unit's hops this likely carry the core on...
SURE_WORDS = 0.2  # ...as far as a unit the question's words touch this much...
SURE_CHAIN = 3  # ...this many hops down: a chain of steps, not a core step's helper
MIN_STEP = 0.15  # confidence × relevance below this is not worth a hop
CONNECT_DEPTH = 7  # hops of a connecting path
MAX_POPS = 1500  # units expanded per connecting search
TABLE_RULE = "table-lookup"
NAMED_VARIANT = "named-variant"  # a core call to a method the named type overrides runs its override
FALLBACK_RULES = frozenset({"callback-ref"})
MAX_TABLE_ENTRIES = 8  # a table of more distinct functions is a registry, not one call's alternatives
MAX_STEP_CALLERS = 4  # an abstract method with more callers is a service, not a step of one flow
MAX_CONNECT_COST = 2.5  # a connecting path costlier than this (−log confidence + per hop) is no path


class RankedSteps:
    """Outgoing and incoming steps of a unit on the ranked graph: resolved and likely edges
    (with their rule), plus a callable's nested callables (a closure or an anonymous class's
    method runs as part of its body)."""

    def __init__(self, index: RootIndex, likely, excluded: Callable[[str], bool]) -> None:
        self.index = index
        self.likely = likely
        self.excluded = excluded
        self._children: dict[str, list[Unit]] = {}
        self._lines: dict[str, list[bytes]] = {}
        # each unit's steps, once per question (the walks ask for the same units again and again);
        # callers only read them
        self._out: dict[str, list[tuple[Unit, int, str, float]]] = {}
        self._into: dict[str, list[tuple[Unit, int, str, float]]] = {}

    def thrown(self, unit: Unit, line: int) -> bool:
        """Whether the call on `line` of `unit` builds what it throws (`throw new AxiosError(…)`,
        `raise Http404(…)`): the error path, not a step of the flow."""
        lines = self._lines.get(unit.path)
        if lines is None:
            lines = self._lines[unit.path] = self.index.sources.get(unit.path, b"").split(b"\n")
        return 0 < line <= len(lines) and _THROWN.match(lines[line - 1]) is not None

    def children(self, unit: Unit) -> list[Unit]:
        hit = self._children.get(unit.id)
        if hit is None:
            facts = self.index.files.get(unit.path)
            hit = [u for u in (facts.units if facts else ()) if u.parent == unit.id and u.is_callable] if unit.is_callable else []
            self._children[unit.id] = hit
        return hit

    def out(self, unit: Unit) -> list[tuple[Unit, int, str, float]]:
        hit = self._out.get(unit.id)
        if hit is None:
            hit = self._out[unit.id] = self._steps_out(unit)
        return hit

    def into(self, unit: Unit) -> list[tuple[Unit, int, str, float]]:
        hit = self._into.get(unit.id)
        if hit is None:
            hit = self._into[unit.id] = self._steps_into(unit)
        return hit

    def _steps_out(self, unit: Unit) -> list[tuple[Unit, int, str, float]]:
        units = self.index.resolver.units
        out: list[tuple[Unit, int, str, float]] = []
        for e in self.likely.out(unit.id):
            dst = units.get(e.dst)
            if dst is not None and not self.excluded(dst.path) and not in_test_module(dst):
                out.append((dst, e.line, e.rule, e.confidence))
        for child in self.children(unit):
            out.append((child, child.name_line, "nested", 0.9))
        return out

    def _steps_into(self, unit: Unit) -> list[tuple[Unit, int, str, float]]:
        units = self.index.resolver.units
        out: list[tuple[Unit, int, str, float]] = []
        for e in self.likely.into(unit.id):
            src = units.get(e.src)
            if src is not None and not self.excluded(src.path) and not in_test_module(src):
                out.append((src, e.line, e.rule, e.confidence))
        parent = units.get(unit.parent) if unit.parent else None
        if parent is not None and parent.is_callable and unit.is_callable:
            out.append((parent, unit.name_line, "nested", 0.9))
        return out


def _reach(target_weight: float, src_weight: float) -> float:
    """How far a connecting path may go, as a share of MAX_CONNECT_COST: both ends count (their
    geometric mean), so a named symbol reaches a word match nearby, another named symbol far."""
    return (target_weight * src_weight) ** 0.5 if src_weight else target_weight


def _connect(
    src: Unit, targets: dict[str, float], steps: RankedSteps, checkpoint: Callable[[], None], named_types: frozenset[str] = frozenset(), src_weight: float = 0.0
) -> dict[str, list[Hop]]:
    """Cheapest hop lists from src to each reachable target (cost: −log confidence + 0.25 a
    hop). Both ends' weights scale how far a target may be (`_reach`): between named symbols a
    long path, between two units that only match words a short, proven one."""
    best: dict[str, float] = {src.id: 0.0}
    parents: dict[str, Hop | None] = {src.id: None}
    heap: list[tuple[float, int, str, Unit]] = [(0.0, 0, src.id, src)]
    found: dict[str, list[Hop]] = {}
    pops = 0
    while heap and pops < MAX_POPS:
        cost, depth, uid, unit = heapq.heappop(heap)
        pops += 1
        if cost > best.get(uid, math.inf):
            continue
        if uid in targets and uid != src.id and uid not in found and cost <= MAX_CONNECT_COST * _reach(targets[uid], src_weight):
            chain: list[Hop] = []
            cur = parents[uid]
            while cur is not None:
                chain.append(cur)
                cur = parents[cur.src.id]
            found[uid] = list(reversed(chain))
        if depth >= CONNECT_DEPTH:
            continue
        if pops % 200 == 0:
            checkpoint()
        for dst, line, how, conf in steps.out(unit):
            # one implementation among a family's many is a sibling, not a step of the flow,
            # unless its type is one the question names
            if how in DISPATCH_RULES and dst.parent not in named_types:
                continue
            # an error a step throws is where the flow stops, not how it goes on (unless the
            # question names it)
            if targets.get(dst.id, 0.0) < 1.0 and steps.thrown(unit, line):
                continue
            c = cost + 0.25 - math.log(max(conf, 1e-3))
            if c <= MAX_CONNECT_COST and c < best.get(dst.id, math.inf):
                best[dst.id] = c
                parents[dst.id] = Hop(unit, dst, line, how)
                heapq.heappush(heap, (c, depth + 1, dst.id, dst))
    return found


_THROWN = re.compile(rb"\s*(?:throw|raise)\b")
_NOT_HERE = re.compile(rb"^(?:raise\s+NotImplementedError(?:\(.*\))?|pass|\.\.\.|)$")
_DOC_OR_COMMENT = re.compile(rb'(?s)^\s*(?:[rbuRBU]{0,2}(?:"""(?:.*?)"""|\'\'\'(?:.*?)\'\'\'|"[^"\n]*"|\'[^\'\n]*\')|#[^\n]*|//[^\n]*|/\*.*?\*/)')


def _abstract(u: Unit, source: bytes) -> bool:
    """A declaration that is not implemented where it is declared: no body, or a body that
    only documents it and says so (`raise NotImplementedError`, `pass`, `...`)."""
    if not u.is_callable:
        return False
    body = source[u.sig_end_byte : u.end_byte].strip().lstrip(b":{").rstrip(b"}").strip()
    while (m := _DOC_OR_COMMENT.match(body)) and m.end() > 0:
        body = body[m.end() :].strip()
    return _NOT_HERE.match(body.rstrip(b";")) is not None


def _up_to(hops: list[Hop], wanted: Callable[[Unit], bool], min_depth: int) -> list[Hop]:
    """The hops of a tree of lines that lead to a wanted unit at least min_depth hops down (the
    lines' tails cut off)."""
    parent = {h.dst.id: h for h in hops}
    depth: dict[str, int] = {}
    for hop in hops:  # a parent's hop comes before its children's
        depth[hop.dst.id] = depth.get(hop.src.id, 0) + 1
    keep: dict[str, Hop] = {}
    for hop in hops:
        if not wanted(hop.dst) or depth[hop.dst.id] < min_depth:
            continue
        cur = hop
        while cur is not None and cur.dst.id not in keep:
            keep[cur.dst.id] = cur
            cur = parent.get(cur.src.id)
    return [h for h in hops if h.dst.id in keep]


def _flow_order(hops: list[Hop]) -> list[Hop]:
    """Hops sorted by the depth of their caller below the roots (callers nobody here calls),
    then each caller's hops in the order of its call sites."""
    callees = {h.dst.id for h in hops}
    depth: dict[str, int] = {h.src.id: 0 for h in hops if h.src.id not in callees}
    changed = True
    rounds = 0
    while changed and rounds < 32:
        changed, rounds = False, rounds + 1
        for h in hops:
            if h.src.id in depth and depth.get(h.dst.id, 10**6) > depth[h.src.id] + 1:
                depth[h.dst.id] = depth[h.src.id] + 1
                changed = True
    first = {}
    for n, h in enumerate(hops):
        first.setdefault(h.src.id, n)
    return sorted(hops, key=lambda h: (depth.get(h.src.id, 10**6), first[h.src.id], h.line, h.dst.id))


def _entries(targets: dict[str, float], units: dict[str, Unit], steps: RankedSteps, rel: Callable[[Unit], float], checkpoint: Callable[[], None]) -> list[tuple[float, Unit, set[str]]]:
    """Where the work enters: the callers above the question's units that reach the most of
    them, closest first. Each target walks up its likeliest callers; an ancestor collects a
    vote from every target below it (weighted, fading with the distance)."""
    votes: dict[str, float] = defaultdict(float)
    reach: dict[str, set[str]] = defaultdict(set)
    for tid, weight in sorted(targets.items(), key=lambda kv: (-kv[1], kv[0]))[:ENTRY_TARGETS]:
        checkpoint()
        start = units.get(tid)
        if start is None:
            continue
        frontier = [(start, 1.0)]
        seen = {tid}
        for _ in range(ENTRY_DEPTH):
            nxt = []
            for unit, fade in frontier:
                callers = sorted(
                    ((conf * path_prior(src.path), src) for src, _, _, conf in steps.into(unit) if src.id not in seen and conf >= ENTRY_MIN_CONF),
                    key=lambda c: (-c[0], c[1].id),
                )[:ENTRY_FANIN]
                for conf, src in callers:
                    seen.add(src.id)
                    votes[src.id] += weight * fade * conf * ENTRY_FADE
                    reach[src.id].add(tid)
                    nxt.append((src, fade * conf * ENTRY_FADE))
            frontier = nxt
    # the unit itself counts as reached when it is a target
    ranked = sorted(
        ((v + targets.get(uid, 0.0), units[uid], reach[uid]) for uid, v in votes.items() if len(reach[uid] | ({uid} & targets.keys())) >= 2 and uid in units),
        key=lambda t: (-t[0], t[1].id),
    )
    return ranked


def find_flow(
    index: RootIndex,
    likely,
    strong: list[Unit],
    weak: list[Unit],
    relevant: list[Unit],
    relevance: dict[str, float],
    excluded: Callable[[str], bool],
    checkpoint: Callable[[], None],
    interchangeable: Callable[[Unit], bool] = lambda u: False,
) -> Flow:
    """One connected spine for the question.

    1. What the question means: the symbols it names (`strong`), then its best text matches.
    2. Up: the callers above them that reach the most of them are where the work enters.
    3. The core: the cheapest ranked-graph paths from the entries and the named symbols down
       to the question's units, every unit on them included.
    4. Around it, the periphery: callees below the core, cheapest first (proven, relevant,
       not a helper called from everywhere, on the main path).
    5. Beside it: each core unit's likeliest callers that the question's words touch."""
    strong = [u for u in strong if u.is_callable or u.is_type]
    strong_ids = {u.id for u in strong}
    weak = [u for u in weak if (u.is_callable or u.is_type) and u.id not in strong_ids]
    relevant = [u for u in relevant if u.is_callable and not excluded(u.path)]
    if not strong and not weak and not relevant:
        return Flow()
    search = _FlowSearch(index, likely, relevance, excluded, checkpoint, interchangeable, strong)
    # the best word matches are part of the answer even when no path joins them (a question
    # with two parts has two flows), unless they are one of a family's interchangeable members
    search.core |= {u.id for u in weak if not interchangeable(u)}
    member_sources = search.aim(weak, relevant)
    for src in list(dict((u.id, u) for u in strong + weak + member_sources[:MAX_MEMBER_SOURCES]).values())[:MAX_SOURCES]:
        checkpoint()
        search.connect_from(src, search.targets.get(src.id, 0.6))
    entries = search.enter()
    search.above(entries[:1])
    sources = entries + strong + weak
    if not sources and relevant:
        sources = relevant[:1]
        search.connect_from(relevant[0], 1.0)
    if not search.core and sources:
        search.core.add(sources[0].id)
    search.joints()
    flow = search.flow
    flow.hops = _flow_order(flow.hops)  # from where the work enters down, breadth first
    core_callables = [search.units[uid] for uid in sorted(search.core) if uid in search.units and search.units[uid].is_callable]
    core_callables += search.tables(core_callables)
    core_callables += search.named_variants(core_callables)
    core_callables += search.implementations(core_callables)
    search.below(core_callables)
    search.beside(core_callables)
    flow.spine = search.core
    flow.entry = entries[:1] or strong[:1] or relevant[:1]
    return flow


class _FlowSearch:
    """The state of one flow search: the hops so far, the core, the targets and their weights."""

    def __init__(self, index: RootIndex, likely, relevance, excluded, checkpoint, interchangeable, strong: list[Unit]) -> None:
        self.index, self.relevance, self.excluded = index, relevance, excluded
        self.checkpoint, self.interchangeable = checkpoint, interchangeable
        self.units = index.resolver.units
        self.steps = RankedSteps(index, likely, excluded)
        self.flow = Flow()
        self.seen: set[tuple[str, str]] = set()
        self.strong = strong
        self.strong_ids = {u.id for u in strong}
        self.core: set[str] = set(self.strong_ids)
        self.covered: set[str] = set(self.strong_ids)
        self.targets: dict[str, float] = {}
        self.named_types = frozenset({u.id for u in strong if u.is_type} | {u.parent for u in strong if u.parent})
        self._shared_seen: dict[str, bool] = {}  # `_shared`, asked once per unit

    def add(self, hop: Hop) -> bool:
        if (hop.src.id, hop.dst.id) in self.seen or hop.src.id == hop.dst.id:
            return False
        self.seen.add((hop.src.id, hop.dst.id))
        self.flow.hops.append(hop)
        return True

    def rel(self, u: Unit) -> float:
        return self.relevance.get(u.id, 0.0)

    def context(self, uid: str, value: float) -> None:
        if value > self.flow.periphery.get(uid, 0.0):
            self.flow.periphery[uid] = value

    def aim(self, weak: list[Unit], relevant: list[Unit]) -> list[Unit]:
        """The targets and their weights; returns the named types' members the question's words
        find (sources of the flow, like named symbols)."""
        targets = self.targets
        for u in self.strong:
            targets[u.id] = 1.0
        for u in weak:
            targets.setdefault(u.id, 0.6)
        for k, u in enumerate(relevant):
            targets.setdefault(u.id, 0.5 * path_prior(u.path) / (1 + 0.1 * k))
        # A named type takes part through its methods: those the question's words find are
        # named in all but form (sources and strong targets), the others are reachable context.
        member_sources: list[Unit] = []
        for t in [u for u in self.strong if u.is_type]:
            for members in self.index.resolver.members_of(t).values():
                for m in members:
                    if not m.is_callable or self.excluded(m.path):
                        continue
                    if self.rel(m) >= MEMBER_RELEVANCE:
                        targets[m.id] = max(targets.get(m.id, 0.0), 0.8)
                        member_sources.append(m)
                    else:
                        targets.setdefault(m.id, 0.3)
        member_sources.sort(key=lambda m: (-self.rel(m), m.id))
        return member_sources

    def connect_from(self, src: Unit, weight: float) -> None:
        """The core: every unit on the cheapest paths from src to the targets it may reach."""
        found = _connect(src, self.targets, self.steps, self.checkpoint, self.named_types, weight)
        for dst_id, chain in sorted(found.items(), key=lambda kv: (len(kv[1]), kv[0])):
            self.covered.add(dst_id)
            for hop in chain:
                self.add(hop)
                self.core.update((hop.src.id, hop.dst.id))

    def enter(self) -> list[Unit]:
        """Entries joined to the core. An entry above a named symbol, or that reaches fewer than
        two of the question's units the named symbols do not, is context (it leads into the
        named flow), not core."""
        entries: list[Unit] = []
        apart = 0
        for _, entry, reach in _entries(self.targets, self.units, self.steps, self.rel, self.checkpoint):
            if apart >= MAX_ENTRIES or len(entries) >= MAX_ENTRIES + MAX_CHAINED:
                break
            # a caller above an entry already taken leads into the same flow: it extends the
            # flow upward and does not count as a second one
            chained = any(e.id in reach for e in entries)
            if len(reach) < 2 - chained:
                # it reaches one other unit of the question (it counted itself): a neighbour of
                # that unit, not where the work enters, and no context of its own either
                continue
            if self.strong and (len(reach - self.covered) < 2 - chained or reach & self.strong_ids):
                self.context(entry.id, 0.5)
                continue
            apart += not chained
            entries.append(entry)
            self.connect_from(entry, 0.8)
        return entries

    def above(self, entries: list[Unit]) -> None:
        """Above the entry: what calls it, up to where the host hands the work over (context)."""
        for entry in entries:
            cur, value = entry, 1.0
            visited = {cur.id}
            for _ in range(2):
                callers = sorted(
                    ((conf * path_prior(src.path), src, line, how) for src, line, how, conf in self.steps.into(cur) if src.id not in visited and conf >= ENTRY_MIN_CONF),
                    key=lambda c: (-c[0], c[1].id),
                )
                if not callers:
                    break
                step, src, line, how = callers[0]
                value *= step * ENTRY_FADE
                visited.add(src.id)
                self.add(Hop(src, cur, line, how))
                self.context(src.id, value)
                if cur.id in self.core and self._forwards_to(src, cur, line):
                    # the door the host calls (`__call__` → `wsgi_app`): part of the flow's body
                    self.core.add(src.id)
                    self.flow.doors.add(src.id)
                cur = src

    def _forwards_to(self, src: Unit, dst: Unit, line: int) -> bool:
        """`src` only hands its work on to `dst`: all it calls, it calls on that one line, and
        `dst` is among it (a protocol method over the real entry: `return self.wsgi_app(…)`)."""
        out = self.steps.out(src)
        return bool(out) and all(at == line for _, at, _, _ in out) and any(d.id == dst.id for d, _, _, _ in out)

    def _named_flow(self) -> tuple[set[str], set[str]]:
        """The core units a named callable's core hops lead down to, and among them where its
        core path ends (those that lead nowhere further in the core): the named flow goes on
        below them."""
        core_out: dict[str, list[str]] = defaultdict(list)
        for hop in self.flow.hops:
            if hop.src.id in self.core and hop.dst.id in self.core:
                core_out[hop.src.id].append(hop.dst.id)
        seen, stack = set(self.strong_ids), [u for u in self.strong_ids if u in core_out]
        while stack:
            for nxt in core_out[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        steps = seen - self.strong_ids
        return steps, {u for u in steps if not core_out.get(u)}

    def tables(self, anchors: list[Unit]) -> list[Unit]:
        """A lookup table a core unit indexes (`strategies[key](…)`) is where its call goes: the
        table and the functions it lists join the core (a switch written as data). Returns the
        entries added. Interchangeable family members listed there stay siblings."""
        added: list[Unit] = []
        for anchor in anchors:
            for table, line, how, _ in self.steps.out(anchor):
                if how != TABLE_RULE or table.kind != "statement":
                    continue
                entries = {dst.id: Hop(table, dst, at, "table-entry") for dst, at, _, conf in self.steps.out(table) if dst.is_callable and conf >= ENTRY_MIN_CONF}
                # the fallback the lookup line hands over when the key is missing (`table[k] || f`)
                entries.update({dst.id: Hop(anchor, dst, at, rule) for dst, at, rule, _ in self.steps.out(anchor) if at == line and rule in FALLBACK_RULES and dst.is_callable})
                if not entries or len(entries) > MAX_TABLE_ENTRIES:
                    continue
                self.add(Hop(anchor, table, line, how))
                self.core.add(table.id)
                for hop in entries.values():
                    if self.interchangeable(hop.dst) or hop.dst.id in self.core:
                        continue
                    self.add(hop)
                    self.core.add(hop.dst.id)
                    added.append(hop.dst)
        return added

    def named_variants(self, anchors: list[Unit]) -> list[Unit]:
        """A core call to a base or interface method that a type the question names overrides
        (`factories.get(i).get(…)` with `RxJava3CallAdapterFactory` named) runs that type's
        method: it joins the core, though one of a family's members is otherwise a sibling.
        Returns the units added."""
        added: list[Unit] = []
        for anchor in anchors:
            for dst, line, how, conf in self.steps.out(anchor):
                owner = self.units.get(dst.parent) if dst.parent else None
                if conf < ENTRY_MIN_CONF or how in DISPATCH_RULES or owner is None or not owner.is_type:
                    continue
                impls = [m for m in self.steps.likely.overrides(owner, dst.name) if m.parent in self.named_types and m.id not in self.core]
                if len(impls) == 1 and not self.excluded(impls[0].path):
                    self.add(Hop(anchor, impls[0], line, NAMED_VARIANT))
                    self.core.add(impls[0].id)
                    added.append(impls[0])
        return added

    def joints(self) -> None:
        """Parts of the core no connecting path joined (word matches, each with its own steps):
        a unit one core unit calls and that calls, proven, into another part is the step between
        them (`RealImageLoader.execute` → `RealInterceptorChain.proceed` → `copy`) when it is the
        only callee on that call line to do so — so also the one member of a family a guessed
        call reaches that calls on into the core (`interceptor.intercept(next)` →
        `EngineInterceptor.intercept` → `execute`)."""
        for _ in range(JOINT_ROUNDS):
            part = self._parts()
            found: list[Hop] = []
            for uid in sorted(self.core):
                u = self.units.get(uid)
                if u is None or not u.is_callable:
                    continue
                by_line: dict[int, list[tuple[Hop, Hop]]] = defaultdict(list)
                for m, line, how, _ in self.steps.out(u):
                    if m.id in self.core or not m.is_callable or self.excluded(m.path) or self.steps.thrown(u, line):
                        continue
                    onward = [Hop(m, d, at, rule) for d, at, rule, conf in self.steps.out(m)
                              if d.id in self.core and d.is_callable and conf >= SURE_PROVEN and part[d.id] != part[uid]]
                    if onward:
                        by_line[line].append((Hop(u, m, line, how), onward[0]))
                found += [hop for joins in by_line.values() if len(joins) == 1 for hop in joins[0]]
            if not found:
                return
            for hop in found:
                self.add(hop)
                self.core |= {hop.src.id, hop.dst.id}

    def _parts(self) -> dict[str, str]:
        """Each core unit's part: the core units its core hops join it to (union-find)."""
        parent = {uid: uid for uid in self.core}

        def find(x: str) -> str:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for h in self.flow.hops:
            if h.src.id in parent and h.dst.id in parent:
                parent[find(h.src.id)] = find(h.dst.id)
        return {uid: find(uid) for uid in parent}

    def implementations(self, anchors: list[Unit]) -> list[Unit]:
        """A core call to an abstract method (no body, or one that only raises
        NotImplementedError) that one implementation in the code base overrides runs that
        implementation: it joins the core
        (`self.slot.scheduler.enqueue_request(…)` on a `BaseScheduler` → `Scheduler.enqueue_request`).
        Returns the units added."""
        added: list[Unit] = []
        for anchor in anchors:
            by_line: dict[int, list[tuple[Unit, str]]] = defaultdict(list)
            for dst, line, how, _ in self.steps.out(anchor):
                by_line[line].append((dst, how))
            for line, dsts in sorted(by_line.items()):
                declared = [d for d, how in dsts if how not in DISPATCH_RULES]
                impls = [d for d, how in dsts if how in DISPATCH_RULES]
                if len(impls) != 1 or len(declared) != 1 or not _abstract(declared[0], self.index.sources.get(declared[0].path, b"")) or impls[0].id in self.core:
                    continue
                if len({src.id for src, *_ in self.steps.into(declared[0])}) > MAX_STEP_CALLERS:
                    continue  # a service called from everywhere (a logger's `log`), not a step of this flow
                self.add(Hop(anchor, impls[0], line, "family-dispatch"))
                self.core.add(impls[0].id)
                added.append(impls[0])
        return added

    def below(self, anchors: list[Unit]) -> None:
        """The periphery below the core, cheapest callees first. A named callable's own flow is
        what the question asks about: followed deeper and wider, also below where its core path
        ends, where its surest callees carry the core on (`_sure_lines`)."""
        named_steps, named_ends = self._named_flow()
        for anchor in anchors:
            named = anchor.id in self.strong_ids or anchor.id in named_ends
            limit, max_depth = (MAX_DOWN_NAMED, DOWN_DEPTH_NAMED) if named else (MAX_DOWN, DOWN_DEPTH)
            max_cost = MAX_DOWN_COST_NAMED if named else MAX_DOWN_COST
            heap = [(0.0, 0, anchor.id, anchor)]
            kept = 0
            reached = {anchor.id}
            while heap and kept < limit:
                cost, depth, _, unit = heapq.heappop(heap)
                if depth >= max_depth:
                    continue
                for dst, line, how, conf in self.steps.out(unit):
                    if dst.id in reached or dst.id in self.core or self.steps.thrown(unit, line):
                        continue
                    c = cost + self._down_step(dst, conf)
                    if c > max_cost:
                        continue
                    reached.add(dst.id)
                    self.context(dst.id, 1.0 - c / (2 * MAX_DOWN_COST_NAMED))
                    if self.add(Hop(unit, dst, line, how)):
                        kept += 1
                    heapq.heappush(heap, (c, depth + 1, dst.id, dst))
        self.core |= self._sure_lines(named_ends)
        if not any(u.is_callable for u in self.strong):
            # no named callable marks where the flow goes on: any core step's proven line
            # does, as far as it reaches what the question speaks of (`enqueue_scrape`)
            self.core |= self._sure_lines({a.id for a in anchors}, min_conf=SURE_PROVEN, to_words=True)
        # above the ends, each step's own helpers carry the flow on too (`Find` → `stripFlags`)
        self.core |= self._sure_lines(named_steps - named_ends, own_file=True)

    def _sure_lines(self, ends: set[str], own_file: bool = False, min_conf: float = SURE_STEP, to_words: bool = False) -> set[str]:
        """Below where a named flow's core path ends, its surest callees (at least SURE_STEP
        likely, the SURE_WIDTH cheapest of each unit, none a helper shared by more than
        SURE_CALLERS callers) carry the core on, at most SURE_MAX units below each end: a future
        polled by a future polled by a future is one flow. With `own_file`, only callees in the
        caller's own file: a step's own helpers; with `to_words`, only the line's units up to
        one the question's words touch (SURE_WORDS)."""
        sure: set[str] = set()
        for end in sorted(e for e in ends if e in self.units):
            line_hops: list[Hop] = []
            heap, seen, taken = [(0.0, end, self.units[end])], {end}, 0
            while heap and taken < SURE_MAX:
                cost, _, unit = heapq.heappop(heap)
                ranked = sorted(
                    ((cost + self._down_step(dst, conf), dst.id, dst, line, how) for dst, line, how, conf in self.steps.out(unit)
                     if conf >= min_conf and dst.is_callable and dst.id not in seen and dst.id not in self.core
                     and (not own_file or dst.path == unit.path)),
                    key=lambda x: (x[0], x[1]),
                )
                # the cheapest first, asking who else calls each only until SURE_WIDTH are taken: a
                # callee's callers are the costly question on a large code base
                callees = list(islice((c for c in ranked if not self._shared(c[2])), SURE_WIDTH))
                for c, uid, dst, line, how in callees:
                    seen.add(uid)
                    taken += 1
                    line_hops.append(Hop(unit, dst, line, how))
                    heapq.heappush(heap, (c, uid, dst))
            if to_words:
                line_hops = _up_to(line_hops, lambda u: self.rel(u) >= SURE_WORDS, SURE_CHAIN)
            for hop in line_hops:
                sure.add(hop.dst.id)
                self.add(hop)
        return sure

    def _shared(self, unit: Unit) -> bool:
        """A helper more than SURE_CALLERS callers use (`c.Name()`, `c.Root()`) is shared, not
        the next step of this one flow."""
        known = self._shared_seen.get(unit.id)
        if known is None:
            known = self._shared_seen[unit.id] = len({src.id for src, _, _, conf in self.steps.into(unit) if conf >= ENTRY_MIN_CONF}) > SURE_CALLERS
        return known

    def _down_step(self, dst: Unit, conf: float) -> float:
        """A hop down costs more when it is only likely, when its callee does not speak the
        question's words, is a helper called from everywhere, or lives off the main path."""
        graph = self.index.graph.g
        fan_in = graph.in_degree(dst.id) if dst.id in graph else 0
        return (
            HOP_COST + (1 - conf) * 0.6 + (1 - min(1.0, 2 * self.rel(dst))) * DOWN_REL_COST
            + DOWN_FANIN_COST * math.log2(1 + max(0, fan_in - 2)) + (1 - path_prior(dst.path)) * 0.5
        )

    def beside(self, anchors: list[Unit]) -> None:
        """The callers of each core unit that the question's words touch: where a step is used
        from (the engine method that hands over to the downloader, the middleware that calls the
        handler) is what a reader opens next. Family members calling back into the core, three or
        more of them (every interceptor's `intercept` calls `chain.proceed`, every operator calls
        `operate`), are the family, not the flow."""
        for anchor in anchors:
            if bodiless(anchor):
                continue  # an interface's declaration: its callers are the API's clients, not the flow's steps
            into = [(src, line, how, conf) for src, line, how, conf in self.steps.into(anchor) if src.id not in self.core and conf >= ENTRY_MIN_CONF]
            members = {src.id for src, *_ in into if self.interchangeable(src)}
            family_calls = len(members) >= MIN_FAMILY_CALLERS
            callers = sorted(
                (
                    (conf * (0.3 + min(1.0, 2 * self.rel(src))) * path_prior(src.path), src, line, how)
                    for src, line, how, conf in into
                    if not (family_calls and src.id in members)
                ),
                key=lambda c: (-c[0], c[1].id),
            )
            for value, src, line, how in callers[:MAX_UP]:
                self.context(src.id, min(MAX_UP_VALUE, value * UP_FADE))
                self.add(Hop(src, anchor, line, how))
