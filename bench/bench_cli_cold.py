"""The CLI's cost per run: each `codegraph explore` is a fresh process that reassembles the index
from the fact cache and, before explore/persist.py, built explore's word index and the ranked
graph's callers again every time.

    python bench/bench_cli_cold.py ROOT... [--question Q] [--old SERVER_DIR] [--runs N]
    python bench/bench_cli_cold.py --warm ROOT     # a server's warm questions, stored word index or built

For each repository and each code tree (this checkout's `server/`, and with --old another one, e.g.
`git -C /work/main archive 8292a9d server | tar -x -C /tmp/old` then `--old /tmp/old/server`), in a
cache directory of its own that starts empty: the first run (a cold cache: every file parsed),
then N more runs of the same question on the unchanged files. Prints the wall time and peak RSS
(`/usr/bin/time -v`) of each, the cache directory's size after the first and the last run, the
old/new ratio of the later runs' median, and whether every answer is byte-identical to the first.

--warm ROOT (Django: `bench/.corpora/django-5.2.8`; the questions of bench_explore.py): in one
process, each question asked twice (the second is the warm latency a server answers with) on an
index whose word index was built, then on a second index of the same cache whose word index was
read from it (postings decoded word by word, `persist.StoredPostings`): the warm medians and p90s
side by side, and whether every answer is the same.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
QUESTION = "how does a channel pipeline pass an event to the next handler?"
RUN = "import sys; from codegraph.cli import main; sys.argv = ['codegraph'] + sys.argv[1:]; sys.exit(main())"


def run(server: Path, cache: Path, root: str, question: str, max_chars: int) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in MB, answer) of one CLI explore."""
    env = dict(os.environ, PYTHONPATH=str(server), XDG_CACHE_HOME=str(cache))
    cmd = ["/usr/bin/time", "-v", sys.executable, "-c", RUN, "explore", root, question, "--max-chars", str(max_chars)]
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"explore failed ({done.returncode}): {done.stderr[-2000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return wall, int(rss.group(1)) // 1024 if rss else 0, done.stdout


def size_mb(directory: Path) -> float:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file()) / 1e6


def measure(server: Path, root: str, question: str, runs: int, max_chars: int) -> dict:
    cache = Path(tempfile.mkdtemp(prefix="bench-cli-cold-"))
    try:
        first = run(server, cache, root, question, max_chars)
        after_first = size_mb(cache)
        later = [run(server, cache, root, question, max_chars) for _ in range(runs)]
        return {
            "first": first[0], "first_rss": first[1], "later": [r[0] for r in later], "later_rss": max(r[1] for r in later),
            "cache_first": after_first, "cache_last": size_mb(cache), "answer": first[2],
            "same": all(r[2] == first[2] for r in later),
        }
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def warm_phase(root: Path, cache: Path, stored: bool) -> None:
    """One process: the index on `cache`, its word index read (`stored`) or built; prints the warm
    latencies and a digest of the answers as one JSON line."""
    import hashlib
    import json

    sys.path.insert(0, str(HERE / "bench"))
    from bench_explore import QUESTIONS
    from codegraph.explore import persist
    from codegraph.explore.tables import derived
    from codegraph.index.index import RootIndex
    from codegraph.requests import run_explore

    if not stored:
        persist.load_words = lambda index: None
    index = RootIndex(root, cache_dir=cache)
    index.build()
    read = bool(derived(index).memo.get("words-read"))
    digest, warm = hashlib.sha256(), []
    for q in QUESTIONS:
        run_explore(index, {"query": q})
        t = time.perf_counter()
        digest.update(run_explore(index, {"query": q})["text"].encode())
        warm.append((time.perf_counter() - t) * 1000)
    persist.keep(index)
    index.close()
    print(json.dumps({"read": read, "warm": warm, "answers": digest.hexdigest()}))


def warm_check(root: Path, rounds: int = 3) -> None:
    import json

    cache = Path(tempfile.mkdtemp(prefix="bench-cli-warm-"))
    env = dict(os.environ, PYTHONPATH=str(HERE / "server"))
    try:
        got: dict[str, list[float]] = {"built": [], "stored": []}
        answers = set()
        for _ in range(rounds):  # alternating, each a process of its own: the machine's load drifts
            for label in ("built", "stored"):
                out = subprocess.run([sys.executable, __file__, "--warm-phase", label, "--warm", str(root), "--cache", str(cache)],
                                     env=env, capture_output=True, text=True, check=True).stdout
                row = json.loads(out.strip().splitlines()[-1])
                assert row["read"] == (label == "stored"), row["read"]
                got[label] += row["warm"]
                answers.add(row["answers"])
        for label, warm in got.items():
            warm.sort()
            print(f"{label:<7} warm median {statistics.median(warm):.0f} ms, p90 {warm[int(round(0.9 * (len(warm) - 1)))]:.0f} ms ({len(warm)} questions)")
        print(f"answers {'identical' if len(answers) == 1 else 'DIFFER'}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="*")
    ap.add_argument("--warm", type=Path, help="compare a server's warm questions on a stored word index with a built one")
    ap.add_argument("--question", default=QUESTION)
    ap.add_argument("--old", type=Path, help="another tree's server/ directory to compare with")
    ap.add_argument("--runs", type=int, default=2, help="runs after the first (default 2)")
    ap.add_argument("--max-chars", type=int, default=28000)
    ap.add_argument("--warm-phase", choices=("built", "stored"), help=argparse.SUPPRESS)
    ap.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.warm_phase:
        warm_phase(args.warm.resolve(), args.cache, args.warm_phase == "stored")
        return 0
    if args.warm:
        warm_check(args.warm.resolve())
        return 0
    trees = [("new", HERE / "server")] + ([("old", args.old.resolve())] if args.old else [])
    print(f"question: {args.question!r}; {args.runs} runs after the first, each a fresh process")
    print(f"{'repository':<28} {'tree':<4} {'1st s':>7} {'later s':>16} {'RSS MB 1st/later':>17} {'cache MB 1st→last':>18}  same")
    for root in args.roots:
        got = {}
        for name, server in trees:
            m = got[name] = measure(server, root, args.question, args.runs, args.max_chars)
            later = "/".join(f"{s:.1f}" for s in m["later"])
            print(f"{Path(root).name:<28} {name:<4} {m['first']:>7.1f} {later:>16} {m['first_rss']:>8}/{m['later_rss']:<8} "
                  f"{m['cache_first']:>8.1f}→{m['cache_last']:<8.1f}  {'yes' if m['same'] else 'NO'}", flush=True)
        if "old" in got:
            new, old = got["new"], got["old"]
            print(f"{'':<28} old/new: first {old['first'] / new['first']:.2f}×, later (median) "
                  f"{statistics.median(old['later']) / statistics.median(new['later']):.2f}×; "
                  f"answers {'identical' if old['answer'] == new['answer'] else 'DIFFER'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
