"""`codegraph/evidence`: stateless re-read of pack sources with sha256 identity checks.

Open buffers win over disk (the index holds their text); a file whose disk content no
longer matches the indexed digest is "content-modified", never silently re-read.
"""

from __future__ import annotations

import re

from ..index.extract import sha256
from ..model import protocol
from ..model.fields import InvalidParams, get_int, key_name
from ..workspace.scope import is_secret_path

DEFAULT_MAX_BYTES: int = protocol.PROTOCOL["requests"]["evidence"]["defaultMaxBytes"]
MAX_SOURCES: int = protocol.param("evidence", "sources")["maxItems"]
SOURCE_FIELDS: tuple[str, ...] = tuple(protocol.param("evidence", "sources")["items"]["properties"])
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _source(raw: object, n: int) -> tuple[str, int, int, str]:
    field = f"sources[{n}]"
    if not isinstance(raw, dict):
        raise InvalidParams(field, "must be an object {path, lines, sha256}")
    for key in sorted(raw):  # an unknown field is refused, as a request's unknown parameters are (service.prepare)
        if key not in SOURCE_FIELDS:
            raise InvalidParams(f"{field}.{key_name(key)}", f"is not a field of a source (fields: {', '.join(SOURCE_FIELDS)})")
    path, lines, digest = raw.get("path"), raw.get("lines"), raw.get("sha256")
    if not isinstance(path, str) or not path or len(path) > 4000:
        raise InvalidParams(f"{field}.path", "must be a non-empty relative path")
    if (not isinstance(lines, list) or len(lines) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in lines)
            or not 1 <= lines[0] <= lines[1]):
        raise InvalidParams(f"{field}.lines", "must be [start, end] with 1 ≤ start ≤ end")
    if not isinstance(digest, str) or not HEX64.match(digest.lower()):
        raise InvalidParams(f"{field}.sha256", "must be 64 hex digits")
    return path, lines[0], lines[1], digest.lower()


def _outside(index, path: str) -> bool:
    parts = path.split("/")
    if path.startswith(("/", "\\")) or "\\" in path or SCHEME.match(path) or ".." in parts or "." in parts or "" in parts:
        return True
    if is_secret_path(path):
        return True
    rel, reason = index.scope.check_abs(str(index.root / path))
    return rel != path or reason is not None


def _current(index, path: str) -> tuple[bytes | None, str]:
    """(text, error) for an indexed path: the snapshot text if it still matches disk (or is an open buffer)."""
    facts, text = index.files.get(path), index.sources.get(path)
    if facts is None or text is None:
        return None, "not-found"
    if path in index.open_docs:
        return text, ""
    try:
        raw = (index.root / path).read_bytes()
    except OSError:
        return None, "not-found"
    return (text, "") if sha256(raw) == facts.sha256 else (None, "content-modified")


def evidence(index, params: dict) -> dict:
    raw_sources = params.get("sources")
    if not isinstance(raw_sources, list) or not raw_sources or len(raw_sources) > MAX_SOURCES:
        raise InvalidParams("sources", f"must be a list of 1–{MAX_SOURCES} sources")
    wanted = [_source(s, n) for n, s in enumerate(raw_sources)]
    budget = get_int(params, "maxBytes", *protocol.bounds("evidence", "maxBytes"), DEFAULT_MAX_BYTES)
    blocks: list[dict] = []
    spent = 0
    for path, start, end, digest in wanted:
        head = {"path": path, "lines": [start, end]}
        if _outside(index, path):
            blocks.append({**head, "error": "outside-scope"})
            continue
        text, error = _current(index, path)
        if text is not None and index.files[path].sha256 != digest:
            error = "content-modified"  # the pack was made from other content
        if error or text is None:
            blocks.append({**head, "error": error or "not-found"})
            continue
        lines = text.split(b"\n")
        total = len(lines) - 1 if text.endswith(b"\n") else len(lines)
        if end > total:
            blocks.append({**head, "error": "not-found"})
            continue
        chunk = b"\n".join(lines[start - 1 : end])
        if spent + len(chunk) > budget:  # never truncate a block: it is delivered whole or not at all
            blocks.append({**head, "error": "over-budget"})
            continue
        spent += len(chunk)
        blocks.append({**head, "text": chunk.decode("utf-8", "replace")})
    return {"blocks": blocks}
