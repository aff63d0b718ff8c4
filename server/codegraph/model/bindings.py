"""What resolution proved of a file: its edges, and the calls it could not resolve."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Edge(NamedTuple):
    src: str  # unit id, or a file path for file-level relations
    dst: str
    kind: str  # calls|constructs|imports|extends|implements
    line: int
    path: str  # file the relation is written in


@dataclass(frozen=True, slots=True)
class FileBindings:
    edges: tuple[Edge, ...]
    unresolved: tuple[int, ...]  # indexes into FileFacts.calls with no provable target
