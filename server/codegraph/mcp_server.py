"""The MCP bridge: `codegraph mcp [ROOT]` serves explore, distill and evidence to coding agents.

One root, one `RootIndex`, the one request contract in `service.py`: every result is the
same text/JSON the LSP methods and the CLI return for the same index. Only the wrapping
differs:

- `content[0]` (a text block) is what the model reads: explore's markdown `text`, distill's
  markdown (or the canonical JSON of the result for `format: "json"`), the canonical JSON of
  the evidence and status results;
- `structuredContent` is the LSP result object itself, unchanged, for programmatic clients.

Freshness without an editor: before each call the root is rescanned and every file's
(mtime_ns, size) compared with the last call's; changed, new and deleted files go through
`RootIndex.refresh_path`, the same incremental path as an LSP file event. A file whose
mtime is too recent to trust (same-tick edits) is re-checked by content hash on the next
call. One lock serialises catch-up and requests, so each answer is computed on one index
version. The first index is built in a background thread at startup (from the persistent
fact cache when warm); calls that arrive earlier wait for it and report MCP progress when
the client asked for it. Logs go to stderr only: stdout is the wire.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from . import __version__, service
from .distill.request import MIN_BUDGET_BYTES
from .index.extract import sha256
from .index.index import RootIndex
from .requests import InvalidParams, RequestFailed, encode_body
from .service import Cancellation, Cancelled
from .workspace.scope import ScopeConfig

log = logging.getLogger("codegraph.mcp")

RACY_NS = 2_000_000_000  # an mtime this close to the stat time may hide a same-tick second edit
PROGRESS_POLL_S = 0.2

Report = Callable[[float, float | None, str], Awaitable[None]]


class ToolError(Exception):
    """A tool call that cannot be answered; becomes an `isError` result, never a crash."""


# ---- tool definitions (what the model sees) ---------------------------------------------
SERVER_INSTRUCTIONS = """\
codegraph indexes this repository (calls, imports, types resolved only when provable) and \
answers with real, line-numbered source. All tools are read-only.
- codegraph_explore: your default for "how does X work / where is Y / what calls Z / where \
should I change W". One call returns the traced call flow plus the relevant source, sized to \
fit your context (default budget 13k-24k characters by repository size). Prefer it over \
grep plus reading many files.
- codegraph_distill: orientation. scenario "overview" once at the start of work in an \
unfamiliar repository (architecture pack: entry points, components, lifecycle, unknowns); \
scenario "query" with a question for a smaller directed pack.
- codegraph_evidence: re-read the exact source ranges a distill pack cites (path, lines, \
sha256); a range whose file changed since is reported as content-modified.
- codegraph_status: index size, languages, skipped files.
The index follows file edits on disk automatically before every call."""

_READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}

TOOLS: list[dict[str, Any]] = [
    {
        "name": "codegraph_explore",
        "title": "Explore code",
        "description": (
            "Return the source code that answers a question about this repository, in one call and within a "
            "character budget. Ask in natural language and/or name symbols, e.g. 'how does RealCall run the "
            "interceptor chain', 'where are retries decided', 'what calls Dispatcher.enqueue'.\n"
            "Output (markdown): a '## Flow' section tracing the call path (one hop per line, with path:line), then "
            "one '#### path — symbols · mode' section per relevant file, most relevant first, with a fenced code "
            "block in which every line starts with its 1-based line number and a tab; elided stretches show as a "
            "single '⋮' line. Mode is full, focused (the relevant parts), skeleton (signatures only) or clusters.\n"
            "Use it before editing to find where behaviour lives and what depends on it, and instead of grep plus "
            "reading many whole files. Cite code as path:line using the numbers shown. If something you need was "
            "shown only as a skeleton, ask a narrower question naming that symbol. Test files are left out unless "
            "includeTests is true. Read-only; the index follows edits on disk before every call."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 4000,
                    "description": "The question, in natural language; naming classes, functions or files sharpens the answer.",
                },
                "maxOutputChars": {
                    "type": "integer",
                    "minimum": 1000,
                    "maximum": 400000,
                    "description": (
                        "Upper bound on the returned markdown, in characters. Default by repository size: 13,000 "
                        "(< 150 files), 18,000 (< 500 files), 24,000 otherwise, which keeps the answer under the "
                        "~25,000-character inline limit of common agent hosts. Lower it for a quick look; raise it only "
                        "if your host inlines larger tool results."
                    ),
                },
                "adaptive": {
                    "type": "boolean",
                    "default": True,
                    "description": (
                        "true (default): files on the traced flow are shown in full or focused, peripheral files as "
                        "skeletons, so more of the relevant code fits. false: plain relevance-ranked rendering."
                    ),
                },
                "includeTests": {
                    "type": "boolean",
                    "default": False,
                    "description": "Also consider test files (left out by default).",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
    {
        "name": "codegraph_distill",
        "title": "Distill architecture",
        "description": (
            "Return a compact, deterministic architecture knowledge pack of this repository: entry points, "
            "assembly/initialisation, orchestration, components and their resolved static relations, with source "
            "references (path, line range, sha256) and an honest list of unknowns. No model is involved: it states "
            "structural facts, not a narrative answer.\n"
            "scenario 'overview' (default): the whole repository; call it once when you start working in an "
            "unfamiliar codebase. scenario 'query' with a question: a smaller pack directed at that question "
            "(giving a question alone implies 'query'). For the actual code that answers a concrete question, use "
            "codegraph_explore instead.\n"
            "Size: the pack never exceeds the effective cap = min(release cap: 22,016 bytes for overview / 12,288 "
            "for query, 24,576, budgetBytes). If even a minimal pack cannot fit, the call fails with the size it "
            "needs. format 'markdown' (default) is agent-ready text; 'json' is the pack object. Read-only."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "scenario": {
                    "type": "string",
                    "enum": ["overview", "query"],
                    "description": "'overview' (default unless a question is given) or 'query' (requires question).",
                },
                "question": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 4000,
                    "description": "The directed question for scenario 'query'.",
                },
                "budgetBytes": {
                    "type": "integer",
                    "minimum": MIN_BUDGET_BYTES,  # the server's own minimum: below it not even the error fits
                    "maximum": 1000000000,
                    "description": (
                        "Lower the byte cap below the release cap (it can never be raised above it). The smallest "
                        "pack depends on the repository (about 1 KB); below it the call fails naming the bytes needed."
                    ),
                },
                "format": {
                    "type": "string",
                    "enum": ["markdown", "json"],
                    "default": "markdown",
                    "description": "'markdown' (default): the agent-ready pack. 'json': the pack object as canonical JSON.",
                },
                "obligations": {
                    "type": "array",
                    "maxItems": 64,
                    "description": (
                        "Optional facts the pack must cover, each proven by one of its witness sets. A selector is "
                        "'path::Qualified.name'. Most callers leave this out."
                    ),
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "minLength": 1, "maxLength": 200},
                            "required": {"type": "boolean", "default": True},
                            "evidence": {"type": "string", "enum": ["direct_syntax", "resolved_static", "sourced_inference"]},
                            "witnessSets": {
                                "type": "array",
                                "minItems": 1,
                                "maxItems": 16,
                                "items": {"type": "array", "minItems": 1, "maxItems": 16, "items": {"type": "string"}},
                            },
                        },
                        "required": ["id", "witnessSets"],
                    },
                },
                "deadlineMs": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 3600000,
                    "description": "Give up after this many milliseconds (default 180,000).",
                },
            },
            "additionalProperties": False,
        },
    },
    {
        "name": "codegraph_evidence",
        "title": "Fetch pack evidence",
        "description": (
            "Re-read exact source ranges cited by a knowledge pack (codegraph_distill), checking each file's sha256 "
            "so you never read code that changed since the pack was made. In a 'json' pack, each entry of "
            "pack.sources gives lines; pack.files[source.file] gives path and sha256. (A 'markdown' pack names "
            "path:lines and symbol only: to see that code, call codegraph_explore naming the symbol.) Returns JSON"
            " {blocks: [{path, lines, text} | {path, lines, error}]} where error is "
            "'content-modified' (the file changed: distill again), 'not-found' or 'outside-scope'. For free-form "
            "questions use codegraph_explore. Read-only."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "sources": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 64,
                    "description": "Source references from a pack.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "path": {"type": "string", "description": "Path relative to the repository root."},
                            "lines": {
                                "type": "array",
                                "items": {"type": "integer", "minimum": 1},
                                "minItems": 2,
                                "maxItems": 2,
                                "description": "[start, end], 1-based, inclusive.",
                            },
                            "sha256": {"type": "string", "pattern": "^[0-9a-fA-F]{64}$", "description": "The file's sha256 as cited."},
                        },
                        "required": ["path", "lines", "sha256"],
                    },
                },
                "maxBytes": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Upper bound on the returned text in bytes (default 98,304).",
                },
            },
            "required": ["sources"],
            "additionalProperties": False,
        },
    },
    {
        "name": "codegraph_status",
        "title": "Index status",
        "description": (
            "Report the index of this repository: whether it is ready, its version, file and symbol counts, resolved "
            "edges, languages and skipped files (with reasons). Use it when an answer looks incomplete, e.g. to see "
            "whether a file was skipped. Read-only."
        ),
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    },
]
TOOL_NAMES = tuple(t["name"] for t in TOOLS)
# tool → the request it serves; its arguments are that request's fields (service.FIELDS)
REQUEST_OF = {"codegraph_explore": service.EXPLORE, "codegraph_distill": service.DISTILL,
              "codegraph_evidence": service.EVIDENCE, "codegraph_status": service.STATUS}


# ---- freshness: stat catch-up ------------------------------------------------------------
class Freshness:
    """(mtime_ns, size) per in-scope file; `catch_up` feeds differences to `refresh_path`."""

    def __init__(self) -> None:
        self.stats: dict[str, tuple[int, int]] = {}
        self.racy: set[str] = set()

    def _stat_all(self, index: RootIndex, files: dict[str, str]) -> dict[str, tuple[int, int]]:
        now = time.time_ns()
        out: dict[str, tuple[int, int]] = {}
        racy: set[str] = set()
        for rel in files:
            try:
                st = os.stat(index.root / rel)
            except OSError:
                continue
            out[rel] = (st.st_mtime_ns, st.st_size)
            if st.st_mtime_ns > now - RACY_NS:
                racy.add(rel)
        self.racy = racy
        return out

    def snapshot(self, index: RootIndex) -> None:
        """Taken just before the first build, so an edit during the build is caught next call."""
        self.stats = self._stat_all(index, index.scope.scan().files)

    def catch_up(self, index: RootIndex) -> list[str]:
        started = time.perf_counter()
        index.scope.forget_ignore_rules()  # pick up .gitignore edits too
        previous_racy = self.racy
        scan = index.scope.scan()
        current = self._stat_all(index, scan.files)
        changed = [rel for rel, sig in current.items() if self.stats.get(rel) != sig]
        for rel in sorted(previous_racy & current.keys()):
            if self.stats.get(rel) == current[rel] and self._content_changed(index, rel):
                changed.append(rel)
        gone = [rel for rel in (set(index.files) | set(self.stats)) if rel not in current]
        # deferred: many changed files (a branch switch) settle their dependents once, below
        for rel in sorted(set(changed)):
            index.refresh_path(rel, defer=True)
        for rel in sorted(gone):
            if rel in index.files:
                index.refresh_path(rel, defer=True)
            if rel not in scan.skipped and not (index.root / rel).exists():
                index.skipped.pop(rel, None)
        index.settle()
        self.stats = current
        touched = sorted(set(changed) | set(gone))
        if touched:
            log.info("catch-up: %d file(s) refreshed in %.1f ms (%s)", len(touched), (time.perf_counter() - started) * 1000, ", ".join(touched[:5]))
        return touched

    @staticmethod
    def _content_changed(index: RootIndex, rel: str) -> bool:
        facts = index.files.get(rel)
        if facts is None:
            return True
        try:
            raw = (index.root / rel).read_bytes()
        except OSError:
            return True
        return sha256(raw) != facts.sha256


# ---- the bridge (transport-independent) --------------------------------------------------
class Bridge:
    def __init__(self, index: RootIndex) -> None:
        self.index = index
        self.freshness = Freshness()
        self.ready = threading.Event()
        self.build_error: str | None = None
        self.progress: tuple[int, int, str] = (0, 0, "starting")
        self.lock: Any = None  # an anyio.Lock, created inside the event loop

    # -- indexing
    def start(self) -> None:
        threading.Thread(target=self._build, name="codegraph-index", daemon=True).start()

    def _build(self) -> None:
        index = self.index
        try:
            self.freshness.snapshot(index)
            stats = index.build(progress=self._on_progress)
            log.info(
                "indexed %s: %d files (%d parsed, %d from cache) in %.0f ms%s",
                index.root, stats.files, stats.parsed, stats.from_cache, stats.elapsed_ms,
                f"; {stats.cache_note}" if stats.cache_note else "",
            )
        except Exception as exc:  # the server keeps running and says why every call fails
            log.exception("indexing %s failed", index.root)
            self.build_error = f"indexing {index.root} failed: {type(exc).__name__}: {exc}"
        finally:
            self.ready.set()

    def _on_progress(self, done: int, total: int, message: str) -> None:
        self.progress = (done, total, message)

    async def wait_ready(self, report: Report | None) -> None:
        import anyio

        last: tuple[int, int, str] | None = None
        while not self.ready.is_set():
            if report is not None and self.progress != last:
                last = self.progress
                done, total, message = last
                try:
                    await report(float(done), float(total) if total else None, f"codegraph: {message}")
                except Exception:  # progress is best effort
                    report = None
            await anyio.sleep(PROGRESS_POLL_S)
        if self.build_error:
            raise ToolError(self.build_error)

    # -- calls
    def _work(self, name: str, args: dict, checkpoint: Callable[[], None]) -> tuple[str, Any]:
        """(text for the model, the LSP result object); runs in a worker thread under the lock."""
        index = self.index
        self.freshness.catch_up(index)
        checkpoint()
        request = REQUEST_OF[name]
        if request == service.EXPLORE:
            result = service.explore(index, args, service.MCP, checkpoint)
            return result["text"], result
        if request == service.DISTILL:
            result = service.distill(index, args, service.MCP, checkpoint)
            text = result["markdown"] if "markdown" in result else encode_body(result).decode("utf-8")
            return text, result
        if request == service.EVIDENCE:
            result = service.evidence(index, args, service.MCP)
        else:
            result = service.status([index], [index])
        return encode_body(result).decode("utf-8"), result

    async def call(self, name: str, arguments: Any, report: Report | None = None) -> tuple[str, Any, bool]:
        """(text, structured result or None, is_error). Never raises except on cancellation."""
        import anyio

        started = time.perf_counter()
        try:
            if name not in REQUEST_OF:
                raise ToolError(f"unknown tool {name!r}; the tools are {', '.join(TOOL_NAMES)}")
            arguments = service.prepare(REQUEST_OF[name], arguments, service.MCP)  # refused before any wait
            if name == "codegraph_status" and not self.ready.is_set():
                result = service.not_ready_status([self.index.root.as_uri()], self.progress)
                return encode_body(result).decode("utf-8"), result, False
            await self.wait_ready(report)
            if self.lock is None:
                self.lock = anyio.Lock()
            async with self.lock:
                text, result = await _in_thread(lambda checkpoint: self._work(name, arguments, checkpoint))
            log.info("%s answered in %.0f ms (index version %d)", name, (time.perf_counter() - started) * 1000, self.index.version)
            return text, result, False
        except InvalidParams as exc:
            return f"{name}: {exc}", None, True
        except RequestFailed as exc:
            return f"{name}: request failed: {exc}", None, True
        except ToolError as exc:
            return f"{name}: {exc}", None, True
        except Cancelled:
            raise anyio.get_cancelled_exc_class()() from None
        except Exception as exc:
            if isinstance(exc, anyio.get_cancelled_exc_class()):
                raise
            log.exception("%s failed", name)
            return f"{name}: internal error ({type(exc).__name__}: {exc}); the server is still running, try again or rephrase", None, True


async def _in_thread(fn: Callable[[Callable[[], None]], Any]) -> Any:
    """Runs fn(checkpoint) in a worker thread; on cancellation it stops at its next checkpoint,
    and the caller keeps the lock until it has (so no writer overlaps a running reader)."""
    import anyio

    cancellation = Cancellation()
    finished = threading.Event()

    def run(cp: Callable[[], None]) -> Any:
        try:
            return fn(cp)
        finally:
            finished.set()

    try:
        return await anyio.to_thread.run_sync(run, cancellation.checkpoint, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        cancellation.cancel()
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(finished.wait)
        raise


# ---- the MCP SDK layer ---------------------------------------------------------------------
def _tool_models(types: Any) -> list[Any]:
    return [
        types.Tool(
            name=t["name"],
            title=t["title"],
            description=t["description"],
            inputSchema=t["inputSchema"],
            annotations=types.ToolAnnotations(title=t["title"], **_READ_ONLY),
        )
        for t in TOOLS
    ]


def _result_model(types: Any, text: str, structured: Any, is_error: bool) -> Any:
    content = [types.TextContent(type="text", text=text)]
    if structured is None:
        return types.CallToolResult(content=content, isError=is_error)
    return types.CallToolResult(content=content, structuredContent=structured, isError=is_error)


def build_server(bridge: Bridge) -> Any:
    """A low-level `mcp` Server exposing the bridge (mcp 2.x constructor handlers; 1.x decorators)."""
    import mcp.types as types
    from mcp.server.lowlevel import Server

    tools = _tool_models(types)

    try:
        Server("codegraph", version=__version__, instructions=SERVER_INSTRUCTIONS, on_list_tools=None)
        modern = True
    except TypeError:
        modern = False

    if modern:  # mcp >= 2: handlers are (ctx, params)
        async def list_tools(ctx: Any, params: Any) -> Any:
            return types.ListToolsResult(tools=tools)

        async def call_tool(ctx: Any, params: Any) -> Any:
            session = getattr(ctx, "session", None)
            report = getattr(session, "report_progress", None)
            text, structured, is_error = await bridge.call(params.name, params.arguments, report)
            return _result_model(types, text, structured, is_error)

        return Server(
            "codegraph",
            version=__version__,
            title="codegraph",
            instructions=SERVER_INSTRUCTIONS,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
        )

    # mcp 1.x: decorator registration; the request context lives on the server.
    server = Server("codegraph", version=__version__, instructions=SERVER_INSTRUCTIONS)

    @server.list_tools()
    async def list_tools_v1() -> list[Any]:
        return tools

    def _v1_report() -> Report | None:
        try:
            ctx = server.request_context
        except LookupError:
            return None
        token = getattr(ctx.meta, "progressToken", None) if ctx.meta is not None else None
        if token is None:
            return None

        async def report(progress: float, total: float | None, message: str) -> None:
            try:
                await ctx.session.send_progress_notification(token, progress, total, message=message, related_request_id=ctx.request_id)
            except TypeError:
                await ctx.session.send_progress_notification(token, progress, total)

        return report

    try:
        decorate = server.call_tool(validate_input=False)
    except TypeError:
        decorate = server.call_tool()

    @decorate
    async def call_tool_v1(name: str, arguments: dict) -> Any:
        text, structured, is_error = await bridge.call(name, arguments, _v1_report())
        return _result_model(types, text, structured, is_error)

    return server


async def _serve(bridge: Bridge) -> None:
    from mcp.server.stdio import stdio_server

    server = build_server(bridge)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


MIN_SDK = (1, 19)  # the first 1.x whose low-level call_tool passes a CallToolResult through unchanged


def _sdk_version() -> tuple[int, int] | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        major, minor = version("mcp").split(".")[:2]
        return int(major), int("".join(ch for ch in minor if ch.isdigit()) or 0)
    except (PackageNotFoundError, ValueError):
        return None


def main(root: str = ".", *, cache_dir: str | Path | None = None, use_cache: bool = True,
         exclude: tuple[str, ...] = (), max_file_bytes: int | None = None) -> int:
    """`codegraph mcp [ROOT]`: serve MCP over stdio until the client closes stdin."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    import importlib.util

    if importlib.util.find_spec("mcp") is None or importlib.util.find_spec("anyio") is None:
        sys.stderr.write("codegraph mcp needs the MCP SDK: pip install -e '.[mcp]' in the codegraph repository (or pip install 'mcp>=1.19')\n")
        return 2
    sdk = _sdk_version()
    if sdk is not None and sdk < MIN_SDK:
        sys.stderr.write(f"codegraph mcp needs mcp >= {'.'.join(map(str, MIN_SDK))} (found {'.'.join(map(str, sdk))}): pip install -U 'mcp>=1.19'\n")
        return 2
    path = Path(root).expanduser().resolve()
    if not path.is_dir():
        sys.stderr.write(f"codegraph: {root}: not a directory\n")
        return 2
    config = ScopeConfig(exclude=tuple(exclude), **({"max_file_bytes": max_file_bytes} if max_file_bytes else {}))
    index = RootIndex(path, config, cache_dir=Path(cache_dir) if cache_dir else None, use_cache=use_cache)
    bridge = Bridge(index)
    log.info("codegraph %s MCP server for %s", __version__, path)
    bridge.start()  # indexing overlaps the SDK import (about a second) and the handshake
    import anyio

    try:
        anyio.run(_serve, bridge)
    except KeyboardInterrupt:
        pass
    finally:
        if bridge.ready.is_set():
            try:
                index.close()
            except Exception:
                pass
    return 0
