"""The live index of one workspace root: facts, sources, bindings and the graph, by version.

Writes (a scan, an edit, a file event) go through `RootIndex` methods that replace one file's
facts atomically and bump `version`; readers see the state between two writes. The LSP layer
serialises writers against readers, so a request always sees one version.
"""

from __future__ import annotations

import errno
import hashlib
import logging
import marshal
import os
import stat
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol, TypedDict

from tree_sitter import Point, Tree

from ..bindings.graph import CodeGraph
from ..bindings.go_modules import read_go_modules
from ..bindings.js_workspace import read_workspace
from ..bindings.resolve import Resolver, decode_bindings, encode_bindings, resolver_fingerprint
from ..bindings.resolver_indexes import spec_of
from ..model.bindings import Edge, FileBindings
from ..workspace.scope import ScanResult, Scope, ScopeConfig, oversize_reason
from .extract import SourceError, decode_source, extract, parse, reading_language, sha256
from ..model.facts import FileFacts
from .store import Blob, FactStore, decode, encode
from .worker import extract_batch, extract_raw, no_cyclic_gc

log = logging.getLogger(__name__)
_new_tuple = tuple.__new__
PARALLEL_MIN_FILES = 150  # below this a process pool costs more than it saves
FLUSH_DELAY_S = 1.0  # edits within this window share one cache write

Progress = Callable[[int, int, str], None]  # (done, total, message)


@dataclass
class BuildStats:
    files: int = 0
    parsed: int = 0
    from_cache: int = 0
    skipped: int = 0
    elapsed_ms: float = 0.0
    cache_note: str = ""


