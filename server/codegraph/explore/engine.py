"""codegraph/explore: rank, trace the flow, gate each file's mode, render within the budget.

The gate (explore.md): a file becomes a skeleton only when a named flow exists, no symbol of
the file is on the spine, a class in it extends/implements a supertype with at least
MIN_SIBLINGS implementers, and it is not spared (a near-unique named callable spares it,
unless the file itself defines such a supertype: the family file, which is focused).
"""

from __future__ import annotations

import heapq
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable

from ..graph.copies import copy_files
from ..graph.likely import likely_graph
from ..graph.rules import RULE_WORDS
from ..graph.support import support_modules
from ..index.facts import Unit
from ..index.index import RootIndex
from ..index.worker import no_cyclic_gc
from ..model.facts import bodiless, in_test_module
from ..workspace.scope import is_test_path
from .flow import Flow, find_flow
from . import features, ranker
from .model import ExploreRequest
from .pack import CLUSTER_GAP, EXCERPT, FileView, Piece, file_view, pack
from ..render.markdown import merge_ranges
from .prior import read_priors
from .relevance import looks_like_code, parse_query, path_prior, rank_on_ranked_graph, split_words, STOP
from .gate import FilePlan, _gate, _members_named_by_words, _the_named_variant, _wanted_in_family
from .steps import (
    _ambiguity, _awaited, _dispatch_targets, _members_added_at_load, _members_added_to_the_core, _protocols_of_classes_handed_over,
    _readers_of_data_names, _receivers_built_by_calls, _registry_writers, _state_writers, _wiring,
)
from .tables import MIN_SIBLINGS, Derived, _interchangeable, derived, family_size, per_version


MAX_CANDIDATES = 40


# a family member whose learned probability reaches this keeps its body (chosen by
# leave-one-corpus-out end to end over 0.2 / 0.3 / 0.5 / off: docs/explore.md)
FAMILY_KEEP_P = 0.3
# ...and so does one among the ranking's FAMILY_KEEP_TOP best when its family member stands out:
# its best unit rated at least FAMILY_STANDOUT times the next member's (docs/explore.md, "The gate")
FAMILY_KEEP_TOP = 16
FAMILY_STANDOUT = 2.0


WORD_SEEDS = 80  # the best word matches that seed the ranking (weakly: 0.3 × their share of the best)


@dataclass
class Front:
    """What the question means and the flow that answers it: the stages before the ranking."""

    d: Derived
    q: object
    excluded: Callable[[str], bool]
    seeds: dict[str, float]
    top_words: list[tuple[float, str]]
    endpoints: list[Unit]
    readers: list[Unit]
    ranks: dict[str, float]
    strong: list[Unit]
    weak: list[Unit]
    flow: Flow
    wired: set[str]
    data_steps: set[str]
    dispatch: dict[str, float]
    lexical: list[tuple[float, str]]  # (BM25 × path prior, unit id) of every matching unit, tests left out


def understand(index: RootIndex, req: ExploreRequest, checkpoint: Callable[[], None]) -> Front:
    """The stages before the ranking: what the question means, its seeds, the flow that answers it."""
    d = derived(index)
    checkpoint()
    q = parse_query(req.query, index.files, d.names)
    _members_added_at_load(index, q)
    _awaited(index, q)
    _receivers_built_by_calls(index, q, d.names)
    copies = per_version(d, "copies", lambda: copy_files(index.resolver.units.values()))
    tests = (lambda p: False) if req.include_tests else is_test_path
    excluded = (lambda p: p in copies or tests(p)) if copies else tests  # a bundle or a second build repeats the modules' bodies
    lexical = _lexical(d, q, req, excluded)
    seeds, top_words = _seeds(d, q, req, excluded, lexical)
    checkpoint()
    endpoints = _endpoints(index, d, q, top_words, excluded)
    readers = _readers_of_data_names(index, q, excluded)
    endpoints += [u for u in readers if u not in endpoints]
    for u in endpoints:
        seeds[u.id] = max(seeds.get(u.id, 0.0), 0.8)
    ranks = rank_on_ranked_graph(index.graph.g, likely_graph(index), seeds, ways_memo=per_version(d, "ranked ways", dict))
    top_rank = max(ranks.values()) if ranks else 1.0
    relevance = {uid: r / top_rank for uid, r in ranks.items()}
    for uid, s_ in seeds.items():
        relevance[uid] = max(relevance.get(uid, 0.0), s_)
    strong, weak = _anchors(index, endpoints, {u.id for u in q.named_units()}, _ambiguity(q), top_words, d, excluded)
    weak = weak + [u for u in readers if u not in weak and u not in strong]
    relevant = [d.words.units[uid] for _, uid in top_words if d.words.units[uid].is_callable][:RELEVANT_TARGETS]
    flow = find_flow(index, likely_graph(index), strong, weak, relevant, relevance, excluded, checkpoint, lambda u: _interchangeable(d, u))
    checkpoint()
    wired = _wiring(index, d, flow, excluded) | _registry_writers(index, flow) | _members_added_to_the_core(index, flow)
    data_steps = _state_writers(index, flow) | _protocols_of_classes_handed_over(index, flow)
    ranks = {uid: r / top_rank for uid, r in ranks.items()}
    return Front(d, q, excluded, seeds, top_words, endpoints, readers, ranks, strong, weak, flow, wired, data_steps, _dispatch_targets(index, d, flow), lexical)


