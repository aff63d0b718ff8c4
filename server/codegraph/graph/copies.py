"""Files that repeat the project's own code: the bundle a package ships beside its modules, the
second of two parallel builds (`es/` and `lib/`, a `browser/` tree beside the package's own), and
a bundle's variant beside it (the runtime-only build beside the full one).

A JavaScript package often ships one file that concatenates all its modules for a CDN or a
browser (`cdn.js`, `lodash.js` beside one file per function), under no name a build tool
reserves. Its functions carry the names the modules define at their top level, from
many modules at once; read as code of its own it repeats every body an answer shows. Such a file is
a copy: explore leaves it out like tests, distill counts it as material about the code.

Measured before building it, over every file with at least 10 functions: the full builds of two
packages (date-fns's `cdn.js` and `fp/cdn.js`, lodash's `lodash.js` and `core.js`) have 85–100 % of
them named like another file's top-level function, from 96 files or more, and half of those names
defined in at most 1–3 other files; a library written as one API per module (io-ts: `string`,
`struct`, `map` in each of a dozen modules) reaches the share but not the last (a median of 5–10
files); in 30 corpora (Python, JavaScript and TypeScript, Go, Rust, Java, Kotlin; Django among them)
no file outside tests qualifies, and in a TypeScript library two source modules did: only built
JavaScript is read. Most of a locale's own bundles (date-fns ships one per locale, each naming
what every locale names) stay in: they are no worse than the locale's modules.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable

from ..model.facts import CALLABLE_KINDS, CLASS_KINDS, Unit
from ..workspace.scope import BUILT_JS, TS_DECLARATION, TS_SOURCE

# Bundles and second builds are what a JavaScript build writes; source (TypeScript, Python, a
# library of one API per module in any language) is never one.
BUNDLE_MIN_UNITS = 10  # fewer functions say too little either way
BUNDLE_SHARE = 0.8  # of them named like another file's top-level definition
BUNDLE_SOURCES = 10  # spread over this many other files at least
# and each name one module's own: half of them defined in at most this many other files (a module
# of one API among many — `map`, `string`, `struct` in each of a dozen modules — is no bundle)
BUNDLE_NAME_FILES = 3


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
        if len(names) < BUNDLE_MIN_UNITS or not path.endswith(BUILT_JS):
            continue
        sources: set[str] = set()
        spread: list[int] = []  # per matched name, how many other files define it
        for name in names:
            elsewhere = top.get(name, ())
            others = len(elsewhere) - (path in elsewhere)
            if others:
                spread.append(others)
                sources.update(elsewhere)
        sources.discard(path)
        spread.sort()
        if (len(spread) >= BUNDLE_SHARE * len(names) and len(sources) >= BUNDLE_SOURCES
                and spread[len(spread) // 2] <= BUNDLE_NAME_FILES):
            copies.add(path)
    return frozenset(copies)


# What a build writes: a package shipping its modules built twice (ES modules in `es/`, CommonJS in
# `lib/`; a `browser/` tree beside the Node one) holds each module at the same path below two
# directories, defining the same functions and types. Source trees are not built twice: a TypeScript
# file or a platform variant (Kotlin's source sets, Go's build tags) is never such a twin.
TWIN_SHARE = 0.8  # of the two files' definitions (qualified names), at least two, in common
TWIN_MIN_NAMES = 2


# Of two builds, the one kept reads closest to the source: ES modules, then CommonJS, then the
# wrapped formats (AMD, UMD, SystemJS) and browser builds; another directory name between them.
BUILD_TREE_ORDER = ("esm", "es", "es6", "es2015", "module", "modules", "mjs", "lib", "cjs", "commonjs", "node")
LATE_BUILD_TREES = ("amd", "umd", "system", "browser", "bundles")


def _tree_rank(path: str) -> tuple[int, int, str]:
    """Where a built file's tree stands: the shallower first (a tree at the root before a copy of it
    one directory down), then by its build directory's format (its top directory's, or the first
    directory named for a format: `dist/esm/` before `dist/cjs/`)."""
    dirs = path.split("/")[:-1]
    tree = next((d for d in dirs if _format_of(d)), dirs[0] if dirs else "")
    fmt = _format_of(tree) or tree
    rank = BUILD_TREE_ORDER.index(fmt) if fmt in BUILD_TREE_ORDER else len(BUILD_TREE_ORDER) + (fmt in LATE_BUILD_TREES)
    return path.count("/"), 2 * rank + (tree != fmt), path  # `esm/` before `esm-browser/`


# a format named with the language level it was built for (`esm2015/`, `esm5/`, `fesm2020/`, rxjs's `_esm5/`)
_LEVELLED = re.compile(r"f?(esm|es|cjs)(?:5|6|20\d\d)")


def _format_of(directory: str) -> str:
    """The module format a build directory is named for (`esm`, `cjs-browser` → `cjs`, `esm2015` →
    `esm`), or ""."""
    head = directory.lstrip("_").split("-", 1)[0].split("_", 1)[0]
    levelled = _LEVELLED.fullmatch(head) if head not in BUILD_TREE_ORDER else None
    head = levelled.group(1) if levelled else head
    return head if head in BUILD_TREE_ORDER or head in LATE_BUILD_TREES else ""


def _built_definitions(units: Iterable[Unit], suffixes: tuple[str, ...] = BUILT_JS) -> dict[str, dict[str, int]]:
    """Per built file (or declaration file, by `suffixes`), its definitions (qualified names of
    callables and types) and each one's length in lines."""
    spans: dict[str, dict[str, int]] = defaultdict(dict)
    for u in units:
        if u.path.endswith(suffixes) and (u.kind in CALLABLE_KINDS or (u.kind in CLASS_KINDS and u.kind != "impl")):
            spans[u.path].setdefault(u.qualname, u.end_line - u.start_line)
    return spans


