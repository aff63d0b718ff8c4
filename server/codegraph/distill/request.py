"""The `codegraph/distill` request: validated, normalized, hashable (protocol.md)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import protocol
from ..model.fields import InvalidParams, get_enum, get_int, get_str, key_name

# The limits are declared once, in the protocol (model/protocol.json).
_DECLARED = protocol.PROTOCOL["requests"]["distill"]
_OBLIGATION = protocol.param("distill", "obligations")
RELEASE_CAP: dict[str, int] = dict(_DECLARED["releaseCaps"])  # bytes of the whole answer the transport sends
HARD_CAP: int = _DECLARED["hardCap"]

LEVELS = tuple(_OBLIGATION["items"]["properties"]["evidence"]["enum"])
SCENARIOS = tuple(protocol.param("distill", "scenario")["enum"])
FORMATS = tuple(protocol.param("distill", "format")["enum"])
DEFAULT_DEADLINE_MS: int = _DECLARED["defaultDeadlineMs"]
MAX_OBLIGATIONS: int = _OBLIGATION["maxItems"]
MAX_SETS: int = _OBLIGATION["items"]["properties"]["witnessSets"]["maxItems"]
MAX_SELECTORS: int = _OBLIGATION["items"]["properties"]["witnessSets"]["items"]["maxItems"]
MAX_QUESTION: int = protocol.param("distill", "question")["maxLength"]


@dataclass(frozen=True, slots=True)
class ObligationSpec:
    id: str
    required: bool
    evidence: int  # index into LEVELS
    witness_sets: tuple[tuple[str, ...], ...]  # alternatives, each a set of `path::Qual.name`


@dataclass(frozen=True, slots=True)
class DistillRequest:
    scenario: str  # overview|query
    question: str
    obligations: tuple[ObligationSpec, ...]
    cap: int  # effective frame cap in bytes
    format: str  # json|markdown
    deadline_ms: int

    def normalized(self) -> dict:
        """The request fields that affect output (the cache key covers exactly these)."""
        return {
            "scenario": self.scenario,
            "question": self.question,
            "cap": self.cap,
            "format": self.format,
            "obligations": [
                {"id": o.id, "required": o.required, "evidence": o.evidence, "witness_sets": [list(s) for s in o.witness_sets]}
                for o in self.obligations
            ],
        }


MIN_BUDGET_BYTES, MAX_BUDGET_BYTES = protocol.bounds("distill", "budgetBytes")


def _obligation(raw: object, n: int) -> ObligationSpec:
    field = f"obligations[{n}]"
    if not isinstance(raw, dict):
        raise InvalidParams(field, "must be an object")
    fields = list(_OBLIGATION["items"]["properties"])
    for key in sorted(raw):  # an unknown (or misspelt) field is refused, as a request's are
        if key not in fields:
            raise InvalidParams(f"{field}.{key_name(key)}", f"is not a field of an obligation (fields: {', '.join(fields)})")
    try:
        oid = get_str(raw, "id", required=True, max_len=200)
        evidence = get_enum(raw, "evidence", LEVELS, "direct_syntax")
    except InvalidParams as exc:  # named within the obligation
        raise InvalidParams(f"{field}.{exc.field}", exc.rule) from None
    required = raw.get("required", True)
    if not isinstance(required, bool):
        raise InvalidParams(f"{field}.required", "must be a boolean")
    sets = raw.get("witnessSets")
    if not isinstance(sets, list) or not sets or len(sets) > MAX_SETS:
        raise InvalidParams(f"{field}.witnessSets", f"must be a list of 1–{MAX_SETS} witness sets")
    out: list[tuple[str, ...]] = []
    for i, ws in enumerate(sets):
        if not isinstance(ws, list) or not ws or len(ws) > MAX_SELECTORS:
            raise InvalidParams(f"{field}.witnessSets[{i}]", f"must be a list of 1–{MAX_SELECTORS} selectors")
        for sel in ws:
            if not isinstance(sel, str) or "::" not in sel or len(sel) > 1000:
                raise InvalidParams(f"{field}.witnessSets[{i}]", "selectors must be strings `path::Qualified.name` (≤ 1,000 chars)")
        out.append(tuple(dict.fromkeys(ws)))  # a repeated selector adds nothing
    return ObligationSpec(oid.strip(), required, LEVELS.index(evidence), tuple(out))  # type: ignore[union-attr]


def parse_distill(params: dict) -> DistillRequest:
    """Validates every field per protocol.md; raises InvalidParams naming the field and rule."""
    scenario = get_enum(params, "scenario", SCENARIOS, "overview")
    question = get_str(params, "question", required=scenario == "query", max_len=MAX_QUESTION)
    if question is not None and scenario != "query":
        raise InvalidParams("question", "is only allowed with scenario 'query'")
    raw_obligations = params.get("obligations", [])
    if raw_obligations is None:
        raw_obligations = []
    if not isinstance(raw_obligations, list) or len(raw_obligations) > MAX_OBLIGATIONS:
        raise InvalidParams("obligations", f"must be a list of at most {MAX_OBLIGATIONS} obligations")
    obligations = [_obligation(o, n) for n, o in enumerate(raw_obligations)]
    ids = [o.id for o in obligations]
    if len(set(ids)) != len(ids):
        raise InvalidParams("obligations", "ids must be unique")
    release = RELEASE_CAP[scenario]
    # Below 512 B not even the error that says "not delivered" is sure to fit: refuse such caps up front.
    budget = get_int(params, "budgetBytes", MIN_BUDGET_BYTES, MAX_BUDGET_BYTES, None)
    cap = min(release, HARD_CAP, budget if budget is not None else release)
    fmt = get_enum(params, "format", FORMATS, "json")
    deadline = get_int(params, "deadlineMs", *protocol.bounds("distill", "deadlineMs"), DEFAULT_DEADLINE_MS)
    get_str(params, "rootUri")  # chosen by the transport; validated for type only
    return DistillRequest(
        scenario=scenario,
        question=" ".join((question or "").split()),
        obligations=tuple(sorted(obligations, key=lambda o: o.id)),  # order never changes output
        cap=cap,
        format=fmt,
        deadline_ms=deadline,  # type: ignore[arg-type]
    )
