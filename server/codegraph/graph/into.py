"""Callers of a unit in the ranked graph (`into()`): which files can land on it, and the edges
from their sites.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, DeferredCalls, FileFacts, Unit
from ..languages import BY_NAME
from .rules import RULE_CONFIDENCE, Likely, MAX_INTO_FILES, _FileCtx, _calls, _dirname, _is_test, _secondary

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex  # noqa: F401


def _sites(ctx: _FileCtx, facts: FileFacts) -> tuple:
    """A file's sites by what a call into a unit matches them on, built once per file (into() asks
    many units of one file): the callers with a resolved edge by its target, the unresolved calls
    by their name and their receiver's last step, the references by name; each as positions in
    the order the file's context lists them, so a lookup keeps that order."""
    hit = ctx.into_sites
    if hit is None:
        srcs = list(ctx.resolved_by_src)
        by_dst: dict = {}
        for o, src in enumerate(srcs):
            for e in ctx.resolved_by_src[src]:
                at = by_dst.setdefault(e.dst, [])
                if not at or at[-1] != o:
                    at.append(o)
        calls = _calls(facts) if ctx.unresolved_by_caller else ()
        sites = [(caller, calls[i]) for caller, idxs in ctx.unresolved_by_caller.items() for i in idxs]
        by_name: dict[str, list[int]] = {}
        for o, (_, c) in enumerate(sites):
            by_name.setdefault(c.name, []).append(o)
            last = c.receiver.rpartition(".")[2]
            if last != c.name:
                by_name.setdefault(last, []).append(o)
        refs = [(caller, r) for caller, rs in ctx.refs_by_caller.items() for r in rs]
        refs_by_name: dict[str, list[int]] = {}
        for o, (_, r) in enumerate(refs):
            refs_by_name.setdefault(r.name, []).append(o)
        hit = ctx.into_sites = (srcs, by_dst, sites, by_name, refs, refs_by_name)
    return hit


