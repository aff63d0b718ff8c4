"""Checked static facts and honest gaps over the selected sources (integer references only).

Facts state structure, never a timeline: "A calls B" is a resolved static relation, not
"A runs before B". Every fact names the sources it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass

from .roles import ENTRY, ROLE_ORDER, Roles, _counted
from .selection import Selection
from .topology import Model

LANE_ORDER = ("skeleton", "boundary", "context")
ROLE_WORDS = {"TRIGGER_ENTRY": "an entry point", "ASSEMBLY_INIT": "assembly", "STATE_ORCHESTRATE": "on the core flow",
              "PERSISTENCE_SINK": "a sink", "BOUNDARY": "an error boundary"}


@dataclass(frozen=True, slots=True)
class SourceRow:
    uid: str
    lane: str  # skeleton|boundary|context|alias
    reason: str
    alias_of: str = ""


@dataclass(frozen=True, slots=True)
class FactRow:
    kind: str
    text: str
    sources: tuple[str, ...]  # unit ids; the pack turns them into indexes
    level: int
    core: bool


def source_rows(sel: Selection) -> list[SourceRow]:
    rows = [SourceRow(uid, p.lane, p.reason) for lane in LANE_ORDER for uid, p in sel.picks.items() if p.lane == lane]
    rows += [SourceRow(c, "alias", "contained in a selected unit", parent) for c, parent in sel.aliases.items()]
    return rows


def _sym(model: Model, units: dict, uid: str) -> str:
    return units[uid].qualname


def build_facts(model: Model, units: dict, roles: Roles, rows: list[SourceRow],
                held: dict[str, str] | None = None) -> list[FactRow]:
    """`held`: unit → the type shown whole that holds it (its relations are that source's)."""
    chosen = [r.uid for r in rows if not r.alias_of]
    present = set(chosen)
    held = {x: t for x, t in (held or {}).items() if t in present}
    facts: list[FactRow] = []
    for uid in chosen:  # entries: the lifecycle's triggers, with the signal that marked them
        tier_why = roles.get(uid, {}).get(ENTRY)
        if tier_why:
            facts.append(FactRow("entry", f"{_sym(model, units, uid)}: {tier_why[1]}", (uid,), 1 if tier_why[0] == 1 else 0, True))
    for uid, row in [(u, u) for u in chosen] + list(held.items()):  # resolved relations among the selected units
        for dst in sorted(model.out.get(uid, ()), key=model.order.__getitem__):
            to = held.get(dst, dst)
            if to in present and to != row:
                kind = model.kinds[(uid, dst)]
                line = model.lines[(uid, dst)]
                facts.append(FactRow(kind, f"{_sym(model, units, uid)} {kind} {_sym(model, units, dst)} (line {line})", (row, to), 1, True))
    for cyc in model.cycles:
        inside = [u for u in cyc if u in present]
        if inside:
            names = ", ".join(_sym(model, units, u) for u in cyc[:6]) + (" …" if len(cyc) > 6 else "")
            facts.append(FactRow("cycle", f"call cycle of {len(cyc)} units condensed to one node: {names}", tuple(inside), 1, True))
    for uid in chosen:  # why each unit carries its roles (optional detail)
        for role in ROLE_ORDER:
            tier_why = roles.get(uid, {}).get(role)
            if tier_why and role != ENTRY:
                facts.append(FactRow("role", f"{_sym(model, units, uid)} is {ROLE_WORDS[role]}: {tier_why[1]}", (uid,), 1 if tier_why[0] == 1 else 0, False))
    for uid in chosen:  # call expressions kept as syntax records, never as edges
        calls = model.unresolved.get(uid, [])
        if calls:
            names = list(dict.fromkeys(f"{c.receiver}.{c.name}" if c.receiver else c.name for c in calls))
            text = (f"{_sym(model, units, uid)}: {_counted((len(calls), 'call'))} without a provable target: "
                    + ", ".join(n[:40] for n in names[:6]))
            facts.append(FactRow("unresolved", text + (" …" if len(names) > 6 else ""), (uid,), 0, False))
    return facts


def build_gaps(index, model: Model, sel: Selection, broken: dict[str, str], entries, seeds_missing: bool) -> list[dict]:
    """Locally confirmed scan/parse/binding gaps; counts are exact, nothing is estimated."""
    gaps: list[dict] = [{"kind": "unresolved_calls", "count": model.unresolved_total,
                         "text": "call expressions with no provable target (kept as syntax, never as edges)"}]
    parse = sorted(p for p, f in index.files.items() if f.parse_errors and p in model.package_of)
    if parse:
        gaps.append({"kind": "parse_errors", "count": len(parse), "text": "files with syntax errors: " + ", ".join(parse[:3])})
    if index.skipped:
        gaps.append({"kind": "skipped_files", "count": len(index.skipped),  # (the CLI has no status request)
                     "text": "files outside the index (`codegraph index --list-skipped` lists them; over LSP, `codegraph/status`)"})
    if model.cycles:
        gaps.append({"kind": "call_cycles", "count": len(model.cycles), "text": "strongly connected call regions condensed to single nodes"})
    lost = [e for e in entries if not e.path]
    if lost:
        gaps.append({"kind": "declared_entry_unindexed", "count": len(lost),
                     "text": "declared entries landing on no indexed file: " + ", ".join(f"{e.name}={e.target}" for e in lost[:3])})
    reasons: dict[str, int] = {}
    for why in sel.rejections.values():
        reasons[why] = reasons.get(why, 0) + 1
    for why, n in sorted(reasons.items()):
        gaps.append({"kind": "selection_rejected", "count": n, "text": f"candidates refused: {why}"})
    for oid, why in sorted(sel.refused.items()):
        gaps.append({"kind": "obligation_refused", "count": 1, "text": f"{oid}: {why}"})
    for uid, why in sorted(broken.items()):
        gaps.append({"kind": "source_check_failed", "count": 1, "text": f"{uid}: {why}"})
    if sel.timed_out:
        gaps.append({"kind": "deadline", "count": 1, "text": "analysis stopped at the deadline; selection is incomplete"})
    if seeds_missing:
        gaps.append({"kind": "query_unmatched", "count": 1, "text": "the question names no symbol in scope; overview selection used"})
    return gaps
