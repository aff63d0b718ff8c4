"""Property reads in the ranked graph, rule `accessor-read`: `this.body = x`, `this.status`, where
the member is an accessor of the method's own type or object literal (a JavaScript/TypeScript
`get`/`set`). Reading it runs the accessor's body, though no call is written: a reference edge of
its own rule, never proof. An assignment reaches the setter, any other read the getter. Found by a
byte search of the callable's body at query time (the facts hold no member reads), only for types
and objects that have accessors. Python's `self.prop` reads are `method-value` references already;
its cached properties (`@cached_property`, run once per object) are left out: in the development
set they pulled configuration getters into explore's flow walk and displaced steps.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, FileFacts, Unit

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex  # noqa: F401

_JS_ACCESSOR = re.compile(rb"(?:[\w@$]+\s+)*?\b(get|set)\s+[\w$#]+\s*[(<]")


class AccessorReads:
    """Mixin of LikelyGraph."""

    index: "RootIndex"

    def _accessor_kind(self, u: Unit) -> str:
        """"get" / "set" for an accessor unit, "" otherwise."""
        if u.kind != "method" or u.decorators:
            return ""
        m = _JS_ACCESSOR.match(self.index.sources.get(u.path, b""), u.start_byte, u.sig_end_byte)
        return m.group(1).decode() if m is not None else ""

    def _accessors_of(self, unit: Unit) -> tuple[dict[str, list[tuple[Unit, str]]], "re.Pattern[bytes] | None"]:
        """(member name → its accessors and their kind, the pattern of their reads through the
        names `this` goes by) for a callable: its type's accessors, or those of the object literal
        it is an entry of. Both built once per type (and name of `this`)."""
        method, owner = self._enclosing(unit)
        receiver = method.receiver if method is not None and method.receiver else ""
        if owner is not None and owner.kind in CLASS_KINDS:
            key = owner.id
            members = lambda: [m for ms in self.index.resolver.members_of(owner).values() for m in ms]  # noqa: E731
        elif unit.parent is None and unit.assigned_to:  # an entry of `module.exports = {…}`: named `f`
            key = f"{unit.path}::{unit.assigned_to}"
            facts = self.index.files.get(unit.path)
            members = lambda: [u for u in facts.units if u.assigned_to == unit.assigned_to and u.parent is None] if facts else []  # noqa: E731
        elif unit.parent is None and "." in unit.qualname:
            holder = unit.qualname.rsplit(".", 1)[0] + "."
            key = f"{unit.path}::{holder}"
            facts = self.index.files.get(unit.path)
            members = lambda: [u for u in facts.units if u.qualname.startswith(holder) and "." not in u.qualname[len(holder):]] if facts else []  # noqa: E731
        else:
            return {}, None
        hit = self._accessor_tables.get((key, receiver))
        if hit is None:
            table: dict[str, list[tuple[Unit, str]]] = {}
            for m in members():
                kind = self._accessor_kind(m)
                if kind:
                    table.setdefault(m.name, []).append((m, kind))
            words = sorted({"this", "self"} | ({receiver} if receiver else set()))
            pattern = re.compile(
                rb"(?<![\w$.])(?:" + b"|".join(re.escape(w.encode()) for w in words)
                + rb")\s*\.\s*(" + b"|".join(re.escape(n.encode()) for n in sorted(table)) + rb")\b(?!\s*\()(\s*=(?!=))?"
            ) if table else None
            hit = self._accessor_tables[(key, receiver)] = (table, pattern)
        return hit

    def _accessors_read(self, unit: Unit, facts: FileFacts) -> list[tuple[Unit, int]]:
        hit = self._accessor_reads.get(unit.id)
        if hit is not None:
            return hit
        table, pattern = self._accessors_of(unit)
        out: list[tuple[Unit, int]] = []
        if pattern is not None:
            source = self.index.sources.get(facts.path, b"")
            for m in pattern.finditer(source, unit.sig_end_byte, unit.end_byte):
                want = "set" if m.group(2) else "get"
                line = unit.start_line + source.count(b"\n", unit.start_byte, m.start())
                out += [(a, line) for a, kind in table[m.group(1).decode()] if kind == want and a.id != unit.id]
        self._accessor_reads[unit.id] = out
        return out
