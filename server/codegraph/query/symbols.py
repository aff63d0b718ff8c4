"""Units by name: fuzzy, camel-case aware, tests last; and a file's units as a tree.

The table is built once per index version (on `index.memo`), so a warm `workspace/symbol`
is one regex scan over every name and a sort of the few hundred that match.
"""

from __future__ import annotations

import heapq
import re
from functools import lru_cache
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model.facts import Unit, rust_test_attribute
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
    spelled: list[str]  # each distinct lower-cased name once
    holders: list[list[int]]  # the units of each distinct name (indexes into units)
    blob: str  # the distinct names joined by "\n"
    starts: list[int]  # offset of each distinct name in blob
    tests: list[bool]


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
    holders: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        holders.setdefault(name, []).append(i)
    spelled = sorted(holders)
    blob, starts = _joined(spelled)
    table = SymbolTable(index.version, units, names, quals, spelled, [holders[n] for n in spelled], blob, starts,
                        [is_test_unit(u) for u in units])
    index.memo["query"] = table  # type: ignore[typeddict-item]
    return table


_TEST_MARK = re.compile(r"(?<![\w.])(?:\w+::)?(?:test|\w*Test)\b")  # `@Test`, `@ParameterizedTest` (Rust's attributes: `rust_test_attribute`)


def is_test_unit(u: Unit) -> bool:
    """A test: a unit of a test file (tests' helpers and fixtures count: they run under a test),
    or one marked as a test where tests live beside the code (`#[test]` in a Rust module, `@Test`)."""
    return is_test_path(u.path) or any(
        rust_test_attribute(d) if d.startswith("#[") else _TEST_MARK.search(d.lstrip("@")) is not None for d in u.decorators)


@lru_cache(maxsize=65536)
def words(name: str) -> list[str]:
    """`parseHTTPRequest` → parse, http, request; `get_current_date` → get, current, date."""
    return [w.lower() for w in _WORD.findall(name)]


MAX_INITIALS = 16  # longer queries are not read as word initials (the pattern below backtracks per character)


@lru_cache(maxsize=256)
def _initials_pattern(query: str) -> re.Pattern[str] | None:
    """Words joined by spaces match when the query is prefixes of words, in order (words may be
    skipped): each character continues the word, or starts a later one."""
    if len(query) > MAX_INITIALS or not query.isalnum():
        return None
    first, rest = re.escape(query[0]), query[1:]
    return re.compile(f"(?:^|.*? ){first}" + "".join(f"(?:{re.escape(c)}|.*? {re.escape(c)})" for c in rest))


def _word_initials(query: str, parts: list[str]) -> bool:
    """`gcd` and `getcurdate` match get_current_date, `rqh` matches RequestHandler."""
    pattern = _initials_pattern(query)
    return pattern is not None and pattern.match(" ".join(parts)) is not None


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
    # The first character as a literal (the engine scans for it fast), then `[^\nc]*c` per
    # character: the earliest match of each, never past the name's end, no backtracking. The
    # earliest first character finds a match when any does.
    return re.compile(re.escape(query[0]) + "".join(f"[^\\n{re.escape(c)}]*{re.escape(c)}" for c in query[1:]))


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
    keys = table.quals if qualified else table.names
    found = []
    last = -1
    whole = _pattern(q)
    # a qualified query: names matching its last segment, then their qualified names the whole (one scan of the shorter blob)
    tail = q.rsplit(".", 1)[-1] if qualified else q
    tiers: dict[str, int] = {}  # by spelling as written: a name many units share is ranked once
    for m in _pattern(tail or q).finditer(table.blob):
        n = bisect_right(table.starts, m.start()) - 1
        if n == last:  # a second match in the same name
            continue
        last = n
        for i in table.holders[n]:
            if qualified and not whole.search(keys[i]):
                continue
            u = table.units[i]
            shown = u.qualname.replace("::", ".") if qualified else u.name
            t = tiers.get(shown)
            if t is None:
                t = tiers[shown] = tier(q, keys[i], shown)
            key = (table.tests[i], t, shown != typed, _KIND_RANK.get(u.kind, 3), len(keys[i]), u.path, u.start_byte)
            found.append((key, i))
    return [(key, table.units[i]) for key, i in heapq.nsmallest(limit, found)]


def search(index: "RootIndex", query: str, limit: int) -> list[Unit]:
    """The best `limit` units for the query (`ranked`), best first."""
    return [u for _, u in ranked(index, query, limit)]


def closest(index: "RootIndex", name: str, limit: int = 5) -> list[str]:
    """The qualified names nearest to one that names nothing: for `Owner.member` whose owner
    exists, the owner's members (its own, then its supertypes') nearest to `member`; otherwise
    fuzzy matches first, then spelling neighbours (difflib) when the fuzzy search finds none."""
    members = _members_near(index, name, limit)
    if members:
        return members
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


MAX_SUPERTYPES = 16  # supertypes whose members `Owner.member` suggests, nearest first


def _members_near(index: "RootIndex", name: str, limit: int) -> list[str]:
    """`Owner.member` (or `path::Owner.member`, `Type::member`) where the owner exists and the
    member does not: the owner's members and its supertypes', the most alike `member` first."""
    import difflib

    path, sep, qual = name.partition("::")
    if not (sep and (path in index.files or "/" in path)):
        path, qual = "", name
    owner, dot, member = qual.replace("::", ".").rpartition(".")
    if not dot or not owner.strip(".") or not member:
        return []
    table = symbol_table(index)
    owners = [u for u in table.units if (not path or u.path == path)
              and (u.qualname == owner or owner.endswith("." + u.qualname) or u.qualname.endswith("." + owner))]
    if not owners:
        return []
    # the owners, then their supertypes breadth first (the extends/implements edges), each once
    order = [u.qualname for u in owners]
    queue = [u.id for u in owners]
    units = index.resolver.units
    while queue and len(order) < MAX_SUPERTYPES:
        for dst, _, _ in index.graph.out(queue.pop(0), ("extends", "implements")):
            base = units.get(dst)
            if base is not None and base.qualname not in order:
                order.append(base.qualname)
                queue.append(base.id)
    rank = {q: i for i, q in enumerate(order)}
    want = member.lower()
    scored = []
    for u, n in zip(table.units, table.names):
        holder = rank.get(u.qualname.rpartition(".")[0])
        if holder is not None and not is_test_unit(u):
            scored.append((-difflib.SequenceMatcher(None, want, n).ratio(), holder, u.qualname))
    out: list[str] = []
    for _, _, q in sorted(scored):
        if q not in out:
            out.append(q)
    return out[:limit]


def symbol_entry(u: Unit) -> dict[str, Any]:
    """A unit as the queries' results show it."""
    return {"id": u.id, "name": u.name, "qualname": u.qualname, "kind": u.kind, "path": u.path,
            "line": u.name_line, "endLine": u.end_line, "test": is_test_unit(u)}


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
