"""find_named_flow_path: the call chain that connects the symbols a question names.

Hops follow resolved call/construct edges. Two marked fallbacks widen that: jedi for Python
unknowns whose name matches a wanted target, and a link to a name defined exactly once in
the index (never reported as a resolved fact: the hop says `candidate`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from ..bindings.jedi_upgrade import JediResolver
from ..index.facts import Unit
from ..index.index import RootIndex
from .relevance import NameTable

MAX_DEPTH = 6
MAX_SOURCES = 12
MAX_TREE_HOPS = 12


@dataclass(frozen=True)
class Hop:
    src: Unit
    dst: Unit
    line: int  # call site line in src's file
    how: str  # resolved|jedi|candidate


@dataclass
class Flow:
    hops: list[Hop] = field(default_factory=list)
    spine: set[str] = field(default_factory=set)  # unit ids on the traced chain(s)
    entry: list[Unit] = field(default_factory=list)


class CallSteps:
    """Outgoing call steps of a unit, resolved edges first, fallbacks marked."""

    def __init__(self, index: RootIndex, names: NameTable, wanted: set[str], checkpoint: Callable[[], None]) -> None:
        self.index = index
        self.names = names
        self.wanted = wanted  # names of target units: jedi is asked only about these
        self.checkpoint = checkpoint
        self.jedi = JediResolver(index.root, index.files, index.sources)
        self._unresolved: dict[str, dict[str, list[int]]] = {}

    def _unresolved_by_caller(self, path: str) -> dict[str, list[int]]:
        if path not in self._unresolved:
            grouped: dict[str, list[int]] = {}
            facts = self.index.files[path]
            for idx in self.index.bindings[path].unresolved:
                caller = facts.calls[idx].caller
                if caller:
                    grouped.setdefault(caller, []).append(idx)
            self._unresolved[path] = grouped
        return self._unresolved[path]

    def steps(self, unit: Unit) -> list[tuple[Unit, int, str]]:
        units = self.index.resolver.units
        out: list[tuple[Unit, int, str]] = []
        for dst, kind, line in sorted(self.index.graph.out(unit.id)):
            target = units.get(dst)
            if target is None:
                continue
            if target.is_type:  # constructing a type runs its constructor
                ctor = next((m for name in ("__init__", "constructor", target.name) for m in self.index.resolver.members_of(target).get(name, [])), None)
                target = ctor or target
            out.append((target, line, "resolved"))
        facts = self.index.files.get(unit.path)
        if facts is None:
            return out
        for idx in self._unresolved_by_caller(unit.path).get(unit.id, []):
            call = facts.calls[idx]
            defs = self.names.by_name.get(call.name, [])
            if len(defs) == 1 and defs[0].id != unit.id and defs[0].is_callable:
                out.append((defs[0], call.line, "candidate"))
            elif call.name in self.wanted and facts.language == "python":
                self.checkpoint()
                hit = self.jedi.resolve(facts, call)
                if hit is not None and hit.id != unit.id:
                    out.append((hit, call.line, "jedi"))
        return out


def _bfs(start: Unit, targets: set[str], steps: CallSteps) -> dict[str, list[Hop]]:
    """Shortest hop lists from start to each reachable target."""
    parents: dict[str, Hop | None] = {start.id: None}
    queue = deque([(start, 0)])
    found: dict[str, list[Hop]] = {}
    while queue:
        unit, depth = queue.popleft()
        if unit.id in targets and unit.id != start.id and unit.id not in found:
            chain: list[Hop] = []
            cur = parents[unit.id]
            while cur is not None:
                chain.append(cur)
                cur = parents[cur.src.id]
            found[unit.id] = list(reversed(chain))
        if depth >= MAX_DEPTH:
            continue
        for dst, line, how in steps.steps(unit):
            if dst.id not in parents:
                parents[dst.id] = Hop(unit, dst, line, how)
                queue.append((dst, depth + 1))
    return found


def find_named_flow_path(
    index: RootIndex,
    names: NameTable,
    endpoints: list[Unit],
    ambiguity: dict[str, int],
    relevance: dict[str, float],
    checkpoint: Callable[[], None],
    strong: frozenset[str] = frozenset(),
) -> Flow:
    """Chains between named callables; with a single entry, its most relevant callees."""
    flow = Flow()
    callables = [u for u in endpoints if u.is_callable or u.is_type]
    if not callables:
        return flow
    targets = {u.id for u in callables}
    steps = CallSteps(index, names, {u.name for u in callables}, checkpoint)
    # Start only from specific endpoints: a name the question gives with few definitions.
    sources = sorted((u for u in callables if ambiguity.get(u.id, 1) <= 3), key=lambda u: (-relevance.get(u.id, 0.0), u.id))[:MAX_SOURCES]
    seen_hops: set[tuple[str, str]] = set()
    for src in sources:
        checkpoint()
        for _, chain in sorted(_bfs(src, targets, steps).items(), key=lambda kv: (len(kv[1]), kv[0])):
            for hop in chain:
                if (hop.src.id, hop.dst.id) not in seen_hops:
                    seen_hops.add((hop.src.id, hop.dst.id))
                    flow.hops.append(hop)
    # Entries no traced path touches (all of them, when only one symbol is named): their
    # relevant callees, breadth first, so each named entry brings its own steps.
    on_paths = {h.src.id for h in flow.hops} | {h.dst.id for h in flow.hops}
    for entry in [u for u in sources if u.id not in on_paths and u.is_callable][:4]:
        queue = deque([(entry, 0)])
        visited = {entry.id}
        added = 0
        while queue and added < MAX_TREE_HOPS // 2 and len(flow.hops) < 3 * MAX_TREE_HOPS:
            cur, depth = queue.popleft()
            if depth >= 2:
                continue
            for dst, line, how in steps.steps(cur):
                if dst.id in visited or relevance.get(dst.id, 0.0) <= 0 and dst.id not in targets:
                    continue
                visited.add(dst.id)
                if (cur.id, dst.id) not in seen_hops:
                    seen_hops.add((cur.id, dst.id))
                    flow.hops.append(Hop(cur, dst, line, how))
                    added += 1
                queue.append((dst, depth + 1))
    for hop in flow.hops:
        flow.spine.update((hop.src.id, hop.dst.id))
    flow.entry = sources[:1]
    if not flow.hops and sources:
        flow.spine.add(sources[0].id)
    return flow
