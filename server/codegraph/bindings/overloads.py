"""Overloads, a stage of resolution: among the declarations of one name in a scope, the ones a
call passing a given number of arguments may mean (Java and Kotlin choose overloads by their
arguments; the count alone often tells). The Resolver inherits these."""

from __future__ import annotations

from functools import lru_cache

from ..model.facts import FileFacts, Unit
from .resolver_indexes import spec_of


@lru_cache(maxsize=65_536)
def _last(type_name: str) -> str:
    """A parameter's type name without its qualifier: `Painter.State` → `State`."""
    return type_name.rpartition(".")[2]


class Overloads:
    """Choosing among overloads by the count of arguments, for the Resolver (a mixin)."""

    def _admits(self, u: Unit, args: int) -> bool:
        """Whether a call passing `args` arguments may be a call of `u` (true when either is not counted)."""
        arity = u.arity
        if args < 0 or not arity:
            return True
        if len(arity) > 2:  # a Kotlin override: the declaration it overrides has the default values
            arity = self._overridden_arity(u)
        return arity[0] <= args and (arity[1] < 0 or args <= arity[1])

    def _overridden_arity(self, u: Unit) -> tuple[int, ...]:
        """The arity of a Kotlin override, which takes the default values of what it overrides: that
        of the nearest declaration above its type of the same name and parameters; (0, most) when
        none is known (a supertype outside the workspace)."""
        hit = self._memo_arity.get(u.id)
        if hit is None:
            self._memo_arity[u.id] = hit = (0, u.arity[1])  # a cycle ends here
            owner = self.units.get(u.parent) if u.parent else None
            for cur in self.lineage(owner) if owner is not None and owner.is_type else ():
                if cur.id == owner.id:
                    continue
                above = [m for m in self.members_of(cur).get(u.name, ()) if m.arity and m.arity[1] == u.arity[1] and self._same_parameters(m, u)]
                if above:
                    if len(above) == 1:
                        hit = above[0].arity if len(above[0].arity) < 3 else self._overridden_arity(above[0])
                    break
            self._memo_arity[u.id] = hit
        return hit

    @staticmethod
    def _same_parameters(a: Unit, b: Unit) -> bool:
        """Whether two declarations of one name may be one method and its override (the same
        parameter types as written; a type parameter or an unnamed type matches any), not two overloads."""
        if len(a.param_types) != len(b.param_types):
            return False
        return all(x == y or len(x) < 2 or len(y) < 2 or _last(x) == _last(y) for x, y in zip(a.param_types, b.param_types))

    @staticmethod
    def _variants(found: list[Unit]) -> bool:
        """Whether declarations of one name are written with the same parameter types (`State` and
        `Painter.State` alike): one declaration's source-set variants, not overloads."""
        first = [_last(t) for t in found[0].param_types]
        return all([_last(t) for t in u.param_types] == first for u in found[1:])

    def _by_args(self, found: list[Unit] | None, args: int) -> list[Unit] | None:
        """Definitions of one name in a scope that a call passing `args` arguments may mean (Java and
        Kotlin choose among overloads by the arguments; the count alone often tells): those whose
        arity admits it, none when two of those are different overloads. A scope where the name is
        no function alone (a type, an extension function) is left as it is."""
        if not found or any(not u.is_callable or u.ext_type for u in found):
            return found
        return self._fitting(found, args)

    def _fitting(self, found: list[Unit], args: int) -> list[Unit]:
        """`_by_args` over callables alike (overloads, or extension functions of one receiver type)."""
        if args < 0 or len(found) < 2 or not all(u.arity for u in found):
            return found
        fits = [u for u in found if self._admits(u, args)]
        # several left: one declaration's source-set variants (`expect`/`actual`), written alike
        return fits if not fits or self._variants(fits) else []

    def _find_overload(self, t: Unit, name: str, args: int) -> Unit | None:
        """The member a call passing `args` arguments runs: the nearest one whose arity admits the
        count (a Java or Kotlin type inherits its supertypes' overloads). Where a type declares several
        of that name, the one it admits is the target only when every other admitted declaration
        above it is that method's (the same parameter types): anything else is left unknown."""
        pick: Unit | None = None
        for cur in self.lineage(t):
            found = self.members_of(cur).get(name)
            if not found:
                continue
            if len(found) > 1:  # one declaration's source-set variants pool their members: the type's own
                found = [u for u in found if u.path == cur.path] or found
            fits = [u for u in found if self._admits(u, args)]
            if pick is None:
                if len(fits) > 1:
                    return None
                if fits:
                    pick = fits[0]
                    if len(found) == 1:  # the only declaration of its name there: above it are its overrides
                        return pick
            elif any(not self._same_parameters(pick, u) for u in fits):
                return None
        return pick

    def _imported_overload(self, facts: FileFacts, name: str, args: int) -> tuple[str, Unit] | None:
        """A JVM import of a function name that several overloads share (`import p.write` of
        `fun write(a)` and `fun write(a, b)`; Java's `import static p.Utils.check` of a class's
        static `check(a)` and `check(a, b)`): the one a call passing `args` arguments admits."""
        if spec_of(facts).module_system != "package":
            return None
        found: dict[str, Unit] = {}
        for imp in self.imports_by_local.get(facts.path, {}).get(name, ()):
            if imp.name == name and not imp.alias:
                found.update((u.id, u) for u in self.packages.get(("declared", imp.module), {}).get(name, ()))
                if not found:  # a static import names a member of the class the module path ends in
                    outer_pkg, _, outer = imp.module.rpartition(".")
                    holders = [u for u in self.packages.get(("declared", outer_pkg), {}).get(outer, ()) if u.is_type and u.kind != "impl"]
                    holder = self._unique_for(holders, facts.path)
                    if holder is not None:
                        found.update((u.id, u) for u in self.members_of(holder).get(name, ()) if u.is_callable)
        hit = self._unique_for(self._by_args(list(found.values()), args), facts.path) if len(found) > 1 else None
        return ("unit", hit) if hit is not None else None
