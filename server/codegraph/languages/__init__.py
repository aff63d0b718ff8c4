"""The language registry: one spec per language; adding a language adds one spec module."""

from __future__ import annotations

from .javascript import JAVASCRIPT, TSX, TYPESCRIPT
from .jvm import JAVA, KOTLIN
from .python import SPEC as PYTHON
from .spec import LanguageSpec
from .systems import GO, RUST

SPECS: tuple[LanguageSpec, ...] = (PYTHON, TYPESCRIPT, TSX, JAVASCRIPT, JAVA, KOTLIN, GO, RUST)
BY_NAME = {s.name: s for s in SPECS}
_BY_EXTENSION = {ext: s for s in SPECS for ext in s.extensions}


def spec_for_path(path: str, enabled: frozenset[str] | None = None) -> LanguageSpec | None:
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    spec = _BY_EXTENSION.get(name[dot:].lower()) if 0 < dot < len(name) - 1 else None  # PurePosixPath.suffix
    if spec is None or (enabled is not None and spec.name not in enabled):
        return None
    return spec


__all__ = ["SPECS", "BY_NAME", "LanguageSpec", "spec_for_path"]