def _format_neutral(path: str) -> str:
    """A built path as any module format's build writes it: `esm/x.mjs` and `x.js` are one module in
    two builds (`.cjs`, `.mjs` → `.js`; `.d.cts`, `.d.mts` → `.d.ts`), a declaration never a module."""
    for suffix in TS_DECLARATION:
        if path.endswith(suffix):
            return path[: -len(suffix)] + ".d.ts"
    for suffix in BUILT_JS:
        if path.endswith(suffix):
            return path[: -len(suffix)] + ".js"
    return path


def _same_bodies(own: dict[str, int], other: dict[str, int], share: float) -> bool:
    """Whether `share` of the definitions the two files have in common are as long in both (line for
    line): builds of one source are; a platform's own variant, or a module of the same API, is not."""
    common = [q for q in own if q in other]
    return sum(own[q] == other[q] for q in common) >= share * len(common)


def build_twins(spans: dict[str, dict[str, int]]) -> frozenset[str]:
    """Built files that another built file, at the same path below a different top directory (or at
    the root: `browser/x.js` beside `x.js`; or with a directory named for a module format taken out:
    `dist/cjs/x.js` beside `dist/x.js`), defines much the same as: all but the best placed
    (`_tree_rank`) of each such set."""
    names = {path: set(defined) for path, defined in spans.items()}
    kept: dict[str, list[str]] = defaultdict(list)  # a path, or a path below its top directory → kept files there
    placed: dict[str, str] = {}  # the kept files by their format-neutral paths, for a build one directory below one
    twins = set()
    for path in sorted(names, key=_tree_rank):
        own = names[path]
        parts = _format_neutral(path).split("/")
        # parallel builds one level down too (`dist/esm/v3.js` beside `dist/cjs/v3.js`): below directories
        # named for module formats, a module of one function is a twin as well
        formats = ["/".join(parts[:i] + ["*"] + parts[i + 1 :]) for i in range(len(parts) - 1) if _format_of(parts[i])]
        # ...and a second build in a directory named for its format inside the first (`dist/cjs/v3.js`
        # beside `dist/v3.js`)
        inside = ["/".join(parts[:i] + parts[i + 1 :]) for i in range(len(parts) - 1) if _format_of(parts[i])]
        if any(k in placed and len(own & names[placed[k]]) >= TWIN_SHARE * len(own | names[placed[k]])
               and _same_bodies(spans[path], spans[placed[k]], TWIN_SHARE) for k in inside):
            twins.add(path)
            continue
        if len(own) < TWIN_MIN_NAMES and not formats:
            placed["/".join(parts)] = path
            continue
        _, below, rest = "/".join(parts).partition("/")
        keys = (["/".join(parts), rest] if below else ["/".join(parts)]) if len(own) >= TWIN_MIN_NAMES else []
        if any(len(own & names[k]) >= TWIN_SHARE * len(own | names[k]) for key in keys for k in kept[key]) or any(
                len(own & names[k]) >= TWIN_SHARE * len(own | names[k]) and _same_bodies(spans[path], spans[k], TWIN_SHARE)
                for key in formats for k in kept[key]):
            twins.add(path)
            continue
        placed["/".join(parts)] = path
        keys += formats
        for key in keys:
            kept[key].append(path)
    return frozenset(twins)


