"""Explore on the fit split in-process, scored by the development set's own scorer; with
`--folds DIR`, each corpus's questions are answered by the model fitted without that corpus
(leave-one-corpus-out, end to end).

    python bench/eval_explore.py [--folds DIR] [--save FILE] [CASE_ID ...]

One index per corpus (the CLI builds one per question), so the whole fit split takes minutes.
The check split is only ever run through the CLI (`bench_devset.py`), means only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from explore_dataset import DEFAULT_CORPORA, DEFAULT_DEVSET, open_index  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--devset", default=str(DEFAULT_DEVSET))
    ap.add_argument("--corpora", default=str(DEFAULT_CORPORA))
    ap.add_argument("--cache-dir", default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-bench-cache"))
    ap.add_argument("--folds")
    ap.add_argument("--save")
    ap.add_argument("--detail", action="store_true")
    args = ap.parse_args()
    devset = Path(args.devset)
    sys.path.insert(0, str(devset))
    import run as devset_run  # noqa: E402  (the scorer's own markdown reader)
    import score  # noqa: E402
    from codegraph.explore import ranker
    from codegraph.requests import run_explore

    data = json.loads((devset / "explore_cases.json").read_text())
    budget = data.get("budget_chars", 28000)
    by_corpus = defaultdict(list)
    for case in data["cases"]:
        if not args.cases or case["id"] in args.cases:
            by_corpus[case["corpus"]].append(case)
    rows = {}
    for corpus, cases in sorted(by_corpus.items()):
        if args.folds:
            fold = Path(args.folds) / f"{corpus}.json"
            ranker.use(ranker.Model.from_json(json.loads(fold.read_text())) if fold.is_file() else None)
        try:
            index = open_index(Path(args.corpora) / corpus, Path(args.cache_dir))
        except Exception as exc:
            print(f"{corpus}: not indexed ({type(exc).__name__}: {exc})", file=sys.stderr)
            for case in cases:
                rows[case["id"]] = {"case_id": case["id"], "spine_full_recall": 0.0, "error": True}
            continue
        for case in cases:
            text = run_explore(index, {"query": case["question"], "maxOutputChars": budget})["text"]
            units = [{"path": p, "start_line": s, "end_line": e, "mode": "full"} for p, runs in devset_run.shown_ranges(text).items() for s, e in runs]
            row = score.score_explore(case, {"case_id": case["id"], "output_chars": len(text), "units": units})
            rows[case["id"]] = row
            print(json.dumps({k: row.get(k) for k in ("case_id", "spine_full_recall", "sibling_skeleton_rate", "distinct_step_full_rate", "output_chars")}), flush=True)
            if args.detail:
                devset_run.detail(case["spine"], units, "spine")
    ranker.use(None)
    mean = lambda k: statistics.mean([r[k] for r in rows.values() if r.get(k) is not None] or [0.0])  # noqa: E731
    print(f"fit{' (leave-one-corpus-out)' if args.folds else ''}: {len(rows)} cases, spine full recall {mean('spine_full_recall'):.3f}, "
          f"sibling skeleton rate {mean('sibling_skeleton_rate'):.2f}, distinct-step full rate {mean('distinct_step_full_rate'):.2f}, "
          f"over budget {sum(1 for r in rows.values() if r.get('within_budget') is False)}")
    if args.save:
        Path(args.save).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
