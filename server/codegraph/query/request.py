"""The three query requests: their params (declared in model/protocol.json), their results as
data, and the text a person or a model reads, within explore's character budget rules (the
same bounds, the same default tiers by repository size).

`run_symbols`, `run_calls` and `run_impact` are what `service.py` calls for every transport.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..model import protocol
from ..model.facts import Unit
from ..model.fields import InvalidParams, get_bool, get_enum, get_int, get_str, require_object
from .calls import CallEdge, TreeEdge, resolve_symbol, tag, walk
from .impact import Reached, changed_units, impact
from .symbols import is_test_unit, search, symbol_entry

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex

Checkpoint = Callable[[], None]
MAX_EDGES = 2000  # edges one calls request walks at most (the text budget usually binds first)


def _budget(request: str, p: dict, index: "RootIndex") -> int:
    return get_int(p, "maxOutputChars", *protocol.bounds(request, "maxOutputChars"), None) or protocol.explore_budget(len(index.files))


def _ref(u: Unit) -> dict[str, Any]:
    return {"id": u.id, "qualname": u.qualname, "kind": u.kind, "path": u.path, "line": u.name_line}


def _label(u: Unit) -> str:
    return f"{u.qualname} · {u.kind} · {u.path}:{u.name_line}"


BUDGET_FIELD = "maxOutputChars"  # the field the budget hint names; a transport with its own name rewrites it (`name_budget`)


def _raise(option: str) -> str:
    return f" (raise {option} to see them)"


def _budget_hint(count: int, what: str) -> str:
    return f"… {count} more {what} left out" + _raise(BUDGET_FIELD)


class _Text:
    """Lines up to a character budget; what does not fit is counted, not cut mid-line. Once one
    line does not fit, none after it is added; only items (edges, units, symbols) are counted,
    not the headings between them."""

    def __init__(self, budget: int, reserve: int = 120) -> None:
        self.lines: list[str] = []
        self.room = budget - reserve
        self.used = 0
        self.full = False
        self.left_out = 0

    def add(self, line: str, item: bool = True) -> bool:
        if self.full or self.used + len(line) + 1 > self.room:
            self.full = True
            self.left_out += item
            return False
        self.lines.append(line)
        self.used += len(line) + 1
        return True

    def skip(self) -> None:
        """An item left out with the one it is shown under (a child of an edge that did not fit)."""
        self.left_out += 1

    def text(self, more: str) -> str:
        if self.left_out:
            self.lines.append(_budget_hint(self.left_out, more))
        return "\n".join(self.lines)


def name_budget(result: dict, option: str) -> dict:
    """The result with its budget hint naming `option` (the CLI's `--max-chars`) instead of the
    protocol field: the rest of the answer is the same for every transport."""
    head, sep, last = result["text"].rpartition("\n")
    suffix = _raise(BUDGET_FIELD)
    if last.startswith("… ") and last.endswith(" left out" + suffix):
        result["text"] = head + sep + last[: -len(suffix)] + _raise(option)
        result["stats"]["chars"] = len(result["text"])
    return result


def _stats(text: str, budget: int, **counts: int) -> dict[str, int]:
    return {"chars": len(text), "budget": budget, **counts}


# ---- symbols ------------------------------------------------------------------------------
def run_symbols(index: "RootIndex", params: Any, checkpoint: Checkpoint) -> dict:
    p = require_object(params)
    query = get_str(p, "query", required=True, max_len=protocol.param("symbols", "query")["maxLength"]).strip()  # type: ignore[union-attr]
    limit = get_int(p, "limit", *protocol.bounds("symbols", "limit"), protocol.param("symbols", "limit")["default"])
    budget = _budget("symbols", p, index)
    hits = search(index, query, limit)  # type: ignore[arg-type]
    checkpoint()
    out = _Text(budget)
    out.add(f"# Symbols matching `{query}`" if hits else f"No function, method or type matches `{query}`.", item=False)
    shown = []
    for u in hits:
        if not out.add(f"- {_label(u)}" + (" · test" if is_test_unit(u) else "")):
            continue
        shown.append(symbol_entry(u))
    text = out.text("symbols")
    return {"text": text, "symbols": shown, "stats": _stats(text, budget, matches=len(hits), shown=len(shown))}


# ---- calls --------------------------------------------------------------------------------
def _edge_data(e: TreeEdge, units: dict[str, Unit], root: Unit) -> dict[str, Any]:
    edge = e.edge
    caller = units[edge.caller]
    return {
        "root": root.id, "depth": e.depth, "parent": e.parent,
        "caller": _ref(caller), "callee": _ref(units[edge.callee]),
        "proven": edge.proven, "rule": edge.rule, "confidence": edge.confidence,
        "sites": [{"path": caller.path, "line": ln} for ln in edge.lines],
        "family": [_ref(units[m]) for m in edge.family],
    }


def _edge_line(edge: CallEdge, other: Unit, units: dict[str, Unit], depth: int) -> str:
    caller = units[edge.caller]
    at = ", ".join(f"{caller.path}:{ln}" for ln in edge.lines)
    if edge.family:
        members = ", ".join(f"{units[m].qualname} {units[m].path}:{units[m].name_line}" for m in edge.family)
        what = f"family of {other.qualname} ({len(edge.family)} implementations: {members})"
    else:
        what = _label(other)
    return f"{'  ' * (depth - 1)}- {what} — {tag(edge)} · at {at}"


def run_calls(index: "RootIndex", params: Any, checkpoint: Checkpoint) -> dict:
    p = require_object(params)
    symbol = get_str(p, "symbol", required=True, max_len=protocol.param("calls", "symbol")["maxLength"])
    direction = get_enum(p, "direction", tuple(protocol.param("calls", "direction")["enum"]), protocol.param("calls", "direction")["default"])
    depth = get_int(p, "depth", *protocol.bounds("calls", "depth"), protocol.param("calls", "depth")["default"])
    likely = get_bool(p, "likely", True)
    budget = _budget("calls", p, index)
    roots = resolve_symbol(index, symbol)  # type: ignore[arg-type]
    units = index.resolver.units
    out = _Text(budget)
    edges: list[dict] = []
    total = 0
    for root in roots:
        checkpoint()
        tree, cut = walk(index, root, direction, depth, likely, MAX_EDGES)  # type: ignore[arg-type]
        total += len(tree)
        title = "Callers" if direction == "callers" else "Callees"
        out.add(f"# {title} of {_label(root)}", item=False)
        if not tree:
            out.add(f"(no {direction} found{'' if likely else ' among proven edges'})", item=False)
        shown: dict[int, int] = {}  # tree position → position in `edges` (a child is shown only under its parent)
        for i, e in enumerate(tree):
            if e.parent >= 0 and e.parent not in shown:  # shown only under its parent: left out with it
                out.skip()
                continue
            other = units[e.edge.caller if direction == "callers" else e.edge.callee]
            if out.add(_edge_line(e.edge, other, units, e.depth)):
                data = _edge_data(e, units, root)
                data["parent"] = shown.get(e.parent, -1)
                shown[i] = len(edges)
                edges.append(data)
        if cut:
            out.add(f"(stopped after {MAX_EDGES} edges)", item=False)
    text = out.text("edges")
    return {"text": text, "symbols": [symbol_entry(u) for u in roots], "direction": direction, "depth": depth,
            "edges": edges, "stats": _stats(text, budget, edges=total, shown=len(edges))}


# ---- impact -------------------------------------------------------------------------------
def _changes(p: dict) -> list[str]:
    spec = protocol.param("impact", "changes")
    value = p.get("changes")
    if value is None:
        raise InvalidParams("changes", "is required")
    if not isinstance(value, list) or not spec["minItems"] <= len(value) <= spec["maxItems"]:
        raise InvalidParams("changes", f"must be a list of {spec['minItems']} to {spec['maxItems']} strings PATH or PATH:LINE or PATH:START-END")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item.strip() or len(item) > spec["items"]["maxLength"]:
            raise InvalidParams(f"changes[{i}]", f"must be a non-blank string PATH, PATH:LINE or PATH:START-END of at most {spec['items']['maxLength']} characters")
    return value


def _reached_data(r: Reached, units: dict[str, Unit]) -> dict[str, Any]:
    return {**_ref(r.unit), "distance": r.distance, "proven": r.proven, "confidence": r.confidence,
            "via": units[r.via].qualname if r.via in units else r.via, "site": {"path": r.unit.path, "line": r.line}}


def _reached_line(r: Reached, units: dict[str, Unit]) -> str:
    via = units[r.via].qualname if r.via in units else r.via
    how = "proven" if r.proven else f"likely, {r.confidence:.2f}"
    steps = "1 step" if r.distance == 1 else f"{r.distance} steps"
    return f"- {_label(r.unit)} — {steps}, {how} · calls {via} at {r.unit.path}:{r.line}"


def run_impact(index: "RootIndex", params: Any, checkpoint: Checkpoint) -> dict:
    p = require_object(params)
    changes = _changes(p)
    depth = get_int(p, "depth", *protocol.bounds("impact", "depth"), protocol.param("impact", "depth")["default"])
    likely = get_bool(p, "likely", True)
    budget = _budget("impact", p, index)
    changed = changed_units(index, changes)
    checkpoint()
    reached = impact(index, changed, depth, likely)  # type: ignore[arg-type]
    units = index.resolver.units
    tests = [r for r in reached if is_test_unit(r.unit)]
    code = [r for r in reached if not is_test_unit(r.unit)]
    out = _Text(budget)
    out.add(f"# Impact of {', '.join(c.strip() for c in changes)}", item=False)
    out.add("", item=False)
    out.add("## Changed", item=False)
    for u in changed:
        out.add(f"- {_label(u)}")
    if not changed:
        out.add("(no function, method or type at those places)", item=False)
    shown: dict[str, list[dict]] = {"impacted": [], "tests": []}
    sections = (
        ("impacted", "Callers, proven", [r for r in code if r.proven]),
        ("impacted", "Callers, likely (not proven)", [r for r in code if not r.proven]),
        ("tests", "Tests that reach the change, proven", [r for r in tests if r.proven]),
        ("tests", "Tests that reach the change, likely (not proven)", [r for r in tests if not r.proven]),
    )
    for key, title, rows in sections:
        out.add("", item=False)
        out.add(f"## {title}", item=False)
        if not rows:
            out.add("(none found)", item=False)
        for r in rows:
            if out.add(_reached_line(r, units)):
                shown[key].append(_reached_data(r, units))
    text = out.text("units")
    return {"text": text, "changed": [_ref(u) for u in changed], "impacted": shown["impacted"], "tests": shown["tests"],
            "stats": _stats(text, budget, impacted=len(code), tests=len(tests), shown=len(shown["impacted"]) + len(shown["tests"]))}
