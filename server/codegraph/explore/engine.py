"""codegraph/explore: rank, trace the flow, gate each file's mode, render within the budget.

The gate (explore.md): a file becomes a skeleton only when a named flow exists, no symbol of
the file is on the spine, a class in it extends/implements a supertype with at least
MIN_SIBLINGS implementers, and it is not spared (a near-unique named callable spares it,
unless the file itself defines such a supertype: the family file, which is focused).
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Callable

from ..graph.likely import CTOR_NAMES, likely_graph
from ..index.facts import Unit
from ..index.index import RootIndex
from ..languages import BY_NAME
from ..languages.spec import last_segment
from ..workspace.scope import is_test_path
from .flow import _THROWN, DISPATCH_RULES, NAMED_VARIANT, Flow, find_flow
from . import features, ranker
from .model import ExploreRequest
from .pack import FileView, Piece, file_view, pack
from .relevance import NameTable, WordIndex, in_test_module, looks_like_code, parse_query, path_prior, rank_on_ranked_graph, split_words, stem, STOP

MIN_SIBLINGS = 3
WHOLE_FILE_LINES = 220
NEAR_UNIQUE = 2  # a named callable with at most this many definitions spares its file
MAX_CANDIDATES = 40
VARIANT_DEPTH = 2  # levels of family members built by a named type, then by those
MAX_VARIANT_TYPES = 3
MAX_DATA_READERS = 4  # a data name more callables mention is too common to point anywhere
MIN_WIRED_NAMES = 3  # a registration naming this many of the flow's callables wires them
WORD_SEEDS = 80  # the best word matches that seed the ranking (weakly: 0.3 × their share of the best)


@dataclass
class Derived:
    """Per-version tables explore reads; rebuilt only when the index version changes."""

    version: int
    names: NameTable
    words: WordIndex
    implementers: dict[str, set[str]]  # resolved supertype id → implementer type ids
    supers: dict[str, list[tuple[str, str]]]  # type id → [(supertype id, display name)]
    # top-level function id → the size of its shape family (same parameter and return types,
    # SHAPE_FAMILY_MIN or more across SHAPE_FAMILY_FILES files): Go middleware, operator functions
    shape_family: dict[str, int] = field(default_factory=dict)
    # module-level registration statements → the identifiers they spell as strings (`delegate(…)
    # .access('body')`): read by `_wiring`
    registrations: dict[str, frozenset[str]] = field(default_factory=dict)


_tables_lock = threading.Lock()  # one builder at a time: the LSP prebuilds while a question may arrive


def derived(index: RootIndex) -> Derived:
    # Kept on the index itself: keyed by id(index) in a module dict it outlived the index and
    # could answer for a new index that got the same id at the same version number.
    hit = index.memo.get("explore")
    if hit is not None and hit.version == index.version:
        return hit
    with _tables_lock:
        hit = index.memo.get("explore")
        if hit is not None and hit.version == index.version:
            return hit
        return _build_derived(index)


def _build_derived(index: RootIndex) -> Derived:
    names = NameTable(index.files)
    units = index.resolver.units
    # a test's fake is no sibling a reader meets: families count the code's own implementations
    implementers = {k: {x for x in v if x in units and not is_test_path(units[x].path)} for k, v in index.graph.implementers().items()}
    for proto, impls in _structural_implementers(index).items():
        implementers.setdefault(proto, set()).update(impls)
    supers: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for dst, srcs in implementers.items():
        for src in srcs:
            supers[src].append((dst, units[dst].name if dst in units else dst))
    # Only resolved edges to definitions in scope form families: `Exception`, `str` or a
    # framework base outside the workspace never make their subclasses interchangeable siblings.
    d = Derived(index.version, names, WordIndex(index.files, index.sources), implementers, supers, _shape_families(index), _registrations(index))
    index.memo["explore"] = d
    return d


STRUCTURAL_BASES = frozenset({"Protocol"})  # a class listing methods that others implement without naming it


def _structural_implementers(index: RootIndex) -> dict[str, set[str]]:
    """Protocol id → the classes that define every public method it lists (`typing.Protocol`
    is implemented by shape, not by declaration: no `implements` edge names it)."""
    units = index.resolver.units
    owners_of: dict[str, set[str]] = defaultdict(set)  # method name → ids of the classes defining it
    protocols: list[Unit] = []
    for facts in index.files.values():
        bases = {s.unit for s in facts.supertypes if last_segment(s.text) in STRUCTURAL_BASES}
        for u in facts.units:
            if u.kind == "method" and u.parent:
                owners_of[u.name].add(u.parent)
            elif u.id in bases:
                protocols.append(u)
    out: dict[str, set[str]] = {}
    for proto in protocols:
        wanted = [name for name in index.resolver.members_of(proto) if not name.startswith("_")]
        if not wanted:
            continue
        impls = set.intersection(*(owners_of.get(name, set()) for name in wanted)) - {proto.id}
        impls = {uid for uid in impls if uid in units and units[uid].kind == "class" and not is_test_path(units[uid].path)}
        if len(impls) >= MIN_SIBLINGS:
            out[proto.id] = impls
    return out


SHAPE_FAMILY_MIN = 4
# values and containers of them say nothing about a function's role
PRIMITIVE_TYPES = frozenset(
    "str int float bool bytes None Any object dict list tuple set frozenset Optional Union List Dict Set Tuple Iterable Iterator "
    "Sequence Mapping Callable Generator string number boolean void any unknown never Array Record Map Promise error byte rune "
    "uint uint8 uint16 uint32 uint64 int8 int16 int32 int64 float32 float64 usize isize u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 "
    "Vec Option Result Box String Int Long Boolean Double Float Unit Object Integer".split()
)


def _base_type(text: str) -> str:
    """`list[str]` → list, `Promise<T>` → Promise, `*http.Handler` → http.Handler."""
    return text.lstrip("*&").split("[", 1)[0].split("<", 1)[0].strip()
SHAPE_FAMILY_FILES = 3


def _shape_families(index: RootIndex) -> dict[str, int]:
    """Interchangeable functions without a declared family: top-level functions of one shape
    that wrap what they take (`func X(next http.Handler) http.Handler`), spread over several
    files. Structural typing has no `implements` to find them by."""
    by_shape: dict[tuple, list[Unit]] = defaultdict(list)
    for facts in index.files.values():
        for u in facts.units:
            # one shape: the same parameter types and a returned type that is not a primitive
            if u.kind == "function" and u.parent is None and u.returns and any(u.param_types) and _base_type(u.returns) not in PRIMITIVE_TYPES:
                by_shape[(facts.language, u.param_types, u.returns)].append(u)
    out: dict[str, int] = {}
    for members in by_shape.values():
        if len(members) >= SHAPE_FAMILY_MIN and len({u.path for u in members}) >= SHAPE_FAMILY_FILES:
            for u in members:
                out[u.id] = len(members)
    return out


def _interchangeable(d: Derived, u: Unit) -> bool:
    """One of a family's members: a shape-family function, or a method or type whose type
    extends a supertype with MIN_SIBLINGS or more implementers."""
    if u.id in d.shape_family:
        return True
    owner = u.id if u.is_type else u.parent
    return any(family_size(d, key) >= MIN_SIBLINGS for key, _ in d.supers.get(owner or "", []))


def family_size(d: Derived, key: str) -> int:
    return len(d.implementers.get(key, ()))


@dataclass
class FilePlan:
    path: str
    score: float
    units: list[tuple[float, Unit]] = field(default_factory=list)  # relevant units, best first
    mode: str = "bodies"  # bodies|skeleton|focused (pack.py decides which bodies, or the whole file)
    reason: str = ""
    keep: set[str] = field(default_factory=set)  # focused: units whose bodies stay, first
    hide: set[str] = field(default_factory=set)  # focused: family members shown as signatures only
    must: set[str] = field(default_factory=set)  # spine and near-unique named symbols: kept first, up to the whole budget
    sibling: bool = False  # defines a member of a family (MIN_SIBLINGS or more implementers)


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


def understand(index: RootIndex, req: ExploreRequest, checkpoint: Callable[[], None]) -> Front:
    """The stages before the ranking: what the question means, its seeds, the flow that answers it."""
    d = derived(index)
    checkpoint()
    q = parse_query(req.query, index.files, d.names)
    _members_added_at_load(index, q)
    _awaited(index, q)
    _receivers_built_by_calls(index, q, d.names)
    excluded = (lambda p: False) if req.include_tests else is_test_path
    seeds, top_words = _seeds(d, q, req, excluded)
    checkpoint()
    endpoints = _endpoints(index, d, q, top_words, excluded)
    readers = _readers_of_data_names(index, q, excluded)
    endpoints += [u for u in readers if u not in endpoints]
    for u in endpoints:
        seeds[u.id] = max(seeds.get(u.id, 0.0), 0.8)
    ranks = rank_on_ranked_graph(index.graph.g, likely_graph(index), seeds)
    top_rank = max(ranks.values()) if ranks else 1.0
    relevance = {uid: r / top_rank for uid, r in ranks.items()}
    for uid, s_ in seeds.items():
        relevance[uid] = max(relevance.get(uid, 0.0), s_)
    strong, weak = _anchors(endpoints, {u.id for u in q.named_units()}, _ambiguity(q), top_words, d, excluded)
    weak = weak + [u for u in readers if u not in weak and u not in strong]
    relevant = [d.words.units[uid] for _, uid in top_words if d.words.units[uid].is_callable][:RELEVANT_TARGETS]
    flow = find_flow(index, likely_graph(index), strong, weak, relevant, relevance, excluded, checkpoint, lambda u: _interchangeable(d, u))
    checkpoint()
    wired = _wiring(index, d, flow, excluded) | _registry_writers(index, flow) | _members_added_to_the_core(index, flow)
    data_steps = _state_writers(index, flow) | _protocols_of_classes_handed_over(index, flow)
    ranks = {uid: r / top_rank for uid, r in ranks.items()}
    return Front(d, q, excluded, seeds, top_words, endpoints, readers, ranks, strong, weak, flow, wired, data_steps, _dispatch_targets(index, d, flow))


def candidate_table(index: RootIndex, req: ExploreRequest, f: Front) -> tuple[list[Unit], list[list[float]], list[tuple[list[int], list[int]]]]:
    """The candidates, their feature rows and their links among themselves (features.py)."""
    d, q, flow = f.d, f.q, f.flow
    bm25 = {uid: s for s, uid in _lexical(d, q, req, f.excluded)}
    named: dict[str, float] = {}
    for hits in q.named.values():
        for u in hits:
            named[u.id] = max(named.get(u.id, 0.0), 1.0 / max(1, len(hits)) ** 0.5)
    units = index.resolver.units
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
    del units
    return cands, rows, links


def explore(index: RootIndex, req: ExploreRequest, checkpoint: Callable[[], None]) -> dict:
    """The stages in order: what the question means and the flow that answers it, the
    candidates and their learned ranking, each file's mode (the gate), what fills the budget."""
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
    wanted = _wanted_in_family(index, d, flow, {u.id for u in f.strong}, f.seeds) | _the_named_variant(index, d, f.strong)
    distinct = _members_named_by_words(index, d, q, flow)
    _gate(index, d, q, req, plans, flow, wanted | distinct, wired, distinct)
    # what the flow or the question itself points at; any other body is only near them
    pointed = {h.src.id for h in flow.hops} | {h.dst.id for h in flow.hops} | flow.spine | f.data_steps | wired | {u.id for u in f.endpoints}
    helpers = _helpers_of_kept(index, plans, pointed | set(flow.periphery))
    for plan in plans:
        plan.keep |= {uid for uid in helpers if uid.startswith(plan.path + "::")}
    pointed |= helpers
    strong = f.strong
    # a unit whose whole name the question spells out in words ("draw shapes" → `drawShapes`) is
    # named as surely as in code form
    phrases = set(question_phrases(q.text))
    spelled = {u.id for u in cands if u.is_callable and len(split_words(u.name)) >= 2 and "".join(split_words(u.name)) in phrases}
    # a family's interchangeable members show signatures unless the flow runs through them or
    # the question singles them out: their bodies would ride along as near-duplicates
    units = index.resolver.units
    siblings = ({uid for uid in score if uid in units and _interchangeable(d, units[uid])}) - flow.spine - distinct - {u.id for u in strong}
    return _answer(index, req, plans, flow, score, {u.id for u in strong} | spelled, checkpoint, started, {u.id for u in strong + f.weak}, pointed, {u.id for u in q.named_units() if u.is_type}, siblings)


