"""Objects a JavaScript module fills with its functions: `const internals = {}` with
`internals.rules = function …` (hapi writes every module so), an object literal `const helpers =
{ trim() {…} }`, a function with functions assigned to it (`Layer.create = function …`). A call
`internals.rules(…)` in the same module reaches the one function filed under that object and name
at the module's top level, as a bare name reaches the module's function: unless a parameter or a
local of the caller is called so. A constructor function's instances have its prototype's methods
(`T.prototype.m = function …`), then those of the constructors its module makes it inherit from
(`util.inherits(T, Base)`, `T.prototype = Object.create(Base.prototype)`: its supertypes).
"""

from __future__ import annotations

from ..model.facts import FileFacts, Unit
from .resolver_indexes import MAX_SUPER_DEPTH, scope_key, spec_of


class ModuleObjects:
    """Mixed into the Resolver: reads its `members`, `units` and `files`."""

    def _module_object(self, facts: FileFacts, caller: Unit | None, name: str) -> tuple[str, str] | None:
        """("object", "path::name") when `name` holds functions the module assigns to it at its top level."""
        if spec_of(facts).module_system != "path" or (caller is not None and self._binds_locally(caller, name, {})):
            return None
        found = self.members.get((scope_key(facts), name))
        if not found or not any(self._module_level(u) for units in found.values() for u in units):
            return None
        return ("object", f"{facts.path}::{name}")

    def _object_member(self, where: str, name: str, kinds: tuple[str, ...] = ()) -> Unit | None:
        """The one function or class filed at the top level of the module at `where` under the object and
        `name` (`kinds`: only units of these kinds)."""
        path, _, owner = where.rpartition("::")
        facts = self.files.get(path)
        found = self.members.get((scope_key(facts), owner), {}).get(name, ()) if facts is not None else ()
        hits = [u for u in found if u.path == path and (u.is_callable or u.is_type) and self._module_level(u)
                and (not kinds or u.kind in kinds)]
        return hits[0] if len(hits) == 1 else None

    def _function_member(self, holder: Unit, name: str) -> Unit | None:
        """`Layer.create` for the module-level function `Layer` with `Layer.create = function …` (not a
        prototype's method: that is a member of what `new Layer()` makes)."""
        facts = self.files.get(holder.path)
        if facts is None or spec_of(facts).module_system != "path" or not holder.is_callable or not self._module_level(holder):
            return None
        return self._object_member(f"{holder.path}::{holder.qualname}", name, ("function", "class"))

    def _prototype_method(self, ctor: Unit, name: str) -> Unit | None:
        """`T.prototype.name = function`, one of them, filed beside the constructor T."""
        facts = self.files.get(ctor.path)
        found = self.members.get((scope_key(facts), ctor.qualname), {}).get(name, ()) if facts is not None else ()
        return self._unique([u for u in found if u.kind == "method" and u.path == ctor.path and self._module_level(u)])

    def _inherited_method(self, ctor: Unit, name: str, depth: int = 0) -> Unit | None:
        """The method `name` a constructor function's instances inherit, nearest first: from a class
        it inherits from, its members; from a constructor, its prototype's methods, then what that one
        inherits. None when no base has one."""
        facts = self.files.get(ctor.path)
        if facts is None or depth >= MAX_SUPER_DEPTH or spec_of(facts).module_system != "path":
            return None
        for sup in facts.supertypes:
            if sup.unit != ctor.id:
                continue
            parts = sup.text.split(".")
            base = self._lookup(facts, None, parts[0])
            for part in parts[1:]:
                base = self._member_of(base, part)
            if base.__class__ is tuple and base[0] == "module":  # `exports = module.exports = Base;` beside `exports.f = …`
                base = self._module_value(base[1])
            if not isinstance(base, Unit) or base.id == ctor.id:
                continue
            if base.is_type:
                hit = self.find_member(base, name)
            elif base.is_callable and self._module_level(base):
                hit = self._prototype_method(base, name) or self._inherited_method(base, name, depth + 1)
            else:
                hit = None
            if hit is not None:
                return hit
        return None

    def _module_value(self, path: str) -> Unit | None:
        """The definition a module's own value is (`module.exports = Base;`), None when it names none."""
        facts = self.files.get(path)
        own = [local for name, local in facts.export_aliases if not name] if facts is not None else []
        bound = self._own_binding(facts, own[0], 0) if len(own) == 1 else None
        return bound[1] if bound is not None and bound[0] == "unit" else None

    def _constructor_of(self, caller: Unit | None) -> Unit | None:
        """The module-level constructor function whose instance `this` is inside `caller`: the
        function itself or the one whose prototype method it is (`T.prototype.m = function`)."""
        if caller is None or caller.parent is not None or not self._module_level(caller):
            return None
        owner, dot, _ = caller.qualname.rpartition(".")
        if caller.kind == "function" and not dot:
            return caller if caller.attrs else None
        if caller.kind != "method" or not dot:
            return None
        return self._unique([u for u in self.top.get(caller.path, {}).get(owner, ()) if u.kind == "function" and u.parent is None])

    def _constructed(self, facts: FileFacts, caller: Unit, made: str) -> tuple[str, str] | None:
        """("prototype", T's id) when `made` (`T()`, as a member's assignment records `new T(…)`) calls a
        module-level constructor function T: one whose prototype its module gives methods."""
        called = self._called(facts, caller, made)
        return self._instance_of(called[0]) if called is not None and isinstance(called[0], Unit) else None

    def _instance_of(self, ctor: Unit) -> tuple[str, str] | None:
        """("prototype", T's id): what calling T makes, when T is a module-level constructor function
        (its prototype has methods: called with `new`, or calling `new` itself when called without)."""
        if ctor.kind != "function" or not self._module_level(ctor) or spec_of(self.files[ctor.path]).module_system != "path":
            return None
        found = self.members.get((scope_key(self.files[ctor.path]), ctor.qualname), {})
        methods = any(u.kind == "method" and u.path == ctor.path for units in found.values() for u in units)
        return ("prototype", ctor.id) if methods else None
