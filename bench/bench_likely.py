"""The ranked graph (`codegraph.graph.likely`) measured on real code.

    python bench/bench_likely.py [--devset DIR] [--cases FILE] [--sample N] [--seed S] [CORPUS ...]

(a) hidden edges: a seeded sample of resolved call edges is treated as unknown and the likely
    rules try to recover the target. Per language and per rule: precision (share of the
    proposed targets that are the resolved one) and recall (share of hidden sites whose target
    is proposed). Per rule and number of targets proposed for the site (k = 1, 2, 3): the
    precision the rule's confidence is calibrated to.
(b) unknown call sites that gain at least one likely target, per language.
(c) gold-hop coverage: of consecutive gold spine pairs (and pairs where one gold unit names
    the other in its body), how many are edges of `out()`: resolved only, and with likely edges.
(d) timing: likely_graph + out()/into() of a few hundred units.

Corpora are read from the development set directory (default: $TMPDIR/codegraph-devset).
No corpus name, path or symbol is known to the rules; the table only reports them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "server"))

from codegraph.graph.likely import LikelyGraph, likely_graph  # noqa: E402
from codegraph.index.facts import CLASS_KINDS  # noqa: E402
from codegraph.index.index import RootIndex  # noqa: E402

DEFAULT_DEVSET = Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-devset"
# the cases live beside the main checkout (worktrees sit one folder deeper)
DEFAULT_CASES = (Path(os.environ["CODEGRAPH_DEVSET"]) if os.environ.get("CODEGRAPH_DEVSET") else
                 next((p for p in (REPO.parent / "shared", REPO.parent.parent / "shared") if p.is_dir()), REPO.parent / "shared") / "devset") / "explore_cases.json"


def resolved_sites(index: RootIndex, path: str):
    """(call, true target id) for every resolved call/construct of a file, in call order."""
    facts, b = index.files[path], index.bindings[path]
    unresolved = set(b.unresolved)
    edges = [e for e in b.edges if e.kind in ("calls", "constructs")]
    idxs = [i for i in range(len(facts.calls)) if i not in unresolved]
    if len(idxs) != len(edges):  # edges from calls outside any unit would misalign: skip the file
        return []
    return [(facts.calls[i], e.dst) for i, e in zip(idxs, edges)]


def hidden(index: RootIndex, lg: LikelyGraph, sample: int, rng: random.Random, stats, kstats):
    sites = []
    for path in sorted(index.files):
        for call, dst in resolved_sites(index, path):
            if call.caller:
                sites.append((path, call, dst))
    rng.shuffle(sites)
    units = index.resolver.units
    lang_of = {p: f.language for p, f in index.files.items()}
    for path, call, dst in sites[:sample]:
        target = units.get(dst)
        if target is not None and target.kind in CLASS_KINDS:
            target = lg.constructor(target) or target
        want = target.id if target is not None else dst
        lang = lang_of[path]
        props = lg.targets(index.files[path], call)
        for key in (lang, "*all*"):
            stats[key]["sites"] += 1
        hit = any(u.id == want for u, _, _ in props)
        by_rule = defaultdict(list)
        for u, _, rule in props:
            by_rule[rule].append(u.id == want)
        for rule, oks in by_rule.items():
            for key in ((lang, rule), ("*all*", rule)):
                stats[key]["proposed"] += len(oks)
                stats[key]["correct"] += sum(oks)
                stats[key]["sites"] += 1
                stats[key]["found"] += any(oks)
            kstats[(rule, min(len(oks), 3))][0] += len(oks)
            kstats[(rule, min(len(oks), 3))][1] += sum(oks)
        for key in (lang, "*all*"):
            stats[key]["proposed"] += len(props)
            stats[key]["correct"] += sum(u.id == want for u, _, _ in props)
            stats[key]["found"] += hit


def jedi_oracle(index: RootIndex, lg: LikelyGraph, sample: int, rng: random.Random, jstats) -> None:
    """Python only: unknown call sites and references with likely targets, checked against jedi's goto (an
    independent oracle for sites the resolver cannot prove). jedi's answer is a unit of the
    repository (the proposal is right or wrong), a definition outside it (a builtin or a library:
    every proposal is wrong), or nothing (not counted)."""
    from codegraph.bindings.jedi_upgrade import JediResolver, _column

    sites = []
    for path, facts in sorted(index.files.items()):
        if facts.language != "python":
            continue
        b = index.bindings[path]
        for idx in b.unresolved:
            call = facts.calls[idx]
            if call.caller:
                sites.append((path, call, False))
        sites += [(path, r, True) for r in facts.refs if r.caller]
    rng.shuffle(sites)
    jedi = JediResolver(index.root, index.files, index.sources)
    done = 0
    for path, call, is_ref in sites:
        if done >= sample:
            break
        facts = index.files[path]
        props = lg.ref_targets(facts, call) if is_ref else lg.targets(facts, call)
        if not props:
            continue
        pos = _column(index.sources.get(path, b""), call)
        if pos is None:
            continue
        try:
            names = jedi._script(path).goto(pos[0], pos[1], follow_imports=True)
        except Exception:
            continue
        answer = None  # unit id, "outside", or None
        for n in names:
            mp = getattr(n, "module_path", None)
            try:
                rel = Path(mp).resolve().relative_to(index.root).as_posix() if mp is not None else None
            except ValueError:
                rel = None
            if rel is None and mp is not None and "site-packages/" in str(mp):
                # the same package installed in the interpreter jedi runs on: its copy in the repository
                tail = str(mp).split("site-packages/", 1)[1]
                rel = next((p for p in index.files if p == tail or p.endswith("/" + tail)), None)
            if rel is None or rel not in index.files:
                answer = answer or "outside"
                continue
            unit = next((u for u in index.files[rel].units if u.name == n.name and u.name_line == n.line and u.kind != "statement"), None)
            if unit is not None:
                answer = unit.id
                break
        if answer is None:
            continue
        done += 1
        by_rule = defaultdict(list)
        for u, _, rule in props:
            by_rule[rule].append(u.id == answer)
        for rule, oks in by_rule.items():
            for key in (rule, "(all rules)"):
                jstats[key][1] += len(oks)
                jstats[key][2] += sum(oks)
                jstats[key][3] += 1
                jstats[key][4] += any(oks)
                jstats[key][0] += answer == "outside"


def unknown_coverage(index: RootIndex, lg: LikelyGraph, cover):
    for path, facts in index.files.items():
        b = index.bindings.get(path)
        if b is None:
            continue
        state = lg._file(path)
        lines = {(e.src, e.line) for edges in state.out.values() for e in edges if e.rule != "resolved"}
        for idx in b.unresolved:
            c = facts.calls[idx]
            cover[facts.language][0] += 1
            cover[facts.language][1] += (c.caller, c.line) in lines


def gold_units(index: RootIndex, entry: dict) -> list[str]:
    facts = index.files.get(entry["path"])
    if facts is None:
        return []
    line, end = entry["line"], entry.get("end_line", entry["line"])
    best = None
    for u in facts.units:
        if u.kind == "statement":
            continue
        if u.start_line <= u.name_line and (u.start_line == line or u.name_line == line) or (u.start_line <= line and u.end_line >= end):
            size = u.end_line - u.start_line
            exact = u.start_line == line or u.name_line == line
            key = (not exact, size)
            if best is None or key < best[0]:
                best = (key, u)
    if best is None:
        return []
    u = best[1]
    ids = [u.id]
    if u.kind in CLASS_KINDS:  # a whole type/impl block: its callables speak for it
        ids += [x.id for x in facts.units if x.parent == u.id and x.is_callable]
    return ids


def body_text(index: RootIndex, uid: str) -> str:
    u = index.resolver.units[uid]
    src = index.sources.get(u.path, b"")
    return src[u.sig_end_byte : u.end_byte].decode("utf-8", "replace")


def gold_hops(index: RootIndex, lg: LikelyGraph, case: dict, acc):
    for _a, _b, textual, edges in gold_pairs(index, lg, case):
        for pre in ("", "t_") if textual else ("",):
            acc[pre + "hops"] += 1
            acc[pre + "resolved"] += any(e.rule == "resolved" for e in edges)
            acc[pre + "likely"] += bool(edges)
            acc[pre + "likely_strong"] += any(e.confidence >= 0.3 for e in edges)


def gold_pairs(index: RootIndex, lg: LikelyGraph, case: dict) -> list[tuple[tuple, tuple, bool, list]]:
    """(caller ids, callee ids, the caller's body names the callee, the edges of out() between them)
    for every gold caller→callee pair of one explore case."""
    spine = [(e, gold_units(index, e)) for e in case["spine"]]
    spine = [(e, ids) for e, ids in spine if ids]
    units = index.resolver.units

    def names_in(a_ids, b_ids) -> bool:
        name = units[b_ids[0]].name
        if units[b_ids[0]].kind == "constructor" and units[b_ids[0]].parent in units:
            name = units[units[b_ids[0]].parent].name
        pat = re.compile(r"\b" + re.escape(name) + r"\b")
        return any(pat.search(body_text(index, a)) for a in a_ids)

    pairs: dict[tuple, bool] = {}  # (caller ids, callee ids) → the caller names the callee in its body
    for (ea, a), (eb, b) in zip(spine, spine[1:]):
        if a[0] == b[0]:
            continue
        if names_in(a, b):
            pairs[(tuple(a), tuple(b))] = True
        elif names_in(b, a):
            pairs[(tuple(b), tuple(a))] = True
        else:
            pairs.setdefault((tuple(a), tuple(b)), False)
    for _, a in spine:
        for _, b in spine:
            if a[0] != b[0] and names_in(a, b):
                pairs[(tuple(a), tuple(b))] = True
    out = []
    for (a, b), textual in pairs.items():
        bs = set(b)
        out.append((a, b, textual, [e for x in a for e in lg.out(x, wide=True) if e.dst in bs]))
    return out


def timing(index: RootIndex, n: int = 300) -> tuple[float, float]:
    index.memo.pop("likely", None)
    ids = sorted(u.id for u in index.resolver.units.values() if u.is_callable)
    rng = random.Random(7)
    pick = rng.sample(ids, min(n, len(ids)))
    t0 = time.perf_counter()
    lg = likely_graph(index)
    for uid in pick:
        lg.out(uid)
    t1 = time.perf_counter()
    for uid in pick[: n // 3]:
        lg.into(uid)
    t2 = time.perf_counter()
    return (t1 - t0) * 1000, (t2 - t1) * 1000


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpora", nargs="*")
    ap.add_argument("--devset", default=str(DEFAULT_DEVSET))
    ap.add_argument("--cases", default=str(DEFAULT_CASES))
    ap.add_argument("--sample", type=int, default=600, help="hidden resolved edges per corpus")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jedi-sample", type=int, default=150, help="Python unknown sites checked against jedi per corpus (0: skip)")
    ap.add_argument("--cache-dir", default=None)
    args = ap.parse_args()
    devset = Path(args.devset)
    if not Path(args.cases).exists():  # (c) would print zeros as if no gold hop were found
        print(f"bench_likely: no gold cases at {args.cases} (give --cases FILE or set CODEGRAPH_DEVSET); the gold-hop table is skipped", file=sys.stderr)
    cases = json.loads(Path(args.cases).read_text())["cases"] if Path(args.cases).exists() else []
    names = args.corpora or sorted(p.name for p in devset.iterdir() if p.is_dir() and not p.name.startswith("_"))
    cache = Path(args.cache_dir or tempfile.mkdtemp(prefix="cg-bench-likely-"))
    stats = defaultdict(lambda: defaultdict(int))
    kstats = defaultdict(lambda: [0, 0])
    cover = defaultdict(lambda: [0, 0])
    jstats = defaultdict(lambda: [0, 0, 0, 0, 0])
    hop_rows = []
    time_rows = []
    for name in names:
        index = RootIndex(devset / name, cache_dir=cache)
        index.build()
        lg = likely_graph(index)
        hidden(index, lg, args.sample, random.Random(f"{args.seed}:{name}"), stats, kstats)
        acc = defaultdict(int)
        for case in cases:
            if case["corpus"] == name:
                gold_hops(index, lg, case, acc)
        hop_rows.append((name, acc))
        unknown_coverage(index, lg, cover)
        time_rows.append((name, len(index.files), *timing(index)))  # before jedi: its objects slow every later collection
        if args.jedi_sample:
            jedi_oracle(index, lg, args.jedi_sample, random.Random(f"{args.seed}:jedi:{name}"), jstats)
        index.close()

    print("\n(a) hidden resolved edges recovered by the likely rules (per language, then per rule)")
    print(f"{'language':<12} {'rule':<16} {'sites':>6} {'proposed':>9} {'precision':>9} {'recall':>7}")
    langs = sorted({k for k in stats if isinstance(k, str)}, key=lambda s: (s == "*all*", s))
    for lang in langs:
        s = stats[lang]
        print(f"{lang:<12} {'(all rules)':<16} {s['sites']:>6} {s['proposed']:>9} {s['correct'] / max(1, s['proposed']):>9.2f} {s['found'] / max(1, s['sites']):>7.2f}")
        for key in sorted(k for k in stats if isinstance(k, tuple) and k[0] == lang):
            r = stats[key]
            print(f"{'':<12} {key[1]:<16} {r['sites']:>6} {r['proposed']:>9} {r['correct'] / max(1, r['proposed']):>9.2f} {r['found'] / max(1, s['sites']):>7.2f}")
    print("\n    per rule and targets proposed per site (calibration): precision of one proposed target")
    print(f"{'rule':<16} {'k=1':>12} {'k=2':>12} {'k=3':>12}   passes 0.9 at k=1")
    for rule in sorted({r for r, _ in kstats}):
        cells = []
        for k in (1, 2, 3):
            n, ok = kstats.get((rule, k), (0, 0))
            cells.append(f"{ok / n:.2f} ({n})" if n else "-")
        n1, ok1 = kstats.get((rule, 1), (0, 0))
        print(f"{rule:<16} {cells[0]:>12} {cells[1]:>12} {cells[2]:>12}   {'yes' if n1 and ok1 / n1 >= 0.9 else 'no'}")

    if jstats:
        print("\n(a2) Python unknown call sites with likely targets, checked against jedi goto (independent oracle)")
        print(f"{'rule':<16} {'sites':>6} {'outside':>8} {'proposed':>9} {'precision':>9} {'site hit':>9}")
        for rule in sorted(jstats):
            outside, n, ok, sites, found = jstats[rule]
            print(f"{rule:<16} {sites:>6} {outside:>8} {n:>9} {ok / max(1, n):>9.2f} {found / max(1, sites):>9.2f}")

    print("\n(b) unknown call sites with at least one likely target")
    print(f"{'language':<12} {'unknown':>8} {'gain':>8} {'share':>6}")
    for lang in sorted(cover):
        n, g = cover[lang]
        print(f"{lang:<12} {n:>8} {g:>8} {g / max(1, n):>6.2f}")

    print("\n(c) gold caller→callee hops that are edges of out(): all pairs (consecutive spine pairs +")
    print("    pairs where one names the other) | textual pairs only (the caller's body names the callee)")
    print(f"{'corpus':<12} {'hops':>5} {'resolved':>9} {'+likely':>8} {'+lk≥0.3':>8} | {'hops':>5} {'resolved':>9} {'+likely':>8} {'+lk≥0.3':>8}")
    tot = defaultdict(int)

    def row(name, acc):
        h, t = max(1, acc["hops"]), max(1, acc["t_hops"])
        print(
            f"{name:<12} {acc['hops']:>5} {acc['resolved'] / h:>9.2f} {acc['likely'] / h:>8.2f} {acc['likely_strong'] / h:>8.2f} | "
            f"{acc['t_hops']:>5} {acc['t_resolved'] / t:>9.2f} {acc['t_likely'] / t:>8.2f} {acc['t_likely_strong'] / t:>8.2f}"
        )

    for name, acc in hop_rows:
        for k, v in acc.items():
            tot[k] += v
        row(name, acc)
    row("all", tot)

    print("\n(d) timing: likely_graph + out() of 300 callables, then into() of 100")
    print(f"{'corpus':<12} {'files':>6} {'out ms':>8} {'into ms':>8}")
    for name, n, t_out, t_into in time_rows:
        print(f"{name:<12} {n:>6} {t_out:>8.1f} {t_into:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