def question_phrases(text: str) -> list[str]:
    return features.phrases_of([w.lower() for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() not in STOP])


def _lexical(d: Derived, q, req: ExploreRequest, excluded) -> list[tuple[float, str]]:
    """BM25 over every unit, discounted off the main path, tests left out."""
    bm25 = d.words.score(q.words)
    return [
        (s * path_prior(d.words.units[uid].path), uid) for uid, s in bm25.items()
        if not excluded(d.words.units[uid].path) and (req.include_tests or not in_test_module(d.words.units[uid]))
    ]


def _seeds(d: Derived, q, req: ExploreRequest, excluded) -> tuple[dict[str, float], list[tuple[float, str]]]:
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
    top_words = sorted(_lexical(d, q, req, excluded), reverse=True)[:WORD_SEEDS]
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
        endpoints = [d.words.units[uid] for _, uid in top_words[:3] if d.words.units[uid].is_callable]
    return [u for u in dict((u.id, u) for u in endpoints).values() if not excluded(u.path)]


def _readers_of_data_names(index: RootIndex, q, excluded) -> list[Unit]:
    """A name the question writes in code form that no definition has (a settings key such as
    `ITEM_PIPELINES`, a constant) is found where code spells it out: the few callables whose
    bodies mention it exactly are what reads or writes it."""
    out: list[Unit] = []
    for token in q.data_names:
        pattern = _spelled(token)
        found: dict[str, Unit] = {}
        for path, source in index.sources.items():
            if excluded(path) or token.encode() not in source or path_prior(path) < 1.0:
                continue
            units = [u for u in index.files[path].units if u.is_callable]
            for m in pattern.finditer(source):
                inner = [u for u in units if u.start_byte <= m.start() < u.end_byte]
                if inner:
                    u = max(inner, key=lambda u: u.start_byte)  # the innermost callable
                    found[u.id] = u
        if 0 < len(found) <= MAX_DATA_READERS:
            out += sorted(found.values(), key=lambda u: u.id)
    return out


