"""The index as the standard LSP views: workspace symbols, a document's symbols, and the call
hierarchy (docs/protocol.md, "Standard views").

Each function here runs on one index snapshot (in the service's read gate, via
`Workspace.view`) and turns the queries' answers (`query/`) into lsprotocol types: byte offsets
into UTF-16 positions, units into items. Proven and likely stay apart: a likely edge's item says
so in its `detail` (`likely: <rule>, <confidence>`), and the overrides one call may dispatch to
are one family item, whose outgoing calls are its members.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ..index.index import RootIndex
from ..model.facts import Unit
from ..query.calls import CallEdge, callees, callers, tag, unit_at
from ..query.symbols import outline, ranked

WORKSPACE_SYMBOL_LIMIT = 100  # an editor's picker shows a screenful; typing narrows

_KIND = {
    "class": types.SymbolKind.Class, "interface": types.SymbolKind.Interface, "trait": types.SymbolKind.Interface,
    "struct": types.SymbolKind.Struct, "enum": types.SymbolKind.Enum, "object": types.SymbolKind.Object,
    "record": types.SymbolKind.Struct, "impl": types.SymbolKind.Namespace, "function": types.SymbolKind.Function,
    "method": types.SymbolKind.Method, "constructor": types.SymbolKind.Constructor, "variable": types.SymbolKind.Variable,
}


def kind_of(u: Unit) -> types.SymbolKind:
    return _KIND.get(u.kind, types.SymbolKind.Null if u.kind == "statement" else types.SymbolKind.Variable)


# ---- positions -------------------------------------------------------------------------------
def position(source: bytes, byte: int, line: int | None = None) -> types.Position:
    """A byte offset as an LSP position (UTF-16 code units); `line` (0-based) when known saves
    counting the newlines before it."""
    byte = max(0, min(byte, len(source)))
    line_start = source.rfind(b"\n", 0, byte) + 1
    text = source[line_start:byte]
    column = len(text) if text.isascii() else len(text.decode("utf-8", "replace").encode("utf-16-le")) // 2
    return types.Position(line=source.count(b"\n", 0, byte) if line is None else line, character=column)


def byte_at(source: bytes, pos: types.Position) -> int:
    """An LSP position as a byte offset (past the end of a line: its end)."""
    start = 0
    for _ in range(pos.line):
        nl = source.find(b"\n", start)
        if nl < 0:
            return len(source)
        start = nl + 1
    end = source.find(b"\n", start)
    line = source[start : len(source) if end < 0 else end].decode("utf-8", "replace")
    units = line.encode("utf-16-le")[: 2 * pos.character].decode("utf-16-le", "replace")
    return start + len(units.encode("utf-8"))


def span(source: bytes, start: int, end: int) -> types.Range:
    return types.Range(start=position(source, start), end=position(source, end))


def _unit_span(source: bytes, u: Unit, start: int, end: int, first_line: int) -> types.Range:
    """A range inside a unit, its lines counted from the unit's first line (no scan from the top)."""
    a = position(source, start, first_line - 1 + source.count(b"\n", u.start_byte, start))
    b = position(source, end, a.line + source.count(b"\n", start, end))
    return types.Range(start=a, end=b)


def _name_span(source: bytes, u: Unit) -> tuple[int, int]:
    """Bytes of the unit's name on the line that names it (its whole start when not written there)."""
    at = u.start_byte
    for _ in range(u.name_line - u.start_line):
        nl = source.find(b"\n", at, u.end_byte)
        if nl < 0:
            break
        at = nl + 1
    name = u.name.encode("utf-8")
    found = source.find(name, at, u.end_byte)
    return (found, found + len(name)) if found >= 0 else (u.start_byte, u.start_byte)


def _ranges(index: RootIndex, u: Unit) -> tuple[types.Range, types.Range]:
    source = index.sources.get(u.path, b"")
    return _unit_span(source, u, u.start_byte, u.end_byte, u.start_line), _unit_span(source, u, *_name_span(source, u), u.start_line)


def _uri(index: RootIndex, path: str) -> str:
    return (index.root / path).as_uri()


