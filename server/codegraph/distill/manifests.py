"""Declared entry points from manifests in scope: `pyproject.toml` scripts (and the entry points
setuptools' `setup.cfg` and `setup.py` declare), `package.json` main/bin.

The one place distill reads files that are not indexed source; it reads only manifests in the
root or in directories that hold indexed files, never secrets, and never follows a target
outside the index.
"""

from __future__ import annotations

import logging
import os
import posixpath
from dataclasses import dataclass

from ..workspace.manifest import load_manifest

log = logging.getLogger(__name__)
JS_BUILD_DIRS = ("dist/", "lib/", "build/", "out/")
JS_EXTS = (".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs", ".cjs")


@dataclass(frozen=True, slots=True)
class DeclaredEntry:
    manifest: str  # root-relative manifest path
    name: str  # script / bin name, or "main"
    target: str  # as declared: "pkg.cli:main", "bin/tool.js"
    path: str  # indexed file the target lands on ("" when it lands nowhere in scope)
    unit: str  # unit id for a callable target ("" for a file target)


def load(index, rel: str) -> dict | None:
    """A manifest's top-level table; a hostile one is a gap with a reason in the log, never a failure."""
    data, why = load_manifest(index.root, rel)
    if why:
        log.warning("manifest %s skipped: %s", rel, why)
    return data


def _manifest_dirs(index) -> list[str]:
    dirs = {""}
    for path in index.files:
        parts = path.split("/")[:-1]
        for i in range(len(parts)):
            dirs.add("/".join(parts[: i + 1]))
    return sorted(dirs)


def _python_targets(index, manifest: str, data: dict) -> list[DeclaredEntry]:
    project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
    tables: list[dict] = [project.get("scripts", {}), project.get("gui-scripts", {})]
    eps = project.get("entry-points", {})
    if isinstance(eps, dict):
        tables += [v for _, v in sorted(eps.items()) if isinstance(v, dict)]
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    tables.append(poetry.get("scripts", {}) if isinstance(poetry, dict) else {})
    # Poetry's entry point groups (`[tool.poetry.plugins."group"]`), as `[project.entry-points]`
    plugins = poetry.get("plugins", {}) if isinstance(poetry, dict) else {}
    if isinstance(plugins, dict):
        tables += [v for _, v in sorted(plugins.items()) if isinstance(v, dict)]
    out = []
    for table in tables:
        if not isinstance(table, dict):
            continue
        for name, value in sorted(table.items()):
            target = value.get("callable", "") if isinstance(value, dict) else value
            if not isinstance(target, str) or ":" not in target:
                continue
            module, _, attr = target.partition(":")
            path = _python_file(index, posixpath.dirname(manifest), module.strip())
            uid = f"{path}::{attr.strip()}" if path else ""
            out.append(DeclaredEntry(manifest, str(name), target, path, uid if uid in index.resolver.units else ""))
    return out


def _python_file(index, base: str, module: str) -> str:
    """The file a dotted module names, relative to the manifest's directory first (flat or src layout)."""
    stem = module.replace(".", "/")
    for root in (base, posixpath.join(base, "src") if base else "src"):
        for cand in (f"{stem}.py", f"{stem}/__init__.py"):
            rel = posixpath.join(root, cand) if root else cand
            if rel in index.files:
                return rel
    return index.resolver.py_modules.get(module, "") if not base else ""


def _js_file(index, base: str, target: str) -> str:
    rel = posixpath.normpath(posixpath.join(base, target))
    if rel in index.files:
        return rel
    stems = [rel.rsplit(".", 1)[0] if rel.endswith(JS_EXTS) else rel]
    inner = rel[len(base) + 1 :] if base else rel
    for d in JS_BUILD_DIRS:  # compiled output declared, source indexed: dist/x.js ← src/x.ts
        if inner.startswith(d):
            stems.append(posixpath.join(base, "src", inner[len(d) :]).rsplit(".", 1)[0])
    for stem in stems:
        for cand in [stem + e for e in JS_EXTS] + [f"{stem}/index{e}" for e in JS_EXTS]:
            if cand in index.files:
                return cand
    return ""


def _js_targets(index, manifest: str, base: str, data: dict) -> list[DeclaredEntry]:
    out = []
    if isinstance(data.get("main"), str):
        out.append(("main", data["main"]))
    bins = data.get("bin")
    if isinstance(bins, str):
        out.append((str(data.get("name", "bin")), bins))
    elif isinstance(bins, dict):
        out += [(str(k), v) for k, v in sorted(bins.items()) if isinstance(v, str)]
    return [DeclaredEntry(manifest, name, target, _js_file(index, base, target), "") for name, target in out]


def declared_entries(index) -> list[DeclaredEntry]:
    """Every entry point declared by a manifest in scope, in stable order."""
    found: list[DeclaredEntry] = []
    for d in _manifest_dirs(index):
        for name in ("pyproject.toml", "setup.cfg", "setup.py", "package.json"):
            rel = f"{d}/{name}" if d else name
            if not os.path.lexists(os.path.join(index.root, rel)):  # most directories hold none: one lstat, not three realpaths
                continue
            data = load(index, rel)
            if data is None:
                continue
            try:
                found += _js_targets(index, rel, d, data) if name == "package.json" else _python_targets(index, rel, data)
            except (ValueError, TypeError, AttributeError) as exc:  # a wrongly typed manifest is a gap, not a failure
                log.warning("manifest %s skipped: %s", rel, exc)
    return sorted(set(found), key=lambda e: (e.manifest, e.name, e.target))
