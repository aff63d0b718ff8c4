"""Fields with a declared type: what `self.conn`, `p.openElements` (with `p: Parser`) or a Java
field named bare (`callFactory`) holds is the type its declaration names, where the field is
declared (a type's own or a supertype's). A member a call made has the type that call gives where
the language types a property by its initialiser (TypeScript, Kotlin: `val cache = LruCache()`);
elsewhere no proof.
"""

from __future__ import annotations

from ..model.facts import FileFacts, Unit
from .carriers import is_carried
from .elements import MAX_NESTING
from .resolver_indexes import spec_of


class DeclaredFields:
    """Mixed into the Resolver: reads its `files`, `imports_by_local`, `lineage`, `_member_of`,
    `_resolve_type_text` and the carriers' `_value_type`."""

    def _field_step(self, head: Unit | tuple[str, str] | None, name: str) -> Unit | tuple[str, str] | None:
        """`x.name` in a receiver: where x is a value of a type and the language declares fields, the
        declared type of x's field `name` (a field, not a method of the name, is what `x.name` reads);
        else the member `name` of what x denotes (a nested type, a module's member)."""
        if is_carried(head):  # read through a pointer or an unwrapped value (`Arc<Conn>`: conn.codec)
            head = self._carried_parts(head[1])[1]
        if head.__class__ is Unit and head.is_type:
            facts = self.files.get(head.path)
            if facts is not None and (spec_of(facts).declared_fields or spec_of(facts).assigned_fields):
                t = head if head.kind != "impl" else self._resolve_type_text(facts, head.qualname)
                found = self._declared_field(t, name) if t is not None else None
                if found is not None:
                    return found[0]
        return self._member_of(head, name)

    def _field_type(self, t: Unit, name: str) -> Unit | tuple[str, str] | None:
        """The declared type of field `name` of type `t` (a Rust impl block: of its type) or of its
        supertypes, resolved where the field is declared (`_declared_field`)."""
        impl = t if t.kind == "impl" else None
        if impl is not None:
            facts = self.files.get(impl.path)
            t = self._resolve_type_text(facts, impl.qualname) if facts is not None else None
        found = self._declared_field(t, name) if t is not None else None
        if (found is None or found[0] is None) and impl is not None and t is not None and impl.param_names:
            # `self.base` with `struct Map<C> { base: C }` in `impl<C: Consumer> … for Map<C>`: the bound
            written = next((h for n, h in t.attrs if n == name), "")
            if written in impl.param_names and impl.param_types[impl.param_names.index(written)]:
                return self._value_type(self.files[impl.path], impl.param_types[impl.param_names.index(written)], impl)
        return found[0] if found is not None else None

    def _declared_field(self, t: Unit, name: str) -> tuple[Unit | None, ...] | None:
        """(the declared type of field `name` of `t` or its supertypes — where the language types a
        property by its initialiser, the type the call that made it gives; else None when a call made
        it) — or None when no type of the lineage has such a field."""
        for cur in self.lineage(t):
            held = next((h for n, h in cur.attrs if n == name), None)
            if held is not None:
                facts = self.files.get(cur.path)
                if facts is None or sum(1 for n, _ in cur.attrs if n == name) > 1:
                    return (None,)  # a member its class assigns different values (`spec.assigned_fields`)
                if held.endswith("()"):
                    if not (spec_of(facts).initialised_fields or spec_of(facts).assigned_fields) or self._holding >= MAX_NESTING:
                        return (None,)
                    self._holding += 1  # `val a = b.make()` with `val b = a.make()` ends here
                    try:
                        made = self._call_result(facts, cur, held)
                        if made is None and spec_of(facts).assigned_fields:
                            made = self._constructed(facts, cur, held)  # `this.core = new Core()`, Core a constructor function
                    finally:
                        self._holding -= 1
                    return (made if made.__class__ is Unit or made.__class__ is tuple else None,)
                return (self._value_type(facts, held, cur),)
        return None

    _in_receiver_lambda = False  # resolving a call inside a lambda with receiver (`Call.within`)

    def _implicit_field(self, facts: FileFacts, caller: Unit | None, name: str) -> tuple[Unit | None, ...] | None:
        """A bare receiver no enclosing callable binds (Java and Kotlin, whose locals the index records
        whole: `callFactory.newCall(…)`) is a field of `this` — of the innermost enclosing type that
        has one by that name: (its declared type or None), or None when it is no field or may be
        something else: a local of a body no callable holds (an initialiser block, an accessor), a
        member of an extension's receiver or of a lambda's receiver (`x.apply { conn.close() }`), or
        one a library supertype of a type in between declares."""
        if (not spec_of(facts).complete_locals or name in self.imports_by_local.get(facts.path, ())
                or self._in_receiver_lambda or caller is None or not caller.is_callable):
            return None
        cur = caller
        while cur is not None:
            if cur.is_callable and (name in cur.param_names or any(n == name for n, _ in cur.local_types)):
                return None  # a parameter or a local (also of a method around a local class) shadows it
            if cur.ext_type:
                return None  # `fun Buffer.f()`: the extended type's members come first
            if cur.is_type:
                found = self._declared_field(cur, name)
                if found is not None:
                    return found
                if not self._closed(cur):
                    return None
            cur = self.units.get(cur.parent) if cur.parent else None
        return None
