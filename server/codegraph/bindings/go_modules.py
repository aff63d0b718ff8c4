"""Where a Go import path lands inside the workspace by the go.mod files that declare it.

`import "example.com/lib/v2"` names the package at the root of the module whose go.mod says `module
example.com/lib/v2`, and `example.com/lib/v2/codec` its directory `codec/`: a suffix of the import
path never names the root package (nor a module in a subdirectory, `tools/go.mod`), so an example, a
command or a `mocks/` package importing the library's root package bound nothing. Read once per full
build from the directories holding indexed Go files and their ancestors up to the root (a go.mod
edited later counts at the next build); any other import path (a dependency) stays outside.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable

from .js_workspace import ancestor_dirs

MAX_GO_MOD_BYTES = 1_000_000
_MODULE = re.compile(r"^\s*module\s+\"?([^\s\"/][^\s\"]*)\"?\s*(?://.*)?$", re.M)


def _module_path(path: str) -> str:
    try:
        if os.path.getsize(path) > MAX_GO_MOD_BYTES:
            return ""
        with open(path, encoding="utf-8", errors="replace") as fh:
            found = _MODULE.search(fh.read())
    except OSError:
        return ""
    return found.group(1) if found else ""


def read_go_modules(root: str, paths: Iterable[str]) -> dict[str, str]:
    """Module path → the root-relative directory of its go.mod ("" for the root), for the go.mod files
    in the directories of `paths` (the indexed Go files) and their ancestors up to the root; a module
    path two go.mod files declare (a copy) maps to neither."""
    dirs = ancestor_dirs(paths)
    found: dict[str, str] = {}
    twice: set[str] = set()
    for d in sorted(dirs):
        module = _module_path(os.path.join(root, d, "go.mod"))
        if not module:
            continue
        if module in found:
            twice.add(module)
        found[module] = d
    return {m: d for m, d in found.items() if m not in twice}


def module_dir(modules: dict[str, str], import_path: str) -> str | None:
    """The root-relative directory `import_path` names under the workspace module whose path is its
    longest prefix (`example.com/lib/v2/codec` → `codec`), None when no module's path prefixes it."""
    best = None
    for module, directory in modules.items():
        if (import_path == module or import_path.startswith(module + "/")) and (best is None or len(module) > len(best[0])):
            best = (module, directory)
    if best is None:
        return None
    rest = import_path[len(best[0]) :].strip("/")
    return posixpath.join(best[1], rest) if best[1] and rest else best[1] or rest
