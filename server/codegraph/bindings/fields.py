"""Fields with a declared type: what `self.conn`, `p.openElements` (with `p: Parser`) or a Java
field named bare (`callFactory`) holds is the type its declaration names, where the field is
declared (a type's own or a supertype's). A member a call made (`Buffer()`, a Kotlin property with
an initialiser) has no declared type here: no proof.
"""

from __future__ import annotations

from ..model.facts import FileFacts, Unit
from .resolver_indexes import spec_of


class DeclaredFields:
    """Mixed into the Resolver: reads its `files`, `imports_by_local`, `lineage` and `_resolve_type_text`."""

    def _through_fields(self, t: Unit | None, fields: list[str]) -> Unit | None:
        """The type `self.a.b` holds: field by field, each through its declared type."""
        for name in fields:
            t = self._field_type(t, name) if t is not None else None
        return t

    def _field_type(self, t: Unit, name: str) -> Unit | None:
        """The declared type of field `name` of type `t` (a Rust impl block: of its type) or of its
        supertypes, resolved where the field is declared. A member a call made (`Buffer()`, a
        Kotlin property with an initialiser) has no declared type here: no proof."""
        if t.kind == "impl":
            facts = self.files.get(t.path)
            t = self._resolve_type_text(facts, t.qualname) if facts is not None else None
        found = self._declared_field(t, name) if t is not None else None
        return found[0] if found is not None else None

    def _declared_field(self, t: Unit, name: str) -> tuple[Unit | None, ...] | None:
        """(the declared type of field `name` of `t` or its supertypes, None when a call made it) —
        or None when no type of the lineage has such a field."""
        for cur in self.lineage(t):
            held = next((h for n, h in cur.attrs if n == name), None)
            if held is not None:
                facts = self.files.get(cur.path)
                return (None if held.endswith("()") or facts is None else self._resolve_type_text(facts, held, cur),)
        return None

    def _implicit_field(self, facts: FileFacts, caller: Unit | None, name: str) -> tuple[Unit | None, ...] | None:
        """A bare receiver no enclosing callable binds (Java, whose locals the index records whole:
        `callFactory.newCall(…)`) is a field of `this` — of the innermost enclosing type that has one
        by that name: (its declared type or None), or None when it is no field (or may be a local)."""
        if not spec_of(facts).complete_locals or name in self.imports_by_local.get(facts.path, ()):
            return None
        cur = caller
        while cur is not None:
            if cur.is_callable and (name in cur.param_names or any(n == name for n, _ in cur.local_types)):
                return None  # a parameter or a local (also of a method around a local class) shadows it
            if cur.is_type:
                found = self._declared_field(cur, name)
                if found is not None:
                    return found
            cur = self.units.get(cur.parent) if cur.parent else None
        return None
