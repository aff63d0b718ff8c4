"""Files that repeat the project's own code: the bundle a package ships beside its modules.

A JavaScript package often ships one file that concatenates all its modules for a CDN or a
browser (`cdn.js`, a locale's `cdn.js`, a full build beside one file per function), under no name
a build tool reserves. Its functions carry the names the modules define at their top level, from
many modules at once; read as code of its own it repeats every body an answer shows. Such a file is
a copy: explore leaves it out like tests, distill counts it as material about the code.

Measured before building it, over every file with at least 10 functions: a package's 97 bundles
(its own and one per locale) have 85–100 % of them named like another file's top-level function,
from 96–387 other files; in 30 other corpora (Python, JavaScript and TypeScript, Go, Rust, Java,
Kotlin; Django among them) no file outside tests qualifies — a platform variant or a build twin
mirrors one file, not ten, and a nested type named like an annotation is no function.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from ..model.facts import Unit

BUNDLE_MIN_UNITS = 10  # fewer functions say too little either way
BUNDLE_SHARE = 0.8  # of them named like another file's top-level definition
BUNDLE_SOURCES = 10  # spread over this many other files at least


def bundle_copies(units: Iterable[Unit]) -> frozenset[str]:
    """The paths of the files whose functions are, by name, other files' top-level functions, from
    many files (leading underscores ignored: bundlers rename a clash `_parse`)."""
    top: dict[str, set[str]] = defaultdict(set)  # name → the files defining it at their top level
    named: dict[str, set[str]] = defaultdict(set)  # file → the names of its functions, nested too
    for u in units:
        if u.kind == "function":  # a nested type named like an annotation elsewhere is no copy
            name = u.name.lstrip("_")
            if name:
                named[u.path].add(name)
                if u.parent is None:
                    top[name].add(u.path)
    copies = set()
    for path, names in named.items():
        if len(names) < BUNDLE_MIN_UNITS:
            continue
        sources: set[str] = set()
        matched = 0
        for name in names:
            elsewhere = top.get(name, ())
            if len(elsewhere) > (path in elsewhere):
                matched += 1
                sources.update(elsewhere)
        sources.discard(path)
        if matched >= BUNDLE_SHARE * len(names) and len(sources) >= BUNDLE_SOURCES:
            copies.add(path)
    return frozenset(copies)
