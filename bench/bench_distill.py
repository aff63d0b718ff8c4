"""First and repeated `codegraph/distill` on a warm index, two (or more) source trees interleaved.

    python bench/bench_distill.py OLD=/tmp/old/server NEW=server [--corpus django] [--runs 3] [--profile FILE]

Each tree is a directory holding the `codegraph` package (e.g. `git archive c576f64 server |
tar -x -C /tmp/old`). Every run is a fresh child process that builds `RootIndex(root)` from the
cache (warm; the first run of a tree writes it), then times in-process: the first distill request
at that index version (overview, JSON, as the LSP sends it), the same request again (answered
from memory), a markdown overview after it (the per-version analysis is shared), and the first request
after one file was changed as an editor hands it over (`open_document`: a new index version). CPU is
`time.process_time()` of the child, wall `time.perf_counter()`. Runs alternate between the trees
(A B A B …, after one untimed warm-up run per tree, which also writes the bytecode caches:
PYTHONDONTWRITEBYTECODE is dropped for the children unless --compile-each-run); the table gives
medians and the ratio of each tree to the first.
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
import json, sys, time
sys.path.insert(0, sys.argv[1])
from codegraph.index.index import RootIndex
from codegraph import service
index = RootIndex(sys.argv[2])
index.build()
out = {"files": len(index.files)}
def timed(name, params):
    c, w = time.process_time(), time.perf_counter()
    r = service.distill(index, params, service.LSP)
    out[name] = {"cpu": time.process_time() - c, "wall": time.perf_counter() - w}
    return r
if len(sys.argv) > 3:  # --profile FILE: only the first request, under cProfile
    import cProfile
    prof = cProfile.Profile()
    prof.enable()
    timed("first", {"format": "json"})
    prof.disable()
    prof.dump_stats(sys.argv[3])
else:
    timed("first", {"format": "json"})
    timed("repeat", {"format": "json"})
    timed("markdown", {"format": "markdown"})
    # an editor's change to one file (as didOpen/didChange hand it over): a new index version
    rel = sorted(index.files)[len(index.files) // 2]
    c, w = time.process_time(), time.perf_counter()
    index.open_document(rel, index.sources[rel].decode("utf-8", "replace") + "\\n")
    out["edit"] = {"cpu": time.process_time() - c, "wall": time.perf_counter() - w}
    timed("after edit", {"format": "json"})
print(json.dumps(out))
"""

KINDS = ("first", "repeat", "markdown", "after edit")


def run(tree: str, root: Path, env: dict[str, str], profile: str | None = None) -> dict:
    argv = [sys.executable, "-c", CHILD, tree, str(root)] + ([profile] if profile else [])
    proc = subprocess.run(argv, stdout=subprocess.PIPE, env=env, check=False)
    if proc.returncode:
        raise SystemExit(f"distill with {tree} failed ({proc.returncode})")
    return json.loads(proc.stdout.decode().strip().splitlines()[-1])


def ms(x: float) -> str:
    return f"{x * 1000:.0f} ms" if x >= 0.01 else f"{x * 1000:.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="+", help="LABEL=DIR (DIR holds the codegraph package)")
    ap.add_argument("--corpus", default="django")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", metavar="FILE", help="profile the first request of the last tree into FILE (cProfile) and stop")
    ap.add_argument("--compile-each-run", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE if set: every run compiles the distill modules from source (about 40 ms)")
    args = ap.parse_args()
    root = require_corpus(args.corpus)
    trees = [t.split("=", 1) for t in args.trees]
    env = {**os.environ, "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME") or tempfile.mkdtemp(prefix="cg-distill-")}
    if not args.compile_each_run:  # as an installed package: the warm-up run writes the bytecode caches
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    for label, tree in trees:  # warm-up: writes (or checks) each tree's cache
        run(str(Path(tree).resolve()), root, env)
    if args.profile:
        label, tree = trees[-1]
        run(str(Path(tree).resolve()), root, env, args.profile)
        print(f"profile of {label}'s first request in {args.profile}")
        return
    rows: dict[str, list[dict]] = {label: [] for label, _ in trees}
    for i in range(args.runs):
        for label, tree in trees if i % 2 == 0 else trees[::-1]:
            r = run(str(Path(tree).resolve()), root, env)
            rows[label].append(r)
            print(f"run {i + 1} {label}: " + "  ".join(f"{k} cpu {ms(r[k]['cpu'])} wall {ms(r[k]['wall'])}" for k in KINDS), flush=True)
    print(f"\n{args.corpus}, {args.runs} runs each, interleaved ({time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f})")
    base: dict[str, tuple[float, float]] = {}
    for label, _ in trees:
        cells = []
        for k in KINDS:
            cpu = statistics.median(r[k]["cpu"] for r in rows[label])
            wall = statistics.median(r[k]["wall"] for r in rows[label])
            b = base.setdefault(k, (cpu, wall))
            cells.append(f"{k}: cpu {ms(cpu)} ({cpu / b[0]:.2f}x) wall {ms(wall)} ({wall / b[1]:.2f}x)")
        print(f"{label:>6}  " + "  |  ".join(cells))


if __name__ == "__main__":
    main()
