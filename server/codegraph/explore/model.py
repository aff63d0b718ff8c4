"""The explore request as the engine sees it (validated by the transports' shared contract)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExploreRequest:
    query: str
    max_output_chars: int
    adaptive: bool = True
    include_tests: bool = False
