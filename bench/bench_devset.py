"""The development set's answers, per case and on average: explore and distill as a user runs them.

    python bench/bench_devset.py [--devset DIR] [--cg CODEGRAPH] [--save FILE] [--baseline FILE] [explore|distill ...]

distill also prints, per pack, the centrality floor (`bench/baseline_centrality.py`, scored through
the same `run.py --cg`) and the leave-one-corpus-out recall of the fitted selection (what
`bench/fit_distill.py` last wrote to `bench/distill-loco.json`), then the check split's
means (`run.py --split check`) for the engine and the floor.

Runs the development set's own scorer (`DIR/run.py`, default `../shared/devset` next to this
repository or $CODEGRAPH_DEVSET) on the `codegraph` CLI and prints one table per task: each
case's metrics, the means, and with `--baseline` (a file an earlier run wrote with `--save`)
the value before → after, with the cases that got worse marked. The corpora are fetched by the
development set's `materialize.sh`; nothing here downloads.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
METRICS = {
    "explore": ("spine_full_recall", "sibling_skeleton_rate", "distinct_step_full_rate"),
    "distill": ("anchor_full_recall", "role_agreement"),
}
HEADLINE = {"explore": "spine_full_recall", "distill": "anchor_full_recall"}


LOCO = REPO / "bench" / "distill-loco.json"
CHECK = re.compile(r"anchor full recall (\S+), role agreement (\S+)")


def floor_program() -> str:
    """An executable with the CLI's interface that runs the centrality floor in this interpreter."""
    path = Path(tempfile.gettempdir()) / f"codegraph-floor-{os.getpid()}.sh"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{REPO / "bench" / "baseline_centrality.py"}" "$@"\n')
    path.chmod(0o755)
    return str(path)