# Variants of one bundle side by side (`vue.esm-browser.js` and `vue.runtime.esm-browser.js`: the
# runtime build is the full build less its compiler): a large built file whose definitions another
# built file of the same directory almost all holds too, with the same bodies (as long, line for
# line). Modules written by hand in one directory share a few helper names; a library of one API
# per module (`string`, `struct`, `map` as a decoder, a guard, an encoder) shares the names, not the bodies.
SIBLING_MIN_NAMES = 20
SIBLING_SHARE = 0.8  # of the smaller file's definitions, and of those, as long as in the larger


def sibling_bundles(spans: dict[str, dict[str, int]]) -> frozenset[str]:
    """Built files of a directory whose definitions (qualified names, and their lengths in lines) a
    larger built file beside them holds almost all of: every such file but the largest (ties: the
    first by name)."""
    kept: dict[str, list[str]] = defaultdict(list)  # directory → the large files kept there
    copies = set()
    for path in sorted((p for p, n in spans.items() if len(n) >= SIBLING_MIN_NAMES), key=lambda p: (-len(spans[p]), p)):
        own, directory = spans[path], path.rpartition("/")[0]
        if any(sum(q in spans[k] for q in own) >= SIBLING_SHARE * len(own) and _same_bodies(own, spans[k], SIBLING_SHARE)
               for k in kept[directory]):
            copies.add(path)
        else:
            kept[directory].append(path)
    return frozenset(copies)


# Chunks a bundler splits shared code into are named by a content hash, which differs per format:
# `shared/core.03887fc3.mjs` beside `shared/core.d8adb063.cjs`, `raise-1db27a82.esm.js` beside
# `raise-4acdb210.cjs.js`. An eight-character segment of letters and digits, both, is such a hash.
CHUNK_HASH = re.compile(r"[.-](?=[A-Za-z0-9]{0,7}[0-9])(?=[A-Za-z0-9]{0,7}[A-Za-z])[A-Za-z0-9]{8}(?=\.)")


def _chunk_rank(path: str) -> tuple[int, str]:
    """ES modules first (`.mjs`, an `.esm.` infix), then other JavaScript, CommonJS (`.cjs`) last."""
    name = path.rsplit("/", 1)[-1]
    return (0 if name.endswith(".mjs") or ".esm." in name else 2 if name.endswith(".cjs") or ".cjs." in name else 1), path


def hashed_chunks(spans: dict[str, dict[str, int]]) -> frozenset[str]:
    """Built chunks of one directory whose names differ only by a content hash and a module format
    (`.cjs`/`.mjs`, `.cjs.`/`.esm.` infixes), defining much the same with the same bodies: all but
    the first by `_chunk_rank`."""
    groups: dict[str, list[str]] = defaultdict(list)
    for path in spans:
        key = CHUNK_HASH.sub("", _format_neutral(path)).replace(".cjs.", ".").replace(".esm.", ".")
        if key != _format_neutral(path).replace(".cjs.", ".").replace(".esm.", "."):
            groups[key].append(path)
    copies = set()
    for paths in groups.values():
        kept: list[str] = []
        for path in sorted(paths, key=_chunk_rank):
            own = set(spans[path])
            if len(own) >= TWIN_MIN_NAMES and any(len(own & set(spans[k])) >= TWIN_SHARE * len(own | set(spans[k]))
                                                  and _same_bodies(spans[path], spans[k], TWIN_SHARE) for k in kept):
                copies.add(path)
            else:
                kept.append(path)
    return frozenset(copies)


