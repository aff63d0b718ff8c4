"""The language server: pygls over stdio, one RootIndex per workspace folder.

Writers (the first index, document sync, file events) go through one queue so edits apply in
order; requests read under a gate that never overlaps a write, so each answer is computed on
one index version. Heavy work runs in a worker thread with cooperative cancellation.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCRequestMessage

from .. import __version__, service
from ..explore.engine import derived as explore_tables
from ..index.index import RootIndex
from ..languages import SPECS
from ..requests import InvalidParams, RequestFailed, encode_body, encode_frame, frame_bytes_for, require_object
from ..service import Cancellation, Cancelled
from ..workspace.scope import DEFAULT_MAX_FILE_BYTES, ScopeConfig
from .sync import Change, ReadWriteGate, apply_changes

log = logging.getLogger("codegraph.lsp")

EXPLORE = "codegraph/explore"
DISTILL = "codegraph/distill"
STATUS = "codegraph/status"
EVIDENCE = "codegraph/evidence"


class JsonRpcRequestFailed(JsonRpcException):
    CODE = -32803
    MESSAGE = "Request failed"


class CodegraphProtocol(LanguageServerProtocol):
    """Sends every message with the canonical serializer that distill's frame gate measures.

    Messages are structured once, at the top level (pygls does it in json's object_hook, which also
    sees every object nested in params). Our own requests keep their params as plain JSON: pygls
    would turn them into namedtuples, renaming keys that are not identifiers and dropping the whole
    request, unanswered, when a key is `type_name` with a value that is no class name. A request
    pygls cannot structure gets an error answer instead of silence.
    """

    def structure_message(self, data: Any) -> Any:
        return data  # the object_hook: leave every object as parsed; handle_message structures

    def handle_message(self, message: Any) -> None:
        if isinstance(message, dict):
            try:
                message = self._structure(message)
            except JsonRpcException as exc:
                log.error("cannot structure message %.200r: %s", message, exc)
                if "id" in message and "method" in message:
                    self._send_response(message["id"], None, exc.to_response_error())
                return
        super().handle_message(message)

    def _structure(self, data: dict) -> Any:
        method = data.get("method")
        if "jsonrpc" in data and "id" in data and isinstance(method, str) and method.startswith("codegraph/"):
            return JsonRPCRequestMessage(id=data["id"], method=method, jsonrpc=data["jsonrpc"], params=data.get("params"))
        return super().structure_message(data)

    def _send_data(self, data: Any) -> None:
        if not data or self.writer is None:
            return
        try:
            frame = encode_frame(encode_body(data, default=self._serialize_message))
            res = self.writer.write(frame)
            if asyncio.iscoroutine(res) or isinstance(res, asyncio.Future):
                asyncio.ensure_future(res)
        except BrokenPipeError:
            log.error("client went away (broken pipe)")
        except Exception:  # a message we cannot serialize must not kill the server
            log.exception("could not send a message")


@dataclass
class Options:
    cache_dir: Path | None = None
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    adaptive_explore: bool = True
    languages: frozenset[str] | None = None
    use_cache: bool = True


def parse_options(raw: Any) -> tuple[Options, list[str]]:
    """initializationOptions → Options; a wrong value is reported and replaced by its default."""
    problems: list[str] = []
    opts = Options()
    try:
        data = require_object(raw)
    except InvalidParams:
        return opts, ["initializationOptions must be an object; using defaults"]
    known = {"cacheDir", "exclude", "maxFileBytes", "adaptiveExplore", "languages", "noCache"}
    for key in sorted(set(data) - known):
        problems.append(f"unknown initializationOptions key {key!r} ignored")
    if "cacheDir" in data:
        if isinstance(data["cacheDir"], str) and data["cacheDir"].strip():
            opts.cache_dir = Path(data["cacheDir"]).expanduser()
        else:
            problems.append("cacheDir must be a non-empty string; using the user cache directory")
    if "exclude" in data:
        if isinstance(data["exclude"], list) and all(isinstance(x, str) for x in data["exclude"]):
            opts.exclude = tuple(data["exclude"])
        else:
            problems.append("exclude must be a list of glob strings; ignored")
    if "maxFileBytes" in data:
        v = data["maxFileBytes"]
        if isinstance(v, int) and not isinstance(v, bool) and 1_000 <= v <= 100_000_000:
            opts.max_file_bytes = v
        else:
            problems.append("maxFileBytes must be an integer between 1,000 and 100,000,000; using 1,000,000")
    if "adaptiveExplore" in data:
        if isinstance(data["adaptiveExplore"], bool):
            opts.adaptive_explore = data["adaptiveExplore"]
        else:
            problems.append("adaptiveExplore must be a boolean; using true")
    if "languages" in data:
        from ..languages import BY_NAME

        v = data["languages"]
        if isinstance(v, list) and all(isinstance(x, str) and x in BY_NAME for x in v):
            opts.languages = frozenset(v)
        else:
            problems.append(f"languages must be a list of {sorted(BY_NAME)}; indexing all")
    if "noCache" in data:
        opts.use_cache = not bool(data["noCache"])
    return opts, problems


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


@dataclass
class State:
    options: Options = field(default_factory=Options)
    roots: dict[str, RootIndex] = field(default_factory=dict)  # root uri → index
    gate: ReadWriteGate | None = None
    ready: asyncio.Event | None = None
    writes: asyncio.Queue | None = None
    doc_text: dict[str, str] = field(default_factory=dict)  # uri → our copy of an open document


class CodegraphServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("codegraph", __version__, protocol_cls=CodegraphProtocol)
        self.state = State()


server = CodegraphServer()


# ---- helpers ------------------------------------------------------------------------------
def _loop_objects(ls: CodegraphServer) -> State:
    st = ls.state
    if st.gate is None:
        st.gate = ReadWriteGate()
        st.ready = asyncio.Event()
        st.writes = asyncio.Queue()
    return st


def _root_for_path(ls: CodegraphServer, path: Path) -> tuple[RootIndex, str] | None:
    best: tuple[RootIndex, str] | None = None
    for index in ls.state.roots.values():
        rel = index.scope.relpath(path)
        if rel is not None and not rel.startswith("..") and (best is None or len(str(index.root)) > len(str(best[0].root))):
            best = (index, rel)
    return best


def _select_root(ls: CodegraphServer, params: dict) -> RootIndex:
    uri = params.get("rootUri")
    if uri is None:
        if not ls.state.roots:
            raise InvalidParams("rootUri", "cannot default: the workspace has no folder")
        return next(iter(ls.state.roots.values()))
    if not isinstance(uri, str):
        raise InvalidParams("rootUri", "must be a string")
    path = uri_to_path(uri)
    if path is None:
        raise InvalidParams("rootUri", "must be a file:// URI of a workspace folder")
    for index in ls.state.roots.values():
        if index.root == path.resolve():
            return index
    raise InvalidParams("rootUri", "must be one of the workspace folders")


async def _compute(fn: Callable[[Callable[[], None]], Any]) -> Any:
    """Runs fn(checkpoint) in a worker thread; a cancelled request stops it at its next checkpoint."""
    cancellation = Cancellation()
    loop = asyncio.get_running_loop()
    fut = loop.run_in_executor(None, fn, cancellation.checkpoint)
    try:
        return await asyncio.shield(fut)
    except asyncio.CancelledError:
        cancellation.cancel()
        try:
            await fut  # let it reach a checkpoint before the gate lets writers in
        except BaseException:
            pass
        raise


def _as_rpc_error(exc: Exception) -> JsonRpcException:
    if isinstance(exc, InvalidParams):
        return JsonRpcInvalidParams(str(exc), data={"field": exc.field, "rule": exc.rule})
    if isinstance(exc, RequestFailed):
        return JsonRpcRequestFailed(str(exc))
    return JsonRpcException(str(exc))


async def _read_request(ls: CodegraphServer, request: str, params: Any, work: Callable[[RootIndex, dict, Callable[[], None]], Any]) -> Any:
    """Validates params (the shared contract), waits for the first index, then runs work(index,
    params, checkpoint) in a worker thread on one settled index version."""
    st = _loop_objects(ls)
    try:
        data = service.prepare(request, params, service.LSP)
    except InvalidParams as exc:
        raise _as_rpc_error(exc) from None
    await st.ready.wait()

    async def answer() -> Any:
        try:
            index = _select_root(ls, data)
            return await _compute(lambda checkpoint: work(index, data, checkpoint))
        except (InvalidParams, RequestFailed) as exc:
            raise _as_rpc_error(exc) from None
        except Cancelled:
            raise asyncio.CancelledError() from None

    return await _on_settled_index(ls, answer)


async def _on_settled_index(ls: CodegraphServer, answer: Callable[[], Awaitable[Any]]) -> Any:
    """answer() under the read gate; when edits left dependents to re-resolve, they are settled
    first and the answer is computed under the same write gate, on that settled version."""
    st = ls.state
    async with st.gate.read():
        if not any(index.unsettled for index in st.roots.values()):
            return await answer()
    async with st.gate.write():
        await asyncio.to_thread(_settle_all, ls)
        return await answer()


# ---- lifecycle --------------------------------------------------------------------------
@server.feature(types.INITIALIZE)
def on_initialize(ls: CodegraphServer, params: types.InitializeParams) -> None:
    options, problems = parse_options(params.initialization_options)
    ls.state.options = options
    for problem in problems:
        log.warning("%s", problem)


@server.feature(types.INITIALIZED)
async def on_initialized(ls: CodegraphServer, params: types.InitializedParams) -> None:
    st = _loop_objects(ls)
    folders = [f.uri for f in ls.workspace.folders.values()] if ls.workspace.folders else []
    if not folders and ls.workspace.root_uri:
        folders = [ls.workspace.root_uri]
    for uri in folders:
        index = _new_root(ls, uri)
        if index is not None:
            st.roots[uri] = index
    asyncio.get_running_loop().create_task(_first_index(ls))
    asyncio.get_running_loop().create_task(_apply_writes(ls))
    asyncio.get_running_loop().create_task(_watch_files(ls))


# What the index follows on disk: every indexed language's files, and .gitignore (scope changes).
WATCHED_GLOBS = ("**/*.{" + ",".join(sorted({e.lstrip(".") for s in SPECS for e in s.extensions})) + "}", "**/.gitignore")


async def _watch_files(ls: CodegraphServer) -> None:
    """Asks the client to watch the workspace for us (a branch switch, a generator, a `git pull`
    change files no editor has open) where it can register watchers on a server's behalf."""
    caps = ls.client_capabilities
    watched = caps.workspace.did_change_watched_files if caps and caps.workspace else None
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCHED_GLOBS])
    registration = types.Registration(id="codegraph-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)
    try:
        await asyncio.wait_for(ls.client_register_capability_async(types.RegistrationParams(registrations=[registration])), timeout=10)
    except Exception as exc:  # the client keeps working without: open buffers are still followed
        log.info("file watchers not registered: %s", exc)


def _new_root(ls: CodegraphServer, uri: str) -> RootIndex | None:
    opts = ls.state.options
    path = uri_to_path(uri)
    if path is None or not path.is_dir():
        log.warning("workspace folder %s is not a local directory; not indexed", uri)
        return None
    config = ScopeConfig(exclude=opts.exclude, max_file_bytes=opts.max_file_bytes, languages=opts.languages)
    return RootIndex(path, config, cache_dir=opts.cache_dir, use_cache=opts.use_cache)


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
async def did_change_folders(ls: CodegraphServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    """Folders added to the workspace are indexed (off the gate: requests on the other roots go
    on meanwhile) and join under the write gate; removed ones leave it, their cache written."""
    st = _loop_objects(ls)
    await st.ready.wait()
    for folder in params.event.removed:
        async with st.gate.write():
            index = st.roots.pop(folder.uri, None)
        if index is not None:
            await asyncio.to_thread(index.close)
    for folder in params.event.added:
        if folder.uri in st.roots:
            continue
        index = _new_root(ls, folder.uri)
        if index is None:
            continue
        try:
            stats = await asyncio.to_thread(index.build)
            log.info("indexed added folder %s: %d files in %.0f ms", index.root, stats.files, stats.elapsed_ms)
        except Exception:
            log.exception("indexing the added folder %s failed", index.root)
            continue
        async with st.gate.write():
            st.roots[folder.uri] = index


async def _first_index(ls: CodegraphServer) -> None:
    st = _loop_objects(ls)
    token = str(uuid.uuid4())
    progress_ok = False
    caps = ls.client_capabilities
    if caps and caps.window and caps.window.work_done_progress:
        try:
            await asyncio.wait_for(ls.work_done_progress.create_async(token), timeout=5)
            progress_ok = True
        except Exception as exc:  # a client that refuses progress still gets an index
            log.info("no work-done progress: %s", exc)
    if progress_ok:
        ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(title="CodeGraph: indexing", percentage=0, cancellable=False))
    loop = asyncio.get_running_loop()
    last = [0.0]

    def report(done: int, total: int, message: str) -> None:
        now = time.monotonic()
        if not progress_ok or (now - last[0] < 0.2 and (done < total or not total)):
            return
        last[0] = now
        pct = int(100 * done / total) if total else None  # total 0: still walking, size unknown
        loop.call_soon_threadsafe(ls.work_done_progress.report, token, types.WorkDoneProgressReport(message=message, percentage=pct))

    try:
        async with st.gate.write():
            for index in st.roots.values():
                try:
                    stats = await asyncio.to_thread(index.build, report)
                    log.info("indexed %s: %d files (%d parsed, %d cached) in %.0f ms", index.root, stats.files, stats.parsed, stats.from_cache, stats.elapsed_ms)
                except Exception:
                    log.exception("indexing %s failed; serving an empty index", index.root)
                    index.ready = True
    finally:
        st.ready.set()
        if progress_ok:
            files = sum(len(i.files) for i in st.roots.values())
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=f"{files} files indexed"))
    # Explore's name and word tables, built now rather than on the first question. As a reader:
    # status and the other requests are answered meanwhile; an explore that arrives now waits
    # for these tables instead of building its own copy.
    async with st.gate.read():
        for index in list(st.roots.values()):
            try:
                await asyncio.to_thread(explore_tables, index)
            except Exception:
                log.exception("explore tables for %s failed; built on the first question instead", index.root)


