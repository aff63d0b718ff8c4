"""The development set's answers, per case and on average: explore and distill as a user runs them.

    python bench/bench_devset.py [--devset DIR] [--cg CODEGRAPH] [--save FILE] [--baseline FILE]
                                 [--check] [--floor] [--loco] [--plain] [--extra] [explore|distill ...]

distill also prints, per fit pack: the leave-one-corpus-out recall of the fitted selection (what
`bench/fit_distill.py --write` last wrote to `bench/distill-loco.json`; end to end, the engine's own
packs, in `bench/distill-loco-e2e.json` when it ran with `--e2e`), the centrality floor
(with --floor), and the share of the sent frame that is source bodies; with --check the check
split's means for the engine (and the floor).

Runs the development set's own scorer (`DIR/run.py`, default `../shared/devset` next to this
repository or $CODEGRAPH_DEVSET) on the `codegraph` CLI and prints one table per task: each
case's metrics, the means, and with `--baseline` (a file an earlier run wrote with `--save`)
the value before → after, with the cases that got worse marked. The corpora are fetched by the
development set's `materialize.sh`; nothing here downloads.

Then the summary every change to explore or distill lands with: the fit mean; with `--loco`,
explore's fit split answered corpus by corpus by weights fitted without that corpus; with
`--floor`, the plain baseline (`baseline_bm25.py`, `baseline_centrality.py`) scored exactly like
the engine; with `--check`, the check split's means for both (never its cases); with `--extra`,
the project's own cases on corpora of neither split (`bench/devset_extra/`), engine and floor; with `--plain`,
explore's fit questions asked in plain words (`bench/explore_plain.json`: no code-form names, the
same gold), engine and floor — how much of the answer rests on the asker naming the code.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import statistics
import shlex
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
LOCO_E2E = REPO / "bench" / "distill-loco-e2e.json"


def run_task(devset: Path, cg: str, task: str) -> dict[str, dict]:
    """case id → the scorer's row for it."""
    proc = subprocess.run([sys.executable, str(devset / "run.py"), task, "--cg", cg], capture_output=True, text=True, check=False)
    rows = _rows(proc)
    if not rows:
        raise SystemExit(f"{task}: the scorer printed no case rows\n{proc.stderr[-2000:]}")
    return rows


def check_means(devset: Path, cg: str, task: str) -> str:
    """The check split's summary line (means only: its cases are not for reading)."""
    proc = subprocess.run([sys.executable, str(devset / "run.py"), task, "--split", "check", "--cg", cg], capture_output=True, text=True, check=False)
    return next((line for line in proc.stdout.splitlines() if line.startswith(f"{task} (check)")), proc.stdout[-300:] + proc.stderr[-300:])


def floor_program(task: str) -> str:
    """The plain baseline behind the CLI's interface, as a program run.py can call."""
    script = REPO / "bench" / ("baseline_bm25.py" if task == "explore" else "baseline_centrality.py")
    shim = Path(tempfile.mkdtemp(prefix="cg-floor-")) / "floor"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(script))} \"$@\"\n")
    shim.chmod(0o755)
    return str(shim)


def loco_rows(devset: Path) -> dict[str, dict]:
    """explore's fit split, each corpus answered by weights fitted without it (fit_explore.py
    --folds, then eval_explore.py --folds): the estimate of how the weights do on unseen code."""
    folds = tempfile.mkdtemp(prefix="cg-folds-")
    subprocess.run([sys.executable, str(REPO / "bench" / "fit_explore.py"), "--folds", folds], check=True, capture_output=True)
    out = Path(folds) / "rows.json"
    subprocess.run([sys.executable, str(REPO / "bench" / "eval_explore.py"), "--devset", str(devset), "--folds", folds, "--save", str(out)], check=True, capture_output=True)
    return json.loads(out.read_text())


def plain_rows(devset: Path, extra: list[str]) -> dict[str, dict]:
    """explore's fit questions asked in plain words (no code-form names; the same gold), in
    process with the shipped weights, or the floor's answers with `--floor`."""
    out = Path(tempfile.mkdtemp(prefix="cg-plain-")) / "rows.json"
    subprocess.run([sys.executable, str(REPO / "bench" / "eval_explore.py"), "--devset", str(devset), "--plain", "--save", str(out), *extra], check=True, capture_output=True)
    return json.loads(out.read_text())


def extra_rows(devset: Path, cache: Path, cg: str, task: str) -> dict[str, dict]:
    """The project's own cases (`bench/devset_extra/`: explore questions and distill answer keys on
    corpora of neither split, fetched by extra_corpora.py into the corpora directory), run and
    scored by the development set's own functions, exactly like its cases."""
    sys.path.insert(0, str(devset))
    import run as devset_run  # noqa: E402  (the scorer's runner: CLI call, reading, scoring)

    budget = json.loads((devset / "explore_cases.json").read_text()).get("budget_chars", 28_000)  # the split's own budget
    rows = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for f in sorted((REPO / "bench" / "devset_extra").glob("*.json")):
            data = json.loads(f.read_text())
            root = cache / data["corpus"]["name"]
            for case in data.get("cases" if task == "explore" else "distill", []):
                rows[case["id"]] = (devset_run.explore_case(cg, case, root, budget, False) if task == "explore"
                                    else devset_run.distill_case(cg, case, root, False))
    return rows


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


