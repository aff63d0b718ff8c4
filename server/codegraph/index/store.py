"""The persistent fact cache: one SQLite file per workspace root.

Rows are keyed by path and carry the content sha256 and extractor version; a row is used
only when both match. Each write is one SQLite transaction, so a kill -9 mid-write leaves
the previous state. A file that is corrupt, foreign (another root) or of another schema is
deleted and rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
from pathlib import Path

from .facts import EXTRACTOR_VERSION, Call, FileFacts, Import, Supertype, Unit

log = logging.getLogger(__name__)
SCHEMA = "codegraph-facts-1"

_UNIT_FIELDS = Unit.__slots__
_CALL_FIELDS = Call.__slots__
_IMPORT_FIELDS = Import.__slots__
_SUPER_FIELDS = Supertype.__slots__


def default_cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("codegraph", appauthor=False))


def encode(facts: FileFacts) -> str:
    return json.dumps(
        [
            facts.language, facts.size, facts.lines, facts.package, facts.parse_errors,
            [[getattr(u, f) for f in _UNIT_FIELDS] for u in facts.units],
            [[getattr(c, f) for f in _CALL_FIELDS] for c in facts.calls],
            [[getattr(i, f) for f in _IMPORT_FIELDS] for i in facts.imports],
            [[getattr(s, f) for f in _SUPER_FIELDS] for s in facts.supertypes],
        ],
        separators=(",", ":"),
        ensure_ascii=False,
    )


def decode(path: str, sha: str, blob: str) -> FileFacts:
    language, size, lines, package, errors, units, calls, imports, supers = json.loads(blob)
    return FileFacts(
        path=path,
        language=language,
        sha256=sha,
        size=size,
        lines=lines,
        units=tuple(_unit(row) for row in units),
        calls=tuple(Call(*row) for row in calls),
        imports=tuple(Import(*row) for row in imports),
        supertypes=tuple(Supertype(*row) for row in supers),
        package=package,
        parse_errors=errors,
    )


def _unit(row: list) -> Unit:
    values = dict(zip(_UNIT_FIELDS, row))
    # JSON gives lists back: every tuple field (decorators, param_names, …) must be a tuple again,
    # or cached units differ from parsed ones and stop being hashable
    return Unit(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})


class FactStore:
    """Thread-safe; every method swallows nothing silently: failures are logged and the cache dropped."""

    def __init__(self, root: Path, cache_dir: Path | None) -> None:
        self.root = str(root)
        key = hashlib.sha256(self.root.encode("utf-8", "surrogateescape")).hexdigest()[:20]
        directory = Path(cache_dir) if cache_dir else default_cache_dir()
        self.path = directory / f"facts-{key}.sqlite3"
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self.rebuilt_reason = ""
        directory.mkdir(parents=True, exist_ok=True)
        self._open()

    def _open(self) -> None:
        try:
            self._conn = self._connect()
            return
        except (sqlite3.DatabaseError, ValueError) as exc:
            self.rebuilt_reason = f"discarded unusable cache: {exc}"
            log.warning("cache %s: %s", self.path, self.rebuilt_reason)
        for suffix in ("", "-journal", "-wal", "-shm"):
            try:
                os.unlink(f"{self.path}{suffix}")
            except FileNotFoundError:
                pass
        self._conn = self._connect()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            conn.execute("CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, sha TEXT NOT NULL, version TEXT NOT NULL, facts TEXT NOT NULL)")
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            expected = {"schema": SCHEMA, "root": self.root}
            if not meta:
                conn.execute("BEGIN")
                conn.executemany("INSERT INTO meta VALUES (?, ?)", list(expected.items()))
                conn.execute("COMMIT")
            elif any(meta.get(k) != v for k, v in expected.items()):
                raise ValueError(f"foreign or old cache (schema {meta.get('schema')!r}, root {meta.get('root')!r})")
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
        except BaseException:
            conn.close()
            raise
        return conn

    def load(self) -> dict[str, tuple[str, str]]:
        """path → (sha, encoded facts) for rows of the current extractor version."""
        with self._lock:
            try:
                rows = self._conn.execute("SELECT path, sha, facts FROM files WHERE version = ?", (EXTRACTOR_VERSION,)).fetchall()
            except sqlite3.DatabaseError as exc:
                self._reset(f"read failed: {exc}")
                return {}
        return {p: (s, f) for p, s, f in rows}

    def put(self, facts: list[FileFacts], removed: list[str] = ()) -> None:
        rows = [(f.path, f.sha256, EXTRACTOR_VERSION, encode(f)) for f in facts]
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)", rows)
                self._conn.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in removed])
                self._conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                try:
                    self._conn.execute("ROLLBACK")
                except sqlite3.DatabaseError:
                    pass
                self._reset(f"write failed: {exc}")

    def _reset(self, reason: str) -> None:
        log.warning("cache %s: %s; rebuilding", self.path, reason)
        self.rebuilt_reason = reason
        try:
            self._conn.close()
        except sqlite3.Error:
            pass
        for suffix in ("", "-journal", "-wal", "-shm"):
            try:
                os.unlink(f"{self.path}{suffix}")
            except FileNotFoundError:
                pass
        self._conn = self._connect()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
