"""How much of what a reader points at the index knows: units and the calls between them.

    python bench/bench_coverage.py [--devset DIR] [--split fit|check|both] [--detail] [--cache-dir DIR] [CORPUS ...]

(1) gold units that are index units: every distinct gold unit of the development set (explore
    spine and distinct steps, distill anchors) counts when a unit of the index has the same span
    (its first line or its name line is the gold line, and it ends on the gold end line).
(2) gold caller→callee pairs that are edges (the pairs of `bench_likely.py` (c): consecutive
    spine pairs and pairs where one gold unit names the other in its body): proven (rule
    `resolved`) and proven or likely.

Both per language (of the gold unit's file / of the case's first spine unit), on the fit split
and on the check split. The check split's gold paths are hashed (sha256(path)[:16]): the index's
paths are hashed the same way and only aggregates are printed for it. `--detail` lists the fit
split's missing units and pairs (never the check split's).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(BENCH))

from bench_likely import gold_hops, gold_pairs  # noqa: E402
from codegraph.graph.likely import likely_graph  # noqa: E402
from codegraph.index.index import RootIndex  # noqa: E402

# the cases live beside the main checkout (worktrees sit one folder deeper)
# the gold cases: $CODEGRAPH_DEVSET (as bench_devset.py reads it), else ../shared/devset beside the repository
DEVSET_CASES = Path(os.environ.get("CODEGRAPH_DEVSET") or next((p for p in (REPO.parent / "shared" / "devset", REPO.parent.parent / "shared" / "devset") if p.is_dir()), REPO.parent / "shared" / "devset"))
DEFAULT_DEVSET = Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-devset"


def _hash(path: str) -> str:
    return hashlib.sha256(path.encode()).hexdigest()[:16]


def load_cases(split: str) -> tuple[list[dict], list[dict]]:
    base = DEVSET_CASES / "check" if split == "check" else DEVSET_CASES
    explore = json.loads((base / "explore_cases.json").read_text())["cases"]
    distill = json.loads((base / "distill_cases.json").read_text())["cases"]
    return explore, distill


def gold_by_corpus(explore: list[dict], distill: list[dict]) -> dict[str, set[tuple[str, int, int, str]]]:
    """corpus → distinct gold units (path, line, end_line, symbol)."""
    out: dict[str, set] = defaultdict(set)
    for case in explore:
        for e in case.get("spine", []) + case.get("distinct_steps", []):
            out[case["corpus"]].add((e["path"], e["line"], e.get("end_line", e["line"]), e.get("symbol", "")))
    for case in distill:
        for e in case.get("anchors", []):
            out[case["corpus"]].add((e["path"], e["line"], e.get("end_line", e["line"]), e.get("symbol", "")))
    return out


def is_unit(index: RootIndex, path: str, line: int, end: int) -> bool:
    facts = index.files.get(path)
    if facts is None:
        return False
    return any(u.end_line == end and line in (u.start_line, u.name_line) for u in facts.units)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpora", nargs="*")
    ap.add_argument("--devset", default=str(DEFAULT_DEVSET))
    ap.add_argument("--split", choices=("fit", "check", "both"), default="both")
    ap.add_argument("--detail", action="store_true", help="list the fit split's missing units and pairs")
    ap.add_argument("--cache-dir", default=None)
    args = ap.parse_args()
    devset = Path(args.devset)
    cache = Path(args.cache_dir or tempfile.mkdtemp(prefix="cg-bench-coverage-"))
    splits = ("fit", "check") if args.split == "both" else (args.split,)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # "fit+check" units
    for split in splits:
        check = split == "check"
        explore, distill = load_cases(split)
        golds = gold_by_corpus(explore, distill)
        units_by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        hops_by_lang: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        missing: list[str] = []
        missing_pairs: list[str] = []
        for corpus in sorted(golds):
            if args.corpora and corpus not in args.corpora:
                continue
            root = devset / corpus
            if not root.is_dir():
                print(f"{split}: {corpus} not materialized, skipped", file=sys.stderr)
                continue
            index = RootIndex(root, cache_dir=cache)
            try:
                index.build()
            except Exception as exc:  # a corpus the index cannot open is reported, not counted
                print(f"{split}: {'a corpus' if check else corpus} failed to index ({type(exc).__name__}), skipped", file=sys.stderr)
                index.close()
                continue
            real = {(_hash(p) if check else p): p for p in index.files}
            lang_of = {p: f.language for p, f in index.files.items()}
            for path, line, end, symbol in sorted(golds[corpus]):
                rp = real.get(path)
                lang = lang_of.get(rp, "(no file)") if rp else "(no file)"
                ok = rp is not None and is_unit(index, rp, line, end)
                units_by_lang[lang][0] += 1
                units_by_lang[lang][1] += ok
                totals["all"][0] += 1
                totals["all"][1] += ok
                if not ok and not check:
                    missing.append(f"  {corpus}: {symbol} {path}:{line}-{end}")
            lg = likely_graph(index)
            for case in explore:
                if case["corpus"] != corpus:
                    continue
                spine = [dict(e, path=real.get(e["path"], "")) for e in case["spine"]]
                lang = lang_of.get(spine[0]["path"], "(no file)") if spine else "(no file)"
                gold_hops(index, lg, dict(case, spine=spine), hops_by_lang[lang])
                if args.detail and not check:
                    units = index.resolver.units
                    for a, b, textual, edges in gold_pairs(index, lg, dict(case, spine=spine)):
                        if not edges:
                            missing_pairs.append(f"  {case['id']}: {units[a[0]].qualname} → {units[b[0]].qualname}"
                                                 f"{' (named)' if textual else ''}  [{units[a[0]].path}]")
            index.close()

        print(f"\n== {split} split ==")
        print("(1) gold units that are index units (same span)")
        print(f"{'language':<12} {'gold':>6} {'units':>6} {'share':>6}")
        for lang in sorted(units_by_lang):
            n, ok = units_by_lang[lang]
            print(f"{lang:<12} {n:>6} {ok:>6} {ok / max(1, n):>6.3f}")
        n = sum(v[0] for v in units_by_lang.values())
        ok = sum(v[1] for v in units_by_lang.values())
        print(f"{'all':<12} {n:>6} {ok:>6} {ok / max(1, n):>6.3f}")
        print("(2) gold caller→callee pairs that are edges: all pairs | pairs whose caller's body names the callee")
        print(f"{'language':<12} {'pairs':>6} {'proven':>7} {'+likely':>8} | {'pairs':>6} {'proven':>7} {'+likely':>8}")
        tot: dict[str, int] = defaultdict(int)
        for lang in sorted(hops_by_lang) + ["all"]:
            acc = tot if lang == "all" else hops_by_lang[lang]
            if lang != "all":
                for k, v in acc.items():
                    tot[k] += v
            h, t = max(1, acc["hops"]), max(1, acc["t_hops"])
            print(f"{lang:<12} {acc['hops']:>6} {acc['resolved'] / h:>7.2f} {acc['likely'] / h:>8.2f} | "
                  f"{acc['t_hops']:>6} {acc['t_resolved'] / t:>7.2f} {acc['t_likely'] / t:>8.2f}")
        if args.detail and not check and missing:
            print("missing gold units (fit):")
            print("\n".join(missing))
        if args.detail and not check and missing_pairs:
            print("gold caller→callee pairs without an edge (fit):")
            print("\n".join(missing_pairs))
    if len(splits) == 2:
        n, ok = totals["all"]
        print(f"\ngold units that are index units, fit + check: {ok} / {n} = {ok / max(1, n):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
