"""The language server: pygls over stdio, an adapter onto the workspace service (service.py).

It translates LSP into service calls and back: initializationOptions into index options,
workspace folders into roots, document sync (UTF-16 positions, incremental changes) into
whole texts and tree-sitter edits, custom requests into `Workspace.answer`, the service's
errors into JSON-RPC errors, build progress into work-done progress. Readiness, the
read/write gate, the write queue, settling and cancellation live in the service.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCRequestMessage

from .. import __version__, service
from ..languages import SPECS, spec_for_path
from ..framing import encode_message, frame_bytes_for
from ..model import protocol
from ..model.fields import InvalidParams, RequestFailed, get_bool, get_int, get_str, key_name, require_object
from ..service import IndexOptions, Workspace
from ..workspace.scope import DEFAULT_MAX_FILE_BYTES, MAX_FILE_BYTES_BOUNDS, ScopeConfig
from . import views
from .sync import Change, apply_changes

log = logging.getLogger("codegraph.lsp")

EXPLORE = "codegraph/explore"
DISTILL = "codegraph/distill"
STATUS = "codegraph/status"
EVIDENCE = "codegraph/evidence"
SYMBOLS, CALLS, IMPACT = "codegraph/symbols", "codegraph/calls", "codegraph/impact"


class JsonRpcRequestFailed(JsonRpcException):
    CODE = -32803
    MESSAGE = "Request failed"


class ExpectedErrorsAreNotCrashes(logging.Filter):
    """pygls logs every error a request handler raises at ERROR with its traceback
    (`_send_handler_result`), and editors show the server's log as its output: a refused field or a
    request that cannot be answered as asked (the answer says why) would read as a crash. Those two
    are logged at INFO, one line; any other exception keeps its ERROR and its traceback."""

    EXPECTED = (JsonRpcInvalidParams, JsonRpcRequestFailed)

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, self.EXPECTED):
            return True
        msg_id = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        log.info("request %s answered with error %d: %s", msg_id, exc.code, exc)
        return False


logging.getLogger("pygls.protocol.json_rpc").addFilter(ExpectedErrorsAreNotCrashes())


class CodegraphProtocol(LanguageServerProtocol):
    """pygls, with our requests' params kept as plain JSON and every message written canonically.

    Parsing: pygls structures messages in json's object_hook, which also sees every object
    nested in params, and turns custom params into namedtuples (renaming keys that are not
    identifiers, dropping the whole request unanswered when a key is `type_name` with a value
    that is no class name). So objects are left as parsed (`structure_message`) and the message
    is structured once, at the top level (`handle_message`); a request pygls cannot structure
    gets an error answer instead of silence.

    Writing (`_send_data`, the one pygls internal we replace): each message is written as
    `framing.encode_message` frames it, the same function distill's budget measures
    (`framing.frame_bytes_for`), so the byte cap holds on the bytes actually sent.
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
            res = self.writer.write(encode_message(data, default=self._serialize_message))
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


# The options the server takes, as model/protocol.json declares them (docs/protocol.md, Lifecycle).
OPTIONS: dict[str, dict] = protocol.PROTOCOL["initializationOptions"]


def _language_names() -> dict[str, frozenset[str]]:
    """Every name `languages` takes → the server's languages it enables: the server's own names
    (`tsx`), and the editor language ids the protocol declares (`typescriptreact`), which enable the
    language that parses their files (so `javascriptreact`, `.jsx`, enables javascript)."""
    names = {spec.name: frozenset({spec.name}) for spec in SPECS}
    for editor_id, extensions in protocol.LANGUAGES.items():
        specs = frozenset(spec.name for ext in extensions if (spec := spec_for_path("file" + ext)) is not None)
        names[editor_id] = names.get(editor_id, frozenset()) | specs
    return dict(sorted(names.items()))


LANGUAGE_NAMES = _language_names()


def parse_options(raw: Any) -> tuple[Options, list[str]]:
    """initializationOptions → Options, and the problems found: a wrong value is reported (naming
    the option and its rule) and replaced by its default; `null` counts as absent."""
    problems: list[str] = []
    opts = Options()
    try:
        data = {k: v for k, v in require_object(raw).items() if v is not None}
    except InvalidParams:
        return opts, ["must be an object — using the defaults"]
    for key in sorted(set(data) - set(OPTIONS)):
        problems.append(f"unknown option {key_name(key)!r} ignored (options: {', '.join(OPTIONS)})")

    def read(name: str, get: Any, otherwise: str) -> Any:
        try:
            return get(data, name)
        except InvalidParams as exc:
            problems.append(f"{exc.field} {exc.rule} — {otherwise}")
            return None

    if "cacheDir" in data:
        cache_dir = read("cacheDir", lambda d, n: get_str(d, n, required=True), "using the user cache directory")
        if cache_dir is not None:
            opts.cache_dir = Path(cache_dir).expanduser()
    if "exclude" in data:
        if isinstance(data["exclude"], list) and all(isinstance(x, str) for x in data["exclude"]):
            opts.exclude = tuple(data["exclude"])
        else:
            problems.append("exclude must be a list of glob strings — ignored")
    lo, hi = MAX_FILE_BYTES_BOUNDS  # the CLI's --max-file-bytes takes the same
    max_file_bytes = read("maxFileBytes", lambda d, n: get_int(d, n, lo, hi, None), f"using {DEFAULT_MAX_FILE_BYTES:,}")
    if max_file_bytes is not None:
        opts.max_file_bytes = max_file_bytes
    opts.adaptive_explore = read("adaptiveExplore", lambda d, n: get_bool(d, n, True), "using true") is not False
    opts.use_cache = read("noCache", lambda d, n: get_bool(d, n, False), "the cache is used") is not True
    if "languages" in data:
        opts.languages = _languages(data["languages"], problems)
    return opts, problems


