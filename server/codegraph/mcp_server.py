"""The MCP bridge: `codegraph mcp [ROOT]` serves explore, distill and evidence to coding agents.

One root, one `RootIndex`, the one request contract in `service.py`: every result is the
same text/JSON the LSP methods and the CLI return for the same index. Only the wrapping
differs:

- `content[0]` (a text block) is what the model reads: explore's markdown `text`, distill's
  markdown (or the canonical JSON of the result for `format: "json"`), the canonical JSON of
  the evidence and status results;
- `structuredContent` is the LSP result object, for programmatic clients; for distill only
  what the text does not already carry (`cacheKey` and `status` next to the markdown; nothing
  next to the JSON), because distill's byte cap counts the whole message MCP sends
  (`distill_message_bytes`) and a pack sent twice would get half the room.

This module is an adapter onto the workspace service (service.py): it translates tool calls
into `Workspace.answer` and results and errors into tool results. Readiness, the read/write
gate, settling, cancellation and the catch-up from disk before each call (no editor sends
file events here: `service.MCP.follows_disk`) live in the service. The first index starts as
the server does (from the persistent fact cache when warm); calls that arrive earlier wait for
it and report MCP progress when the client asked for it. Logs go to stderr only: stdout is the wire.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Awaitable, Callable

from . import __version__, service
from .model import protocol
from .requests import InvalidParams, RequestFailed, encode_body
from .service import IndexOptions, Workspace
from .workspace.scope import ScopeConfig

log = logging.getLogger("codegraph.mcp")

Report = Callable[[float, float | None, str], Awaitable[None]]  # the SDK's progress notification


class ToolError(Exception):
    """A tool call that cannot be answered; becomes an `isError` result, never a crash."""


# ---- tool definitions (what the model sees) ---------------------------------------------
SERVER_INSTRUCTIONS = """\
codegraph indexes this repository (calls, imports, types resolved only when provable) and \
answers with real, line-numbered source. All tools are read-only.
- codegraph_explore: your default for "how does X work / where is Y / what calls Z / where \
should I change W". One call returns the traced call flow plus the relevant source, sized to \
fit your context (default budget {low}k-{high}k characters by repository size). Prefer it over \
grep plus reading many files.
- codegraph_distill: orientation. scenario "overview" once at the start of work in an \
unfamiliar repository (architecture pack: entry points, components, lifecycle, unknowns); \
scenario "query" with a question for a smaller directed pack.
- codegraph_evidence: re-read the exact source ranges a distill pack cites (path, lines, \
sha256); a range whose file changed since is reported as content-modified.
- codegraph_symbols / codegraph_calls / codegraph_impact: ask the graph directly: where a \
function, method or type is defined (by name), who calls it or what it calls (proven edges, then \
likely ones labelled with their rule and confidence), and what calls into a change (and which \
tests reach it). Use them before renaming or changing a signature.
- codegraph_status: index size, languages, skipped files.
The index follows file edits on disk automatically before every call."""
_BUDGETS = [t["maxOutputChars"] for t in protocol.PROTOCOL["requests"]["explore"]["budgetTiers"]]
SERVER_INSTRUCTIONS = SERVER_INSTRUCTIONS.replace("{low}", str(_BUDGETS[0] // 1000)).replace("{high}", str(_BUDGETS[-1] // 1000))

_READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}

def _tiers() -> str:
    """Explore's default budgets in words, from the protocol: "13,000 (< 150 files), …, 24,000 otherwise"."""
    tiers = protocol.PROTOCOL["requests"]["explore"]["budgetTiers"]
    return ", ".join(f"{t['maxOutputChars']:,} (< {t['filesBelow']} files)" if t["filesBelow"] else f"{t['maxOutputChars']:,} otherwise"
                     for t in tiers)


_DISTILL = protocol.PROTOCOL["requests"]["distill"]
_CAPS = (f"min(release cap: {_DISTILL['releaseCaps']['overview']:,} bytes for overview / {_DISTILL['releaseCaps']['query']:,} "
         f"for query, {_DISTILL['hardCap']:,}, budgetBytes)")


