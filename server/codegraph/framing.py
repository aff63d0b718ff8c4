"""The language server's wire frame, and its size: the unit distill's byte budgets are counted in.

A frame is the `Content-Length` and `Content-Type` headers and the canonical JSON body. The
language server writes every message with `encode_message` (its one pygls hook), so
`frame_bytes_for(id)` is exactly the size of the response it sends for request `id`. Distill
never sees a frame: it is handed a measuring function (`requests.run_distill`).
"""

from __future__ import annotations

from typing import Any, Callable

from .model.canonical import canonical_json

# Packs are budgeted on at least the response to an id this long, so that the request id (or a
# transport whose envelope is smaller) never changes the pack: one request, one pack everywhere.
REFERENCE_ID = "0" * 40


def encode_frame(body: bytes) -> bytes:
    return f"Content-Length: {len(body)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".encode("ascii") + body


def encode_message(message: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """The whole frame of one message, as the language server writes it."""
    return encode_frame(canonical_json(message, default))


def frame_bytes_for(request_id: Any) -> Callable[[dict], int]:
    """Exact bytes of the whole response message (header included) the server sends for this id."""

    def measure(result: dict) -> int:
        return len(encode_message({"id": request_id, "jsonrpc": "2.0", "result": result}))

    return measure


reference_frame_bytes = frame_bytes_for(REFERENCE_ID)