def candidate_table(index: RootIndex, req: ExploreRequest, f: Front) -> tuple[list[Unit], list[list[float]], list[tuple[list[int], list[int]]]]:
    """The candidates, their feature rows and their links among themselves (features.py)."""
    d, q, flow = f.d, f.q, f.flow
    bm25 = {uid: s for s, uid in f.lexical}
    named: dict[str, float] = {}
    for hits in q.named.values():
        for u in hits:
            named[u.id] = max(named.get(u.id, 0.0), 1.0 / max(1, len(hits)) ** 0.5)
    sig = features.Signals(
        words=list(q.words),
        bm25=bm25,
        named=named,
        weak_named={u.id for hits in q.weak.values() for u in hits},
        endpoints={u.id for u in f.endpoints},
        seeds=f.seeds,
        ppr=f.ranks,
        spine=set(flow.spine),
        spine_depth=_spine_depths(flow, {u.id for u in f.strong + f.weak}),
        periphery=dict(flow.periphery),
        on_hop={h.src.id for h in flow.hops} | {h.dst.id for h in flow.hops},
        anchors={u.id for u in f.strong + f.weak},
        wired=set(f.wired),
        data_steps=set(f.data_steps),
        dispatch=f.dispatch,
        family_member=set(),
        phrases=question_phrases(q.text),
    )
    likely = likely_graph(index)
    cands = features.candidates(index, likely, sig, f.excluded)
    sig.family_member = {u.id for u in cands if _interchangeable(d, u)}
    rows, links = features.feature_rows(index, likely, sig, cands, d.words.postings, len(d.words.lengths))
    return cands, rows, links


def ranked_units(index: RootIndex, question: str, limit: int, checkpoint: Callable[[], None] = lambda: None) -> list[tuple[float, Unit]]:
    """The `limit` candidates the learned ranking judges most likely needed for `question`, with
    their probabilities, best first: explore's judgement for another engine (distill's question
    scenario seeds from it)."""
    with no_cyclic_gc(), _read_priors(index):
        req = ExploreRequest(question, 28_000)
        f = understand(index, req, checkpoint)
        cands, rows, links = candidate_table(index, req, f)
        ranked = sorted(zip(ranker.model().rank(rows, links), cands), key=lambda t: (-t[0], t[1].id))
    return ranked[:limit]


def explore(index: RootIndex, req: ExploreRequest, checkpoint: Callable[[], None]) -> dict:
    """The stages in order: what the question means and the flow that answers it, the
    candidates and their learned ranking, each file's mode (the gate), what fills the budget.

    The cyclic GC waits until the answer is made, as distill's does: a question allocates tens
    of thousands of short-lived containers over a heap of the index's tables and caches (half a
    million tracked objects on Django), and a full collection, which growing caches trigger now
    and then, walks all of it. Reference counting still frees everything; cycles wait until the
    request is answered."""
    with no_cyclic_gc(), _read_priors(index):
        return _explore(index, req, checkpoint)


def _read_priors(index: RootIndex):
    """The path prior reads what the index knows beyond a path (`prior.read_priors`): the files whose
    head says they are platform variants, and which modules named like test support are test support
    by their imports (`graph/support.py`)."""
    def build() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        table = support_modules(index)
        return frozenset(p for p, f in index.files.items() if f.platform_variant), table.support, table.named - table.support

    variants, support, library = per_version(derived(index), "read priors", build)
    return read_priors(variants, support, library)