def snapshot_fingerprint(files: dict[str, FileFacts], workspace: str = "") -> str:
    """Identity of a whole snapshot for stored bindings: every path and sha, the resolver's code,
    and what the workspace's package.json/tsconfig files map module names to."""
    digest = hashlib.sha256(resolver_fingerprint().encode())
    digest.update(workspace.encode("utf-8", "surrogateescape"))
    for path in sorted(files):
        digest.update(f"{path}\0{files[path].sha256}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


_FORKED_RESOLVER: Resolver | None = None  # what a forked resolution worker inherits


def _resolve_share(paths: list[str]) -> bytes:
    """Forked worker side: bindings of `paths` as plain tuples (marshal: fast both ways, and
    only ever read back by the process that forked this one)."""
    resolver = _FORKED_RESOLVER
    with no_cyclic_gc():
        out = []
        for path in paths:
            b = resolver.resolve_file(path)
            out.append((path, tuple((e.src, e.dst, e.kind, e.line) for e in b.edges), b.unresolved))
    return marshal.dumps(out)


def _resolve_all(resolver: Resolver, paths: list[str], workers: int) -> dict[str, FileBindings]:
    """Bindings of every file. Resolution reads indexes that no longer change, so with fork
    available (no other threads: the CLI, not the LSP server) half the files are resolved by a
    forked copy of this process while this one does the other half."""
    global _FORKED_RESOLVER
    if workers < 2 or len(paths) < PARALLEL_MIN_FILES or threading.active_count() != 1 or not hasattr(os, "fork"):
        return {p: resolver.resolve_file(p) for p in paths}
    import multiprocessing

    # Alternate by file size so both halves carry about the same work (not by the number of
    # calls: that would decode every file's deferred calls here, before the fork).
    by_size = sorted(paths, key=lambda p: -resolver.files[p].size)
    theirs, mine = by_size[0::2], by_size[1::2]
    _FORKED_RESOLVER = resolver
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
            future = pool.submit(_resolve_share, theirs)
            out = {p: resolver.resolve_file(p) for p in mine}
            try:
                shared = marshal.loads(future.result())
            except BrokenProcessPool:  # never expected (no grammar runs here); resolve them here instead
                shared = [(p, None, None) for p in theirs]
    finally:
        _FORKED_RESOLVER = None
    for path, edges, unresolved in shared:
        if edges is None:
            out[path] = resolver.resolve_file(path)
        else:
            out[path] = FileBindings(tuple(_new_tuple(Edge, (*e, path)) for e in edges), unresolved)
    return {p: out[p] for p in paths}


ParseResult = tuple[str, "FileFacts | None", str]  # (path, facts or None, why it was skipped)


class _Parsing:
    """Parses the files of a full build: in the calling process when there are few, else in
    worker processes, which also isolate the index from a grammar that crashes (see finish()).
    Workers send facts back as cache rows (`encoded`), which the main process decodes faster
    than it unpickles the objects, and later writes to the cache as they are."""

    BATCH = 48  # files per task: small enough that the last task does not leave a core idle for long

    def __init__(self, workers: int | None, progress: Progress | None) -> None:
        self.workers = workers if workers is not None else min(2, os.cpu_count() or 1)
        self.progress = progress
        self.total = 0  # files walked; known once the walk is done
        self.waiting: list[tuple[str, str, bytes]] = []  # read, not yet submitted
        self.submitted: list[tuple[object, list[tuple[str, str, bytes]]]] = []
        self.pool: ProcessPoolExecutor | None = None
        self.encoded: dict[str, tuple[str, Blob]] = {}  # path → (sha, cache row) from the workers
        self.count = 0

    def add(self, item: tuple[str, str, bytes]) -> None:
        self.waiting.append(item)
        self.count += 1
        if self.workers > 1 and (self.pool is not None or len(self.waiting) >= PARALLEL_MIN_FILES):
            if self.pool is None:
                self.pool = self._new_pool()
            while len(self.waiting) >= self.BATCH:
                batch, self.waiting = self.waiting[: self.BATCH], self.waiting[self.BATCH :]
                self._submit(self.pool, batch)

    def _submit(self, pool: ProcessPoolExecutor, batch: list[tuple[str, str, bytes]]) -> None:
        self.submitted.append((self._submit_to(pool, batch), batch))

    @staticmethod
    def _submit_to(pool: ProcessPoolExecutor, batch: list[tuple[str, str, bytes]]):
        try:
            return pool.submit(extract_batch, batch)
        except BrokenProcessPool:  # a worker already died: the batch goes to the retry rounds
            return None

    @staticmethod
    def _result(future) -> list | None:
        try:
            return future.result() if future is not None else None
        except BrokenProcessPool:
            return None

    def _take(self, rows: list, out: list[ParseResult], on_batch: Callable[[list[FileFacts]], None]) -> None:
        done = []
        for rel, row, reason in rows:
            if row:
                self.encoded[rel] = row
            done.append((rel, decode(rel, *row) if row else None, reason))
        out.extend(done)
        on_batch([f for _, f, _ in done if f is not None])
        if self.progress:
            self.progress(self.total - self.count + len(out), self.total, f"parsed {len(out)}/{self.count} files")

    def _new_pool(self, workers: int | None = None) -> ProcessPoolExecutor:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if threading.active_count() == 1 else "spawn")
        return ProcessPoolExecutor(max_workers=workers or self.workers, mp_context=ctx)

    def finish(self, on_batch: Callable[[list[FileFacts]], None]) -> list[ParseResult]:
        if self.pool is None:  # too few files for processes to pay off
            out = []
            for i, item in enumerate(self.waiting):
                out.append(extract_raw(item))
                if self.progress and i % 100 == 0:
                    self.progress(self.total - len(self.waiting) + i, self.total, f"parsing {item[0]}")
            on_batch([f for _, f, _ in out if f is not None])
            return out
        if self.waiting:
            self._submit(self.pool, self.waiting)
            self.waiting = []
        out: list[ParseResult] = []
        suspects: list[list[tuple[str, str, bytes]]] = []
        with self.pool:
            for future, batch in self.submitted:
                rows = self._result(future)
                if rows is None:
                    suspects.append(batch)
                else:
                    self._take(rows, out, on_batch)
        # A dead worker fails every batch in flight, not only its own. Each suspect batch is
        # retried alone in a one-worker pool (`workers` of them at a time) and halved when it
        # fails again, until the file that kills a worker is alone and skipped.
        while suspects:
            round_, suspects = suspects[: self.workers], suspects[self.workers :]
            pools = [self._new_pool(1) for _ in round_]
            futures = [self._submit_to(pool, batch) for pool, batch in zip(pools, round_)]
            for pool, future, batch in zip(pools, futures, round_):
                rows = self._result(future)
                pool.shutdown(wait=True)
                if rows is not None:
                    self._take(rows, out, on_batch)
                elif len(batch) == 1:
                    log.warning("%s crashed the parser process; skipped", batch[0][0])
                    out.append((batch[0][0], None, "parser process crashed on this file"))
                else:
                    suspects += [batch[: len(batch) // 2], batch[len(batch) // 2 :]]
        return out


def _read_file(path: str, limit: int) -> bytes:
    """The file's bytes, or `limit + 1` of them when it is larger. `read(limit + 1)` alone would
    allocate a limit-sized buffer for every file. Non-blocking open: a path that became a FIFO
    since the walk must not hang the index."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with open(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        size = st.st_size
        raw = fh.read(min(size, limit) + 1)
        if size < len(raw) <= limit:  # it grew since fstat
            raw += fh.read(limit + 1 - len(raw))
    return raw


class VersionTables(Protocol):
    """Tables a reader derives from one index version, and that version."""

    version: int


class Memo(TypedDict, total=False):
    """What readers hang on a RootIndex, by name (the tables are theirs; the index only drops them)."""

    explore: VersionTables  # explore/engine.py `Derived`: name and word tables, implementers
    likely: VersionTables  # graph/likely.py `LikelyGraph`: the ranked graph
    query: VersionTables  # query/symbols.py `SymbolTable`: names for symbol search, call sites by line
    structural: VersionTables  # graph/structural.py `StructuralTable`: types implementing a contract by shape
    support: VersionTables  # graph/support.py: modules named like test support that are test support by their imports


@dataclass
class OpenDocument:
    source: bytes  # UTF-8 text as the editor has it
    tree: Tree | None
    language: str
    reading: str = ""  # the language its tree was parsed as (a dialect of `language`: Flow is read as TSX)


@dataclass
class RootIndex:
    root: Path
    config: ScopeConfig = field(default_factory=ScopeConfig)
    cache_dir: Path | None = None
    use_cache: bool = True

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()
        self._root_str = str(self.root)  # joined as strings: a Path per file is measurable on a full build
        self.scope = Scope(self.root, self.config)
        self.files: dict[str, FileFacts] = {}
        self.sources: dict[str, bytes] = {}
        self.bindings: dict[str, FileBindings] = {}
        self.skipped: dict[str, str] = {}
        self.unsupported: dict[str, int] = {}  # files of other languages the walk met, by kind
        self.resolver = Resolver()
        self.graph = CodeGraph()
        self.open_docs: dict[str, OpenDocument] = {}
        self.version = 0
        self.ready = False
        self.last_update_ms = 0.0
        self.store: FactStore | None = None
        self._store_lock = threading.Lock()
        # cache rows not yet written: facts, (sha, row) already encoded by a worker, None = delete
        self._pending: dict[str, FileFacts | tuple[str, Blob] | None] = {}
        self._flush_timer: threading.Timer | None = None
        self._flush_lock = threading.Lock()
        self._pending_bindings: tuple[str, dict[str, FileBindings]] | None = None  # a full build's, to store
        # Files edited with `defer` since the last settle → their facts when their dependents were
        # last resolved (None: absent then). settle() re-resolves what differs between that and now.
        self._baseline: dict[str, FileFacts | None] = {}
        # Tables readers derive from one version; they carry the version they were built from
        # and go away with the index.
        self.memo: Memo = {}

    # ---- full build ------------------------------------------------------------------
    def build(self, progress: Progress | None = None, workers: int | None = None) -> BuildStats:
        with no_cyclic_gc(freeze=True):
            return self._build(progress, workers)

    def _build(self, progress: Progress | None, workers: int | None) -> BuildStats:
        started = time.perf_counter()
        stats = BuildStats()
        cached = self._open_cache(stats)
        # Files are read as the walk finds them, and those that need parsing go to the worker
        # pool at once: the workers parse while the rest of the tree is walked and read.
        parser = _Parsing(workers, progress)
        results, sources, total = self._read_all(cached, parser, stats, progress)
        # The resolver's indexes fill while the workers parse: cached facts now, parsed ones per batch.
        resolver = Resolver()
        resolver.add_all(list(results.values()))
        parsed = parser.finish(on_batch=resolver.add_all)
        for rel, facts, reason in parsed:
            if facts is None:
                self.skipped[rel] = reason
                sources.pop(rel, None)
            else:
                results[rel] = facts
        stats.parsed = sum(1 for _, f, _ in parsed if f is not None)
        results = dict(sorted(results.items()))  # the walk's and the workers' order is not the answer's
        self.files = results
        self.sources = dict(sorted(sources.items()))
        resolver.js_workspace = read_workspace(self._root_str, [p for p, f in results.items() if spec_of(f).module_system == "path"])
        resolver.go_modules = read_go_modules(self._root_str, [p for p, f in results.items() if spec_of(f).module_system == "directory"])
        self.resolver = resolver
        self._bind_all(parser.workers)
        self.graph = CodeGraph.build(results, self.bindings)
        if self.store is not None:
            self._queue_cache_rows(parsed, parser.encoded, cached)
        stats.files = len(results)
        stats.skipped = len(self.skipped)
        self.version += 1
        self.ready = True
        stats.elapsed_ms = (time.perf_counter() - started) * 1000
        self.last_update_ms = stats.elapsed_ms
        if progress:
            progress(total, total, f"indexed {len(results)} files")
        return stats

    def _open_cache(self, stats: BuildStats) -> dict[str, tuple[str, Blob]]:
        """The fact cache's rows (path → (sha256, row)); none when the cache is off or unusable."""
        if not self.use_cache:
            return {}
        try:
            self.store = FactStore(self.root, self.cache_dir)
            cached = self.store.load()
            stats.cache_note = self.store.rebuilt_reason
            return cached
        except OSError as exc:
            stats.cache_note = f"cache disabled: {exc}"
            self.store = None
            return {}

    def _read_all(self, cached: dict[str, tuple[str, Blob]], parser: _Parsing, stats: BuildStats,
                  progress: Progress | None) -> tuple[dict[str, FileFacts], dict[str, bytes], int]:
        """Walks the root: each file in scope is read, its facts taken from a matching cache row
        or handed to the parser. Returns (facts from the cache, sources, files walked)."""
        scan = ScanResult()
        results: dict[str, FileFacts] = {}
        sources: dict[str, bytes] = {}
        self.skipped = {}
        total = 0
        for rel, language in self.scope.walk(scan):
            total += 1
            if progress and total % 200 == 0:
                progress(total, 0, f"reading {total} files")
            raw = self._read(rel)
            if raw is None:
                continue
            reason = self.scope.content_reason(raw, rel)
            if reason:
                self.skipped[rel] = reason
                continue
            try:
                sources[rel] = decode_source(raw, language)
            except SourceError as exc:
                self.skipped[rel] = str(exc)
                continue
            hit = cached.get(rel)
            # hashed only against a cache row: a file that goes to a worker is hashed there
            digest = sha256(raw) if hit is not None else ""
            if hit is not None and hit[0] == digest:
                try:
                    results[rel] = decode(rel, digest, hit[1])
                    stats.from_cache += 1
                    continue
                except (ValueError, TypeError, KeyError, IndexError, EOFError) as exc:
                    log.warning("cache row for %s unusable (%s): re-parsing", rel, exc)
            parser.add((rel, language, raw))
        self.skipped.update(scan.skipped)
        self.unsupported = scan.unsupported
        parser.total = total
        return results, sources, total

    def _bind_all(self, workers: int | None) -> None:
        """Every file's bindings: stored ones for this very snapshot, else resolved (and stored)."""
        fingerprint = snapshot_fingerprint(self.files, self.resolver.workspace_fingerprint())
        stored = self.store.load_bindings(fingerprint) if self.store is not None else None
        try:
            self.bindings = decode_bindings(stored) if stored else {}
        except (ValueError, TypeError, KeyError) as exc:
            log.warning("stored bindings unusable (%s): resolving", exc)
            self.bindings = {}
        if set(self.bindings) != set(self.files):
            self.bindings = _resolve_all(self.resolver, list(self.files), workers)
            self._pending_bindings = (fingerprint, self.bindings)

    def _queue_cache_rows(self, parsed: list[ParseResult], encoded: dict, cached: dict[str, tuple[str, Blob]]) -> None:
        for r, f, _ in parsed:
            if f is not None:
                self._pending[r] = encoded.get(r, f)  # the workers' cache rows, reused
        for p in cached:
            if p not in self.files:
                self._pending[p] = None
        self._schedule_flush(0.0)  # written behind the first answer, not before it

    def _read(self, rel: str) -> bytes | None:
        try:
            raw = _read_file(os.path.join(self._root_str, rel), self.config.max_file_bytes)
        except OSError as exc:
            self.skipped[rel] = f"unreadable ({exc.strerror or exc})"
            return None
        if len(raw) > self.config.max_file_bytes:
            self.skipped[rel] = oversize_reason(self.config.max_file_bytes)
            return None
        return raw

    # ---- single-file updates -----------------------------------------------------------
    def _commit(self, rel: str, facts: FileFacts | None, source: bytes | None, reason: str = "", defer: bool = False) -> None:
        """Replaces one file's facts (None = the file left the index) and re-resolves dependents.

        With `defer` (editor keystrokes), only the file itself is re-resolved now; its dependents
        wait for `settle()`, which the LSP runs when the edit queue drains and before any read, so
        a keystroke that briefly breaks a class never pays for re-resolving a thousand files. And
        settle() compares with the facts dependents last saw: typing that breaks a definition and
        mends it again leaves nothing to re-resolve.
        """
        started = time.perf_counter()
        before = self.files.get(rel)
        if facts is None:
            removed = [rel] if rel in self.files else []
            self.files.pop(rel, None)
            self.sources.pop(rel, None)
            self.bindings.pop(rel, None)
            if reason:
                self.skipped[rel] = reason
            dirty = self.resolver.update([], removed)
            self.graph.remove_file(rel)
        else:
            self.files[rel] = facts
            self.sources[rel] = source or b""
            self.skipped.pop(rel, None)
            dirty = self.resolver.update([facts], [])
        if defer:
            self._baseline.setdefault(rel, before)
            dirty = {rel}
        else:
            dirty |= self._deferred_dependents()
        self._resolve(dirty)
        self.version += 1
        self.last_update_ms = (time.perf_counter() - started) * 1000
        if self.store is not None:
            with self._store_lock:
                self._pending[rel] = facts
            self._schedule_flush(FLUSH_DELAY_S)

    def _resolve(self, paths: set[str]) -> None:
        for path in sorted(paths):
            if path in self.files:
                self.bindings[path] = self.resolver.resolve_file(path)
                self.graph.replace_file(self.files[path], self.bindings[path])

    @property
    def unsettled(self) -> bool:
        return bool(self._baseline)

    def _deferred_dependents(self) -> set[str]:
        baseline, self._baseline = self._baseline, {}
        dirty: set[str] = set()
        for rel, before in baseline.items():
            dirty |= self.resolver.dependents(before, self.files.get(rel))
        return dirty

    def settle(self) -> bool:
        """Re-resolves dependents that deferred edits left waiting; True if there were any."""
        if not self._baseline:
            return False
        started = time.perf_counter()
        self._resolve(self._deferred_dependents())
        self.version += 1
        self.last_update_ms = (time.perf_counter() - started) * 1000
        return True

    def refresh_path(self, rel: str, defer: bool = False) -> None:
        """Re-reads a file from disk (watched-file events, saves); open buffers win over disk.
        A `.gitignore` that changed re-applies the ignore rules to the whole root. With `defer`
        (a batch of file events: a branch switch) dependents wait for `settle()`, once."""
        if rel == ".gitignore" or rel.endswith("/.gitignore"):
            self.rescope()
            return
        self._refresh(rel, defer)

    def forget_deleted(self, rel: str) -> None:
        """A file that is gone from disk is no skipped file either (disk catch-up's deletions)."""
        if not (self.root / rel).exists():
            self.skipped.pop(rel, None)

    def rescope(self) -> None:
        """Walks the root again with fresh ignore rules: files that left the scope leave the index
        (with the reason), files that entered it are read and indexed; dependents settle once."""
        self.scope.forget_ignore_rules()
        scan = ScanResult()
        now = dict(self.scope.walk(scan))
        for rel in sorted(set(self.files) - set(now)):
            self.open_docs.pop(rel, None)  # an open buffer of an ignored file is no longer followed
            self._commit(rel, None, None, self.scope.file_reason(rel) or "no longer in scope", defer=True)
        for rel in sorted(set(now) - set(self.files)):
            self._refresh(rel, defer=True)
        # reasons of the walk, and of files in scope that reading or parsing refused
        self.skipped = {**scan.skipped, **{r: why for r, why in self.skipped.items() if r in now and r not in self.files}}
        self.unsupported = scan.unsupported
        self.settle()

    def _refresh(self, rel: str, defer: bool = False) -> None:
        if rel in self.open_docs:
            return
        reason = self.scope.file_reason(rel)
        language = self.scope.language_of(rel)
        if reason or language is None:
            # Out of scope by its name. Events for such files come by the thousand (an `npm
            # install` under node_modules): only a file the index holds has anything to change.
            if rel in self.files:
                self._commit(rel, None, None, reason or "unsupported language", defer=defer)
            return
        raw = self._read_quiet(rel)
        if raw is None:  # deleted (or unreadable now): it leaves, and is no skipped file either
            if rel in self.files:
                self._commit(rel, None, None, "", defer=defer)
            self.skipped.pop(rel, None)
            return
        reason = self.scope.content_reason(raw, rel)
        if reason:
            if rel in self.files:
                self._commit(rel, None, None, reason, defer=defer)
            else:
                self.skipped[rel] = reason
            return
        rel_, facts, why = extract_raw((rel, language, raw))
        self._commit(rel, facts, decode_source(raw, language) if facts else None, why, defer=defer)

    def _read_quiet(self, rel: str) -> bytes | None:
        try:
            raw = _read_file(os.path.join(self._root_str, rel), self.config.max_file_bytes)
        except OSError:
            return None
        return raw if len(raw) <= self.config.max_file_bytes else None

    def open_document(self, rel: str, text: str) -> None:
        language = self.scope.language_of(rel)
        if language is None or self.scope.file_reason(rel):
            return
        source = text.encode("utf-8", "surrogatepass")
        self.open_docs[rel] = OpenDocument(source, None, language)
        self.set_document(rel, source, edits=None)

    def close_document(self, rel: str) -> None:
        if self.open_docs.pop(rel, None) is not None:
            self.refresh_path(rel)

    def set_document(
        self, rel: str, source: bytes, edits: list[tuple[int, int, int, tuple[int, int], tuple[int, int], tuple[int, int]]] | None, defer: bool = False
    ) -> None:
        """New text of an open document; `edits` are tree-sitter InputEdits against the old text."""
        doc = self.open_docs.get(rel)
        if doc is None:
            return
        if len(source) > self.config.max_file_bytes:  # the same limit as on disk, for buffers too
            doc.source, doc.tree = source, None
            self._commit(rel, None, None, oversize_reason(self.config.max_file_bytes))
            return
        old_tree = doc.tree
        if old_tree is not None and edits:
            for start, old_end, new_end, sp, op, np_ in edits:
                old_tree.edit(start, old_end, new_end, Point(*sp), Point(*op), Point(*np_))
        else:
            old_tree = None
        if self.scope.content_reason(source, rel):
            doc.source, doc.tree = source, None
            self._commit(rel, None, None, self.scope.content_reason(source, rel) or "")
            return
        language = reading_language(doc.language, source)
        if language != doc.reading:  # a tree of another grammar is no base for this parse
            old_tree, doc.reading = None, language
        try:
            tree = parse(language, source, old_tree)
            facts = extract(rel, language, source, tree, sha256(source), len(source))
        except (SourceError, RecursionError, ValueError) as exc:
            doc.source, doc.tree = source, None
            self._commit(rel, None, None, f"extraction failed ({exc})")
            return
        doc.source, doc.tree = source, tree
        self._commit(rel, facts, source, defer=defer)

    # ---- reading ------------------------------------------------------------------------
    def unresolved_calls(self) -> int:
        return sum(len(b.unresolved) for b in self.bindings.values())

    def resolved_edges(self) -> int:
        return sum(1 for b in self.bindings.values() for e in b.edges if e.kind in ("calls", "constructs", "extends", "implements", "imports"))

    def status(self) -> dict:
        languages: dict[str, int] = {}
        for facts in self.files.values():
            languages[facts.language] = languages.get(facts.language, 0) + 1
        return {
            "rootUri": self.root.as_uri(),
            "files": len(self.files),
            "symbols": sum(sum(1 for u in f.units if u.kind != "statement") for f in self.files.values()),
            "resolvedEdges": self.resolved_edges(),
            "unresolvedCalls": self.unresolved_calls(),
            "languages": dict(sorted(languages.items())),
            "skipped": [{"path": p, "reason": r} for p, r in sorted(self.skipped.items())[:50]],
            "skippedTotal": len(self.skipped),
            "lastUpdateMs": round(self.last_update_ms, 3),
        }

    # ---- the cache, written behind ------------------------------------------------------
    def _schedule_flush(self, delay: float) -> None:
        """Edits are coalesced and written off the edit path; close() writes what is left."""
        with self._store_lock:
            if self._flush_timer is not None or (not self._pending and self._pending_bindings is None):
                return
            self._flush_timer = threading.Timer(delay, self.flush_cache)
            self._flush_timer.daemon = False  # the interpreter waits for a pending cache write at exit
            self._flush_timer.start()

    def flush_cache(self) -> None:
        with self._flush_lock:  # one writer at a time; close() waits for a write in progress
            with self._store_lock:
                pending, self._pending = self._pending, {}
                snapshot, self._pending_bindings = self._pending_bindings, None
                self._flush_timer = None
                store = self.store
            if store is not None and pending:
                rows = [(p, *f) if isinstance(f, tuple) else (p, f.sha256, encode(f)) for p, f in pending.items() if f is not None]
                store.put(rows, [p for p, f in pending.items() if f is None])
            if store is not None and snapshot is not None:
                store.put_bindings(snapshot[0], encode_bindings(snapshot[1]))

    def close(self) -> None:
        with self._store_lock:
            timer = self._flush_timer
        if timer is not None:
            timer.cancel()
            if timer.is_alive():
                timer.join()
        self.flush_cache()
        if self.store is not None:
            self.store.close()