def _members_added_at_load(index: RootIndex, q) -> None:
    """`axios.get(…)` where `get` is no method written in a class but one a module-level
    statement adds to `Axios` when it loads (`Axios.prototype[m] = …` for m in 'get', …): that
    statement is what the question names."""
    for token in list(q.named):
        head, _, name = token.rpartition(".")
        if not head.isidentifier() or not head[:1].islower() or len(head) < 4:
            continue
        found = []
        for path, facts in index.files.items():
            spec = BY_NAME.get(facts.language)
            if spec is None or spec.runtime_members is None:
                continue
            source = index.sources.get(path, b"")
            for u in facts.units:
                hit = spec.runtime_members.search(source, u.start_byte, u.end_byte) if u.kind == "statement" and u.parent is None else None
                if hit and hit.group(1).decode().lower().endswith(head.lower()) and _spelled(name).search(source, u.start_byte, u.end_byte):
                    found.append(u)
        if 0 < len(found) <= 3:
            q.named[token] = found


def _awaited(index: RootIndex, q) -> None:
    """`serve(make_svc).await` in the question: awaiting the call's result runs the protocol
    method of the type it returns (`Server::poll`), which the question names as much as `serve`."""
    likely = likely_graph(index)
    for token, units in list(q.named.items()):
        suffixes = {BY_NAME[index.files[u.path].language].await_suffix for u in units if u.path in index.files} - {""}
        name = re.escape(re.split(r"[.:#]+", token)[-1])
        if not any(re.search(rf"\b{name}\s*(?:\([^()]*\))?\s*{re.escape(s)}\b", q.text) for s in suffixes):
            continue
        found = {m.id: m for u in units for m in likely.returned_protocol(u)}
        if 0 < len(found) <= 3:
            q.named[token + suffixes.pop()] = list(found.values())


def _receivers_built_by_calls(index: RootIndex, q, names: NameTable) -> None:
    """`axios.get(…)` where `axios` is a module variable a call builds (`const axios =
    createInstance(defaults)`): the function that builds it is where that object comes from,
    and it stands for the receiver among the question's words."""
    likely = likely_graph(index)
    units = index.resolver.units
    for token in list(q.named):
        head = token.rpartition(".")[0]
        held = q.weak.get(head) or (names.assigned.get(head, []) if head.isidentifier() and head not in names.by_name else [])
        if not held or any(u.kind != "statement" or u.stmt_kind != "wiring" or u.parent is not None for u in held):
            continue
        builders = {e.dst: units[e.dst] for s in held for e in likely.out(s.id) if e.confidence >= 0.9 and e.dst in units and units[e.dst].is_callable}
        if 0 < len(builders) <= 2:
            q.weak[head] = sorted(builders.values(), key=lambda u: u.id)


def _spelled(name: str) -> re.Pattern[bytes]:
    """`name` as a whole identifier in source bytes (not inside a longer name)."""
    return re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")


def _ambiguity(q) -> dict[str, int]:
    """How many definitions the question's words for each unit point at (1 = exactly this one)."""
    out: dict[str, int] = {}
    for hits in list(q.named.values()) + list(q.weak.values()):
        for u in hits:
            out[u.id] = min(out.get(u.id, len(hits)), len(hits))
    return out


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
    if plans:
        floor = plans[0].score * 0.05
        plans = [p for p in plans if p.score >= floor or p.path in q.paths][:MAX_CANDIDATES]
    return plans


FAMILY_KEEP_SEED = 0.5  # how strongly the question must point at a constructed member to keep its body


def _wanted_in_family(index: RootIndex, d: Derived, flow: Flow, anchors: set[str], seeds: dict[str, float]) -> set[str]:
    """Units whose bodies a family member's file keeps: the question's own anchors, what the
    flow reaches by a call it can name, and the members the question points at of a type the
    flow itself constructs (`new OkHttpCall(…)` makes OkHttpCall.execute the `call.execute()`
    that runs). A dispatch hop counts only when it is the one implementation of an abstract
    method (`ServiceMethod.invoke` → `HttpServiceMethod.invoke`); a call that may land on
    MIN_SIBLINGS or more implementations, or on the override of a concrete base method,
    reaches interchangeable siblings. Context around the flow (callers above it, helpers below)
    stays unless it is itself a family member."""
    by_site: dict[tuple[str, int], list] = defaultdict(list)
    for h in flow.hops:
        by_site[(h.src.id, h.line)].append(h)
    alternatives: set[str] = set()
    for hops in by_site.values():
        dispatched = {h.dst.id for h in hops if h.how in DISPATCH_RULES}
        concrete_base = any(h.dst.end_line - h.dst.sig_end_line > 1 for h in hops if h.how not in DISPATCH_RULES)
        if len(dispatched) >= MIN_SIBLINGS or concrete_base:
            alternatives |= dispatched
    reached = {h.dst.id for h in flow.hops} | {h.src.id for h in flow.hops}
    units = index.resolver.units
    likely = likely_graph(index)
    built: set[str] = set()
    for uid in sorted(reached | flow.spine):
        for e in likely.out(uid):
            dst = units.get(e.dst)
            if e.rule == "resolved" and dst is not None:
                built.add(dst.parent if dst.kind == "constructor" and dst.parent else dst.id)
    pointed = {uid for uid, s in seeds.items() if s >= FAMILY_KEEP_SEED and uid in units and units[uid].parent in built}
    context = {uid for uid in flow.periphery if uid in units and not _interchangeable(d, units[uid])}
    wanted = anchors | pointed | context | {uid for uid in reached if uid not in alternatives or uid in flow.spine}
    # a body on its signature's line (a default no-op, a one-line forward) is what the focused
    # file's signatures show anyway: no reason to bring the file in
    return {uid for uid in wanted if uid in flow.spine or uid not in units or units[uid].end_line > units[uid].sig_end_line}


