"""The ranked graph for selection: resolved edges plus *likely* call and reference targets.

The proven graph (`index.bindings`, `index.graph`) stays what it is: facts and distill
evidence read only that. This module answers, for explore's search, "where does this unit
probably go, and who probably comes here": every resolved call/construct edge (confidence
1.0), then for each call site the resolver left unknown the targets named rules propose, each
with a confidence equal to the rule's measured precision (`bench/bench_likely.py` hides
resolved edges and lets the rules recover them).

Lazy per file: a file's likely targets are computed on the first `out()` of one of its units;
`into()` asks the resolver's reverse name index which files reference the unit's name and
computes those. Nothing decodes every file's calls up front.
"""

from __future__ import annotations

import posixpath
import threading
from collections import defaultdict
from typing import TYPE_CHECKING, NamedTuple

from ..index.facts import CLASS_KINDS, Call, FileFacts, Unit
from ..workspace.scope import is_test_path

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex


class Likely(NamedTuple):
    src: str  # caller unit id
    dst: str  # callee/referenced unit id
    line: int  # call/reference site line in src's file
    confidence: float  # 0..1, calibrated: measured precision of the rule
    rule: str  # short plain name of the rule that proposed it


# Measured precision of each rule for one proposed target (bench/bench_likely.py, hidden
# resolved edges on the development corpora). A rule proposing k targets for one site gives
# each the precision measured for that k (`_K_FACTOR`).
RULE_CONFIDENCE: dict[str, float] = {
    "resolved": 1.0,
    "same-file": 0.95,
    "import-reach": 0.9,
    "same-package": 0.8,
    "unique-name": 0.7,
    "receiver-name": 0.8,
    "attr-type": 0.85,
    "field-type": 0.85,
    "return-type": 0.85,
    "local-type": 0.85,
    "family-dispatch": 0.5,
    "subtype-method": 0.5,
    "base-method": 0.7,
    "protocol-call": 0.4,
    "callback-ref": 0.8,
    "method-value": 0.8,
}
_K_FACTOR = {1: 1.0, 2: 0.5, 3: 0.34}
MAX_NAME_CANDIDATES = 3  # more same-named definitions in the best locality tier: no guess
MAX_DISPATCH = 8  # overriding implementations listed for one call on a base/interface method
MAX_INTO_FILES = 400  # candidate caller files computed for one into()
CTOR_NAMES = ("__init__", "constructor")
_SECONDARY_DIRS = frozenset({"examples", "example", "docs", "doc", "benchmarks", "benchmark", "bench", "samples", "sample", "demo", "demos", "scripts"})
_COMPILED_DIRS = frozenset({"dist", "build", "lib", "out", "es", "esm", "cjs", "umd", "bundles"})
_SOURCE_EXTS = (".ts", ".tsx", ".mts", ".cts")


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


def _secondary(path: str) -> int:
    """0 main source, 1 examples/docs/benchmarks, 2 compiled copies and declarations."""
    base = posixpath.basename(path)
    if base.endswith((".d.ts", ".d.cts", ".d.mts", ".min.js")):
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


