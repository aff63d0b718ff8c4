"""Units by name: fuzzy, camel-case aware, tests last; and a file's units as a tree.

The table is built once per index version (on `index.memo`), so a warm `workspace/symbol`
is one regex scan over every name and a sort of the few hundred that match.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model.facts import CLASS_KINDS, Unit
from ..workspace.scope import is_test_path

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex

# How close a name is to the query, best first.
EXACT, PREFIX, WORDS, SUBSTRING, SUBSEQUENCE = range(5)
_KIND_RANK = {"class": 0, "interface": 0, "trait": 0, "struct": 0, "enum": 0, "object": 0, "record": 0,
              "function": 1, "method": 1, "constructor": 1, "variable": 2}
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@dataclass
class SymbolTable:
    """Every named unit of one index version, with its names joined for one-scan matching."""

    version: int
    units: list[Unit]
    names: list[str]  # lower-cased unit names, aligned with units
    quals: list[str]  # lower-cased qualified names
    blob: str  # names joined by "\n"
    qual_blob: str
    starts: list[int]  # offset of each name in blob
    qual_starts: list[int]
    tests: list[bool]
    by_path: dict[str, list[Unit]] = field(default_factory=dict)


def _joined(items: list[str]) -> tuple[str, list[int]]:
    starts, pos = [], 0
    for s in items:
        starts.append(pos)
        pos += len(s) + 1
    return "\n".join(items), starts


def symbol_table(index: "RootIndex") -> SymbolTable:
    hit = index.memo.get("query")
    if hit is not None and hit.version == index.version:  # type: ignore[attr-defined]
        return hit  # type: ignore[return-value]
    units = sorted((u for f in index.files.values() for u in f.units if u.kind not in ("statement", "impl")),
                   key=lambda u: (u.path, u.start_byte))
    names = [u.name.lower().replace("\n", " ") for u in units]
    quals = [u.qualname.lower().replace("\n", " ") for u in units]
    blob, starts = _joined(names)
    qual_blob, qual_starts = _joined(quals)
    table = SymbolTable(index.version, units, names, quals, blob, qual_blob, starts, qual_starts,
                        [is_test_path(u.path) for u in units])
    index.memo["query"] = table  # type: ignore[typeddict-item]
    return table


def words(name: str) -> list[str]:
    """`parseHTTPRequest` → parse, http, request; `get_current_date` → get, current, date."""
    return [w.lower() for w in _WORD.findall(name)]


def _word_initials(query: str, parts: list[str]) -> bool:
    """True when the query is prefixes of consecutive-or-skipped words, in order:
    `gcd` and `getcurdate` match get_current_date, `RqH` matches RequestHandler."""
    if not query:
        return True
    if not parts:
        return False
    head = parts[0]
    for n in range(min(len(head), len(query)), 0, -1):
        if query[:n] == head[:n] and _word_initials(query[n:], parts[1:]):
            return True
    return _word_initials(query, parts[1:])


def tier(query: str, name: str, original: str) -> int:
    """How `name` (lower-cased; `original` as written) matches `query` (lower-cased)."""
    if name == query:
        return EXACT
    if name.startswith(query):
        return PREFIX
    if _word_initials(query, words(original)):
        return WORDS
    if query in name:
        return SUBSTRING
    return SUBSEQUENCE


def _pattern(query: str) -> re.Pattern[str]:
    # `[^\nc]*c` per character: the earliest match of each, no backtracking (linear per name)
    return re.compile("(?m)^" + "".join(f"[^\\n{re.escape(c)}]*{re.escape(c)}" for c in query))


def ranked(index: "RootIndex", query: str, limit: int) -> list[tuple[tuple, Unit]]:
    """Units whose name (or, when the query has a `.`, `::` or `/`, qualified name) holds the
    query's characters in order, with their rank keys (comparable across roots): tests after all
    the code under test; then exact, prefix, word initials, substring, the rest (the spelling as
    typed first); types before functions before variables; shorter first."""
    typed = query.strip()
    q = typed.lower()
    if not q:
        return []
    table = symbol_table(index)
    qualified = any(sep in q for sep in (".", "::", "/"))
    if qualified:
        q = q.replace("::", ".").replace("/", ".")
    blob, starts, keys = (table.qual_blob, table.qual_starts, table.quals) if qualified else (table.blob, table.starts, table.names)
    found = []
    for m in _pattern(q).finditer(blob):
        i = bisect_right(starts, m.start()) - 1
        u = table.units[i]
        shown = u.qualname.replace("::", ".") if qualified else u.name
        key = (table.tests[i], tier(q, keys[i], shown), shown != typed, _KIND_RANK.get(u.kind, 3), len(keys[i]), u.path, u.start_byte)
        found.append((key, i))
    return [(key, table.units[i]) for key, i in heapq.nsmallest(limit, found)]


def search(index: "RootIndex", query: str, limit: int) -> list[Unit]:
    """The best `limit` units for the query (`ranked`), best first."""
    return [u for _, u in ranked(index, query, limit)]


def closest(index: "RootIndex", name: str, limit: int = 5) -> list[str]:
    """The qualified names nearest to one that names nothing: fuzzy matches first, then
    spelling neighbours (difflib) when the fuzzy search finds none."""
    found = [u.qualname for u in search(index, name.rsplit("::", 1)[-1], limit * 3)]
    if not found:
        import difflib

        table = symbol_table(index)
        last = name.rsplit("::", 1)[-1].rsplit(".", 1)[-1].lower()
        close = set(difflib.get_close_matches(last, set(table.names), n=limit, cutoff=0.6))
        found = [u.qualname for u, n in zip(table.units, table.names) if n in close]
    out: list[str] = []
    for q in found:
        if q not in out:
            out.append(q)
    return out[:limit]


def symbol_entry(u: Unit) -> dict[str, Any]:
    """A unit as the queries' results show it."""
    return {"id": u.id, "name": u.name, "qualname": u.qualname, "kind": u.kind, "path": u.path,
            "line": u.name_line, "endLine": u.end_line, "test": is_test_path(u.path)}


def outline(index: "RootIndex", path: str) -> list[tuple[Unit, list]]:
    """A file's units as a tree, (unit, children) in source order; module statements left out
    (they are not symbols), impl blocks kept as the containers of their methods."""
    facts = index.files.get(path)
    if facts is None:
        return []
    nodes: dict[str, tuple[Unit, list]] = {}
    roots: list[tuple[Unit, list]] = []
    for u in sorted(facts.units, key=lambda u: u.start_byte):
        if u.kind == "statement":
            continue
        node = (u, [])
        nodes[u.id] = node
        parent = nodes.get(u.parent) if u.parent else None
        (parent[1] if parent is not None else roots).append(node)
    return roots


def is_type(u: Unit) -> bool:
    return u.kind in CLASS_KINDS