class IntoGraph:
    """Mixin of LikelyGraph: the reverse direction, computed per unit."""

    index: "RootIndex"

    def _may_land(self, facts: FileFacts, path: str, names: set[str], into_dsts: set[str]) -> bool:
        """Whether into() can find an edge in a file: a resolved call edge into the unit's
        family, or an unresolved call or a reference (with a caller) naming one of `names`
        (by its name or the last step of its receiver). The names come from a table per file,
        built once per version without the file's context (no call records, no rows for the
        resolved calls)."""
        b = self.index.bindings[path]
        if any(e.dst in into_dsts for e in b.edges):
            return True
        landing = self._landing.get(path)
        if landing is None:
            found: set[str] = set()
            calls, unresolved = facts.calls, b.unresolved
            if (
                isinstance(calls, DeferredCalls) and isinstance(facts.refs, DeferredCalls)
                and not calls.may_hold(names) and not facts.refs.may_hold(names)
            ):
                return False  # no call or reference anywhere in the file names the unit (a byte search)
            rows = calls.raw_rows() if unresolved and isinstance(calls, DeferredCalls) else None
            if rows is not None:  # a cached file's calls stay undecoded
                for i in unresolved:
                    row = rows[i]
                    if row[0] >= 0:
                        found.add(row[1])
                        found.add(row[2].rpartition(".")[2])
                if not found.isdisjoint(names):
                    calls.materialize(rows)  # its context is read next: no second decode
            else:
                for i in unresolved:
                    c = calls[i]
                    if c.caller:
                        found.add(c.name)
                        found.add(c.receiver.rpartition(".")[2])
            refs = facts.refs
            rows = refs.raw_rows() if isinstance(refs, DeferredCalls) else None
            if rows is not None:
                found.update(row[1] for row in rows if row[0] >= 0)
            else:
                found.update(r.name for r in refs if r.caller)
            landing = self._landing[path] = frozenset(found)
        return not landing.isdisjoint(names)

    def _compute_into(self, unit_id: str) -> list[Likely]:
        """Every likely and resolved edge into a unit: only the files that can call it are read
        (`_into_files`), and in them only the sites that can land on it (`_edges_into`)."""
        resolver = self.index.resolver
        unit = resolver.units.get(unit_id)
        if unit is None:
            return []
        names, files, full, family = self._into_files(unit)
        found: list[Likely] = []
        for path in sorted(files | full):
            facts = self.index.files.get(path)
            if facts is None or path not in self.index.bindings:
                continue
            if path in full:
                for u in facts.units:
                    found += [e for e in self._unit_out(u.id) if e.dst == unit_id]
            elif path in self._ctxs or self._may_land(facts, path, names, family | ({unit.parent} if unit.kind == "constructor" and unit.parent else set())):
                found += self._edges_into(unit, facts, names, family)
        for src in sorted(self._named_by_path().get(unit_id, ())):  # strings that name it by import path
            found += [e for e in self._unit_out(src) if e.dst == unit_id]
        out: list[Likely] = []
        seen: set[tuple[str, int]] = set()
        for e in found:  # in the order out() adds them: the first edge of a site wins there too
            if (e.src, e.line) not in seen:
                seen.add((e.src, e.line))
                out.append(e)
        out.sort(key=lambda e: (-e.confidence, e.src, e.line))
        return out

    def _into_files(self, unit: Unit) -> tuple[set[str], set[str], set[str], set[str]]:
        """(the names a call into `unit` writes, the files that may hold such calls, the files
        whose every site counts (a protocol method's: the call names a member holding the
        object, not the method), the unit and the base methods it overrides)."""
        resolver = self.index.resolver
        names = {unit.name}
        parent = resolver.units.get(unit.parent) if unit.parent else None
        anchors: set[str] = set()  # names a likely caller's file tends to mention: the unit's type and its family
        protocol: set[str] = set()
        if parent is not None:
            spec = BY_NAME.get(self.index.files[unit.path].language) if unit.path in self.index.files else None
            protocol = set(spec.call_protocol) | {m for _, m in spec.construct_protocol} if spec is not None else set()
            # a constructor is reached by naming its type; a protocol method by holding or building one
            if unit.kind == "constructor" or unit.name in protocol:
                names.add(parent.name)
            if parent.kind in CLASS_KINDS:
                anchors.add(parent.name)
                anchors.update(t.name for t in resolver.supertypes_of(parent))
                anchors.update(resolver.units[x].name for x in self.subtypes().get(parent.id, ()) if x in resolver.units)
        below, super_name = self._subtype_files(unit, parent)
        files: set[str] = {unit.path} | below
        for src, _, _ in self.index.graph.inc(unit.id):
            su = resolver.units.get(src)
            if su is not None:
                files.add(su.path)
        candidates: set[str] = set()
        for name in names:
            candidates |= resolver.refs.get(name, set())
        candidates -= files
        near: set[str] = set()
        for a in anchors:
            near |= resolver.refs.get(a, set())
        if len(candidates) > MAX_INTO_FILES:
            # a common name (`get`, `run`): keep the files that also name the unit's type or family,
            # import its file or sit beside it
            here = _dirname(unit.path)

            def rank(p: str) -> tuple:
                return (
                    p not in near and unit.path not in self.imported_files(p) and _dirname(p) != here,
                    _is_test(p) and not _is_test(unit.path),
                    _secondary(p),
                    p,
                )

            candidates = set(sorted(candidates, key=rank)[:MAX_INTO_FILES])
        family = {unit.id}
        if unit.kind == "method" and parent is not None and parent.kind in CLASS_KINDS:
            family |= {m.id for t in resolver.supertypes_of(parent) for m in resolver.members_of(t).get(unit.name, [])}
        full: set[str] = set()
        if unit.kind == "statement" and unit.stmt_kind == "table":
            full = {unit.path}  # read by index (`table[key]`), which no call or reference records
        if unit.name in protocol:
            full = {unit.path} | set(sorted(near, key=lambda p: (_is_test(p), _secondary(p), p))[:MAX_INTO_FILES])
        if super_name:
            names.add(super_name)  # after the name lookups: `super` is written in most files
        return names, files | candidates, full, family

    def _subtype_files(self, unit: Unit, parent: Unit | None) -> tuple[set[str], str]:
        """A type's member is reached by `super(…)` / `super.m()` in its subtypes' files: those
        files, and the language's super name (a name a call into the member writes there)."""
        if parent is None or parent.kind not in CLASS_KINDS or not unit.is_callable:
            return set(), ""
        spec = BY_NAME.get(self.index.files[unit.path].language) if unit.path in self.index.files else None
        subtypes = self.subtypes().get(parent.id, ()) if spec is not None and spec.super_name else ()
        if not subtypes:
            return set(), ""
        units = self.index.resolver.units
        return {units[x].path for x in subtypes if x in units}, spec.super_name

    def _edges_into(self, unit: Unit, facts: FileFacts, names: set[str], family: set[str]) -> list[Likely]:
        """The edges of one file into `unit`: resolved edges into it or a method it overrides,
        unresolved calls and references naming it; a closure's edges are its enclosing
        callables' too."""
        unit_id = unit.id
        ctx = self._ctx(facts.path)
        srcs, by_dst, sites, by_name, refs, refs_by_name = _sites(ctx, facts)
        here: list[Likely] = []
        dsts = (*family, unit.parent) if unit.kind == "constructor" else family
        for o in sorted({o for d in dsts for o in by_dst.get(d, ())}):  # in the file's order, each caller once
            here += [x for x in self._unit_out(srcs[o]) if x.dst == unit_id]
        for o in sorted({o for n in names for o in by_name.get(n, ())}):
            caller, c = sites[o]
            key = (caller, c.receiver, c.name, c.construct)
            hit = ctx.memo.get(key)
            if hit is None:
                hit = ctx.memo[key] = self.targets(facts, c)
            here += [Likely(caller, d.id, c.line, round(conf, 3), rule) for d, conf, rule in hit if d.id == unit_id and caller != unit_id]
        for o in sorted({o for n in names for o in refs_by_name.get(n, ())}):
            caller, r = refs[o]
            here += [Likely(caller, d.id, r.line, round(conf, 3), rule) for d, conf, rule in self.ref_targets(facts, r) if d.id == unit_id and caller != unit_id]
        if self._accessor_kind(unit):  # read as a property in its own type's (or object's) methods
            for u in facts.units:
                if u.is_callable and u.id != unit_id:
                    here += [Likely(u.id, d.id, line, RULE_CONFIDENCE["accessor-read"], "accessor-read") for d, line in self._accessors_read(u, facts) if d.id == unit_id]
        units = self.index.resolver.units
        for e in list(here):
            cur = units.get(e.src)
            while cur is not None and cur.is_callable and cur.parent:
                up = units.get(cur.parent)
                if up is None or not up.is_callable or up.id == unit_id:
                    break
                here.append(e._replace(src=up.id))
                cur = up
        return here


