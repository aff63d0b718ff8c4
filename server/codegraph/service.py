"""The workspace service every transport drives, and its one request contract (docs/protocol.md).

The language server, the MCP server and the CLI are adapters: each translates its wire into calls
on a `Workspace` and serializes what comes back. Everything else is decided here, once:

- the contract: which fields each request takes, their defaults (the transports' documented
  differences are rows of `TRANSPORTS`, not code), validation and the error that names the field;
- readiness: the first build of every root, its progress, the not-ready status;
- consistency: a read/write gate (many readers or one writer, a waiting writer holds back new
  readers), one write queue applying edits in arrival order, settle-before-read, catch-up from
  disk for transports no editor feeds; each answer is computed on one index version;
- cancellation: one `Cancelled`, raised at the computation's next checkpoint.

Order of checks, the same everywhere: params must be an object; every key must be a field of
the request (or a routing field the transport consumes, such as the LSP's `rootUri`); then
the request's own validation (`requests.py`, `distill/request.py`, `distill/evidence.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import unquote, urlparse

from .index.disk import DiskWatch
from .index.index import BuildStats, RootIndex
from .framing import reference_frame_bytes
from .model import protocol
from .model.fields import key_name
from .requests import Checkpoint, InvalidParams, RequestFailed, require_object, run_distill, run_evidence, run_explore
from .workspace.scope import ScopeConfig

log = logging.getLogger("codegraph.service")

EXPLORE, DISTILL, EVIDENCE, STATUS = "explore", "distill", "evidence", "status"
# the graph's queries (query/): symbols by name, callers and callees, the impact of a change
SYMBOLS, CALLS, IMPACT = "symbols", "calls", "impact"
QUERIES = (SYMBOLS, CALLS, IMPACT)

# Every field each request takes, in the order the protocol declares them (model/protocol.json);
# MCP's input schemas are built from the same declaration.
FIELDS: dict[str, tuple[str, ...]] = {request: tuple(protocol.params(request)) for request in (EXPLORE, DISTILL, EVIDENCE, STATUS, *QUERIES)}


@dataclass(frozen=True, slots=True)
class Transport:
    name: str
    distill_format: str  # distill's `format` when the request leaves it out
    routing: tuple[str, ...] = ()  # fields the transport consumes itself (which workspace folder)
    follows_disk: bool = False  # no editor sends file events: catch up from disk before each request
    long_lived: bool = True  # answers many requests: explore's tables are built right after the index


# The transports' documented differences, all of them. The LSP answers programs (editors),
# so distill defaults to the pack as data; the CLI and MCP answer people and models, so to
# the markdown. Only the LSP serves several workspace folders and takes `rootUri`; only MCP
# has no editor telling it about edits; only the CLI answers one request and exits.
LSP = Transport("lsp", distill_format="json", routing=tuple(protocol.PROTOCOL["routing"]))
MCP = Transport("mcp", distill_format="markdown", follows_disk=True)
CLI = Transport("cli", distill_format="markdown", long_lived=False)
TRANSPORTS = {t.name: t for t in (LSP, MCP, CLI)}


def prepare(request: str, params: Any, transport: Transport) -> dict:
    """Raw params → a plain dict with the transport's defaults filled in; raises InvalidParams.

    Unknown keys are refused, naming the key (docs/protocol.md says why). Idempotent, so a
    transport may call it early to refuse a malformed request before waiting for the index.
    """
    data = require_object(params)
    allowed = FIELDS[request] + transport.routing
    for key in sorted(data):
        if key not in allowed:
            # the request's own fields only: the rule reads the same from every transport
            raise InvalidParams(key_name(key), f"is not a parameter of {request} (parameters: {', '.join(FIELDS[request]) or 'none'})")
    if request == DISTILL:
        if data.get("format") is None:
            data["format"] = transport.distill_format
        if data.get("scenario") is None and data.get("question") is not None:
            data["scenario"] = "query"  # a question alone asks a directed pack
    return data


def _no_checkpoint() -> None:
    return None


def explore(index: RootIndex, params: Any, transport: Transport, checkpoint: Checkpoint = _no_checkpoint, adaptive_default: bool = True) -> dict:
    """`codegraph/explore` on one index; `adaptive_default` is the server's configuration (initializationOptions)."""
    return run_explore(index, prepare(EXPLORE, params, transport), checkpoint, adaptive_default)


