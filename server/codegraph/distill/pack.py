"""The CAG layer: shared reference tables and the full-frame gate.

Items are added in delivery priority, each with its reference closure, and kept only if
the whole response message (measured by the transport's own serializer) still fits.
Indexes are renumbered over what was delivered, so no reference can dangle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..model.fields import RequestFailed
from .facts import FactRow, SourceRow
from .obligations import ObligationResult
from .render_markdown import body_left_out_note
from .request import LEVELS
from .roles import STAGE_OF

Measure = Callable[[dict], int]
Render = Callable[[dict], dict]  # pack → the result object that is measured and sent


@dataclass
class Parts:
    head: dict  # identity, versions, scenario, budget: everything except status
    rows: list[SourceRow]
    meta: list[dict]  # per row: path, sha256, symbol, kind, lines, bytes, roles, tier, lane
    bodies: list[str | None]  # None when the source failed its check
    facts: list[FactRow]
    obligations: list[ObligationResult]
    components: list[dict]  # {"id", "name", "uids", "depends_on"}
    gaps: list[dict]
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # proven (src, dst, kind) among the rows
    # a question pack's seeds (None for an overview): (symbol, the chosen unit whose body holds its code, ''
    # when it was not chosen). The pack is `complete` only with each one's code.
    asked: list[tuple[str, str]] | None = None


@dataclass
class Included:
    src: set[int] = field(default_factory=set)
    body: set[int] = field(default_factory=set)
    fact: set[int] = field(default_factory=set)
    obl: set[int] = field(default_factory=set)
    gap: set[int] = field(default_factory=set)
    comp: bool = False

    def copy(self) -> "Included":
        return Included(set(self.src), set(self.body), set(self.fact), set(self.obl), set(self.gap), self.comp)


class Tables:
    def __init__(self, parts: Parts) -> None:
        self.p = parts
        self.row_of = {}
        for i, r in enumerate(parts.rows):
            self.row_of.setdefault(r.uid, i)
        # rows holding the code of a unit the question points to: their body also shortens the pack's
        # account of what is left out, so the least it adds is not its size less the left-out note
        self.asked_holders = {i for i in self.asked_rows() if i is not None}

    def closure(self, uids) -> set[int]:
        """Rows a reference needs: the row itself and, for an alias, the row it aliases."""
        out: set[int] = set()
        for uid in uids:
            i = self.row_of.get(uid)
            if i is None:
                continue
            out.add(i)
            if self.p.rows[i].alias_of:
                out |= self.closure([self.p.rows[i].alias_of])
        return out

    def asked_rows(self) -> list[int | None]:
        """Per unit the question points to: the row whose body holds its code (None: not chosen)."""
        return [self.row_of.get(holder) if holder else None for _, holder in self.p.asked or ()]

    def coverage(self, inc: Included) -> dict:
        """How much of what the question points to this pack holds: how many units, how many with their
        code here, and the symbols of the others — chosen but their code left out to fit, not chosen, or
        unread (the source failed its check)."""
        out: dict = {"count": 0, "with_code": 0}
        for (sym, _), i in zip(self.p.asked or (), self.asked_rows()):
            out["count"] += 1
            if i is None:
                out.setdefault("not_chosen", []).append(sym)
            elif self.p.bodies[i] is None:  # its source failed the check
                out.setdefault("unread", []).append(sym)
            elif i in inc.body:
                out["with_code"] += 1
            else:
                out.setdefault("left_out", []).append(sym)
        return out

    def assemble(self, inc: Included, status: str) -> dict:
        p = self.p
        order = sorted(inc.src)
        remap = {g: i for i, g in enumerate(order)}
        files: list[dict] = []
        file_ix: dict[str, int] = {}
        sources = []
        for g in order:
            m = p.meta[g]
            if m["path"] not in file_ix:
                file_ix[m["path"]] = len(files)
                files.append({"path": m["path"], "sha256": m["sha256"]})
            s = {k: v for k, v in m.items() if k not in ("path", "sha256")}
            s["file"] = file_ix[m["path"]]
            if p.rows[g].alias_of:
                s["alias_of"] = remap[self.row_of[p.rows[g].alias_of]]
            if g in inc.body and p.bodies[g] is not None:
                s["body"] = p.bodies[g]
            elif not p.rows[g].alias_of:  # said, not silently missing: the reader knows what to read back
                s["body_left_out"] = m["bytes"]
            sources.append(s)

        def refs(uids) -> list[int]:
            return sorted({remap[i] for i in self.closure(uids) if i in remap})

        pack = dict(p.head)
        pack.update(
            status=status,
            levels=list(LEVELS),
            files=files,
            sources=sources,
            facts=[{"kind": f.kind, "text": f.text, "sources": refs(f.sources), "level": f.level}
                   for i, f in enumerate(p.facts) if i in inc.fact],
            obligations=[{"id": o.id, "required": o.required, "evidence": o.evidence, "status": o.status,
                          "reason": o.reason, "sources": refs(o.witness)} for i, o in enumerate(p.obligations) if i in inc.obl],
            gaps=[{**g, "sources": refs(g.get("uids", ()))} if "uids" in g else {**g, "sources": []}
                  for i, g in enumerate(p.gaps) if i in inc.gap],
            components=[],
        )
        for g in pack["gaps"]:
            g.pop("uids", None)
        pack["flow"] = flow_graph(pack["sources"], [(remap[self.row_of[a]], remap[self.row_of[b]], k) for a, b, k in p.edges
                                                    if self.row_of.get(a) in remap and self.row_of.get(b) in remap])
        if p.asked is not None:
            pack["question_units"] = self.coverage(inc)
        if inc.comp:
            comps = [c for c in p.components if refs(c["uids"])]
            present = {c["id"] for c in comps}
            pack["components"] = [{"id": c["id"], "name": c["name"], "sources": refs(c["uids"]),
                                   "depends_on": [d for d in c["depends_on"] if d in present]} for c in comps]
        return pack


STAGES = ("entry", "assembly", "core", "sink", "boundary", "context")


def flow_graph(sources: list[dict], edges: list[tuple[int, int, str]]) -> dict:
    """The lifecycle picture as data: each source's stage (from its main role) and the proven
    calls/constructs among the delivered sources. The markdown flowchart is drawn from this."""
    stages = {st: [] for st in STAGES}
    for i, s in enumerate(sources):
        if "alias_of" in s:
            continue
        stages[STAGE_OF.get(s["roles"][0], "context") if s.get("roles") else "context"].append(i)
    return {"stages": {k: v for k, v in stages.items() if v},
            "edges": sorted({(a, b, k) for a, b, k in edges if a != b and "alias_of" not in sources[a]
                             and "alias_of" not in sources[b]})}


def _items(t: Tables) -> list[tuple[str, int]]:
    """Delivery priority after the required minimum: every chosen source, then their bodies (a
    reader reads the code: bodies come before the notes about it), then what the rest can hold.
    A question pack puts the code it is asked about first (`_question_items`)."""
    p = t.p
    if p.asked is not None:
        items = _question_items(t)
    else:
        items = [("src", i) for i, r in enumerate(p.rows) if not r.alias_of]
        items += [("body", i) for i, r in enumerate(p.rows) if not r.alias_of and p.bodies[i] is not None]
    items += [("src", i) for i, r in enumerate(p.rows) if r.alias_of]
    items += [("fact", i) for i, f in enumerate(p.facts) if f.core]
    items += [("gap", i) for i in range(len(p.gaps))]
    items += [("obl", i) for i, o in enumerate(p.obligations) if not o.required]
    items += [("comp", 0)]
    items += [("fact", i) for i, f in enumerate(p.facts) if not f.core]
    return items


def _question_items(t: Tables) -> list[tuple[str, int]]:
    """A question pack's sources: the bodies of the units the question points to (seed order), their
    rows if a body did not fit, then the other chosen units' bodies in selection order, then the rows
    of those that could not carry one. A question pack is small (12 KB): 32 rows alone (a markdown row
    is ~450 bytes: chart node, stage line, heading, left-out note) filled it before any code."""
    p = t.p
    asked = list(dict.fromkeys(i for i in t.asked_rows() if i is not None))
    first = set(asked)
    rest = [i for i, r in enumerate(p.rows) if not r.alias_of and i not in first]
    items = [("body", i) for i in asked if p.bodies[i] is not None]
    items += [("src", i) for i in asked]
    items += [("body", i) for i in rest if p.bodies[i] is not None]
    items += [("src", i) for i in rest]
    return items


def _with(t: Tables, inc: Included, item: tuple[str, int]) -> Included:
    kind, i = item
    new = inc.copy()
    if kind == "src":
        new.src |= t.closure([t.p.rows[i].uid])
    elif kind == "body":
        new.src |= t.closure([t.p.rows[i].uid])
        new.body.add(i)
    elif kind == "fact":
        new.src |= t.closure(t.p.facts[i].sources)
        new.fact.add(i)
    elif kind == "obl":
        new.src |= t.closure(t.p.obligations[i].witness)
        new.obl.add(i)
    elif kind == "gap":
        new.gap.add(i)
    else:
        new.comp = True
    return new


# A body larger than this share of the room left waits until the smaller chosen bodies of its lane after
# it are in (a metaclass of 9 KB took 40 % of a frame and left the main path's other 15 units without code).
LARGE_BODY_SHARE = 1 / 3


def _lane(t: Tables, i: int) -> str:
    return t.p.meta[i].get("lane", "")


def _fill(t: Tables, status: str, cap: int, render: Render, measure: Measure, tick: Callable[[], None],
          core_facts_or_stop: bool = False) -> tuple[dict, Included | None]:
    """The pack holding the required minimum and every item that still fits, in delivery priority.
    `core_facts_or_stop`: a fill whose pack is kept only with every core fact stops (None) at the
    first core fact left out — the caller fills again with another status (each fact has one item)."""
    inc = Included()
    for i, o in enumerate(t.p.obligations):  # every required obligation and its witness sources
        if o.required:
            inc = _with(t, inc, ("obl", i))
    pack = t.assemble(inc, status)
    size = measure(render(pack))
    if size > cap:
        needed = max(_needed(t.assemble(inc, st), size, render, measure) for st in {status, "partial"})
        raise RequestFailed(f"knowledge pack not delivered: needs {needed} bytes, cap {cap}")
    pending, deferred, retried = _items(t), [], set()
    pos = 0
    while pos < len(pending):
        item = pending[pos]
        pos += 1
        if deferred and (item[0] != "body" or _lane(t, item[1]) != _lane(t, deferred[0][1])):
            # the lane's other bodies had their turn: its large ones now, before the next lane and the notes
            pending[pos - 1 : pos - 1] = deferred
            retried.update(deferred)
            deferred, pos = [], pos - 1
            continue
        if (item[0] == "body" and item not in retried and item[1] not in t.asked_holders
                and len((t.p.bodies[item[1]] or "").encode()) > LARGE_BODY_SHARE * (cap - size)):
            deferred.append(item)  # one body would take the room of several smaller chosen ones
            continue
        tick()
        trial = _with(t, inc, item)
        if trial == inc:  # nothing new (already in another item's closure): the same pack, which fits
            continue
        if trial.src == inc.src and ((item[0] == "body" and item[1] not in t.asked_holders
                                      and size + _body_growth(t, item[1]) > cap)
                                     or (item[0] == "fact" and size + _fact_growth(t, item[1]) > cap)):
            fits = False  # the body or fact alone would overflow: no need to assemble and measure the trial
        else:
            trial_pack = t.assemble(trial, status)
            trial_size = measure(render(trial_pack))
            fits = trial_size <= cap
            if fits:
                inc, pack, size = trial, trial_pack, trial_size
        if not fits and core_facts_or_stop and item[0] == "fact" and t.p.facts[item[1]].core:
            return pack, None
    return pack, inc


def _body_growth(t: Tables, i: int) -> int:
    """The least a source's body adds to a rendering that already holds the source: its UTF-8 bytes (escaping
    only lengthens them), less what a rendering may drop in exchange — the note that says the body was left
    out (JSON's `body_left_out` entry is shorter than markdown's line) and the column a markdown fence
    dedents from each continuation line."""
    body = t.p.bodies[i] or ""
    note = len(body_left_out_note(t.p.meta[i].get("bytes", 0)).encode()) + 1  # and its line break
    return len(body.encode()) - t.p.meta[i].get("col", 0) * body.count("\n") - note


def _fact_growth(t: Tables, i: int) -> int:
    """The least a fact adds to a rendering that already holds its sources: its text's UTF-8 bytes (JSON
    escaping only lengthens them) and the markdown list line around it (`- ` and the line break); the JSON
    entry adds its kind, level and sources besides. Nothing else of the rendering changes."""
    return len(t.p.facts[i].text.encode()) + 3


def _needed(pack: dict, size: int, render: Render, measure: Measure) -> int:
    """The cap that would hold this pack: the pack states its own cap, so a cap with more digits than the
    one asked for makes it longer (512 → 1068 adds a byte); measured until the stated cap holds it. The
    caller asks for both statuses: at the smallest cap the pack is delivered `partial`, which a rendering
    may state at more length than `complete`."""
    budget = pack.get("budget")
    if not isinstance(budget, dict) or "cap" not in budget:
        return size
    for _ in range(3):
        trial = dict(pack, budget=dict(budget, cap=size))
        again = measure(render(trial))
        if again <= size:
            return size
        size = again
    return size


def deliver(parts: Parts, status: str, cap: int, render: Render, measure: Measure, tick: Callable[[], None]) -> tuple[dict, dict]:
    """(pack, result) where measure(result) <= cap; a `complete` status is downgraded when
    a selected source or a core fact did not fit. Raises RequestFailed when even the
    required minimum does not fit."""
    t = Tables(parts)
    needed_src = {i for i, r in enumerate(parts.rows)}
    needed_facts = {i for i, f in enumerate(parts.facts) if f.core}
    needed_bodies = {i for i in t.asked_rows() if i is not None and parts.bodies[i] is not None}
    for _ in range(3):
        pack, inc = _fill(t, status, cap, render, measure, tick, core_facts_or_stop=status == "complete")
        missing = inc is None or not needed_src <= inc.src or not needed_facts <= inc.fact or not needed_bodies <= inc.body
        if status == "complete" and missing:
            status = "partial"
            continue
        result = render(pack)
        assert measure(result) <= cap
        return pack, result
    result = render(pack)
    assert measure(result) <= cap
    return pack, result
