"""Obligations: witness sets located in the index, and their status after selection.

An obligation is satisfied only when one complete witness set is selected at (or above)
the required evidence level. Missing sources, budget refusals, parse failures and failed
re-checks never become "satisfied"; levels are never raised.
"""

from __future__ import annotations

from dataclasses import dataclass

from .request import LEVELS, ObligationSpec
from .roles import _counted


@dataclass(frozen=True, slots=True)
class Located:
    index: int  # position of the witness set in the request
    uids: tuple[str, ...]  # empty when a selector names nothing in scope
    missing: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ObligationResult:
    id: str
    required: bool
    evidence: int
    status: str  # satisfied|unknown|unread|blocked
    reason: str
    witness: tuple[str, ...]  # unit ids of the set the status refers to


def locate(spec: ObligationSpec, units: dict) -> list[Located]:
    out = []
    for i, ws in enumerate(spec.witness_sets):
        missing = tuple(s for s in ws if s not in units)
        out.append(Located(i, () if missing else tuple(ws), missing))
    return out


def provided_level(uids: tuple[str, ...], out: dict[str, set[str]]) -> int:
    """direct_syntax for read bodies; resolved_static when the set is tied together by resolved edges.

    sourced_inference needs an inference step this local, model-free service never runs.
    """
    if len(uids) < 2:
        return 0
    members = set(uids)
    for u in uids:
        linked = (out.get(u, set()) & members) or {v for v in members if u in out.get(v, set())}
        if not linked:
            return 0
    return 1


def evaluate(
    spec: ObligationSpec,
    located: list[Located],
    selected: set[str],
    refused: dict[str, str],
    out: dict[str, set[str]],
    broken: dict[str, str],
) -> ObligationResult:
    """Status of one obligation. `refused`: obligation id → selection refusal; `broken`: uid → why unusable."""
    usable = [loc for loc in located if loc.uids]
    if not usable:
        missing = sorted({m for loc in located for m in loc.missing})
        return ObligationResult(spec.id, spec.required, spec.evidence, "blocked",
                                "witness not located in scope: " + ", ".join(missing[:4]), ())
    best: ObligationResult | None = None
    for loc in usable:
        if not all(u in selected for u in loc.uids):
            continue
        bad = [f"{u}: {broken[u]}" for u in loc.uids if u in broken]
        if bad:
            cand = ObligationResult(spec.id, spec.required, spec.evidence, "blocked", "source failed its check: " + bad[0], loc.uids)
        elif provided_level(loc.uids, out) < spec.evidence:
            cand = ObligationResult(
                spec.id, spec.required, spec.evidence, "unknown",
                f"witness set read at {LEVELS[provided_level(loc.uids, out)]}, below required {LEVELS[spec.evidence]}", loc.uids,
            )
        else:
            return ObligationResult(spec.id, spec.required, spec.evidence, "satisfied",
                                    f"witness set {loc.index} selected complete", loc.uids)
        best = best or cand
    if best is not None:
        return best
    reason = refused.get(spec.id, "selection incomplete: no witness set was selected")
    return ObligationResult(spec.id, spec.required, spec.evidence, "unread", reason, usable[0].uids)


def role_obligations(covered: dict[str, list[str]], roles_present: dict[str, int], skeleton_roles: tuple[str, ...],
                     unread_why: str = "none fit the lanes") -> list[ObligationResult]:
    """The local lifecycle-coverage contract: one non-required obligation per skeleton role."""
    out = []
    for role in skeleton_roles:
        sel = covered.get(role, [])
        if sel:
            carry = "carries" if len(sel) == 1 else "carry"
            out.append(ObligationResult(f"role:{role}", False, 0, "satisfied", f"{_counted((len(sel), 'selected unit'))} {carry} this role",
                                        tuple(sel)))
        elif roles_present.get(role, 0):
            out.append(ObligationResult(f"role:{role}", False, 0, "unread",
                                        f"{_counted((roles_present[role], 'candidate'))} in scope, {unread_why}", ()))
        else:
            out.append(ObligationResult(f"role:{role}", False, 0, "unknown", "no unit in scope shows this role's signals", ()))
    return out
