"""Candidates and their features: what the learned selection (`ranker.py`) scores.

Every feature describes a unit by what any code base has — its kind and size, its place in the
proven call graph, whether the package exports it or a manifest declares it, the layout of its
path and module, the role signals its syntax shows, the lifecycle walk's picks (`walk/`) — never
by a corpus's names. The job features (`jobs`) are read for the chosen units only: the role model's. The weights that combine
them are fitted offline (`bench/fit_distill.py`) and shipped as data (`weights.json`).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass

from ..index.facts import CALLABLE_KINDS, CLASS_KINDS
from .surfaces import NON_ARCH_DIRS, SIDE_DIRS, TEST_SOURCE_SET, exported_names, host_interface, is_public_in, non_architecture, test_code
from .roles import ASSEMBLY, ENTRY, ORCHESTRATE, PERSIST, statement_label
from .signals import NETWORK_NAMES, OUTPUT_NAMES, RESOURCE_NAMES
from .walk.bodies import REGISTER, _error_param, _error_regions, _takes_output, reports_error
from .topology import Model

ACCESSOR = re.compile(r"^(?:get|set|is|has)(?:[A-Z_]|$)")
PR_ROUNDS = 10
NAMES = (
    "k_function", "k_method", "k_constructor", "k_type", "k_main_guard", "k_statement",
    "log_bytes", "tiny", "log_in", "log_out", "log_in_files", "log_out_files", "log_out2", "log_in2",
    "no_callers", "no_callees", "pagerank", "pagerank_rev",
    "public", "exported", "declared", "declared_file", "host", "surface_hops",
    "non_arch", "side_dir", "depth", "private", "dunder", "accessor", "has_doc", "named_main",
    "owner_in", "owner_members", "file_in", "file_units",
    "sig_entry", "sig_assembly", "sig_core", "sig_sink",
    "pct_pagerank", "pct_pagerank_rev", "pct_in", "pct_out2", "owner_exported", "pct_owner", "pct_file",
    "plan_pick", "plan_entry", "plan_assembly", "plan_core", "plan_sink", "plan_boundary", "plan_rank",
    "module_share", "module_in",
    # the same counts over the walk's selection graph (proven calls and the likely edges a reader
    # follows): they hold still as more calls are proven, and read alike in languages with few proofs
    "sel_log_in", "sel_log_out", "sel_no_callers", "sel_no_callees", "sel_pagerank", "sel_pagerank_rev",
    "sel_pct_pagerank", "sel_pct_pagerank_rev", "sel_pct_in", "sel_log_out2",
)
# What a unit's own signature, body and name say about its job: the role model's further evidence, read
# only for the units the selection chose (`job`, `jobs`).
OWN_JOB_NAMES = (
    "err_param", "err_syntax", "throws", "out_param", "calls_output", "returns_new",
    "w_build", "w_write", "w_error", "w_run", "w_read",
)
# What its body is shaped like, what its type's name says, where it stands on the call graph between the
# walk's picks, and what its callees do (`jobs`): the role model's too, for the chosen units only.
MORE_JOB_NAMES = (
    "reports_error", "registers", "constructs", "loops", "branches",
    "returns_value", "is_async", "calls_back", "error_share", "params",
    "owner_build", "owner_write", "owner_error", "owner_run", "owner_read",
    "picks_up", "picks_down", "reach_up", "reach_down",
    "callees_write", "callees_read", "callees_output", "callees_error", "calls_sink",
)
JOB_NAMES = OWN_JOB_NAMES + MORE_JOB_NAMES
ALL_NAMES = NAMES + JOB_NAMES
# Words of a unit's name that say what kind of job it does, in any code base (camelCase and snake_case split).
JOB_WORDS = {
    "w_build": frozenset({"create", "build", "builder", "make", "new", "init", "setup", "register", "use", "add", "configure",
                          "config", "factory", "provide", "install", "mount", "compose", "wrap", "bind", "load", "from", "of"}),
    "w_write": frozenset({"write", "send", "save", "store", "persist", "flush", "emit", "render", "respond", "response", "log",
                          "print", "output", "put", "commit", "close", "encode", "serialize", "dump", "sink", "insert", "update",
                          "delete", "set", "cache"}),
    "w_error": frozenset({"error", "errors", "err", "fail", "failure", "exception", "except", "recover", "abort", "reject",
                          "catch", "throw", "raise", "panic", "fault", "invalid", "retry", "fallback", "handle"}),
    "w_run": frozenset({"run", "serve", "start", "main", "execute", "exec", "dispatch", "process", "call", "invoke", "listen",
                        "request", "poll", "loop", "step", "next", "apply", "resolve", "route", "match", "handle", "pipe"}),
    "w_read": frozenset({"read", "parse", "decode", "get", "fetch", "open", "accept", "receive", "recv", "scan", "lex", "next"}),
}
NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
ERROR_WORDS = re.compile(rb"\b(?:try|catch|except|recover|rescue|finally)\b")
THROWS = re.compile(rb"\b(?:throw|raise|panic!?|Errorf|errors\.New)\b")
RETURNS_NEW = re.compile(rb"\breturn\s+(?:new\s+|&)?[A-Z]\w*\s*[({<]")
CALLS_OUTPUT = OUTPUT_NAMES | NETWORK_NAMES | RESOURCE_NAMES
LOOPS = re.compile(rb"\b(?:for|while|loop)\b")
BRANCHES = re.compile(rb"\b(?:if|switch|match|when|case|elif)\b")
RETURNS_VALUE = re.compile(rb"\breturn\s+[^\s;})]")
ASYNC = re.compile(rb"\b(?:await|async|yield|suspend|go|launch)\b")
CALLS_BACK = re.compile(rb"\b(?:callback|cb|next|done|handler|fn|func|resolve|reject)\s*\(")
REACH_HOPS = 4
PLAN_KEYS = ("entry", "assembly", "core", "sink", "boundary")


@dataclass(frozen=True, slots=True)
class Candidates:
    uids: list[str]
    rows: list[list[float]]  # one feature vector per uid, in NAMES order
    near: list[list[int]]  # each candidate's callers and callees (candidate positions)
    group: list[int]  # each candidate's type (or file, outside a type), as a number
    down: list[list[int]] = ()  # each candidate's callees on the walk's selection graph (candidate positions): the context's direction
    wraps: list[str] = ()  # the one unit each candidate hands over to when it is a thin wrapper (`wrapper_of`), else ""


def _log(n: float) -> float:
    return math.log1p(n)


def pagerank(out: list[list[int]], rounds: int = PR_ROUNDS, alpha: float = 0.85) -> list[float]:
    """Power iteration over nodes 0..n-1 (edges in a fixed order: the sums are deterministic),
    dangling mass spread evenly; scaled so the mean rank is 1."""
    n = len(out) or 1
    rank = [1.0] * len(out)
    dangling = [i for i, t in enumerate(out) if not t]
    spread = [(i, t, alpha / len(t)) for i, t in enumerate(out) if t]
    for _ in range(rounds):
        new = [(1 - alpha) + alpha * sum(map(rank.__getitem__, dangling)) / n] * len(out)  # in index order, as before
        for i, targets, share in spread:
            r = rank[i] * share
            for v in targets:
                new[v] += r
        rank = new
    return rank


def _callers(out: list[list[int]]) -> list[list[int]]:
    """Each node's callers along `out`, in ascending order."""
    inc: list[list[int]] = [[] for _ in out]
    for i, vs in enumerate(out):
        for v in vs:
            inc[v].append(i)
    return inc


