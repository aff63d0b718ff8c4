"""The field rules of the requests: validation helpers, explore's request, the distill frame.

Transports do not call these directly: `service.py` is their one front door (allowed fields,
the transports' declared defaults), and it calls `run_explore`, `run_distill` and
`run_evidence` here; so the CLI, the language server and the MCP bridge give the same result
for the same index, byte for byte.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

from .explore.model import ExploreRequest
from .index.index import RootIndex

Checkpoint = Callable[[], None]  # raises when the request was cancelled


class InvalidParams(Exception):
    """-32602: names the field and the rule it broke."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"invalid params: `{field}` {rule}")
        self.field = field
        self.rule = rule


class RequestFailed(Exception):
    """-32803: the request was understood but cannot be answered as asked."""


def _no_checkpoint() -> None:
    return None


def require_object(params: Any) -> dict:
    if params is None:
        return {}
    if hasattr(params, "_asdict"):  # pygls hands custom params over as namedtuples
        params = params._asdict()
    if not isinstance(params, dict):
        raise InvalidParams("params", "must be an object")
    return {k: _plain(v) for k, v in params.items()}


def _plain(value: Any) -> Any:
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def get_str(params: dict, field: str, *, required: bool = False, default: str | None = None, max_len: int = 4000) -> str | None:
    value = params.get(field, None)
    if value is None:
        if required:
            raise InvalidParams(field, "is required")
        return default
    if not isinstance(value, str):
        raise InvalidParams(field, f"must be a string, got {type(value).__name__}")
    if required and not value.strip():
        raise InvalidParams(field, "must not be blank")
    if len(value) > max_len:
        raise InvalidParams(field, f"must be at most {max_len} characters (got {len(value)})")
    return value


def get_int(params: dict, field: str, lo: int, hi: int, default: int | None) -> int | None:
    value = params.get(field, None)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InvalidParams(field, f"must be an integer, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise InvalidParams(field, f"must be between {lo:,} and {hi:,} (got {value:,})")
    return value


def get_bool(params: dict, field: str, default: bool) -> bool:
    value = params.get(field, None)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidParams(field, f"must be a boolean, got {type(value).__name__}")
    return value


def get_enum(params: dict, field: str, allowed: tuple[str, ...], default: str) -> str:
    value = params.get(field, None)
    if value is None:
        return default
    if value not in allowed:
        raise InvalidParams(field, f"must be one of {', '.join(repr(a) for a in allowed)} (got {value!r})"[:300])
    return value


# ---- explore ---------------------------------------------------------------------------
def default_explore_budget(file_count: int) -> int:
    """Agent hosts inline ~25,000 characters; tiers by repository size (docs/explore.md)."""
    if file_count < 150:
        return 13_000
    if file_count < 500:
        return 18_000
    return 24_000


def parse_explore(params: Any, file_count: int, adaptive_default: bool = True) -> ExploreRequest:
    p = require_object(params)
    query = get_str(p, "query", required=True, max_len=4000)
    budget = get_int(p, "maxOutputChars", 1_000, 400_000, None) or default_explore_budget(file_count)
    adaptive = get_bool(p, "adaptive", adaptive_default)
    if os.environ.get("CODEGRAPH_ADAPTIVE_EXPLORE", "").strip() == "0":
        adaptive = False
    return ExploreRequest(query.strip(), budget, adaptive, get_bool(p, "includeTests", False))  # type: ignore[union-attr]


def run_explore(index: RootIndex, params: Any, checkpoint: Checkpoint = _no_checkpoint, adaptive_default: bool = True) -> dict:
    request = parse_explore(params, len(index.files), adaptive_default)
    from .explore.engine import explore

    result = explore(index, request, checkpoint)
    if not result["flow"] and not result["stats"]["candidates"]:  # nothing matched: say why and what to try
        from .render.guidance import no_answer

        result["text"] = no_answer(index, request.query, request.include_tests, request.max_output_chars)
        result["stats"]["chars"] = len(result["text"])
    return result


# ---- distill ---------------------------------------------------------------------------
RELEASE_CAP = {"overview": 22_016, "query": 12_288}
HARD_CAP = 24_576


def encode_body(message: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """The one serializer for everything the server sends: canonical JSON, UTF-8."""
    return json.dumps(message, default=default, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def encode_frame(body: bytes) -> bytes:
    return f"Content-Length: {len(body)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".encode("ascii") + body


def frame_bytes_for(request_id: Any) -> Callable[[dict], int]:
    """Exact bytes of the whole response message (header included) the server sends for this id."""

    def measure(result: dict) -> int:
        return len(encode_frame(encode_body({"id": request_id, "jsonrpc": "2.0", "result": result})))

    return measure


def run_distill(index: RootIndex, params: Any, measure: Callable[[dict], int], checkpoint: Checkpoint = _no_checkpoint) -> dict:
    data = require_object(params)
    from .distill.engine import distill, parse_distill

    request = parse_distill(data)
    return distill(index, request, measure, checkpoint)


def run_evidence(index: RootIndex, params: Any) -> dict:
    from .distill.evidence import evidence
    from .render.markdown import redact_lines

    result = evidence(index, require_object(params))
    # Credential lines never leave the server, also not as evidence: each is replaced by the
    # visible marker (key-block lines judged against the whole file, since a block may start earlier).
    for block in result.get("blocks", []):
        text = block.get("text")
        if isinstance(text, str) and text:
            context = index.sources.get(block["path"], b"").decode("utf-8", "replace").split("\n")  # evidence's numbering
            block["text"] = "\n".join(redact_lines(text.split("\n"), block["lines"][0], context))
    return result


def run_distill_frame(index: RootIndex, params: Any, checkpoint: Checkpoint = _no_checkpoint) -> dict:
    """The CLI's distill: measured as if sent as the response to request id 1."""
    return run_distill(index, params, frame_bytes_for(1), checkpoint)
