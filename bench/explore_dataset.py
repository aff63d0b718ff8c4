"""The learning-to-rank data set for explore: every fit question's candidates, their features and labels.

    python bench/explore_dataset.py [--devset DIR] [--corpora DIR] [--out FILE] [CASE_ID ...]

For each question of the development set's fit split, runs explore's stages up to the ranking
in-process (`engine.understand`, `engine.candidate_table`) on the corpus's index and writes
one record per question: the candidates' feature rows, each candidate's cost in characters,
and whether it is a needed unit (a gold spine unit or distinct step it matches: it covers
≥ 90 % of the gold lines and the gold covers ≥ 50 % of it). `bench/fit_explore.py` reads it.
Never run on the check split: its gold is not for fitting.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DEVSET = Path(os.environ.get("CODEGRAPH_DEVSET", str(REPO.parent / "shared" / "devset")))
DEFAULT_CORPORA = Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-devset"


def gold_units(case: dict) -> list[dict]:
    return [g for g in case.get("spine", []) + case.get("distinct_steps", []) if "line" in g]


def matches(u, g: dict) -> bool:
    if u.path != g["path"]:
        return False
    lo, hi = max(u.start_line, g["line"]), min(u.end_line, g["end_line"])
    if lo > hi:
        return False
    inter = hi - lo + 1
    return inter >= 0.9 * (g["end_line"] - g["line"] + 1) and inter >= 0.5 * (u.end_line - u.start_line + 1)


DEFAULT_CACHE = Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-bench-cache"


PLAIN = REPO / "bench" / "explore_plain.json"
EXTRA = REPO / "bench" / "devset_extra"  # the project's own questions on corpora of neither split (extra_corpora.py fetches them)
PLAIN_SUFFIX = "~plain"


def plain_variants(cases: list[dict], plain: Path) -> list[dict]:
    """Each case asked again in plain words (`bench/explore_plain.json`: the same ids, questions
    rewritten without code-form names, by someone who read neither the gold nor the code), with
    the same gold: the answer does not depend on how it is asked. Its id ends in `~plain`."""
    said = {c["id"]: c["question"] for c in json.loads(Path(plain).read_text())["cases"]}
    return [dict(case, id=case["id"] + PLAIN_SUFFIX, question=said[case["id"]]) for case in cases if case["id"] in said]


def extra_cases(kind: str = "cases") -> list[dict]:
    """The project's own cases in `bench/devset_extra/` — explore questions (`cases`) or distill
    answer keys (`distill`) — each marked `"split": "extra"`."""
    return [dict(case, split="extra") for f in sorted(EXTRA.glob("*.json")) for case in json.loads(f.read_text()).get(kind, [])]


def cases_by_corpus(devset: Path, wanted: list[str], plain: Path | None = None, originals: bool = True, extra: str = "") -> tuple[dict, dict[str, list[dict]]]:
    """The fit split's explore cases (all, or the `wanted` ids), grouped by corpus; and the whole
    file. With `plain`, each case's plain-words variant too (or instead, without `originals`).
    `extra`: "also" adds the project's own questions (`bench/devset_extra/`), "only" takes them alone."""
    data = json.loads((Path(devset) / "explore_cases.json").read_text())
    wanted_ids = {w.removesuffix(PLAIN_SUFFIX) for w in wanted}  # a plain variant's id names its case
    pool = ([] if extra == "only" else data["cases"]) + (extra_cases() if extra else [])
    cases = [case for case in pool if not wanted_ids or case["id"] in wanted_ids]
    reworded = {case["id"][: -len(PLAIN_SUFFIX)]: case for case in plain_variants(cases, plain)} if plain else {}
    by_corpus: dict[str, list[dict]] = defaultdict(list)
    for case in cases:
        by_corpus[case["corpus"]] += ([case] if originals else []) + ([reworded[case["id"]]] if case["id"] in reworded else [])
    return data, by_corpus


def question_args(ap: argparse.ArgumentParser, which: str = "cases", help: str = "these case ids only (default: all)") -> None:
    """The arguments every script over the fit questions takes: which cases (or corpora), the
    development set, the corpora and the index cache."""
    ap.add_argument(which, nargs="*", help=help)
    ap.add_argument("--devset", default=str(DEFAULT_DEVSET))
    ap.add_argument("--corpora", default=str(DEFAULT_CORPORA))
    ap.add_argument("--cache-dir", default=str(DEFAULT_CACHE))


def open_index(root: Path, cache: Path):
    from codegraph.index.index import RootIndex

    index = RootIndex(root, cache_dir=cache)
    index.build()
    return index


def index_or_report(root: Path, cache: Path):
    """The corpus's index, or None after saying why it does not index (reported, not fatal)."""
    if not root.is_dir():  # an empty index would answer every question with nothing, silently
        print(f"{root.name}: not indexed (no directory {root}; run the development set's materialize.sh)", file=sys.stderr)
        return None
    try:
        return open_index(root, cache)
    except Exception as exc:
        print(f"{root.name}: not indexed ({type(exc).__name__}: {exc})", file=sys.stderr)
        return None


def records_for(index, cases: list[dict], budget: int) -> list[dict]:
    from codegraph.explore.engine import candidate_table, understand
    from codegraph.explore.features import FEATURES
    from codegraph.explore.model import ExploreRequest

    out = []
    for case in cases:
        req = ExploreRequest(case["question"], budget)
        t = time.perf_counter()
        front = understand(index, req, lambda: None)
        cands, rows, links = candidate_table(index, req, front)
        golds = gold_units(case)
        labels = [int(any(matches(u, g) for g in golds)) for u in cands]
        spine = [g for g in case.get("spine", []) if "line" in g]  # what the scorer's recall counts
        found = sum(1 for g in golds if any(matches(u, g) for u in cands))
        sources = index.sources
        costs = [len(sources.get(u.path, b"")[u.start_byte : u.end_byte].decode("utf-8", "replace")) + 8 * (u.end_line - u.start_line + 1) for u in cands]
        out.append({
            "case_id": case["id"], "corpus": case["corpus"], "split": case.get("split", "fit"), "features": FEATURES, "rows": rows, "links": links, "labels": labels, "costs": costs,
            "units": [(u.path, u.start_line, u.end_line) for u in cands], "names": [u.qualname for u in cands],  # for reading misses
            "gold": [(g["path"], g["line"], g["end_line"]) for g in golds],
            "spine": [(g["path"], g["line"], g["end_line"]) for g in spine],
            "gold_in_candidates": found, "seconds": time.perf_counter() - t,
        })
        print(f"{case['id']:<40} candidates {len(cands):>4}  positives {sum(labels):>3}  gold found {found}/{len(golds)}  {out[-1]['seconds']:.2f}s", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    question_args(ap)
    ap.add_argument("--out", default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-explore-dataset.pkl"))
    ap.add_argument("--plain", action="store_const", const=str(PLAIN), help="add each question's plain-words variant (bench/explore_plain.json)")
    ap.add_argument("--extra", action="store_const", const="also", default="", help="add the project's own questions (bench/devset_extra/)")
    args = ap.parse_args()
    data, by_corpus = cases_by_corpus(Path(args.devset), args.cases, Path(args.plain) if args.plain else None, extra=args.extra)
    records = []
    for corpus, cases in sorted(by_corpus.items()):
        index = index_or_report(Path(args.corpora) / corpus, Path(args.cache_dir))
        if index is None:
            continue
        records += records_for(index, cases, data.get("budget_chars", 28000))
    Path(args.out).write_bytes(pickle.dumps(records))
    print(f"{len(records)} questions → {args.out}")


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "server"))
    main()