def _explore(index: RootIndex, req: ExploreRequest, checkpoint: Callable[[], None]) -> dict:
    started = time.perf_counter()
    f = understand(index, req, checkpoint)
    d, q, flow, excluded = f.d, f.q, f.flow, f.excluded
    cands, rows, links = candidate_table(index, req, f)
    checkpoint()
    score: dict[str, float] = defaultdict(float)
    for u, p in zip(cands, ranker.model().rank(rows, links)):
        score[u.id] = p
    wired = f.wired
    plans = _file_plans(index, q, req, score, excluded, wired)
    # a family member the ranking judges likely needed keeps its body like a member the flow names
    likely_needed = {uid for uid, p in score.items() if p >= FAMILY_KEEP_P}
    likely_needed |= _standing_out(d, index, score)
    wanted = _wanted_in_family(index, d, flow, {u.id for u in f.strong}, f.seeds) | _the_named_variant(index, d, f.strong) | likely_needed
    distinct = _members_named_by_words(index, d, q, flow)
    _gate(index, d, q, req, plans, flow, wanted | distinct, wired, distinct)
    # what the flow or the question itself points at; any other body is only near them
    pointed = {h.src.id for h in flow.hops} | {h.dst.id for h in flow.hops} | flow.spine | f.data_steps | wired | {u.id for u in f.endpoints}
    strong = f.strong
    # a unit whose whole name the question spells out in words ("draw shapes" → `drawShapes`) is
    # named as surely as in code form
    phrases = set(question_phrases(q.text))
    spelled = {u.id for u in cands if u.is_callable and len(split_words(u.name)) >= 2 and "".join(split_words(u.name)) in phrases}
    spelled |= _named_types_best_member(q, cands, score)
    # a family's interchangeable members show signatures unless the flow runs through them or
    # the question singles them out: their bodies would ride along as near-duplicates
    units = index.resolver.units
    # ...and a member of a type the question names is the variant asked about, not a sibling
    named_types = _named_compound_types(q)
    siblings = ({uid for uid in score if uid in units and units[uid].parent not in named_types and _interchangeable(d, units[uid])}) - flow.spine - distinct - {u.id for u in strong} - likely_needed
    return _answer(index, req, plans, flow, score, {u.id for u in strong} | spelled, checkpoint, started, {u.id for u in strong + f.weak}, pointed, {u.id for u in q.named_units() if u.is_type}, siblings)


def _named_compound_types(q) -> set[str]:
    """Types the question names by a compound identifier (`KotlinJsonAdapterFactory`, `http.Server`):
    a capitalized word alone ("Request", the project's own name) is as often prose for a hub type."""
    return {u.id for token, us in q.named.items() if re.search(r"[._:#$]|[a-z][A-Z]", token) for u in us if u.is_type}


def _named_types_best_member(q, cands: list[Unit], score: dict[str, float]) -> set[str]:
    """The likeliest callable with a body of each type the question names in code form: a
    type's own lines are its header, the work it was named for is in a member."""
    types = _named_compound_types(q)
    best: dict[str, tuple[float, str]] = {}
    for u in cands:
        if u.parent in types and u.is_callable and not bodiless(u):
            p = score.get(u.id, 0.0)
            if p > best.get(u.parent, (0.0, ""))[0]:
                best[u.parent] = (p, u.id)
    return {uid for _, uid in best.values()}


def _standing_out(d: Derived, index: RootIndex, score: dict[str, float]) -> set[str]:
    """Family members among the ranking's FAMILY_KEEP_TOP best units whose member stands out in its
    family: its best unit rated at least FAMILY_STANDOUT times the next member's (a member the
    ranking never met counts as 0). That member is the variant the question describes, even when
    it names nothing and the flow passes it by; where no member stands out they are look-alikes,
    and stay skeletons."""
    units = index.resolver.units
    best: dict[str, float] = {}  # family member (a type) → its best unit's probability
    members: dict[str, set[str]] = defaultdict(set)  # family (its supertype) → the members met
    owner_of: dict[str, str] = {}
    for uid, p in score.items():
        u = units.get(uid)
        if u is None or not _interchangeable(d, u):
            continue
        owner = owner_of[uid] = u.id if u.is_type else (u.parent or "")
        best[owner] = max(best.get(owner, 0.0), p)
        for key, _ in d.supers.get(owner, []):
            members[key].add(owner)
    standing_out: set[str] = set()
    for owners in members.values():
        (p1, first), *rest = sorted(((best[o], o) for o in owners), reverse=True)
        if p1 >= FAMILY_STANDOUT * (rest[0][0] if rest else 0.0):
            standing_out.add(first)
    top = sorted(score, key=lambda uid: (-score[uid], uid))[:FAMILY_KEEP_TOP]
    return {uid for uid in top if uid in owner_of and owner_of[uid] in standing_out}


def question_phrases(text: str) -> list[str]:
    return features.phrases_of([w.lower() for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() not in STOP])


def _lexical(d: Derived, q, req: ExploreRequest, excluded) -> list[tuple[float, str]]:
    """BM25 over every unit, discounted off the main path, tests left out."""

    def weight(u: Unit) -> float:
        return 0.0 if excluded(u.path) or (not req.include_tests and in_test_module(u)) else path_prior(u.path)

    # the weight depends on the unit and on whether tests are asked for, nothing else
    return d.words.weighted(q.words, ("lexical", req.include_tests), weight)


def _seeds(d: Derived, q, req: ExploreRequest, excluded, lexical: list[tuple[float, str]] | None = None) -> tuple[dict[str, float], list[tuple[float, str]]]:
    """Named symbols dominate, then plain words that equal a name, then BM25 word matches
    (discounted off the main path); returns the seeds and the WORD_SEEDS best word matches."""
    seeds: dict[str, float] = {}
    for units_ in q.named.values():
        weight = 1.0 / max(1, len(units_)) ** 0.5  # `as_sql` with 100 definitions names none of them strongly
        for u in units_:
            if not excluded(u.path):
                seeds[u.id] = max(seeds.get(u.id, 0.0), weight)
    for units in q.weak.values():
        for u in units[:25]:
            if not excluded(u.path):
                seeds[u.id] = max(seeds.get(u.id, 0.0), 0.5 / max(1, len(units)) ** 0.5)
    top_words = heapq.nlargest(WORD_SEEDS, lexical if lexical is not None else _lexical(d, q, req, excluded))  # = sorted(…, reverse=True)[:WORD_SEEDS]
    best_word = top_words[0][0] if top_words else 1.0
    for s, uid in top_words:
        seeds[uid] = max(seeds.get(uid, 0.0), 0.3 * s / best_word)
    return seeds, top_words