def _percentile(values: list[float]) -> list[float]:
    """Rank of each value from the top, as a share of the candidates (0 = top); ties share their
    middle rank, so the many units with nothing sit together near the bottom."""
    n = max(len(values) - 1, 1)
    ordered = sorted(values)
    total = len(values)
    # from the top, a value's first rank is the count above it, its last the count at or above it, less one;
    # one walk over the runs of equal values (i: the count below the run, j: the count at or below it)
    mid: dict[float, float] = {}
    i = 0
    while i < total:
        v = ordered[i]
        j = bisect_right(ordered, v, i)
        mid[v] = (2 * total - 1 - i - j) / 2 / n
        i = j
    return list(map(mid.__getitem__, values))


def _surface_hops(model: Model, surface: list[str], limit: int = 6) -> dict[str, int]:
    """Hops along proven calls from the nearest surface unit (exported or declared)."""
    hops = dict.fromkeys(surface, 0)
    frontier = list(surface)
    for d in range(1, limit + 1):
        nxt = []
        for u in frontier:
            for v in sorted(model.out.get(u, ())):
                if v not in hops:
                    hops[v] = d
                    nxt.append(v)
        frontier = nxt
    return hops


def _side(path: str) -> tuple[bool, bool]:
    parts = [p.lstrip("_.").lower() for p in path.split("/")[:-1]]
    non_arch = any(p in NON_ARCH_DIRS or TEST_SOURCE_SET.search(p) for p in parts) or non_architecture(path)
    return non_arch, any(p in SIDE_DIRS for p in parts)


