"""Definitions a Python string names by import path, rule `import-path`: `'pkg.worker.strategy:default'`,
`'pkg.core.downloader.Downloader'`. Plugins, strategies and settings chosen by path are loaded later
(`symbol_by_name`, `import_string`, `load_object`, `importlib`) and then called or constructed, so
the string is where the code goes, though no call is written: a reference edge of its own rule,
never proof. The string's unit holds the edge; a class attribute holding such a string lends it to
the class's methods that read it (`self.Strategy`, `cls.Request`). Found by a byte search of Python
sources at query time (the facts hold no string literals); each file's strings are read once per
source text, across index versions.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, FileFacts, Unit
from ..languages import BY_NAME
from .rules import _is_test

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex  # noqa: F401

# a quoted dotted path of two or more names, optionally `module:attribute[.attribute]`
_IMPORT_PATH = re.compile(rb"""(['"])((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)?)\1""")
_ATTRIBUTE = re.compile(rb"""^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*(['"])((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)?)\2""", re.M)
MAX_ATTRIBUTES = 2  # `module:Class.method` at most


def _by_path_language(facts: FileFacts) -> bool:
    spec = BY_NAME.get(facts.language)
    return spec is not None and spec.import_path_strings


class ImportPaths:
    """Mixin of LikelyGraph."""

    index: "RootIndex"

    def _import_path_strings(self, path: str) -> list[tuple[int, str]]:
        """(byte offset, path text) of every import-path string in a Python file, read once per source text."""
        source = self.index.sources.get(path, b"")
        cache = self.index.memo.setdefault("import-path strings", {})
        hit = cache.get(path)
        if hit is not None and hit[0] is source:
            return hit[1]
        found = [(m.start(2), m.group(2).decode()) for m in _IMPORT_PATH.finditer(source)] if b"." in source else []
        cache[path] = (source, found)
        return found

    def _path_target(self, text: str) -> Unit | None:
        """The workspace definition an import path names: a module of the workspace, then a
        top-level definition of it and at most one member below (`module:Class.method` or
        `module.Class`); None for a module alone or anything outside."""
        memo = self._memo_paths
        if text in memo:
            return memo[text]
        resolver = self.index.resolver
        module, colon, attrs = text.partition(":")
        splits = [(module, attrs.split("."))] if colon else [
            (".".join(parts[:k]), parts[k:]) for parts in [text.split(".")] for k in range(len(parts) - 1, max(0, len(parts) - 1 - MAX_ATTRIBUTES), -1)
        ]
        found = None
        for mod, names in splits:
            path = resolver.py_modules.get(mod)
            facts = self.index.files.get(path) if path else None
            if facts is None or not names or len(names) > MAX_ATTRIBUTES:
                continue
            top = next((u for u in facts.units if u.parent is None and u.name == names[0] and (u.is_callable or u.kind in CLASS_KINDS)), None)
            if top is not None and len(names) == 2:
                top = resolver.find_member(top, names[1]) if top.kind in CLASS_KINDS else None
            if top is not None:
                found = top
                break
        memo[text] = found
        return found

    def _import_paths(self, unit: Unit, facts: FileFacts) -> list[tuple[Unit, int]]:
        """The definitions `unit`'s own code names by import path (not its nested units'), and for a
        method those its class's attributes name that it reads through `self` or `cls`."""
        strings = self._import_path_strings(facts.path) if _by_path_language(facts) else []
        if not strings:  # a class attribute's path is a string of the same file
            return []
        test = _is_test(unit.path)
        source = self.index.sources.get(facts.path, b"")
        inside = [(at, text) for at, text in strings if unit.start_byte <= at < unit.end_byte]
        holes = [(c.start_byte, c.end_byte) for c in facts.units if c.parent == unit.id] if inside else []
        out: list[tuple[Unit, int]] = []
        for at, text in inside:
            if not any(a <= at < b for a, b in holes):
                dst = self._path_target(text)
                if dst is not None and dst.id != unit.id and (test or not _is_test(dst.path)):
                    out.append((dst, unit.start_line + source.count(b"\n", unit.start_byte, at)))
        owner = self.index.resolver.units.get(unit.parent) if unit.parent else None
        if unit.is_callable and owner is not None and owner.kind in CLASS_KINDS:
            for name, dst in self._path_attributes(owner, facts).items():
                if _is_test(dst.path) and not test:
                    continue
                m = re.search(rb"\b(?:self|cls)\." + re.escape(name.encode()) + rb"\b", source[unit.start_byte : unit.end_byte])
                if m is not None:
                    out.append((dst, unit.start_line + source.count(b"\n", unit.start_byte, unit.start_byte + m.start())))
        return out

    def _path_attributes(self, owner: Unit, facts: FileFacts) -> dict[str, Unit]:
        """A class's own attributes assigned an import path in its body (not in its methods), and
        the definitions they name."""
        hit = self._memo_path_attrs.get(owner.id)
        if hit is not None:
            return hit
        source = self.index.sources.get(facts.path, b"")
        holes = [(c.start_byte, c.end_byte) for c in facts.units if c.parent == owner.id and c.is_callable]
        found: dict[str, Unit] = {}
        for m in _ATTRIBUTE.finditer(source, owner.start_byte, owner.end_byte):
            if not any(a <= m.start() < b for a, b in holes):
                dst = self._path_target(m.group(3).decode())
                if dst is not None:
                    found[m.group(1).decode()] = dst
        self._memo_path_attrs[owner.id] = found
        return found

    def _named_by_path(self) -> dict[str, set[str]]:
        """Definition id → the units whose strings may name it by import path: the innermost unit
        holding each string, and for a class attribute's string the class's methods (into()'s
        sources; each one's out() says whether it does). One pass over the Python files, whose
        strings are read once per source text."""
        if self._by_path is None:
            by_path: dict[str, set[str]] = {}
            for path, facts in self.index.files.items():
                if not _by_path_language(facts):
                    continue
                strings = self._import_path_strings(path)
                if not strings:
                    continue
                units = sorted(facts.units, key=lambda u: (u.start_byte, -u.end_byte))
                for at, text in strings:
                    dst = self._path_target(text)
                    if dst is None:
                        continue
                    holder = None
                    for u in units:  # the innermost unit holding the string: the last one that starts before it and spans it
                        if u.start_byte > at:
                            break
                        if at < u.end_byte:
                            holder = u
                    if holder is None:
                        continue
                    srcs = by_path.setdefault(dst.id, set())
                    srcs.add(holder.id)
                    owner = holder if holder.kind in CLASS_KINDS else self.index.resolver.units.get(holder.parent or "") if holder.kind == "statement" else None
                    if owner is not None and owner.kind in CLASS_KINDS:
                        srcs.update(u.id for u in facts.units if u.parent == owner.id and u.is_callable)
            self._by_path = by_path
        return self._by_path
