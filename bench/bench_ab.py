"""Cold index builds of two (or more) source trees, interleaved to cancel machine noise.

    python bench/bench_ab.py OLD=/tmp/old/server NEW=server [--corpus django] [--runs 3]

Each tree is a directory holding the `codegraph` package (e.g. `git archive 57a9604 server |
tar -x -C /tmp/old`). Every run is a fresh child process timing `RootIndex(root,
use_cache=False).build()`: wall time, CPU time of the child and its workers (user + sys), peak
RSS of the child. Runs alternate between the trees (A B A B …); the table gives medians and
the ratio of each tree to the first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import require_corpus  # noqa: E402

CHILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from codegraph.index.index import RootIndex
t = time.perf_counter()
index = RootIndex(sys.argv[2], use_cache=False)
index.build()
wall = time.perf_counter() - t
me = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": wall, "files": len(index.files), "rss_mb": me.ru_maxrss / 1024, "main_cpu": me.ru_utime + me.ru_stime}))
"""


def run(tree: str, root: Path, env: dict[str, str]) -> dict:
    proc = subprocess.Popen([sys.executable, "-c", CHILD, tree, str(root)], stdout=subprocess.PIPE, env=env)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"build with {tree} failed ({proc.returncode})")
    row = json.loads(out.decode().strip().splitlines()[-1])
    # wait4's usage covers the child and the workers it waited for
    row["cpu"] = usage.ru_utime + usage.ru_stime
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="+", help="LABEL=DIR (DIR holds the codegraph package)")
    ap.add_argument("--corpus", default="django")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    root = require_corpus(args.corpus)
    trees = [t.split("=", 1) for t in args.trees]
    env = {**os.environ, "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME") or tempfile.mkdtemp(prefix="cg-ab-")}
    rows: dict[str, list[dict]] = {label: [] for label, _ in trees}
    for i in range(args.runs):
        for label, tree in trees if i % 2 == 0 else trees[::-1]:
            r = run(str(Path(tree).resolve()), root, env)
            rows[label].append(r)
            print(f"run {i + 1} {label}: wall {r['wall']:.2f} s  cpu {r['cpu']:.2f} s (main process {r['main_cpu']:.2f} s)  rss {r['rss_mb']:.0f} MB  files {r['files']}", flush=True)
    base = None
    print(f"\n{args.corpus}, {args.runs} runs each, interleaved ({time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f})")
    for label, _ in trees:
        wall = statistics.median(r["wall"] for r in rows[label])
        cpu = statistics.median(r["cpu"] for r in rows[label])
        rss = statistics.median(r["rss_mb"] for r in rows[label])
        if base is None:
            base = (wall, cpu, rss)
        print(
            f"{label:>8}: wall {wall:.2f} s ({wall / base[0]:.3f}x)  cpu {cpu:.2f} s ({cpu / base[1]:.3f}x)  "
            f"rss {rss:.0f} MB ({rss / base[2]:.3f}x)"
        )


if __name__ == "__main__":
    main()