def job(index, model: Model, uid: str) -> list[float]:
    """What a unit's signature, body and name say about its job (OWN_JOB_NAMES): an error handed in, error syntax,
    errors made, an output handed in, calls to output/network/resource interfaces, a built value returned,
    and the job words of its name."""
    u = model.units[uid]
    source, calls = index.sources.get(u.path, b""), model.calls.get(uid, ())
    body = source[u.sig_end_byte : u.end_byte] if u.kind in CALLABLE_KINDS else b""
    words = _words(u.name)
    return [
        float(bool(u.kind in CALLABLE_KINDS and _error_param(u))), float(bool(body) and ERROR_WORDS.search(body) is not None),
        float(bool(body) and THROWS.search(body) is not None), float(u.kind in CALLABLE_KINDS and _takes_output(u)),
        float(any(c.name in CALLS_OUTPUT for c in calls)), float(bool(body) and RETURNS_NEW.search(body) is not None),
        *(float(not words.isdisjoint(JOB_WORDS[k])) for k in ("w_build", "w_write", "w_error", "w_run", "w_read")),
    ]


def _words(name: str) -> set[str]:
    return {w.lower() for w in NAME_WORD.findall(name)}


def _has(words: set[str], key: str) -> bool:
    return not words.isdisjoint(JOB_WORDS[key])


def _reach(adj: dict[str, set[str]], start: str, hops: int = REACH_HOPS) -> set[str]:
    """The units within `hops` calls of `start` along `adj` (itself left out)."""
    seen, frontier = {start}, [start]
    for _ in range(hops):
        nxt = []
        for u in frontier:
            for v in sorted(adj.get(u, ())):
                if v not in seen:
                    seen.add(v)
                    nxt.append(v)
        frontier = nxt
    seen.discard(start)
    return seen


def jobs(index, model: Model, uids: list[str], roles, picks=()) -> list[list[float]]:
    """Every job feature (JOB_NAMES) of these units — the chosen ones: `job`, then the shape of the body (a reported
    error, registrations, constructions, loops, branches, a value returned, asynchrony, callbacks called, the share
    of the body inside error handlers, parameters), the job words of its type's name, how many of the walk's picks
    reach it and it reaches within REACH_HOPS calls (and how many units), and what its callees are (writers, readers,
    output callers, error words, sinks)."""
    picked = {p[0] for p in picks}
    regions: dict[str, list[tuple[int, int]]] = {}
    log = math.log1p
    rows = []
    for uid in uids:
        u = model.units[uid]
        source = index.sources.get(u.path, b"")
        body = source[u.sig_end_byte : u.end_byte] if u.kind in CALLABLE_KINDS else b""
        ins, outs = model.inc.get(uid, set()), model.out.get(uid, set())
        if body and u.path not in regions:
            regions[u.path] = _error_regions(index, u.path)
        inside = sum(max(0, min(e, u.end_byte) - max(s, u.sig_end_byte)) for s, e in regions[u.path]) if body else 0
        up, down = _reach(model.inc, uid), _reach(model.out, uid)
        callee_words = [_words(model.units[c].name) for c in sorted(outs)]
        owner = model.units.get(u.parent) if u.parent else None
        owner_words = _words(owner.name) if owner is not None else set()
        rows.append(job(index, model, uid) + [
            float(u.kind in CALLABLE_KINDS and bool(reports_error(index, u))), log(len(REGISTER.findall(body))),
            log(sum(1 for c in outs if model.kinds.get((uid, c)) == "constructs")),
            log(len(LOOPS.findall(body))), log(len(BRANCHES.findall(body))), float(RETURNS_VALUE.search(body) is not None),
            float(ASYNC.search(source[u.start_byte : u.end_byte]) is not None), float(CALLS_BACK.search(body) is not None),
            inside / max(len(body), 1), log(sum(1 for p in u.param_names if p not in ("self", "this"))),
            *(float(_has(owner_words, k)) for k in ("w_build", "w_write", "w_error", "w_run", "w_read")),
            log(len(up & picked)), log(len(down & picked)), log(len(up)), log(len(down)),
            log(sum(_has(w, "w_write") for w in callee_words)), log(sum(_has(w, "w_read") for w in callee_words)),
            log(sum(1 for c in outs if any(k.name in CALLS_OUTPUT for k in model.calls.get(c, ())))),
            log(sum(_has(w, "w_error") for w in callee_words)),
            float(any(PERSIST in roles.get(c, {}) for c in outs)),
        ])
    return rows


