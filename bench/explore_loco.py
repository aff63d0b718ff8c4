"""Explore's end-to-end leave-one-corpus-out in one command, for the code in this tree: rebuild the
learning-to-rank data set (`explore_dataset.py`), fit one model per held-out corpus with the shipped
model's C and alpha (`fit_explore.py --fixed … --folds`), then answer every fit question as written
and in plain words with the model fitted without its corpus (`eval_explore.py --folds [--plain]`).
About a minute once the corpora are indexed in the cache. Prints the two means; with `--against DIR`
(an earlier run's `--out`), what moved, with its 90 % interval over resampled corpora.

    python bench/explore_loco.py --out /tmp/loco-after [--against /tmp/loco-before] [--C 0.003]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WEIGHTS = HERE.parent / "server" / "codegraph" / "explore" / "ranker_weights.json"


def run(args: list[str], log: Path) -> str:
    out = subprocess.run([sys.executable, *args], cwd=HERE.parent, capture_output=True, text=True)
    log.write_text(out.stdout + out.stderr)
    if out.returncode:
        raise SystemExit(f"{' '.join(args)} failed (exit {out.returncode}); see {log}")
    return out.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="a directory for the data set, the folds, the answers and the logs")
    ap.add_argument("--against", help="an earlier run's --out: print what moved")
    ap.add_argument("--C", type=float, default=0.003, help="L2 strength (the shipped model's, chosen by fit_explore.py)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    alpha = json.loads(WEIGHTS.read_text()).get("alpha", 0.75)
    run(["bench/explore_dataset.py", "--out", str(out / "dataset.pkl")], out / "dataset.log")
    run(["bench/fit_explore.py", "--data", str(out / "dataset.pkl"), "--fixed", f"{args.C},{alpha}", "--folds", str(out / "folds")], out / "fit.log")
    for wording, extra in (("as-written", []), ("plain", ["--plain"])):
        printed = run(["bench/eval_explore.py", *extra, "--folds", str(out / "folds"), "--save", str(out / f"{wording}.json")], out / f"{wording}.log")
        print(f"{wording}: {printed.strip().splitlines()[-1]}")
        if args.against:
            before = Path(args.against) / f"{wording}.json"
            print(run(["bench/eval_explore.py", *extra, "--against", str(before), "--saved", str(out / f"{wording}.json")], out / f"{wording}-against.log"))


if __name__ == "__main__":
    main()
