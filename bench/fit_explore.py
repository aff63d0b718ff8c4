"""Fit explore's ranking weights on the fit split, chosen by leave-one-corpus-out validation.

    python bench/fit_explore.py [--data FILE] [--write] [--folds DIR]

Reads the data set `bench/explore_dataset.py` wrote. For each regularization strength, fits a
logistic regression (standardized features; classes not re-balanced, so the probabilities
stay calibrated and probability per character means expected needed bodies per character) on
all corpora but one and scores the held-out corpus's questions with a simulated selection
(candidates by probability per character**alpha until the 28,000-character budget is spent; a
gold spine unit counts when a chosen unit matches it, as the scorer's spine recall counts):
the leave-one-corpus-out mean is what chooses the model. Beside it, the same
selection ordered by BM25 alone and by a perfect ranking (the ceiling of these candidates).
`--write` stores the chosen model, fitted on every fit question, as the shipped weights;
`--folds DIR` also writes one model per held-out corpus (for `bench_devset.py --loco`).
Needs the `bench` extra (scikit-learn, NumPy).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from codegraph.explore.ranker import CONTEXT, Linear, Model, context_rows, sigmoid  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WEIGHTS = REPO / "server" / "codegraph" / "explore" / "ranker_weights.json"
BUDGET = 26_000  # 28,000 less the flow listing and the file headings, roughly
OVERHEAD = 120  # a shown body's heading and fence, in characters
CS = (0.001, 0.003, 0.01, 0.03, 0.1, 1.0)
ALPHAS = (0.5, 0.75, 1.0)
INNER_FOLDS = 4  # corpus groups for the second stage's out-of-fold context


def recall(record: dict, order: list[int]) -> float:
    """Gold units matched by the candidates taken in `order` while they fit the budget."""
    left, chosen = BUDGET, []
    for i in order:
        cost = record["costs"][i] + OVERHEAD
        if cost <= left:
            chosen.append(record["units"][i])
            left -= cost
    hit = 0
    gold = record.get("spine", record["gold"])
    for path, s, e in gold:
        for p, a, b in chosen:
            lo, hi = max(a, s), min(b, e)
            if p == path and hi >= lo and hi - lo + 1 >= 0.9 * (e - s + 1):
                hit += 1
                break
    return hit / max(1, len(gold))


def per_char(record: dict, p: np.ndarray, alpha: float = 1.0) -> list[int]:
    costs = np.array(record["costs"], dtype=float) + OVERHEAD
    return list(np.argsort(-(p / costs**alpha), kind="stable"))


def _matrix(records: list[dict], extra: dict[str, list[list[float]]] | None = None) -> np.ndarray:
    rows = []
    for r in records:
        ctx = extra[r["case_id"]] if extra is not None else None
        rows += [row + ctx[i] for i, row in enumerate(r["rows"])] if ctx is not None else r["rows"]
    return np.array(rows, dtype=float)


def fit_linear(x: np.ndarray, y: np.ndarray, c: float) -> Linear:
    scaler = StandardScaler().fit(x)
    scaler.scale_[scaler.scale_ == 0] = 1.0
    lr = LogisticRegression(C=c, max_iter=3000).fit(scaler.transform(x), y)
    return Linear(tuple(float(v) for v in scaler.mean_), tuple(float(v) for v in scaler.scale_),
                  tuple(round(float(v), 6) for v in lr.coef_[0]), round(float(lr.intercept_[0]), 6))


def _labels(records: list[dict]) -> np.ndarray:
    return np.array([lab for r in records for lab in r["labels"]])


def first_stage(linear: Linear, record: dict) -> list[float]:
    return [sigmoid(linear.logit(row)) for row in record["rows"]]


def fit(records: list[dict], c: float, stages: int, alpha: float, features) -> Model:
    """Stage one on every record; stage two on stage one's out-of-fold probabilities (grouped
    by corpus, so a record's context never comes from a model that saw its corpus)."""
    first = fit_linear(_matrix(records), _labels(records), c)
    if stages == 1:
        return Model(tuple(features), first, None, alpha)
    corpora = sorted({r["corpus"] for r in records})
    groups = [corpora[i::INNER_FOLDS] for i in range(INNER_FOLDS)]
    ctx: dict[str, list[list[float]]] = {}
    for group in groups:
        inner = fit_linear(_matrix([r for r in records if r["corpus"] not in group]), _labels([r for r in records if r["corpus"] not in group]), c)
        for r in records:
            if r["corpus"] in group:
                ctx[r["case_id"]] = context_rows(first_stage(inner, r), r["links"])
    second = fit_linear(_matrix(records, ctx), _labels(records), c)
    return Model(tuple(features), first, second, alpha)


