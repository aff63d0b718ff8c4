"""The learned selection: fitted weights (`weights.json`) applied to the candidates' features.

Plain Python at run time: a standardized linear score per candidate (the anchor model, a
logistic regression fitted by `bench/fit_distill.py`), and a multinomial linear model for the
role. The selection takes candidates in score order under the unit and byte caps.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import math
import re
from functools import lru_cache
from operator import mul
from pathlib import Path

from .features import ALL_NAMES, NAMES
from .roles import named

WEIGHTS = Path(__file__).with_name("weights.json")
MAX_UNITS = 32
MAX_BODY_BYTES = 98_304
ROLE_KEYS = {"TRIGGER_ENTRY": "entry", "ASSEMBLY_INIT": "assembly", "STATE_ORCHESTRATE": "core",
             "PERSISTENCE_SINK": "sink", "BOUNDARY": "boundary"}


CONTEXT = ("stage1", "near_sum", "near_max", "group_sum", "near_top")
# the context along the call direction (the walk's selection graph): how many of the first TOP candidates lie within
# DIRECTED_HOPS calls downstream and upstream. A thin way in (a package's one-line `get`, a factory handing on to the
# engine) reaches the likely anchors downstream and none upstream; a leaf helper the reverse; a side subsystem few
# either way. (The best callee's and the best caller's first score as well: LOCO 0.582 → 0.571, not kept.)
DIRECTED = ("down_top", "up_top")
TOP = 50
DIRECTED_HOPS = 3


def _linear(model: dict) -> tuple[list[tuple[float, float]], float]:
    return [(c / s, m) for c, s, m in zip(model["coef"], model["scale"], model["mean"])], model["intercept"]


def _folded(pairs: list[tuple[float, float]], intercept: float) -> tuple[list[float], float]:
    """The standardized model as one dot product: w·(x − m) + b = w·x + (b − w·m)."""
    return [w for w, _ in pairs], intercept - sum(w * m for w, m in pairs)


def _within(adj: list[list[int]], starts, hops: int) -> list[int]:
    """For every node, how many of `starts` it reaches within `hops` steps along `adj` read backwards: a walk from
    each start along `adj` counts the start at every node it meets (itself left out)."""
    count = [0] * len(adj)
    for s in starts:
        seen, frontier = {s}, [s]
        for _ in range(hops):
            nxt = []
            for u in frontier:
                for v in adj[u]:
                    if v not in seen:
                        seen.add(v)
                        nxt.append(v)
            frontier = nxt
        seen.discard(s)
        for v in seen:
            count[v] += 1
    return count


def context(stage1: list[float], near: list[list[int]], group: list[int], down: list[list[int]] | None = None) -> list[list[float]]:
    """Each candidate among the others: its first score, how likely its callers and callees are
    anchors (sum, best), how likely the rest of its type or file is, how many of the first
    TOP candidates it calls or is called by. A lifecycle is a chain: its steps vouch for each other.
    With `down` (each candidate's callees), the DIRECTED columns follow."""
    prob = [1 / (1 + math.exp(-max(min(s, 30.0), -30.0))) for s in stage1]
    top = set(heapq.nlargest(TOP, range(len(stage1)), key=stage1.__getitem__))  # ties: the earlier first
    by_group: dict[int, float] = {}
    for i, g in enumerate(group):
        by_group[g] = by_group.get(g, 0.0) + prob[i]
    rows = []
    log1p = math.log1p
    for i, s in enumerate(stage1):
        ns = near[i]
        if not ns:  # alone in the call graph (many are): the sums, the best and the count are nothing
            rows.append([s, 0.0, 0.0, log1p(by_group[group[i]] - prob[i]), 0.0])
            continue
        ps = list(map(prob.__getitem__, ns))
        rows.append([s, log1p(sum(ps)), max(ps), log1p(by_group[group[i]] - prob[i]),
                     log1p(len(top.intersection(ns)))])  # (near: distinct candidates)
    if down is None:
        return rows
    up: list[list[int]] = [[] for _ in down]
    for i, vs in enumerate(down):
        for v in vs:
            up[v].append(i)
    starts = sorted(top)
    reach_down, reach_up = _within(up, starts, DIRECTED_HOPS), _within(down, starts, DIRECTED_HOPS)
    for row, d, u in zip(rows, reach_down, reach_up):
        row += [log1p(d), log1p(u)]
    return rows


class Ranker:
    def __init__(self, weights: dict) -> None:
        self.names = weights["features"]
        self._a, self._a0 = _linear(weights["anchor"])
        self._c, self._c0 = _linear(weights["context"]) if weights.get("context") else ([], 0.0)
        # the context columns the context model reads (weights before the directed ones read the first five)
        named_ctx = weights.get("context_features", CONTEXT)
        self._ctx = [(CONTEXT + DIRECTED).index(n) for n in named_ctx]
        self._directed = any(n in DIRECTED for n in named_ctx)
        self._aw, self._ab = _folded(self._a, self._a0)
        self._cw, self._cb = _folded(self._c, self._c0)
        r = weights["role"]
        self.role_names = r.get("features", self.names)  # the role model may read more than the anchor score
        self.classes = r["classes"]
        self._r = [[(c / s, m) for c, s, m in zip(row, r["scale"], r["mean"])] for row in r["coef"]]
        self._r0 = r["intercept"]

    def score(self, row: list[float]) -> float:
        """The anchor model's log-odds."""
        return self._ab + sum(map(mul, self._aw, row))

    def scores(self, rows: list[list[float]], near: list[list[int]], group: list[int],
               down: list[list[int]] | None = None) -> list[float]:
        """The final anchor score of every candidate: the first score, then (when fitted) the
        context model over the candidate's features and its neighbours' first scores (`down`: each
        candidate's callees, for the directed context columns)."""
        aw, ab = self._aw, self._ab
        first = [ab + sum(map(mul, aw, r)) for r in rows]
        if not self._c:
            return first
        ctx = context(first, near, group, down if self._directed else None)
        if self._ctx != list(range(len(CONTEXT))):
            ctx = [[c[k] for k in self._ctx] for c in ctx]
        cw, cb = self._cw, self._cb
        tail = cw[len(self.names):]  # the context columns' weights (map stops at the shorter row)
        return [cb + sum(map(mul, cw, r)) + sum(map(mul, tail, c)) for r, c in zip(rows, ctx)]

    def raised_by(self, row: list[float]) -> list[tuple[float, str]]:
        """The features whose value, above the candidates' mean, raised the score, largest share
        first: what the unit has that counts for it. (A feature below its mean whose weight is
        negative also raises the score, by what the unit lacks: its phrase would say the opposite.)"""
        parts = [(w * (x - m), n) for (w, m), x, n in zip(self._a, row, self.names) if w > 0 and x > m]
        return sorted(parts, key=lambda p: (-p[0], p[1]))

    def role_scores(self, row: list[float]) -> dict[str, float]:
        return {cls: b + sum(w * (x - m) for (w, m), x in zip(coef, row)) for cls, coef, b in zip(self.classes, self._r, self._r0)}

    def role(self, row: list[float]) -> str:
        scores = self.role_scores(row)
        return max(self.classes, key=lambda c: (scores[c], -self.classes.index(c)))


PROOF = NAMES.index("declared"), NAMES.index("sig_entry")
MAIN, GUARD = NAMES.index("named_main"), NAMES.index("k_main_guard")


def believed(score: float, row: list[float]) -> bool:
    """A unit the model believes in (log-odds ≥ 0) takes a role; one it does not only fills a free place (context).
    A manifest's declaration (a tier-1 entry signal) is proof enough, and so is the program's main function the
    language defines (Go's `func main` in package main, Rust's `fn main`, a static `main`: an entry signal named
    main) — not a module's main block, often a self-test the score decides on. `row`: its NAMES features."""
    return score >= 0 or any(row[f] >= 1 for f in PROOF) or (row[MAIN] >= 1 and row[PROOF[1]] > 0 and row[GUARD] < 1)


def roles_of(ranker: Ranker, rows: list[list[float]], believed: list[bool]) -> list[str]:
    """Each chosen unit's main role ('' for one the score does not believe in). A lifecycle has a
    way in: when the role model names no entry, the believed unit it finds most entry-like is it."""
    scores = [ranker.role_scores(r) for r in rows]
    roles = [max(ranker.classes, key=lambda c: (s[c], -ranker.classes.index(c))) if ok else "" for s, ok in zip(scores, believed)]
    entry = "TRIGGER_ENTRY"
    if entry in ranker.classes and entry not in roles and any(believed):
        best = max((i for i, ok in enumerate(believed) if ok), key=lambda i: (scores[i][entry] - max(scores[i].values()), -i))
        roles[best] = entry
    return roles


def weights_digest() -> str:
    return hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()[:12]


_in_use: Ranker | None = None  # a model answering in place of the shipped weights (`use`)


def use(model: Ranker | None) -> None:
    """Answer with `model` from now on (None: the shipped weights again): the end-to-end leave-one-corpus-out
    (`bench/fit_distill.py --e2e`) answers each corpus with the model fitted without it, as explore's `use` does."""
    global _in_use
    _in_use = model


def shipped() -> Ranker:
    return _in_use if _in_use is not None else _shipped()


@lru_cache(maxsize=1)
def _shipped() -> Ranker:
    return Ranker(json.loads(WEIGHTS.read_text()))


def columns(ranker: Ranker) -> list[int]:
    return [NAMES.index(n) for n in ranker.names]


def role_columns(ranker: Ranker) -> list[int]:
    """The role model's columns in a candidate's features followed by its job features (ALL_NAMES)."""
    return [ALL_NAMES.index(n) for n in ranker.role_names]


def select(scores: list[float], sizes: list[int], uids: list[str], parents: list[str], kinds: list[str],
           outside: list[bool] | None = None, max_units: int = MAX_UNITS, max_bytes: int = MAX_BODY_BYTES,
           wraps: list[str] | None = None, spares: int = 0, bodiless: list[bool] | None = None) -> list[int]:
    """Candidates in score order (ties: the stable candidate order) under the unit and byte caps;
    a member of a type already chosen is left to it, as is a type whose member was chosen. `outside`:
    material about the code (tests, examples, docs, benchmarks) is never chosen, even into free places.
    `wraps`: the unit a thin wrapper hands over to; of the wrappers of one unit in one type (or among the
    functions outside types) one is chosen — `get`, `post`, `put` … each calling `request` are one way in.

    Size is priced only where the byte cap binds: when the order by score fills the bytes before the
    units, a few very large bodies (a compiler's 30 KB transform) took the room of a dozen units.
    Then each body's score pays `price` per slot's worth of bytes (max_bytes / max_units), the least
    price (by bisection) with which the units fill before the bytes do.

    `spares`: as many more after the max_units, in the same order under the bytes left — for the places
    the pack's lanes leave free (an error-boundary lane with fewer boundaries than places).
    `bodiless`: the candidates without a body after their signature (`twins`)."""
    twin = twins(uids, kinds, sizes, bodiless)

    def greedy(price: float) -> tuple[list[int], bool]:
        return _greedy(scores, sizes, uids, parents, kinds, outside, max_units, max_bytes, wraps, price, spares, twin)

    chosen, short = greedy(0.0)
    if not short:
        return chosen
    lo, hi = 0.0, MAX_PRICE
    best, short = greedy(hi)
    if short:  # no price fills the units (too few fit at all): the order by score stands
        return chosen
    for _ in range(PRICE_STEPS):
        mid = (lo + hi) / 2
        picked, short = greedy(mid)
        if short:
            lo = mid
        else:
            hi, best = mid, picked
    return best


MAX_PRICE = 16.0  # log-odds per slot's worth of bytes: beyond it the largest bodies are priced out anyway
PRICE_STEPS = 10


def _greedy(scores, sizes, uids, parents, kinds, outside, max_units, max_bytes, wraps, price, spares, twin) -> tuple[list[int], bool]:
    """The selection at one price of size (then up to `spares` more); and whether a unit that would have been
    taken was skipped for the byte cap with fewer than max_units chosen (the bytes, not the units, ran out)."""
    priced = [s - price * b * max_units / max_bytes for s, b in zip(scores, sizes)] if price and max_units > 0 and max_bytes > 0 else scores
    # best first; a stable sort keeps equal scores in candidate order (as a (-score, i) key would)
    order = [i for i in sorted(range(len(scores)), key=priced.__getitem__, reverse=True) if not (outside and outside[i])]
    chosen: list[int] = []
    taken: set[str] = set()
    used = 0
    skipped = False
    for i in order:
        if len(chosen) >= max_units + spares:
            break
        i = twin.get(i, i)  # a name defined more than once in a file takes one place, with its code
        if uids[i] in taken or parents[i] in taken:
            continue
        if sizes[i] + used > max_bytes:
            skipped = skipped or scores[i] >= 0  # a unit the score believes in found no room
            continue
        if kinds[i] not in ("function", "method", "constructor", "statement") and any(parents[j] == uids[i] for j in chosen):
            continue
        alike = f"{wraps[i]}\0{parents[i]}" if wraps and wraps[i] else ""
        if alike in taken:
            continue
        chosen.append(i)
        taken.add(uids[i])
        if alike:
            taken.add(alike)
        used += sizes[i]
    return chosen, skipped and len(chosen) < max_units


TWIN = re.compile(r"#\d+$")  # the index's suffix of a name's second, third … definition in one file
NO_BODY_BYTES = 5  # after the signature: `;`, ` ...` — an overload signature or a typing stub


def no_body(u) -> bool:
    return u.end_byte - u.sig_end_byte <= NO_BODY_BYTES


def twins(uids: list[str], kinds: list[str], sizes: list[int], bodiless: list[bool] | None = None) -> dict[int, int]:
    """Each candidate whose name and kind are defined more than once in its file → the definition that stands for
    them all: build variants (Rust's `#[cfg(…)]` twins) took two places with two bodies, and a signature without
    code (a typing `@overload` stub, a TypeScript overload signature) gave none where its implementation would.
    The largest definition with a body stands for them (`bodiless` says which have none; without it, the largest —
    the last overload signature, with the longest parameter list and comment, once stood for an implementation of
    three lines). Overloads with bodies of their own stay one place (kept apart, one pack's anchor came in and
    another's went out: distill-experiments.md)."""
    bases = {TWIN.sub("", u) for u in uids if "#" in u and TWIN.search(u)}
    if not bases:
        return {}
    groups: dict[tuple[str, str], list[int]] = {}
    for i, u in enumerate(uids):
        base = TWIN.sub("", u) if "#" in u else u
        if base in bases:
            groups.setdefault((base, kinds[i]), []).append(i)
    out: dict[int, int] = {}
    for group in groups.values():
        if len(group) > 1:
            coded = [i for i in group if not bodiless[i]] if bodiless is not None else []
            best = max(coded or group, key=lambda i: (sizes[i], -i))  # of equal sizes the first
            out.update((i, best) for i in group)
    return out


# What each feature says about a unit, for the one-line reason (the strongest two positive shares), when
# the unit's own facts (`features.Said`) are not at hand to say it concretely (`_concrete`). None: the feature
# says nothing a reader can use or check — a kind the heading shows, a size, a rank, a file's, a module's or a
# type's standing said as if it were the unit's own ("its file's rank", "its type is widely used") — and is never
# a reason.
SAYS = {
    "k_function": None, "k_method": None, "k_constructor": None, "k_type": None, "k_main_guard": None,
    "k_statement": None, "log_bytes": None, "tiny": None, "log_in": "many callers", "log_out": "calls many units",
    "log_in_files": "called from many files", "log_out_files": "calls into other files", "log_out2": "sets much in motion two calls down",
    "log_in2": "reached from many callers' callers", "no_callers": "no known caller",
    "no_callees": "calls no other unit", "pagerank": "central in the call graph",
    "pagerank_rev": "reaches much of the call graph", "public": None, "exported": "exported by its package",
    "declared": "declared as an entry by a manifest", "declared_file": "in a file a manifest declares",
    "host": "implements a host contract", "surface_hops": "reached from the exported surface", "non_arch": None,
    "side_dir": None, "depth": None, "private": None, "dunder": "a protocol method",
    "accessor": None, "has_doc": None, "named_main": "the program's main",
    "owner_in": None, "owner_members": None, "file_in": None,
    "file_units": None, "sig_entry": "entry syntax", "sig_assembly": "builds and wires parts",
    "sig_core": "orchestrates steps", "sig_sink": "calls a read/write interface",
    "plan_pick": "on the lifecycle walk", "plan_entry": "an entry of the lifecycle walk",
    "plan_assembly": "assembly on the lifecycle walk", "plan_core": "a core step of the lifecycle walk",
    "plan_sink": "a sink of the lifecycle walk", "plan_boundary": "an error boundary of the lifecycle walk",
    "plan_rank": "early on the lifecycle walk",
    # percentiles (0 = the top of the code base) raise a score from either side: said without a direction
    "pct_pagerank": "its centrality within the code base", "pct_pagerank_rev": "its reach within the code base",
    "pct_in": "its callers within the code base", "pct_out2": "what it sets in motion within the code base",
    "owner_exported": None, "pct_owner": None, "pct_file": None,
    "module_share": None, "module_in": None,
}
# the counts over the walk's selection graph (proven calls and the likely ones a reader follows), which
# the anchor score reads: said as briefly as the feature names they replace, the frame's bytes are for code
SAYS.update({
    "sel_log_in": "many callers", "sel_log_out": "calls many units", "sel_log_out2": "sets much in motion",
    # (a callback or a handler a host runs has no caller the index knows: "nothing calls it" was said of one
    # the walk's own reason called "called from an error handler")
    "sel_no_callers": "no known caller", "sel_no_callees": "calls no other unit", "sel_pagerank": "central",
    "sel_pagerank_rev": "reaches far", "sel_pct_pagerank": "its centrality", "sel_pct_pagerank_rev": "its reach",
    "sel_pct_in": "its callers",
})
# A feature that names a role (the walk's pick as that role, the role's syntax signal) is a reason for that role
# only: "an error boundary of the lifecycle walk" was the reason shown for express's entry `proto.handle`.
ROLE_FEATURES = {f"plan_{k}": k for k in ("entry", "assembly", "core", "sink", "boundary")}
ROLE_FEATURES.update({"sig_entry": "entry", "sig_assembly": "assembly", "sig_core": "core", "sig_sink": "sink"})
SIGNAL_ROLE = {"sig_entry": "TRIGGER_ENTRY", "sig_assembly": "ASSEMBLY_INIT", "sig_core": "STATE_ORCHESTRATE",
               "sig_sink": "PERSISTENCE_SINK"}
CALLERS = frozenset({"log_in", "sel_log_in", "pct_in", "sel_pct_in", "pagerank", "sel_pagerank", "pct_pagerank",
                     "sel_pct_pagerank", "log_in2"})
REACH = frozenset({"pagerank_rev", "sel_pagerank_rev", "pct_pagerank_rev", "sel_pct_pagerank_rev", "log_out2",
                   "sel_log_out2", "pct_out2"})


# words of a phrase that say what a topic says ("public; 4 units lead into it, 182 lie downstream" already counts
# what lies downstream: "182 units downstream" after it said it twice)
COVERS = {"callers": ("lead into it", "leads into it", "called by", "called from"), "callees": ("downstream", "calls "),
          "host": ("implements",)}


def _topic(name: str) -> str:
    """What a feature speaks of: a count, its percentile and its selection-graph twin say one thing
    (`its reach`, `reaches far`), and so do the lifecycle walk's features; who calls a unit (its callers, its
    centrality, the files they are in) is one thing, and what it calls (its callees, its reach) another."""
    if name in CALLERS or name in ("log_in_files", "no_callers", "sel_no_callers"):
        return "callers"
    if name in REACH or name in ("log_out", "sel_log_out", "log_out_files", "no_callees", "sel_no_callees"):
        return "callees"
    name = name.removeprefix("sel_").removeprefix("pct_").removeprefix("log_")
    return "plan" if name.startswith("plan_") else name


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _concrete(name: str, value: float, role: str, said) -> str | None:
    """What a feature says of this unit in facts a reader can check (None: nothing to say, or not for `role`):
    who calls it and what it calls by name, the files it calls into, the units downstream, the walk's own
    reason for picking it (when it picked it for this role), its syntax signal's reason."""
    key = ROLE_KEYS.get(role, "")
    if name.startswith("plan_"):  # the walk's pick: its reason when it picked the unit for the role shown
        walked = ROLE_FEATURES.get(name, said.pick[0])
        return said.pick[1] or SAYS[name] if walked == key and said.pick[0] == key else None
    if name in SIGNAL_ROLE:  # a syntax signal: the rule's own reason, true whichever role is shown
        return dict(said.signals).get(SIGNAL_ROLE[name])
    if name in CALLERS:
        return f"called by {named(list(said.callers))}" if said.callers else None
    if name == "log_in_files":
        return f"called from {_plural(said.caller_files, 'other file')}" if said.caller_files else None
    if name in ("log_out", "sel_log_out"):
        return f"calls {named(list(said.callees))}" if said.callees else None
    if name == "log_out_files":
        return f"calls into {named(list(said.callee_files))}" if said.callee_files else None
    if name in REACH:
        if said.down > 1:
            return f"{_plural(said.down, 'unit')} downstream"
        return f"calls {named(list(said.callees))}" if said.callees else None
    if name == "host":
        return f"implements {said.host}" if said.host else SAYS[name]
    return _generic(name, value, role)


def _generic(name: str, value: float, role: str) -> str | None:
    """The feature's phrase (SAYS), for the role it names only; `surface_hops` by the hops it counts."""
    if name in ROLE_FEATURES and ROLE_FEATURES[name] != ROLE_KEYS.get(role, ""):
        return None
    if name == "surface_hops" and value > 0:
        hops = round(value * 7) - 1  # (hops + 1) / 7
        return "on the exported surface" if hops <= 0 else f"{_plural(hops, 'call')} from the exported surface"
    return SAYS.get(name, name)


def reason(ranker: Ranker, row: list[float], role: str = "", said=None) -> str:
    """The one-line reason: the two features that raised this unit's score most and say something a reader can
    check, each saying what the other does not (never "assembly on the lifecycle walk; on the lifecycle walk"),
    none naming a role other than `role` (the main role shown). `said` (`features.Said`): the unit's own facts,
    which say a feature concretely ("called by `Router.Handle` and 3 more", not "central"). When no feature says
    anything, one fact about the unit is enough: who calls it, else what it calls."""
    out: dict[str, str] = {}
    values = dict(zip(ranker.names, row))
    for share, n in ranker.raised_by(row):
        if share <= 0 or sum(map(bool, out.values())) == 2:
            break
        if _topic(n) in out:
            continue
        phrase = _concrete(n, values.get(n, 0.0), role, said) if said is not None else _generic(n, values.get(n, 0.0), role)
        if phrase and not any(f" {p} " in f" {phrase} " or f" {phrase} " in f" {p} " for p in out.values()):
            out[_topic(n)] = phrase
            for topic, words in COVERS.items():  # the walk's reason may also say who leads in, what lies downstream:
                if topic != _topic(n) and any(w in phrase for w in words):  # said once, by the fuller phrase
                    out[topic] = ""
    if not out and said is not None:
        if said.callers:
            return f"called by {named(list(said.callers))}"
        if said.callees:
            return f"calls {named(list(said.callees))}"
    return "; ".join(p for p in out.values() if p) or "highest remaining score"
