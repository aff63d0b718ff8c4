"""The DAG layer: candidate units, resolved adjacency, components and saturated centrality.

Only resolved (provable) relations enter the adjacency; unresolved call expressions stay
syntax records. Everything is iterated in sorted order so shuffled dictionaries give the
same model.
"""

from __future__ import annotations

import heapq
import posixpath
from dataclasses import dataclass, field


from ..graph.copies import copy_files
from ..model.facts import CLASS_KINDS, Call, Unit
from ..workspace.scope import is_test_path

SATURATION = 8  # h(d) = d / (d + 8): a fixed, versioned parameter
CALL_EDGE_KINDS = ("calls", "constructs")


def h(d: int) -> float:
    return d / (d + SATURATION)


@dataclass
class Component:
    id: int
    name: str
    packages: tuple[str, ...]
    depends_on: tuple[int, ...]


@dataclass
class Model:
    units: dict[str, Unit]  # every in-scope unit (tests excluded)
    order: dict[str, int]  # stable rank: path, start byte, qualname
    out: dict[str, set[str]] = field(default_factory=dict)  # distinct resolved callees
    inc: dict[str, set[str]] = field(default_factory=dict)  # distinct resolved callers
    kinds: dict[tuple[str, str], str] = field(default_factory=dict)  # (src, dst) → calls|constructs
    lines: dict[tuple[str, str], int] = field(default_factory=dict)  # (src, dst) → first line
    calls: dict[str, list[Call]] = field(default_factory=dict)  # all call records by caller
    unresolved: dict[str, list[Call]] = field(default_factory=dict)
    package_of: dict[str, str] = field(default_factory=dict)  # path → package (directory)
    component_of: dict[str, int] = field(default_factory=dict)  # package → component id
    components: list[Component] = field(default_factory=list)
    cycles: list[tuple[str, ...]] = field(default_factory=list)  # call-layer SCCs of size > 1
    unresolved_total: int = 0
    _centrality: dict[str, float] = field(default_factory=dict)
    owner_types: dict[str, str] = field(default_factory=dict)  # uid → the type holding it ("" when none), filled on use
    public: dict[str, bool] = field(default_factory=dict)  # uid → public by its language's syntax, filled on use
    _type_names: set[str] | None = None
    _by_path: dict[str, list[Unit]] | None = None

    def units_in(self, path: str) -> list[Unit]:
        """The model's units of one file, in stable order (the table is built once, on first use)."""
        if self._by_path is None:
            by_path: dict[str, list[Unit]] = {}
            for u in self.units.values():
                by_path.setdefault(u.path, []).append(u)
            self._by_path = by_path
        return self._by_path.get(path, [])

    def type_names(self) -> set[str]:
        """Names of the types declared in scope (computed once)."""
        if self._type_names is None:
            self._type_names = {u.name for u in self.units.values() if u.kind in CLASS_KINDS}
        return self._type_names

    def component(self, uid: str) -> int:
        return self.component_of[self.package_of[self.units[uid].path]]

    def cost(self, uid: str) -> int:
        u = self.units[uid]
        return u.end_byte - u.start_byte

    def centrality(self, uid: str) -> float:
        """C(v) = (2·h(d_in) + h(d_out) + h(d_cross)) / 4 over distinct neighbours."""
        hit = self._centrality.get(uid)
        if hit is not None:
            return hit
        ins, outs = self.inc.get(uid, set()), self.out.get(uid, set())
        mine = self.component(uid)
        cross = sum(1 for n in ins | outs if self.component(n) != mine)
        value = self._centrality[uid] = (2 * h(len(ins)) + h(len(outs)) + h(cross)) / 4
        return value

    def stable(self, uid: str) -> tuple:
        u = self.units[uid]
        return (u.path, u.start_byte, u.qualname)

    def neighbours(self, uid: str) -> set[str]:
        return self.out.get(uid, set()) | self.inc.get(uid, set())


_PACKAGES: dict[str, str] = {}


def _package(path: str) -> str:
    hit = _PACKAGES.get(path)
    if hit is None:
        hit = _PACKAGES[path] = posixpath.dirname(path) or "."
        if len(_PACKAGES) > 200_000:
            _PACKAGES.clear()
    return hit


def build_model(index, include_tests: bool = False) -> Model:
    """Reads the index snapshot once; O(V + E). Tests (unless asked for), bundles and second builds that
    repeat the project's own modules (graph/copies.py) are material about the code, not its architecture."""
    copies = copy_files(u for facts in index.files.values() for u in facts.units)

    def left_out(path: str) -> bool:
        return path in copies or (not include_tests and is_test_path(path))

    units: dict[str, Unit] = {}
    for path in sorted(index.files):
        if left_out(path):
            continue
        for u in index.files[path].units:
            units[u.id] = u
    ranked = sorted(units.values(), key=lambda u: (u.path, u.start_byte, u.qualname))
    model = Model(units={u.id: u for u in ranked}, order={u.id: i for i, u in enumerate(ranked)})
    pkg_edges: set[tuple[str, str]] = set()
    for path in sorted(index.files):
        model.package_of[path] = _package(path)
    for path in sorted(index.bindings):
        if path not in index.files or left_out(path):
            continue
        facts, b = index.files[path], index.bindings[path]
        calls = tuple(facts.calls)  # decoded once: indexing a cached file's deferred records decodes per item
        # the tables are bound to locals: this loop visits every call of the code base (Django: ~177,000)
        in_model, by_caller, unresolved = model.units, model.calls, model.unresolved
        for call in calls:
            caller = call.caller
            if caller in in_model:
                got = by_caller.get(caller)
                if got is None:
                    by_caller[caller] = [call]
                else:
                    got.append(call)
        for i in b.unresolved:
            call = calls[i]
            model.unresolved_total += 1
            if call.caller in in_model:
                unresolved.setdefault(call.caller, []).append(call)
        out, inc, kinds, lines = model.out, model.inc, model.kinds, model.lines
        for e in b.edges:
            kind, src, dst = e.kind, e.src, e.dst
            if kind == "imports":
                if dst in model.package_of and not left_out(dst):
                    pkg_edges.add((_package(src), _package(dst)))
                continue
            if kind not in CALL_EDGE_KINDS or src not in in_model or dst not in in_model or src == dst:
                continue
            out.setdefault(src, set()).add(dst)
            inc.setdefault(dst, set()).add(src)
            key = (src, dst)
            if key not in kinds:  # (kinds and lines are set together: the first edge of a pair wins both)
                kinds[key] = kind
                lines[key] = e.line
            a, c = _package(e.src.split("::", 1)[0]), _package(e.dst.split("::", 1)[0])
            if a != c:
                pkg_edges.add((a, c))
    _components(model, pkg_edges)
    model.cycles = _call_cycles(model)
    return model


