"""Where an explore answer's text shows what, as data, so clients link without parsing markdown.

Clients need three things to turn the text into links: where each file's section starts, which
text lines show which source lines, and where a `path:line` is written in prose (the flow's hops,
its entry, the closest candidates when nothing matched). The text is laid out by this floor
(`markdown.section`, `markdown.numbered`: a `#### path …` header, a fence, then only `N<TAB>line`
and `⋮` lines) and explore's flow listing; it is read back here, once, on the server, which knows
the exact path of every section (the result's `files`, in the order they are shown) and every
indexed path (so a `path:line` in prose is a reference only when the path is a file of the index,
never a guess). Positions are 0-based line numbers of the text split at "\n": no columns, because
columns count differently in every client (UTF-16, bytes, code points), while each client finds
a known path or line number in a line itself.
"""

from __future__ import annotations

import re
from typing import Container

from .markdown import ELIDED

_NUMBERED = re.compile(r"(\d+)\t")
_PATH_LINE = re.compile(r"(?<![^\s(`])([^\s(`]+):(\d+)(?!\d)")


def explore_layout(text: str, section_paths: list[str], indexed: Container[str]) -> tuple[list[dict], list[dict]]:
    """(one {"textLine", "ranges"} per section path, in order; the prose references).

    `ranges` are runs of consecutive shown source lines: {"textLine": t, "start": s, "end": e}
    means text lines t … t + (e - s) show source lines s … e. A section whose header is not in
    the text (never expected) gets textLine None and no ranges."""
    lines = text.split("\n")
    sections: list[dict] = [{"textLine": None, "ranges": []} for _ in section_paths]
    refs: list[dict] = []
    n = 0  # the next section expected
    t = 0
    while t < len(lines):
        line = lines[t]
        if n < len(section_paths) and line.startswith(f"#### {section_paths[n]} "):
            sections[n]["textLine"] = t
            t = _read_fence(lines, t + 1, sections[n]["ranges"])
            n += 1
            continue
        for m in _PATH_LINE.finditer(line):
            if m.group(1) in indexed:
                refs.append({"textLine": t, "path": m.group(1), "line": int(m.group(2))})
        t += 1
    return sections, refs


def _read_fence(lines: list[str], t: int, ranges: list[dict]) -> int:
    """Reads the fenced block opening at line t into `ranges`; returns the line after its end."""
    if t >= len(lines) or not lines[t].startswith("```"):
        return t
    fence = lines[t][: len(lines[t]) - len(lines[t].lstrip("`"))]
    t += 1
    while t < len(lines) and lines[t] != fence:
        m = _NUMBERED.match(lines[t])
        if m:
            number = int(m.group(1))
            last = ranges[-1] if ranges else None
            if last is not None and last["end"] + 1 == number and last["textLine"] + (number - last["start"]) == t:
                last["end"] = number
            else:
                ranges.append({"textLine": t, "start": number, "end": number})
        elif lines[t] != ELIDED:
            return t  # not a body line: the fence ended unexpectedly
        t += 1
    return t + 1
