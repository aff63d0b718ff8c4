"""Crash safety: `codegraph index` is killed with SIGKILL at chosen moments (while it parses,
and at a counted SQL statement while it writes the fact cache, mid-transaction included); every
next start is valid — the cache is used where it is right, discarded and rebuilt where it is
not, and the facts equal a build without any cache.

The kills are placed by the child itself (KILLER below), never by a timer in the test, so the
test does not depend on how fast or how busy the machine is."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from codegraph.index.index import RootIndex
from codegraph.workspace.scope import ScopeConfig
from hostile import write_repo

ROUNDS = 20
TALLY = {"rounds": 0, "corrupt_starts": 0, "killed_mid_run": 0, "retries": 0}

# Runs `codegraph index ...` and SIGKILLs its whole process group (the indexer and any parse
# workers it forked) at the AT-th event of KIND: "parse" = a file handed to the extractor (in
# whichever worker gets there first), "sql" = an SQL statement about to run on the fact cache
# (BEGIN, each row of an INSERT, COMMIT, ...). AT = 0 never kills and reports the counts on stderr.
KILLER = """
import atexit, os, signal, sqlite3, sys
from codegraph import cli
from codegraph.index import index as index_mod, worker
kind, at = sys.argv[1], int(sys.argv[2])
seen = 0
def event(*_):
    global seen
    seen += 1
    if seen == at:
        os.killpg(os.getpgrp(), signal.SIGKILL)
if kind == "parse":
    real_extract = worker.extract_raw
    def extract_raw(item):
        event()
        return real_extract(item)
    worker.extract_raw = index_mod.extract_raw = extract_raw  # forked workers inherit the patch
else:
    real_connect = sqlite3.connect
    def connect(*args, **kwargs):
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(event)  # called before each statement (and each executemany row) runs
        return conn
    sqlite3.connect = connect