def _components(model: Model, pkg_edges: set[tuple[str, str]]) -> None:
    """Packages condensed by SCC, numbered in stable topological order: among the components whose
    dependents are all numbered, the one holding the smallest package name comes next."""
    packages = sorted({p for p in model.package_of.values()})
    pos = {p: i for i, p in enumerate(packages)}
    succ: list[list[int]] = [[] for _ in packages]
    for a, b in pkg_edges:
        if a != b and a in pos and b in pos:
            succ[pos[a]].append(pos[b])
    comp, groups = _scc(succ)
    dag: list[set[int]] = [set() for _ in groups]
    for v, ws in enumerate(succ):
        dag[comp[v]].update(comp[w] for w in ws if comp[w] != comp[v])
    members = [tuple(packages[i] for i in g) for g in groups]  # groups are sorted: so are the names
    order = _lexicographic_order(dag, [m[0] for m in members])
    renum = {c: i for i, c in enumerate(order)}
    for c in order:
        pk = members[c]
        deps = tuple(sorted(renum[d] for d in dag[c]))
        model.components.append(Component(renum[c], "+".join(pk), pk, deps))
        for p in pk:
            model.component_of[p] = renum[c]


def _lexicographic_order(succ: list[set[int]], key: list[str]) -> list[int]:
    """Topological order of a DAG taking, of the ready vertices, the one with the smallest (unique) key."""
    indegree = [0] * len(succ)
    for ws in succ:
        for w in ws:
            indegree[w] += 1
    ready = [(key[v], v) for v in range(len(succ)) if not indegree[v]]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        _, v = heapq.heappop(ready)
        order.append(v)
        for w in succ[v]:
            indegree[w] -= 1
            if not indegree[w]:
                heapq.heappush(ready, (key[w], w))
    return order


def _call_cycles(model: Model) -> list[tuple[str, ...]]:
    """Call-layer SCCs of size > 1, each in stable order, sorted by their first unit."""
    rank = model.order
    nodes = sorted(_on_some_cycle(model.out, model.inc), key=rank.__getitem__)
    pos = {u: i for i, u in enumerate(nodes)}
    _, members = _scc([[pos[d] for d in model.out[u] if d in pos] for u in nodes])
    cycles = [tuple(nodes[i] for i in group) for group in members if len(group) > 1]  # groups sorted: stable order
    return sorted(cycles, key=lambda c: rank[c[0]])


def _on_some_cycle(out: dict[str, set[str]], inc: dict[str, set[str]]) -> set[str]:
    """The units left once those that call nothing or are called by nothing are peeled off, again and
    again: every cycle survives whole, and the SCC search then walks a small remnant, not the call graph."""
    alive = {u for u in out if u in inc}
    callees = {u: sum(1 for d in out[u] if d in alive) for u in alive}
    callers = {u: sum(1 for s in inc[u] if s in alive) for u in alive}
    peel = [u for u in alive if not callees[u] or not callers[u]]
    while peel:
        u = peel.pop()
        if u not in alive:
            continue
        alive.remove(u)
        for d in out[u]:
            if d in alive:
                callers[d] -= 1
                if not callers[d]:
                    peel.append(d)
        for s in inc[u]:
            if s in alive:
                callees[s] -= 1
                if not callees[s]:
                    peel.append(s)
    return alive


def _scc(succ: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    """Iterative Tarjan: component of each vertex, components numbered in reverse topological order.
    A visited vertex is on the stack until its component is known (`comp` -1); each frame resumes
    its own successor iterator, and a component is the stack above its root's recorded position."""
    n = len(succ)
    index = [-1] * n
    low = [0] * n
    comp = [-1] * n
    at = [0] * n  # position of each vertex on the stack
    members: list[list[int]] = []
    stack: list[int] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        index[root] = low[root] = counter
        counter += 1
        at[root] = len(stack)
        stack.append(root)
        work = [(root, iter(succ[root]))]
        while work:
            v, successors = work[-1]
            for w in successors:
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    at[w] = len(stack)
                    stack.append(w)
                    work.append((w, iter(succ[w])))
                    break
                if comp[w] == -1 and index[w] < low[v]:  # on the stack
                    low[v] = index[w]
            else:
                work.pop()
                if work and low[v] < low[work[-1][0]]:
                    low[work[-1][0]] = low[v]
                if low[v] == index[v]:
                    group = stack[at[v]:]
                    del stack[at[v]:]
                    for w in group:
                        comp[w] = len(members)
                    members.append(sorted(group) if len(group) > 1 else group)  # (most are one vertex)
    return comp, members
