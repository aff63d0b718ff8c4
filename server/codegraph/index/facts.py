"""Per-file facts: the immutable records every later stage reads.

Lines are 1-based and inclusive; bytes are offsets into the UTF-8 text, end exclusive.
Records are immutable (named tuples and a frozen dataclass) so a snapshot can share them
safely. Units, calls, imports and supertypes are NamedTuples because a warm start builds
hundreds of thousands of them from the cache and `tuple.__new__` is several times cheaper than
a frozen dataclass's `__init__`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

# Bump whenever extraction output changes: cached facts with another version are re-parsed.
EXTRACTOR_VERSION = "8"

CLASS_KINDS = frozenset({"class", "interface", "trait", "struct", "enum", "object", "record", "impl"})
CALLABLE_KINDS = frozenset({"function", "method", "constructor"})


class Unit(NamedTuple):
    """A definition or a module-level statement with exact syntax spans."""

    id: str  # "path::Qualified.name" (a "#n" suffix disambiguates repeated definitions)
    path: str
    name: str
    qualname: str
    kind: str  # class|interface|trait|struct|enum|object|record|impl|function|method|constructor|variable|statement
    start_byte: int  # decorators/annotations included
    end_byte: int
    start_line: int
    end_line: int
    name_line: int  # the line that names the symbol (after decorators)
    sig_end_line: int  # last line of the signature (multi-line signatures intact)
    sig_end_byte: int
    parent: str | None = None
    decorators: tuple[str, ...] = ()
    doc: str = ""  # first line of the docstring or leading comment
    stmt_kind: str = ""  # for module statements: main_guard|registration|wiring|...
    params: int = -1  # number of parameters for callables, -1 if unknown
    receiver: str = ""  # the name a method's own object goes by: self, this, Go's `(s *Server)` → s
    param_names: tuple[str, ...] = ()  # parameters shadow outer names inside a callable

    @property
    def is_callable(self) -> bool:
        return self.kind in CALLABLE_KINDS

    @property
    def is_type(self) -> bool:
        return self.kind in CLASS_KINDS


class Call(NamedTuple):
    """A call or construction expression as written; its target is resolved later."""

    caller: str | None  # enclosing unit id (None only when no unit encloses it)
    name: str  # last identifier of the callee ("execute" in "self.compiler.execute(...)")
    receiver: str  # text before the last "." / "::" ("self.compiler"), "" if bare
    line: int
    start_byte: int
    end_byte: int
    construct: bool = False  # syntactically a construction ("new X()", Go composite literal)
    assigned_to: str = ""  # `x` when the result initialises a plain local (`x = Foo()`, `val x = Foo()`)


class Import(NamedTuple):
    module: str  # as written: "pkg.mod", "./x", "okhttp3", "net/http"
    name: str  # imported name, "" for a whole-module import, "*" for a star import
    alias: str  # local name it binds ("" = the default local name)
    line: int
    level: int = 0  # Python relative import level


class Supertype(NamedTuple):
    unit: str  # id of the class-like unit that declares it
    name: str  # last identifier of the supertype ("Interceptor")
    text: str  # as written ("okhttp3.Interceptor", "Base[T]")
    kind: str  # extends|implements


@dataclass(frozen=True, slots=True)
class FileFacts:
    path: str  # root-relative, POSIX separators
    language: str
    sha256: str
    size: int
    lines: int
    units: tuple[Unit, ...] = ()
    calls: tuple[Call, ...] = ()
    imports: tuple[Import, ...] = ()
    supertypes: tuple[Supertype, ...] = ()
    package: str = ""  # Java/Kotlin package, Go package name
    parse_errors: int = 0  # ERROR/MISSING nodes in the tree
    extractor_version: str = field(default=EXTRACTOR_VERSION)

    def defined_names(self) -> frozenset[str]:
        return frozenset(u.name for u in self.units if u.kind != "statement")
