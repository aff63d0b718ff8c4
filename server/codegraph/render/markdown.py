"""Markdown rendering shared by explore and distill: numbered source excerpts.

Every shown source line is `N<TAB>line`; an elided stretch is a single `⋮` line. Credential-
looking lines never leave the server: they are replaced by a visible redaction marker.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePosixPath

ELIDED = "⋮"
FENCE_LANG = {
    ".py": "python", ".pyi": "python", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".js": "javascript", ".jsx": "jsx", ".mjs": "javascript", ".cjs": "javascript", ".java": "java", ".kt": "kotlin",
    ".kts": "kotlin", ".go": "go", ".rs": "rust",
}
MODE_LABEL = {
    "full": "full",
    "focused": "focused (full bodies for the flow and the named methods; signatures for the rest)",
    "focused, excerpts": "focused (full bodies for the flow and the named methods but those marked (excerpt): "
    "signature, call sites, returns; signatures for the rest)",
    "skeleton": "skeleton (signatures only; read the file for a full body)",
    "clusters": "clusters (the relevant ranges; ⋮ marks elided lines)",
}
REDACTED = "[redacted: looks like a credential]"
_SECRET_LINE = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\bAKIA[0-9A-Z]{16}\b|\bASIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bxox[baprs]-[A-Za-z0-9-]{10,}|"
    r"\bsk-[A-Za-z0-9_-]{20,}|\bAIza[0-9A-Za-z_-]{35}\b|"
    r"(?i:(?:secret|passw(?:or)?d|passwd|api[_-]?key|access[_-]?key|auth[_-]?token|private[_-]?key|client[_-]?secret|token)\w*[\"']?\s*[:=]\s*[\"'][^\"'\s]{8,}[\"'])|"
    # a password in a URL's userinfo (`postgres://admin:s3cret@db/prod`), the commonest credential in
    # source; a template (`{user}:{password}@`, `${PASS}`, `%s`, `<password>`) is code, not a secret
    r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/@:'\"{}$%<>]*:[^\s/@'\"{}$%<>]{3,}@|"
    # a JSON Web Token (header.payload.signature), wherever it is written, also alone on a continued line
    r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"
)


_TRIGGERS = ("secret", "passw", "key", "token", "akia", "asia", "gh", "xox", "sk-", "aiza", "private", "://", "eyj")


def looks_secret(line: str) -> bool:
    low = line.lower()
    # Cheap substring prefilter: the full pattern runs only on lines that could match it.
    return any(t in low for t in _TRIGGERS) and bool(_SECRET_LINE.search(line))


@lru_cache(maxsize=65_536)
def redact(line: str) -> str:
    if not looks_secret(line):
        return line
    indent = line[: len(line) - len(line.lstrip())]
    return f"{indent}{REDACTED}"


def split_lines(source: bytes) -> list[str]:
    return source.decode("utf-8", "replace").splitlines()


def merge_ranges(ranges: list[tuple[int, int]], gap: int = 0) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1] + 1 + gap:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_key_blocks: dict[int, tuple[list[str], frozenset[int]]] = {}  # id(lines) → (lines, their key-block lines)


def key_block_lines(lines: list[str]) -> frozenset[int]:
    """1-based numbers of every line inside a private key block, BEGIN to END (to the end of the
    file when unterminated): the base64 body of a key matches no single-line pattern."""
    hit = _key_blocks.get(id(lines))
    if hit is not None and hit[0] is lines:
        return hit[1]
    inside: set[int] = set()
    open_at = 0
    for n, line in enumerate(lines, 1):
        if "PRIVATE KEY" not in line and not open_at:
            continue
        if not open_at and _KEY_BEGIN.search(line):
            open_at = n
        if open_at:
            inside.add(n)
            if _KEY_END.search(line):
                open_at = 0
    result = frozenset(inside)
    if len(_key_blocks) > 512:
        _key_blocks.clear()
    _key_blocks[id(lines)] = (lines, result)
    return result


def redact_lines(lines: list[str], first: int = 1, context: list[str] | None = None) -> list[str]:
    """`lines` (line `first` onward of the file `context`, or a whole file) with every credential-
    looking line, and every line of a private key block, replaced by the visible marker."""
    whole, start = (context, first) if context is not None else (lines, 1)
    blocks = key_block_lines(whole)
    return [line[: len(line) - len(line.lstrip())] + REDACTED if n in blocks else redact(line) for n, line in enumerate(lines, start)]


_formatted: dict[int, tuple[list[str], list[str | None], bytearray]] = {}  # id(lines) → (lines, shown lines, redacted flags)


def _shown_lines(lines: list[str]) -> tuple[list[str | None], bytearray]:
    """Each line as `numbered` shows it (`N<TAB>line`, redacted), filled as excerpts reach it: a
    file excerpted again and again (explore's packing tries every body) formats a line once."""
    hit = _formatted.get(id(lines))
    if hit is not None and hit[0] is lines:
        return hit[1], hit[2]
    if len(_formatted) > 512:
        _formatted.clear()
    shown: list[str | None] = [None] * len(lines)
    flags = bytearray(len(lines))
    _formatted[id(lines)] = (lines, shown, flags)
    return shown, flags


def numbered(lines: list[str], ranges: list[tuple[int, int]]) -> tuple[str, int]:
    """The excerpt for 1-based inclusive line ranges, and how many lines were redacted."""
    out: list[str] = []
    redacted = 0
    last = 0
    total = len(lines)
    shown, flags = _shown_lines(lines)
    blocks: frozenset[int] | None = None
    for start, end in merge_ranges([(max(1, s), min(total, e)) for s, e in ranges if s <= e]):
        if start > last + 1:
            out.append(ELIDED)
        if end < start:  # an empty range still moves `last`, as the line loop did
            last = end
            continue
        part = shown[start - 1 : end]
        if None in part:
            if blocks is None:
                blocks = key_block_lines(lines)
            for n in range(start, end + 1):
                if shown[n - 1] is None:
                    line = lines[n - 1]
                    safe = line[: len(line) - len(line.lstrip())] + REDACTED if n in blocks else redact(line)
                    flags[n - 1] = safe is not line
                    shown[n - 1] = f"{n}\t{safe}"
            part = shown[start - 1 : end]
        out += part
        redacted += sum(flags[start - 1 : end])
        last = end
    if last < total and out:
        out.append(ELIDED)
    return "\n".join(out), redacted  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def fence_lang(path: str) -> str:
    return FENCE_LANG.get(PurePosixPath(path).suffix.lower(), "")


def mode_label(mode: str, excerpts: bool = False) -> str:
    """A section's mode as its heading says it. A focused section holding an excerpt (explore's
    cut of a flow body too long for what was left, its name marked) says so: "full bodies" never
    claims a body shown in part."""
    return MODE_LABEL["focused, excerpts"] if excerpts and mode == "focused" else MODE_LABEL[mode]


def section(path: str, symbols: list[str], mode: str, body: str, max_symbols: int = 8, excerpts: list[str] = ()) -> str:
    """A file's section; `excerpts` are the `symbols` shown in part, named even past `max_symbols`."""
    listed = symbols[:max_symbols] + [s for s in symbols[max_symbols:] if s in excerpts]
    names = ", ".join(listed) + (f", +{len(symbols) - len(listed)} more" if len(symbols) > len(listed) else "")
    fence = "````" if "```" in body else "```"
    label = mode_label(mode, bool(excerpts))
    head = f"#### {path} — {names} · {label}" if names else f"#### {path} · {label}"
    return f"{head}\n{fence}{fence_lang(path)}\n{body}\n{fence}\n"