def distill(index: RootIndex, params: Any, transport: Transport, checkpoint: Checkpoint = _no_checkpoint,
            measure: Callable[[dict], int] | None = None) -> dict:
    """`codegraph/distill` on one index. `measure` gives the bytes of the message the transport
    sends; a transport that sends none (the CLI) is budgeted on the reference frame alone."""
    return run_distill(index, prepare(DISTILL, params, transport), measure or reference_frame_bytes, checkpoint)


def evidence(index: RootIndex, params: Any, transport: Transport) -> dict:
    """`codegraph/evidence` on one index."""
    return run_evidence(index, prepare(EVIDENCE, params, transport))


def query(index: RootIndex, request: str, params: Any, transport: Transport, checkpoint: Checkpoint = _no_checkpoint) -> dict:
    """`codegraph/symbols`, `codegraph/calls` or `codegraph/impact` on one index."""
    from .query import request as queries

    run = {SYMBOLS: queries.run_symbols, CALLS: queries.run_calls, IMPACT: queries.run_impact}[request]
    return run(index, prepare(request, params, transport), checkpoint)


def empty_root_status(root_uri: str, error: str | None = None) -> dict:
    """A root's status with nothing indexed: while the first index is being built, or for a
    workspace folder that has no index (`error` says why)."""
    entry = {"rootUri": root_uri, "files": 0, "symbols": 0, "resolvedEdges": 0, "unresolvedCalls": 0, "languages": {},
             "skipped": [], "skippedTotal": 0, "lastUpdateMs": 0.0}
    if error is not None:
        entry["error"] = error
    return entry


def not_ready_status(root_uris: Iterable[str], progress: tuple[int, int, str], errors: dict[str, str] | None = None) -> dict:
    """`codegraph/status` while the first index is being built: empty roots (with the reason of a
    folder already known to have no index), and the build's progress (done, total, message)."""
    done, total, message = progress
    return {
        "indexVersion": 0,
        "ready": False,
        "progress": {"done": done, "total": total, "message": message},
        "roots": [empty_root_status(uri, (errors or {}).get(uri)) for uri in root_uris],
    }


# ---- cancellation ----------------------------------------------------------------------------
class Cancelled(Exception):
    """Raised at a checkpoint inside a worker-thread computation once its request was cancelled."""


class Cancellation:
    """One request's cancel flag: set from the transport's event loop, checked in the worker thread."""

    def __init__(self) -> None:
        self._flag = threading.Event()

    def cancel(self) -> None:
        self._flag.set()

    def checkpoint(self) -> None:
        if self._flag.is_set():
            raise Cancelled()


# ---- the read/write gate ----------------------------------------------------------------------
class ReadWriteGate:
    """Many readers or one writer; a waiting writer holds back new readers (edits never starve)."""

    def __init__(self) -> None:
        self._cond = asyncio.Condition()
        self._readers = 0
        self._writer = False
        self._waiting_writers = 0

    @contextlib.asynccontextmanager
    async def read(self):
        async with self._cond:
            await self._cond.wait_for(lambda: not self._writer and self._waiting_writers == 0)
            self._readers += 1
        try:
            yield
        finally:
            async with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextlib.asynccontextmanager
    async def write(self):
        async with self._cond:
            self._waiting_writers += 1
            try:
                await self._cond.wait_for(lambda: not self._writer and self._readers == 0)
            finally:
                self._waiting_writers -= 1
            self._writer = True
        try:
            yield
        finally:
            async with self._cond:
                self._writer = False
                self._cond.notify_all()


# ---- the workspace ----------------------------------------------------------------------------
Progress = Callable[[int, int, str], None]  # (done, total, message), called from the build thread
Report = Callable[[int, int, str], Awaitable[None]]  # the same, awaited on the loop (MCP progress)
READY_POLL_S = 0.05  # how often a request waiting for the first index looks (and reports progress)


@dataclass(frozen=True)
class IndexOptions:
    """How every root of a workspace is indexed (the CLI's flags, the LSP's initializationOptions)."""

    scope: ScopeConfig = field(default_factory=ScopeConfig)
    cache_dir: Path | None = None
    use_cache: bool = True
    adaptive_explore: bool = True


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def folder_problem(uri: str) -> str | None:
    """Why a workspace folder cannot be indexed (None: it can): only local directories are."""
    path = uri_to_path(uri)
    if path is None:
        scheme = urlparse(uri).scheme
        return f"workspace folder {uri} is not indexed: only local folders (file: URIs) are, not {scheme + ':' if scheme else 'this URI'}"
    if not path.exists():
        return f"workspace folder {uri} is not indexed: {path} does not exist"
    if not path.is_dir():
        return f"workspace folder {uri} is not indexed: {path} is not a directory"
    return None


