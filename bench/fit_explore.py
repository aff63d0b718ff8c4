"""Fit explore's ranking weights on the fit split, chosen by leave-one-corpus-out validation.

    python bench/fit_explore.py [--data FILE] [--write] [--folds DIR]

Reads the data set `bench/explore_dataset.py` wrote. For each regularization strength, fits a
logistic regression (standardized features, balanced classes) on all corpora but one and
scores the held-out corpus's questions with a simulated selection (candidates by probability
per character until the 28,000-character budget is spent; a gold unit counts when a chosen
unit matches it): the leave-one-corpus-out mean is what chooses the model. Beside it, the same
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

REPO = Path(__file__).resolve().parent.parent
WEIGHTS = REPO / "server" / "codegraph" / "explore" / "ranker_weights.json"
BUDGET = 26_000  # 28,000 less the flow listing and the file headings, roughly
OVERHEAD = 120  # a shown body's heading and fence, in characters
CS = (0.03, 0.1, 0.3, 1.0)


def recall(record: dict, order: list[int]) -> float:
    """Gold units matched by the candidates taken in `order` while they fit the budget."""
    left, chosen = BUDGET, []
    for i in order:
        cost = record["costs"][i] + OVERHEAD
        if cost <= left:
            chosen.append(record["units"][i])
            left -= cost
    hit = 0
    for path, s, e in record["gold"]:
        for p, a, b in chosen:
            lo, hi = max(a, s), min(b, e)
            if p == path and hi >= lo and hi - lo + 1 >= 0.9 * (e - s + 1):
                hit += 1
                break
    return hit / max(1, len(record["gold"]))


def per_char(record: dict, p: np.ndarray, alpha: float = 1.0) -> list[int]:
    costs = np.array(record["costs"], dtype=float) + OVERHEAD
    return list(np.argsort(-(p / costs**alpha), kind="stable"))


def fit(records: list[dict], c: float) -> tuple[StandardScaler, LogisticRegression]:
    x = np.array([row for r in records for row in r["rows"]], dtype=float)
    y = np.array([lab for r in records for lab in r["labels"]])
    scaler = StandardScaler().fit(x)
    scaler.scale_[scaler.scale_ == 0] = 1.0
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=2000).fit(scaler.transform(x), y)
    return scaler, model


def predict(scaler, model, record: dict) -> np.ndarray:
    return model.predict_proba(scaler.transform(np.array(record["rows"], dtype=float)))[:, 1]


def to_json(features, scaler, model) -> dict:
    return {
        "features": list(features),
        "mean": [float(v) for v in scaler.mean_],
        "scale": [float(v) for v in scaler.scale_],
        "coef": [round(float(v), 6) for v in model.coef_[0]],
        "intercept": round(float(model.intercept_[0]), 6),
    }


def loco(records: list[dict], c: float, alpha: float = 1.0) -> dict[str, float]:
    by_corpus = defaultdict(list)
    for r in records:
        by_corpus[r["corpus"]].append(r)
    out = {}
    for corpus, held in sorted(by_corpus.items()):
        train = [r for r in records if r["corpus"] != corpus]
        scaler, model = fit(train, c)
        for r in held:
            out[r["case_id"]] = recall(r, per_char(r, predict(scaler, model, r), alpha))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-explore-dataset.pkl"))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--folds")
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
    for c in CS:
        for alpha in (0.5, 1.0):
            scores = loco(records, c, alpha)
            results[(c, alpha)] = scores
            by_corpus = defaultdict(list)
            for r in records:
                by_corpus[r["corpus"]].append(scores[r["case_id"]])
            worst = min(by_corpus.items(), key=lambda t: statistics.mean(t[1]))
            print(f"C={c:<5} alpha={alpha}: leave-one-corpus-out {statistics.mean(scores.values()):.3f} (lowest corpus {statistics.mean(worst[1]):.2f})")
    (c, alpha), best = max(results.items(), key=lambda t: (statistics.mean(t[1].values()), -t[0][0]))
    print(f"chosen C={c}, alpha={alpha}: {statistics.mean(best.values()):.3f}")
    scaler, model = fit(records, c)
    weights = to_json(features, scaler, model)
    weights["alpha"] = alpha
    print("\n| feature | weight (standardized) |\n|---|---|")
    for name, w in sorted(zip(features, weights["coef"]), key=lambda t: -abs(t[1])):
        print(f"| {name} | {w:+.3f} |")
    if args.write:
        WEIGHTS.write_text(json.dumps(weights, indent=1) + "\n")
        print(f"wrote {WEIGHTS}")
    if args.folds:
        folds = Path(args.folds)
        folds.mkdir(parents=True, exist_ok=True)
        for corpus in sorted({r["corpus"] for r in records}):
            s, m = fit([r for r in records if r["corpus"] != corpus], c)
            fold = to_json(features, s, m)
            fold["alpha"] = alpha
            (folds / f"{corpus}.json").write_text(json.dumps(fold) + "\n")
        print(f"wrote {len({r['corpus'] for r in records})} fold models to {folds}")


if __name__ == "__main__":
    sys.exit(main())