atexit.register(lambda: print(f"events {kind} {seen}", file=sys.stderr))
sys.exit(cli.main(sys.argv[3:]))
"""


def _index_cmd(root: Path, cache: Path) -> list[str]:
    return [sys.executable, "-m", "codegraph.cli", "index", str(root), "--cache-dir", str(cache)]


def _killer_cmd(root: Path, cache: Path, kind: str, at: int) -> list[str]:
    return [sys.executable, "-c", KILLER, kind, str(at), "index", str(root), "--cache-dir", str(cache)]


def _facts(root: Path, cache: Path | None) -> tuple[dict, object]:
    index = RootIndex(root, ScopeConfig(), cache_dir=cache, use_cache=cache is not None)
    stats = index.build(workers=1)
    for thread in threading.enumerate():  # the cache is written behind the build: let it land
        if isinstance(thread, threading.Timer):
            thread.join()
    index.close()
    return index.files, stats


def _mutate(root: Path, rng: random.Random, round_no: int) -> None:
    """Changes half the files (every language), so the next run re-parses and rewrites much of the cache."""
    files = sorted(p for p in root.rglob("*") if p.is_file())
    for path in rng.sample(files, len(files) // 2):
        extra = f"\n\ndef round_{round_no}_{rng.randint(0, 999)}():\n    return {round_no}\n" if path.suffix == ".py" else "\n"
        path.write_text(path.read_text() + extra)
    if rng.random() < 0.3:
        rng.choice(files).unlink()


def _events(root: Path, cache: Path, kind: str) -> int:
    """How many events of `kind` a run makes (on a copy of the cache, so the real one is untouched)."""
    probe = cache.parent / f"probe-{kind}"
    subprocess.run(["rm", "-rf", str(probe)], check=True)
    subprocess.run(["cp", "-r", str(cache), str(probe)], check=True)
    out = subprocess.run(_killer_cmd(root, probe, kind, 0), capture_output=True, text=True, timeout=120, check=True)
    return int(out.stderr.strip().splitlines()[-1].split()[-1])


def _kill_run(root: Path, cache: Path, kind: str, at: int) -> bool:
    """One run killed at event `at`; False when the run finished first (nothing was killed)."""
    proc = subprocess.run(_killer_cmd(root, cache, kind, at), capture_output=True, text=True, timeout=120, start_new_session=True)
    if proc.returncode == 0:
        return False
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    return True


@pytest.mark.slow
def test_kill_9_at_chosen_moments_never_leaves_a_cache_that_is_trusted_wrongly(tmp_path: Path):
    root, cache = tmp_path / "repo", tmp_path / "cache"
    root.mkdir()
    write_repo(root, 300, seed=5)
    rng = random.Random(9)
    subprocess.run(_index_cmd(root, cache), check=True, capture_output=True, timeout=120)
    for round_no in range(ROUNDS):
        _mutate(root, rng, round_no)
        # Even rounds die while parsing, odd ones at a statement of the cache write (the
        # interesting ones: mid-transaction, with some rows of the batch already written).
        kind = "parse" if round_no % 2 == 0 else "sql"
        at = rng.randint(1, max(1, _events(root, cache, kind)))
        while not _kill_run(root, cache, kind, at):  # never expected (the count was just taken): aim earlier
            TALLY["retries"] += 1
            assert at > 1, f"round {round_no}: a run with a kill at the first {kind} event finished"
            at //= 2
        TALLY["killed_mid_run"] += 1
        TALLY["rounds"] += 1
        try:
            cached, stats = _facts(root, cache)
            fresh, _ = _facts(root, None)
            ok = cached == fresh
        except Exception:  # noqa: BLE001 — any failure to start is a corrupt start
            ok = False
        TALLY["corrupt_starts"] += not ok
        assert ok, f"round {round_no}: the start after a kill -9 at {kind} event {at} disagrees with a no-cache build"
    assert TALLY["killed_mid_run"] == ROUNDS
    _, stats = _facts(root, cache)
    assert stats.from_cache == stats.files  # a settled cache is used, not silently rebuilt every time


@pytest.mark.parametrize("damage", ["truncate", "garbage", "zero", "foreign-root", "hot-journal"])
def test_a_damaged_cache_file_is_discarded_and_rebuilt(tmp_path: Path, damage: str):
    root, cache = tmp_path / "repo", tmp_path / "cache"
    root.mkdir()
    write_repo(root, 40, seed=3)
    _facts(root, cache)
    db = next(cache.glob("*.sqlite3"))
    if damage == "truncate":
        with open(db, "r+b") as fh:
            fh.truncate(db.stat().st_size // 2)
    elif damage == "garbage":
        data = bytearray(db.read_bytes())
        for i in range(100, len(data), 97):
            data[i] ^= 0x5A
        db.write_bytes(bytes(data))
    elif damage == "zero":
        db.write_bytes(b"")
    elif damage == "foreign-root":
        conn = sqlite3.connect(db)
        conn.execute("UPDATE meta SET value = '/somewhere/else' WHERE key = 'root'")
        conn.commit()
        conn.close()
    else:
        Path(f"{db}-journal").write_bytes(os.urandom(4096))
    cached, _ = _facts(root, cache)
    fresh, _ = _facts(root, None)
    assert cached == fresh


def teardown_module(module) -> None:
    print(f"\ncrash safety: {TALLY['rounds']} kill -9 rounds ({TALLY['killed_mid_run']} mid-run, {TALLY['retries']} retries), {TALLY['corrupt_starts']} corrupt starts")


def test_a_write_behind_landing_after_close_is_still_written(tmp_path: Path):
    # before: index.close() could close the store while the write-behind timer was inside put():
    # AttributeError in the timer thread, and the cache silently never written
    from codegraph.index.store import FactStore, encode

    root = tmp_path / "repo"
    root.mkdir()
    write_repo(root, 10, seed=1)
    fresh, _ = _facts(root, None)
    store = FactStore(root.resolve(), tmp_path / "cache")
    store.close()
    store.put([(f.path, f.sha256, encode(f)) for f in fresh.values()])
    assert set(FactStore(root.resolve(), tmp_path / "cache").load()) == set(fresh)


CRASHING_WORKER = """
import json, os, sys
from pathlib import Path
from codegraph.index import index as index_mod, worker
real = worker.extract_raw
def crash_on_boom(item):  # stands in for a grammar that takes the whole process down
    if item[0].endswith("boom.py"):
        os._exit(70)
    return real(item)
worker.extract_raw = crash_on_boom  # forked workers inherit the patch
idx = index_mod.RootIndex(Path(sys.argv[1]), use_cache=False)
idx.build(workers=2)
print(json.dumps({"files": sorted(idx.files), "skipped": idx.skipped, "bindings": len(idx.bindings)}))
"""


def test_a_file_that_kills_its_parse_worker_is_skipped_and_every_other_file_indexed(tmp_path: Path):
    # Enough files for the worker pool; the batch holding boom.py is split and retried until
    # the one file that kills a worker is isolated. (A subprocess: fork needs a single thread.)
    root = tmp_path / "repo"
    root.mkdir()
    for i in range(200):
        (root / f"m{i:03}.py").write_text(f"def f{i}():\n    return {i}\n")
    (root / "boom.py").write_text("def boom():\n    pass\n")
    out = subprocess.run([sys.executable, "-c", CRASHING_WORKER, str(root)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    result = __import__("json").loads(out.stdout.strip().splitlines()[-1])
    assert result["files"] == [f"m{i:03}.py" for i in range(200)]
    assert result["skipped"] == {"boom.py": "parser process crashed on this file"}
    assert result["bindings"] == 200
