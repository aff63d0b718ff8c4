"""Every fit corpus asked thousands of questions nobody wrote for it: any exception is a bug.

    python bench/fuzz_questions.py [CORPUS ...] [--devset DIR] [--corpora DIR] [--cache-dir DIR] [--budget N]

The questions come from the fit split's gold (never the check split's): each gold unit's and
distill anchor's note as prose, and each symbol in the forms a user types it (`A.b` in
backticks, `A.b()` in a sentence) — names with dots, `::`, `#`, closures and object-literal
members that no question of the development set spells out. Each goes through the whole
explore pipeline (`run_explore`: parse, candidates, ranking, gate, packer, render). Prints the
questions per corpus, every crash with its question and the last frames, and the count (must be 0).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections import defaultdict
from pathlib import Path

from explore_dataset import DEFAULT_CACHE, DEFAULT_CORPORA, DEFAULT_DEVSET, index_or_report


def questions(devset: Path) -> dict[str, list[str]]:
    """Each fit corpus's questions, in a fixed order, without repeats."""
    by_corpus: dict[str, list[str]] = defaultdict(list)
    units = []
    for case in json.loads((devset / "explore_cases.json").read_text())["cases"]:
        units += [(case["corpus"], g) for g in case["spine"] + case.get("distinct_steps", []) + case.get("related", [])]
    for case in json.loads((devset / "distill_cases.json").read_text())["cases"]:
        units += [(case["corpus"], a) for a in case["anchors"] + case.get("also_acceptable", [])]
    for corpus, g in units:
        if g.get("why"):
            by_corpus[corpus].append(g["why"])
        if g.get("symbol"):
            by_corpus[corpus] += [f"What does `{g['symbol']}` do?", f"How is {g['symbol']}() reached, and who calls it?"]
    return {corpus: list(dict.fromkeys(qs)) for corpus, qs in by_corpus.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("only", nargs="*", help="these corpora only (default: every fit corpus)")
    ap.add_argument("--devset", default=str(DEFAULT_DEVSET))
    ap.add_argument("--corpora", default=str(DEFAULT_CORPORA))
    ap.add_argument("--cache-dir", default=str(DEFAULT_CACHE))
    ap.add_argument("--budget", type=int, default=8000)
    args = ap.parse_args()
    from codegraph.requests import run_explore

    crashes = asked = 0
    for corpus, qs in sorted(questions(Path(args.devset)).items()):
        if args.only and corpus not in args.only:
            continue
        index = index_or_report(Path(args.corpora) / corpus, Path(args.cache_dir))
        if index is None:
            continue
        for q in qs:
            asked += 1
            try:
                run_explore(index, {"query": q, "maxOutputChars": args.budget})
            except Exception as exc:
                crashes += 1
                print(f"CRASH {corpus}: {q!r}: {type(exc).__name__}: {exc}")
                traceback.print_exc(limit=-3)
        print(f"{corpus:<12} {len(qs):>4} questions", flush=True)
    print(f"{asked} questions, {crashes} crashes")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
    sys.exit(main())