async def _apply_writes(ls: CodegraphServer) -> None:
    """The single writer: applies document and file events in arrival order, after the first index."""
    st = _loop_objects(ls)
    await st.ready.wait()
    while True:
        op = await st.writes.get()
        try:
            async with st.gate.write():
                # Off the event loop: a big edit parses for seconds, and meanwhile the server must
                # still read messages (cancellations, status) — the gate keeps readers out.
                await asyncio.to_thread(op)
                if st.writes.empty():  # typing paused: finish what mid-typing edits deferred
                    await asyncio.to_thread(_settle_all, ls)
        except Exception:
            log.exception("applying an edit failed; the file keeps its previous facts")


def _settle_all(ls: CodegraphServer) -> None:
    for index in ls.state.roots.values():
        index.settle()


def _enqueue(ls: CodegraphServer, op: Callable[[], None]) -> None:
    _loop_objects(ls).writes.put_nowait(op)


@server.feature(types.SHUTDOWN)
def on_shutdown(ls: CodegraphServer, params: None) -> None:
    """Writes the fact cache rows that are still pending, so the next start is warm."""
    for index in ls.state.roots.values():
        try:
            index.close()
        except Exception:
            log.exception("closing the index of %s failed", index.root)


# ---- document sync ------------------------------------------------------------------------
@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CodegraphServer, params: types.DidOpenTextDocumentParams) -> None:
    uri, text = params.text_document.uri, params.text_document.text
    ls.state.doc_text[uri] = text

    def op() -> None:
        path = uri_to_path(uri)
        hit = _root_for_path(ls, path) if path else None
        if hit:
            hit[0].open_document(hit[1], text)

    _enqueue(ls, op)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CodegraphServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    changes = []
    for c in params.content_changes:
        rng = getattr(c, "range", None)
        changes.append(Change(c.text, (rng.start.line, rng.start.character, rng.end.line, rng.end.character) if rng else None))
    old = ls.state.doc_text.get(uri)
    if old is None:  # change for a document we never saw opened: take pygls's copy
        doc = ls.workspace.get_text_document(uri)
        new_text, edits = doc.source, None
    else:
        new_text, edits = apply_changes(old, changes)
    ls.state.doc_text[uri] = new_text

    def op() -> None:
        path = uri_to_path(uri)
        hit = _root_for_path(ls, path) if path else None
        if not hit:
            return
        index, rel = hit
        if rel not in index.open_docs:
            index.open_document(rel, new_text)
        else:
            index.set_document(rel, new_text.encode("utf-8", "surrogatepass"), edits, defer=True)

    _enqueue(ls, op)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CodegraphServer, params: types.DidSaveTextDocumentParams) -> None:
    return None  # open buffers already win over disk; didClose re-reads the file


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CodegraphServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.state.doc_text.pop(uri, None)

    def op() -> None:
        path = uri_to_path(uri)
        hit = _root_for_path(ls, path) if path else None
        if hit:
            hit[0].close_document(hit[1])

    _enqueue(ls, op)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched(ls: CodegraphServer, params: types.DidChangeWatchedFilesParams) -> None:
    uris = [c.uri for c in params.changes]

    def op() -> None:
        for uri in uris:
            path = uri_to_path(uri)
            hit = _root_for_path(ls, path) if path else None
            if hit and not hit[1].startswith(".."):
                # deferred: a branch switch's hundreds of files settle their dependents once
                hit[0].refresh_path(hit[1], defer=True)

    _enqueue(ls, op)


