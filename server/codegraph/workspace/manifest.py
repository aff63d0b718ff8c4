"""Configuration files read beside the source (package manifests): hostile input like any file.

A manifest is read only when it is a regular file inside the root (a symlink that leaves the root,
a FIFO that would block the read, a directory, a device: refused), up to a size cap, and parsed
with every failure — broken syntax, binary bytes, nesting deep enough to exhaust the parser's
recursion, a document of the wrong type — turned into a reason. A caller gets data or a reason,
never an exception, and never waits longer than reading and parsing the capped bytes takes.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import stat
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    tomllib = None  # type: ignore[assignment]

from .scope import is_secret_path

MAX_MANIFEST_BYTES = 1_000_000


def read_manifest(root: Path, rel: str) -> tuple[bytes | None, str]:
    """(bytes, "") or (None, why not); a manifest that is simply absent is (None, "")."""
    if is_secret_path(rel):
        return None, ""
    path = os.path.join(root, rel)
    try:
        real = os.path.realpath(path)
        if os.path.commonpath([real, os.path.realpath(root)]) != os.path.realpath(root):
            return None, "symlink leaves the workspace"
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file"
        if st.st_size > MAX_MANIFEST_BYTES:
            return None, f"larger than {MAX_MANIFEST_BYTES} bytes"
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # swapped since the stat
                return None, "not a regular file"
            data = fh.read(MAX_MANIFEST_BYTES + 1)
    except FileNotFoundError:
        return None, ""
    except (OSError, ValueError) as exc:
        return None, f"unreadable ({getattr(exc, 'strerror', None) or exc})"
    if len(data) > MAX_MANIFEST_BYTES:
        return None, f"larger than {MAX_MANIFEST_BYTES} bytes"
    return data, ""


def parse_manifest(name: str, data: bytes) -> tuple[dict[str, Any] | None, str]:
    """A TOML or JSON manifest's top-level table, or (None, why it is unusable). setuptools'
    `setup.cfg` and `setup.py` answer as the `pyproject.toml` that declares the same entry points."""
    if b"\x00" in data[:8192]:
        return None, "binary"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, "not UTF-8"
    try:
        if name.endswith(".toml"):
            if tomllib is None:  # pragma: no cover
                return None, "no TOML reader on Python 3.10"
            doc: Any = tomllib.loads(text)
        elif name.endswith("setup.cfg"):
            doc = _as_pyproject(_setup_cfg_entry_points(text))
        elif name.endswith("setup.py"):
            doc = _as_pyproject(_setup_py_entry_points(text))
        else:
            doc = json.loads(text)
    except RecursionError:
        return None, "nested too deeply"
    except Exception as exc:  # noqa: BLE001 - any parser failure is this file's reason
        return None, f"unparsable ({type(exc).__name__}: {ascii(str(exc)[:80])})"
    if not isinstance(doc, dict):
        return None, f"top level is {type(doc).__name__}, not a table"
    return doc, ""


def _as_pyproject(groups: dict[str, dict[str, str]]) -> dict[str, Any]:
    return {"project": {"entry-points": groups}}


def _entry_lines(lines) -> dict[str, str]:
    """`name = module:attr [extra]` lines (setuptools' entry point syntax) → {name: "module:attr"}."""
    found: dict[str, str] = {}
    for line in lines:
        name, eq, target = str(line).partition("=")
        target = target.split("[", 1)[0].strip()
        if eq and name.strip() and target:
            found[name.strip()] = target
    return found


def _setup_cfg_entry_points(text: str) -> dict[str, dict[str, str]]:
    """The `[options.entry_points]` section of a `setup.cfg`: each key a group, its value the lines."""
    cfg = configparser.ConfigParser(interpolation=None, strict=False)
    cfg.optionxform = str  # type: ignore[assignment,method-assign]  # names keep their case
    cfg.read_string(text)
    if not cfg.has_section("options.entry_points"):
        return {}
    return {group: _entry_lines(value.splitlines()) for group, value in cfg.items("options.entry_points")}


def _setup_py_entry_points(text: str) -> dict[str, dict[str, str]]:
    """The `entry_points=` a `setup.py` hands to `setup(…)`, read without running it: a literal,
    or a module-level name bound to one (`{"console_scripts": ["tool = pkg.cli:main"]}`, or the
    same as one INI-style string), also among the keywords a module-level `dict(…)` collects for
    `setup(**args)`; of a table with computed lines, its literal lines. Anything computed declares
    nothing."""
    tree = ast.parse(text)
    literals: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            literals[node.targets[0].id] = node.value
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if func != "setup":
            continue
        # `setup(entry_points=…)`, or `setup(**args)` with `args = dict(…, entry_points=…)` (or a
        # `{…}` literal) bound at the module's top: the keywords collected first, then splatted
        passed = [(kw.arg, kw.value) for kw in node.keywords if kw.arg is not None]
        for kw in node.keywords:
            if kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id in literals:
                passed += _table_items(literals[kw.value.id])
        for arg, value in passed:
            if arg != "entry_points":
                continue
            value = literals.get(value.id, value) if isinstance(value, ast.Name) else value
            try:
                declared = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return _partly_literal(value)
            if isinstance(declared, str):
                return _ini_entry_points(declared)
            if isinstance(declared, dict):
                return {str(group): _entry_lines([lines] if isinstance(lines, str) else lines)
                        for group, lines in declared.items() if isinstance(lines, (str, list, tuple))}
    return {}


def _partly_literal(value: ast.expr) -> dict[str, dict[str, str]]:
    """The literal lines of a table of entry points some of whose lines are computed: pip declares
    `"pip=pip._internal.cli.main:main"` beside `f"pip{sys.version_info[0]}=…"` (a `dict(…)` call
    too). Each computed line, and a group whose name is computed, declares nothing."""
    groups: dict[str, dict[str, str]] = {}
    for group, lines in _table_items(value):
        if not isinstance(group, str) or not isinstance(lines, (ast.List, ast.Tuple)):
            continue
        literal = [e.value for e in lines.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        found = _entry_lines(literal)
        if found:
            groups[group] = found
    return groups


def _table_items(value: ast.expr) -> list[tuple[object, ast.expr]]:
    """(key, value) of a `{…}` literal or a `dict(k=…)` call, as written (a computed key: None)."""
    if isinstance(value, ast.Dict):
        return [(k.value if isinstance(k, ast.Constant) else None, v) for k, v in zip(value.keys, value.values)]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and not value.args:
        return [(kw.arg, kw.value) for kw in value.keywords]
    return []


def _ini_entry_points(text: str) -> dict[str, dict[str, str]]:
    """setuptools' INI form of entry points (`[console_scripts]` then `name = target` lines)."""
    cfg = configparser.ConfigParser(interpolation=None, strict=False)
    cfg.optionxform = str  # type: ignore[assignment,method-assign]
    cfg.read_string(text)
    return {group: _entry_lines(f"{k} = {v}" for k, v in cfg.items(group)) for group in cfg.sections()}


def load_manifest(root: Path, rel: str) -> tuple[dict[str, Any] | None, str]:
    data, why = read_manifest(root, rel)
    if data is None:
        return None, why
    return parse_manifest(rel, data)


def rust_crates(root: Path, paths) -> dict[str, str]:
    """The crates the code base's `Cargo.toml` files declare: the name a Rust path writes
    (`my-lib` is written `my_lib`) → the crate's directory ("" at the root). Only where Rust
    files are indexed; an unreadable manifest declares nothing."""
    paths = list(paths)
    if not any(p.endswith(".rs") for p in paths):
        return {}
    dirs = {""}
    for p in paths:
        parts = p.split("/")[:-1]
        dirs.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    crates: dict[str, str] = {}
    for d in sorted(dirs):
        data, _ = load_manifest(root, f"{d}/Cargo.toml" if d else "Cargo.toml")
        pkg = data.get("package") if data is not None else None
        if isinstance(pkg, dict) and isinstance(pkg.get("name"), str):
            crates.setdefault(pkg["name"].replace("-", "_"), d)
    return crates
