"""Every fit corpus asked thousands of questions and lookups nobody wrote for it: any exception is a bug.

    python bench/fuzz_questions.py [CORPUS ...] [--devset DIR] [--corpora DIR] [--cache-dir DIR] [--budget N]

The questions come from the fit split's gold (never the check split's): each gold unit's and
distill anchor's note as prose, and each symbol in the forms a user types it (`A.b` in
backticks, `A.b()` in a sentence) — names with dots, `::`, `#`, closures and object-literal
members that no question of the development set spells out. Each goes through the whole
explore pipeline (`run_explore`: parse, candidates, ranking, gate, packer, render); each symbol,
and each gold span as `path:line` and `path:start-end`, through the graph queries (`symbols`,
`calls` both ways, `impact`). A request the server refuses with a clear error (`InvalidParams`:
a name that names nothing) is an answer; anything else raised is a crash. Prints the requests
per corpus, every crash with its request and the last frames, and the count (must be 0).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections import defaultdict
from pathlib import Path

from explore_dataset import index_or_report, question_args


def gold_units(devset: Path) -> list[tuple[str, dict]]:
    """(corpus, unit) for every gold unit of the fit split's explore cases and distill packs."""
    units = []
    for case in json.loads((devset / "explore_cases.json").read_text())["cases"]:
        units += [(case["corpus"], g) for g in case["spine"] + case.get("distinct_steps", []) + case.get("related", [])]
    for case in json.loads((devset / "distill_cases.json").read_text())["cases"]:
        units += [(case["corpus"], a) for a in case["anchors"] + case.get("also_acceptable", [])]
    return units


def questions(units: list[tuple[str, dict]]) -> dict[str, list[str]]:
    """Each fit corpus's questions, in a fixed order, without repeats."""
    by_corpus: dict[str, list[str]] = defaultdict(list)
    for corpus, g in units:
        if g.get("why"):
            by_corpus[corpus].append(g["why"])
        if g.get("symbol"):
            by_corpus[corpus] += [f"What does `{g['symbol']}` do?", f"How is {g['symbol']}() reached, and who calls it?"]
    return {corpus: list(dict.fromkeys(qs)) for corpus, qs in by_corpus.items()}


def lookups(units: list[tuple[str, dict]]) -> dict[str, list[tuple[str, dict]]]:
    """Each fit corpus's graph queries: (request kind, params), in a fixed order, without repeats."""
    by_corpus: dict[str, dict[str, tuple[str, dict]]] = defaultdict(dict)
    for corpus, g in units:
        spans = [f"{g['path']}:{g['line']}", f"{g['path']}:{g['line']}-{g.get('end_line', g['line'])}"] if g.get("path") and g.get("line") else []
        asks = [("symbols", {"query": g["symbol"]})] if g.get("symbol") else []
        for name in ([g["symbol"]] if g.get("symbol") else []) + spans[:1]:
            asks += [("calls", {"symbol": name, "direction": way}) for way in ("callers", "callees")]
        asks += [("impact", {"changes": [span]}) for span in spans]
        for kind, params in asks:
            by_corpus[corpus].setdefault(json.dumps([kind, params], sort_keys=True), (kind, params))
    return {corpus: list(asks.values()) for corpus, asks in by_corpus.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    question_args(ap, "only", "these corpora only (default: every fit corpus)")
    ap.add_argument("--budget", type=int, default=8000)
    args = ap.parse_args()
    from codegraph.query.request import run_calls, run_impact, run_symbols
    from codegraph.requests import InvalidParams, run_explore

    queries = {"symbols": run_symbols, "calls": run_calls, "impact": run_impact}
    units = gold_units(Path(args.devset))
    asks = lookups(units)
    crashes = asked = refused = 0
    for corpus, qs in sorted(questions(units).items()):
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
        for kind, params in asks.get(corpus, []):
            asked += 1
            try:
                queries[kind](index, params, lambda: None)
            except InvalidParams:
                refused += 1  # a clear error naming the field: the answer to a name that names nothing
            except Exception as exc:
                crashes += 1
                print(f"CRASH {corpus}: {kind} {json.dumps(params)}: {type(exc).__name__}: {exc}")
                traceback.print_exc(limit=-3)
        print(f"{corpus:<12} {len(qs):>4} questions, {len(asks.get(corpus, [])):>4} lookups", flush=True)
    print(f"{asked} requests ({refused} refused with a clear error), {crashes} crashes")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
    sys.exit(main())
