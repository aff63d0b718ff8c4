"""The impact of a change: the units that call into what changed, transitively, ranked, and the
tests that reach the change through the graph (a test is found because it calls its way to
the changed code, not because its file is named like the changed one).

Proven and likely stay apart: a unit reached through proven edges only is `proven`; one reached
through at least one likely edge carries the product of the likely confidences on its best path
and is listed after every proven one.
"""

from __future__ import annotations

import heapq
import re
from typing import TYPE_CHECKING, NamedTuple

from ..model.facts import Unit
from ..model.fields import InvalidParams
from .calls import callers, file_before_colon, indexed_path, unit_at

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex

LIKELY_FLOOR = 0.3  # a path less likely than this is not followed (the guesses multiply)
MAX_REACHED = 400  # units one impact query visits at most


class Reached(NamedTuple):
    unit: Unit
    distance: int  # call steps from the change
    proven: bool  # reached by proven edges only
    confidence: float  # product of the likely confidences on the path (1.0 when proven)
    via: str  # the unit it calls on that path (a changed unit at distance 1)
    line: int  # the call site's line in its file


def changed_units(index: "RootIndex", changes: list[str], field: str = "changes") -> list[Unit]:
    """`path` (every unit of the file), `path:line` or `path:start-end` (the innermost units
    holding those lines)."""
    out: list[Unit] = []
    for i, change in enumerate(changes):
        where = f"{field}[{i}]"
        path, lines = _parse_change(index, change.strip(), where)
        if path not in index.files:
            near = sorted(p for p in index.files if p.rsplit("/", 1)[-1] == path.rsplit("/", 1)[-1])[:5]
            hint = f"; files so named: {', '.join(near)}" if near else ""
            raise InvalidParams(where, f"is not a file in the index ({path!r}){hint}"[:600])
        facts = index.files[path]
        if lines is None:
            found = [u for u in facts.units if u.kind != "statement" and u.kind != "impl"]
        else:
            lo, hi = lines
            if lo > hi:
                raise InvalidParams(where, f"has a reversed range {lo}-{hi}: START-END needs START <= END (e.g. {path}:{hi}-{lo})")
            for ln in (lo, hi):  # the whole range inside the file, as a single line must be
                if ln < 1 or ln > facts.lines:
                    raise InvalidParams(where, f"line {ln} is outside {path} (1 to {facts.lines})")
            found = [u for ln in range(lo, hi + 1) if (u := unit_at(index, path, ln)) is not None]
        for u in found:
            if u not in out:
                out.append(u)
    return out


def _parse_change(index: "RootIndex", text: str, where: str) -> tuple[str, tuple[int, int] | None]:
    """(path as the index spells it, (start, end) or None for the whole file). `PATH:LINE` and
    `PATH:START-END` when PATH is an indexed file; else the whole text as a path when it is one
    (a file name may hold a colon); else, when the part before a colon is an indexed file, the
    part after it is a malformed line (`:abc`, `:-5`, `:1:2`, `:5-`) and the error says so.
    Anything else is a path the caller reports as not in the index (or outside the root)."""
    head, sep, tail = text.rpartition(":")
    span = _SPAN.fullmatch(tail) if sep else None
    lines = (int(span[1]), int(span[2] or span[1])) if span else None
    if lines and (path := _indexed(index, head)) in index.files:
        return path, lines
    if (path := _indexed(index, text)) in index.files:
        return path, None
    at = file_before_colon(index, text)
    if at is not None:
        path, rest = at
        raise InvalidParams(where, f"names {path}, but {rest!r} after it is not a line or a range: write "
                                   f"PATH, PATH:LINE or PATH:START-END, lines from 1 (e.g. {path}:12 or {path}:12-20)"[:600])
    return indexed_path(index, head if lines else text, where), lines


_SPAN = re.compile(r"([0-9]+)(?:-([0-9]+))?")  # LINE or START-END, ASCII digits only (`²` is no line)


def _indexed(index: "RootIndex", path: str) -> str | None:
    """`path` as the index spells it, or None when it leaves the root."""
    try:
        return indexed_path(index, path, "")
    except InvalidParams:
        return None


def impact(index: "RootIndex", changed: list[Unit], depth: int, likely: bool) -> list[Reached]:
    """Every unit within `depth` call steps above the changed ones; best path first (proven
    beats likely, then fewer steps, then higher confidence)."""
    best: dict[str, Reached] = {}
    start = {u.id for u in changed}
    # (likely?, distance, -confidence, order) → expand in best-path order: a unit's first visit is its best
    queue: list[tuple[bool, int, float, int, Unit, Reached | None]] = []
    order = 0
    for u in changed:
        heapq.heappush(queue, (False, 0, -1.0, order, u, None))
        order += 1
    done: set[str] = set()
    while queue and len(done) < MAX_REACHED:
        not_proven, dist, neg_conf, _, unit, reached = heapq.heappop(queue)
        if unit.id in done:
            continue
        done.add(unit.id)
        if reached is not None:
            best[unit.id] = reached
        if dist >= depth:
            continue
        for e in callers(index, unit, likely):
            caller = index.resolver.units.get(e.caller)
            if caller is None or caller.id in done or caller.id in start:
                continue
            conf = -neg_conf * e.confidence
            if not e.proven and conf < LIKELY_FLOOR:
                continue
            proven = not not_proven and e.proven
            r = Reached(caller, dist + 1, proven, round(conf, 3), unit.id, e.lines[0] if e.lines else 0)
            heapq.heappush(queue, (not proven, dist + 1, -conf, order, caller, r))
            order += 1
    return sorted(best.values(), key=lambda r: (not r.proven, r.distance, -r.confidence, r.unit.path, r.unit.start_byte))