def _merge(declared: dict, prose: dict) -> dict:
    """The declared schema with the prose (descriptions, nested the same way) laid over it."""
    out = dict(declared)
    for key, value in prose.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _input_schema(request: str, prose: dict[str, dict]) -> dict:
    """A tool's input schema: exactly the request's fields with the protocol's types and limits
    (model/protocol.json; never restated here), and the words the model reads."""
    declared = protocol.PROTOCOL["requests"][request]
    schema: dict[str, Any] = {"type": "object", "properties": {name: _merge(field, prose.get(name, {})) for name, field in declared["params"].items()}}
    if declared["required"]:
        schema["required"] = list(declared["required"])
    schema["additionalProperties"] = False
    return schema


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
        "inputSchema": _input_schema(service.EXPLORE, {
            "query": {"description": "The question, in natural language; naming classes, functions or files sharpens the answer."},
            "maxOutputChars": {"description": (
                f"Upper bound on the returned markdown, in characters. Default by repository size: {_tiers()}, "
                "which keeps the answer under the ~25,000-character inline limit of common agent hosts. Lower it for a quick look; "
                "raise it only if your host inlines larger tool results."
            )},
            "adaptive": {"description": (
                "true (default): files on the traced flow are shown in full or focused, peripheral files as "
                "skeletons, so more of the relevant code fits. false: plain relevance-ranked rendering."
            )},
            "includeTests": {"description": "Also consider test files (left out by default)."},
        }),
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
            f"Size: the pack never exceeds the effective cap = {_CAPS}. If even a minimal pack cannot fit, the call "
            "fails with the size it needs. format 'markdown' (default) is agent-ready text; 'json' is the pack object. Read-only."
        ),
        "inputSchema": _input_schema(service.DISTILL, {
            "scenario": {"description": "'overview' (default unless a question is given) or 'query' (requires question)."},
            "question": {"description": "The directed question for scenario 'query'."},
            "budgetBytes": {"description": (
                "Lower the byte cap below the release cap (it can never be raised above it). The smallest "
                "pack depends on the repository (about 1 KB); below it the call fails naming the bytes needed."
            )},
            # the default is this transport's (service.MCP): models read markdown
            "format": {"default": service.MCP.distill_format,
                       "description": "'markdown' (default): the agent-ready pack. 'json': the pack object as canonical JSON."},
            "obligations": {"description": (
                "Optional facts the pack must cover, each proven by one of its witness sets. A selector is "
                "'path::Qualified.name'. Most callers leave this out."
            )},
            "deadlineMs": {"description": f"Give up after this many milliseconds (default {_DISTILL['defaultDeadlineMs']:,})."},
        }),
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
        "inputSchema": _input_schema(service.EVIDENCE, {
            "sources": {"description": "Source references from a pack.", "items": {"properties": {
                "path": {"description": "Path relative to the repository root."},
                "lines": {"description": "[start, end], 1-based, inclusive."},
                "sha256": {"description": "The file's sha256 as cited."},
            }}},
            "maxBytes": {"description": (
                f"Upper bound on the returned text in bytes (default {protocol.PROTOCOL['requests']['evidence']['defaultMaxBytes']:,})."
            )},
        }),
    },
    {
        "name": "codegraph_status",
        "title": "Index status",
        "description": (
            "Report the index of this repository: whether it is ready, its version, file and symbol counts, resolved "
            "edges, languages and skipped files (with reasons). Use it when an answer looks incomplete, e.g. to see "
            "whether a file was skipped. Read-only."
        ),
        "inputSchema": _input_schema(service.STATUS, {}),
    },
]

