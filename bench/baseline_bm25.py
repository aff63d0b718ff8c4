"""The floor explore must beat: plain BM25 over the project's own units, full bodies in rank order.

    python bench/baseline_bm25.py explore ROOT QUESTION --json --max-chars N

The CLI's interface (`{"text": …}` on stdout), so the development set's `run.py --cg` scores it
exactly like the engine. Question words (split like explore's, stemmed by the light stemmer explore had when the floor was set) against each unit's
name (×3) and its body words; tests and inline test modules left out; each unit's whole body in
rank order until the budget is full. No graph, no flow, no learning: if explore does not clearly
beat this on unseen code, its decision layer adds nothing.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]{2,}")


def stem(word: str) -> str:
    """Plurals, -ing, -ed and a final e: the floor's own light stemmer, fixed, so the floor does not
    move when explore's word handling changes."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def answer(root: Path, question: str, budget: int) -> str:
    from codegraph.explore.relevance import STOP, split_words
    from codegraph.index.index import RootIndex
    from codegraph.render.markdown import numbered, section, split_lines
    from codegraph.workspace.scope import is_test_path

    index = RootIndex(root, cache_dir=Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-bm25-cache")
    index.build()
    words = [stem(w) for tok in re.findall(r"[A-Za-z_][\w]*", question) for w in split_words(tok) if w not in STOP and len(w) > 1]
    docs: dict[str, dict[str, int]] = {}
    units = {}
    for path, facts in index.files.items():
        if is_test_path(path):
            continue
        source = index.sources.get(path, b"")
        for u in facts.units:
            if u.kind == "statement" or any(seg in ("tests", "test") for seg in u.qualname.split(".")[:-1]):
                continue
            bag: dict[str, int] = defaultdict(int)
            for w in split_words(u.name):
                bag[stem(w)] += 3
            for ident in _IDENT.findall(source, u.start_byte, u.end_byte):
                for w in split_words(ident.decode("ascii")):
                    bag[stem(w)] += 1
            docs[u.id], units[u.id] = bag, u
    n = max(1, len(docs))
    avg = sum(sum(b.values()) for b in docs.values()) / n
    df = {w: sum(1 for b in docs.values() if w in b) for w in set(words)}
    scores = {}
    for uid, bag in docs.items():
        length = sum(bag.values())
        s = 0.0
        for w in words:
            tf = bag.get(w, 0)
            if tf:
                idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                s += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / avg))
        if s > 0:
            scores[uid] = s
    text, used = "", 0
    for uid in sorted(scores, key=lambda k: (-scores[k], k)):
        u = units[uid]
        lines = split_lines(index.sources.get(u.path, b""))
        body, _ = numbered(lines, [(u.start_line, u.end_line)])
        piece = section(u.path, [u.qualname], "clusters", body)
        if used + len(piece) > budget:
            continue
        text += piece
        used += len(piece)
    return text


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] != "explore":
        print(__doc__, file=sys.stderr)
        return 2
    root, question = Path(argv[1]), argv[2]
    budget = int(argv[argv.index("--max-chars") + 1]) if "--max-chars" in argv else 28000
    print(json.dumps({"text": answer(root, question, budget)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
