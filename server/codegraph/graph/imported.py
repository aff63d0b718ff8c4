"""Receivers an import names: `mod.f()` on a whole imported module, `Headers.concat()` on an
imported class, and a JavaScript class's prototype handing over a method
(`bind(Axios.prototype.request, ctx)`). A mixin of `LikelyGraph` (likely.py): it reads the
index, the resolver and `by_name` through `self`."""

from __future__ import annotations

from ..index.facts import CLASS_KINDS, Call, FileFacts, Unit
from ..languages.spec import last_segment
from .rules import MAX_NAME_CANDIDATES, PROTOTYPE_LANGUAGES, RULE_CONFIDENCE, _K_FACTOR, _STATIC


class ImportedReceivers:
    def _module_member(self, facts: FileFacts, receiver: str, name: str) -> list[tuple[Unit, float, str]]:
        """`mod.name()` where `mod` binds a whole imported module or its default export: the
        top-level callable `name` of the file the import resolved to."""
        if not receiver.isidentifier() or receiver in ("self", "this"):
            return []
        lines = {imp.line for imp in facts.imports if imp.name in ("", "*", "default") and (imp.alias or last_segment(imp.module)) == receiver}
        if not lines:
            return []
        b = self.index.bindings.get(facts.path)
        files = {e.dst for e in b.edges if e.kind == "imports" and e.line in lines} if b is not None else set()
        units = self.index.resolver.units
        found = [
            u for u in self.by_name().get(name, ())
            if u.path in files and u.is_callable and (not u.parent or units.get(u.parent) is None or units[u.parent].kind not in CLASS_KINDS)
        ]
        if not 0 < len(found) <= MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["module-member"] * _K_FACTOR[len(found)]
        return [(u, conf, "module-member") for u in found]

    def _imported_class(self, facts: FileFacts, receiver: str) -> Unit | None:
        """The class an import binds to `receiver` (`import Axios from './core/Axios.js'`), when
        the imported file defines one class of that name."""
        if not receiver.isidentifier() or not receiver[:1].isupper():
            return None
        lines = {imp.line for imp in facts.imports if (imp.alias or imp.name) == receiver or (imp.name == "default" and imp.alias == receiver)}
        b = self.index.bindings.get(facts.path)
        files = {e.dst for e in b.edges if e.kind == "imports" and e.line in lines} if b is not None and lines else set()
        owners = [u for u in self.by_name().get(receiver, ()) if u.path in files and u.kind in CLASS_KINDS and not u.parent]
        return owners[0] if len(owners) == 1 else None

    def _prototype_member(self, facts: FileFacts, caller: Unit | None, ref: Call) -> list[tuple[Unit, float, str]]:
        """`bind(Axios.prototype.request, ctx)`: a JavaScript class's prototype holds its methods,
        so the reference hands over that method (the class defined or imported here)."""
        cls = ref.receiver.removesuffix(".prototype")
        if facts.language not in PROTOTYPE_LANGUAGES or cls == ref.receiver or not cls.isidentifier():
            return []
        hit = self.index.resolver._lookup(facts, caller, cls)
        owner = hit if isinstance(hit, Unit) and hit.kind in CLASS_KINDS else self._imported_class(facts, cls)
        if owner is None:
            return []
        source = self.index.sources.get(owner.path, b"")
        # the prototype holds the instance methods, not the static ones
        found = [m for m in self.index.resolver.members_of(owner).get(ref.name, []) if m.is_callable and not _STATIC.match(source, m.start_byte)]
        return [(found[0], RULE_CONFIDENCE["method-value"], "method-value")] if len(found) == 1 else []

    def _imported_class_member(self, facts: FileFacts, receiver: str, name: str) -> list[tuple[Unit, float, str]]:
        """`Headers.concat(a, b)` where `Headers` is an import binding the class of that name in
        the imported file: a call on the class itself, so its static member when it has one."""
        owner = self._imported_class(facts, receiver)
        if owner is None:
            return []
        found = [m for m in self.index.resolver.members_of(owner).get(name, []) if m.is_callable]
        source = self.index.sources.get(owner.path, b"")
        static = [m for m in found if _STATIC.match(source, m.start_byte)]
        found = static or found
        if not 0 < len(found) <= MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["class-member"] * _K_FACTOR[len(found)]
        return [(m, conf, "class-member") for m in found]