@dataclass(frozen=True, slots=True)
class Said:
    """What a reader can check about a chosen unit, for its one-line reason (`ranker.reason`): who calls it and
    what it calls (the walk's selection graph, by name: the units in the pack first), the other files it calls
    into, how many units lie downstream, the walk's pick (its role key and reason), the reasons of its syntax
    signals, the host contract it implements."""
    callers: tuple[str, ...] = ()
    callees: tuple[str, ...] = ()
    caller_files: int = 0
    callee_files: tuple[str, ...] = ()
    down: int = 0
    pick: tuple[str, str] = ("", "")
    signals: tuple[tuple[str, str], ...] = ()
    host: str = ""


def said(index, model: Model, plan, roles, uids: list[str], among: list[str]) -> dict[str, Said]:
    """`Said` of each of `uids` (the chosen units), over the candidates `among` (the ones their features count)."""
    chosen, cands = set(uids), set(among)
    walk = plan.out
    callers: dict[str, list[str]] = {u: [] for u in uids}
    for c in among:  # one pass over the candidates' callees; few of them call a chosen unit
        vs = walk[c] if c in walk else model.out.get(c)
        if vs and not chosen.isdisjoint(vs):
            for v in chosen.intersection(vs):
                callers[v].append(c)
    picks: dict[str, tuple[str, str]] = {}
    for p in plan.picks:
        picks.setdefault(p[0], (p[1], p[2]))
    order = model.order
    # the pack's own units first, then the code's own before its examples, benchmarks and tests (a JMH
    # benchmark was named first among the callers of a library's core method)
    side = lambda x: non_architecture(model.units[x].path) or test_code(model.units[x])  # noqa: E731
    shown = lambda x: (x not in chosen, side(x), order.get(x, len(order)), x)  # noqa: E731
    out = {}
    for uid in uids:
        u = model.units[uid]
        vs = walk[uid] if uid in walk else model.out.get(uid, ())
        callees = sorted((v for v in vs if v in cands and v != uid), key=shown)
        files = sorted({model.units[v].path for v in model.out.get(uid, ()) if v in cands} - {u.path})
        ins = {model.units[c].path for c in model.inc.get(uid, ()) if c in cands} - {u.path}
        out[uid] = Said(
            callers=tuple(_name(index, model, c) for c in sorted(callers[uid], key=shown) if c != uid),
            callees=tuple(_name(index, model, v) for v in callees), caller_files=len(ins),
            callee_files=_file_names(files, u.path), down=plan.down.get(uid, 0),
            pick=picks.get(uid, ("", "")), signals=tuple((r, w) for r, (_, w) in sorted(roles.get(uid, {}).items())),
            host=plan.hosts.get(uid, ""))
    return out


def _file_names(paths: list[str], own: str) -> tuple[str, ...]:
    """Files by their names (`route.go`), by their paths where a name is not one file's alone (`index.js`)."""
    base = lambda p: p.rsplit("/", 1)[-1]  # noqa: E731
    seen: dict[str, int] = {}
    for p in [*paths, own]:
        seen[base(p)] = seen.get(base(p), 0) + 1
    return tuple(base(p) if seen[base(p)] == 1 else p for p in paths)


def _name(index, model: Model, uid: str) -> str:
    """A unit as a reader finds it: its qualified name, a module statement by its first line."""
    u = model.units[uid]
    return statement_label(u, index.sources.get(u.path, b"")) if u.kind == "statement" else u.qualname