def _the_named_variant(index: RootIndex, d: Derived, strong: list[Unit]) -> set[str]:
    """When the question names one member of a family (`RxJava3CallAdapterFactory`, one call
    adapter factory among many), the types that member builds, and those they build in turn,
    are that variant's parts: `get` makes the `RxJava3CallAdapter` whose `adapt` makes the
    observables that run the call. Their methods keep their bodies even where their files
    are family members themselves."""
    units = index.resolver.units
    likely = likely_graph(index)
    named = {u.id for u in strong if u.is_type} | {u.parent for u in strong if u.parent and u.parent in units}
    frontier = sorted(t for t in named if units[t].is_type and _implements_a_family(index, d, units[t]))
    seen = set(frontier)
    # the named member's own methods first: "a Route's endpoint" means Route.matches and handle
    out = {m.id for tid in frontier for members in index.resolver.members_of(units[tid]).values() for m in members if m.is_callable and m.parent == tid}
    for _ in range(VARIANT_DEPTH):
        built: list[str] = []
        for tid in frontier:
            for members in index.resolver.members_of(units[tid]).values():
                for m in members:
                    for e in likely.out(m.id) if m.is_callable else ():
                        dst = units.get(e.dst)
                        t = units.get(dst.parent) if dst is not None and (dst.kind == "constructor" or dst.name in CTOR_NAMES) and dst.parent else dst
                        if e.rule == "resolved" and t is not None and t.is_type and t.id not in seen and not in_test_module(t):
                            seen.add(t.id)
                            built.append(t.id)
        # several members of one family built together (an interceptor list) are that family
        per_family = Counter(key for tid in built for key, _ in d.supers.get(tid, []) if family_size(d, key) >= MIN_SIBLINGS)
        frontier = [tid for tid in built if all(per_family[key] < MIN_SIBLINGS for key, _ in d.supers.get(tid, []))][:MAX_VARIANT_TYPES]
        for tid in frontier:  # the type's methods and those of the types nested in it (its callbacks)
            facts = index.files[units[tid].path]
            nested = [tid] + [u.id for u in facts.units if u.is_type and u.parent == tid]
            out |= {m.id for n in nested for members in index.resolver.members_of(units[n]).values() for m in members if m.is_callable}
    return out


def _members_named_by_words(index: RootIndex, d: Derived, q, flow: Flow) -> set[str]:
    """A family member the question singles out by a plain word ("tuples, bytes or datetimes"
    → TagTuple, TagBytes, TagDateTime) is a distinct step, not an interchangeable sibling: the
    family names its members by a shared word (`Tag…`), and the word that tells this one apart
    is in the question. Only when the question lists two or more members so (a single common
    word, "body", "spider", tells nothing apart) and fewer than half of the family, and for a
    family beside the flow (a member's file holds a unit of the flow's hops). The member keeps its
    whole body, and the base the methods it overrides (its contract)."""
    plain = {stem(w) for w in _PLAIN_WORD.findall(re.sub(r"`[^`]*`", " ", q.text)) if w not in STOP}
    units = index.resolver.units
    on_flow = flow.spine | {h.src.id for h in flow.hops} | {h.dst.id for h in flow.hops}
    flow_files = {units[uid].path for uid in on_flow if uid in units}
    out: set[str] = set()
    for key, members in d.implementers.items():
        base = units.get(key)
        typed = [units[m] for m in sorted(members) if m in units]
        if base is None or len(typed) < MIN_SIBLINGS or not any(t.path in flow_files for t in typed):
            continue
        shared = Counter(w for t in typed for w in set(split_words(t.name)))
        family_words = {w for w, n in shared.items() if n * 2 >= len(typed)}
        told_apart: dict[str, Unit] = {}  # the question's word → the member it names
        for t in typed:
            words = split_words(t.name)
            own = [w for w in words if w not in family_words]
            hit = ({stem(w) for w in own} | {stem("".join(own))}) & plain if own and len(own) < len(words) else set()
            told_apart.update((w, t) for w in hit)
        chosen = {t.id: t for t in told_apart.values()}
        # an enumeration: two or more members by distinct words, but not most of the family
        if len(told_apart) < 2 or 2 * len(chosen) >= len(typed):
            continue
        for t in chosen.values():
            out.add(t.id)
            for name, ms in index.resolver.members_of(t).items():
                out |= {m.id for m in ms if m.is_callable and m.parent == t.id}
                out |= {m.id for m in index.resolver.members_of(base).get(name, ()) if m.is_callable and m.parent == base.id}
    return out


_PLAIN_WORD = re.compile(r"(?<![\w.`])[a-z]{3,}(?![\w(`])")


def _implements_a_family(index: RootIndex, d: Derived, t: Unit) -> bool:
    """A variant of a family: it defines a method of a supertype with MIN_SIBLINGS or more
    implementers (a mixin that only lends methods, like a tracking base, makes no variants)."""
    own = {name for name, ms in index.resolver.members_of(t).items() if name not in CTOR_NAMES and name != t.name and any(m.parent == t.id for m in ms)}
    units = index.resolver.units
    return any(
        family_size(d, key) >= MIN_SIBLINGS and key in units and own & set(index.resolver.members_of(units[key]))
        for key, _ in d.supers.get(t.id, [])
    )


_STRING = re.compile(rb"['\"]([A-Za-z_$][\w$]*)['\"]")


def _registrations(index: RootIndex) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for path, facts in index.files.items():
        source = index.sources.get(path, b"")
        for u in facts.units:
            if u.kind == "statement" and u.stmt_kind == "registration" and u.parent is None:
                spelled = frozenset(m.group(1).decode() for m in _STRING.finditer(source, u.start_byte, u.end_byte))
                if len(spelled) >= MIN_WIRED_NAMES:
                    out[u.id] = spelled
    return out


def _wiring(index: RootIndex, d: Derived, flow: Flow, excluded) -> set[str]:
    """Module-level calls that name three or more of the flow's callables as strings
    (`delegate(proto, 'response').method('set').access('body')…`): they wire those members up,
    and since nothing calls them and they call nothing of the code base, no flow reaches them."""
    units = index.resolver.units
    names = {units[uid].name for uid in set(flow.spine) | set(flow.periphery) if uid in units and units[uid].is_callable}
    return {uid for uid, spelled in d.registrations.items() if len(spelled & names) >= MIN_WIRED_NAMES and not excluded(units[uid].path)}


