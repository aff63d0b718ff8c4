"""Downloads the benchmark corpora into bench/.corpora/ (idempotent; gitignored).

    python bench/corpora.py            # all corpora
    python bench/corpora.py django     # just one

Only the ordinary registry clients are used: `pip download` (PyPI sdist) and `npm pack` (npm).
A corpus whose directory holds a `.complete` marker is left alone; delete the directory to refetch.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CORPORA, DOWNLOADS_DIR, Corpus  # noqa: E402


def _extract(archive: Path, dest: Path, strip_top: str | None) -> None:
    """Extracts `archive` so its single top directory becomes `dest`."""
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(tmp, **kwargs)
    tops = [p for p in tmp.iterdir()]
    top = tmp / strip_top if strip_top else (tops[0] if len(tops) == 1 else tmp)
    if not top.is_dir():
        raise SystemExit(f"unexpected layout in {archive}: {[p.name for p in tops]}")
    shutil.rmtree(dest, ignore_errors=True)
    top.rename(dest)
    shutil.rmtree(tmp, ignore_errors=True)


def fetch_pypi_sdist(c: Corpus) -> Path:
    DOWNLOADS_DIR.mkdir(parents=True, exist_ok=True)
    found = sorted(DOWNLOADS_DIR.glob(f"{c.package}-{c.version}.tar.gz")) + sorted(DOWNLOADS_DIR.glob(f"{c.package.capitalize()}-{c.version}.tar.gz"))
    if not found:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             f"{c.package}=={c.version}", "-d", str(DOWNLOADS_DIR)],
            check=True,
        )
        found = sorted(DOWNLOADS_DIR.glob(f"[{c.package[0]}{c.package[0].upper()}]{c.package[1:]}-{c.version}.tar.gz"))
    if not found:
        raise SystemExit(f"pip download produced no sdist for {c.package}=={c.version} in {DOWNLOADS_DIR}")
    return found[0]


def fetch_npm(c: Corpus) -> Path:
    DOWNLOADS_DIR.mkdir(parents=True, exist_ok=True)
    archive = DOWNLOADS_DIR / f"{c.package.replace('@', '').replace('/', '-')}-{c.version}.tgz"
    if not archive.exists():
        subprocess.run(["npm", "pack", f"{c.package}@{c.version}", "--pack-destination", str(DOWNLOADS_DIR), "--silent"], check=True)
    if not archive.exists():
        raise SystemExit(f"npm pack produced no {archive.name} in {DOWNLOADS_DIR}")
    return archive


def ensure(c: Corpus) -> Path:
    marker = c.root / ".complete"
    if marker.exists():
        print(f"{c.key:8s} present  {c.root}")
        return c.root
    if c.kind == "pypi-sdist":
        _extract(fetch_pypi_sdist(c), c.root, None)
    elif c.kind == "npm":
        _extract(fetch_npm(c), c.root, "package")
    else:
        raise SystemExit(f"unknown corpus kind {c.kind}")
    marker.write_text(f"{c.package} {c.version}\n")
    print(f"{c.key:8s} fetched  {c.root}")
    return c.root


def describe(c: Corpus) -> str:
    from collections import Counter

    counts = Counter(p.suffix for p in c.root.rglob("*") if p.is_file() and p.suffix in (".py", ".ts", ".tsx", ".js"))
    return ", ".join(f"{n} {ext}" for ext, n in counts.most_common())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*", default=list(CORPORA), help=f"subset of {list(CORPORA)}")
    args = ap.parse_args()
    for key in args.corpora:
        if key not in CORPORA:
            raise SystemExit(f"unknown corpus {key!r}; choose from {list(CORPORA)}")
        c = ensure(CORPORA[key])
        print(f"         {c}  ({describe(CORPORA[key])})")


if __name__ == "__main__":
    main()