def run_check(devset: Path, cg: str) -> dict[str, float | None]:
    """The check split's means (run.py prints nothing else for it)."""
    proc = subprocess.run([sys.executable, str(devset / "run.py"), "distill", "--split", "check", "--cg", cg],
                          capture_output=True, text=True, check=False)
    m = CHECK.search(proc.stdout)
    if not m:
        raise SystemExit(f"check split: no summary\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    num = lambda v: None if v == "n/a" else float(v)
    return {"anchor_full_recall": num(m.group(1)), "role_agreement": num(m.group(2))}


def code_share(devset: Path, cg: str, cache: Path) -> dict[str, float]:
    """Per fit pack: the share of the sent frame (compact JSON, as the transports send it) that is source bodies."""
    out = {}
    for case in json.loads((devset / "distill_cases.json").read_text())["cases"]:
        proc = subprocess.run([cg, "distill", str(cache / case["corpus"]), "--format", "json"], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            continue
        pack = json.loads(proc.stdout)
        frame = len(json.dumps({"pack": pack}, ensure_ascii=False, separators=(",", ":")).encode())
        out[case["id"]] = sum(len(s.get("body", "").encode()) for s in pack.get("sources", [])) / frame
    return out


def distill_table(rows: dict, floor: dict, loco: dict, check: dict, floor_check: dict, share: dict) -> str:
    """Fit per pack (engine, leave-one-corpus-out, floor), the means, and the check split's means."""
    lines = ["| pack | fit recall | fit roles | LOCO recall | floor recall | code share |", "|---|---|---|---|---|---|"]
    for case, row in rows.items():
        lines.append(f"| {case} | {_fmt(row.get('anchor_full_recall'))} | {_fmt(row.get('role_agreement'))} | "
                     f"{_fmt(loco.get(case))} | {_fmt(floor.get(case, {}).get('anchor_full_recall'))} | {_fmt(share.get(case))} |")
    mean = lambda vals: _fmt(statistics.mean(vals)) if vals else "—"
    col = lambda rs, m: [r[m] for r in rs.values() if r.get(m) is not None]
    lines.append(f"| **fit mean** | {mean(col(rows, 'anchor_full_recall'))} | {mean(col(rows, 'role_agreement'))} | "
                 f"{mean([v for v in loco.values() if v is not None])} | {mean(col(floor, 'anchor_full_recall'))} | "
                 f"{mean(list(share.values()))} |")
    lines.append(f"| **check mean** | {_fmt(check.get('anchor_full_recall'))} | {_fmt(check.get('role_agreement'))} | — | "
                 f"{_fmt(floor_check.get('anchor_full_recall'))} | — |")
    return "\n".join(lines)


def run_task(devset: Path, cg: str, task: str) -> dict[str, dict]:
    """case id → the scorer's row for it."""
    proc = subprocess.run([sys.executable, str(devset / "run.py"), task, "--cg", cg], capture_output=True, text=True, check=False)
    rows = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            rows[row["case_id"]] = row
    if not rows:
        raise SystemExit(f"{task}: the scorer printed no case rows\n{proc.stderr[-2000:]}")
    return rows


def _fmt(value) -> str:
    return "—" if value is None else f"{value:.2f}"


def table(task: str, rows: dict[str, dict], before: dict[str, dict] | None) -> str:
    metrics = METRICS[task]
    head = "| case | " + " | ".join(metrics) + " |"
    lines = [head, "|" + "---|" * (len(metrics) + 1)]
    worse = 0
    for case, row in rows.items():
        cells = []
        for m in metrics:
            old = (before or {}).get(case, {}).get(m)
            cell = _fmt(row.get(m)) if before is None else f"{_fmt(old)} → {_fmt(row.get(m))}"
            if before is not None and m == HEADLINE[task] and old is not None and row.get(m) is not None and row[m] < old - 1e-9:
                cell += " **worse**"
                worse += 1
            cells.append(cell)
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    means = []
    for m in metrics:
        now = [r[m] for r in rows.values() if r.get(m) is not None]
        old = [r[m] for r in (before or {}).values() if r.get(m) is not None]
        mean_now = statistics.mean(now) if now else None
        means.append(_fmt(mean_now) if before is None else f"{_fmt(statistics.mean(old) if old else None)} → {_fmt(mean_now)}")
    lines.append("| **mean** | " + " | ".join(means) + " |")
    if before is not None:
        lines.append(f"\n{worse} case(s) worse on {HEADLINE[task]}.")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # No argparse `choices` here: with nargs="*" it rejects the list default on Python 3.11.
    ap.add_argument("tasks", nargs="*", help="explore and/or distill (default both)")
    ap.add_argument("--devset", default=os.environ.get("CODEGRAPH_DEVSET", str(next((p for p in (REPO.parent / "shared" / "devset", REPO.parent.parent / "shared" / "devset") if p.is_dir()), REPO.parent / "shared" / "devset"))))
    ap.add_argument("--cg", default=shutil.which("codegraph") or str(Path(sys.executable).parent / "codegraph"))
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "codegraph-devset"), help="materialized corpora")
    ap.add_argument("--save", help="write this run's rows as JSON (a later --baseline)")
    ap.add_argument("--baseline", help="a JSON file an earlier run wrote with --save")
    args = ap.parse_args()
    tasks = args.tasks or ["explore", "distill"]
    unknown = sorted(set(tasks) - {"explore", "distill"})
    if unknown:
        ap.error(f"tasks must be explore or distill, not {', '.join(unknown)}")
    devset = Path(args.devset)
    if not (devset / "run.py").is_file():
        raise SystemExit(f"no development set at {devset} (set --devset or CODEGRAPH_DEVSET)")
    before = json.loads(Path(args.baseline).read_text()) if args.baseline else {}
    saved = {}
    for task in tasks:
        rows = run_task(devset, args.cg, task)
        saved[task] = rows
        print(f"\n## {task}\n")
        print(table(task, rows, before.get(task) if args.baseline else None))
        if task == "distill":
            floor_cg = floor_program()
            saved["distill_floor"] = floor = run_task(devset, floor_cg, task)
            saved["distill_check"] = check = run_check(devset, args.cg)
            saved["distill_floor_check"] = floor_check = run_check(devset, floor_cg)
            Path(floor_cg).unlink()
            saved["distill_code_share"] = share = code_share(devset, args.cg, Path(args.cache))
            loco = json.loads(LOCO.read_text()) if LOCO.is_file() else {}
            print("\n## distill: fit, leave-one-corpus-out, floor, check\n")
            print(distill_table(rows, floor, loco, check, floor_check, share))
    if args.save:
        Path(args.save).write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