_SELF_READ = re.compile(rb"\b(?:self|this)\.(\w+)\s*[(\[]|\bin\s+(?:self|this)\.(\w+)\b")
_SELF_FILL = rb"\b(?:self|this)\.%s(?:\[[^\]\n]*\])?\.(?:append|appendleft|insert|extend|add|push|unshift|put|set)\s*\(|\b(?:self|this)\.%s\[[^\]\n]*\]\s*=(?!=)"
MAX_STATE_WRITERS = 4  # more methods writing one member: shared state, not the flow's setup


_TYPE_TEST = re.compile(rb"\b(?:isinstance|issubclass|except|type|class)\b")  # on the line before the name


def _protocols_of_classes_handed_over(index: RootIndex, flow: Flow) -> set[str]:
    """A class a spine body hands over as a value (`Middleware(ServerErrorMiddleware, …)`,
    a factory registered for later) is built and run later through its call protocol
    (`__call__`): that method is where the flow goes on, though no call names it. Type tests
    (`isinstance(x, T)`, `except T`) and base lists (`class A(T):`) hand over nothing."""
    units = index.resolver.units
    out: set[str] = set()
    for uid in sorted(flow.spine):
        u = units.get(uid)
        facts = index.files.get(u.path) if u is not None and u.is_callable else None
        spec = BY_NAME.get(facts.language) if facts is not None else None
        if facts is None or spec is None or not spec.call_protocol:
            continue
        source = index.sources.get(u.path, b"")
        for ref in facts.refs:
            if ref.caller != uid or ref.receiver:
                continue
            line_start = source.rfind(b"\n", 0, ref.start_byte) + 1
            if _TYPE_TEST.search(source, line_start, ref.start_byte):
                continue
            t = index.resolver._lookup(facts, u, ref.name)
            if not isinstance(t, Unit) or not t.is_type:
                continue
            for pname in spec.call_protocol:
                out |= {m.id for m in index.resolver.members_of(t).get(pname, ()) if m.parent == t.id and m.is_callable}
    return out - flow.spine


def _state_writers(index: RootIndex, flow: Flow) -> set[str]:
    """Where the state a spine method runs comes from: a member the core calls, indexes or
    iterates (`for m in self.methods[name]`, `self.handlers[key](…)`) is built by the methods
    of the same object that fill it (`self.methods[name].append(…)` in `_add_middleware`,
    `self.handlers[k] = h`). No call joins them — the flow passes through data — so they are
    found by the member's name, in the core method's class, its supertypes and the subtypes the
    flow runs in, when the object calls them while it is built. "How is the chain assembled" is
    answered there."""
    units = index.resolver.units
    resolver = index.resolver
    core_types = {units[uid].parent for uid in flow.spine if uid in units and units[uid].parent}
    ancestors = {tid: _ancestors(resolver, units[tid]) for tid in sorted(core_types) if tid in units}
    out: set[str] = set()
    for uid in sorted(flow.spine):
        u = units.get(uid)
        if u is None or not u.is_callable or u.parent not in ancestors:
            continue
        owner = units[u.parent]
        source = index.sources.get(u.path, b"")
        read = {(m.group(1) or m.group(2)).decode() for m in _SELF_READ.finditer(source, u.sig_end_byte, u.end_byte)}
        read = {name for name in read if not (resolver.find_member(owner, name) or owner).is_callable}  # `self.m()`: a method, no member
        if not read:
            continue
        family = ancestors[owner.id] | {units[t] for t, above in ancestors.items() if owner in above}
        for name in sorted(read):
            pattern = re.compile(_SELF_FILL % ((re.escape(name.encode()),) * 2))
            writers: set[str] = set()
            for t in sorted(family, key=lambda t: t.id):
                tsrc = index.sources.get(t.path, b"")
                for hit in pattern.finditer(tsrc, t.start_byte, t.end_byte):
                    writers |= {m.id for m in index.files[t.path].units
                                if m.parent == t.id and m.is_callable and m.kind != "constructor" and m.name not in CTOR_NAMES
                                and m.id != uid and m.sig_end_byte <= hit.start() < m.end_byte}
            if len(writers) <= MAX_STATE_WRITERS:
                out |= {w for w in writers - flow.spine if _called_at_construction(index, family, units[w])}
    return out


_FILLS = re.compile(
    rb"\b(?:self|this)\.(\w+)(?:\[[^\]\n]*\]|\.setdefault\([^)\n]*\))?\.(?:append|appendleft|insert|extend|add|push|unshift|put)\s*\("
    rb"|\b(?:self|this)\.(\w+)\[[^\]\n]*\]\s*=(?!=)"
)


def _readers_of_named_fillers(index: RootIndex, flow: Flow, anchor_ids: set[str]) -> set[str]:
    """The spine methods that run what one of the question's anchors registers: `after_request`
    appends to `self.after_request_funcs`, `process_response` iterates it. No call joins them,
    the member's name does (in the anchor's class or a subclass); the reader is the anchor's
    direct step."""
    units = index.resolver.units
    out: set[str] = set()
    for nid in sorted(anchor_ids):
        named = units.get(nid)
        if named is None or not named.is_callable or not named.parent or named.parent not in units:
            continue
        source = index.sources.get(named.path, b"")
        filled = {(m.group(1) or m.group(2)).decode() for m in _FILLS.finditer(source, named.sig_end_byte, named.end_byte)}
        if not filled:
            continue
        for uid in sorted(flow.spine - anchor_ids):
            u = units.get(uid)
            if u is None or not u.is_callable or not u.parent or u.parent not in units:
                continue
            if units[named.parent] not in _ancestors(index.resolver, units[u.parent]):
                continue  # another object's member of that name
            body = index.sources.get(u.path, b"")
            if filled & {(m.group(1) or m.group(2)).decode() for m in _SELF_READ.finditer(body, u.sig_end_byte, u.end_byte)}:
                out.add(uid)
    return out


_MODULE_READ = rb"\b%s\s*\[|\b(?:range|in|of)\s+%s\b"
_MODULE_FILL = rb"\b%s(?:\[[^\]\n]*\])?\.(?:append|appendleft|insert|extend|add|push|unshift|put|set)\s*\(|\b%s\[[^\]\n]*\]\s*=(?!=)|\b%s\s*=\s*append\(\s*%s\b"


