"""Objects a JavaScript module fills with its functions: `const internals = {}` with
`internals.rules = function …` (hapi writes every module so), an object literal `const helpers =
{ trim() {…} }`, a function with functions assigned to it (`Layer.create = function …`). A call
`internals.rules(…)` in the same module reaches the one function filed under that object and name
at the module's top level, as a bare name reaches the module's function: unless a parameter or a
local of the caller is called so.
"""

from __future__ import annotations

from ..model.facts import FileFacts, Unit
from .resolver_indexes import scope_key, spec_of


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