def distill_table(rows: dict, floor: dict, loco: dict, share: dict, loco_e2e: dict | None = None) -> str:
    """Fit per pack (engine, leave-one-corpus-out simulated and end to end, floor, code share) and the means
    (the check split's means are in the summary above: its packs are not for reading)."""
    loco_e2e = loco_e2e or {}
    lines = ["| pack | fit recall | fit roles | LOCO recall | LOCO end to end | floor recall | code share |", "|---|---|---|---|---|---|---|"]
    for case, row in rows.items():
        lines.append(f"| {case} | {_fmt(row.get('anchor_full_recall'))} | {_fmt(row.get('role_agreement'))} | "
                     f"{_fmt(loco.get(case))} | {_fmt(loco_e2e.get(case))} | {_fmt(floor.get(case, {}).get('anchor_full_recall'))} | "
                     f"{_fmt(share.get(case))} |")
    mean = lambda vals: _fmt(statistics.mean(vals)) if vals else "—"
    col = lambda rs, m: [r[m] for r in rs.values() if r.get(m) is not None]
    lines.append(f"| **fit mean** | {mean(col(rows, 'anchor_full_recall'))} | {mean(col(rows, 'role_agreement'))} | "
                 f"{mean([v for v in loco.values() if v is not None])} | {mean(list(loco_e2e.values()))} | "
                 f"{mean(col(floor, 'anchor_full_recall'))} | {mean(list(share.values()))} |")
    return "\n".join(lines)


def _rows(proc) -> dict[str, dict]:
    rows = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            rows[row["case_id"]] = row
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
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "codegraph-devset"), help="materialized corpora")
    ap.add_argument("--cg", default=shutil.which("codegraph") or str(Path(sys.executable).parent / "codegraph"))
    ap.add_argument("--save", help="write this run's rows as JSON (a later --baseline)")
    ap.add_argument("--baseline", help="a JSON file an earlier run wrote with --save")
    ap.add_argument("--check", action="store_true", help="also the check split's means (engine and floor)")
    ap.add_argument("--floor", action="store_true", help="also the plain baseline (BM25 for explore, centrality for distill) on fit")
    ap.add_argument("--loco", action="store_true", help="explore: also fit leave-one-corpus-out (needs the bench extra and the data set)")
    ap.add_argument("--plain", action="store_true", help="explore: also the fit questions asked in plain words (bench/explore_plain.json), engine and floor")
    ap.add_argument("--extra", action="store_true", help="also the project's own cases on corpora of neither split (bench/devset_extra/), engine and floor")
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
        head = HEADLINE[task]
        summary = [("fit", _fmt(statistics.mean(r.get(head) or 0.0 for r in rows.values())))]
        if args.loco and task == "explore":
            loco = loco_rows(devset)
            summary.append(("fit, leave-one-corpus-out", _fmt(statistics.mean(r.get(head) or 0.0 for r in loco.values()))))
        if args.plain and task == "explore":
            for name, extra in (("fit in plain words", []), ("floor on fit in plain words", ["--floor"])):
                plain = plain_rows(devset, extra)
                saved[f"explore_{name.replace(' ', '_')}"] = plain
                summary.append((name, _fmt(statistics.mean(r.get(head) or 0.0 for r in plain.values()))))
        if args.extra:
            for name, program in (("the project's own cases", args.cg), ("floor on the project's own cases", floor_program(task))):
                own = extra_rows(devset, Path(args.cache), program, task)
                saved[f"{task}_{name.replace(' ', '_')}"] = own
                summary.append((f"{name} ({len(own)})", _fmt(statistics.mean(r.get(head) or 0.0 for r in own.values())) if own else "—"))
        floor: dict[str, dict] = {}
        if args.floor:
            saved[f"{task}_floor"] = floor = run_task(devset, floor_program(task), task)
            summary.append(("floor on fit", _fmt(statistics.mean(r.get(head) or 0.0 for r in floor.values()))))
        if args.check:
            summary.append(("check", check_means(devset, args.cg, task)))
            if args.floor:
                summary.append(("floor on check", check_means(devset, floor_program(task), task)))
        if task == "distill":
            saved["distill_code_share"] = share = code_share(devset, args.cg, Path(args.cache))
            loco = json.loads(LOCO.read_text()) if LOCO.is_file() else {}
            summary.append(("fit, leave-one-corpus-out (fit_distill.py)", _fmt(statistics.mean(loco.values())) if loco else "—"))
            loco_e2e = json.loads(LOCO_E2E.read_text()) if LOCO_E2E.is_file() else {}
            summary.append(("fit, leave-one-corpus-out end to end (fit_distill.py --e2e)", _fmt(statistics.mean(loco_e2e.values())) if loco_e2e else "—"))
            summary.append(("share of the frame that is source bodies", _fmt(statistics.mean(share.values())) if share else "—"))
            print("\n## distill per pack: fit, leave-one-corpus-out, floor, code share\n")
            print(distill_table(rows, floor, loco, share, loco_e2e))
        print(f"\n| {task} | {head} |\n|---|---|")
        for name, value in summary:
            print(f"| {name} | {value} |")
    if args.save:
        Path(args.save).write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