def _registry_writers(index: RootIndex, flow: Flow) -> set[str]:
    """A module-level table a spine function reads by key or iterates (Go's
    `completionFn = flagCompletionFunctions[flag]`, a registry dict) is filled by the functions
    of its package that set its entries (`flagCompletionFunctions[flag] = f` in
    `RegisterFlagCompletionFunc`): the flow passes through the table, no call joins them, so
    they are found by the variable's name, as `_state_writers` finds an object's fillers."""
    units = index.resolver.units
    by_dir: dict[str, list[str]] = defaultdict(list)
    for path in index.files:
        by_dir[path.rpartition("/")[0]].append(path)
    out: set[str] = set()
    for uid in sorted(flow.spine):
        u = units.get(uid)
        if u is None or not u.is_callable:
            continue
        source = index.sources.get(u.path, b"")
        paths = sorted(by_dir[u.path.rpartition("/")[0]])
        tables = {t.name for p in paths for t in index.files[p].units
                  if t.kind == "statement" and t.parent is None and t.name.isidentifier()}
        for name in sorted(tables):
            key = re.escape(name.encode())
            if not re.search(_MODULE_READ % (key, key), source[u.sig_end_byte : u.end_byte]):
                continue
            fill = re.compile(_MODULE_FILL % (key, key, key, key))
            writers: set[str] = set()
            for p in paths:
                psrc = index.sources.get(p, b"")
                for hit in fill.finditer(psrc):
                    inner = [m for m in index.files[p].units if m.is_callable and m.sig_end_byte <= hit.start() < m.end_byte]
                    if inner and not _in_prose(psrc, max(inner, key=lambda m: m.start_byte).start_byte, hit.start()):
                        writers.add(max(inner, key=lambda m: m.start_byte).id)
            writers.discard(uid)
            if len(writers) <= MAX_STATE_WRITERS:
                out |= writers - flow.spine
    return out


def _members_added_to_the_core(index: RootIndex, flow: Flow) -> set[str]:
    """A module-level statement that adds members to a type of the spine when its module loads
    (`Axios.prototype[method] = function (url, config) { return this.request(mergeConfig(…)) }`)
    and whose members call the spine: the type's methods made at run time, a way into the flow
    no definition shows (the language's `runtime_members`)."""
    units = index.resolver.units
    core = [units[uid] for uid in sorted(flow.spine) if uid in units]
    types = {units[u.parent].name for u in core if u.parent in units}
    calls = re.compile(rb"\b(?:%s)\s*\(" % b"|".join(re.escape(u.name.encode()) for u in core if u.is_callable)) if core else None
    out: set[str] = set()
    for path, facts in index.files.items():
        spec = BY_NAME.get(facts.language)
        if spec is None or spec.runtime_members is None or calls is None:
            continue
        source = index.sources.get(path, b"")
        for u in facts.units:
            if u.kind != "statement" or u.parent is not None or u.id in flow.spine:
                continue
            hit = spec.runtime_members.search(source, u.start_byte, u.end_byte)
            if hit and hit.group(1).decode() in types and calls.search(source, hit.end(), u.end_byte):
                out.add(u.id)
    return out


def _in_prose(source: bytes, start: int, at: int) -> bool:
    """Whether `at` lies in a comment line or a docstring (an odd number of triple quotes since
    the callable's start): an example written there (`session['value'] = 42`) fills nothing."""
    line = source[source.rfind(b"\n", 0, at) + 1 : at].lstrip()
    if line.startswith((b"#", b"//", b"*", b"/*", b">>>")):
        return True
    return (source.count(b'"""', start, at) + source.count(b"'''", start, at)) % 2 == 1


def _called_at_construction(index: RootIndex, types: set[Unit], m: Unit) -> bool:
    """The object fills the member while it is built (`for mw in middlewares:
    self._add_middleware(mw)` in `__init__`): the flow's setup. A filler only the object's users
    call later (a `before_request` decorator) is their registration, not how the flow is
    assembled."""
    call = re.compile(rb"\b(?:self|this)\.%s\s*\(" % re.escape(m.name.encode()))
    for t in types:
        source = index.sources.get(t.path, b"")
        for c in index.files[t.path].units:
            if c.parent == t.id and (c.kind == "constructor" or c.name in CTOR_NAMES) and call.search(source, c.start_byte, c.end_byte):
                return True
    return False


def _ancestors(resolver, t: Unit) -> set[Unit]:
    seen: dict[str, Unit] = {t.id: t}
    frontier = [t]
    while frontier:
        frontier = [s for cur in frontier for s in resolver.supertypes_of(cur) if s.id not in seen]
        seen.update((s.id, s) for s in frontier)
    return set(seen.values())


def _statements_they_use(index: RootIndex, facts, shown: set[str]) -> set[str]:
    """The module variables a shown module-level statement names, in its own file
    (`current_app = LocalProxy(_cv_app, …)` → `_cv_app = ContextVar(…)`)."""
    statements = [u for u in facts.units if u.kind == "statement" and u.parent is None and u.name.isidentifier()]
    source = index.sources.get(facts.path, b"")
    out: set[str] = set()
    for u in statements:
        if u.id not in shown:
            continue
        body = source[u.start_byte : u.end_byte]
        out |= {v.id for v in statements if v.id not in shown and _spelled(v.name).search(body)}
    return out


HELPER_MAX_LINES = 20


def _helpers_of_kept(index: RootIndex, plans: list[FilePlan], near: set[str]) -> set[str]:
    """The small proven callees in other files of a body a family file keeps off the flow (the
    named variant's `Body.apply` → `RequestBuilder.setBody`): the step that member takes, which
    no hop of the flow reaches. Not a constructor (a value it builds), not a declaration with no
    body, not the error path (`throw new X(…)`)."""
    units = index.resolver.units
    likely = likely_graph(index)
    out: set[str] = set()
    for plan in plans:
        lines: list[bytes] | None = None
        for uid in sorted(plan.keep - near):
            u = units.get(uid)
            if u is None or not u.is_callable:
                continue
            if lines is None:
                lines = index.sources.get(plan.path, b"").split(b"\n")
            for e in likely.out(uid):
                dst = units.get(e.dst)
                if (
                    e.rule != "resolved" or dst is None or dst.kind not in ("function", "method") or dst.name in ("__init__", "constructor")
                    or dst.path == u.path or dst.id in near or dst.end_line <= dst.sig_end_line
                    or dst.end_line - dst.start_line >= HELPER_MAX_LINES
                    or (0 < e.line <= len(lines) and _THROWN.match(lines[e.line - 1]))
                ):
                    continue
                out.add(dst.id)
    return out


def _with_own_helpers(index: RootIndex, facts, flow: Flow, kept: set[str], depth: int = 2) -> set[str]:
    """A kept body's proven callees in the same file (`execute` → `getRawCall` → `createRawCall`):
    the member's own steps, not interchangeable siblings. A body kept only as context around
    the flow (a caller beside it) brings no helpers of its own: they are not the flow's steps."""
    likely = likely_graph(index)
    here = {u.id for u in facts.units}
    out, frontier = set(kept), {uid for uid in kept if uid in flow.spine or uid not in flow.periphery}
    for _ in range(depth):
        frontier = {e.dst for uid in sorted(frontier) for e in likely.out(uid) if e.rule == "resolved" and e.dst in here} - out
        out |= frontier
    return out


