"""Where a bare JavaScript/TypeScript module name lands inside the workspace.

`import { ref } from '@vue/reactivity'` names no relative path: in a monorepo it is one of the
workspace's own packages, found as the compiler and the bundler find it — a `paths` entry of a
tsconfig/jsconfig above the importer (`"@vue/*": ["packages/*/src"]`), else the package whose
package.json `name` it is (its `source`, the conventional `src/index.*`, then the
`module`/`main`/`exports`/`types` file, the first in the index). Read once per full build from the
directories that hold indexed files (a package.json or tsconfig edited later counts at the next
build); anything else (an npm dependency) stays outside.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

MAX_CONFIG_BYTES = 1_000_000
_CONFIGS = ("tsconfig.json", "jsconfig.json")
# strings are kept whole; comments (JSONC: tsconfig allows them) dropped
_JSONC = re.compile(r'("(?:[^"\\\n]|\\.)*")|//[^\n]*|/\*[\s\S]*?\*/')
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def _read_json(path: str) -> dict | None:
    try:
        if os.path.getsize(path) > MAX_CONFIG_BYTES:
            return None
        with open(path, encoding="utf-8") as fh:
            raw = fh.read()
    except (OSError, UnicodeDecodeError):
        return None
    try:
        data = json.loads(raw)
    except RecursionError:  # a hostile nesting depth
        return None
    except ValueError:
        try:
            data = json.loads(_TRAILING_COMMA.sub(r"\1", _JSONC.sub(lambda m: m.group(1) or "", raw)))
        except (ValueError, RecursionError):
            return None
    return data if isinstance(data, dict) else None


def _entries(pkg: dict) -> list[str]:
    """Where a package's entry may be, in the order to try: its `source`, the conventional
    `src/index` before the files it names (`main: dist/x.js` is built output, an `index.js` a shim
    requiring it), the code it runs before its declarations (`types: x.d.ts` beside `main: x.js`),
    then `index`."""
    out = [pkg.get("source"), "src/index", pkg.get("module"), pkg.get("main")]
    exports = pkg.get("exports")
    if isinstance(exports, dict):
        exports = exports.get(".", exports)
    for _ in range(3):  # `{".": {"import": {"types": …, "default": …}}}`
        if isinstance(exports, dict):
            exports = next((exports[k] for k in ("source", "import", "default", "require", "types") if k in exports), None)
    out += [exports, pkg.get("types"), pkg.get("typings"), "index"]
    return list(dict.fromkeys(posixpath.normpath(e) for e in out if isinstance(e, str) and e))


@dataclass
class JsWorkspace:
    # (config dir, base dir, pattern, targets), deepest config first: a tsconfig's `paths`
    paths: list[tuple[str, str, str, tuple[str, ...]]] = field(default_factory=list)
    # package name → (its directory, its entries as written)
    packages: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # a directory holding a package.json (named or not) → its entries: `require('..')` names one
    directories: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def fingerprint(self) -> str:
        return repr((self.paths, sorted(self.packages.items()), sorted(self.directories.items())))

    def directory_entries(self, directory: str) -> list[str]:
        """Root-relative paths (without extension) a relative import of a package's directory may
        be (`require('..')` in its tests and examples): the entries its package.json names."""
        return [posixpath.normpath(posixpath.join(directory, e)) for e in self.directories.get(directory, ())]

    def bases(self, importer: str, module: str) -> Iterable[str]:
        """Root-relative paths (without extension) the module may be, in the order to try."""
        for cfg, base, pattern, targets in self.paths:
            if cfg and not importer.startswith(cfg + "/"):  # a config applies to the files below it
                continue
            star = _match(pattern, module)
            if star is None:
                continue
            for t in targets:
                yield posixpath.normpath(posixpath.join(base, t.replace("*", star, 1)))
        name = module
        while name:
            hit = self.packages.get(name)
            if hit is not None:
                directory, entries = hit
                sub = module[len(name) + 1 :]
                if sub:
                    yield posixpath.join(directory, sub)
                    yield posixpath.join(directory, "src", sub)
                else:
                    yield from (posixpath.join(directory, e) for e in entries)
                return
            name = name.rpartition("/")[0]


def _match(pattern: str, module: str) -> str | None:
    """What `*` stands for when the module matches the pattern ("" for an exact match), else None."""
    if "*" not in pattern:
        return "" if pattern == module else None
    head, _, tail = pattern.partition("*")
    if module.startswith(head) and module.endswith(tail) and len(module) >= len(head) + len(tail):
        return module[len(head) : len(module) - len(tail)]
    return None


def ancestor_dirs(paths: Iterable[str]) -> set[str]:
    """The directories of `paths` and every one above them, up to the root ("")."""
    dirs: set[str] = set()
    for p in paths:
        d = posixpath.dirname(p)
        while d not in dirs:
            dirs.add(d)
            if not d:
                break
            d = posixpath.dirname(d)
    return dirs


def read_workspace(root: str, paths: Iterable[str]) -> JsWorkspace:
    """The workspace's tsconfig `paths` and package names, from the directories of `paths` (the
    indexed JavaScript/TypeScript files) and their ancestors up to the root."""
    dirs = ancestor_dirs(paths)
    ws = JsWorkspace()
    configs: list[tuple[str, str, str, tuple[str, ...]]] = []
    for d in sorted(dirs, key=lambda d: (-d.count("/") if d else 1, d)):
        full = os.path.join(root, d)
        pkg = _read_json(os.path.join(full, "package.json"))
        if pkg is not None:
            ws.directories[d] = tuple(e for e in _entries(pkg) if e != "index")  # the directory's own index is tried anyway
        if pkg is not None and isinstance(pkg.get("name"), str) and pkg["name"]:
            ws.packages.setdefault(pkg["name"], (d, tuple(_entries(pkg))))
        for name in _CONFIGS:
            cfg = _read_json(os.path.join(full, name))
            options = cfg.get("compilerOptions") if cfg else None
            table = options.get("paths") if isinstance(options, dict) else None
            if not isinstance(table, dict):
                continue
            base = options.get("baseUrl") if isinstance(options.get("baseUrl"), str) else "."
            base = posixpath.normpath(posixpath.join(d, base))
            base = "" if base == "." else base
            for pattern, targets in table.items():
                if isinstance(pattern, str) and isinstance(targets, list):
                    configs.append((d, base, pattern, tuple(t for t in targets if isinstance(t, str))))
    ws.paths = configs
    return ws
