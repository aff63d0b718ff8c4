"""Extension functions, a stage of resolution (Kotlin `fun Buffer.commonWrite(…)`): a call reaches
one when no member of its receiver's type has the name and, of the extension functions in scope by
that name (imported by name or on demand, or of the file's own package), one extends that type or
the nearest supertype of it that any extends. The Resolver inherits these."""

from __future__ import annotations

from ..languages.spec import last_segment
from ..model.facts import FileFacts, Unit
from .overloads import _plain
from .resolver_indexes import MAX_SUPER_DEPTH, package_key


class Extensions:
    """Calls of extension functions, for the Resolver (a mixin)."""

    def _extensions_in_scope(self, facts: FileFacts, name: str) -> list[Unit]:
        """The extension functions named `name` a file sees: imported by that name, or of its package."""
        seen: dict[str, Unit] = {}
        for imp in self.imports_by_local.get(facts.path, {}).get(name, ()):
            if imp.name == name and not imp.alias:
                seen.update((u.id, u) for u in self.packages.get(("declared", imp.module), {}).get(name, ()))
        pkg = package_key(facts)
        seen.update((u.id, u) for u in (self.packages.get(pkg, {}).get(name, ()) if pkg is not None else ()))
        return [u for u in seen.values() if u.ext_type and u.is_callable]

    def _implicit_extension(self, facts: FileFacts, caller: Unit | None, name: str, args: int = -1) -> Unit | None:
        """A bare call of an extension function on the implicit receiver (Kotlin: `commonFlush()`
        in a member of `RealBufferedSink`, with `fun RealBufferedSink.commonFlush()` and `fun
        Buffer.commonFlush()` both imported): among the definitions in scope by that name, the one
        that extends the type `this` is. A member of that name was already preferred above."""
        if name not in self.extension_names:
            return None
        extensions = self._extensions_in_scope(facts, name)
        if not extensions:
            return None
        receivers = self._implicit_receivers(caller)
        fits = [u for u in extensions if last_segment(u.ext_type).rstrip("?") in receivers]
        return self._unique_for(self._fitting(fits, args), facts.path)

    def _implicit_receivers(self, caller: Unit | None) -> set[str]:
        """The type names `this` has inside `caller`: the type an enclosing extension function
        extends, or the innermost enclosing type and its direct supertypes."""
        cur = caller
        while cur is not None:
            if cur.ext_type:
                return {last_segment(cur.ext_type).rstrip("?")}
            if cur.is_type:
                return {cur.name} | {t.name for t in self.supertypes_of(cur)}
            cur = self.units.get(cur.parent) if cur.parent else None
        return set()

    def _receiver_extension(self, facts: FileFacts, holder, name: str, args: int = -1) -> Unit | None:
        """`x.name(…)` where x is of the workspace type `holder` and no type of its lineage has a
        member `name` (`source.buffer()` with `fun Source.buffer()` in scope): the extension in scope
        that extends the nearest type of the lineage any of them extends (Kotlin takes the most
        specific receiver), chosen among that type's overloads by the arguments. None when another
        extension of the name extends a type of unknown relation (a type parameter, a type from
        outside) or two are left."""
        if name not in self.extension_names or holder.__class__ is not Unit or not holder.is_type:
            return None
        extensions = self._extensions_in_scope(facts, name)
        if not extensions:
            return None
        depth: dict[str, int] = {}  # type id → its level in the lineage
        frontier, seen = [holder], set()
        for level in range(MAX_SUPER_DEPTH):
            nxt = []
            for t in frontier:
                if t.id in seen:
                    continue
                seen.add(t.id)
                if self.members_of(t).get(name):
                    return None  # a member of the name: it wins, or its overloads leave the call unknown
                depth.setdefault(t.id, level)
                nxt += self.supertypes_of(t)
            frontier = nxt
        by_level: dict[int, list[Unit]] = {}
        for u in extensions:
            extended = self._extended_type(self.files[u.path], u) if u.path in self.files else None
            if extended is not None and extended.id in depth:
                by_level.setdefault(depth[extended.id], []).append(u)
            elif extended is None and len(_plain(u.ext_type)) < 2:
                return None  # `fun <T> T.name()`: extends anything
        if not by_level:
            return None
        return self._unique_for(self._fitting(by_level[min(by_level)], args), facts.path)