def _gate(index: RootIndex, d: Derived, q, req: ExploreRequest, plans: list[FilePlan], flow: Flow, wanted: set[str] = frozenset(), wired: set[str] = frozenset(), distinct: set[str] = frozenset()) -> None:
    """Each file's mode and reason (docs/explore.md, "The gate")."""
    named_ids = {u.id for u in q.named_units()}
    # A near-unique named callable spares its file; a focused view also keeps the bodies of a
    # qualified `Class.method` the question writes out (few definitions); `as_sql` ×100 neither.
    named_unique_callables = {u.id for hits in q.named.values() for u in hits if u.is_callable and len(hits) <= NEAR_UNIQUE}
    named_focus = named_unique_callables | {
        u.id for token, hits in q.named.items() for u in hits if u.is_callable and "." in token and len(hits) <= 2 * NEAR_UNIQUE
    }
    weak_named_ids = {u.id for units_ in q.weak.values() for u in units_}
    flow_exists = bool(flow.hops)
    for plan in plans:
        facts = index.files[plan.path]
        plan.must = {u.id for u in facts.units if u.id in flow.spine or u.id in named_unique_callables or (u.kind == "statement" and u.id in named_ids)}
        plan.must |= {u.id for u in facts.units if u.id in wired}
        plan.must |= _statements_they_use(index, facts, plan.must)
        types_ = [u for u in facts.units if u.is_type]
        sibling = [(key, disp) for t in types_ for key, disp in d.supers.get(t.id, []) if family_size(d, key) >= MIN_SIBLINGS]
        shaped = [u for u in facts.units if u.id in d.shape_family]
        if shaped and not sibling:
            u = shaped[0]
            sibling = [(u.id, f"{u.returns}-shaped functions({d.shape_family[u.id]})")]
        plan.sibling = bool(sibling)
        family = [t for t in types_ if len(d.implementers.get(t.id, ())) >= MIN_SIBLINGS]
        on_spine = any(u.id in flow.spine for u in facts.units)
        spared = any(u.id in named_unique_callables for u in facts.units)
        large = facts.lines > WHOLE_FILE_LINES
        plan.reason = _reason(plan, flow, on_spine, sibling, family, spared, named_ids, d)
        if not req.adaptive:
            plan.mode = "bodies"
        elif family and sibling and (large or (flow_exists and not on_spine)):
            plan.mode = "focused"
            base_ids = {t.id for t in family}
            plan.keep = _with_own_helpers(index, facts, flow, {
                u.id for u in facts.units
                if u.id in flow.spine or u.id in named_focus or (u.id in wanted and u.is_callable) or u.id in distinct
                or ((u.id in named_ids or u.id in weak_named_ids) and u.parent in base_ids)
            })
            # the family's interchangeable members show signatures; the base, the helpers and
            # whatever else the file holds compete for the budget like any other body
            plan.hide = {u.id for u in facts.units if u.id not in plan.keep and _interchangeable(d, u)}
            if not plan.keep and flow_exists and not on_spine:
                plan.mode = "skeleton"
            plan.reason = f"family-file:{family[0].name}({len(d.implementers[family[0].id])})" + (" on-spine" if on_spine else "")
        elif flow_exists and not on_spine and sibling and not spared:
            plan.mode = "skeleton"
            kept = _with_own_helpers(index, facts, flow, {u.id for u in facts.units if (u.id in wanted and u.is_callable) or u.id in distinct})
            if kept:  # the member the flow runs through: its signatures and those bodies
                plan.mode, plan.keep = "focused", kept
                plan.hide = {u.id for u in facts.units if u.id not in kept}
        else:
            plan.mode = "bodies"


def _answer(index: RootIndex, req: ExploreRequest, plans: list[FilePlan], flow: Flow, score, strong_ids: set[str], checkpoint, started: float, anchor_ids: set[str] = frozenset(), pointed: set[str] = frozenset(), named_types: set[str] = frozenset(), siblings: set[str] = frozenset()) -> dict:
    """Pack within the budget (pack.py): spine bodies first, then by relevance; render."""
    footer_reserve = 400
    flow_text = _render_flow(flow, index, max(FLOW_MIN, int(FLOW_SHARE * req.max_output_chars)))
    views: dict[str, FileView] = {}
    pieces: list[Piece] = []
    spine_pos = _spine_positions(flow)
    # a named type's method the flow dispatches to is a unit the question points at
    depth = _spine_depths(flow, anchor_ids | {h.dst.id for h in flow.hops if h.how == NAMED_VARIANT})
    next_to_named = {h.dst.id for h in flow.hops if h.src.id in strong_ids} | {h.src.id for h in flow.hops if h.dst.id in strong_ids}
    next_to_named |= _readers_of_named_fillers(index, flow, anchor_ids)
    next_to_named &= flow.spine
    shared_steps = _shared_steps(index, flow)
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
            builds_named = bool(u.parent) and u.parent in named_types and (u.kind == "constructor" or u.name in ("__init__", "constructor"))
            pieces.append(Piece(u, plan.path, s, spine_pos.get(uid, -1), uid in plan.must or uid in plan.keep, uid in strong_ids, uid in next_to_named, depth.get(uid, 0), uid not in pointed, builds_named, uid in shared_steps))
    call_sites: dict[str, list[int]] = defaultdict(list)
    for hop in flow.hops:
        call_sites[hop.src.id].append(hop.line)
    shown, left_out = pack(views, pieces, call_sites, req.max_output_chars - len(flow_text) - footer_reserve, checkpoint, ranker.model().alpha)
    files_out = [{"path": v.path, "mode": _shown_mode(v), "reason": v.reason, "chars": len(v.text), "symbols": v.symbols} for v in shown]
    footer = ""
    if left_out:
        listed = ", ".join(f"`{n}`" for n in left_out[:8]) + (f" and {len(left_out) - 8} more" if len(left_out) > 8 else "")
        footer = f"\n_Left out to stay within {req.max_output_chars:,} characters: {listed}._\n"
    text = flow_text + "".join(v.text for v in shown) + footer
    if len(text) > req.max_output_chars:  # the footer reserve makes this unreachable; the cap is a promise
        text = flow_text + "".join(v.text for v in shown)
    shown_paths = {v.path for v in shown}
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
        },
    }


SHARED_STEP_CALLERS = 3  # core units calling one body off the spine that make it a step they share
SHARED_STEP_CALLEES = 2  # ...when it calls on itself: fewer, and it is an accessor or a forwarder


