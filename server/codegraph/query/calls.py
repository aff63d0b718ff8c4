"""Callers and callees of a unit: proven edges (the resolver's graph) and likely ones (the
ranked graph, `graph/likely.py`), never mixed: a likely edge carries its rule and confidence
and is listed after the proven ones. Every edge carries its call sites (byte ranges in the
caller's file). A call the ranked graph fans out to a family of overrides (dispatch on a base
or interface method) is one edge to the family, not one guess per member.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..graph.likely import likely_graph
from ..languages.spec import last_segment
from ..model.facts import CLASS_KINDS, Call, Unit
from ..model.fields import InvalidParams
from .symbols import closest, is_test_unit, symbol_table

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex

PROVEN_KINDS = ("calls", "constructs")
FAMILY_RULES = frozenset({"family-dispatch", "subtype-method", "wide-dispatch"})  # one call, many possible overrides
MAX_MATCHES = 8  # units one name may stand for in a query (more: the name is too common, ask by path)


class CallEdge(NamedTuple):
    caller: str  # unit id
    callee: str  # unit id; for a family, the method the call names (or the first member)
    lines: tuple[int, ...]  # call-site lines in the caller's file, ascending
    sites: tuple[tuple[int, int], ...]  # (start byte, end byte) of each site's callee name
    proven: bool
    rule: str  # proven: calls|constructs; likely: the rule that proposed it
    confidence: float  # 1.0 when proven
    family: tuple[str, ...] = ()  # the overrides a family edge stands for


def tag(edge: CallEdge) -> str:
    """How an edge is labelled wherever it is shown: a likely edge never reads as a fact."""
    return f"proven: {edge.rule}" if edge.proven else f"likely: {edge.rule}, {edge.confidence:.2f}"


# ---- which unit a query names ---------------------------------------------------------------
def indexed_path(index: "RootIndex", path: str, field: str) -> str:
    """`path` as the index spells it (relative to the root, `/`-separated): `./src/a.py`,
    `src/../src/a.py` and an absolute path inside the root name `src/a.py`. A path that leaves
    the root is refused, naming the rule; one that stays inside is returned whether or not the
    index holds it (the caller says what it does not hold)."""
    if path in index.files:
        return path
    shown = path if len(path) <= 200 else path[:197] + "…"
    outside = f"is outside the root {index.root} ({shown!r}): give a path relative to the root, or an absolute path inside it"
    if os.path.isabs(path):
        for candidate in (Path(os.path.normpath(path)), Path(path).resolve()):  # as written, then through symlinks
            try:
                return candidate.relative_to(index.root).as_posix()
            except ValueError:
                continue
        raise InvalidParams(field, outside)
    rel = posixpath.normpath(path) if path else path
    if rel == ".." or rel.startswith("../"):
        raise InvalidParams(field, outside)
    return rel


def resolve_symbol(index: "RootIndex", text: str, field: str = "symbol") -> list[Unit]:
    """The units `text` names: a unit id (`path::Qual.name`), `path:line` (the innermost unit
    there), a qualified name (a Rust path `Type::m` too, with a module path in front or not; an
    extension function as `Type.f`) or a name (every unit so named, tests last). Names nothing:
    an error naming the field, with the closest names."""
    text = text.strip()
    units = index.resolver.units
    if text in units and units[text].kind != "statement":
        return [units[text]]
    head, sep, tail = text.partition("::")
    if sep and _path_like(head):  # a unit id written with `./`, `..` or the absolute path
        text = f"{indexed_path(index, head, field)}::{tail}"
        if text in units and units[text].kind != "statement":
            return [units[text]]
    path, sep, line = text.rpartition(":")
    is_line = bool(sep) and line.isascii() and line.isdigit()  # `²` is a digit to str.isdigit, not to int()
    if is_line and _path_like(path):
        path = indexed_path(index, path, field)
    if is_line and path in index.files:
        n, last = int(line), index.files[path].lines
        if not 1 <= n <= last:
            raise InvalidParams(field, f"line {n} is outside {path} (1 to {last})")
        hit = unit_at(index, path, n)
        if hit is None:
            raise InvalidParams(field, f"names line {n} of {path}, where no function, method or type is defined")
        return [hit]
    if _path_like(text) and (as_file := indexed_path(index, text, field)) in index.files:
        text = as_file
    if text in index.files:
        raise InvalidParams(field, f"names a file; name a unit in it (e.g. {text}:LINE or {text}::Name)")
    if "::" not in text and (at := file_before_colon(index, text)) is not None:  # `path:abc`, `path:-5`, `path:1:2`
        file, rest = at
        raise InvalidParams(field, f"names {file}, but {rest!r} after it is not a line number: write {file}:LINE (lines from 1) or {file}::Name"[:600])
    table = symbol_table(index)
    head = text.split("::", 1)[0]
    if "::" in text and (head in index.files or "/" in head):  # a unit id whose path or name is off
        found: list[Unit] = []
    else:
        qualname = text.replace("::", ".")  # a Rust path (`Command::get_matches`) names what `Command.get_matches` does
        found = (
            [u for u in table.units if u.qualname == qualname]
            or _longest_tail(table.units, qualname)  # `crate::builder::Command::new`, `flask.app.Flask.wsgi_app`
            or [u for u in table.units if u.ext_type and f"{last_segment(u.ext_type).rstrip('?')}.{u.name}" == qualname]  # `File.source`: `fun File.source()`
            or [u for u in table.units if u.name == qualname]
        )
    if not found:
        near = closest(index, text)
        hint = f"; closest: {', '.join(near)}" if near else ""
        shown = text if len(text) <= 80 else text[:77] + "…"
        raise InvalidParams(field, f"names no function, method or type in the index ({shown!r}){hint}"[:600])
    found.sort(key=lambda u: (is_test_unit(u), u.path, u.start_byte))
    if len(found) > MAX_MATCHES:
        shown = ", ".join(u.id for u in found[:MAX_MATCHES])
        raise InvalidParams(field, f"is ambiguous: {len(found)} units are named {text!r} ({shown}, …); name one as path::Qualified.name"[:600])
    return found


def file_before_colon(index: "RootIndex", text: str) -> tuple[str, str] | None:
    """(file, rest) when the part of `text` before one of its colons is a file in the index (the
    longest such part) and the whole is not: `text` is that file with a malformed `:LINE` after
    it (`src/a.py:abc`, `src/a.py:-5`, `src/a.py:1:2`), and the error is about the line, not the
    file. A file whose own name holds a colon is never mistaken: the caller asks this only once
    the whole text named no file."""
    end = len(text)
    while (end := text.rfind(":", 0, end)) > 0:
        try:
            path = indexed_path(index, text[:end], "")
        except InvalidParams:  # that part leaves the root: not a file of this index
            continue
        if path in index.files:
            return path, text[end + 1 :]
    return None


def _path_like(text: str) -> bool:
    """Written as a path the index would spell otherwise: absolute, or with `.`, `..` or empty segments."""
    return os.path.isabs(text) or ("/" in text and any(part in ("", ".", "..") for part in text.split("/")))


def _longest_tail(units, qualname: str) -> list[Unit]:
    """The units whose qualified name ends the one asked for, the longest such name only: a name
    written with its module or crate path in front (`builder.Command.new` → `Command.new`)."""
    if "." not in qualname:
        return []
    found = [u for u in units if "." in u.qualname and qualname.endswith("." + u.qualname)]
    longest = max((len(u.qualname) for u in found), default=0)
    return [u for u in found if len(u.qualname) == longest]


def unit_at(index: "RootIndex", path: str, line: int) -> Unit | None:
    """The innermost function, method or type whose span holds the line."""
    facts = index.files.get(path)
    if facts is None:
        return None
    best: Unit | None = None
    for u in facts.units:
        if u.kind != "statement" and u.start_line <= line <= u.end_line:
            if best is None or (u.end_byte - u.start_byte) < (best.end_byte - best.start_byte):
                best = u
    return best


# ---- call sites ------------------------------------------------------------------------------
@dataclass
class _Sites:
    """Call and reference records of one file by line (built once per file and index version)."""

    by_line: dict[int, list[Call]]


def _sites_of(index: "RootIndex", path: str) -> _Sites:
    table = symbol_table(index)
    cache = table.__dict__.setdefault("_sites", {})
    hit = cache.get(path)
    if hit is None:
        facts = index.files[path]
        by_line: dict[int, list[Call]] = {}
        for c in (*facts.calls, *facts.refs):
            by_line.setdefault(c.line, []).append(c)
        hit = cache[path] = _Sites(by_line)
    return hit


def proven_lines(index: "RootIndex", src: Unit, dst: str, kind: str) -> list[int]:
    """Every line where `src` makes this proven call (the graph keeps one edge per pair and
    kind; the file's bindings keep each site)."""
    table = symbol_table(index)
    cache = table.__dict__.setdefault("_edges", {})
    by_src = cache.get(src.path)
    if by_src is None:
        by_src = cache[src.path] = {}
        bindings = index.bindings.get(src.path)
        for e in bindings.edges if bindings is not None else ():
            if e.kind in PROVEN_KINDS:
                by_src.setdefault((e.src, e.dst, e.kind), []).append(e.line)
    return by_src.get((src.id, dst, kind), [])


def site(index: "RootIndex", path: str, line: int, callee: Unit) -> tuple[int, int]:
    """Byte range of the callee's name at a call site (the whole line's text when no call record
    of that line names it: a registration table, a decorator)."""
    source = index.sources.get(path, b"")
    names = {callee.name}
    parent = index.resolver.units.get(callee.parent) if callee.parent else None
    if parent is not None and (callee.kind == "constructor" or callee.name in ("__init__", "constructor")):
        names.add(parent.name)
    calls = _sites_of(index, path).by_line.get(line, []) if path in index.files else []
    for c in sorted(calls, key=lambda c: (c.name not in names, c.start_byte)):
        if c.name in names:
            name = c.name.encode("utf-8")
            at = source.find(name, c.start_byte + len(c.receiver.encode("utf-8")), c.end_byte)
            if at < 0:
                at = source.find(name, c.start_byte, c.end_byte)
            return (at, at + len(name)) if at >= 0 else (c.start_byte, c.end_byte)
    return _line_span(source, line)


def _line_span(source: bytes, line: int) -> tuple[int, int]:
    start = 0
    for _ in range(line - 1):
        nl = source.find(b"\n", start)
        if nl < 0:
            return len(source), len(source)
        start = nl + 1
    end = source.find(b"\n", start)
    end = len(source) if end < 0 else end
    text = source[start:end]
    lead = len(text) - len(text.lstrip())
    return start + lead, start + len(text.rstrip())


# ---- one step: the edges into or out of a unit ------------------------------------------------
def _edge(index: "RootIndex", caller: Unit, callee: Unit, lines: list[int], proven: bool, rule: str, conf: float,
          family: tuple[str, ...] = ()) -> CallEdge:
    lines = sorted(set(lines))
    return CallEdge(caller.id, callee.id, tuple(lines), tuple(site(index, caller.path, ln, callee) for ln in lines),
                    proven, rule, conf, family)


def callers(index: "RootIndex", unit: Unit, likely: bool = True) -> list[CallEdge]:
    """Proven callers (a constructor's include its type's constructions), then likely ones; one
    edge per caller and rule, with every site."""
    units = index.resolver.units
    proven: dict[tuple[str, str], list[int]] = {}
    targets = [unit.id]
    parent = units.get(unit.parent) if unit.parent else None
    if parent is not None and parent.kind in CLASS_KINDS and unit.kind == "constructor":
        targets.append(parent.id)
    for target in targets:
        for src, kind, line in index.graph.inc(target, PROVEN_KINDS):
            if src in units:
                proven.setdefault((src, kind), []).extend(proven_lines(index, units[src], target, kind) or [line])
    out = [_edge(index, units[src], unit, lines, True, kind, 1.0) for (src, kind), lines in proven.items()]
    seen = {(e.caller, ln) for e in out for ln in e.lines}
    if likely:
        grouped: dict[tuple[str, str], tuple[list[int], float]] = {}
        for e in likely_graph(index).into(unit.id, wide=True):
            if e.rule == "resolved" or (e.src, e.line) in seen or e.src not in units or e.src == unit.id:
                continue
            lines, conf = grouped.setdefault((e.src, e.rule), ([], 0.0))
            lines.append(e.line)
            grouped[(e.src, e.rule)] = (lines, max(conf, e.confidence))
        out += [_edge(index, units[src], unit, lines, False, rule, conf) for (src, rule), (lines, conf) in grouped.items()]
    return _ordered(index, out, "caller")


def callees(index: "RootIndex", unit: Unit, likely: bool = True) -> list[CallEdge]:
    """Proven callees, then likely ones; the overrides one call may dispatch to are one family edge."""
    units = index.resolver.units
    proven: dict[tuple[str, str], list[int]] = {}
    at_line: dict[int, list[Unit]] = {}
    for dst, kind, line in index.graph.out(unit.id, PROVEN_KINDS):
        callee = units.get(dst)
        if callee is not None:
            for ln in proven_lines(index, unit, dst, kind) or [line]:
                proven.setdefault((dst, kind), []).append(ln)
                at_line.setdefault(ln, []).append(callee)
    out = [_edge(index, unit, units[dst], lines, True, kind, 1.0) for (dst, kind), lines in proven.items()]
    if likely:
        proven_sites = {(d, ln) for (d, _), lines in proven.items() for ln in lines}
        grouped: dict[tuple[str, str], tuple[list[int], float]] = {}
        families: dict[tuple[int, str, str], list] = {}
        for e in likely_graph(index).out(unit.id, wide=True):
            callee = units.get(e.dst)
            if e.rule == "resolved" or callee is None or (e.dst, e.line) in proven_sites:
                continue
            if e.rule in FAMILY_RULES:
                families.setdefault((e.line, e.rule, callee.name), []).append((callee, e.confidence))
                continue
            at_line.setdefault(e.line, []).append(callee)  # a family's anchor may be a likely target
            lines, conf = grouped.setdefault((e.dst, e.rule), ([], 0.0))
            lines.append(e.line)
            grouped[(e.dst, e.rule)] = (lines, max(conf, e.confidence))
        out += [_edge(index, unit, units[dst], lines, False, rule, conf) for (dst, rule), (lines, conf) in grouped.items()]
        merged: dict[tuple[str, str, tuple[str, ...]], tuple[list[int], float]] = {}
        anchor_of: dict[tuple[str, str, tuple[str, ...]], Unit] = {}
        for (line, rule, name), members in families.items():
            members_ids = {m.id for m, _ in members}
            named = [c for c in at_line.get(line, []) if c.name == name and c.id not in members_ids]
            anchor = named[0] if named else members[0][0]
            key = (anchor.id, rule, tuple(m.id for m, _ in sorted(members, key=lambda mc: (mc[0].path, mc[0].start_byte))))
            lines, conf = merged.setdefault(key, ([], 0.0))
            lines.append(line)
            merged[key] = (lines, max(conf, max(c for _, c in members)))
            anchor_of[key] = anchor
        out += [_edge(index, unit, anchor_of[key], lines, False, key[1], conf, key[2]) for key, (lines, conf) in merged.items()]
    return _ordered(index, out, "callee")


def _ordered(index: "RootIndex", edges: list[CallEdge], end: str) -> list[CallEdge]:
    """Proven first, then likely by confidence; the code under test before tests; then by place."""
    units = index.resolver.units

    def key(e: CallEdge) -> tuple:
        u = units[getattr(e, end)]
        return (not e.proven, -e.confidence, is_test_unit(u), u.path, e.lines[0] if e.lines else 0, u.start_byte, e.rule, e.family)

    return sorted(edges, key=key)


def step(index: "RootIndex", unit: Unit, direction: str, likely: bool = True) -> list[CallEdge]:
    return callers(index, unit, likely) if direction == "callers" else callees(index, unit, likely)


# ---- several steps ---------------------------------------------------------------------------
class TreeEdge(NamedTuple):
    edge: CallEdge
    depth: int  # 1: an edge of the queried unit
    parent: int  # index of the edge it continues (-1 at depth 1)


def walk(index: "RootIndex", root: Unit, direction: str, depth: int, likely: bool, limit: int) -> tuple[list[TreeEdge], bool]:
    """The edges `depth` steps out, depth-first in display order, each unit expanded once (its
    later appearances are leaves); stops after `limit` edges (second value: cut short)."""
    units = index.resolver.units
    out: list[TreeEdge] = []
    expanded = {root.id}

    def visit(unit: Unit, level: int, parent: int) -> bool:
        for e in step(index, unit, direction, likely):
            if len(out) >= limit:
                return False
            out.append(TreeEdge(e, level, parent))
            here = len(out) - 1
            nxt = units.get(e.caller if direction == "callers" else e.callee)
            if level < depth and nxt is not None and nxt.id not in expanded and not e.family:
                expanded.add(nxt.id)
                if not visit(nxt, level + 1, here):
                    return False
        return True

    complete = visit(root, 1, -1)
    return out, not complete
