"""Pure helpers for keeping the index in step with the editor.

LSP positions count UTF-16 code units; tree-sitter wants UTF-8 byte offsets and (row, byte
column) points. `apply_changes` replays a didChange's content changes on our own copy of the
text (pygls has already applied them to its copy) and yields tree-sitter InputEdits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

InputEdit = tuple[int, int, int, tuple[int, int], tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class Change:
    """One content change: a range (start line/char, end line/char) or None for the full text."""

    text: str
    range: tuple[int, int, int, int] | None


_EOL = re.compile(r"\r\n|\r|\n")  # LSP line terminators; a lone \r ends a line too (tree-sitter rows do not)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in _EOL.finditer(text))
    return starts


def _char_offset(text: str, starts: list[int], line: int, utf16_col: int) -> int:
    """Code-point offset of an LSP position; positions past the end clamp, as LSP says."""
    if line >= len(starts):
        return len(text)
    pos = starts[line]
    end = len(text)
    if line + 1 < len(starts):
        end = starts[line + 1]
        end -= 2 if text[end - 2 : end] == "\r\n" and end - 2 >= pos else 1
    units = 0
    while pos < end and units < utf16_col:
        units += 2 if ord(text[pos]) > 0xFFFF else 1
        pos += 1
    return pos


def _point(text: str, offset: int) -> tuple[int, int]:
    row = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    return row, len(text[line_start:offset].encode("utf-8", "surrogatepass"))


def apply_changes(text: str, changes: list[Change]) -> tuple[str, list[InputEdit] | None]:
    """New text and the edits that lead there (None when a full replace makes edits moot)."""
    edits: list[InputEdit] | None = []
    for change in changes:
        if change.range is None:
            text = change.text
            edits = None
            continue
        starts = _line_starts(text)
        sl, sc, el, ec = change.range
        start = _char_offset(text, starts, sl, sc)
        end = max(start, _char_offset(text, starts, el, ec))
        new_text = text[:start] + change.text + text[end:]
        if edits is not None:
            start_byte = len(text[:start].encode("utf-8", "surrogatepass"))
            old_end_byte = start_byte + len(text[start:end].encode("utf-8", "surrogatepass"))
            new_end_byte = start_byte + len(change.text.encode("utf-8", "surrogatepass"))
            edits.append(
                (start_byte, old_end_byte, new_end_byte, _point(text, start), _point(text, end), _point(new_text, start + len(change.text)))
            )
        text = new_text
    return text, edits
