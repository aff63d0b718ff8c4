"""The MCP bridge end to end: the SDK's own stdio client drives `python -m codegraph.cli mcp ROOT`.

Results must equal the CLI's for the same root (same cache dir), edits on disk must show in the
next call, and malformed arguments must come back as tool errors naming the field.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp")  # before anything the mcp extra brings (anyio): without it, skip cleanly
import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from conftest import FIXTURES  # noqa: E402

QUERY = "how does an interceptor chain process a request"
TOOLS = {"codegraph_explore", "codegraph_distill", "codegraph_evidence", "codegraph_status",
         "codegraph_symbols", "codegraph_calls", "codegraph_impact"}


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(cache)  # the default cache dir (platformdirs) for server and CLI alike
    env.pop("CODEGRAPH_ADAPTIVE_EXPLORE", None)
    return env


def _cli(env: dict[str, str], *args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "codegraph.cli", *args], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _field(obj, snake: str, camel: str):
    """mcp 2.x models use snake_case attributes, 1.x camelCase."""
    return getattr(obj, snake, getattr(obj, camel, None))


def _text(result) -> str:
    assert result.content and result.content[0].type == "text"
    return result.content[0].text


def _is_error(result) -> bool:
    return bool(_field(result, "is_error", "isError"))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    dst = tmp_path / "interceptor-kotlin"
    import shutil

    shutil.copytree(FIXTURES / "explore" / "interceptor-kotlin", dst)
    return dst


async def test_mcp_end_to_end(root: Path, tmp_path: Path):
    env = _env(tmp_path / "cache")
    # The CLI first (it also warms the cache the server then starts from).
    cli_explore = _cli(env, "explore", str(root), QUERY)
    cli_explore_json = json.loads(_cli(env, "explore", str(root), QUERY, "--json"))
    cli_distill_md = _cli(env, "distill", str(root), "--format", "markdown")
    cli_pack = json.loads(_cli(env, "distill", str(root), "--format", "json"))
    from codegraph.index.index import RootIndex
    from codegraph.mcp_server import distill_message_bytes
    from codegraph.requests import run_distill

    local = RootIndex(root, use_cache=False)
    local.build()
    mcp_packs = [run_distill(local, {"format": "json"}, distill_message_bytes(request_id)) for request_id in (1, 10, 100)]

    params = StdioServerParameters(command=sys.executable, args=["-m", "codegraph.cli", "mcp", str(root)], env=env)
    started = time.perf_counter()
    with open(tmp_path / "server.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()

                # ---- tools: seven, read-only, schemas for a model
                listed = (await session.list_tools()).tools
                assert {t.name for t in listed} == TOOLS
                for tool in listed:
                    assert tool.description and len(tool.description) > 80
                    schema = _field(tool, "input_schema", "inputSchema")
                    assert schema["type"] == "object" and schema.get("additionalProperties") is False
                    assert _field(tool.annotations, "read_only_hint", "readOnlyHint") is True
                    assert _field(tool.annotations, "destructive_hint", "destructiveHint") is False
                explore_schema = next(_field(t, "input_schema", "inputSchema") for t in listed if t.name == "codegraph_explore")
                assert explore_schema["required"] == ["query"]
                assert explore_schema["properties"]["maxOutputChars"]["minimum"] == 1000

                # ---- explore: the CLI's text, byte for byte; the LSP result as structured content
                result = await session.call_tool("codegraph_explore", {"query": QUERY})
                assert not _is_error(result), _text(result)
                assert _text(result) + "\n" == cli_explore
                assert len(_text(result)) <= 13_000  # the small-repo default budget
                structured = _field(result, "structured_content", "structuredContent")
                assert structured["text"] == _text(result)
                assert structured["flow"] == cli_explore_json["flow"] and structured["files"] == cli_explore_json["files"]
                for key in ("chars", "budget", "candidates", "adaptive"):
                    assert structured["stats"][key] == cli_explore_json["stats"][key]

                # concurrent calls are serialised on one index version and all answered
                answers: list = []

                async def one(q: str) -> None:
                    answers.append(await session.call_tool("codegraph_explore", {"query": q, "maxOutputChars": 4000}))

                async with anyio.create_task_group() as tg:
                    for q in ("RealCall.execute", "Dispatcher.enqueue", "how is gzip applied", "retry on failure"):
                        tg.start_soon(one, q)
                assert len(answers) == 4 and not any(_is_error(a) for a in answers)

                # ---- distill: markdown (default here) and canonical JSON, equal to the CLI
                result = await session.call_tool("codegraph_distill", {})
                assert not _is_error(result), _text(result)
                assert _text(result) + "\n" == cli_distill_md
                result = await session.call_tool("codegraph_distill", {"format": "json"})
                assert not _is_error(result), _text(result)
                wire = json.loads(_text(result))
                # MCP budgets the line it sends, where the pack travels as an escaped JSON string: the
                # pack budgeted on that message (the CLI's when the cap does not bind)
                assert wire in mcp_packs, (wire["pack"]["status"], cli_pack["status"])
                assert _text(result) == json.dumps(wire, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                directed = await session.call_tool("codegraph_distill", {"question": "how are requests retried", "format": "json"})
                assert not _is_error(directed), _text(directed)
                assert json.loads(_text(directed))["pack"]["scenario"] in ("query", "B")

                # ---- evidence: the pack's references, re-read and hash-checked
                files = cli_pack["files"]
                refs = [{"path": files[s["file"]]["path"], "lines": s["lines"], "sha256": files[s["file"]]["sha256"]} for s in cli_pack["sources"][:3]]
                result = await session.call_tool("codegraph_evidence", {"sources": refs})
                assert not _is_error(result), _text(result)
                blocks = json.loads(_text(result))["blocks"]
                assert [b["path"] for b in blocks] == [r["path"] for r in refs]
                for block, ref in zip(blocks, refs):
                    assert "error" not in block, block
                    lines = (root / ref["path"]).read_text().split("\n")[ref["lines"][0] - 1 : ref["lines"][1]]
                    assert block["text"] == "\n".join(lines)

                # ---- status
                status = json.loads(_text(await session.call_tool("codegraph_status", {})))
                assert status["ready"] is True
                files_before = status["roots"][0]["files"]
                assert files_before == len(list(root.rglob("*.kt")))

                # ---- freshness: an edit on disk shows in the next call, no editor involved
                probe = "zebraQuokkaProbeDispatch"
                target = root / "src/main/kotlin/okhttp/lite/Dispatcher.kt"
                before = await session.call_tool("codegraph_explore", {"query": f"{probe} function"})
                assert f"fun {probe}" not in _text(before)  # (the answer may quote the question)
                with target.open("a") as fh:
                    fh.write(f"\nfun {probe}(limit: Int): Int {{\n  return limit * 2 + 1\n}}\n")
                after = await session.call_tool("codegraph_explore", {"query": f"{probe} function"})
                assert not _is_error(after), _text(after)
                assert f"fun {probe}(limit: Int)" in _text(after)
                assert "Dispatcher.kt" in _text(after)

                # a new file and a deleted file
                new_file = root / "src/main/kotlin/okhttp/lite/Yak.kt"
                new_file.write_text("package okhttp.lite\n\nclass YakShaverUnique {\n  fun shaveTheYakNow(): String = \"done\"\n}\n")
                found = await session.call_tool("codegraph_explore", {"query": "YakShaverUnique shaveTheYakNow"})
                assert "shaveTheYakNow" in _text(found) and "Yak.kt" in _text(found)
                (root / "src/main/kotlin/okhttp/lite/Lockable.kt").unlink()
                status = json.loads(_text(await session.call_tool("codegraph_status", {})))
                assert status["roots"][0]["files"] == files_before  # +1 new, -1 deleted
                assert status["indexVersion"] > 1

                # ---- malformed arguments: tool errors naming the field, and the server keeps serving
                bad = [
                    ("codegraph_explore", {}, "`query`"),
                    ("codegraph_explore", {"query": 42}, "`query`"),
                    ("codegraph_explore", {"query": "   "}, "`query`"),
                    ("codegraph_explore", {"query": "x", "maxOutputChars": 5}, "`maxOutputChars`"),
                    ("codegraph_explore", {"query": "x", "maxOutputChars": 10_000_000}, "`maxOutputChars`"),
                    ("codegraph_explore", {"query": "x", "maxOutputChars": "big"}, "`maxOutputChars`"),
                    ("codegraph_explore", {"query": "x", "adaptive": "yes"}, "`adaptive`"),
                    ("codegraph_explore", {"query": "x", "maxChars": 5000}, "`maxChars`"),
                    ("codegraph_distill", {"scenario": "query"}, "`question`"),
                    ("codegraph_distill", {"format": "html"}, "`format`"),
                    ("codegraph_distill", {"budgetBytes": 0}, "`budgetBytes`"),
                    ("codegraph_evidence", {"sources": "all"}, "`sources`"),
                    ("codegraph_evidence", {"sources": [{"path": "a.kt", "lines": [3, 1], "sha256": "0" * 64}]}, "`sources[0].lines`"),
                    ("codegraph_nope", {}, "unknown tool"),
                ]
                for name, args, needle in bad:
                    result = await session.call_tool(name, args)
                    assert _is_error(result), (name, args, _text(result))
                    assert needle in _text(result), (name, args, _text(result))
                ok = await session.call_tool("codegraph_explore", {"query": QUERY, "maxOutputChars": 3000})
                assert not _is_error(ok) and len(_text(ok)) <= 3000
    assert time.perf_counter() - started < 30