# What the TypeScript compiler writes: each module of its `rootDir` at the same path below its
# `outDir`, either the package root or one directory (zod ships `src/v4/core/schemas.ts` compiled to
# `v4/core/schemas.js`; many packages `src/x.ts` to `lib/x.js`). The JavaScript defines the classes
# and functions its source does (interfaces and types compile to nothing), with bodies of other
# lengths: the names tell it. The source is kept.


def _module_tails(path: str) -> list[str]:
    """The path without its extension, and without its first directory too: where it stands below
    the root, and below the one directory a compiler may read from or write to."""
    stem = path.rsplit(".", 1)[0]
    first, below, rest = stem.partition("/")
    return [stem, rest] if below else [stem]


def compiled_copies(units: Iterable[Unit], spans: dict[str, dict[str, int]]) -> frozenset[str]:
    """Built files whose TypeScript source ships too: a source module at the same path below the root
    or one directory (`lib/x.js` and `src/x.ts`, `v4/x.js` and `src/v4/x.ts`, `x.js` beside `x.ts`),
    defining TWIN_SHARE of the built file's names."""
    sources: dict[str, set[str]] = defaultdict(set)  # TypeScript module → the classes and callables it defines
    for u in units:
        if u.path.endswith(TS_SOURCE) and not u.path.endswith(TS_DECLARATION) and (u.kind in CALLABLE_KINDS or u.kind == "class"):
            sources[u.path].add(u.qualname)
    by_tail: dict[str, list[str]] = defaultdict(list)
    for path in sources:
        for tail in _module_tails(path):
            by_tail[tail].append(path)
    copies = set()
    for path, defined in spans.items():
        candidates = {src for tail in _module_tails(path) for src in by_tail.get(tail, ())}
        if any(len(defined.keys() & sources[src]) >= TWIN_SHARE * len(defined) for src in candidates):
            copies.add(path)
    return frozenset(copies)


def copy_files(units: Iterable[Unit]) -> frozenset[str]:
    """Bundles, build twins, bundle variants and compiled copies of TypeScript sources: the files both
    engines leave out like tests."""
    every = list(units)
    spans = _built_definitions(every)
    # the declarations each build writes beside its modules are twins as the modules are
    twins = (build_twins({**spans, **_built_definitions(every, TS_DECLARATION)}) | sibling_bundles(spans)
             | hashed_chunks(spans) | compiled_copies(every, spans))
    # bundles among what is left: each module of two parallel builds defines its names in the other
    # build too, and with three or four builds they reach ten files — the module itself is no bundle
    return twins | bundle_copies(u for u in every if u.path not in twins) | repeating_bundles(
        {path: defined for path, defined in spans.items() if path not in twins})


# A bundle that carries its dependencies too (a test runner's browser build with its polyfills and
# libraries: its own modules are a fifth of its functions) fails the share above; what it repeats of
# the package's own modules is their definitions, body for body (as long, line for line), from many
# files. Measured on 13 packages: a test runner's root bundle repeats 280 definitions of 28 of its
# modules; outside bundles, at most 29 from 7 files (one dialect's types beside the others') and
# rollup's two entry builds 1,511 of each other, from 6 files.
REPEAT_MIN_DEFINITIONS = 100
REPEAT_MIN_FILES = BUNDLE_SOURCES


def repeating_bundles(spans: dict[str, dict[str, int]]) -> frozenset[str]:
    """The built files that repeat, body for body, at least REPEAT_MIN_DEFINITIONS definitions (of
    two lines or more) of at least REPEAT_MIN_FILES other built files."""
    where: dict[tuple[str, int], set[str]] = defaultdict(set)
    for path, defined in spans.items():
        for qualname, length in defined.items():
            if length >= 2:
                where[(qualname, length)].add(path)
    copies = set()
    for path, defined in spans.items():
        if len(defined) < REPEAT_MIN_DEFINITIONS:
            continue
        repeated, sources = 0, set()
        for qualname, length in defined.items():
            others = where.get((qualname, length), ()) if length >= 2 else ()
            if len(others) > 1:
                repeated += 1
                sources.update(others)
        sources.discard(path)
        if repeated >= REPEAT_MIN_DEFINITIONS and len(sources) >= REPEAT_MIN_FILES:
            copies.add(path)
    return frozenset(copies)
