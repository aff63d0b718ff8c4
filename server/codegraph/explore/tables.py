"""Per-version tables explore reads (names, words, families) and what makes a unit one of a
family's interchangeable members; rebuilt only when the index version changes."""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from ..graph.structural import families
from ..index.facts import Unit
from ..index.index import RootIndex
from ..workspace.manifest import rust_crates
from . import persist
from .relevance import NameTable, WordIndex


MIN_SIBLINGS = 3


MIN_WIRED_NAMES = 3  # a registration naming this many of the flow's callables wires them


@dataclass
class Derived:
    """Per-version tables explore reads; rebuilt only when the index version changes."""

    version: int
    names: NameTable
    words: WordIndex
    implementers: dict[str, set[str]]  # resolved supertype id → implementer type ids
    supers: dict[str, list[tuple[str, str]]]  # type id → [(supertype id, display name)]
    # top-level function id → the size of its shape family (same parameter and return types,
    # SHAPE_FAMILY_MIN or more across SHAPE_FAMILY_FILES files): Go middleware, operator functions
    shape_family: dict[str, int] = field(default_factory=dict)
    # module-level registration statements → the identifiers they spell as strings (`delegate(…)
    # .access('body')`): read by `_wiring`
    registrations: dict[str, frozenset[str]] = field(default_factory=dict)
    # what later stages derive from this version alone, by name, built on first use (`per_version`)
    memo: dict[str, object] = field(default_factory=dict)
    interchangeable: dict[str, bool] = field(default_factory=dict)  # unit id → `_interchangeable`


_tables_lock = threading.Lock()  # one builder at a time: the LSP prebuilds while a question may arrive


def derived(index: RootIndex) -> Derived:
    # Kept on the index itself: keyed by id(index) in a module dict it outlived the index and
    # could answer for a new index that got the same id at the same version number.
    hit = index.memo.get("explore")
    if hit is not None and hit.version == index.version:
        return hit
    with _tables_lock:
        hit = index.memo.get("explore")
        if hit is not None and hit.version == index.version:
            return hit
        return _build_derived(index)


def _build_derived(index: RootIndex) -> Derived:
    before = index.memo.get("explore")  # the last version's tables: its names and words are updated, not read again
    crates = rust_crates(index.root, index.files)
    names = before.names.updated(index.files, crates, index.sources) if before is not None else NameTable(index.files, crates, index.sources)
    units = index.resolver.units
    implementers = families(index)
    supers: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for dst, srcs in implementers.items():
        for src in srcs:
            supers[src].append((dst, units[dst].name if dst in units else dst))
    # Only resolved edges to definitions in scope form families: `Exception`, `str` or a
    # framework base outside the workspace never make their subclasses interchangeable siblings.
    stored = persist.load_words(index) if before is None else None  # a CLI run's, or the last session's
    if before is not None:
        words = before.words.updated(index.files, index.sources)
    else:
        words = stored or WordIndex(index.files, index.sources)
        persist.loaded(index)  # the ranked graph's edges stored for this snapshot
    d = Derived(index.version, names, words, implementers, supers, _shape_families(index), _registrations(index))
    if stored is not None:
        d.memo["words-read"] = persist.snapshot_key(index)  # nothing to store again at close
    index.memo["explore"] = d
    return d


SHAPE_FAMILY_MIN = 4


# values and containers of them say nothing about a function's role
PRIMITIVE_TYPES = frozenset(
    "str int float bool bytes None Any object dict list tuple set frozenset Optional Union List Dict Set Tuple Iterable Iterator "
    "Sequence Mapping Callable Generator string number boolean void any unknown never Array Record Map Promise error byte rune "
    "uint uint8 uint16 uint32 uint64 int8 int16 int32 int64 float32 float64 usize isize u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 "
    "Vec Option Result Box String Int Long Boolean Double Float Unit Object Integer".split()
)


def _base_type(text: str) -> str:
    """`list[str]` → list, `Promise<T>` → Promise, `*http.Handler` → http.Handler."""
    return text.lstrip("*&").split("[", 1)[0].split("<", 1)[0].strip()


SHAPE_FAMILY_FILES = 3


def _shape_families(index: RootIndex) -> dict[str, int]:
    """Interchangeable functions without a declared family: top-level functions of one shape
    that wrap what they take (`func X(next http.Handler) http.Handler`), spread over several
    files. Structural typing has no `implements` to find them by."""
    by_shape: dict[tuple, list[Unit]] = defaultdict(list)
    for facts in index.files.values():
        for u in facts.units:
            # one shape: the same parameter types and a returned type that is not a primitive
            if u.kind == "function" and u.parent is None and u.returns and any(u.param_types) and _base_type(u.returns) not in PRIMITIVE_TYPES:
                by_shape[(facts.language, u.param_types, u.returns)].append(u)
    out: dict[str, int] = {}
    for members in by_shape.values():
        if len(members) >= SHAPE_FAMILY_MIN and len({u.path for u in members}) >= SHAPE_FAMILY_FILES:
            for u in members:
                out[u.id] = len(members)
    return out


T = TypeVar("T")


def per_version(d: Derived, name: str, build: Callable[[], T]) -> T:
    """A table that depends on the index version alone, built once per version (on `d`, which
    a new version replaces)."""
    hit = d.memo.get(name)
    if hit is None:
        hit = d.memo[name] = build()
    return hit  # type: ignore[return-value]


def _interchangeable(d: Derived, u: Unit) -> bool:
    """One of a family's members: a shape-family function, or a method or type whose type
    extends a supertype with MIN_SIBLINGS or more implementers."""
    hit = d.interchangeable.get(u.id)
    if hit is None:
        owner = u.id if u.is_type else u.parent
        hit = d.interchangeable[u.id] = u.id in d.shape_family or any(
            family_size(d, key) >= MIN_SIBLINGS for key, _ in d.supers.get(owner or "", [])
        )
    return hit


def family_size(d: Derived, key: str) -> int:
    return len(d.implementers.get(key, ()))


_STRING = re.compile(rb"['\"]([A-Za-z_$][\w$]*)['\"]")


def _registrations(index: RootIndex) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for path, facts in index.files.items():
        source = index.sources.get(path, b"")
        for u in facts.units:
            if u.kind == "statement" and u.stmt_kind == "registration" and u.parent is None:
                spelled = frozenset(m.group(1).decode() for m in _STRING.finditer(source, u.start_byte, u.end_byte))
                if len(spelled) >= MIN_WIRED_NAMES:
                    out[u.id] = spelled
    return out