def _modules(units, inc: list[list[int]]) -> tuple[dict[str, str], dict[str, float], dict[str, int]]:
    """Each file's module — its first directory, or its first two when one directory holds nearly all the code
    (`packages/x`, `src/x`) — with the module's share of the candidates and how many other modules call into it.
    A repository of several modules has a main one the others build on (ports, fakes, adapters call into it)."""
    paths = sorted({u.path for u in units})
    first = {p: p.split("/", 1)[0] if "/" in p else "" for p in paths}
    counts: dict[str, int] = {}
    for u in units:
        counts[first[u.path]] = counts.get(first[u.path], 0) + 1
    deep = max(counts.values(), default=0) >= 0.9 * len(units)
    module_of = {p: "/".join(p.split("/")[:2][: p.count("/")]) if deep else first[p] for p in paths}
    share: dict[str, float] = {}
    one = 1 / max(len(units), 1)
    modules = [module_of[u.path] for u in units]
    for m in modules:
        share[m] = share.get(m, 0.0) + one
    callers: dict[str, set[str]] = {m: set() for m in share}
    for mine, ins in zip(modules, inc):
        for c in ins:
            other = modules[c]
            if other != mine:
                callers[mine].add(other)
    return module_of, share, {m: len(c) for m, c in callers.items()}