def loco(records: list[dict], c: float, stages: int, alpha: float, features) -> dict[str, float]:
    out = {}
    for corpus in sorted({r["corpus"] for r in records}):
        model = fit([r for r in records if r["corpus"] != corpus], c, stages, alpha, features)
        for r in records:
            if r["corpus"] == corpus:
                out[r["case_id"]] = recall(r, per_char(r, np.array(model.rank(r["rows"], r["links"])), alpha))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-explore-dataset.pkl"))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--folds")
    ap.add_argument("--second-stage", action="store_true", help="also try the second stage (never chosen so far; slow)")
    ap.add_argument("--fixed", metavar="C,ALPHA", help="skip the model choice and fit with these (an experiment's folds in seconds)")
    args = ap.parse_args()
    records = [r for r in pickle.loads(Path(args.data).read_bytes()) if r["labels"]]
    features = records[0]["features"]
    bm25 = features.index("bm25")
    print(f"{len(records)} questions, {len({r['corpus'] for r in records})} corpora, {sum(len(r['labels']) for r in records)} candidates, "
          f"{sum(sum(r['labels']) for r in records)} positives")
    cand_recall = statistics.mean(r["gold_in_candidates"] / max(1, len(r["gold"])) for r in records)
    base = {r["case_id"]: recall(r, list(np.argsort(-np.array([row[bm25] for row in r["rows"]]), kind="stable"))) for r in records}
    ceiling = {r["case_id"]: recall(r, per_char(r, np.array(r["labels"], dtype=float) + 1e-3)) for r in records}
    print(f"candidate recall {cand_recall:.3f}; simulated selection: BM25 order {statistics.mean(base.values()):.3f}, perfect ranking {statistics.mean(ceiling.values()):.3f}")
    results = {}
    if args.fixed:
        c, alpha = (float(v) for v in args.fixed.split(","))
        results[(c, 1, alpha)] = loco(records, c, 1, alpha, features)
    for c in CS if not args.fixed else ():
        for stages in ((1, 2) if args.second_stage else (1,)):
            for alpha in ALPHAS:
                scores = loco(records, c, stages, alpha, features)
                results[(c, stages, alpha)] = scores
                by_corpus = defaultdict(list)
                for r in records:
                    by_corpus[r["corpus"]].append(scores[r["case_id"]])
                worst = min(by_corpus.items(), key=lambda t: statistics.mean(t[1]))
                print(f"C={c:<5} stages={stages} alpha={alpha}: leave-one-corpus-out {statistics.mean(scores.values()):.3f} "
                      f"(lowest corpus {statistics.mean(worst[1]):.2f})", flush=True)
    (c, stages, alpha), best = max(results.items(), key=lambda t: (statistics.mean(t[1].values()), -t[0][1], -t[0][0]))
    print(f"chosen C={c}, stages={stages}, alpha={alpha}: {statistics.mean(best.values()):.3f}")
    extra = {r["case_id"] for r in records if r.get("split") == "extra"}
    if extra:  # the project's own questions too: the fit split's questions and these, each on their own
        print(f"  the fit split {statistics.mean(v for k, v in best.items() if k not in extra):.3f}, "
              f"the project's own questions {statistics.mean(best[k] for k in extra):.3f}")
    plain = [k for k in best if k.endswith("~plain")]
    if plain:  # the data set has the plain-words variants too: each half on its own
        print(f"  the questions as written {statistics.mean(v for k, v in best.items() if k not in plain):.3f}, "
              f"in plain words {statistics.mean(best[k] for k in plain):.3f}")
    model = fit(records, c, stages, alpha, features)
    print("\n| feature | first stage | second stage |\n|---|---|---|")
    second = model.second.coef if model.second else ()
    names = list(features) + (list(CONTEXT) if model.second else [])
    for i, name in enumerate(names):
        a_ = f"{model.first.coef[i]:+.3f}" if i < len(model.first.coef) else ""
        b_ = f"{second[i]:+.3f}" if i < len(second) else ""
        print(f"| {name} | {a_} | {b_} |")
    if args.write:
        WEIGHTS.write_text(json.dumps(model.to_json(), indent=1) + "\n")
        print(f"wrote {WEIGHTS}")
    if args.folds:
        folds = Path(args.folds)
        folds.mkdir(parents=True, exist_ok=True)
        for corpus in sorted({r["corpus"] for r in records}):
            fold = fit([r for r in records if r["corpus"] != corpus], c, stages, alpha, features)
            (folds / f"{corpus}.json").write_text(json.dumps(fold.to_json()) + "\n")
        print(f"wrote {len({r['corpus'] for r in records})} fold models to {folds}")


if __name__ == "__main__":
    sys.exit(main())
