"""The RAG layer's scheduler: lanes, whole-group reservations, role rotation, one hop.

Role scheduling sits outside the candidate order, so a high-degree helper never competes
with an entry for a skeleton slot. Greedy, not a complete solver: a failure to place is
reported as "selection incomplete", never as "no plan exists".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..index.facts import Unit
from .surfaces import non_architecture, test_code
from .obligations import Located
from .request import ObligationSpec
from .roles import BOUNDARY, SKELETON_ROLES, Roles
from .topology import Model

LANE_CAPS = {"skeleton": 16, "context": 12, "boundary": 4}
MAX_UNITS = 32
MAX_BODY_BYTES = 98_304
OPTIONAL_PER_FILE = 2
QUEUE_LIMIT = 64  # candidates kept per role queue: bounds the dynamic re-ranking


@dataclass
class Pick:
    uid: str
    lane: str
    reason: str


@dataclass
class Selection:
    picks: dict[str, Pick] = field(default_factory=dict)  # insertion order = selection order
    aliases: dict[str, str] = field(default_factory=dict)  # contained child → selected parent
    body_bytes: int = 0
    refused: dict[str, str] = field(default_factory=dict)  # obligation id → why its group was not placed
    rejections: dict[str, str] = field(default_factory=dict)  # uid → recorded reason
    covered_components: set[int] = field(default_factory=set)
    cross_pairs: set[tuple[int, int]] = field(default_factory=set)
    incomplete: bool = False
    timed_out: bool = False
    # once every stage that fills the boundary lane has run, the context lane may take the places it left empty
    # (the learned selection's turned-away picks, last): context and boundary together stay within their two caps
    spill: bool = False

    def cap(self, lane: str) -> int:
        if lane == "context" and self.spill:
            return LANE_CAPS["context"] + LANE_CAPS["boundary"] - self.lane_count("boundary")
        return LANE_CAPS[lane]

    def lane_count(self, lane: str) -> int:
        return sum(1 for p in self.picks.values() if p.lane == lane)

    def has(self, uid: str) -> bool:
        return uid in self.picks or uid in self.aliases



def _contains(a: Unit, b: Unit) -> bool:
    return a.path == b.path and a.start_byte <= b.start_byte and b.end_byte <= a.end_byte and a.id != b.id


class Scheduler:
    def __init__(self, model: Model, units: dict[str, Unit], roles: Roles, tick: Callable[[], bool]) -> None:
        self.m, self.units, self.roles, self.tick = model, units, roles, tick
        self.sel = Selection()
        self.stands_for: dict[str, list[str]] = {}  # a type shown whole → the units it stands for (their neighbours)
        self._by_path: dict[str, list[str]] = {}

    # ---- primitives -----------------------------------------------------------------
    def cost(self, uid: str) -> int:
        u = self.units[uid]
        return u.end_byte - u.start_byte

    def _container(self, uid: str) -> str | None:
        u = self.units[uid]
        return next((p for p in self._by_path.get(u.path, []) if _contains(self.units[p], u)), None)

    def _children(self, uid: str) -> list[str]:
        u = self.units[uid]
        return [p for p in self._by_path.get(u.path, []) if _contains(u, self.units[p])]

    def fits(self, uids: list[str], lane: str) -> str:
        """'' when the whole group fits the lane, the 32-unit cap and the byte budget; else the reason."""
        new = [u for u in dict.fromkeys(uids) if not self.sel.has(u) and self._container(u) is None]
        freed = {c for u in new for c in self._children(u)}
        slots = len(new) - len([c for c in freed if self.sel.picks[c].lane == lane])
        delta = sum(self.cost(u) for u in new) - sum(self.cost(c) for c in freed)
        if self.sel.lane_count(lane) + slots > self.sel.cap(lane):
            return f"{lane}_lane_full"
        if len(self.sel.picks) + len(new) - len(freed) > MAX_UNITS:
            return "unit_cap"
        if self.sel.body_bytes + delta > MAX_BODY_BYTES:
            return "complete_unit_budget"
        return ""

    def add(self, uid: str, lane: str, reason: str) -> None:
        """Adds one legal unit; a contained unit becomes an alias, a containing unit replaces its children."""
        if self.sel.has(uid):
            return
        parent = self._container(uid)
        if parent is not None:
            self.sel.aliases[uid] = parent
            return
        for child in self._children(uid):  # whole parent chosen: children alias the same read body
            self.sel.body_bytes -= self.cost(child)
            del self.sel.picks[child]
            self._by_path[self.units[child].path].remove(child)
            self.sel.aliases[child] = uid
        self.sel.picks[uid] = Pick(uid, lane, reason)
        self._by_path.setdefault(self.units[uid].path, []).append(uid)
        self.sel.body_bytes += self.cost(uid)
        if uid in self.m.units:
            comp = self.m.component(uid)
            self.sel.covered_components.add(comp)
            for n in self.m.neighbours(uid):
                if self.sel.has(n) and self.m.component(n) != comp:
                    self.sel.cross_pairs.add((min(comp, self.m.component(n)), max(comp, self.m.component(n))))

    def try_add(self, uid: str, lane: str, reason: str) -> bool:
        why = self.fits([uid], lane)
        if why:
            self.sel.rejections.setdefault(uid, why)
            return False
        self.add(uid, lane, reason)
        return True

    # ---- stages ---------------------------------------------------------------------
    def reserve(self, spec: ObligationSpec, located: list[Located]) -> None:
        """Whole witness group or nothing, in the skeleton lane; a refusal is recorded, never moved."""
        usable = [loc for loc in located if loc.uids]
        if not usable:
            return
        for loc in usable:
            if all(self.sel.has(u) for u in loc.uids):
                return
        reasons = []
        for loc in usable:
            why = self.fits(list(loc.uids), "skeleton")
            if not why:
                for u in loc.uids:
                    self.add(u, "skeleton", f"obligation:{spec.id}")
                return
            reasons.append(why)
        self.sel.refused[spec.id] = f"required_group_budget ({reasons[0]})" if spec.required else f"group did not fit ({reasons[0]})"
        if spec.required:
            self.sel.incomplete = True

    def _queue(self, role: str, pool: set[str] | None) -> list[str]:
        cands = [u for u, r in self.roles.items() if role in r and u in self.m.units and not self.m.units[u].is_type
                 and (pool is None or u in pool)]
        cands.sort(key=lambda u: (self.roles[u][role][0], -self.m.centrality(u), self.cost(u), self.m.stable(u)))
        return cands[:QUEUE_LIMIT]

    def _key(self, uid: str, role: str) -> tuple:
        """Lexicographic: new component, tier, new cross-component relation, centrality, cost, stable order."""
        comp = self.m.component(uid)
        cross = any(self.sel.has(n) and self.m.component(n) != comp
                    and (min(comp, self.m.component(n)), max(comp, self.m.component(n))) not in self.sel.cross_pairs
                    for n in self.m.neighbours(uid))
        return (comp in self.sel.covered_components, self.roles[uid][role][0], not cross,
                -self.m.centrality(uid), self.cost(uid), self.m.stable(uid))

    def _best(self, queue: list[str], role: str, max_tier: int, new_component: bool) -> str | None:
        live = [u for u in queue if not self.sel.has(u) and self._container(u) is None and not self._children(u)
                and u not in self.sel.rejections and self.roles[u][role][0] <= max_tier
                and (not new_component or self.m.component(u) not in self.sel.covered_components)]
        return min(live, key=lambda u: self._key(u, role)) if live else None

    def rotate(self, pool: set[str] | None = None) -> None:
        """Uncovered role → uncovered component → second round of representatives (skeleton lane)."""
        queues = {r: self._queue(r, pool) for r in SKELETON_ROLES}
        covered = {r for r in SKELETON_ROLES if any(r in self.roles.get(p, {}) for p in self.sel.picks)}
        for role in SKELETON_ROLES:  # round 1: every role not yet covered gets its best unit
            if self.tick():
                self.sel.timed_out = True
                return
            while role not in covered:
                best = self._best(queues[role], role, 3, False)
                if best is None or self.sel.lane_count("skeleton") >= LANE_CAPS["skeleton"]:
                    break
                if self.try_add(best, "skeleton", f"role:{role}"):
                    covered |= {r for r in SKELETON_ROLES if r in self.roles[best]}
        for new_component in (True, False):  # round 2: uncovered components; round 3: second representatives
            progress = True
            while progress and self.sel.lane_count("skeleton") < LANE_CAPS["skeleton"]:
                if self.tick():
                    self.sel.timed_out = True
                    return
                progress = False
                for role in SKELETON_ROLES:
                    best = self._best(queues[role], role, 3 if new_component else 2, new_component)
                    if best is not None and self.sel.lane_count("skeleton") < LANE_CAPS["skeleton"]:
                        why = "component" if new_component else "second-round"
                        progress |= self.try_add(best, "skeleton", f"{why}:{role}") or True

    def one_hop(self, boundary: dict[str, tuple[int, str, tuple]]) -> None:
        """Frozen backbone; one hop over resolved relations; added context never seeds a second hop."""
        backbone = [p for p, pick in self.sel.picks.items() if pick.lane == "skeleton"]
        links: dict[str, int] = {}
        for b in backbone:
            near = [n for x in [b] + self.stands_for.get(b, []) if x in self.m.units for n in self.m.neighbours(x)]
            for n in dict.fromkeys(near):
                if not self.sel.has(n) and not non_architecture(self.units[n].path) and not test_code(self.units[n]):  # examples, docs, benchmarks, inline tests stay out
                    links[n] = links.get(n, 0) + 1
        per_file: dict[str, int] = {}

        def room(uid: str) -> bool:
            return per_file.get(self.units[uid].path, 0) < OPTIONAL_PER_FILE

        def take(uid: str, lane: str, reason: str) -> None:
            if self._container(uid) is None and not self._children(uid) and room(uid) and self.try_add(uid, lane, reason):
                per_file[self.units[uid].path] = per_file.get(self.units[uid].path, 0) + 1

        attached = sorted((u for u in links if u in boundary),
                          key=lambda u: (boundary[u][0], -links[u], self.cost(u), self.m.stable(u)))
        for uid in attached:
            if self.sel.lane_count("boundary") >= LANE_CAPS["boundary"] or self.tick():
                break
            take(uid, "boundary", "boundary:attached")
        rest = sorted((u for u in links if not self.sel.has(u) and not self.units[u].is_type), key=lambda u: (
            not self.roles.get(u), -links[u], min((t for t, _ in self.roles.get(u, {}).values()), default=9),
            -self.m.centrality(u), self.cost(u), self.m.stable(u)))
        for uid in rest:
            if self.sel.lane_count("context") >= LANE_CAPS["context"]:
                break
            if self.tick():
                self.sel.timed_out = True
                break
            take(uid, "context", "one-hop")

    def check(self) -> None:
        """The selection invariants; a violation is a bug, not a soft failure."""
        s = self.sel
        assert len(s.picks) <= MAX_UNITS, len(s.picks)
        assert s.body_bytes == sum(self.cost(u) for u in s.picks) <= MAX_BODY_BYTES, s.body_bytes
        for lane in LANE_CAPS:
            assert s.lane_count(lane) <= s.cap(lane), (lane, s.lane_count(lane))
        assert s.lane_count("context") + s.lane_count("boundary") <= LANE_CAPS["context"] + LANE_CAPS["boundary"]
        picked = list(s.picks)
        for i, a in enumerate(picked):
            for b in picked[i + 1 :]:
                assert not _contains(self.units[a], self.units[b]) and not _contains(self.units[b], self.units[a]), (a, b)


def boundary_of(roles: Roles, boundary: dict[str, tuple[int, str, tuple]]) -> None:
    """Attaches BOUNDARY labels (computed for the backbone neighbourhood only) to the role table."""
    for uid, (tier, why, _) in boundary.items():
        roles.setdefault(uid, {}).setdefault(BOUNDARY, (tier, why))  # a reason from the flow stays first