# ---- the graph's queries (service.QUERIES): the same answers as the CLI and the LSP ------------
_QUERY_BUDGET = (
    f"Upper bound on the returned text, in characters (the same rules as codegraph_explore; default by repository size: {_tiers()}). "
    "What does not fit is counted in a last line."
)
QUERY_TOOLS: list[dict[str, Any]] = [
    {
        "name": "codegraph_symbols",
        "title": "Find symbols",
        "description": (
            "Find functions, methods and types of this repository by name: fuzzy and camel-case aware ('RqH' finds "
            "RequestHandler, 'gcd' get_current_date), exact and prefix matches first, tests last. A query with '.' "
            "matches qualified names ('Cart.total'). Output (markdown): one line per symbol, 'qualname · kind · "
            "path:line'. Use it to find where something is defined before asking codegraph_calls or reading it. Read-only."
        ),
        "inputSchema": _input_schema(service.SYMBOLS, {
            "query": {"description": "A name or part of one; qualified with '.' to match Class.member."},
            "limit": {"description": "At most this many symbols."},
            "maxOutputChars": {"description": _QUERY_BUDGET},
        }),
    },
    {
        "name": "codegraph_calls",
        "title": "Callers and callees",
        "description": (
            "Who calls a function, method or type (direction 'callers', default), or what it calls ('callees'), "
            "as a tree `depth` steps deep, each edge with its call sites (path:line). Proven edges (the call is "
            "resolved) are marked 'proven: calls|constructs' and listed first; likely edges are marked "
            "'likely: <rule>, <confidence>' and are guesses, never facts (e.g. an untyped receiver). A call on a "
            "base or interface method that may run any of several overrides is one 'family of …' line. "
            "A symbol that names nothing is refused with the closest names. Read-only."
        ),
        "inputSchema": _input_schema(service.CALLS, {
            "symbol": {"description": "A name ('save'), a qualified name ('Store.save'), 'path::Qualified.name' or 'path:LINE'. "
                                      "A qualified name may be written the language's way ('Command::get_matches'), with its "
                                      "module or crate path in front ('flask.app.Flask.wsgi_app'), and a Kotlin extension "
                                      "function by the type it extends ('Path.source'). "
                                      "A name several units share answers for each of them (up to 8)."},
            "direction": {"description": "'callers' (default): who calls it. 'callees': what it calls."},
            "depth": {"description": "Steps to follow (default 1); each unit is expanded once."},
            "likely": {"description": "true (default): also likely edges, labelled. false: proven edges only."},
            "maxOutputChars": {"description": _QUERY_BUDGET},
        }),
    },
    {
        "name": "codegraph_impact",
        "title": "Impact of a change",
        "description": (
            "What a change can break: the functions and methods that call into the changed code, transitively "
            "(`depth` steps), ranked (proven paths first, then fewer steps, then likelier), and the tests that reach "
            "the change through calls (found by the call graph, not by file names). Proven and likely callers are "
            "separate sections; a likely one shows the confidence of its path. Read-only."
        ),
        "inputSchema": _input_schema(service.IMPACT, {
            "changes": {"description": "What changed: 'path' (the whole file), 'path:LINE' or 'path:START-END', relative to the repository root.",
                        "items": {"description": "path, path:LINE or path:START-END"}},
            "depth": {"description": "Call steps to follow upwards (default 3)."},
            "likely": {"description": "true (default): also follow likely edges (confidence of the path at least 0.3). false: proven only."},
            "maxOutputChars": {"description": _QUERY_BUDGET},
        }),
    },
]
TOOLS[-1:-1] = QUERY_TOOLS  # before codegraph_status
TOOL_NAMES = tuple(t["name"] for t in TOOLS)
# tool → the request it serves; its arguments are that request's fields (service.FIELDS)
REQUEST_OF = {"codegraph_explore": service.EXPLORE, "codegraph_distill": service.DISTILL,
              "codegraph_evidence": service.EVIDENCE, "codegraph_status": service.STATUS,
              "codegraph_symbols": service.SYMBOLS, "codegraph_calls": service.CALLS, "codegraph_impact": service.IMPACT}


