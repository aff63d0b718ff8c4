"""The requests' runners: explore's request and budget tiers, distill's budget unit, evidence's redaction.

Transports do not call these directly: `service.py` is their one front door (allowed fields,
the transports' declared defaults), and it calls `run_explore`, `run_distill` and
`run_evidence` here; so the CLI, the language server and the MCP bridge give the same result
for the same index, byte for byte. The field readers and errors live on the bottom floor
(`model/fields.py`) and are re-exported here for the transports.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from .distill.engine import distill
from .distill.evidence import evidence
from .distill.request import HARD_CAP, RELEASE_CAP, parse_distill  # noqa: F401 (the caps, for callers)
from .distill.query import Ranking, use_ranking
from .explore.engine import explore, ranked_units
from .explore.ranker import weights_digest as explore_weights_digest
from .explore.model import ExploreRequest
from .framing import encode_frame, frame_bytes_for, reference_frame_bytes  # noqa: F401 (the frame, for callers)
from .index.index import RootIndex
from .model import protocol
from .model.canonical import canonical_json as encode_body  # noqa: F401 (the transports' serializer)
from .model.fields import InvalidParams, RequestFailed, get_bool, get_enum, get_int, get_str, require_object  # noqa: F401
from .render.guidance import no_answer
from .render.layout import explore_layout
from .render.markdown import redact_lines

Checkpoint = Callable[[], None]  # raises when the request was cancelled

# distill's question scenario seeds from explore's learned ranking; the engines never import each other
use_ranking(Ranking(lambda index, question, limit: [u.id for _, u in ranked_units(index, question, limit)], explore_weights_digest()))


def _no_checkpoint() -> None:
    return None



# ---- explore ---------------------------------------------------------------------------
def default_explore_budget(file_count: int) -> int:
    """Agent hosts inline ~25,000 characters; tiers by repository size (docs/explore.md), declared
    in the protocol (model/protocol.json)."""
    return protocol.explore_budget(file_count)


def parse_explore(params: Any, file_count: int, adaptive_default: bool = True) -> ExploreRequest:
    p = require_object(params)
    query = get_str(p, "query", required=True, max_len=protocol.param("explore", "query")["maxLength"])
    budget = get_int(p, "maxOutputChars", *protocol.bounds("explore", "maxOutputChars"), None) or default_explore_budget(file_count)
    adaptive = get_bool(p, "adaptive", adaptive_default)
    if os.environ.get("CODEGRAPH_ADAPTIVE_EXPLORE", "").strip() == "0":
        adaptive = False
    return ExploreRequest(query.strip(), budget, adaptive, get_bool(p, "includeTests", False))  # type: ignore[union-attr]


def run_explore(index: RootIndex, params: Any, checkpoint: Checkpoint = _no_checkpoint, adaptive_default: bool = True) -> dict:
    request = parse_explore(params, len(index.files), adaptive_default)
    result = explore(index, request, checkpoint)
    if not result["flow"] and not result["stats"]["candidates"]:  # nothing matched: say why and what to try
        result["text"] = no_answer(index, request.query, request.include_tests, request.max_output_chars)
        result["stats"]["chars"] = len(result["text"])
    # the text's structure as data (render/layout.py): clients link from it, not from the markdown
    sections, result["refs"] = explore_layout(result["text"], [f["path"] for f in result["files"]], index.files)
    for shown, where in zip(result["files"], sections):
        shown.update(where)
    return result


# ---- distill ---------------------------------------------------------------------------
def run_distill(index: RootIndex, params: Any, measure: Callable[[dict], int], checkpoint: Checkpoint = _no_checkpoint) -> dict:
    """`measure` gives the bytes of the message the transport sends for a result. The pack is
    budgeted on the larger of that and the reference frame (`framing.REFERENCE_ID`), so neither
    the request id nor a transport with a smaller envelope changes the pack."""

    def budgeted(result: dict) -> int:
        return max(reference_frame_bytes(result), measure(result))

    # the reference frame itself (the LSP's and the CLI's measure): one serialization a trial, not two
    return distill(index, parse_distill(require_object(params)), measure if measure is reference_frame_bytes else budgeted, checkpoint)


def run_evidence(index: RootIndex, params: Any) -> dict:
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
    """The CLI's distill: budgeted on the reference frame alone (it sends no message)."""
    return run_distill(index, params, reference_frame_bytes, checkpoint)