def candidates(index, model: Model, roles, entries, picks=(), selection: dict[str, set[str]] | None = None,
               hosts: dict[str, str] | None = None) -> Candidates:
    """Every definition in scope, every `if __name__ == "__main__"` block, every module statement
    that registers or tabulates code (a loop adding verbs to a prototype, a delegation chain, an
    object of operations: how libraries define an API) and every statement of a file a manifest
    declares (a `bin` script's top level), with its features. Imports are no candidates.
    `picks`: the flow plan's (uid, key, …) picks, in order (the plan's walk along the lifecycle).
    `hosts`: the host contracts the walk read for the units of its `selection` graph (`Plan.hosts`)."""
    plan_at: dict[str, tuple[int, str]] = {}
    for i, pick in enumerate(picks):
        plan_at.setdefault(pick[0], (i, pick[1]))
    uids = [uid for uid, u in model.units.items()
            if u.kind != "statement" or u.stmt_kind in ("main_guard", "registration", "table") or roles.get(uid, {}).get(ENTRY, (9,))[0] == 1]
    at = {u: i for i, u in enumerate(uids)}
    units = [model.units[u] for u in uids]
    out, sel_out = [], []
    walk = selection or {}
    read = walk if hosts is not None else {}  # the units whose host contract the walk read (the rest: read here)
    hosts = hosts or {}
    for u in uids:
        vs = model.out.get(u)
        out.append(sorted([at[v] for v in vs if v in at]) if vs else [])
        # the walk's selection graph where it reaches (the architecture), proven calls elsewhere
        vs = walk[u] if u in walk else vs
        sel_out.append(sorted([at[v] for v in vs if v in at]) if vs else [])
    inc, sel_inc = _callers(out), _callers(sel_out)  # (model.inc is model.out turned around)
    pr, pr_rev = pagerank(out), pagerank(inc)
    sel_pr, sel_pr_rev = pagerank(sel_out), pagerank(sel_inc)
    sel_out_n = list(map(len, sel_out))
    sel_out2 = [sum(map(sel_out_n.__getitem__, vs)) for vs in sel_out]
    sel_pct_pr, sel_pct_rev, sel_pct_in = _percentile(sel_pr), _percentile(sel_pr_rev), _percentile(list(map(len, sel_inc)))
    exported = {w.decode() for w in exported_names(index)}  # ASCII words: a name is exported as it is written
    declared = {e.unit for e in entries if e.unit}
    declared_files = {e.path for e in entries if e.path}
    public = [is_public_in(index, model, u) for u in units]
    surface = [uid for i, uid in enumerate(uids) if uid in declared or (public[i] and units[i].name in exported)]
    hops = _surface_hops(model, surface)
    members: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        if u.parent:
            members.setdefault(u.parent, []).append(i)
    owner_in = {t: sum(len(inc[m]) for m in ms) for t, ms in members.items()}
    paths = [u.path for u in units]
    file_units: dict[str, int] = {}
    file_callers: dict[str, set[str]] = {}
    file_pr: dict[str, float] = {}
    for path, rank, ins in zip(paths, pr, inc):
        file_units[path] = file_units.get(path, 0) + 1
        file_pr[path] = file_pr.get(path, 0.0) + rank
        for c in ins:
            cp = paths[c]
            if cp != path:
                file_callers.setdefault(path, set()).add(cp)
    # Where a unit stands within its own code base (0 = top, 1 = bottom): comparable across sizes.
    owner_pr = {t: sum(pr[m] for m in ms) for t, ms in members.items()}
    out_n, in_n = list(map(len, out)), list(map(len, inc))
    out2 = [sum(map(out_n.__getitem__, vs)) for vs in out]
    pct_pr, pct_rev, pct_in, pct_out2 = _percentile(pr), _percentile(pr_rev), _percentile(in_n), _percentile(out2)
    pct_owner = _percentile([owner_pr.get(u.parent or uid, 0.0) for uid, u in zip(uids, units)])
    pct_file = _percentile([file_pr[u.path] for u in units])
    module_of, module_share, module_in = _modules(units, inc)
    log = math.log1p
    # what every unit of one file shares
    per_path: dict[str, tuple] = {}
    for path in dict.fromkeys(paths):
        non_arch, side = _side(path)
        module = module_of[path]
        per_path[path] = (float(non_arch), float(side), float(path in declared_files), path.count("/") / 5,
                          log(len(file_callers.get(path, ()))), log(file_units[path]), module_share[module], log(module_in[module]))
    (path_non_arch, path_side, path_declared, path_depth, path_file_in, path_file_units, path_module_share,
     path_module_in) = zip(*map(per_path.__getitem__, paths)) if paths else ((),) * 8
    languages = {path: index.files[path].language for path in per_path}
    kinds, names = [u.kind for u in units], [u.name for u in units]
    lines = [u.end_line - u.start_line + 1 for u in units]
    owners = [u.parent if u.parent in members else "" for u in units]
    owner_exported = [bool(o) and model.units[o].name in exported for o in owners]
    mines = list(map(roles.get, uids))
    picks_at = list(map(plan_at.get, uids))
    no_pick = (0.0,) * (len(PLAN_KEYS) + 2)
    picked = {k: (1.0, *(float(k == x) for x in PLAN_KEYS)) for k in PLAN_KEYS}
    plan = [(*picked.get(p[1], (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)), 1.0 / (1 + p[0] / 8)) if p is not None else no_pick
            for p in picks_at]
    sel_in_n = list(map(len, sel_inc))
    # The features a column at a time, by name (flags as `1.0 if … else 0.0`: the same floats as float(bool),
    # without a call per flag); the rows are the columns turned around, in NAMES order.
    col: dict[str, list[float] | tuple[float, ...]] = {
        "k_function": [1.0 if k == "function" else 0.0 for k in kinds],
        "k_method": [1.0 if k == "method" else 0.0 for k in kinds],
        "k_constructor": [1.0 if k == "constructor" or n in ("__init__", "new", "init") else 0.0 for k, n in zip(kinds, names)],
        "k_type": [1.0 if u.kind in CLASS_KINDS else 0.0 for u in units],
        "k_main_guard": [1.0 if k == "statement" else 0.0 for k in kinds],
        "k_statement": [1.0 if u.kind == "statement" and u.stmt_kind != "main_guard" else 0.0 for u in units],
        "log_bytes": [log(u.end_byte - u.start_byte) / 10 for u in units],
        "tiny": [1.0 if n <= 3 else 0.0 for n in lines],
        "log_in": list(map(log, in_n)), "log_out": list(map(log, out_n)),
        "log_in_files": [log(len(set(map(paths.__getitem__, ins)) - {path})) if ins else 0.0 for ins, path in zip(inc, paths)],
        "log_out_files": [log(len(set(map(paths.__getitem__, outs)) - {path})) if outs else 0.0 for outs, path in zip(out, paths)],
        "log_out2": list(map(log, out2)),
        "log_in2": [log(sum(map(in_n.__getitem__, ins))) if ins else 0.0 for ins in inc],
        "no_callers": [0.0 if ins else 1.0 for ins in inc], "no_callees": [0.0 if outs else 1.0 for outs in out],
        "pagerank": list(map(log, pr)), "pagerank_rev": list(map(log, pr_rev)),
        "public": [1.0 if p else 0.0 for p in public],
        "exported": [1.0 if (oe or n in exported) and p else 0.0 for oe, n, p in zip(owner_exported, names, public)],
        "declared": [1.0 if uid in declared else 0.0 for uid in uids], "declared_file": path_declared,
        "host": [1.0 if u.kind in CALLABLE_KINDS and (uid in hosts if uid in read else host_interface(u, languages[u.path])) else 0.0
                 for uid, u in zip(uids, units)],
        "surface_hops": [(hops[uid] + 1) / 7 if uid in hops else 0.0 for uid in uids],
        "non_arch": [1.0 if ("test" in u.qualname or "test" in u.name) and test_code(u) else na for u, na in zip(units, path_non_arch)],
        "side_dir": path_side, "depth": path_depth,
        "private": [1.0 if n.startswith("_") and not n.startswith("__") else 0.0 for n in names],
        "dunder": [1.0 if n.startswith("__") and n.endswith("__") else 0.0 for n in names],
        "accessor": [1.0 if n <= 6 and ACCESSOR.match(name) else 0.0 for n, name in zip(lines, names)],
        "has_doc": [1.0 if u.doc else 0.0 for u in units],
        "named_main": [1.0 if u.name == "main" or u.stmt_kind == "main_guard" else 0.0 for u in units],
        "owner_in": [log(owner_in.get(o, 0)) if o else 0.0 for o in owners],
        "owner_members": [log(len(members.get(o, ()))) if o else log(len(members.get(uid, ()))) for o, uid in zip(owners, uids)],
        "file_in": path_file_in, "file_units": path_file_units,
        **{name: [1.0 / mine[r][0] if mine and r in mine else 0.0 for mine in mines]
           for name, r in zip(("sig_entry", "sig_assembly", "sig_core", "sig_sink"), (ENTRY, ASSEMBLY, ORCHESTRATE, PERSIST))},
        "pct_pagerank": pct_pr, "pct_pagerank_rev": pct_rev, "pct_in": pct_in, "pct_out2": pct_out2,
        "owner_exported": [1.0 if oe else 0.0 for oe in owner_exported], "pct_owner": pct_owner, "pct_file": pct_file,
        **dict(zip(("plan_pick", *(f"plan_{k}" for k in PLAN_KEYS), "plan_rank"), zip(*plan) if plan else ((),) * 7)),
        "module_share": path_module_share, "module_in": path_module_in,
        "sel_log_in": list(map(log, sel_in_n)), "sel_log_out": list(map(log, sel_out_n)),
        "sel_no_callers": [0.0 if ins else 1.0 for ins in sel_inc], "sel_no_callees": [0.0 if outs else 1.0 for outs in sel_out],
        "sel_pagerank": list(map(log, sel_pr)), "sel_pagerank_rev": list(map(log, sel_pr_rev)),
        "sel_pct_pagerank": sel_pct_pr, "sel_pct_pagerank_rev": sel_pct_rev, "sel_pct_in": sel_pct_in,
        "sel_log_out2": list(map(log, sel_out2)),
    }
    rows = list(map(list, zip(*map(col.__getitem__, NAMES))))
    near = [sorted({*o, *n}) if o and n else o + n for o, n in zip(out, inc)]
    groups: dict[str, int] = {}
    group = [groups.setdefault(u.parent or u.path, len(groups)) for u in units]
    return Candidates(uids, rows, near, group, sel_out, [wrapper_of(model, uid) for uid in uids])


WRAPPER_CALLS = 3  # a thin wrapper makes at most this many calls, one of them to a project unit


def wrapper_of(model, uid: str) -> str:
    """The one project unit a function or method hands over to when that is all it does (`Session.get` →
    `Session.request`, `api.post` → `api.request`: a verb's shortcut, a public alias), "" otherwise. Such
    wrappers of one unit are alike: the selection keeps one of them (ranker.select)."""
    u = model.units[uid]
    if u.kind not in ("function", "method"):
        return ""
    callees = model.out.get(uid, ())
    if len(callees) != 1 or len(model.calls.get(uid, ())) > WRAPPER_CALLS:
        return ""
    return next(iter(callees))