def _endpoints(index: RootIndex, d: Derived, q, top_words, excluded) -> list[Unit]:
    """The units the question points at: named symbols, plain words with few definitions, a
    named type's members its words mention ("iterate over a QuerySet" → QuerySet.__iter__);
    the best word matches when nothing is named."""
    endpoints = q.named_units()
    endpoints += [u for units in q.weak.values() for u in units if q.name_counts.get(u.name, len(units)) <= 3]
    for t in [u for u in q.named_units() if u.is_type]:
        for name, members in index.resolver.members_of(t).items():
            endpoints += [m for m in members if m.is_callable and name in q.weak]
    if not endpoints:
        best = [d.words.units[uid] for _, uid in top_words[:3] if d.words.units[uid].is_callable and not bodiless(d.words.units[uid])]
        endpoints = [_base_method(index, d, u) or u for u in best]
    return [u for u in dict((u.id, u) for u in endpoints).values() if not excluded(u.path)]


def _file_plans(index: RootIndex, q, req: ExploreRequest, score: dict[str, float], excluded, wired: set[str] = frozenset()) -> list[FilePlan]:
    """Scored units grouped by file, the MAX_CANDIDATES most relevant files first."""
    units = index.resolver.units
    # a module variable the question names is shown like a definition, and so is the wiring of the flow
    named = {u.id for u in q.named_units()} | wired
    by_file: dict[str, list[tuple[float, Unit]]] = defaultdict(list)
    for uid, s in score.items():
        u = units.get(uid)
        if u is None or (u.kind == "statement" and uid not in named) or excluded(u.path) or s <= 0 or (not req.include_tests and in_test_module(u)):
            continue
        by_file[u.path].append((s, u))
    for path in q.paths:
        if not excluded(path):
            by_file.setdefault(path, [])
    plans: list[FilePlan] = []
    for path, scored in by_file.items():
        scored.sort(key=lambda t: (-t[0], t[1].start_line))
        best = scored[0][0] if scored else 3.0
        plans.append(FilePlan(path, best + 0.25 * sum(s for s, _ in scored[1:4]), scored))
    plans.sort(key=lambda p: (-p.score, p.path))
    # no floor relative to the best file: the probabilities are calibrated, so a needed body may
    # score far below the best one, and budget left unused while a candidate waits helps no one
    return plans[:MAX_CANDIDATES] + [p for p in plans[MAX_CANDIDATES:] if p.path in q.paths]