# ---- symbols ---------------------------------------------------------------------------------
def workspace_symbols(index: RootIndex, query: str) -> list[tuple[tuple, types.SymbolInformation]]:
    """One root's best symbols with their rank keys: the server merges the roots by them."""
    out = []
    units = index.resolver.units
    for key, u in ranked(index, query, WORKSPACE_SYMBOL_LIMIT):
        whole, _ = _ranges(index, u)
        parent = units.get(u.parent) if u.parent else None
        out.append((key, types.SymbolInformation(name=u.name, kind=kind_of(u), location=types.Location(uri=_uri(index, u.path), range=whole),
                                                 container_name=parent.qualname if parent is not None else u.path)))
    return out


def document_symbols(index: RootIndex, path: str) -> list[types.DocumentSymbol]:
    def convert(node: tuple[Unit, list]) -> types.DocumentSymbol:
        u, children = node
        whole, name = _ranges(index, u)
        return types.DocumentSymbol(name=u.name, kind=kind_of(u), range=whole, selection_range=name,
                                    detail=u.kind, children=[convert(c) for c in children])

    return [convert(n) for n in outline(index, path)]


# ---- the call hierarchy ------------------------------------------------------------------------
def item(index: RootIndex, u: Unit, edge: CallEdge | None = None, family: tuple[str, ...] = ()) -> types.CallHierarchyItem:
    """A unit as an item; reached over a likely edge, its detail says so first."""
    whole, name = _ranges(index, u)
    data: dict[str, Any] = {"id": u.id}
    detail = u.path
    if edge is not None and not edge.proven:
        detail = f"{tag(edge)} · {u.path}"
        data["likely"] = {"rule": edge.rule, "confidence": edge.confidence}
    label = u.name
    if family:
        data["family"] = list(family)
        label = f"{u.name} (family: {len(family)} implementations)"
        detail = f"{tag(edge)} · {len(family)} implementations" if edge is not None else detail
    return types.CallHierarchyItem(name=label, kind=kind_of(u), uri=_uri(index, u.path), range=whole,
                                   selection_range=name, detail=detail, data=data)


def prepare(index: RootIndex, path: str, pos: types.Position) -> list[types.CallHierarchyItem]:
    """The unit at the cursor: the callee when it is on a call whose target is proven, else the
    innermost function, method or type around it."""
    source = index.sources.get(path, b"")
    byte = byte_at(source, pos)
    here = unit_at(index, path, pos.line + 1)
    if here is not None:
        for e in callees(index, here, likely=False):
            if any(a <= byte <= b for a, b in e.sites):
                return [item(index, index.resolver.units[e.callee])]
    return [item(index, here)] if here is not None else []


def _unit_of(index: RootIndex, data: Any) -> Unit | None:
    uid = data.get("id") if isinstance(data, dict) else None
    return index.resolver.units.get(uid) if isinstance(uid, str) else None


def incoming(index: RootIndex, data: Any) -> list[types.CallHierarchyIncomingCall] | None:
    unit = _unit_of(index, data)
    if unit is None:
        return None  # the item is from an older version whose unit is gone
    units = index.resolver.units
    out = []
    for e in callers(index, unit):
        caller = units[e.caller]
        source = index.sources.get(caller.path, b"")
        out.append(types.CallHierarchyIncomingCall(from_=item(index, caller, e), from_ranges=[span(source, a, b) for a, b in e.sites]))
    return out


def outgoing(index: RootIndex, data: Any) -> list[types.CallHierarchyOutgoingCall] | None:
    unit = _unit_of(index, data)
    if unit is None:
        return None
    units = index.resolver.units
    source = index.sources.get(unit.path, b"")
    family = data.get("family") if isinstance(data, dict) else None
    if family:  # a family item: the call may run any of its members
        likely = data.get("likely") or {}
        edge = CallEdge(unit.id, unit.id, (), (), False, str(likely.get("rule", "family-dispatch")), float(likely.get("confidence", 0.0)))
        _, here = _ranges(index, unit)
        return [types.CallHierarchyOutgoingCall(to=item(index, units[m], edge), from_ranges=[here]) for m in family if m in units]
    out = []
    for e in callees(index, unit):
        to = item(index, units[e.callee], e, e.family)
        out.append(types.CallHierarchyOutgoingCall(to=to, from_ranges=[span(source, a, b) for a, b in e.sites]))
    return out