def _shared_steps(index: RootIndex, flow: Flow) -> set[str]:
    """Bodies off the spine that three or more core units call and that call on themselves
    (`Command.Find`, which the completion, execution and help paths all use to pick the
    subcommand): a step of the flow no single path names. Accessors and utilities are called
    from as many core units (`Command.Name`, `Root`) but do no work of their own: one callee or
    none. Counted from the core's own out-edges: linear in the core's size."""
    likely = likely_graph(index)
    callers: dict[str, set[str]] = defaultdict(set)
    for uid in flow.spine:
        for e in likely.out(uid):
            if e.dst not in flow.spine:
                callers[e.dst].add(uid)
    return {uid for uid, srcs in callers.items() if len(srcs) >= SHARED_STEP_CALLERS and len({e.dst for e in likely.out(uid)} - {uid}) >= SHARED_STEP_CALLEES}


MAX_ANCHORS = 6
RELEVANT_TARGETS = 25  # the best text matches a connecting path may join to the flow
WORD_FAMILY_WINDOW = 10  # the best word matches looked at for one method matched across a family
WORD_ANCHORS = 2  # the best text matches join the named symbols as anchors


def _anchors(endpoints: list[Unit], named: set[str], ambiguity: dict[str, int], top_words, d: Derived, excluded) -> tuple[list[Unit], list[Unit]]:
    """What the question means, in the order it says it: the specific symbols it names in
    code form (at most three definitions), then plain words that equal a name and the
    callables that best match its words."""
    # a plain English word that happens to name a unit ("end", "run") is no anchor
    specific = [u for u in endpoints if ambiguity.get(u.id, 1) <= 3 and (u.is_callable or u.is_type) and (u.id in named or looks_like_code(u.name))]
    strong = [u for u in specific if u.id in named][:MAX_ANCHORS]
    words = [d.words.units[uid] for _, uid in top_words if d.words.units[uid].is_callable and not excluded(d.words.units[uid].path)]
    # when the words match one method across a family (every converter's `convert`), any one
    # member is a sibling, not where the flow starts
    crowded = _crowded(d, words)
    words = [u for u in words if not crowded(u)]
    weak = [u for u in specific if u.id not in named] + words[: WORD_ANCHORS + (0 if strong else 2)]
    return strong, list(dict((u.id, u) for u in weak).values())


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


def _dispatch_targets(index: RootIndex, d: Derived, flow: Flow) -> dict[str, float]:
    """Implementations reached by polymorphic dispatch from the spine.

    An unknown call on the spine whose name is a member of a supertype with MIN_SIBLINGS or
    more implementers (`interceptor.intercept(chain)`) makes every implementation's method
    relevant: they are the siblings the agent would otherwise open one by one.
    """
    units = index.resolver.units
    out: dict[str, float] = {}
    families = [units[t] for t, impls in d.implementers.items() if len(impls) >= MIN_SIBLINGS and t in units]
    if not families or not flow.spine:
        return out
    by_member: dict[str, list[Unit]] = defaultdict(list)
    for fam in families:
        for name in index.resolver.members_of(fam):
            by_member[name].append(fam)
    for uid in sorted(flow.spine):
        u = units.get(uid)
        facts = index.files.get(u.path) if u else None
        if facts is None:
            continue
        # a spine method of a family base is overridden by its siblings (`self.as_sql()`)
        owner = units.get(u.parent) if u.parent else None
        if owner is not None and len(d.implementers.get(owner.id, ())) >= MIN_SIBLINGS:
            for impl_id in sorted(d.implementers[owner.id]):
                impl = units.get(impl_id)
                for m in (index.resolver.members_of(impl).get(u.name, []) if impl else [])[:1]:
                    out[m.id] = max(out.get(m.id, 0.0), 1.5)
        for idx in index.bindings[u.path].unresolved:
            call = facts.calls[idx]
            if call.caller != uid or call.name not in by_member:
                continue
            for fam in by_member[call.name]:
                # Only a name specific to the family says the call dispatches into it:
                # `chain.proceed()` does, `cache.get()` (hundreds of `get`s) does not.
                family_defs = 1 + sum(
                    1 for impl_id in d.implementers[fam.id] if units.get(impl_id) and index.resolver.members_of(units[impl_id]).get(call.name)
                )
                if len(d.names.by_name.get(call.name, ())) - family_defs > 2:
                    continue
                for impl_id in sorted(d.implementers[fam.id]):
                    impl = units.get(impl_id)
                    method = index.resolver.members_of(impl).get(call.name, []) if impl else []
                    for m in method[:1]:
                        out[m.id] = max(out.get(m.id, 0.0), 1.5)
    return out


def _reason(plan: FilePlan, flow: Flow, on_spine: bool, sibling, family, spared: bool, named_ids: set[str], d: Derived) -> str:
    if on_spine:
        base = "on-spine"
    elif sibling:
        key, disp = sibling[0]
        base = f"sibling:{disp}" if key in d.shape_family else f"sibling:{disp}({family_size(d, key)})"
    elif any(u.id in named_ids for _, u in plan.units):
        base = "named:" + next(u.qualname for _, u in plan.units if u.id in named_ids)
    elif plan.units:
        base = "related:" + plan.units[0][1].qualname
    else:
        base = "named-path"
    if spared and sibling and not on_spine:
        base = "spared:named-unique-callable " + base
    return base


FLOW_SHARE = 0.05  # the flow listing may take this share of the budget (at least FLOW_MIN chars)
FLOW_MIN = 600


def _render_flow(flow: Flow, index: RootIndex, cap: int) -> str:
    """The hops in flow order, each with its call site and, when not proven, the rule that
    proposed it. Past the cap, the least likely periphery hops go first."""
    hops = list(flow.hops)
    text = _render_flow_hops(flow, hops)
    while len(text) > cap and hops:
        periphery = [h for h in hops if h.dst.id not in flow.spine or h.src.id not in flow.spine]
        victim = min(periphery, key=lambda h: flow.periphery.get(h.dst.id, flow.periphery.get(h.src.id, 0.0))) if periphery else hops[-1]
        hops.remove(victim)
        text = _render_flow_hops(flow, hops, len(flow.hops) - len(hops))
    return text if len(text) <= cap else ""


HOW = {"resolved": "", "nested": " (defined inside it)"}  # any other: a likely rule


def _render_flow_hops(flow: Flow, hops: list, left_out: int = 0) -> str:
    if not hops:
        if flow.entry:
            u = flow.entry[0]
            return f"## Flow\n\nNo call path was traced between the named symbols; entry: `{u.qualname}` — {u.path}:{u.name_line}\n\n"
        return "## Flow\n\nNo named symbol matched; files are ranked by relevance to the question.\n\n"
    lines = ["## Flow", ""]
    for n, hop in enumerate(hops, 1):
        how = HOW.get(hop.how, f" (likely: {hop.how})")
        lines.append(f"{n}. `{hop.src.qualname}` → `{hop.dst.qualname}` — called at {hop.src.path}:{hop.line}{how}")
    if left_out:
        lines.append(f"(and {left_out} less likely hops)")
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
