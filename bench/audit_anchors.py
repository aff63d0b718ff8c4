"""What each fit question is taken to point at, and whether the answer needs it.

    python bench/audit_anchors.py [--devset DIR] [--corpora DIR] [--save FILE] [--against FILE] [CASE_ID ...]

Runs explore's stages before the ranking (`engine.understand`) on every fit question and prints,
per question, its anchors — the symbols it names in code form (`strong`) and the plain words and
best word matches the flow also starts from (`weak`) — each marked `+` when it is a needed unit
(a gold spine unit or distinct step it matches, as `explore_dataset.py` labels them) and `-` when
not; then the counts, and the flow's spine: how many of its units are needed and how many needed
units it holds. The anchors decide the flow, and the flow is the ranking's strongest evidence: a
rule that changes what a question points at is read here first, question by question
(`--against` a saved run prints only the questions whose anchors moved). Fit split only: the check
split's gold is not for diagnosis.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from explore_dataset import PLAIN, cases_by_corpus, gold_units, index_or_report, matches, question_args  # noqa: E402


def audit(index, case: dict, budget: int) -> dict:
    from codegraph.explore.engine import understand
    from codegraph.explore.model import ExploreRequest

    front = understand(index, ExploreRequest(case["question"], budget), lambda: None)
    golds = gold_units(case)
    units = index.resolver.units

    def needed(uid: str) -> bool:
        u = units.get(uid)
        return u is not None and any(matches(u, g) for g in golds)

    spine = sorted(front.flow.spine)
    return {
        "strong": [[u.id, needed(u.id)] for u in front.strong],
        "weak": [[u.id, needed(u.id)] for u in front.weak],
        "spine_needed": sum(needed(uid) for uid in spine),
        "spine_size": len(spine),
        "needed_on_spine": sum(1 for g in golds if any(matches(units[uid], g) for uid in spine if uid in units)),
        "needed": len(golds),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    question_args(ap)
    ap.add_argument("--save", help="write every question's anchors here (JSON)")
    ap.add_argument("--against", help="a --save file: print only the questions whose anchors moved")
    ap.add_argument("--plain", action="store_const", const=str(PLAIN), help="the questions in plain words instead (bench/explore_plain.json)")
    args = ap.parse_args()
    data, by_corpus = cases_by_corpus(Path(args.devset), args.cases, Path(args.plain) if args.plain else None, originals=not args.plain)
    out: dict[str, dict] = {}
    for corpus, cases in sorted(by_corpus.items()):
        index = index_or_report(Path(args.corpora) / corpus, Path(args.cache_dir))
        if index is None:
            continue
        for case in cases:
            out[case["id"]] = audit(index, case, data.get("budget_chars", 28000))
    before = json.loads(Path(args.against).read_text()) if args.against else {}
    totals = defaultdict(int)
    for cid, row in out.items():
        for kind in ("strong", "weak"):
            totals[kind + "_needed"] += sum(ok for _, ok in row[kind])
            totals[kind] += len(row[kind])
        for key in ("spine_needed", "spine_size", "needed_on_spine", "needed"):
            totals[key] += row[key]
        old = before.get(cid)
        if before and old is not None and (old["strong"], old["weak"]) == (row["strong"], row["weak"]):
            continue
        marks = lambda pairs: " ".join(("+" if ok else "-") + uid.split("::", 1)[-1] for uid, ok in pairs)  # noqa: E731
        print(f"{cid}\n  strong: {marks(row['strong']) or '—'}\n  weak:   {marks(row['weak']) or '—'}\n"
              f"  spine: {row['spine_needed']} of {row['spine_size']} units needed, {row['needed_on_spine']} of {row['needed']} needed units on it")
        if old is not None:
            print(f"  before: strong {marks(old['strong']) or '—'} | weak {marks(old['weak']) or '—'} | spine {old['spine_needed']} of {old['spine_size']}")
    print(f"\n{len(out)} questions: strong anchors {totals['strong_needed']} of {totals['strong']} needed, "
          f"weak anchors {totals['weak_needed']} of {totals['weak']} needed; the spines hold {totals['spine_needed']} needed "
          f"of {totals['spine_size']} units, {totals['needed_on_spine']} of the {totals['needed']} needed units")
    if args.save:
        Path(args.save).write_text(json.dumps(out, indent=0) + "\n")


if __name__ == "__main__":
    main()
