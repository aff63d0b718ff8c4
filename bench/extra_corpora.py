"""Fetches the corpora of the project's own cases (`bench/devset_extra/*.json`: explore
questions and distill answer keys) into the development set's corpus directory, next to its
corpora (idempotent).

    python bench/extra_corpora.py [--into DIR] [NAME ...]

Each file names its corpus's source — a PyPI sdist, an npm package or a Debian package that
ships source — with its version and sha256, and the directory inside the archive that is the
project root. Only the ordinary registry clients are used (`pip download`, `npm pack`,
`apt-get download`); every archive is hash-checked. A corpus directory holding `.complete` is
left alone.

These cases were written for this project by reading the code (never with codegraph's own
answers); `eval_explore.py --extra`, `explore_dataset.py --extra` and `bench_devset.py --extra`
read them beside the fit split. Their corpora are in neither split of the development set.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTRA = HERE / "devset_extra"
DOWNLOADS = HERE / ".corpora" / "downloads"


def specs() -> dict[str, dict]:
    """corpus name → its source block, from every question file."""
    out = {}
    for f in sorted(EXTRA.glob("*.json")):
        corpus = json.loads(f.read_text())["corpus"]
        out[corpus["name"]] = corpus
    return out


def download(spec: dict) -> Path:
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    archive = DOWNLOADS / spec["file"]
    if not archive.exists():
        source, pkg, version = spec["source"], spec["package"], spec["version"]
        if source == "pypi":
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", f"{pkg}=={version}", "-d", str(DOWNLOADS)]
        elif source == "npm":
            cmd = ["npm", "pack", f"{pkg}@{version}", "--pack-destination", str(DOWNLOADS), "--silent"]
        elif source == "debian":
            cmd = ["apt-get", "download", f"{pkg}={version}"]
        else:
            raise SystemExit(f"{spec['name']}: unknown source {source!r}")
        subprocess.run(cmd, check=True, cwd=DOWNLOADS)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != spec["sha256"]:
        raise SystemExit(f"{archive.name}: sha256 {digest}, expected {spec['sha256']}")
    return archive


def unpack(archive: Path, spec: dict, dest: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if archive.suffix == ".deb":
            subprocess.run(["dpkg-deb", "-x", str(archive), tmp], check=True)
        else:
            with tarfile.open(archive) as tar:
                tar.extractall(tmp, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        root = Path(tmp) / spec["root"]
        if not root.is_dir():
            raise SystemExit(f"{archive.name}: no {spec['root']}/ inside")
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(root, dest, symlinks=True)
    (dest / ".complete").write_text(f"{spec['package']} {spec['version']}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--into", default=str(Path(tempfile.gettempdir()) / "codegraph-devset"))
    args = ap.parse_args()
    for name, spec in specs().items():
        if args.names and name not in args.names:
            continue
        dest = Path(args.into) / name
        if (dest / ".complete").exists():
            print(f"{name}: present")
            continue
        unpack(download(spec), spec, dest)
        print(f"{name}: fetched {spec['package']} {spec['version']} → {dest}")


if __name__ == "__main__":
    main()