# ---- custom requests ---------------------------------------------------------------------
@server.feature(STATUS)
async def status(ls: CodegraphServer, params: Any) -> dict:
    """Index state per root; answers at once, also while the first index is running."""
    st = _loop_objects(ls)
    try:
        data = service.prepare(service.STATUS, params, service.LSP)
        roots = [_select_root(ls, data)] if data.get("rootUri") is not None else list(st.roots.values())
    except InvalidParams as exc:
        raise _as_rpc_error(exc) from None
    if not st.ready.is_set():
        return service.not_ready_status(r.root.as_uri() for r in roots)

    async def answer() -> dict:
        return service.status(st.roots.values(), roots)

    return await _on_settled_index(ls, answer)


@server.feature(EXPLORE)
async def explore(ls: CodegraphServer, params: Any) -> dict:
    """The source that answers a question, within a character budget."""
    adaptive = ls.state.options.adaptive_explore
    return await _read_request(ls, service.EXPLORE, params, lambda index, data, cp: service.explore(index, data, service.LSP, cp, adaptive))


@server.feature(DISTILL)
async def distill(ls: CodegraphServer, params: Any) -> dict:
    """The architecture knowledge pack, measured on the exact frame this server sends."""
    msg_id = ls.protocol._ctx_msg_id.get() if hasattr(ls.protocol, "_ctx_msg_id") else None
    measure = frame_bytes_for(msg_id)
    return await _read_request(ls, service.DISTILL, params, lambda index, data, cp: service.distill(index, data, service.LSP, cp, measure))


@server.feature(EVIDENCE)
async def evidence(ls: CodegraphServer, params: Any) -> dict:
    """Re-reads pack sources, checking each file's sha256."""
    return await _read_request(ls, service.EVIDENCE, params, lambda index, data, cp: service.evidence(index, data, service.LSP))


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="codegraph-lsp", description="codegraph language server (stdio)")
    parser.add_argument("--stdio", action="store_true", help="accepted for client compatibility; stdio is the only transport")
    parser.add_argument("--log-file", help="write the log here instead of stderr")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    handler: logging.Handler = logging.FileHandler(args.log_file) if args.log_file else logging.StreamHandler(sys.stderr)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, handlers=[handler], format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)
    server.start_io()


if __name__ == "__main__":
    main()