class LikelyGraph:
    def __init__(self, index: "RootIndex") -> None:
        self.index = index
        self.version = index.version
        self._lock = threading.RLock()
        self._files: dict[str, _FileState] = {}
        self._into: dict[str, list[Likely]] = {}
        self._by_name: dict[str, list[Unit]] | None = None
        self._subtypes: dict[str, set[str]] | None = None
        self._imported: dict[str, frozenset[str]] = {}
        self._ctor: dict[str, Unit | None] = {}
        self._overrides: dict[tuple[str, str], list[Unit]] = {}
        self._type_norm: dict[str, list[Unit]] | None = None

    # ---- public ------------------------------------------------------------------------
    def out(self, unit_id: str) -> list[Likely]:
        unit = self.index.resolver.units.get(unit_id)
        if unit is None:
            return []
        return list(self._file(unit.path).out.get(unit_id, ()))

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

    def _types_by_norm(self) -> dict[str, list[Unit]]:
        if self._type_norm is None:
            table: dict[str, list[Unit]] = defaultdict(list)
            for name, units in self.by_name().items():
                types = [u for u in units if u.kind in CLASS_KINDS]
                if types:
                    table[_norm(name)].extend(types)
            self._type_norm = dict(table)
        return self._type_norm

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
        state = self._files.get(path)
        if state is not None:
            return state
        with self._lock:
            state = self._files.get(path)
            if state is None:
                state = self._compute_file(path)
                self._files[path] = state
        return state

    def _compute_file(self, path: str) -> _FileState:
        state = _FileState()
        facts = self.index.files.get(path)
        bindings = self.index.bindings.get(path)
        if facts is None or bindings is None:
            return state
        units = self.index.resolver.units
        seen: set[tuple[str, str, int]] = set()

        def add(src: str, dst: Unit, line: int, conf: float, rule: str) -> None:
            if dst.id == src or (src, dst.id, line) in seen:
                return
            seen.add((src, dst.id, line))
            state.out[src].append(Likely(src, dst.id, line, round(conf, 3), rule))

        for e in bindings.edges:
            if e.kind not in ("calls", "constructs") or e.src not in units:
                continue
            dst = units.get(e.dst)
            if dst is None:
                continue
            if dst.kind in CLASS_KINDS:
                dst = self.constructor(dst) or dst
            add(e.src, dst, e.line, 1.0, "resolved")
            if dst.kind == "method":
                self._dispatch(add, e.src, dst, e.line)
        calls = facts.calls
        for idx in bindings.unresolved:
            call = calls[idx]
            if not call.caller or call.caller not in units:
                continue
            for dst, conf, rule in self.targets(facts, call):
                add(call.caller, dst, call.line, conf, rule)
        for edges in state.out.values():
            edges.sort(key=lambda e: (e.confidence < 1.0, e.line, -e.confidence))
        return state

    def _dispatch(self, add, src: str, method: Unit, line: int) -> None:
        """A resolved call on a base/interface method may run any override below it."""
        owner = self.index.resolver.units.get(method.parent) if method.parent else None
        if owner is None or owner.kind not in CLASS_KINDS:
            return
        found = [m for m in self.overrides(owner, method.name) if not is_test_path(m.path) or is_test_path(src)]
        if not found or len(found) > MAX_DISPATCH:
            return
        conf = RULE_CONFIDENCE["family-dispatch"] / max(1, len(found)) ** 0.5
        for m in found:
            add(src, m, line, conf, "family-dispatch")

    # ---- the rules for one unknown call site ------------------------------------------------
    def targets(self, facts: FileFacts, call: Call) -> list[tuple[Unit, float, str]]:
        """Likely targets of one call site as if it were unknown, best first."""
        resolver = self.index.resolver
        caller = resolver.units.get(call.caller) if call.caller else None
        receiver = call.receiver
        if receiver:
            typed = self._receiver_rules(facts, caller, call)
            if typed:
                return typed
        return self._name_rules(facts, caller, call)

    def _receiver_rules(self, facts: FileFacts, caller: Unit | None, call: Call) -> list[tuple[Unit, float, str]]:
        resolver = self.index.resolver
        receiver = call.receiver
        parts = [p for p in receiver.replace("::", ".").replace("?.", ".").split(".") if p]
        if not parts:
            return []
        # self/this inside a type where the member is not found: a template method implemented below
        _, owner = resolver._enclosing_type(caller)
        own = caller.receiver if caller is not None else ""
        method = caller
        while method is not None and method.kind not in ("method", "constructor"):
            method = resolver.units.get(method.parent) if method.parent else None
        self_words = {"self", "this", "Self", method.receiver if method is not None else own} - {""}
        if owner is not None and len(parts) == 1 and parts[0] in self_words:
            found = [m for m in self.overrides(owner, call.name) if not is_test_path(m.path) or is_test_path(facts.path)]
            if 0 < len(found) <= MAX_DISPATCH:
                conf = RULE_CONFIDENCE["subtype-method"] / len(found) ** 0.5
                return [(m, conf, "subtype-method") for m in found]
            return []
        # receiver-name ↔ type-name: `session_interface.save_session` → `SecureCookieSessionInterface.save_session`
        last = parts[-1].strip("_")
        if len(last) < 4 or not last.replace("_", "").isalnum():
            return []
        key = _norm(last)
        hits: list[Unit] = []
        for norm, types in self._types_by_norm().items():
            if norm.endswith(key) or (len(norm) >= 5 and key.endswith(norm)):
                for t in types:
                    m = resolver.find_member(t, call.name)
                    if m is not None and m.is_callable and m not in hits:
                        hits.append(m)
        if not hits:
            return []
        hits = self._best_tier(facts.path, hits)
        if not hits or len(hits) > MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["receiver-name"] * _K_FACTOR[len(hits)]
        return [(m, conf, "receiver-name") for m in hits]

    def _name_rules(self, facts: FileFacts, caller: Unit | None, call: Call) -> list[tuple[Unit, float, str]]:
        defs = self.by_name().get(call.name)
        if not defs:
            return []
        if call.construct:
            cands = [u for u in defs if u.kind in CLASS_KINDS]
        else:
            cands = [u for u in defs if u.is_callable or u.kind in CLASS_KINDS]
            if call.receiver:  # a member call: methods (or functions of a module object)
                cands = [u for u in cands if u.kind != "constructor"]
        if caller is not None:
            cands = [u for u in cands if u.id != caller.id]
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
        conf = RULE_CONFIDENCE[rule] * _K_FACTOR[len(hits)]
        out = []
        for u in hits:
            if u.kind in CLASS_KINDS:
                u = self.constructor(u) or u
            out.append((u, conf, rule))
        return out

    def _best_tier(self, path: str, cands: list[Unit], with_tier: bool = False):
        """The candidates in the best locality tier: same file (0), a file this one imports (1),
        same directory or package (2), same top-level tree (3), anywhere (4). Test files never
        serve a non-test caller; main source beats examples/docs and compiled copies."""
        caller_test = is_test_path(path)
        cands = [u for u in cands if caller_test or not is_test_path(u.path)]
        if not cands:
            return None if with_tier else []
        least = min(_secondary(u.path) for u in cands)
        cands = [u for u in cands if _secondary(u.path) == least]
        imported = self.imported_files(path)
        here = posixpath.dirname(path)
        top = path.split("/", 1)[0]
        facts = self.index.files.get(path)
        pkg = facts.package if facts is not None else ""

        def tier(u: Unit) -> int:
            if u.path == path:
                return 0
            if u.path in imported:
                return 1
            d = posixpath.dirname(u.path)
            if d == here:
                return 2
            if pkg:
                other = self.index.files.get(u.path)
                if other is not None and other.package == pkg:
                    return 2
            if u.path.split("/", 1)[0] == top:
                return 3
            return 4

        tiers = [(tier(u), u) for u in cands]
        best = min(t for t, _ in tiers)
        hits = [u for t, u in tiers if t == best]
        return (best, hits) if with_tier else hits

    # ---- incoming --------------------------------------------------------------------------
    def _compute_into(self, unit_id: str) -> list[Likely]:
        resolver = self.index.resolver
        unit = resolver.units.get(unit_id)
        if unit is None:
            return []
        names = {unit.name}
        if unit.kind == "constructor" and unit.parent:
            parent = resolver.units.get(unit.parent)
            if parent is not None:
                names.add(parent.name)
        files: set[str] = set()
        for name in names:
            files |= resolver.refs.get(name, set())
        for src, _, _ in self.index.graph.inc(unit_id):
            su = resolver.units.get(src)
            if su is not None:
                files.add(su.path)
        files.add(unit.path)
        if len(files) > MAX_INTO_FILES:
            here = posixpath.dirname(unit.path)
            files = set(sorted(files, key=lambda p: (is_test_path(p), posixpath.dirname(p) != here, _secondary(p), p))[:MAX_INTO_FILES])
        out: list[Likely] = []
        for path in sorted(files):
            for edges in self._file(path).out.values():
                out += [e for e in edges if e.dst == unit_id]
        out.sort(key=lambda e: (-e.confidence, e.src, e.line))
        return out


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
