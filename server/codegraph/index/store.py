"""The persistent fact cache: one SQLite file per workspace root.

Rows are keyed by path and carry the content sha256 and extractor version; a row is used
only when both match. Each write is one SQLite transaction, so a kill -9 mid-write leaves
the previous state. A file that is corrupt, foreign (another root) or of another schema is
deleted and rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import marshal
import logging
import os
import sqlite3
import sys
import threading
import zlib
from itertools import repeat
from pathlib import Path

from ..model.facts import EXTRACTOR_VERSION, Call, DeferredCalls, FileFacts, Import, Supertype, Unit

log = logging.getLogger(__name__)
SCHEMA = "codegraph-facts-4"
# marshal's format may change with the interpreter: a cache written by another one is discarded
CODEC = f"marshal {marshal.version}, Python {sys.version_info[0]}.{sys.version_info[1]}"

# Rows are compact: a unit's path is the row's, its id is stored as the part after "path::",
# and references to units (parents, callers, supertype owners) are indexes into the unit list.
# That halves a row, and decoding rows is most of a warm start.
_UNIT_FIELDS = tuple(f for f in Unit._fields if f not in ("id", "path", "parent"))
assert Call._fields[0] == "caller" and Supertype._fields[0] == "unit"  # the fields rows replace by an index
# Row layout of a unit: (id after "path::", parent index, *_UNIT_FIELDS); Unit._fields starts with
# id, path, then _UNIT_FIELDS up to parent, which the decoder rebuilds in that order.
_PARENT_AT = Unit._fields.index("parent")
assert Unit._fields[:2] == ("id", "path") and _UNIT_FIELDS == Unit._fields[2:_PARENT_AT] + Unit._fields[_PARENT_AT + 1 :]


def default_cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("codegraph", appauthor=False))


# (facts without calls, calls): marshal bytes each, the fastest codec CPython has for plain
# lists, tuples, strings and ints (JSON took a tenth of a parse worker's time and a seventh of a
# warm start). marshal is no format for untrusted bytes, so every row carries a CRC-32 that is
# checked before anything is decoded, and the meta table names the marshal and Python version.
Blob = tuple[bytes, bytes]


def encode(facts: FileFacts) -> Blob:
    prefix = len(facts.path) + 2
    index = {u.id: i for i, u in enumerate(facts.units)}
    # the records are tuples in field order: slices, not a getattr per field (and plain tuples:
    # marshal takes no NamedTuple)
    return (
        marshal.dumps((
            facts.language, facts.size, facts.lines, facts.package, facts.parse_errors,
            [(u[0][prefix:], index.get(u.parent, -1) if u.parent else -1, *u[2:_PARENT_AT], *u[_PARENT_AT + 1 :]) for u in facts.units],
            [tuple(i) for i in facts.imports],
            [(index.get(s[0], -1), *s[1:]) for s in facts.supertypes],
            facts.names_referenced(),
            marshal.dumps([(index.get(c[0], -1) if c[0] else -1, *c[1:]) for c in facts.refs]),
            facts.distill_marks,
            facts.export_aliases,
            facts.platform_variant,
        )),
        marshal.dumps([(index.get(c[0], -1) if c[0] else -1, *c[1:]) for c in facts.calls]),
    )


def checksum(blob: Blob) -> int:
    return zlib.crc32(blob[1], zlib.crc32(blob[0]))


_new = tuple.__new__


def decode(path: str, sha: str, blob: Blob) -> FileFacts:
    head, calls = blob
    language, size, lines, package, errors, unit_rows, import_rows, super_rows, referenced, refs, marks, aliases, variant = marshal.loads(head)
    if not isinstance(calls, bytes):
        raise TypeError("calls are not encoded bytes")
    ids = [f"{path}::{row[0]}" for row in unit_rows]
    units = tuple(map(_unit, repeat(path), ids, repeat(ids), unit_rows))
    return FileFacts(
        path=path,
        language=language,
        sha256=sha,
        size=size,
        lines=lines,
        units=units,
        calls=DeferredCalls(calls, ids),
        imports=tuple(_new(Import, row) for row in import_rows),
        supertypes=tuple(_new(Supertype, (ids[row[0]], *row[1:])) for row in super_rows),
        package=package,
        parse_errors=errors,
        referenced=referenced,
        refs=DeferredCalls(refs, ids),
        distill_marks=marks,
        export_aliases=tuple(map(tuple, aliases)),
        platform_variant=variant,
    )


def _unit(path: str, uid: str, ids: list[str], row: tuple) -> Unit:
    return _new(Unit, (uid, path, *row[2:_PARENT_AT], ids[row[1]] if row[1] >= 0 else None, *row[_PARENT_AT:]))


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
            # another version's cache is expected after an upgrade; a damaged one is not
            (log.info if isinstance(exc, ValueError) else log.warning)("cache %s: %s", self.path, self.rebuilt_reason)
        self._recreate()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, sha TEXT NOT NULL, version TEXT NOT NULL,"
                " facts BLOB NOT NULL, calls BLOB NOT NULL, crc INTEGER NOT NULL)"
            )
            # The whole snapshot's resolved bindings, valid only for the exact fingerprint it names.
            conn.execute("CREATE TABLE IF NOT EXISTS bindings (fingerprint TEXT PRIMARY KEY, data TEXT NOT NULL)")
            # Tables a reader derives from a whole snapshot (explore's word index, the ranked graph's
            # computed edges): one row per name, valid only for the exact key it names.
            conn.execute("CREATE TABLE IF NOT EXISTS derived (name TEXT PRIMARY KEY, key TEXT NOT NULL, data BLOB NOT NULL, crc INTEGER NOT NULL)")
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            expected = {"schema": SCHEMA, "root": self.root, "codec": CODEC}
            if not meta:
                conn.execute("BEGIN")
                conn.executemany("INSERT INTO meta VALUES (?, ?)", list(expected.items()))
                conn.execute("COMMIT")
            elif any(meta.get(k) != v for k, v in expected.items()):
                raise ValueError(f"foreign or old cache (schema {meta.get('schema')!r}, root {meta.get('root')!r}, codec {meta.get('codec')!r})")
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
        except BaseException:
            conn.close()
            raise
        return conn

    def load(self) -> dict[str, tuple[str, Blob]]:
        """path → (sha, encoded facts) for rows of the current extractor version whose checksum
        holds (a damaged row is left out: its file is parsed again)."""
        with self._lock:
            try:
                rows = self._conn.execute("SELECT path, sha, facts, calls, crc FROM files WHERE version = ?", (EXTRACTOR_VERSION,)).fetchall()
            except sqlite3.DatabaseError as exc:
                self._reset(f"read failed: {exc}")
                return {}
        out: dict[str, tuple[str, Blob]] = {}
        for path, sha, head, calls, crc in rows:
            if isinstance(head, bytes) and isinstance(calls, bytes) and checksum((head, calls)) == crc:
                out[path] = (sha, (head, calls))
            else:
                log.warning("cache row for %s is damaged (checksum): parsing it again", path)
        return out

    def load_bindings(self, fingerprint: str) -> str | None:
        with self._lock:
            if self._conn is None:
                return None
            try:
                row = self._conn.execute("SELECT data FROM bindings WHERE fingerprint = ?", (fingerprint,)).fetchone()
            except sqlite3.DatabaseError as exc:
                log.warning("cache %s: bindings unreadable (%s)", self.path, exc)
                return None
        return row[0] if row else None

    def put_bindings(self, fingerprint: str, data: str) -> None:
        with self._lock:
            if self._conn is None:
                return
            self._transaction("bindings", ("DELETE FROM bindings", ()), ("INSERT INTO bindings VALUES (?, ?)", (fingerprint, data)))

    def load_derived(self, name: str, key: str) -> bytes | None:
        """The bytes stored under `name` for exactly `key`, their checksum held; None otherwise."""
        with self._lock:
            if self._conn is None:
                return None
            try:
                row = self._conn.execute("SELECT data, crc FROM derived WHERE name = ? AND key = ?", (name, key)).fetchone()
            except sqlite3.DatabaseError as exc:
                log.warning("cache %s: %s unreadable (%s)", self.path, name, exc)
                return None
        if row is None:
            return None
        if not isinstance(row[0], bytes) or zlib.crc32(row[0]) != row[1]:
            log.warning("cache %s: %s is damaged (checksum): building it again", self.path, name)
            return None
        return row[0]

    def put_derived(self, name: str, key: str, data: bytes) -> None:
        """Replaces what is stored under `name` (one snapshot's at a time)."""
        with self._lock:
            if self._conn is None:
                return
            self._transaction(name, ("INSERT OR REPLACE INTO derived VALUES (?, ?, ?, ?)", (name, key, data, zlib.crc32(data))))

    def _transaction(self, what: str, *statements: tuple[str, tuple]) -> None:
        """Runs the statements in one write transaction (the lock held); a failure rolls back and is logged."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            for sql, args in statements:
                self._conn.execute(sql, args)
            self._conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass
            log.warning("cache %s: %s not written (%s)", self.path, what, exc)

    def put(self, rows: list[tuple[str, str, Blob]], removed: list[str] = ()) -> None:
        """Writes (path, sha, encoded facts) rows and deletes `removed` paths, in one transaction."""
        rows = [(path, sha, EXTRACTOR_VERSION, head, calls, checksum((head, calls))) for path, sha, (head, calls) in rows]
        with self._lock:
            conn, temporary = self._conn, False
            if conn is None:  # closed while a write-behind flush was on its way: the rows are still right
                try:
                    conn, temporary = self._connect(), True
                except (sqlite3.DatabaseError, ValueError) as exc:
                    log.warning("cache %s: late write skipped (%s)", self.path, exc)
                    return
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)", rows)
                conn.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in removed])
                conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.DatabaseError:
                    pass
                if isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc)):
                    # another process (a CLI run beside the server) holds the write lock: a busy cache
                    # is not a corrupt one, and deleting it would pull the file from under the other writer
                    log.warning("cache %s busy; %d rows not written this time", self.path, len(rows))
                elif not temporary:
                    self._reset(f"write failed: {exc}")
            finally:
                if temporary:
                    conn.close()

    def _reset(self, reason: str) -> None:
        log.warning("cache %s: %s; rebuilding", self.path, reason)
        self.rebuilt_reason = reason
        try:
            self._conn.close()
        except sqlite3.Error:
            pass
        self._recreate()

    def _recreate(self) -> None:
        """Deletes the cache file (and its journals) and starts an empty one."""
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
