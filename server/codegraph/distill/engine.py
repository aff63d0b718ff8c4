"""`codegraph/distill`: role-isolated selection → bounded evidence → stable knowledge pack.

snapshot → roles and resolved relations → SCC-condensed components → skeleton scheduling →
one hop → local source re-check → reference tables → size gate. Deterministic and
local: same index + same request ⇒ byte-identical pack. Per-run data goes to the log only.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import time
import weakref
from collections import Counter, OrderedDict
from operator import itemgetter
from typing import Callable

from ..index.extract import sha256
from ..render.markdown import redact_lines
from ..model.canonical import canonical_json
from ..model.fields import RequestFailed
from .facts import SourceRow, build_facts, build_gaps, source_rows
from .manifests import declared_entries
from .obligations import evaluate, locate, role_obligations
from .pack import STAGES, Parts, deliver
from . import query as question_seeds
from .query import MAX_SEEDS, neighbourhood, seeds
from .render_markdown import render_markdown
from .request import DistillRequest, parse_distill
from .features import NAMES, candidates as describe, jobs, said
from .walk.bodies import body_role, reports_error
from .walk.plan import plan as flow_plan
from .ranker import ROLE_KEYS, believed, columns, no_body, reason, role_columns, roles_of, select, shipped, weights_digest
from .roles import (AUX, ASSEMBLY, BOUNDARY, ENTRY, ORCHESTRATE, PERSIST, ROLE_ORDER, SKELETON_ROLES, STAGE_OF,
                    boundary_roles, classify, output_sinks, statement_label)
from .selection import LANE_CAPS, MAX_UNITS, Scheduler, boundary_of
from .topology import Model, build_model

__all__ = ["distill", "parse_distill", "ALGORITHM_VERSION", "POLICY_VERSION"]

log = logging.getLogger(__name__)
SCHEMA_VERSION = 1
ALGORITHM_VERSION = "distill-3"
# The plan's walk feeds the learned selection; the fitted weights are part of the policy (their digest).
POLICY_VERSION = f"learned-{weights_digest()};flow;lanes16/12/4;unbelieved-context;units32;labels32;body98304;tests-out;bodies-first;spares8;size-priced;spill"
# The selection's next units after the 32, for the places the lanes leave free: a unit whose role's lanes are full is
# turned away, and the boundary lane's four places stay empty where the pack has fewer boundaries (2–3 of 32
# places on a quarter of the fit packs). They take a place only where one is free, after every unit before them.
SPARES = 8
QUESTION_POLICY = "seed-bodies-first;words-where-ranked;one-place-per-name"
ANALYSIS_SHARE = 165 / 180  # stop new analysis here; the rest is for re-check, packing and sending


class Deadline:
    """One absolute deadline taken at entry on a monotonic clock; stages spend what remains."""

    def __init__(self, start: float, ms: int, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.analysis_end = start + ms / 1000 * ANALYSIS_SHARE
        self.end = start + ms / 1000

    def analysis_over(self) -> bool:
        return self.clock() >= self.analysis_end

    def over(self) -> bool:
        return self.clock() >= self.end


def _digest(obj: object) -> str:
    return hashlib.sha256(canonical_json(obj)).hexdigest()


def identity(index, request: DistillRequest, entries) -> dict:
    """Project, scope, snapshot and the cache key over everything that affects the output."""
    project_id = _digest({"root": str(index.root)})[:16]
    snapshot_id = _digest(sorted((p, f.sha256) for p, f in index.files.items()))[:16]
    cfg = index.config
    scope = {"exclude": list(cfg.exclude), "max_file_bytes": cfg.max_file_bytes,
             "languages": sorted(cfg.languages) if cfg.languages else None}
    key = _digest({"project": project_id, "scope": scope, "snapshot": snapshot_id, "algorithm": ALGORITHM_VERSION,
                   "policy": POLICY_VERSION, "request": request.normalized(),
                   "manifests": [[e.manifest, e.name, e.target, e.path, e.unit] for e in entries],
                   # a question's seeds come from a learned ranking: its weights are part of the answer
                   **({"seed_ranking": question_seeds.RANKING.identity}
                      if request.scenario == "query" and question_seeds.RANKING is not None else {}),
                   # how a question pack chooses its seeds and fills its frame (the overview's key stays)
                   **({"question_policy": QUESTION_POLICY} if request.scenario == "query" else {})})
    return {"project_id": project_id, "snapshot_id": snapshot_id, "cache_key": key}


def recheck(index, units: dict, uids: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Reads each selected unit from the snapshot and checks file identity, range and cost."""
    bodies: dict[str, str] = {}
    broken: dict[str, str] = {}
    verified: dict[str, str] = {}
    contexts: dict[str, list[str]] = {}
    for uid in uids:
        u = units[uid]
        facts, src = index.files.get(u.path), index.sources.get(u.path)
        if facts is None or src is None:
            broken[uid] = "not-found"
            continue
        if u.path not in verified:
            ok = sha256(src) == facts.sha256
            if not ok and u.path not in index.open_docs:  # BOM or declared encoding: the digest is of the raw file
                try:
                    ok = sha256((index.root / u.path).read_bytes()) == facts.sha256
                except OSError:
                    ok = False
            verified[u.path] = "" if ok else "content-modified"
        if verified[u.path]:
            broken[uid] = verified[u.path]
            continue
        if not any(x.id == uid and x.start_byte == u.start_byte and x.end_byte == u.end_byte for x in facts.units):
            broken[uid] = "unit no longer in the snapshot"
            continue
        raw = src[u.start_byte : u.end_byte]
        try:
            body = raw.decode("utf-8")
        except UnicodeDecodeError:
            broken[uid] = "span is not valid UTF-8"
            continue
        # Credential lines (and whole private-key blocks, judged on the whole file) never leave.
        context = contexts.setdefault(u.path, src.decode("utf-8", "replace").split("\n"))
        bodies[uid] = "\n".join(redact_lines(body.split("\n"), u.start_line, context))
    return bodies, broken


