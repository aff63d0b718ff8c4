"""Candidates and their features: what the ranker reads about each unit a question may need.

Candidates come from many seeds, not from one anchor: the question's lexical matches over
every field of a unit, the symbols it names, the traced flow and its periphery, and the graph
neighbourhood (proven and likely edges) of the best of those. Each candidate is described by
features that name no corpus, path or question word; `ranker.py` combines them with weights
fitted on the development set (`bench/fit_explore.py`).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from ..index.facts import Unit
from ..model.facts import in_test_module
from ..workspace.scope import is_side_module, is_test_path
from .prior import PLATFORM_PRIOR, SUPPORT_PRIOR, read_prior
from .relevance import TEST_SUPPORT_DIR, TEST_SUPPORT_NAME, path_prior, split_words, stem

LEXICAL_CANDIDATES = 200  # the best lexical matches, before the graph adds their neighbours
NEIGHBOUR_SEEDS = 20  # the best candidates whose one-hop neighbours join the candidates
MAX_CANDIDATES = 600

# Layout words of code that is not the library itself, besides test support (relevance.TEST_SUPPORT_*):
# samples, tools, scripts, docs, vendored or generated code; also with a leading `_` or `.`, which
# keeps a directory out of Go's builds (`_examples/`), as relevance's and distill's layout words read it.
_SUPPORT_SEGMENT = re.compile(
    r"(?:^|/)[_.]?(?:examples?|samples?|demos?|tools?|scripts?|bench(?:es|marks?)?|docs?|contrib|extras?|integration|e2e|playground|"
    r"(?:docs?|documentation|examples?|samples?|demos?|tutorials?)[-_](?:src|sources?|code|snippets?|examples?|samples?|py|python|js|ts|go|rs|rust|java|kt|apps?|projects?)[\w-]*|"
    r"third[_-]?party|vendor(?:ed)?|dist|build|generated|gen)(?:/|$)",
    re.IGNORECASE,
)

KINDS = ("function", "method", "constructor", "type", "statement")
FEATURES = (
    # lexical: how well the unit's fields match the question's words
    "bm25", "bm25_logrank", "name_cov", "owner_cov", "body_cov", "path_cov", "hood_cov", "phrase",
    # what the question names
    "named", "named_owner", "weak_named", "endpoint", "seed",
    # the graph: the ranking seeded by the question, degrees, closeness to the best matches
    "ppr", "log_out", "log_in", "hits_near", "near_top",
    # the traced flow (a set feature: lying on a path between strong hits)
    "spine", "spine_entry", "periphery", "on_hop", "wired", "data_step", "dispatch", "anchor",
    # where it lives and what it is
    "path_prior", "support_path", "log_lines", "one_liner", "family_member",
    "file_best", "file_hits",
) + tuple(f"kind_{k}" for k in KINDS)


@dataclass
class Signals:
    """What the earlier stages found, as the feature extractor reads it."""

    words: list[str]  # the question's stemmed content words
    bm25: dict[str, float]  # unit id → BM25 × path prior
    named: dict[str, float]  # unit id → 1 / sqrt(definitions of the name)
    weak_named: set[str]
    endpoints: set[str]
    seeds: dict[str, float]
    ppr: dict[str, float]  # normalized to the best
    spine: set[str]
    spine_depth: dict[str, int]
    periphery: dict[str, float]
    on_hop: set[str]
    anchors: set[str]
    wired: set[str]
    data_steps: set[str]
    dispatch: dict[str, float]
    family_member: set[str]
    phrases: list[str] = field(default_factory=list)  # adjacent question words joined: "route table" → "routetable"


def candidates(index, likely, s: Signals, excluded) -> list[Unit]:
    """A few hundred units: the best lexical matches, the question's named units, the flow, and
    the one-hop graph neighbourhood of the strongest of them."""
    units = index.resolver.units
    out: dict[str, Unit] = {}

    def add(uid: str) -> None:
        u = units.get(uid)
        statement_ok = uid in s.wired or uid in s.named or uid in s.on_hop  # a module statement only when named, wiring or on the flow
        if u is not None and uid not in out and (u.kind != "statement" or statement_ok) and not excluded(u.path) and not in_test_module(u):
            out[uid] = u

    lexical = lexical_order(s.bm25)[:LEXICAL_CANDIDATES]
    for uid in sorted(s.named):
        add(uid)
    for uid in sorted(s.spine | s.on_hop | s.wired | s.data_steps | s.endpoints):
        add(uid)
    for uid in sorted(s.periphery, key=lambda k: (-s.periphery[k], k)):
        add(uid)
    for uid in lexical:
        add(uid)
    for uid in sorted(s.dispatch):
        add(uid)
    ranked_ppr = sorted(s.ppr, key=lambda k: (-s.ppr[k], k))[:NEIGHBOUR_SEEDS * 3]
    for uid in ranked_ppr:
        add(uid)
    seeds = list(dict.fromkeys(sorted(s.named) + lexical[:NEIGHBOUR_SEEDS] + sorted(s.spine)))
    for uid in seeds:
        if len(out) >= MAX_CANDIDATES:
            break
        for e in likely.out(uid):
            add(e.dst)
        u = units.get(uid)
        if u is not None and u.is_type:  # a type's own members
            for m in index.files[u.path].units if u.path in index.files else ():
                if m.parent == uid and m.is_callable:
                    add(m.id)
    return list(out.values())[:MAX_CANDIDATES]


def feature_rows(index, likely, s: Signals, cands: list[Unit], postings: dict[str, dict[str, int]], n_units: int) -> tuple[list[list[float]], list[tuple[list[int], list[int]]]]:
    """One row of FEATURES per candidate, in order, and each candidate's callees and callers
    among the candidates (by position): the ranker's second stage reads its neighbours' scores."""
    units = index.resolver.units
    g = index.graph.g
    idf = {w: math.log(1 + (n_units - len(postings.get(w, ())) + 0.5) / (len(postings.get(w, ())) + 0.5)) for w in set(s.words)}
    total_idf = sum(idf.values()) or 1.0
    best = max(s.bm25.values(), default=0.0) or 1.0
    order = lexical_order(s.bm25)
    lexical_rank = {uid: i for i, uid in enumerate(order)}
    top = order[:20]
    top_set = set(top)
    top5 = set(top[:5]) | set(s.named)
    words_of_unit = {w: postings.get(w) or {} for w in set(s.words)}  # membership is all that is read

    cand_ids = {u.id for u in cands}
    out_nbrs: dict[str, set[str]] = {}
    for u in cands:
        out_nbrs[u.id] = {e.dst for e in likely.out(u.id)} - {u.id}
    in_nbrs: dict[str, set[str]] = defaultdict(set)
    for src, dsts in out_nbrs.items():
        for d in dsts:
            in_nbrs[d].add(src)
    near_top: dict[str, int] = {}
    # hops to the best matches (or named units) within the candidate subgraph, undirected
    frontier = [uid for uid in cand_ids if uid in top5]
    for uid in frontier:
        near_top[uid] = 0
    for depth in (1, 2, 3):
        nxt = []
        for uid in frontier:
            for v in out_nbrs.get(uid, ()) | in_nbrs.get(uid, set()):
                if v in cand_ids and v not in near_top:
                    near_top[v] = depth
                    nxt.append(v)
        frontier = nxt

    file_best: dict[str, float] = defaultdict(float)
    file_hits: Counter[str] = Counter()
    for uid, r in lexical_rank.items():
        if r >= 50:
            continue
        u = units.get(uid)
        if u is not None:
            file_hits[u.path] += 1
            file_best[u.path] = max(file_best[u.path], s.bm25[uid] / best)

    q_words = set(s.words)
    words_hit: dict[str, set[str]] = {}  # unit id → the question's words its postings hold (neighbours repeat)

    def hits(v: str) -> set[str]:
        h = words_hit.get(v)
        if h is None:
            h = words_hit[v] = {w for w in q_words if v in words_of_unit[w]}
        return h

    rows: list[list[float]] = []
    for u in cands:
        uid = u.id
        name_words = _stems(u.name)
        owner = units.get(u.parent) if u.parent else None
        owner_words = _stems(owner.name) if owner is not None else frozenset()
        path_words = _path_stems(u.path)
        cov = lambda ws: sum(idf[w] for w in q_words if w in ws) / total_idf  # noqa: E731
        body = hits(uid)
        hood = set(body)
        for v in out_nbrs.get(uid, ()) | in_nbrs.get(uid, set()):
            hood |= hits(v)
        joined = u.name.lower().replace("_", "")
        phrase = any(p in joined for p in s.phrases) if s.phrases else False
        lines = u.end_line - u.start_line + 1
        kind = "type" if u.is_type else u.kind if u.kind in KINDS else "function"
        rank = lexical_rank.get(uid)
        row = [
            s.bm25.get(uid, 0.0) / best,
            math.log1p(rank) if rank is not None else math.log1p(5000),
            cov(name_words),
            cov(owner_words),
            cov(body),
            cov(path_words),
            cov(hood),
            float(phrase),
            s.named.get(uid, 0.0),
            float(owner is not None and owner.id in s.named),
            float(uid in s.weak_named),
            float(uid in s.endpoints),
            s.seeds.get(uid, 0.0),
            s.ppr.get(uid, 0.0),
            math.log1p(len(out_nbrs.get(uid, ()))),
            math.log1p(_library_callers(g, units, uid)),
            float(len((out_nbrs.get(uid, set()) | in_nbrs.get(uid, set())) & top_set)),
            1.0 / (1 + near_top[uid]) if uid in near_top else 0.0,
            float(uid in s.spine),
            float(uid in s.spine and s.spine_depth.get(uid, 9) == 0),
            s.periphery.get(uid, 0.0),
            float(uid in s.on_hop),
            float(uid in s.wired),
            float(uid in s.data_steps),
            min(1.0, s.dispatch.get(uid, 0.0)),
            float(uid in s.anchors),
            path_prior(u.path),
            float(_support_path(u.path)),
            math.log1p(lines),
            float(u.end_line <= u.sig_end_line + 1),
            float(uid in s.family_member),
            file_best.get(u.path, 0.0),
            math.log1p(file_hits.get(u.path, 0)),
        ]
        row += [float(kind == k) for k in KINDS]
        rows.append(row)
    at = {u.id: i for i, u in enumerate(cands)}
    links = [
        (sorted(at[v] for v in out_nbrs.get(u.id, ()) if v in at), sorted(at[v] for v in in_nbrs.get(u.id, ()) if v in at))
        for u in cands
    ]
    return rows, links


def _library_callers(g, units, uid: str) -> int:
    """Distinct callers on the project's main path: an example, a tool or test support calling
    a unit says how it is used, not that the library leans on it."""
    if uid not in g:
        return 0
    n = 0
    for p in g.predecessors(uid):
        u = units.get(p)
        if _main_path(u.path if u is not None else p) and (u is None or not in_test_module(u)):
            n += 1
    return n


def _main_path(path: str) -> bool:
    # not cached: the prior reads the request's index beyond the path (prior.read_priors)
    return path_prior(path) >= 0.6 and not is_test_path(path)


def lexical_order(bm25: dict[str, float]) -> list[str]:
    """Unit ids by score, best first, ties by id: `sorted(bm25, key=lambda k: (-bm25[k], k))`
    with C-level keys (a stable sort by id, then by score in reverse keeps ties in id order)."""
    order = sorted(bm25)
    order.sort(key=bm25.__getitem__, reverse=True)
    return order


@lru_cache(maxsize=262_144)
def _stems(name: str) -> frozenset[str]:
    return frozenset(stem(w) for w in split_words(name))


@lru_cache(maxsize=65_536)
def _path_stems(path: str) -> frozenset[str]:
    return frozenset(stem(w) for part in path.split("/") for w in split_words(part.rsplit(".", 1)[0]))


def _support_path(path: str) -> bool:
    # the request's reading of a module named like test support first (prior.read_priors)
    read = read_prior(path)
    if read is None or read == PLATFORM_PRIOR:
        return _support_by_path(path)
    return read <= SUPPORT_PRIOR


@lru_cache(maxsize=65_536)
def _support_by_path(path: str) -> bool:
    return bool(_SUPPORT_SEGMENT.search(path) or is_side_module(path) or TEST_SUPPORT_DIR.search(path) or TEST_SUPPORT_NAME.search(path.rsplit("/", 1)[-1]))


def phrases_of(words: list[str]) -> list[str]:
    """Runs of two and three adjacent question words joined, to meet identifiers that join them
    ("route table" ~ `RouteTable`, "draw shapes" ~ `draw_shapes`)."""
    pairs = [a + b for a, b in zip(words, words[1:]) if len(a) > 2 and len(b) > 2]
    return pairs + [a + b + c for a, b, c in zip(words, words[1:], words[2:])]


assert len(FEATURES) == 33 + len(KINDS)