# ---- tool calls → the workspace service ------------------------------------------------------
class Bridge:
    """Tool calls → `Workspace.answer` → (text for the model, structured result, is_error)."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    async def call(self, name: str, arguments: Any, report: Report | None = None, request_id: Any = None) -> tuple[str, Any, bool]:
        """(text, structured result or None, is_error). Never raises except on cancellation."""
        started = time.perf_counter()
        try:
            if name not in REQUEST_OF:
                raise ToolError(f"unknown tool {name!r}; the tools are {', '.join(TOOL_NAMES)}")
            request = REQUEST_OF[name]
            if arguments is not None and not isinstance(arguments, dict):  # the request's params: MCP names them `arguments`
                raise InvalidParams("arguments", f"must be an object, got {type(arguments).__name__}")
            measure = distill_message_bytes(request_id) if request == service.DISTILL else None
            progress = RisingProgress(report) if report else None
            result = await self.workspace.answer(request, arguments, measure=measure, report=progress)
            log.info("%s answered in %.0f ms", name, (time.perf_counter() - started) * 1000)
            if request == service.EXPLORE or request in service.QUERIES:
                return result["text"], result, False
            if request == service.DISTILL:
                return (*distill_content(result), False)
            return encode_body(result).decode("utf-8"), result, False
        except InvalidParams as exc:
            return f"{name}: {exc}", None, True
        except RequestFailed as exc:
            return f"{name}: request failed: {exc}", None, True
        except ToolError as exc:
            return f"{name}: {exc}", None, True
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("%s failed", name)
            return f"{name}: internal error ({type(exc).__name__}: {exc}); the server is still running, try again or rephrase", None, True


class RisingProgress:
    """The first build's progress as MCP progress notifications for one call, on one scale that
    only rises: the spec requires the value to increase with each notification for a token.

    The service reports phases with their own counts (service.Report): the walk ("reading N
    files", total unknown), the parse ("parsed N/M files", total M = the files walked) and the
    end ("indexed M files"); each phase counts from its own zero. A phase is a run of reports
    with the same total. Each phase starts where the notifications so far left off (the highest
    value sent) and adds its own count; a report that would not raise the value is not sent.
    `total` is sent only in a phase that knows it, as that start plus the phase's total, so it
    is one number for the whole phase and never below the value. The phase's own counts stay
    in the message."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.sent: float | None = None  # the last (highest) value sent
        self.phase: int | None = None  # the service's total for the current phase (0: unknown)
        self.start = 0.0  # where the current phase starts on the call's scale

    async def __call__(self, done: int, total: int, message: str) -> None:
        if total != self.phase:
            self.phase, self.start = total, self.sent or 0.0
        value = self.start + max(float(done), 0.0)
        if self.sent is not None and value <= self.sent:
            return
        self.sent = value
        known = self.start + total if total and done <= total else None
        await self.report(value, known, f"codegraph: {message}")


def distill_content(result: dict) -> tuple[str, dict | None]:
    """A distill result as the tool sends it, once: the markdown (or the pack as canonical JSON)
    is the text the model reads; structured content carries only what the text does not."""
    if "markdown" in result:
        return result["markdown"], {k: v for k, v in result.items() if k != "markdown"}
    return encode_body(result).decode("utf-8"), None


def distill_message_bytes(request_id: Any) -> Callable[[dict], int]:
    """Bytes of the line the SDK writes for a distill tool result: the JSON-RPC response holding
    the CallToolResult, dumped as the SDK's stdio transport dumps it, and its newline."""
    import mcp.types as types

    def measure(result: dict) -> int:
        text, structured = distill_content(result)
        call = _result_model(types, text, structured, False).model_dump(by_alias=True, mode="json", exclude_none=True)
        line = types.JSONRPCResponse(jsonrpc="2.0", id=request_id if request_id is not None else 0, result=call)
        return len(line.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")) + 1

    return measure


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

    try:
        Server("codegraph", version=__version__, instructions=SERVER_INSTRUCTIONS, on_list_tools=None)
    except TypeError:
        return _server_v1(bridge, types, Server)
    return _server_v2(bridge, types, Server)


# `arguments` of a tools/call as sent, when it is not an object (see `_arguments_as_sent`)
_SENT_ARGUMENTS: contextvars.ContextVar[Any] = contextvars.ContextVar("codegraph_sent_arguments")
_NOT_SET = object()


async def _arguments_as_sent(ctx: Any, call_next: Any) -> Any:
    """mcp >= 2 server middleware: a tools/call whose `arguments` is not an object (`[]`, `"x"`)
    becomes a tool error naming `arguments`, like every other malformed argument.

    The SDK validates a request's params before any handler runs and refuses such a call with
    an anonymous -32602 "Invalid request parameters". Middleware (`Server.middleware`) runs
    before that validation and may pass on a rewritten context (the SDK's documented way): the
    call goes on with empty arguments, and what was sent travels to `call_tool` in a context
    variable (the handler runs in this middleware's task), which hands it to the bridge."""
    params = ctx.params
    if ctx.method != "tools/call" or not isinstance(params, Mapping):
        return await call_next(ctx)
    sent = params.get("arguments")
    if sent is None or isinstance(sent, Mapping):
        return await call_next(ctx)
    token = _SENT_ARGUMENTS.set(sent)
    try:
        return await call_next(dataclasses.replace(ctx, params={**params, "arguments": {}}))
    finally:
        _SENT_ARGUMENTS.reset(token)


def _server_v2(bridge: Bridge, types: Any, Server: Any) -> Any:
    """mcp >= 2: handlers are (ctx, params), given to the constructor."""
    tools = _tool_models(types)

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: Any) -> Any:
        session = getattr(ctx, "session", None)
        report = getattr(session, "report_progress", None)
        arguments = _SENT_ARGUMENTS.get(_NOT_SET)
        arguments = params.arguments if arguments is _NOT_SET else arguments
        text, structured, is_error = await bridge.call(params.name, arguments, report, getattr(ctx, "request_id", None))
        return _result_model(types, text, structured, is_error)

    server = Server("codegraph", version=__version__, title="codegraph", instructions=SERVER_INSTRUCTIONS,
                    on_list_tools=list_tools, on_call_tool=call_tool)
    middleware = getattr(server, "middleware", None)
    if isinstance(middleware, list):  # mcp 2.x (provisional there); without it the SDK's -32602 stands (docs/mcp.md)
        middleware.append(_arguments_as_sent)
    return server


def _server_v1(bridge: Bridge, types: Any, Server: Any) -> Any:
    """mcp 1.x: decorator registration; the request context lives on the server."""
    tools = _tool_models(types)
    server = Server("codegraph", version=__version__, instructions=SERVER_INSTRUCTIONS)

    @server.list_tools()
    async def list_tools_v1() -> list[Any]:
        return tools

    def context() -> Any:
        try:
            return server.request_context
        except LookupError:
            return None

    try:
        decorate = server.call_tool(validate_input=False)
    except TypeError:
        decorate = server.call_tool()

    @decorate
    async def call_tool_v1(name: str, arguments: dict) -> Any:
        ctx = context()
        text, structured, is_error = await bridge.call(name, arguments, _v1_report(ctx), getattr(ctx, "request_id", None))
        return _result_model(types, text, structured, is_error)

    return server


def _v1_report(ctx: Any) -> Report | None:
    """MCP 1.x progress for the request in `ctx`, when its client sent a progress token."""
    token = getattr(ctx.meta, "progressToken", None) if ctx is not None and ctx.meta is not None else None
    if token is None:
        return None

    async def report(progress: float, total: float | None, message: str) -> None:
        try:
            await ctx.session.send_progress_notification(token, progress, total, message=message, related_request_id=ctx.request_id)
        except TypeError:
            await ctx.session.send_progress_notification(token, progress, total)

    return report


async def _serve(bridge: Bridge) -> None:
    building = asyncio.get_running_loop().create_task(bridge.workspace.build())  # noqa: F841 (kept referenced)
    await asyncio.sleep(0)  # the build's thread starts now: indexing overlaps the SDK import and the handshake
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
        sys.stderr.write(f"codegraph: {root}: {'not a directory' if path.exists() else 'does not exist'}\n")  # as the CLI says
        return 2
    config = ScopeConfig(exclude=tuple(exclude), **({"max_file_bytes": max_file_bytes} if max_file_bytes else {}))
    workspace = Workspace(service.MCP, IndexOptions(config, Path(cache_dir) if cache_dir else None, use_cache))
    workspace.add_root(path.as_uri())
    log.info("codegraph %s MCP server for %s", __version__, path)
    import anyio

    try:
        anyio.run(_serve, Bridge(workspace))
    except KeyboardInterrupt:
        pass
    finally:
        if workspace.ready:
            workspace.close()
    return 0
