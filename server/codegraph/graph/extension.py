"""Extension functions in the ranked graph (Kotlin `fun Sink.flushAll()`), rule `extension-call`.

An extension function is a top-level unit whose body sees the extended type's members as its own
(`_extended`: `_enclosing` answers that type, so `sink.write(…)` in `fun RealSink.flush()` is typed
by RealSink's field), and a member call `x.flushAll()` reaches it when it is in reach of the
caller's file (same file, an import of that name, the same package) and, when x's type is known,
that type (or a type above it) is the one extended and has no member of that name itself.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, Call, FileFacts, Unit
from ..languages.spec import LanguageSpec, last_segment
from .rules import MAX_NAME_CANDIDATES, RULE_CONFIDENCE, _K_FACTOR, _is_test, _norm, _segments, _unwrapped

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex  # noqa: F401


class ExtensionRules:
    """Mixin of LikelyGraph."""

    index: "RootIndex"

    def extensions(self) -> dict[str, list[Unit]]:
        """name → the top-level extension functions of that name."""
        if self._extensions is None:
            table: dict[str, list[Unit]] = defaultdict(list)
            for u in self.index.resolver.units.values():
                if u.ext_type and u.parent is None and u.is_callable:
                    table[u.name].append(u)
            self._extensions = dict(table)
        return self._extensions

    def _extended(self, caller: Unit | None) -> tuple[Unit | None, Unit | None]:
        """(the extension function, the type it extends) around a caller (`fun Sink.flushAll()
        { sink.write(…) }`: its body sees the type's members as its own), when the index has it."""
        units = self.index.resolver.units
        cur = caller
        while cur is not None and not cur.ext_type:
            cur = units.get(cur.parent) if cur.parent else None
        if cur is None or not cur.is_callable:
            return None, None
        facts = self.index.files.get(cur.path)
        t = self._type_from_text(facts, cur.ext_type) if facts is not None else None
        return (cur, t) if t is not None and t.kind in CLASS_KINDS else (None, None)


    def _extension_call(self, facts: FileFacts, caller: Unit | None, call: Call, spec: LanguageSpec | None) -> list[tuple[Unit, float, str]]:
        imported = any((imp.alias or imp.name) == call.name for imp in facts.imports)
        cands = [
            u for u in self.extensions().get(call.name, ())
            if u.id != call.caller and (_is_test(facts.path) or not _is_test(u.path))
            and (imported or u.path == facts.path or self._same_package(facts, u))
        ]
        if not cands:
            return []
        steps = _segments(_unwrapped(call.receiver, spec.wrapper_calls if spec is not None else ()))
        if not steps:
            return []
        t = self._receiver_type(facts, caller, steps)[0]
        typed: list[Unit] = []
        if t is not None:
            if self.index.resolver.find_member(t, call.name) is not None or self.index.resolver.members_of(t).get(call.name):
                return []  # a member wins over an extension
            above = {t.name} | {s.name for s in self.index.resolver.supertypes_of(t)}
            typed = [u for u in cands if last_segment(u.ext_type) in above]
        # else the extended type named like the receiver (`file.toFile().source()`: a library type)
        last = _norm(steps[-1][0])
        cands = typed or [u for u in cands if last.endswith(_norm(last_segment(u.ext_type))) and not self._has_member(u.ext_type, call.name)]
        if not 0 < len(cands) <= MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["extension-call"] * _K_FACTOR[len(cands)]
        return [(u, conf, "extension-call") for u in cands]

    def _has_member(self, type_name: str, name: str) -> bool:
        """A type of that name in the index has a member `name` (which wins over the extension)."""
        resolver = self.index.resolver
        return any(
            resolver.find_member(t, name) is not None or resolver.members_of(t).get(name)
            for t in self.by_name().get(last_segment(type_name), ()) if t.kind in CLASS_KINDS
        )

    def _same_package(self, facts: FileFacts, u: Unit) -> bool:
        other = self.index.files.get(u.path)
        return other is not None and bool(facts.package) and other.package == facts.package
