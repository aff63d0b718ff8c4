"""Types that implement a contract by their shape, not by declaration: no `implements` edge
names them, so families and dispatch find them here. A family for reading, never a proof: the
match is by method name and parameter count, not by checking the types."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..index.facts import Unit
from ..index.index import RootIndex
from ..languages import BY_NAME
from ..languages.spec import last_segment
from ..model.facts import bodiless
from ..workspace.scope import is_test_path

STRUCTURAL_BASES = frozenset({"Protocol"})  # a Python class listing methods that others implement without naming it
# A Go type implements every interface its method set covers, also by coincidence: a router with
# thirty methods, one of them `Match`, satisfies a one-method matcher interface but is no matcher
# beside the others. It joins the contract's family when the contract is at least this share of
# its methods.
CONTRACT_SHARE = 0.5


@dataclass
class StructuralTable:
    """One index version's contracts (read-only for its readers)."""

    version: int
    implementers: dict[str, set[str]]  # contract type id → ids of the types that implement it by shape
    # supertype id → declared subtypes outside tests and shape implementers; `dispatch`: the same, less a Go
    # interface's shape implementers. Both filled on first use (`_declared`): distill reads only `implementers`,
    # and the declared subtypes are a pass over every edge of the graph
    families: dict[str, set[str]] | None = None
    dispatch: dict[str, set[str]] | None = None


def _table(index: RootIndex) -> StructuralTable:
    hit = index.memo.get("structural")
    if hit is not None and hit.version == index.version:
        return hit
    table = StructuralTable(index.version, _find(index))
    index.memo["structural"] = table  # type: ignore[typeddict-item]
    return table


def _declared(index: RootIndex) -> StructuralTable:
    """The table with its families and dispatch subtypes filled (once per version)."""
    table = _table(index)
    if table.families is None or table.dispatch is None:
        units = index.resolver.units
        # a test's fake is no sibling a reader meets, nor what the code's own call runs
        declared = {k: {x for x in v if x in units and not is_test_path(units[x].path)} for k, v in index.graph.implementers().items()}
        # a supertype that declares no callable (an options shape, a marker, a base of data variants) gives
        # its subtypes nothing to do alike: no family to read as siblings (a call or a read through it still
        # dispatches to them)
        behaving = {u.parent for u in units.values() if u.parent and u.is_callable}
        families = {k: set(v) for k, v in declared.items() if k in behaving}
        dispatch = dict(declared)
        for contract, found in table.implementers.items():
            families.setdefault(contract, set()).update(found)
            if contract in units and units[contract].kind != "interface":
                dispatch[contract] = dispatch.get(contract, set()) | found
        table.families, table.dispatch = families, dispatch
    return table


def structural_implementers(index: RootIndex) -> dict[str, set[str]]:
    """Contract type id → the types outside tests that define every method it lists, per version:
    a `typing.Protocol`'s public methods by name, a Go interface's own methods by name and
    parameter count, when they are at least CONTRACT_SHARE of the type's methods. An interface
    listing no methods of its own (only embedded ones) or a Protocol listing none names no family."""
    return _table(index).implementers


def families(index: RootIndex) -> dict[str, set[str]]:
    """Supertype id → its family: the types declared below it (outside tests) and those implementing
    it by shape. A supertype that declares no callable heads none."""
    return _declared(index).families  # type: ignore[return-value]


def dispatch_subtypes(index: RootIndex) -> dict[str, set[str]]:
    """Supertype id → the types a call through it may run, for the ranked graph's dispatch edges: the
    family, less a Go interface's structural implementers. Those stay a family to read beside the
    flow (sibling skeletons), not targets the flow fans out to: a Go program calls through small
    interfaces everywhere, and dispatching each such call to every type that satisfies it led the
    flow into sibling bodies (measured: the check split's sibling skeleton rate 0.92 → 0.73)."""
    return _declared(index).dispatch  # type: ignore[return-value]


def _find(index: RootIndex) -> dict[str, set[str]]:
    units = index.resolver.units
    contracts: list[Unit] = []
    languages: set[str] = set()  # implementers are looked for in the contracts' languages only
    for facts in index.files.values():
        spec = BY_NAME.get(facts.language)
        found = [u for u in facts.units if u.kind == "interface"] if spec is not None and spec.structural_hosts else []
        protocols = {s.unit for s in facts.supertypes if last_segment(s.text) in STRUCTURAL_BASES}
        if protocols:
            found += [u for u in facts.units if u.id in protocols]
        if found:
            contracts += found
            languages.add(facts.language)
    if not contracts:
        return {}
    by_name: dict[str, set[str]] = defaultdict(set)  # method name → ids of the types defining it with a body
    by_arity: dict[tuple[str, int], set[str]] = defaultdict(set)  # (name, parameters) → the same
    members: dict[str, list[Unit]] = defaultdict(list)  # type id → its methods (an interface's: declarations)
    for facts in index.files.values():
        if facts.language in languages:
            for u in facts.units:
                if u.kind == "method" and u.parent:
                    if not bodiless(u):  # an implementation, not a declaration
                        by_name[u.name].add(u.parent)
                        by_arity[(u.name, u.params)].add(u.parent)
                    members[u.parent].append(u)
    out: dict[str, set[str]] = {}
    for c in contracts:
        if c.kind == "interface":  # Go: every method the interface declares, with its arity
            wanted = [by_arity.get((m.name, m.params), set()) for m in members.get(c.id, ()) if bodiless(m)]
            kinds = ("struct",)
        else:
            wanted = [by_name.get(name, set()) for name in index.resolver.members_of(c) if not name.startswith("_")]
            kinds = ("class",)
        if not wanted:
            continue
        impls = set.intersection(*wanted) - {c.id}
        impls = {uid for uid in impls if uid in units and units[uid].kind in kinds and not is_test_path(units[uid].path)}
        if c.kind == "interface":  # a type that is the contract, not one that also happens to satisfy it
            impls = {uid for uid in impls if len(wanted) >= CONTRACT_SHARE * len(members[uid])}
        if impls:
            out[c.id] = impls
    return out


__all__ = ["STRUCTURAL_BASES", "dispatch_subtypes", "families", "structural_implementers"]
