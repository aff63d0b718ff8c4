"""The distill frame gate on the raw bytes the server writes to stdout (not on a re-serialization)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, SERVER_CMD


def _frame(obj: dict) -> bytes:
    body = json.dumps(obj).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def _read_frames(stream, want_id: int) -> bytes:
    """Raw bytes (header + body) of the response with `want_id`; other messages are skipped."""
    while True:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            chunk = stream.read(1)
            assert chunk, "server closed stdout"
            header += chunk
        length = int(next(line for line in header.split(b"\r\n") if line.lower().startswith(b"content-length")).split(b":")[1])
        body = stream.read(length)
        message = json.loads(body)
        if message.get("id") == want_id and "method" not in message:
            return header + body
        if "method" in message and "id" in message:  # a server request (progress create): answer it
            stream_reply = _frame({"jsonrpc": "2.0", "id": message["id"], "result": None})
            _read_frames.proc.stdin.write(stream_reply)
            _read_frames.proc.stdin.flush()


@pytest.mark.parametrize("budget", [3_000, 6_000, 22_016])
def test_distill_response_frame_fits_the_cap_on_the_wire(tmp_path: Path, budget: int):
    import shutil

    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "distill" / "py-service", root)
    proc = subprocess.Popen(SERVER_CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    _read_frames.proc = proc
    try:
        send = lambda obj: (proc.stdin.write(_frame(obj)), proc.stdin.flush())  # noqa: E731
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {}, "rootUri": None, "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}],
            "initializationOptions": {"noCache": True}}})
        _read_frames(proc.stdout, 1)
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        request_id = 123456789
        send({"jsonrpc": "2.0", "id": request_id, "method": "codegraph/distill", "params": {"budgetBytes": budget, "format": "markdown"}})
        raw = _read_frames(proc.stdout, request_id)
        body = json.loads(raw.split(b"\r\n\r\n", 1)[1])
        assert len(raw) <= budget, (len(raw), budget)
        if "error" in body:
            assert body["error"]["code"] == -32803 and "not delivered" in body["error"]["message"]
        else:
            assert body["result"]["markdown"]
    finally:
        proc.kill()
        proc.wait()