def role_labels(rows: list[SourceRow], roles, plan_roles: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each source's roles, its main one first. Further roles (each with its own reason) are
    shown while the pack holds at most MAX_UNITS role labels in all, so a reader scanning the
    roles sees each unit's main job before anyone's second one."""
    labels: dict[str, list[str]] = {}
    extra: list[tuple[str, str]] = []
    for r in rows:
        mine = roles.get(r.uid, {})
        order = [x for x in plan_roles.get(r.uid, []) if x in mine]
        order += [x for x in ROLE_ORDER if x in mine and x not in order]
        labels[r.uid] = order[:1] or [AUX]
        extra += [(r.uid, x) for x in order[1:]]
    budget = MAX_UNITS - sum(map(len, labels.values()))
    rank = {ENTRY: 0, BOUNDARY: 1, PERSIST: 2, ASSEMBLY: 3, ORCHESTRATE: 4}  # the default job (core) last
    extra.sort(key=lambda x: rank.get(x[1], 5))  # stable: row order within a role
    for uid, role in extra:
        if budget <= 0:
            break
        labels[uid].append(role)
        budget -= 1
    return labels


def _meta(index, model: Model, units: dict, roles, row: SourceRow, labels: dict[str, list[str]]) -> dict:
    u = units[row.uid]
    src = index.sources.get(u.path, b"")
    kind = u.stmt_kind if u.kind == "statement" and u.stmt_kind else u.kind
    mine = roles.get(row.uid, {})
    shown = labels.get(row.uid) or [AUX]
    meta = {"path": u.path, "sha256": index.files[u.path].sha256 if u.path in index.files else "", "symbol": u.qualname,
            "kind": kind, "lines": [u.start_line, u.end_line], "bytes": u.end_byte - u.start_byte,
            "roles": shown, "why": [mine[r][1] if r in mine else "no role signal" for r in shown],
            "tier": min((t for t, _ in mine.values()), default=0), "lane": row.lane}
    col = u.start_byte - (src.rfind(b"\n", 0, u.start_byte) + 1)
    if col:
        meta["col"] = col
    if u.kind == "statement":  # what the statement is, beside its stable symbol (`<registration@489>`)
        meta["label"] = statement_label(u, src)
    return meta


_analyses: "OrderedDict[tuple, tuple[weakref.ref, tuple]]" = OrderedDict()  # like _memo: made on this index


def _analysis(index, tick: Callable[[], bool]) -> tuple:
    """Model, declared entries, role signals and the flow plan of one index version: computed once,
    shared by every request at that version (JSON and markdown, any budget)."""
    key = (id(index), index.root, getattr(index, "version", None), repr(index.config))
    hit = _analyses.get(key)
    if hit is not None and hit[0]() is index:
        return hit[1]
    model = build_model(index)
    tick()
    entries = declared_entries(index)
    roles = classify(index, model, entries)
    tick()
    sink_tier = {u: r[PERSIST] for u, r in roles.items() if PERSIST in r}
    sink_tier.update(output_sinks(model, sink_tier))
    assembly = {u for u, r in roles.items() if ASSEMBLY in r and r[ASSEMBLY][0] <= 2}
    plan, _ = flow_plan(index, model, roles, sink_tier, assembly)
    tick()
    out = (model, entries, roles, plan, _learned(index, model, roles, entries, plan))
    if getattr(index, "version", None) is not None:
        _analyses[key] = (weakref.ref(index), out)
        while len(_analyses) > 2:
            _analyses.popitem(last=False)
    return out


def one_hop_role(index, model: Model, uid: str, mine: dict, down: dict[str, int],
                 out: dict[str, set[str]] | None = None) -> tuple[str, str]:
    """The main role of a unit the plan did not choose, by the plan's own rules ('' when the classifier's
    stands): assembly by what its body does; a writer that reports an error is a boundary first; a unit
    that calls a read/write interface but sets more than 3 units in motion is on the flow, not a sink."""
    if ASSEMBLY not in mine:
        why = body_role(index, model, uid, out)
        if why:
            return ASSEMBLY, why
    main = next((r for r in ROLE_ORDER if r in mine), "")
    if main != PERSIST:
        return "", ""
    why = reports_error(index, model.units[uid])
    if why:
        return BOUNDARY, why
    if mine[PERSIST][0] >= 2 and down.get(uid, 0) > 3:
        return ORCHESTRATE, f"on the flow from the entries: {down[uid]} units downstream"
    return "", ""


def _edges(model: Model, rows: list[SourceRow], held: dict[str, str]) -> list[tuple[str, str, str]]:
    """Proven relations among the delivered sources (the picture's arrows). A unit inside a source's
    span — a closure, a callback, a nested function, a method of a type shown whole — speaks for the
    innermost source holding it, at both ends of a relation, and so does a unit held by a type shown
    whole: a proven call made in a callback is the source's call, from code inside it."""
    shown = {r.uid for r in rows if not r.alias_of}
    speaks = {x: t for x, t in held.items() if t in shown}
    speaks.update(_inside_sources(model, shown))
    speaks.update((uid, uid) for uid in shown)
    out = []
    last = len(model.order)
    for uid in sorted(speaks, key=lambda x: (model.order.get(x, last), x)):  # (an obligation may name a unit outside the model)
        row = speaks[uid]
        for d in sorted(model.out.get(uid, ()), key=model.order.__getitem__):
            to = speaks.get(d)
            if to is not None and to != row:
                out.append((row, to, model.kinds[(uid, d)]))
    return out


def _inside_sources(model: Model, shown: set[str]) -> dict[str, str]:
    """Each unit of the model within a shown source's span → the innermost shown source holding it."""
    by_path: dict[str, list] = {}
    for uid in sorted(shown & model.units.keys(), key=model.order.__getitem__):
        u = model.units[uid]
        by_path.setdefault(u.path, []).append(u)
    out: dict[str, str] = {}
    for path, owners in by_path.items():
        for u in model.units_in(path):
            if u.id in shown:
                continue
            best = None
            for o in owners:
                if o.start_byte <= u.start_byte and u.end_byte <= o.end_byte and (
                        best is None or o.end_byte - o.start_byte < best.end_byte - best.start_byte):
                    best = o
            if best is not None:
                out[u.id] = best.id
    return out


def _learned(index, model: Model, roles, entries, plan) -> list[tuple[str, str, str]]:
    """The overview's picks by the fitted weights: (uid, role, one-line reason), in score order."""
    cands = describe(index, model, roles, entries, plan.picks, plan.out, plan.hosts)
    ranker = shipped()
    cols = columns(ranker)
    rows = list(map(itemgetter(*cols), cands.rows)) if len(cols) > 1 else [[r[c] for c in cols] for r in cands.rows]
    scores = ranker.scores(rows, cands.near, cands.group, cands.down)
    us = [model.units[u] for u in cands.uids]
    outside = NAMES.index("non_arch")
    chosen = select(scores, [u.end_byte - u.start_byte for u in us], cands.uids, [u.parent or "" for u in us],
                    [u.kind for u in us], [r[outside] >= 1 for r in cands.rows], wraps=list(cands.wraps) or None,
                    spares=SPARES, bodiless=[no_body(u) for u in us])
    role_cols = role_columns(ranker)
    picked = jobs(index, model, [cands.uids[i] for i in chosen], roles, plan.picks)  # job features: the chosen units' only
    full = [cands.rows[i] + j for i, j in zip(chosen, picked)]
    main = roles_of(ranker, [[r[c] for c in role_cols] for r in full],
                    [believed(scores[i], cands.rows[i]) for i in chosen])
    # each reason for the role shown, in the unit's own facts (who calls it, what it calls, the walk's reason)
    facts = said(index, model, plan, roles, [cands.uids[i] for i in chosen], cands.uids)
    return [(cands.uids[i], role or AUX, reason(ranker, rows[i], role, facts[cands.uids[i]])) for i, role in zip(chosen, main)]


def _follow_learned(picks: list[tuple[str, str, str]], roles, sched: Scheduler) -> dict[str, list[str]]:
    """Overview selection by the fitted anchor score; each pick's main role from the role model, the
    syntax signals it also shows after it."""
    order: dict[str, list[str]] = {}
    for uid, role, why in picks:
        # a unit the score does not believe in takes the context lane only: past its cap it once spilled into the
        # skeleton, so in a small code base the lowest scored (a helper called from everywhere) took skeleton places
        lanes = ("boundary", "skeleton", "context") if role == BOUNDARY else ("context",) if role == AUX else ("skeleton", "context")
        for lane in lanes:
            if sched.sel.lane_count(lane) < sched.sel.cap(lane) and sched.try_add(uid, lane, f"learned:{ROLE_KEYS.get(role, 'context')}"):
                break
        else:
            continue
        old = roles.get(uid, {})
        if role == AUX:  # context: no role of its own
            roles[uid] = {}
            order[uid] = []
            continue
        mine = {role: (1, old[role][1] if role in old else why)}  # a syntax signal's reason is the concrete one
        for other in ROLE_ORDER:
            if other in old and other not in mine and old[other][0] <= 2:
                mine[other] = (old[other][0] + 1, old[other][1])
        roles[uid] = mine
        order[uid] = list(mine)
    return order


MEMO_SIZE = 8
# key → (the index it was made on, the pack as JSON): the key holds the index's id, which a new index
# may reuse once the old one is gone, so a hit must be made on this very index object
_memo: "OrderedDict[tuple, tuple[weakref.ref, str]]" = OrderedDict()


def _memo_key(index, request: DistillRequest, measure: Callable[[dict], int]) -> tuple:
    """(index, index version, request, transport envelope): everything the answer depends on.
    The envelope is fingerprinted by measuring two probes, so LSP, MCP and CLI framings never mix."""
    return (id(index), index.root, getattr(index, "version", None), repr(index.config), ALGORITHM_VERSION, POLICY_VERSION,
            json.dumps(request.normalized(), sort_keys=True), request.deadline_ms,
            measure({}), measure({"pack": {"x": "\"ü"}}))


def _collected_after(fn, *args):
    """Runs fn with the cyclic garbage collector paused: the analysis allocates hundreds of
    thousands of short-lived containers over a large index heap, and every full collection
    would walk that heap (about a tenth of a first request on a large code base). Reference
    counting still frees everything; cycles wait until the request is answered."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return fn(*args)
    finally:
        if paused:
            gc.enable()


def distill(index, request: DistillRequest, measure: Callable[[dict], int], checkpoint: Callable[[], None] = lambda: None,
            clock: Callable[[], float] = time.monotonic) -> dict:
    """The pack for this request; an identical request at the same index version is answered from memory."""
    if clock is not time.monotonic:  # a caller-supplied clock (tests of the deadline) always runs the analysis
        return _distill(index, request, measure, checkpoint, clock)
    key = _memo_key(index, request, measure)
    hit = _memo.get(key)
    if hit is not None and hit[0]() is index:
        _memo.move_to_end(key)
        checkpoint()
        return json.loads(hit[1])
    result = _collected_after(_distill, index, request, measure, checkpoint, clock)
    status = result.get("status") or result.get("pack", {}).get("status")
    if status != "timeout":  # a pack cut short by the deadline is never reused
        _memo[key] = (weakref.ref(index), json.dumps(result, ensure_ascii=False))
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)
    return result


def _distill(index, request: DistillRequest, measure: Callable[[dict], int], checkpoint: Callable[[], None],
             clock: Callable[[], float]) -> dict:
    started = clock()
    deadline = Deadline(started, request.deadline_ms, clock)

    def tick() -> bool:
        checkpoint()
        return deadline.analysis_over()

    model, entries, base_roles, plan, learned = _analysis(index, tick)
    roles = {uid: dict(r) for uid, r in base_roles.items()}  # later stages add labels: never to the shared table
    units = index.resolver.units
    tick()
    sched, located, pool, seed_ids, plan_roles = _select(index, request, model, units, roles, plan, learned, tick)
    seeds_missing = request.scenario == "query" and not seed_ids
    sel = sched.sel
    timed_out = sel.timed_out or deadline.analysis_over()
    sel.timed_out = timed_out

    # ---- local source re-check, obligations, facts ---------------------------------------
    rows = source_rows(sel)
    bodies, broken = recheck(index, units, [r.uid for r in rows if not r.alias_of])
    results = _obligations(request, located, rows, roles, sel, model, broken, pool)
    held = {x: t for t, xs in plan.members.items() if t in sel.picks for x in xs}  # types shown whole hold these
    facts = build_facts(model, units, roles, rows, held)
    gaps = build_gaps(index, model, sel, broken, entries, seeds_missing)
    asked = _asked(units, sel, seed_ids) if request.scenario == "query" else None
    if timed_out:
        status = "timeout"
    elif (sel.incomplete or broken or any(r.required and r.status != "satisfied" for r in results)
          or (asked is not None and (not asked or any(not holder for _, holder in asked)))):
        status = "incomplete"  # (a question pack: a unit the question points to was not chosen, or it points to none)
    else:
        status = "complete"
    head = _head(index, request, entries, sel)
    components = _components(model, rows)
    if request.scenario == "overview":  # units outside the plan (one hop): the plan's body rules decide their main role
        roles = _one_hop_roles(index, model, rows, roles, plan_roles, plan.down, plan.out)
    labels = role_labels(rows, roles, plan_roles)
    # how many chosen units each stage holds (main role), in the head that always fits: a pack too small
    # for them still says they were found, not that there are none
    staged = Counter(STAGE_OF.get(labels[r.uid][0], "context") for r in rows if not r.alias_of)
    head["selection"]["stages"] = {st: staged[st] for st in STAGES if staged[st]}
    parts = Parts(head=head, rows=rows, meta=[_meta(index, model, units, roles, r, labels) for r in rows],
                  bodies=[None if r.alias_of else bodies.get(r.uid) for r in rows],
                  facts=facts, obligations=results, components=components, gaps=gaps,
                  edges=_edges(model, rows, held), asked=asked)

    # ---- size gate: `measure` is the transport's (bytes of the message it sends) ----------
    def render(pack: dict) -> dict:
        if request.format == "markdown":
            return {"markdown": render_markdown(pack), "cacheKey": pack["cache_key"], "status": pack["status"]}
        return {"pack": pack}

    def pack_tick() -> None:
        checkpoint()
        if deadline.over():
            raise RequestFailed("knowledge pack not delivered: the deadline passed during packing")

    pack, result = deliver(parts, status, request.cap, render, measure, pack_tick)
    log.info("distill %s: %d units, %d body bytes, frame %d/%d bytes, status %s, %.1f ms", request.scenario,
             len(sel.picks), sel.body_bytes, measure(result), request.cap, pack["status"], (clock() - started) * 1000)
    return result


def _select(index, request: DistillRequest, model: Model, units: dict, roles: dict, plan, learned, tick: Callable[[], bool]):
    """The selection: required obligations, the question's seeds or the plan, optional
    obligations, then one hop to the boundary. Returns (scheduler, located obligations, the
    question's neighbourhood or None, the question's seeds, roles from the plan)."""
    sched = Scheduler(model, units, roles, tick)
    located = {spec.id: locate(spec, units) for spec in request.obligations}
    for spec in request.obligations:  # required groups first, whole or nothing
        if spec.required:
            sched.reserve(spec, located[spec.id])
    pool, seed_ids = None, []
    if request.scenario == "query":
        ranking = question_seeds.RANKING
        seed_ids = seeds(request.question, model, ranking.rank(index, request.question, MAX_SEEDS * 3) if ranking is not None else [])
        for uid in seed_ids:
            sched.try_add(uid, "skeleton", "query:seed")
        pool = neighbourhood(model, seed_ids) if seed_ids else None
    plan_roles: dict[str, list[str]] = {}
    if request.scenario == "overview" and not tick():
        plan_roles = _follow_learned(learned, roles, sched)
    elif not tick():
        sched.rotate(pool)
    for spec in request.obligations:
        if not spec.required:
            sched.reserve(spec, located[spec.id])
    if not tick():
        backbone = {p for p, pick in sched.sel.picks.items() if pick.lane == "skeleton" and p in model.units}
        near = backbone | {n for b in backbone for x in [b] + plan.stands_for.get(b, []) for n in model.neighbours(x)}
        bnd = boundary_roles(index, model, near)
        boundary_of(roles, bnd)
        sched.one_hop({u: v for u, v in bnd.items() if u not in backbone})
        if request.scenario == "overview" and not tick():
            # the boundary lane's places no boundary took go to the learned picks its lanes turned away, in order
            sched.sel.spill = True
            plan_roles.update(_follow_learned([p for p in learned if not sched.sel.has(p[0])], roles, sched))
    else:
        sched.sel.timed_out = True
    sched.check()
    return sched, located, pool, seed_ids, plan_roles


def _asked(units: dict, sel, seed_ids: list[str]) -> list[tuple[str, str]]:
    """The units a question points to (its seeds: the symbols it names, then the ranking's best places),
    each with the chosen unit whose body holds its code ('' when it was not chosen)."""
    out = []
    for uid in seed_ids:
        holder = uid
        while holder in sel.aliases and holder not in sel.picks:  # a contained unit: its container's body
            holder = sel.aliases[holder]
        out.append((units[uid].qualname, holder if holder in sel.picks else ""))
    return out


def _obligations(request: DistillRequest, located: dict, rows: list[SourceRow], roles: dict, sel, model: Model,
                 broken: dict[str, str], pool) -> list:
    """The caller's obligations, then one per skeleton role, each judged on what was selected."""
    selected = {r.uid for r in rows if r.uid not in broken and (not r.alias_of or r.alias_of not in broken)}
    results = [evaluate(spec, located[spec.id], selected, sel.refused, model.out, broken) for spec in request.obligations]
    results.sort(key=lambda r: (not r.required, r.id))
    covered = {role: [r.uid for r in rows if role in roles.get(r.uid, {})] for role in SKELETON_ROLES}
    present: dict[str, int] = {}
    for r in roles.values():
        for role in r:
            present[role] = present.get(role, 0) + 1
    results += role_obligations(covered, present, SKELETON_ROLES,
                                "none near the question's symbols" if pool is not None else "none fit the lanes")
    return results


def _head(index, request: DistillRequest, entries, sel) -> dict:
    """The pack's identity and what was selected."""
    ident = identity(index, request, entries)
    head = {"schema_version": SCHEMA_VERSION, "algorithm_version": ALGORITHM_VERSION, "policy_version": POLICY_VERSION,
            "project": index.root.name, **ident, "scenario": request.scenario, "budget": {"cap": request.cap},
            "selection": {"units": len(sel.picks), "body_bytes": sel.body_bytes,
                          "lanes": {lane: sel.lane_count(lane) for lane in ("skeleton", "context", "boundary")}}}
    if request.scenario == "query":
        head["question"] = request.question
    return head


def _components(model: Model, rows: list[SourceRow]) -> list[dict]:
    components = []
    for comp in model.components:
        uids = [r.uid for r in rows if r.uid in model.units and model.component(r.uid) == comp.id]
        if uids:
            components.append({"id": comp.id, "name": comp.name, "uids": uids, "depends_on": list(comp.depends_on)})
    return components


def _one_hop_roles(index, model: Model, rows: list[SourceRow], roles: dict, plan_roles: dict[str, list[str]], down: dict[str, int],
                   out: dict[str, set[str]]) -> dict:
    """Roles of units outside the plan, by the plan's own body rules (plan_roles updated)."""
    for r in rows:
        if r.uid in plan_roles or r.alias_of:
            continue
        role, why = one_hop_role(index, model, r.uid, roles.get(r.uid, {}), down, out)
        if not role and r.lane == "boundary" and roles.get(r.uid, {}).get(BOUNDARY, (9,))[0] <= 3:
            role, why = BOUNDARY, roles[r.uid][BOUNDARY][1]  # the lane took it as a boundary: that is its main job
        if role:
            roles = {**roles, r.uid: {role: (1, why), **roles.get(r.uid, {})}}
            plan_roles[r.uid] = [role]
    return roles