def _languages(value: Any, problems: list[str]) -> frozenset[str] | None:
    """`languages`: the languages the valid names enable; the unknown names are reported, and
    none valid indexes every language."""
    known = ", ".join(LANGUAGE_NAMES)
    if not isinstance(value, list) or not value:
        problems.append(f"languages must be a non-empty list of language names ({known}) — indexing all")
        return None
    enabled = frozenset().union(*(LANGUAGE_NAMES[x] for x in value if isinstance(x, str) and x in LANGUAGE_NAMES))
    unknown = [x for x in value if not (isinstance(x, str) and x in LANGUAGE_NAMES)]
    if unknown:
        named = ", ".join(json.dumps(x)[:80] for x in unknown)
        kept = f"indexing {', '.join(sorted(enabled))}" if enabled else "indexing all"
        problems.append(f"languages: {named} {'is' if len(unknown) == 1 else 'are'} not a language codegraph indexes ({known}) — {kept}")
    return enabled or None


def index_options(opts: Options) -> IndexOptions:
    scope = ScopeConfig(exclude=opts.exclude, max_file_bytes=opts.max_file_bytes, languages=opts.languages)
    return IndexOptions(scope, opts.cache_dir, opts.use_cache, opts.adaptive_explore)


@dataclass
class State:
    workspace: Workspace = field(default_factory=lambda: Workspace(service.LSP))
    doc_text: dict[str, str] = field(default_factory=dict)  # uri → our copy of an open document
    problems: list[str] = field(default_factory=list)  # the initializationOptions' problems, shown once


class CodegraphServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("codegraph", __version__, protocol_cls=CodegraphProtocol)
        self.state = State()


server = CodegraphServer()


def _as_rpc_error(exc: Exception) -> JsonRpcException:
    if isinstance(exc, InvalidParams):
        return JsonRpcInvalidParams(str(exc), data={"field": exc.field, "rule": exc.rule})
    if isinstance(exc, RequestFailed):
        return JsonRpcRequestFailed(str(exc))
    return JsonRpcException(str(exc))


async def _answer(ls: CodegraphServer, request: str, params: Any, **kwargs: Any) -> dict:
    try:
        return await ls.state.workspace.answer(request, params, **kwargs)
    except (InvalidParams, RequestFailed) as exc:
        raise _as_rpc_error(exc) from None


# ---- lifecycle --------------------------------------------------------------------------
@server.feature(types.INITIALIZE)
def on_initialize(ls: CodegraphServer, params: types.InitializeParams) -> None:
    options, problems = parse_options(params.initialization_options)
    ls.state.workspace = Workspace(service.LSP, index_options(options))
    ls.state.problems = problems
    for problem in problems:
        log.warning("initializationOptions: %s", problem)


@server.feature(types.INITIALIZED)
async def on_initialized(ls: CodegraphServer, params: types.InitializedParams) -> None:
    folders = [f.uri for f in ls.workspace.folders.values()] if ls.workspace.folders else []
    if not folders and ls.workspace.root_uri:
        folders = [ls.workspace.root_uri]
    for uri in folders:
        ls.state.workspace.add_root(uri)
    # Shown once, so a setting that did not take or a folder left unindexed is seen where the user
    # looks (the log is an output channel nobody opens); status keeps the folders' reasons.
    shown = ([f"initializationOptions: {'; '.join(ls.state.problems)}"] if ls.state.problems else []) + list(ls.state.workspace.failed.values())
    if shown:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message="CodeGraph: " + ". ".join(shown)))
    asyncio.get_running_loop().create_task(_first_index(ls))
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


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
async def did_change_folders(ls: CodegraphServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    await ls.state.workspace.remove_folders([f.uri for f in params.event.removed])
    await ls.state.workspace.add_folders([f.uri for f in params.event.added])


async def _first_index(ls: CodegraphServer) -> None:
    """The service's first build, reported as work-done progress when the client takes it."""
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

    def report(done: int, total: int, message: str) -> None:  # in the build thread
        now = time.monotonic()
        if not progress_ok or (now - last[0] < 0.2 and (done < total or not total)):
            return
        last[0] = now
        pct = int(100 * done / total) if total else None  # total 0: still walking, size unknown
        loop.call_soon_threadsafe(ls.work_done_progress.report, token, types.WorkDoneProgressReport(message=message, percentage=pct))

    def end() -> None:
        if progress_ok:
            files = sum(len(i.files) for i in ls.state.workspace.roots.values())
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=f"{files} files indexed"))

    await ls.state.workspace.build(report, on_ready=end)