class Workspace:
    """The roots of one workspace and everything that keeps answers consistent (module docstring).

    The async half runs on the transport's asyncio loop (pygls; the MCP SDK's anyio, on asyncio)
    and does index work in worker threads, so the loop keeps reading messages (cancellations,
    status) meanwhile. The CLI answers one request and uses the synchronous half
    (`build_now`, `answer_now`): no loop, no threads, so the build may fork its workers.
    """

    def __init__(self, transport: Transport, options: IndexOptions | None = None) -> None:
        self.transport = transport
        self.options = options or IndexOptions()
        self.folders: list[str] = []  # every workspace folder's uri, in order, indexed or not
        self.roots: dict[str, RootIndex] = {}  # root uri → index (the folders that have one)
        self.progress: tuple[int, int, str] = (0, 0, "starting")
        # folder uri → why it has no usable index (not a local directory, or its first build
        # failed): it stays a folder, listed by status with the reason; its requests fail with it
        self.failed: dict[str, str] = {}
        self._built = threading.Event()
        self._disk: dict[str, DiskWatch] = {}
        self._gate: ReadWriteGate | None = None  # created on the loop that uses them
        self._writes: asyncio.Queue | None = None
        # explore's work for the new version, done while typing pauses (explore/warm.py); an edit
        # or a request stops it at its next checkpoint
        self._warming: asyncio.Task | None = None
        self._warm_stop: Cancellation | None = None
        self._busy = 0  # requests in flight (status aside): no warm-up competes with them
        self._explored_at: float | None = None  # when the last explore was asked (time.monotonic)
        self._following: asyncio.Task | None = None  # the disk watch between requests (no editor)

    # -- roots
    def new_root(self, uri: str) -> RootIndex | None:
        """A RootIndex for a workspace folder, not yet built (None: not a local directory;
        `folder_problem` says why)."""
        if folder_problem(uri) is not None:
            return None
        o = self.options
        return RootIndex(uri_to_path(uri), o.scope, cache_dir=o.cache_dir, use_cache=o.use_cache)  # type: ignore[arg-type]

    def add_root(self, uri: str) -> RootIndex | None:
        """Adds a folder before the first build. A folder that cannot be indexed stays known with
        its reason (None is returned): status lists it, its requests fail naming the reason."""
        index = self.new_root(uri)
        if uri not in self.folders:
            self.folders.append(uri)
        if index is None:
            self.failed[uri] = problem = folder_problem(uri) or f"workspace folder {uri} is not indexed"
            log.warning("%s", problem)
        else:
            self.roots[uri] = index
        return index

    def root_for_uri(self, uri: str) -> tuple[RootIndex, str] | None:
        """The innermost root holding this document, and its path relative to that root."""
        path = uri_to_path(uri)
        if path is None:
            return None
        best: tuple[RootIndex, str] | None = None
        for index in self.roots.values():
            rel = index.scope.relpath(path)
            if rel is not None and not rel.startswith("..") and (best is None or len(str(index.root)) > len(str(best[0].root))):
                best = (index, rel)
        return best

    def select_folder(self, data: dict) -> str:
        """The workspace folder a request names by `rootUri` (the LSP's routing field), else the
        first; also one that has no index (`select_root` refuses that one, naming why)."""
        uri = data.get("rootUri")
        if uri is None:
            if not self.folders:
                raise InvalidParams("rootUri", "cannot default: the workspace has no folder")
            return self.folders[0]
        if not isinstance(uri, str):
            raise InvalidParams("rootUri", "must be a string")
        if uri in self.folders:  # as the client named it (a folder with no index has no path to compare)
            return uri
        path = uri_to_path(uri)
        if path is None:
            raise InvalidParams("rootUri", "must be a file:// URI of a workspace folder")
        wanted = path.resolve()
        for folder in self.folders:
            index = self.roots.get(folder)
            known = index.root if index is not None else uri_to_path(folder)
            if known is not None and known.resolve() == wanted:
                return folder
        raise InvalidParams("rootUri", "must be one of the workspace folders")

    def select_root(self, data: dict) -> RootIndex:
        """The index of the folder a request names (`select_folder`); RequestFailed naming why
        when that folder has none."""
        folder = self.select_folder(data)
        if folder in self.failed:
            raise RequestFailed(self.failed[folder])
        return self.roots[folder]

    def root_statuses(self, folders: Iterable[str]) -> list[dict]:
        """Each folder's status once the first index is built; a folder with no index says why."""
        out = []
        for folder in folders:
            index = self.roots.get(folder)
            error = self.failed.get(folder)
            if index is None:
                out.append(empty_root_status(folder, error))
            else:
                out.append({**index.status(), **({"error": error} if error is not None else {})})
        return out

    def _status(self, data: dict) -> dict:
        """`codegraph/status`: every folder, or the one `rootUri` names; answers at once while
        the first index is being built."""
        folders = [self.select_folder(data)] if data.get("rootUri") is not None else list(self.folders)
        if not self.ready:
            shown = {f: self.roots[f].root.as_uri() if f in self.roots else f for f in folders}
            return not_ready_status(shown.values(), self.progress, {shown[f]: self.failed[f] for f in folders if f in self.failed})
        return {"indexVersion": sum(r.version for r in self.roots.values()), "ready": True, "roots": self.root_statuses(folders)}

    # -- the first build
    @property
    def ready(self) -> bool:
        return self._built.is_set()

    def build_now(self, on_progress: Progress | None = None) -> list[BuildStats | None]:
        """Builds every root in this thread; requests may follow. The CLI's, and the servers' in a thread."""
        try:
            return [self._build_root(uri, index, on_progress) for uri, index in list(self.roots.items())]
        finally:
            self._built.set()

    async def build(self, on_progress: Progress | None = None, on_ready: Callable[[], None] | None = None) -> None:
        """The first index, off the loop and under the write gate; requests wait for it, status
        answers at once. Then, for long-lived transports, the writer starts and explore's tables
        are built (as a reader: an explore arriving meanwhile waits for them, not builds its own)."""
        gate = self._loop_gate()
        try:
            async with gate.write():
                await _in_daemon_thread(lambda: self.build_now(on_progress))
        finally:
            self._built.set()
            if on_ready is not None:
                on_ready()
        if not self.transport.long_lived:
            return
        asyncio.get_running_loop().create_task(self._apply_writes())
        from .explore.engine import derived as explore_tables

        from .explore.warm import recall

        recalled = 0
        async with gate.read():
            for index in list(self.roots.values()):
                try:
                    await asyncio.to_thread(explore_tables, index)
                    recalled += await asyncio.to_thread(recall, index)
                except Exception:
                    log.exception("explore tables for %s failed; built on the first question instead", index.root)
        if recalled:  # the last session's working set: warm it until the first request
            self._start_warming(always=True)

    def _build_root(self, uri: str, index: RootIndex, on_progress: Progress | None) -> BuildStats | None:
        def report(done: int, total: int, message: str) -> None:
            self.progress = (done, total, message)
            if on_progress is not None:
                on_progress(done, total, message)

        try:
            if self.transport.follows_disk:
                watch = DiskWatch(index)
                watch.snapshot()  # before the build: an edit during it is caught by the first request
                self._disk[uri] = watch
            stats = index.build(report)
            log.info("indexed %s: %d files (%d parsed, %d from cache) in %.0f ms%s", index.root, stats.files, stats.parsed,
                     stats.from_cache, stats.elapsed_ms, f"; {stats.cache_note}" if stats.cache_note else "")
            return stats
        except Exception as exc:  # the server keeps running; requests on this root say why they fail
            log.exception("indexing %s failed", index.root)
            self.failed[uri] = f"indexing {index.root} failed: {type(exc).__name__}: {exc}"
            index.ready = True
            return None

    async def wait_ready(self, report: Report | None = None) -> None:
        """Until the first index is built; `report` hears its progress meanwhile (best effort)."""
        last: tuple[int, int, str] | None = None
        while not self._built.is_set():
            if report is not None and self.progress != last:
                last = self.progress
                try:
                    await report(*last)
                except Exception:
                    report = None
            await asyncio.sleep(READY_POLL_S)

    # -- reads
    async def answer(self, request: str, params: Any, *, measure: Callable[[dict], int] | None = None,
                     report: Report | None = None) -> dict:
        """One request, on one settled index version. Raises InvalidParams, RequestFailed, or
        asyncio.CancelledError once the caller is cancelled (at once; the computation stops at
        its next checkpoint before writers get in)."""
        data = prepare(request, params, self.transport)  # a malformed request is refused before any wait
        if request == STATUS:
            self.select_folder(data)  # a rootUri that names no folder is refused at once
            if not self.ready:
                return self._status(data)
        await self.wait_ready(report)
        if request == STATUS:
            if self.transport.follows_disk:
                await self._catch_up()
            return await self._read(lambda checkpoint: self._status(data))
        self.stop_warming()  # the question does its own work; a warm-up beside it only competes
        self._busy += 1
        try:
            if request == EXPLORE:
                self._explored_at = time.monotonic()
                if self.transport.follows_disk and (self._following is None or self._following.done()):
                    self._following = asyncio.get_running_loop().create_task(self._follow_disk())
            if self.transport.follows_disk:
                await self._catch_up()
            index = self.select_root(data)
            return await self._read(self._work(request, index, data, measure))
        finally:
            self._busy -= 1
            self._start_warming()  # then the rest of the ranked graph, while nothing is asked (explore/warm.py)

    def answer_now(self, request: str, params: Any) -> dict:
        """One request, here and now (the CLI: one thread, nothing else touches the index)."""
        data = prepare(request, params, self.transport)
        if not self.ready:
            raise RequestFailed("the index is not built")
        if request == STATUS:
            return self._status(data)
        index = self.select_root(data)
        return self._work(request, index, data, None)(_no_checkpoint)

    def _work(self, request: str, index: RootIndex, data: dict, measure: Callable[[dict], int] | None) -> Callable[[Checkpoint], dict]:
        if request == EXPLORE:
            return lambda checkpoint: explore(index, data, self.transport, checkpoint, self.options.adaptive_explore)
        if request == DISTILL:
            return lambda checkpoint: distill(index, data, self.transport, checkpoint, measure)
        if request in QUERIES:
            return lambda checkpoint: query(index, request, data, self.transport, checkpoint)
        return lambda checkpoint: evidence(index, data, self.transport)

    # -- the index views a language server serves by the standard methods (workspace/symbol,
    # documentSymbol, call hierarchy): the same readiness, settling and gate as every request
    async def view(self, fn: Callable[[RootIndex, str | None], Any], uri: str | None = None) -> list[Any]:
        """fn(index, path relative to it) on the root holding `uri` (no uri: on every root, path
        None), on one settled version; one answer per root, none for a document outside them."""
        await self.wait_ready()
        self.stop_warming()  # an editor's symbols or call hierarchy go first, as a question does
        self._busy += 1
        try:
            if self.transport.follows_disk:
                await self._catch_up()
            return await self._read(self._view(fn, uri))
        finally:
            self._busy -= 1
            self._start_warming()

    def _view(self, fn: Callable[[RootIndex, str | None], Any], uri: str | None) -> Callable[[Checkpoint], list[Any]]:
        def run(checkpoint: Checkpoint) -> list[Any]:
            if uri is not None:
                hit = self.root_for_uri(uri)
                return [] if hit is None else [fn(*hit)]
            out = []
            for index in list(self.roots.values()):
                checkpoint()
                out.append(fn(index, None))
            return out

        return run

    async def _read(self, fn: Callable[[Checkpoint], Any]) -> Any:
        cancellation = Cancellation()
        # A task of its own: a cancelled caller answers at once, while this task keeps its gate
        # until the worker thread reached a checkpoint (no writer overlaps a running reader).
        task = asyncio.ensure_future(self._read_settled(fn, cancellation))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            cancellation.cancel()
            task.add_done_callback(_consume)
            raise
        except Cancelled:
            raise asyncio.CancelledError() from None

    async def _read_settled(self, fn: Callable[[Checkpoint], Any], cancellation: Cancellation) -> Any:
        """fn under the read gate; when edits left dependents to re-resolve, they are settled first
        and fn runs under the same write gate, on that settled version."""
        gate = self._loop_gate()
        async with gate.read():
            if not any(index.unsettled for index in self.roots.values()):
                return await self._in_thread(fn, cancellation)
        async with gate.write():
            await asyncio.to_thread(self._settle_all)
            return await self._in_thread(fn, cancellation)

    @staticmethod
    async def _in_thread(fn: Callable[[Checkpoint], Any], cancellation: Cancellation) -> Any:
        cancellation.checkpoint()  # cancelled while it waited for the gate: never starts
        return await asyncio.get_running_loop().run_in_executor(None, fn, cancellation.checkpoint)

    # -- writes
    def enqueue(self, op: Callable[[], None]) -> None:
        """A write, applied after the first index and after every write queued before it."""
        self.stop_warming()  # it holds the read gate: the write would wait for it
        self._loop_writes().put_nowait(op)

    def open_document(self, uri: str, text: str) -> None:
        self.enqueue(lambda: self._on_document(uri, lambda index, rel: index.open_document(rel, text)))

    def change_document(self, uri: str, text: str, edits: Any) -> None:
        """The document's whole new text, and the tree-sitter edits that lead there (None: unknown)."""
        def change(index: RootIndex, rel: str) -> None:
            if rel not in index.open_docs:
                index.open_document(rel, text)
            else:
                index.set_document(rel, text.encode("utf-8", "surrogatepass"), edits, defer=True)

        self.enqueue(lambda: self._on_document(uri, change))

    def close_document(self, uri: str) -> None:
        self.enqueue(lambda: self._on_document(uri, lambda index, rel: index.close_document(rel)))

    def files_changed(self, uris: list[str]) -> None:
        """Files changed on disk (watched-file events); deferred: a branch switch's hundreds of
        files settle their dependents once."""
        def refresh() -> None:
            for uri in uris:
                self._on_document(uri, lambda index, rel: index.refresh_path(rel, defer=True))

        self.enqueue(refresh)

    def _on_document(self, uri: str, op: Callable[[RootIndex, str], None]) -> None:
        hit = self.root_for_uri(uri)
        if hit is not None:
            op(*hit)

    async def _apply_writes(self) -> None:
        """The single writer: applies queued writes in arrival order."""
        writes = self._loop_writes()
        while True:
            op = await writes.get()
            try:
                async with self._loop_gate().write():
                    # Off the loop: a big edit parses for seconds, and meanwhile the transport must
                    # still read messages (cancellations, status); the gate keeps readers out.
                    await asyncio.to_thread(op)
                    if writes.empty():  # typing paused: finish what mid-typing edits deferred
                        await asyncio.to_thread(self._settle_all)
            except Exception:
                log.exception("applying an edit failed; the file keeps its previous facts")
            if writes.empty():
                self._start_warming()

    # -- explore's work for a new version, ahead of the next question
    WARM_DELAY_S = 0.5  # keys typed this much apart are one burst: no warm-up between them
    WARM_RECENT_S = 600.0  # only for someone who explored this recently: nobody else pays its time
    # the whole ranked graph (seconds of a core on a large project) only once edits and questions
    # rest this much longer: what a burst of edits would stop half done is not started
    WHOLE_DELAY_S = 5.0

    def _start_warming(self, always: bool = False) -> None:
        self.stop_warming()
        if self._busy or not always and (self._explored_at is None or time.monotonic() - self._explored_at > self.WARM_RECENT_S):
            return  # a request in flight restarts it when it ends
        stop = self._warm_stop = Cancellation()
        self._warming = asyncio.get_running_loop().create_task(self._warm(stop))

    def stop_warming(self) -> None:
        if self._warm_stop is not None:
            self._warm_stop.cancel()
            self._warm_stop = None

    async def _warm(self, stop: Cancellation) -> int:
        """explore/warm.py on every root, under the read gate, until done or stopped: the working
        set after WARM_DELAY_S, the whole graph after WHOLE_DELAY_S more; returns how many units'
        callers or edges it computed (or found computed)."""
        from .explore.warm import WARM_SECONDS, warm

        done = 0
        try:
            # the working set first (for at most warm.WARM_SECONDS), then the rest
            for delay, seconds, whole in ((self.WARM_DELAY_S, WARM_SECONDS, False), (self.WHOLE_DELAY_S, 0.0, True)):
                await asyncio.sleep(delay)
                async with self._loop_gate().read():
                    if any(index.unsettled for index in self.roots.values()):
                        return done  # the next reader settles it first, under the write gate
                    for index in list(self.roots.values()):
                        done += await self._in_thread(lambda checkpoint, index=index: warm(index, checkpoint, seconds, whole), stop)
        except Cancelled:
            pass
        except Exception:
            log.exception("warming explore's tables failed; the next question builds them")
        return done

    async def add_folders(self, uris: list[str]) -> None:
        """Folders added to the workspace are indexed off the gate (requests on the other roots go
        on meanwhile) and join under the write gate; one that cannot be indexed joins with its
        reason, as at the start."""
        await self.wait_ready()
        for uri in uris:
            if uri in self.folders:
                continue
            index = self.new_root(uri)
            problem = folder_problem(uri) if index is None else None
            if index is not None:
                try:
                    stats = await asyncio.to_thread(index.build)
                    log.info("indexed added folder %s: %d files in %.0f ms", index.root, stats.files, stats.elapsed_ms)
                except Exception as exc:
                    log.exception("indexing the added folder %s failed", index.root)
                    problem, index = f"indexing {index.root} failed: {type(exc).__name__}: {exc}", None
            elif problem is not None:
                log.warning("%s", problem)
            async with self._loop_gate().write():
                self.folders.append(uri)
                if index is not None:
                    self.roots[uri] = index
                else:
                    self.failed[uri] = problem or f"workspace folder {uri} is not indexed"

    async def remove_folders(self, uris: list[str]) -> None:
        """Removed folders leave under the write gate, their cache written."""
        await self.wait_ready()
        for uri in uris:
            async with self._loop_gate().write():
                index = self.roots.pop(uri, None)
                self.failed.pop(uri, None)
                if uri in self.folders:
                    self.folders.remove(uri)
            if index is not None:
                await asyncio.to_thread(index.close)

    async def _catch_up(self) -> bool:
        """What changed on disk applied (transports no editor feeds); True when anything had."""
        async with self._loop_gate().write():
            return await asyncio.to_thread(self._catch_up_all)

    def _catch_up_all(self) -> bool:
        touched = False
        for watch in self._disk.values():
            touched = bool(watch.catch_up()) or touched
        return touched

    FOLLOW_S = 2.0  # how often a transport without an editor looks at its files between requests

    async def _follow_disk(self) -> None:
        """Between requests, for a while after an explore: the disk's edits applied, then the
        warm-up — an agent edits files with its own tools and asks again, and the question that
        follows finds the new version computed (each request still catches up first)."""
        while self._explored_at is not None and time.monotonic() - self._explored_at <= self.WARM_RECENT_S:
            await asyncio.sleep(self.FOLLOW_S)
            try:  # a stat per file first: the write gate and the walk only once one changed
                watches = list(self._disk.values())
                if not await asyncio.to_thread(lambda: all(watch.quiet() for watch in watches)) and await self._catch_up():
                    self._start_warming()
            except Exception:
                log.exception("following the disk failed; the next request catches up")

    def _settle_all(self) -> None:
        for index in self.roots.values():
            index.settle()

    def close(self) -> None:
        """Writes the fact cache rows still pending, and a server's working set (explore/warm.py),
        so the next start is warm."""
        self.stop_warming()
        self._explored_at = None  # the disk watch ends at its next look
        from .explore.persist import keep
        from .explore.warm import remember

        for index in self.roots.values():
            try:
                keep(index)  # the word index and ranked graph a CLI run or a server built, for the next one
            except Exception:
                log.exception("storing the explore tables of %s failed", index.root)
            if self.transport.long_lived:
                try:
                    remember(index)
                except Exception:
                    log.exception("writing the working set of %s failed", index.root)
            try:
                index.close()
            except Exception:
                log.exception("closing the index of %s failed", index.root)

    def _loop_gate(self) -> ReadWriteGate:
        if self._gate is None:
            self._gate = ReadWriteGate()
        return self._gate

    def _loop_writes(self) -> asyncio.Queue:
        if self._writes is None:
            self._writes = asyncio.Queue()
        return self._writes


async def _in_daemon_thread(fn: Callable[[], Any]) -> Any:
    """fn() in a thread of its own that does not hold the process open: a server whose client
    leaves while the first index runs exits at once."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()

    def run() -> None:
        try:
            outcome: tuple[Any, BaseException | None] = (fn(), None)
        except BaseException as exc:
            outcome = (None, exc)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
            loop.call_soon_threadsafe(_settle, done, *outcome)

    threading.Thread(target=run, name="codegraph-index", daemon=True).start()
    return await done


def _settle(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _consume(task: asyncio.Future) -> None:
    """Collects the outcome of a read whose caller was cancelled (nobody awaits it any more)."""
    if not task.cancelled():
        task.exception()
