"""One contract, three front doors: the same requests through the CLI (a subprocess), the language
server (pytest-lsp over stdio) and the MCP server (the SDK's stdio client) give the same answers.

Explore's whole result (text, flow, hops, files, stats) and distill's pack as JSON and its markdown
are compared byte for byte (as canonical JSON); only the timing and the index version may differ. A malformed request is
refused by every transport naming the same field and the same rule.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import JsonRPCResponseMessage
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import FIXTURES, SERVER_CMD
from codegraph import service
from codegraph.requests import encode_body

FIXTURE = FIXTURES / "distill" / "py-service"
QUERY = "How does SqliteStore.save persist a note?"
ENV = {k: v for k, v in os.environ.items() if k != "CODEGRAPH_ADAPTIVE_EXPLORE"}
VOLATILE_STATS = ("elapsedMs", "indexVersion")  # timing, and how many changes this process saw

# (explore params, the CLI flags that say the same)
EXPLORES = [
    ({"query": QUERY}, []),
    ({"query": QUERY, "maxOutputChars": 3000, "adaptive": False}, ["--max-chars", "3000", "--no-adaptive"]),
]
# (distill params, CLI flags); no `scenario`: a question alone asks a directed pack everywhere
DISTILLS = [
    ({"format": "json"}, ["--format", "json"]),
    ({"format": "json", "question": QUERY}, ["--format", "json", "--question", QUERY]),
    ({"format": "json", "budgetBytes": 9000}, ["--format", "json", "--budget-bytes", "9000"]),
]
# The transports' own distill default (one table, service.TRANSPORTS): the same markdown from the
# LSP asked for it, and from the CLI and MCP asked for nothing.
MARKDOWN_LSP_PARAMS = {"format": "markdown"}
# (request, params, CLI flags or None when the CLI cannot express it, field, rule)
MALFORMED = [
    ("explore", {"query": QUERY, "maxOutputChars": 5}, ["--max-chars", "5"], "maxOutputChars", "must be between 1,000 and 400,000 (got 5)"),
    ("distill", {"budgetBytes": 100}, ["--budget-bytes", "100"], "budgetBytes", "must be between 512 and 1,000,000,000 (got 100)"),
    ("explore", {"query": "   "}, [], "query", "must not be blank"),
    ("distill", {"scenario": "overview", "question": "why?"}, None, "question", "is only allowed with scenario 'query'"),
    ("explore", {"query": QUERY, "maxChars": 5000}, None, "maxChars",
     "is not a parameter of explore (parameters: query, maxOutputChars, adaptive, includeTests)"),
]
TOOL = {"explore": "codegraph_explore", "distill": "codegraph_distill"}
# The graph's queries: (request, params, the CLI arguments that say the same)
QUERIES = [
    ("symbols", {"query": "save"}, ["symbols", "save"]),
    ("symbols", {"query": "ns", "limit": 3}, ["symbols", "ns", "--limit", "3"]),
    ("calls", {"symbol": "SqliteStore.save", "depth": 2}, ["calls", "SqliteStore.save", "--depth", "2"]),
    ("calls", {"symbol": "SqliteStore.save", "direction": "callees"}, ["calls", "SqliteStore.save", "--callees"]),
    ("impact", {"changes": ["notes/store.py:16"]}, ["impact", "notes/store.py:16"]),
    ("impact", {"changes": ["notes/store.py"], "likely": False, "maxOutputChars": 1000}, ["impact", "notes/store.py", "--proven-only", "--max-chars", "1000"]),
]
# (request, params, CLI arguments, the field the refusal names, the CLI's name for it)
QUERY_MALFORMED = [
    ("calls", {"symbol": "SqliteStore.sav"}, ["calls", "SqliteStore.sav"], "symbol", "SYMBOL"),
    ("impact", {"changes": ["notes/nowhere.py"]}, ["impact", "notes/nowhere.py"], "changes[0]", "PATH[:LINE] #1"),
    ("calls", {"symbol": "save", "depth": 6}, ["calls", "save", "--depth", "6"], "depth", "--depth"),
]


def canonical(value) -> bytes:
    return encode_body(value)


def explore_answer(result: dict) -> bytes:
    """The whole result (text, flow, hops, files, stats) but the volatile stats."""
    stats = {k: v for k, v in result["stats"].items() if k not in VOLATILE_STATS}
    return canonical({**result, "stats": stats})


# ---- the CLI ---------------------------------------------------------------------------------
def cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "codegraph.cli", *args[:1], str(root), *args[1:], "--no-cache"],
                          env=ENV, capture_output=True, text=True, timeout=120)


def cli_answers(root: Path) -> dict:
    out: dict = {"explore": [], "distill": [], "errors": []}
    for params, flags in EXPLORES:
        done = cli(root, "explore", params["query"], "--json", *flags)
        assert done.returncode == 0, done.stderr
        out["explore"].append(explore_answer(json.loads(done.stdout)))
    for params, flags in DISTILLS:
        done = cli(root, "distill", *flags)
        assert done.returncode == 0, done.stderr
        out["distill"].append(canonical(json.loads(done.stdout)))
    done = cli(root, "distill")
    assert done.returncode == 0, done.stderr
    out["markdown"] = done.stdout.removesuffix("\n")
    for request, params, flags, field, _ in MALFORMED:
        if flags is None:
            out["errors"].append(None)
            continue
        args = ("explore", params["query"], *flags) if request == "explore" else ("distill", *flags)
        done = cli(root, *args)
        assert done.returncode == 2, (args, done.stdout)
        name = {"maxOutputChars": "--max-chars", "budgetBytes": "--budget-bytes", "query": "QUERY"}[field]
        prefix = f"codegraph: {name} "
        assert done.stderr.startswith(prefix), done.stderr
        out["errors"].append((field, done.stderr[len(prefix):].rstrip("\n")))
    out["queries"] = []
    for _, _, args in QUERIES:
        done = cli(root, *args, "--json")
        assert done.returncode == 0, done.stderr
        out["queries"].append(canonical(json.loads(done.stdout)))
    out["query errors"] = []
    for _, _, args, field, name in QUERY_MALFORMED:
        done = cli(root, *args)
        assert done.returncode == 2 and done.stderr.startswith(f"codegraph: {name} "), done.stderr
        out["query errors"].append((field, done.stderr[len(f"codegraph: {name} "):].rstrip("\n")))
    return out


# ---- the MCP server --------------------------------------------------------------------------
async def mcp_answers(root: Path, log: Path) -> dict:
    pytest.importorskip("mcp")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    out: dict = {"explore": [], "distill": [], "errors": []}
    params = StdioServerParameters(command=sys.executable, args=["-m", "codegraph.cli", "mcp", str(root), "--no-cache"], env=ENV)
    with open(log, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for args, _ in EXPLORES:
                    result = await session.call_tool("codegraph_explore", args)
                    structured = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
                    assert structured["text"] == result.content[0].text
                    out["explore"].append(explore_answer(structured))
                for args, _ in DISTILLS:
                    result = await session.call_tool("codegraph_distill", args)
                    text = result.content[0].text
                    assert text.encode("utf-8") == canonical(json.loads(text)), "the text is the canonical JSON"
                    out["distill"].append(canonical(json.loads(text)["pack"]))
                result = await session.call_tool("codegraph_distill", {})
                out["markdown"] = result.content[0].text
                for request, args, _, field, _ in MALFORMED:
                    result = await session.call_tool(TOOL[request], args)
                    assert getattr(result, "is_error", None) or getattr(result, "isError", None), args
                    text = result.content[0].text
                    prefix = f"{TOOL[request]}: invalid params: `{field}` "
                    assert text.startswith(prefix), text
                    out["errors"].append((field, text[len(prefix):]))
                out["queries"], out["query errors"] = [], []
                for request, args, _ in QUERIES:
                    result = await session.call_tool(f"codegraph_{request}", args)
                    structured = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
                    assert structured["text"] == result.content[0].text
                    out["queries"].append(canonical(structured))
                for request, args, _, field, _ in QUERY_MALFORMED:
                    result = await session.call_tool(f"codegraph_{request}", args)
                    text = result.content[0].text
                    prefix = f"codegraph_{request}: invalid params: `{field}` "
                    assert (getattr(result, "is_error", None) or getattr(result, "isError", None)) and text.startswith(prefix), text
                    out["query errors"].append((field, text[len(prefix):]))
    return out


# ---- the language server ---------------------------------------------------------------------
class _RawResult:
    """Marker result type: codegraph/* results reach the test as the JSON the server sent (pygls
    would turn them into namedtuples, renaming keys that are not identifiers)."""


def _keep_results_raw(client: LanguageClient) -> None:
    proto = client.protocol
    proto._converter.register_structure_hook(
        _RawResult, lambda obj, _: JsonRPCResponseMessage(id=obj["id"], jsonrpc=obj["jsonrpc"], result=obj.get("result")))
    typed = proto.get_result_type
    proto.get_result_type = lambda method: _RawResult if method.startswith("codegraph/") else typed(method)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_CMD, server_env=ENV))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("ws") / FIXTURE.name
    shutil.copytree(FIXTURE, root)
    lsp_client.root = root
    _keep_results_raw(lsp_client)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
            initialization_options={"noCache": True},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def lsp_answers(client: LanguageClient) -> dict:
    send = client.protocol.send_request_async
    out: dict = {"explore": [], "distill": [], "errors": []}
    for params, _ in EXPLORES:
        out["explore"].append(explore_answer(await send("codegraph/explore", params)))
    for params, _ in DISTILLS:
        out["distill"].append(canonical((await send("codegraph/distill", params))["pack"]))
    out["markdown"] = (await send("codegraph/distill", MARKDOWN_LSP_PARAMS))["markdown"]
    for request, params, _, field, _ in MALFORMED:
        with pytest.raises(JsonRpcException) as refused:
            await send(f"codegraph/{request}", params)
        assert refused.value.code == -32602
        data = refused.value.data
        data = data if isinstance(data, dict) else data._asdict()
        assert data["field"] == field and f"`{field}` {data['rule']}" in refused.value.message
        out["errors"].append((data["field"], data["rule"]))
    out["queries"] = [canonical(await send(f"codegraph/{request}", params)) for request, params, _ in QUERIES]
    out["query errors"] = []
    for request, params, _, field, _ in QUERY_MALFORMED:
        with pytest.raises(JsonRpcException) as refused:
            await send(f"codegraph/{request}", params)
        data = refused.value.data
        data = data if isinstance(data, dict) else data._asdict()
        out["query errors"].append((data["field"], data["rule"]))
    return out


async def test_every_transport_gives_the_same_answers(client: LanguageClient, tmp_path: Path):
    root = client.root
    by_lsp = await lsp_answers(client)
    by_cli = cli_answers(root)
    by_mcp = await mcp_answers(root, tmp_path / "mcp.log")

    for i, (params, _) in enumerate(EXPLORES):
        assert by_lsp["explore"][i] == by_cli["explore"][i] == by_mcp["explore"][i], params
    assert json.loads(by_lsp["explore"][0])["flow"], "the fixture question has hops to compare"
    for i, (params, _) in enumerate(DISTILLS):
        assert by_lsp["distill"][i] == by_cli["distill"][i], params
        # MCP budgets the message it sends, where a JSON pack travels as an escaped string (about a
        # tenth more bytes): under a cap that binds it gets a smaller pack (test_mcp_distill_fits_its_own_message)
        cap = json.loads(by_lsp["distill"][i])["budget"]["cap"]  # an overview's 22,016 bytes, a question's 12,288
        if "budgetBytes" not in params and len(json.dumps(by_lsp["distill"][i].decode("utf-8"))) + 256 <= cap:
            assert by_mcp["distill"][i] == by_lsp["distill"][i], params
        elif "budgetBytes" not in params:  # the default cap binds the escaped pack: the same pack, less of it
            mcp, lsp = json.loads(by_mcp["distill"][i]), json.loads(by_lsp["distill"][i])
            assert [s["symbol"] for s in mcp["sources"]] == [s["symbol"] for s in lsp["sources"]][: len(mcp["sources"])], params
            assert mcp["cache_key"] == lsp["cache_key"], params
    assert json.loads(by_lsp["distill"][1])["scenario"] != json.loads(by_lsp["distill"][0])["scenario"]
    assert by_lsp["markdown"] == by_cli["markdown"] == by_mcp["markdown"]
    assert by_lsp["markdown"].startswith("#")
    for i, (request, params, _) in enumerate(QUERIES):
        assert by_lsp["queries"][i] == by_cli["queries"][i] == by_mcp["queries"][i], (request, params)
    assert [json.loads(q)["stats"]["shown"] > 0 for q in by_lsp["queries"]] == [True] * len(QUERIES), "every query has answers to compare"
    assert by_lsp["query errors"] == by_cli["query errors"] == by_mcp["query errors"]
    assert "closest: SqliteStore.save" in by_lsp["query errors"][0][1]
    for i, (request, params, flags, field, rule) in enumerate(MALFORMED):
        assert by_lsp["errors"][i] == by_mcp["errors"][i] == (field, rule), (request, params)
        if flags is not None:
            assert by_cli["errors"][i] == (field, rule), (request, params)


def test_the_mcp_tools_take_exactly_the_requests_fields():
    pytest.importorskip("mcp")
    from codegraph.mcp_server import REQUEST_OF, TOOLS

    for tool in TOOLS:
        assert tuple(tool["inputSchema"]["properties"]) == service.FIELDS[REQUEST_OF[tool["name"]]], tool["name"]


def test_the_transports_differ_only_where_the_table_says():
    assert {t.name: t.distill_format for t in service.TRANSPORTS.values()} == {"lsp": "json", "mcp": "markdown", "cli": "markdown"}
    for transport in service.TRANSPORTS.values():
        prepared = service.prepare(service.DISTILL, {"question": "q"}, transport)
        assert prepared == {"question": "q", "scenario": "query", "format": transport.distill_format}


def test_the_mcp_schema_bounds_are_the_servers():
    pytest.importorskip("mcp")
    from codegraph.distill.request import parse_distill
    from codegraph.mcp_server import TOOLS
    from codegraph.requests import InvalidParams, parse_explore

    parse = {"codegraph_explore": lambda p: parse_explore(service.prepare(service.EXPLORE, {"query": "q", **p}, service.MCP), 1),
             "codegraph_distill": lambda p: parse_distill(service.prepare(service.DISTILL, p, service.MCP))}
    checked = []
    for tool in TOOLS:
        for field, schema in tool["inputSchema"]["properties"].items():
            if tool["name"] not in parse or schema.get("type") != "integer":
                continue
            accepts = parse[tool["name"]]
            accepts({field: schema["minimum"]})
            accepts({field: schema["maximum"]})
            for outside in (schema["minimum"] - 1, schema["maximum"] + 1):
                with pytest.raises(InvalidParams):
                    accepts({field: outside})
            checked.append(field)
    assert checked == ["maxOutputChars", "budgetBytes", "deadlineMs"]


def _mcp_lines(proc: subprocess.Popen, want_id: int) -> bytes:
    """The raw line (newline included) the MCP server writes for request `want_id`."""
    while True:
        line = proc.stdout.readline()
        assert line, "the MCP server closed stdout"
        if json.loads(line).get("id") == want_id:
            return line


@pytest.mark.parametrize("fmt", ["markdown", "json"])
def test_mcp_distill_fits_its_own_message_and_sends_the_pack_once(tmp_path: Path, fmt: str):
    pytest.importorskip("mcp")
    root = tmp_path / FIXTURE.name
    shutil.copytree(FIXTURE, root)
    proc = subprocess.Popen([sys.executable, "-m", "codegraph.cli", "mcp", str(root), "--no-cache"], env=ENV,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    send = lambda obj: (proc.stdin.write(json.dumps(obj).encode() + b"\n"), proc.stdin.flush())  # noqa: E731
    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}})
        _mcp_lines(proc, 1)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for request_id, budget in ((2, 6_000), (3, 9_000), (4, 22_016)):
            send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                  "params": {"name": "codegraph_distill", "arguments": {"format": fmt, "budgetBytes": budget}}})
            line = _mcp_lines(proc, request_id)
            result = json.loads(line)["result"]
            assert not result.get("isError"), result
            assert len(line) <= budget, (len(line), budget)
            text = result["content"][0]["text"]
            if fmt == "markdown":  # the markdown once, as text; the structured content has the rest
                assert result["structuredContent"] == {"cacheKey": result["structuredContent"]["cacheKey"],
                                                       "status": result["structuredContent"]["status"]}
                assert text.startswith("#")
            else:  # the pack once, as canonical JSON text
                assert "structuredContent" not in result and "pack" in json.loads(text)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
