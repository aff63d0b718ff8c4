"""Shared pieces of the benchmark scripts: where the corpora live and how to time things.

Every bench script imports from here, so a new one (e.g. `bench_explore.py`) only needs:

    from common import CORPORA, corpus_root, require_corpus, Timer, timeit, summarize, fmt_ms

Corpora are downloaded by `bench/corpora.py` into `bench/.corpora/` (gitignored).
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
CORPORA_DIR = BENCH_DIR / ".corpora"
DOWNLOADS_DIR = CORPORA_DIR / "_downloads"
PYTHON = sys.executable


@dataclass(frozen=True)
class Corpus:
    key: str  # short name used on the command line and in tables
    kind: str  # "pypi-sdist" | "npm"
    package: str
    version: str
    language: str  # main language (for grammar checks)
    edit_file: str | None = None  # root-relative file used for the edit-latency benchmark
    note: str = ""

    @property
    def root(self) -> Path:
        """The directory codegraph indexes (the extracted package)."""
        return CORPORA_DIR / f"{self.package}-{self.version}"


CORPORA: dict[str, Corpus] = {
    c.key: c
    for c in (
        Corpus("django", "pypi-sdist", "django", "5.2.8", "python", edit_file="django/db/models/query.py",
               note="Django 5.2.8 sdist from PyPI (the issue's reference corpus, ~2,818 .py files)"),
        Corpus("effect3", "npm", "effect", "3.22.4", "typescript",
               note="npm effect 3.22.4 (latest 3.x): src/*.ts shipped; dist/ is out of scope (build output)"),
        Corpus("effect4", "npm", "effect", "4.1.0", "typescript",
               note="npm effect 4.1.0: the version the issue measured grammar errors on (572 src files)"),
    )
}
DEFAULT_CORPORA = ("django", "effect4")


def corpus_root(key: str) -> Path:
    return CORPORA[key].root


def require_corpus(key: str) -> Path:
    root = corpus_root(key)
    if not (root / ".complete").exists():
        raise SystemExit(f"corpus {key!r} missing at {root}: run `python bench/corpora.py` first")
    return root


def in_scope_files(root: Path) -> list[tuple[str, str, bytes]]:
    """(rel, language, raw bytes) for exactly the files `codegraph index` would parse.

    Uses codegraph's own Scope (ignore rules, excluded dirs, size/binary/generated checks), so the
    floor loop and the index see the same file set.
    """
    from codegraph.workspace.scope import Scope, ScopeConfig

    config = ScopeConfig()
    scope = Scope(root, config)
    out = []
    for rel, language in sorted(scope.scan().files.items()):
        try:
            with open(root / rel, "rb") as fh:
                raw = fh.read(config.max_file_bytes + 1)
        except OSError:
            continue
        if len(raw) > config.max_file_bytes or scope.content_reason(raw):
            continue
        out.append((rel, language, raw))
    return out


# ---- timing helpers ---------------------------------------------------------------------
class Timer:
    """`with Timer() as t: ...` then `t.ms` / `t.s`."""

    def __enter__(self) -> "Timer":
        self._start = time.perf_counter()
        self.s = 0.0
        return self

    def __exit__(self, *exc) -> None:
        self.s = time.perf_counter() - self._start

    @property
    def ms(self) -> float:
        return self.s * 1000


@contextmanager
def no_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def timeit(fn: Callable[[], object], repeat: int = 1, warmup: int = 0) -> list[float]:
    """Runs fn `warmup` + `repeat` times; returns the `repeat` wall times in seconds."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) — fine for the small samples a benchmark has."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def summarize(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "min": min(values) if values else float("nan"),
        "median": statistics.median(values) if values else float("nan"),
        "p95": percentile(values, 95),
        "max": max(values) if values else float("nan"),
    }


def fmt_ms(ms: float) -> str:
    return f"{ms:,.1f} ms" if ms < 1000 else f"{ms / 1000:,.2f} s"


def fmt_s(s: float) -> str:
    return fmt_ms(s * 1000)


def verdict(value: float, target: float) -> str:
    return "OK  " if value <= target else "MISS"


def table(rows: list[list[str]], header: list[str]) -> str:
    """A plain fixed-width text table."""
    cols = [header] + rows
    widths = [max(len(str(r[i])) for r in cols) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), sep] + [line(r) for r in rows])


def machine_note() -> str:
    import platform

    return f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}"


# ---- workarounds for known codegraph bugs (opt-in, labelled in every report) ------------------
CYCLE_GUARD_ENV = "CGBENCH_CYCLE_GUARD"


def apply_workarounds() -> list[str]:
    """Applies in-process monkeypatches named in the environment; returns their names.

    CGBENCH_CYCLE_GUARD=1: `Resolver.supertypes_of` recurses without bound when a type's
    supertype text goes through the type itself (TypeScript `interface Cache extends
    Cache.Variance<…>` with a same-named namespace) → RecursionError and the whole build fails.
    The guard seeds the memo with [] before computing, which breaks the cycle.
    """
    applied = []
    if os.environ.get(CYCLE_GUARD_ENV) == "1":
        from codegraph.bindings.resolve import Resolver

        def supertypes_of(self, t):
            hit = self._memo_supers.get(t.id)
            if hit is None:
                self._memo_supers[t.id] = []  # cycle guard: a re-entrant call sees "no supertypes"
                hit = self._memo_supers[t.id] = self._supertypes_of(t)
            return hit

        Resolver.supertypes_of = supertypes_of
        applied.append("resolver-cycle-guard")
    return applied
