"""The MCP server on the wire, driven with raw JSON-RPC lines (no SDK client in between, which
could hide or refuse what a client really sends or receives): progress notifications only rise,
on a cold index too; `arguments` that is not an object is a tool error naming `arguments`; an
impact change whose line part is malformed says so.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")  # the server needs the extra; without it these skip like tests/test_mcp.py
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="select() on pipes is POSIX only")

from codegraph.mcp_server import Bridge  # noqa: E402


class Wire:
    """`python -m codegraph.cli mcp ROOT` over newline-delimited JSON-RPC on its stdio."""

    def __init__(self, root: Path, cache: Path, errlog: Path) -> None:
        env = dict(os.environ, XDG_CACHE_HOME=str(cache))
        self.proc = subprocess.Popen([sys.executable, "-m", "codegraph.cli", "mcp", str(root)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=errlog.open("w"), env=env)
        self.notifications: list[dict] = []
        self.next_id = 0

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method: str, params: dict, timeout: float = 120) -> dict:
        """Sends the request and reads up to its answer; notifications on the way are kept."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.proc.stdout is not None
        end = time.monotonic() + timeout
        while True:
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, end - time.monotonic()))
            assert ready, f"no answer to {method} within {timeout} s"
            line = self.proc.stdout.readline()
            assert line, "the server closed stdout"
            message = json.loads(line)
            if message.get("id") == self.next_id and "method" not in message:
                return message
            self.notifications.append(message)

    def initialize(self) -> None:
        answer = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}})
        assert "result" in answer, answer
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, name: str, arguments, **params) -> dict:
        return self.request("tools/call", {"name": name, "arguments": arguments, **params})

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def small(tmp_path: Path):
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text("def target():\n    return 1\n\n\ndef caller():\n    return target()\n")
    wire = Wire(root, tmp_path / "cache", tmp_path / "server.log")
    wire.initialize()
    yield wire
    wire.close()


def _rising(values: list[float]) -> bool:
    return all(a < b for a, b in zip(values, values[1:]))


# ---- finding 4: progress only rises ----------------------------------------------------------
def test_progress_on_a_cold_index_only_rises_and_keeps_one_total(tmp_path: Path):
    # before: 0 "starting", 200 "reading 200 files", 400 "reading 400 files", then 96/402 "parsed 96/402
    # files": each phase of the build restarted from 0 on the same token (the spec: progress MUST increase)
    root = tmp_path / "cold"
    body = "".join(f"def unit_{j}(x):\n    return helper_{j}(x) + {j}\n\n\n" for j in range(150))
    for i in range(500):
        folder = root / f"pkg{i % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"m{i}.py").write_text(body)
    wire = Wire(root, tmp_path / "cache", tmp_path / "server.log")  # a cache nobody has filled: a cold index
    try:
        # the call goes out right after initialize, while the first index is still being built
        wire.initialize()
        answer = wire.call("codegraph_symbols", {"query": "unit_7", "limit": 3}, _meta={"progressToken": "p1"})
    finally:
        wire.close()
    assert answer["result"]["isError"] is False, answer
    progress = [n["params"] for n in wire.notifications if n.get("method") == "notifications/progress"]
    assert len(progress) >= 2, progress  # the build takes seconds here: the call waited and heard about it
    assert all(p["progressToken"] == "p1" for p in progress)
    values = [p["progress"] for p in progress]
    assert _rising(values), values
    totals = [p["total"] for p in progress if "total" in p]
    assert totals == sorted(totals), totals
    for p in progress:
        assert p["message"].startswith("codegraph: ")
        if "total" in p:
            assert p["progress"] <= p["total"], p


def test_each_phase_of_the_build_continues_where_the_last_one_left_off():
    # the service's reports for the reviewer's cold index (celery, 402 files), in order: the walk (no
    # total), the parse (of the 402 walked), the end; one call hears them as one rising scale
    reports = [(0, 0, "starting"), (200, 0, "reading 200 files"), (400, 0, "reading 400 files"),
               (96, 402, "parsed 96/402 files"), (288, 402, "parsed 288/402 files"), (402, 402, "parsed 402/402 files"),
               (402, 402, "indexed 402 files")]

    class Service:
        async def answer(self, request, params, *, measure=None, report=None):
            for done, total, message in reports:
                await report(done, total, message)
            return {"text": "ok"}

    heard: list[tuple[float, float | None, str]] = []

    async def report(progress: float, total: float | None, message: str) -> None:
        heard.append((progress, total, message))

    import asyncio

    text, _, is_error = asyncio.run(Bridge(Service()).call("codegraph_symbols", {"query": "x"}, report))  # type: ignore[arg-type]
    assert (text, is_error) == ("ok", False)
    assert heard == [
        (0.0, None, "codegraph: starting"),
        (200.0, None, "codegraph: reading 200 files"),
        (400.0, None, "codegraph: reading 400 files"),
        (496.0, 802.0, "codegraph: parsed 96/402 files"),  # the parse starts where the walk left off
        (688.0, 802.0, "codegraph: parsed 288/402 files"),
        (802.0, 802.0, "codegraph: parsed 402/402 files"),
        # "indexed 402 files" would not raise the value: not sent
    ]


# ---- finding 8: `arguments` that is not an object ---------------------------------------------
@pytest.mark.parametrize("arguments", [[], "routing", 5, True])
def test_arguments_that_are_not_an_object_are_a_tool_error_naming_arguments(small: Wire, arguments):
    # before: the SDK's JSON-RPC error {"code": -32602, "message": "Invalid request parameters", "data": ""}
    answer = small.call("codegraph_explore", arguments)
    assert "error" not in answer, answer
    result = answer["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"] == f"codegraph_explore: invalid params: `arguments` must be an object, got {type(arguments).__name__}"
    # absent or null arguments are no arguments; the server goes on serving
    status = small.call("codegraph_status", None)["result"]
    assert status["isError"] is False and json.loads(status["content"][0]["text"])["ready"] is True


# ---- finding 7: a malformed line part is about the line ----------------------------------------
def test_an_impact_change_with_a_malformed_line_names_the_line_not_the_file(small: Wire):
    # before: "`changes[0]` is not a file in the index ('pkg/mod.py:abc')" (for :1:2, 'pkg/mod.py:1')
    for change, part in (("pkg/mod.py:abc", "'abc'"), ("pkg/mod.py:-5", "'-5'"), ("pkg/mod.py:1:2", "'1:2'")):
        result = small.call("codegraph_impact", {"changes": [change]})["result"]
        assert result["isError"] is True
        assert result["content"][0]["text"].startswith(
            f"codegraph_impact: invalid params: `changes[0]` names pkg/mod.py, but {part} after it is not a line or a range"), result
    result = small.call("codegraph_calls", {"symbol": "pkg/mod.py:abc"})["result"]
    assert result["isError"] is True and "names pkg/mod.py, but 'abc' after it is not a line number" in result["content"][0]["text"]