def _answer(index: RootIndex, req: ExploreRequest, plans: list[FilePlan], flow: Flow, score, strong_ids: set[str], checkpoint, started: float, anchor_ids: set[str] = frozenset(), pointed: set[str] = frozenset(), named_types: set[str] = frozenset(), siblings: set[str] = frozenset()) -> dict:
    """Pack within the budget (pack.py): spine bodies first, then by relevance; render."""
    b = req.max_output_chars
    # at small budgets the listing and the footer shrink first: a named symbol's body is the answer
    footer_reserve = min(FOOTER_RESERVE, b // 10)
    flow_text = _render_flow(flow, index, max(int(FLOW_SHARE * b), min(FLOW_MIN, b // 5)), strong_ids)
    views: dict[str, FileView] = {}
    pieces: list[Piece] = []
    spine_pos = _spine_positions(flow)
    on_hops = {h.src.id for h in flow.hops} | {h.dst.id for h in flow.hops}
    for plan in plans:
        facts = index.files[plan.path]
        views[plan.path] = file_view(plan.path, plan.mode, plan.reason, plan.score, index.sources.get(plan.path, b""), list(facts.units))
        views[plan.path].sibling = plan.sibling
        views[plan.path].trait_impls = frozenset(s.unit for s in facts.supertypes if s.kind == "implements")
        if plan.mode == "skeleton":
            continue
        scored = {u.id: (s, u) for s, u in plan.units}
        for u in facts.units:
            if (u.id in plan.must or u.id in plan.keep) and u.id not in scored:
                scored[u.id] = (score.get(u.id, 0.0), u)
        for uid, (s, u) in scored.items():
            if (u.kind == "statement" and uid not in plan.must and uid not in on_hops) or (plan.mode == "focused" and uid in plan.hide):
                continue
            if uid in siblings and uid not in plan.must and uid not in plan.keep:
                continue
            pieces.append(Piece(u, plan.path, s, spine_pos.get(uid, -1), uid in plan.must or uid in plan.keep, uid in strong_ids))
    call_sites: dict[str, list[int]] = defaultdict(list)
    for hop in flow.hops:
        call_sites[hop.src.id].append(hop.line)
    shown, left_out = pack(views, pieces, call_sites, req.max_output_chars - len(flow_text) - footer_reserve, checkpoint, ranker.model().alpha, req.query)
    by_path = {p.path: p for p in plans}
    files_out = [{"path": v.path, "mode": _shown_mode(v), "reason": _shown_reason(v, by_path[v.path]), "chars": len(v.text), "symbols": v.symbols} for v in shown]
    shown_paths = {v.path for v in shown}
    unshown = [p for p in plans if p.path not in shown_paths]
    # a file left out whose flow bodies the footer names is named by them; the others by their path
    # (a flow file none of whose bodies the footer names, a trait's bodiless declarations, by its path)
    named = set(left_out)
    crowded = [p.path for p in unshown if views[p.path].crowded
               and not (p.must and any(u.qualname in named for u in index.files[p.path].units))]
    body = flow_text + "".join(v.text for v in shown)
    expected = expected_recall(index, score, shown)
    idle = sum(1 for p in unshown if not views[p.path].crowded)
    room = req.max_output_chars - len(body)
    footer = _footer(left_out, crowded, idle, req.max_output_chars, room)
    # a doubt shares the footer's reserved room (never the bodies'): the footer shrinks for it,
    # but an account of what was left out is never dropped for it
    hint = _low_confidence(expected)
    if hint and len(footer) + len(hint) > room:
        shorter = _footer(left_out, crowded, idle, req.max_output_chars, room - len(hint)) if len(hint) <= room else ""
        if shorter or not footer:
            footer = shorter
        else:
            hint = ""
    if len(footer) + len(hint) > room:
        hint = ""
    text = body + footer + hint
    return {
        "text": text,
        "flow": _flow_list(flow),
        # the hops as data, so clients link without parsing the markdown: how = "resolved",
        # "nested" or the likely rule's name
        "hops": [
            {"from": h.src.qualname, "to": h.dst.qualname, "path": h.src.path, "line": h.line, "how": h.how, "core": h.src.id in flow.spine and h.dst.id in flow.spine}
            for h in flow.hops
        ],
        "files": files_out,
        "stats": {
            "chars": len(text),
            "budget": req.max_output_chars,
            "candidates": len(plans),
            "skeletonized": sum(1 for f in files_out if f["mode"] == "skeleton"),
            "dropped": sum(1 for p in plans if p.path not in shown_paths),
            "elapsedMs": round((time.perf_counter() - started) * 1000, 1),
            "indexVersion": index.version,
            "adaptive": req.adaptive,
            "expectedRecall": round(expected, 2),
        },
    }


# what the needed units must show of their lines to count as shown, as the development set's scorer counts
SHOWN_FULL = 0.9


def expected_recall(index: RootIndex, score: dict[str, float], shown: list[FileView]) -> float:
    """The ranking's own estimate of the share of the code the question needs that the answer
    shows in full: the probabilities of the candidates shown whole over all candidates'. The
    probabilities are calibrated (a pointwise fit, classes not re-balanced), so the sum is an
    expected count of needed units. Leave-one-corpus-out on the fit split it correlates 0.62 / 0.65
    (as written / in plain words) with the scorer's recall (docs/explore.md, "How sure the answer is")."""
    total = sum(score.values())
    if total <= 0:
        return 0.0
    ranges = {v.path: merge_ranges(v.ranges, CLUSTER_GAP) for v in shown}
    units = index.resolver.units
    got = 0.0
    for uid, p in score.items():
        u = units.get(uid)
        runs = ranges.get(u.path) if u is not None else None
        if runs:
            lines = sum(max(0, min(b, u.end_line) - max(a, u.start_line) + 1) for a, b in runs)
            if lines >= SHOWN_FULL * (u.end_line - u.start_line + 1):
                got += p
    return min(1.0, got / total)


LOW_CONFIDENCE = 0.4  # the lowest quarter of the fit split's answers, whose recall was as low


def _low_confidence(expected: float) -> str:
    """A line for the reader when the ranking itself doubts the answer: what would narrow it."""
    if expected >= LOW_CONFIDENCE:
        return ""
    return (f"\n_Low confidence: the ranking expects this shows about {expected:.0%} of the code the question needs; "
            "naming a function, class or file in code form, or a larger budget, narrows it._\n")


def _shown_reason(v: FileView, plan: FilePlan) -> str:
    """A file's reason as the answer gives it: `related:` names its best unit the answer shows (the
    best of all may have been too long to fit; `related:HTTPAdapter.send` over a section showing
    `BaseAdapter.close` named a body the reader cannot find)."""
    if not v.reason.startswith("related:") or v.mode == "full":
        return v.reason
    shown = {s.removesuffix(EXCERPT).split("@")[0] for s in v.symbols}
    best = next((u.qualname for _, u in plan.units if u.qualname in shown), None)
    return f"related:{best}" if best else v.reason


def _footer(bodies: list[str], files: list[str], idle: int, budget: int, room: int) -> str:
    """The "Left out" line: the flow bodies that did not fit, then the other files that did not,
    and how many candidate files held no body to add (their units filtered out: module statements
    off the flow, a family's look-alike members, constructors that only store their parameters),
    so the line accounts for every file `stats.dropped` counts. The longest form that fits in
    `room`, down to counts alone."""
    idle_said = f"{idle} {'other ' if bodies or files else ''}candidate file{'s' if idle != 1 else ''} held no body to add." if idle else ""
    if not (bodies or files):
        text = f"\n_{idle_said}_\n" if idle else ""
        return text if len(text) <= room else ""

    def form(names: int, paths: int) -> str:
        parts = []
        if bodies:
            listed = ", ".join(f"`{n}`" for n in bodies[:names])
            more = len(bodies) - min(names, len(bodies))
            parts.append(f"{listed} and {more} more" if listed and more else listed or f"{len(bodies)} flow bod{'ies' if len(bodies) != 1 else 'y'}")
        if files:
            listed = ", ".join(files[:paths])
            more = len(files) - min(paths, len(files))
            kind = f"{len(files)} less related file{'s' if len(files) != 1 else ''}"
            parts.append(f"{kind}: {listed}" + (f" and {more} more" if more else "") if listed else kind)
        return f"\n_Left out to stay within {budget:,} characters: {'; '.join(parts)}.{' ' + idle_said if idle_said else ''}_\n"

    for names, paths in ((8, 3), (4, 1), (0, 0)):
        text = form(names, paths)
        if len(text) <= room:
            return text
    return ""


MAX_ANCHORS = 6


RELEVANT_TARGETS = 25  # the best text matches a connecting path may join to the flow


WORD_FAMILY_WINDOW = 10  # the best word matches looked at for one method matched across a family


WORD_ANCHORS = 2  # the best text matches join the named symbols as anchors


def _anchors(index: RootIndex, endpoints: list[Unit], named: set[str], ambiguity: dict[str, int], top_words, d: Derived, excluded) -> tuple[list[Unit], list[Unit]]:
    """What the question means, in the order it says it: the specific symbols it names in
    code form (at most three definitions), then plain words that equal a name and the
    callables that best match its words."""
    # a plain English word that happens to name a unit ("end", "run") is no anchor
    specific = [u for u in endpoints if ambiguity.get(u.id, 1) <= 3 and (u.is_callable or u.is_type) and (u.id in named or looks_like_code(u.name))]
    strong = [u for u in specific if u.id in named][:MAX_ANCHORS]
    # a declaration without a body (an interface's or abstract method) matches its words by its
    # name alone and calls nothing: the flow starts at code that runs
    words = [d.words.units[uid] for _, uid in top_words
             if d.words.units[uid].is_callable and not bodiless(d.words.units[uid]) and not excluded(d.words.units[uid].path)]
    # when the words match one method across a family (every converter's `convert`), any one
    # member is a sibling, not where the flow starts
    crowded = _crowded(d, words)
    words = [u for u in words if not crowded(u)]
    # one member of a family matched by the words of the family's job ("where does the storage
    # save a report") stands for the family: the base's own method is where that job is done
    words = [_base_method(index, d, u) or u for u in words]
    weak = [u for u in specific if u.id not in named] + words[: WORD_ANCHORS + (0 if strong else 2)]
    return strong, list(dict((u.id, u) for u in weak).values())


def _base_method(index: RootIndex, d: Derived, u: Unit) -> Unit | None:
    """The same-named method with a body on a supertype of a family member's type (a type whose
    supertype has MIN_SIBLINGS or more implementers); None when the member is no family's."""
    if not u.parent or not _interchangeable(d, u):
        return None
    for key, _ in d.supers.get(u.parent, []):
        if family_size(d, key) < MIN_SIBLINGS or key not in index.resolver.units:
            continue
        for m in index.resolver.members_of(index.resolver.units[key]).get(u.name, ()):
            if m.is_callable and not bodiless(m):
                return m
    return None


def _crowded(d: Derived, words: list[Unit]) -> Callable[[Unit], bool]:
    """Whether a unit is one of a family's members whose same method the best word matches
    hit three or more times: the words describe the family's method, not this member."""
    same_method = Counter((u.name, key) for u in words[:WORD_FAMILY_WINDOW] for key, _ in d.supers.get(u.parent or "", []))
    crowd = {k for k, n in same_method.items() if n >= MIN_SIBLINGS}
    return lambda u: bool(crowd) and any((u.name, key) in crowd for key, _ in d.supers.get(u.parent or "", []))


def _spine_positions(flow: Flow) -> dict[str, int]:
    pos: dict[str, int] = {}
    for hop in flow.hops:
        for u in (hop.src, hop.dst):
            pos.setdefault(u.id, len(pos))
    for uid in sorted(flow.spine):
        pos.setdefault(uid, len(pos))
    return pos


def _spine_depths(flow: Flow, anchors: set[str]) -> dict[str, int]:
    """Hops along the core's own hops from where the flow enters or from a unit the question
    points at: when the spine overflows the budget, those steps are what a reader follows first."""
    below: dict[str, list[str]] = defaultdict(list)
    called: set[str] = set()
    for h in flow.hops:
        # a door above the entry (`__call__` → `wsgi_app`) adds no depth: the entry stays the top
        if h.src.id in flow.spine and h.dst.id in flow.spine and h.src.id != h.dst.id and h.src.id not in flow.doors:
            below[h.src.id].append(h.dst.id)
            called.add(h.dst.id)
    depth = {uid: 0 for uid in flow.spine if uid not in called or uid in anchors}
    frontier = sorted(depth)
    while frontier:
        nxt = []
        for uid in frontier:
            for v in below[uid]:
                if v not in depth:
                    depth[v] = depth[uid] + 1
                    nxt.append(v)
        frontier = nxt
    return depth


def _shown_mode(v: FileView) -> str:
    return v.mode if v.mode in ("full", "skeleton") else v.label()


# the flow listing may take this share of the budget (at least FLOW_MIN chars); past it the periphery's
# hops go first. Chosen end to end over 0.02-0.08 on the held-out sets (docs/explore.md, Results)
FLOW_SHARE = 0.03


FLOW_MIN = 600  # at most a fifth of a small budget
FOOTER_RESERVE = 400  # the "Left out" line's room, at most a tenth of a small budget


def _render_flow(flow: Flow, index: RootIndex, cap: int, named: set[str] = frozenset()) -> str:
    """The hops in flow order, each with its call site and, when not proven, the rule that
    proposed it. Past the cap, the hops from units that no hop of the core links to a symbol the
    question names go first (a word match's side chain; last first), then the least likely
    periphery hops."""
    hops = _once_per_call(_without_lifted_twins(flow.hops, index.resolver.units))
    built = _constructions(index, hops)
    said = {id(h): _hop_words(h, (h.src.path, h.line, h.dst.id) in built) for h in hops}  # each hop's line after its number, formatted once
    text = _render_flow_hops(flow, hops, said)
    if len(text) <= cap or not hops:
        return text if len(text) <= cap else ""
    linked = _linked_to_named([h for h in flow.hops if h.src.id in flow.spine and h.dst.id in flow.spine], named)
    victims = _cut_order(flow, hops, linked)
    # the listing's length as hops leave, counted rather than rendered (a flow can hold thousands of
    # hops): "## Flow", a blank line, "N. <hop>" per hop, the count of those left out, two newlines
    kept_words = sum(len(said[id(h)]) for h in hops)
    numbers = [0]
    for n in range(1, len(hops) + 1):
        numbers.append(numbers[-1] + len(str(n)) + 2)
    cut: set[str] = set()  # why hops were cut, for the line that counts them
    gone: set[int] = set()
    why = ""
    for k, (victim, reason) in enumerate(victims, 1):
        cut.add(reason)
        gone.add(id(victim))
        kept_words -= len(said[id(victim)])
        m = len(hops) - k
        why = "more" if "later" in cut else " or ".join(w for w in ("less likely", "side-chain") if w in cut)
        if m == 0:
            break
        footer = f"(and {k} {why} hops)"
        # m + 3 lines joined by m + 2 newlines, then the closing two
        if len("## Flow") + numbers[m] + kept_words + len(footer) + (m + 2) + 2 <= cap:
            break
    left = [h for h in hops if id(h) not in gone]
    text = _render_flow_hops(flow, left, said, len(gone), why)
    return text if len(text) <= cap else ""


def _cut_order(flow: Flow, hops: list, linked: set[str] | None) -> list[tuple[object, str]]:
    """The order hops leave a listing past its cap, each with why: the hops from units that no hop
    of the core links to a symbol the question names (a word match's side chain; last first), then
    the least likely periphery hops (the earlier first on a tie), then the core's own last hops."""
    apart = [h for h in hops if linked is not None and h.src.id not in linked]
    out = [(h, "side-chain") for h in reversed(apart)]
    away = {id(h) for h in apart}
    rest = [(n, h) for n, h in enumerate(hops) if id(h) not in away]
    periphery = [(n, h) for n, h in rest if h.dst.id not in flow.spine or h.src.id not in flow.spine]
    out += [(h, "less likely") for _, h in sorted(periphery, key=lambda p: (flow.periphery.get(p[1].dst.id, flow.periphery.get(p[1].src.id, 0.0)), p[0]))]
    away |= {id(h) for _, h in periphery}
    out += [(h, "later") for _, h in reversed([(n, h) for n, h in rest if id(h) not in away])]
    return out


def _without_lifted_twins(hops, units: dict) -> list:
    """The hops, less those a nested callable's own hop repeats: a call inside a closure counts for
    its enclosing callable too (the ranked graph lifts it), so `outer → ok` and `outer.inner → ok`
    name one call site; the listing shows it once, where it is written. The JSON keeps both."""
    callers: dict[tuple[str, int], set[str]] = defaultdict(set)  # (callee, line) → the hops' callers
    for h in hops:
        callers[(h.dst.id, h.line)].add(h.src.id)

    def lifted(h) -> bool:
        for src in callers[(h.dst.id, h.line)] - {h.src.id}:
            parent = units[src].parent if src in units else None
            while parent is not None:
                if parent == h.src.id:
                    return True
                parent = units[parent].parent if parent in units else None
        return False

    return [h for h in hops if not lifted(h)]


def _once_per_call(hops) -> list:
    """The hops, one per (caller, callee name, line): a call to an overloaded name (`compile` and its
    two `@overload` declarations, a getter and its setter) is one call site, listed once, where
    its first hop stands, as a proven hop when one of them is proven. The JSON keeps them all."""
    best: dict[tuple[str, str, int], object] = {}
    for h in hops:
        key = (h.src.qualname, h.dst.qualname, h.line)
        if key not in best or (best[key].how not in HOW and h.how in HOW):
            best[key] = h
    kept = {id(h) for h in best.values()}
    firsts = {(h.src.qualname, h.dst.qualname, h.line): n for n, h in reversed(list(enumerate(hops)))}
    return sorted((h for h in hops if id(h) in kept), key=lambda h: firsts[(h.src.qualname, h.dst.qualname, h.line)])


def _constructions(index: RootIndex, hops) -> set[tuple[str, int, str]]:
    """(path, line, callee id) of the proven hops that build their callee rather than call it (a Go
    composite literal `&Log{…}`, a Rust struct literal, `new T(…)`, Python's `T(…)`): the resolver
    files those as `constructs` edges to the type; a hop to the type's constructor stands for one."""
    sites: dict[str, dict[tuple[int, str], set[str]]] = defaultdict(lambda: defaultdict(set))  # path → (line, edge target) → hop callees
    for h in hops:
        if h.how == "resolved":
            sites[h.src.path][(h.line, h.dst.id)].add(h.dst.id)
            if h.dst.parent and (h.dst.kind == "constructor" or h.dst.name in ("__init__", "constructor")):
                sites[h.src.path][(h.line, h.dst.parent)].add(h.dst.id)
    built: set[tuple[str, int, str]] = set()
    for path, wanted in sites.items():
        bindings = index.bindings.get(path)
        for e in bindings.edges if bindings is not None else ():
            if e.kind == "constructs" and (e.line, e.dst) in wanted:
                built |= {(path, e.line, callee) for callee in wanted[(e.line, e.dst)]}
    return built


def _linked_to_named(hops, named: set[str]) -> set[str] | None:
    """The units these hops link, either way, to a unit the question names; None when no hop
    touches one (then no hop is apart)."""
    nbrs: dict[str, set[str]] = defaultdict(set)
    for h in hops:
        nbrs[h.src.id].add(h.dst.id)
        nbrs[h.dst.id].add(h.src.id)
    seen = {uid for uid in named if uid in nbrs}
    if not seen:
        return None
    frontier = list(seen)
    while frontier:
        for v in nbrs[frontier.pop()] - seen:
            seen.add(v)
            frontier.append(v)
    return seen


HOW = {"resolved": "", "nested": ""}  # any other: a likely rule, said in words


def _hop_words(hop, built: bool = False) -> str:
    how = HOW.get(hop.how, f" (likely: {RULE_WORDS.get(hop.how, hop.how)})")
    # a callable defined inside its caller is no call: the line is where it is defined; a
    # struct or composite literal is no call either: the line builds a value of the type
    verb = "defined inside it at" if hop.how == "nested" else "constructed at" if built else "called at"
    return f"`{hop.src.qualname}` → `{hop.dst.qualname}` — {verb} {hop.src.path}:{hop.line}{how}"


def _render_flow_hops(flow: Flow, hops: list, said: dict[int, str], left_out: int = 0, why: str = "less likely") -> str:
    if not hops:
        if flow.entry:
            u = flow.entry[0]
            return f"## Flow\n\nNo call path was traced between the named symbols; entry: `{u.qualname}` — {u.path}:{u.name_line}\n\n"
        return "## Flow\n\nNo named symbol matched; files are ranked by relevance to the question.\n\n"
    lines = ["## Flow", ""]
    for n, hop in enumerate(hops, 1):
        lines.append(f"{n}. {said[id(hop)]}")
    if left_out:
        lines.append(f"(and {left_out} {why} hops)")
    return "\n".join(lines) + "\n\n"


def _flow_list(flow: Flow) -> list[dict]:
    out: list[dict] = []
    seen: set[str] = set()
    for hop in flow.hops:
        for u in (hop.src, hop.dst):
            if u.id not in seen:
                seen.add(u.id)
                out.append({"symbol": u.qualname, "path": u.path, "line": u.name_line})
    if not out and flow.entry:
        u = flow.entry[0]
        out.append({"symbol": u.qualname, "path": u.path, "line": u.name_line})
    return out


__all__ = ["explore"]
