"""The deterministic proxies from explore.md, computed on an explore result and a gold file."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^#### (\S+)(?: — .*)? · (full|focused|skeleton|clusters)", re.M)


def sections(text: str) -> dict[str, tuple[str, set[int]]]:
    """path → (mode, line numbers shown) for every file section of an explore text."""
    out: dict[str, tuple[str, set[int]]] = {}
    heads = list(_HEADER.finditer(text))
    for i, m in enumerate(heads):
        body = text[m.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        shown = {int(line.split("\t", 1)[0]) for line in body.splitlines() if re.match(r"^\d+\t", line)}
        out[m.group(1)] = (m.group(2), shown)
    return out


def spine_recall(text: str, index, spine: list[str]) -> float:
    """Share of gold spine symbols whose whole body (every line) is in the output."""
    shown = sections(text)
    hits = 0
    for sid in spine:
        unit = index.resolver.units.get(sid)
        assert unit is not None, f"gold names a symbol the index does not have: {sid}"
        mode, lines = shown.get(unit.path, ("", set()))
        hits += all(n in lines for n in range(unit.start_line, unit.end_line + 1))
    return hits / len(spine) if spine else 1.0


def sibling_skeleton_rate(text: str, siblings: list[str]) -> float | None:
    """Among gold siblings present in the output, the share rendered as skeletons."""
    shown = sections(text)
    present = [p for p in siblings if p in shown]
    if not present:
        return None
    return sum(shown[p][0] == "skeleton" for p in present) / len(present)
