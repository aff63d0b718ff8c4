"""Explore on the fit split in-process, scored by the development set's own scorer; with
`--folds DIR`, each corpus's questions are answered by the model fitted without that corpus
(leave-one-corpus-out, end to end). With `--plain`, each question is asked in plain words instead
(`bench/explore_plain.json`, the same gold); with `--floor`, the BM25 floor answers instead; with
`--oracle`, a perfect ranking of the same candidates (needed 0.9, others 0.01) goes through the real
gate and packer: the ceiling a better ranking could reach.

    python bench/eval_explore.py [--folds DIR] [--plain] [--floor] [--oracle] [--save FILE] [CASE_ID ...]
    python bench/eval_explore.py --against BEFORE.json [--saved AFTER.json]   # what moved, with its 90 % interval

One index per corpus (the CLI builds one per question), so the whole fit split takes minutes.
The check split is only ever run through the CLI (`bench_devset.py`), means only.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from explore_dataset import PLAIN, cases_by_corpus, gold_units, index_or_report, matches, question_args  # noqa: E402


def oracle_ranking():
    """Ranks each question's candidates by its gold from now on, through the real gate and packer.
    Returns (ask, restore): `ask(case)` before each question, `restore()` to rank by the model again."""
    from codegraph.explore import engine, ranker

    plain, seen, golds = engine.candidate_table, [], []

    def table(index, req, front):
        cands, rows, links = plain(index, req, front)
        seen[:] = cands
        return cands, rows, links

    class Gold:
        alpha = ranker.model().alpha

        def rank(self, rows, links):
            return [0.9 if any(matches(u, g) for g in golds) else 0.01 for u in seen]

    def ask(case: dict) -> None:
        golds[:] = gold_units(case)
        ranker.use(Gold())

    def restore() -> None:
        engine.candidate_table = plain
        ranker.use(None)

    engine.candidate_table = table
    return ask, restore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    question_args(ap)
    ap.add_argument("--folds")
    ap.add_argument("--save")
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--against", help="a --save file: print what moved, per corpus and per question, and the lowest corpora")
    ap.add_argument("--plain", action="store_const", const=str(PLAIN), help="ask each question in its plain-words variant instead (bench/explore_plain.json)")
    ap.add_argument("--floor", action="store_true", help="answer with the BM25 floor (baseline_bm25.py) instead of explore")
    ap.add_argument("--extra", choices=("also", "only"), default="", help="the project's own questions (bench/devset_extra/) too, or only those")
    ap.add_argument("--oracle", action="store_true", help="rank the candidates by the gold (the ceiling of the gate and packer)")
    ap.add_argument("--saved", help="with --against: compare this saved run instead of answering again")
    args = ap.parse_args()
    devset = Path(args.devset)
    sys.path.insert(0, str(devset))
    import run as devset_run  # noqa: E402  (the scorer's own markdown reader)
    import score  # noqa: E402
    from baseline_bm25 import answer as floor_answer
    from codegraph.explore import ranker
    from codegraph.requests import run_explore

    data, by_corpus = cases_by_corpus(devset, args.cases, Path(args.plain) if args.plain else None, originals=not args.plain, extra=args.extra)
    if args.saved and args.against:
        print(compare(json.loads(Path(args.against).read_text()), json.loads(Path(args.saved).read_text()),
                      {c["id"]: corpus for corpus, cases in by_corpus.items() for c in cases}))
        return
    budget = data.get("budget_chars", 28000)
    ask, restore = oracle_ranking() if args.oracle else (None, None)
    rows = {}
    for corpus, cases in sorted(by_corpus.items()):
        if args.folds:
            fold = Path(args.folds) / f"{corpus}.json"
            ranker.use(ranker.Model.from_json(json.loads(fold.read_text())) if fold.is_file() else None)
        index = index_or_report(Path(args.corpora) / corpus, Path(args.cache_dir))
        if index is None:
            for case in cases:
                rows[case["id"]] = {"case_id": case["id"], "spine_full_recall": 0.0, "error": True}
            continue
        for case in cases:
            if ask:
                ask(case)
            expected = None
            if args.floor:
                text = floor_answer(Path(args.corpora) / corpus, case["question"], budget)
            else:
                result = run_explore(index, {"query": case["question"], "maxOutputChars": budget})
                text, expected = result["text"], result["stats"].get("expectedRecall")
            units = [{"path": p, "start_line": s, "end_line": e, "mode": "full"} for p, runs in devset_run.shown_ranges(text).items() for s, e in runs]
            row = score.score_explore(case, {"case_id": case["id"], "output_chars": len(text), "units": units})
            row["expected_recall"] = expected
            rows[case["id"]] = row
            print(json.dumps({k: row.get(k) for k in ("case_id", "spine_full_recall", "sibling_skeleton_rate", "distinct_step_full_rate", "output_chars")}), flush=True)
            if args.detail:
                devset_run.detail(case["spine"], units, "spine")
    ranker.use(None)
    if restore:
        restore()
    split_of = {c["id"]: c.get("split", "fit") for cases in by_corpus.values() for c in cases}
    for split in sorted(set(split_of.values())):
        part = [r for k, r in rows.items() if split_of[k] == split]
        mean = lambda k: statistics.mean([r[k] for r in part if r.get(k) is not None] or [0.0])  # noqa: E731
        name = "fit" if split == "fit" else "the project's own questions"
        print(f"{name}{' (leave-one-corpus-out)' if args.folds else ''}: {len(part)} cases, spine full recall {mean('spine_full_recall'):.3f}, "
              f"sibling skeleton rate {mean('sibling_skeleton_rate'):.2f}, distinct-step full rate {mean('distinct_step_full_rate'):.2f}, "
              f"over budget {sum(1 for r in part if r.get('within_budget') is False)}")
    print(calibration(list(rows.values())))
    if args.save:
        Path(args.save).write_text(json.dumps(rows, indent=1) + "\n")
    if args.against:
        print(compare(json.loads(Path(args.against).read_text()), rows, {c["id"]: corpus for corpus, cases in by_corpus.items() for c in cases}))


def calibration(rows: list[dict]) -> str:
    """How well the answer's own `expectedRecall` tells a good answer from a poor one: its
    correlation with the scorer's spine recall, and both by quarter of the estimate."""
    pairs = sorted((r["expected_recall"], r["spine_full_recall"] or 0.0) for r in rows if r.get("expected_recall") is not None)
    if len(pairs) < 8:
        return ""
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    corr = statistics.correlation(xs, ys) if len(set(xs)) > 1 and len(set(ys)) > 1 else float("nan")
    n = len(pairs)
    quarters = [pairs[i * n // 4 : (i + 1) * n // 4] for i in range(4)]
    return (f"expectedRecall against spine recall: correlation {corr:.2f}; by quarter of the estimate "
            + ", ".join(f"{statistics.mean(x for x, _ in q):.2f} → {statistics.mean(y for _, y in q):.2f}" for q in quarters))


def interval(before: dict, after: dict, by_corpus: dict[str, list[str]], key: str, draws: int = 2000) -> str:
    """The mean difference and its 90 % interval with the corpora resampled (a corpus's questions
    move together: one index, one writer's reading of it), and how many corpora moved each way.
    A change whose interval holds 0 is within what this many questions can tell apart."""
    diff = {c: [(after[k][key] or 0.0) - (before[k][key] or 0.0) for k in ks] for c, ks in by_corpus.items()}
    corpora = sorted(diff)
    total = lambda cs: sum(sum(diff[c]) for c in cs) / max(1, sum(len(diff[c]) for c in cs))  # noqa: E731
    rng = random.Random(0)
    means = sorted(total([rng.choice(corpora) for _ in corpora]) for _ in range(draws))
    up = sum(1 for c in corpora if sum(diff[c]) > 1e-9)
    down = sum(1 for c in corpora if sum(diff[c]) < -1e-9)
    return (f"difference {total(corpora):+.3f}, 90 % interval over resampled corpora {means[int(0.05 * draws)]:+.3f} … "
            f"{means[int(0.95 * draws) - 1]:+.3f}; corpora up {up}, down {down}, the same {len(corpora) - up - down}")


def compare(before: dict, after: dict, corpus_of: dict[str, str], key: str = "spine_full_recall") -> str:
    """What moved between two runs on the same cases: the means, each corpus and each question
    that changed, and the lowest corpora after (a change lands with its worse cases explained)."""
    ids = [k for k in after if k in before]
    by_corpus: dict[str, list[str]] = defaultdict(list)
    for k in ids:
        by_corpus[corpus_of.get(k, k)].append(k)
    mean = lambda rows, ks: statistics.mean(rows[k][key] or 0.0 for k in ks)  # noqa: E731
    lines = [f"{key}: {mean(before, ids):.3f} -> {mean(after, ids):.3f} ({len(ids)} cases)", "  " + interval(before, after, by_corpus, key)]
    for corpus, ks in sorted(by_corpus.items()):
        a, b = mean(before, ks), mean(after, ks)
        if abs(a - b) > 1e-9:
            lines.append(f"  {corpus:<12} {a:.2f} -> {b:.2f}")
            lines += [f"      {k:<40} {before[k][key] or 0:.2f} -> {after[k][key] or 0:.2f}" for k in ks if abs((before[k][key] or 0) - (after[k][key] or 0)) > 1e-9]
    lowest = sorted((mean(after, ks), c) for c, ks in by_corpus.items())[:3]
    lines.append("lowest corpora after: " + ", ".join(f"{c} {v:.2f}" for v, c in lowest))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