@server.feature(types.SHUTDOWN)
def on_shutdown(ls: CodegraphServer, params: None) -> None:
    ls.state.workspace.close()


# ---- document sync: LSP's positions and change events → whole texts and tree-sitter edits ----
@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CodegraphServer, params: types.DidOpenTextDocumentParams) -> None:
    uri, text = params.text_document.uri, params.text_document.text
    ls.state.doc_text[uri] = text
    ls.state.workspace.open_document(uri, text)


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
    ls.state.workspace.change_document(uri, new_text, edits)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CodegraphServer, params: types.DidSaveTextDocumentParams) -> None:
    return None  # open buffers already win over disk; didClose re-reads the file


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CodegraphServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.state.doc_text.pop(uri, None)
    ls.state.workspace.close_document(uri)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched(ls: CodegraphServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.state.workspace.files_changed([c.uri for c in params.changes])


# ---- custom requests ---------------------------------------------------------------------
@server.feature(STATUS)
async def status(ls: CodegraphServer, params: Any) -> dict:
    """Index state per root; answers at once, also while the first index is running."""
    return await _answer(ls, service.STATUS, params)


@server.feature(EXPLORE)
async def explore(ls: CodegraphServer, params: Any) -> dict:
    """The source that answers a question, within a character budget."""
    return await _answer(ls, service.EXPLORE, params)


@server.feature(DISTILL)
async def distill(ls: CodegraphServer, params: Any) -> dict:
    """The architecture knowledge pack, measured on the exact frame this server sends."""
    return await _answer(ls, service.DISTILL, params, measure=frame_bytes_for(ls.protocol.msg_id))


@server.feature(EVIDENCE)
async def evidence(ls: CodegraphServer, params: Any) -> dict:
    """Re-reads pack sources, checking each file's sha256."""
    return await _answer(ls, service.EVIDENCE, params)


# ---- the graph's queries: custom requests, and the standard views of the index ----------------
@server.feature(SYMBOLS)
async def symbols(ls: CodegraphServer, params: Any) -> dict:
    """Units by name (the service's `symbols`, as the CLI and MCP answer it)."""
    return await _answer(ls, service.SYMBOLS, params)


@server.feature(CALLS)
async def calls(ls: CodegraphServer, params: Any) -> dict:
    """Callers or callees of a unit, proven and likely apart."""
    return await _answer(ls, service.CALLS, params)


@server.feature(IMPACT)
async def impact(ls: CodegraphServer, params: Any) -> dict:
    """The units and tests that call into what changed."""
    return await _answer(ls, service.IMPACT, params)


@server.feature(types.WORKSPACE_SYMBOL)
async def workspace_symbol(ls: CodegraphServer, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
    answers = await ls.state.workspace.view(lambda index, _: views.workspace_symbols(index, params.query))
    merged = sorted((hit for per_root in answers for hit in per_root), key=lambda hit: hit[0])  # the roots, by rank
    return [symbol for _, symbol in merged[: views.WORKSPACE_SYMBOL_LIMIT]]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(ls: CodegraphServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    answers = await ls.state.workspace.view(views.document_symbols, params.text_document.uri)
    return answers[0] if answers else []


@server.feature(types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)
async def prepare_call_hierarchy(ls: CodegraphServer, params: types.CallHierarchyPrepareParams) -> list[types.CallHierarchyItem] | None:
    answers = await ls.state.workspace.view(lambda index, rel: views.prepare(index, rel, params.position), params.text_document.uri)
    return (answers[0] or None) if answers else None


@server.feature(types.CALL_HIERARCHY_INCOMING_CALLS)
async def incoming_calls(ls: CodegraphServer, params: types.CallHierarchyIncomingCallsParams) -> list[types.CallHierarchyIncomingCall] | None:
    answers = await ls.state.workspace.view(lambda index, _: views.incoming(index, params.item.data), params.item.uri)
    return answers[0] if answers else None


@server.feature(types.CALL_HIERARCHY_OUTGOING_CALLS)
async def outgoing_calls(ls: CodegraphServer, params: types.CallHierarchyOutgoingCallsParams) -> list[types.CallHierarchyOutgoingCall] | None:
    answers = await ls.state.workspace.view(lambda index, _: views.outgoing(index, params.item.data), params.item.uri)
    return answers[0] if answers else None


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
