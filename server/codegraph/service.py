"""The one request contract every transport drives (docs/protocol.md).

The language server, the MCP server and the CLI hand a request's raw params to the function
named for it here and serialize what comes back; nothing about which fields exist, what they
default to or how they are validated is decided in a transport. Where a transport's documented
default differs (distill's format), the difference is one row of `TRANSPORTS`, not code.

Order of checks, the same everywhere: params must be an object; every key must be a field of
the request (or a routing field the transport consumes, such as the LSP's `rootUri`); then
the request's own validation (`requests.py`, `distill/request.py`, `distill/evidence.py`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .index.index import RootIndex
from .requests import Checkpoint, InvalidParams, frame_bytes_for, require_object, run_distill, run_evidence, run_explore

EXPLORE, DISTILL, EVIDENCE, STATUS = "explore", "distill", "evidence", "status"

# Every field each request takes. MCP's input schemas list exactly these, in this order
# (tests/test_transports.py checks it).
FIELDS: dict[str, tuple[str, ...]] = {
    EXPLORE: ("query", "maxOutputChars", "adaptive", "includeTests"),
    DISTILL: ("scenario", "question", "budgetBytes", "format", "obligations", "deadlineMs"),
    EVIDENCE: ("sources", "maxBytes"),
    STATUS: (),
}


@dataclass(frozen=True, slots=True)
class Transport:
    name: str
    distill_format: str  # distill's `format` when the request leaves it out
    routing: tuple[str, ...] = ()  # fields the transport consumes itself (which workspace folder)


# The transports' documented differences, all of them. The LSP answers programs (editors),
# so distill defaults to the pack as data; the CLI and MCP answer people and models, so to
# the markdown. Only the LSP serves several workspace folders and takes `rootUri`.
LSP = Transport("lsp", distill_format="json", routing=("rootUri",))
MCP = Transport("mcp", distill_format="markdown")
CLI = Transport("cli", distill_format="markdown")
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
            # a blank, unprintable or huge key is named by its JSON spelling, cut short
            shown = key if key.strip() and key.isprintable() and len(key) <= 80 else json.dumps(key)[:80]
            # the request's own fields only: the rule reads the same from every transport
            raise InvalidParams(shown, f"is not a parameter of {request} (parameters: {', '.join(FIELDS[request]) or 'none'})")
    if request == DISTILL:
        if data.get("format") is None:
            data["format"] = transport.distill_format
        if data.get("scenario") is None and data.get("question") is not None:
            data["scenario"] = "query"  # a question alone asks a directed pack
    return data


def _no_checkpoint() -> None:
    return None


def explore(index: RootIndex, params: Any, transport: Transport, checkpoint: Checkpoint = _no_checkpoint, adaptive_default: bool = True) -> dict:
    """`codegraph/explore`; `adaptive_default` is the server's configuration (initializationOptions)."""
    return run_explore(index, prepare(EXPLORE, params, transport), checkpoint, adaptive_default)


def distill(index: RootIndex, params: Any, transport: Transport, checkpoint: Checkpoint = _no_checkpoint,
            measure: Callable[[dict], int] | None = None) -> dict:
    """`codegraph/distill`. `measure` gives the bytes of the message the transport sends; the
    default measures the response frame to request id 1 (the CLI's and MCP's reference)."""
    return run_distill(index, prepare(DISTILL, params, transport), measure or frame_bytes_for(1), checkpoint)


def evidence(index: RootIndex, params: Any, transport: Transport) -> dict:
    """`codegraph/evidence`."""
    return run_evidence(index, prepare(EVIDENCE, params, transport))


def status(every: Iterable[RootIndex], selected: Iterable[RootIndex]) -> dict:
    """`codegraph/status` once the first index is built: the version counts every root's changes."""
    return {"indexVersion": sum(r.version for r in every), "ready": True, "roots": [r.status() for r in selected]}


def not_ready_status(root_uris: Iterable[str], progress: tuple[int, int, str] | None = None) -> dict:
    """`codegraph/status` while the first index is being built: empty roots, and the build's
    progress (done, total, message) when the transport tracks it."""
    result: dict[str, Any] = {"indexVersion": 0, "ready": False}
    if progress is not None:
        done, total, message = progress
        result["progress"] = {"done": done, "total": total, "message": message}
    result["roots"] = [
        {"rootUri": uri, "files": 0, "symbols": 0, "resolvedEdges": 0, "unresolvedCalls": 0, "languages": {},
         "skipped": [], "skippedTotal": 0, "lastUpdateMs": 0.0}
        for uri in root_uris
    ]
    return result


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
