"""Per-file facts: the immutable records every later stage reads.

Lines are 1-based and inclusive; bytes are offsets into the UTF-8 text, end exclusive.
Records are immutable (named tuples and a frozen dataclass) so a snapshot can share them
safely. Units, calls, imports and supertypes are NamedTuples because a warm start builds
hundreds of thousands of them from the cache and `tuple.__new__` is several times cheaper than
a frozen dataclass's `__init__`.
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

# Bump whenever extraction output changes: cached facts with another version are re-parsed.
EXTRACTOR_VERSION = "110"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A call's receiver is kept as written up to this many characters; a longer one is cut, and a cut
# receiver may end where a shorter expression would (`a.b(x)` of `a.b(x).c()`): nothing binds through it.
MAX_RECEIVER = 120
ELEMENT_OF = "∈"  # a local_types entry naming the collection a loop variable walks
HOLDS = "≔"  # a local_types entry naming the field read a local is initialised by (`t := r.conn`)
# a local_types entry naming the enum variant and position whose payload a pattern binds
# (`Value::String(ref f) => …`: `⊂Value::String(0)`); the enum's attrs hold `String(0)`: its type
VARIANT_OF = "⊂"
# a lambda's implicit parameter in local_types is named with the lambda's span (`it·120·164`): which
# lambda's `it` a call names is a question of where the call is (each lambda's its own binding)
SPANNED = "·"
# after ELEMENT_OF: the second of two names a loop binds from each item (`for name, route in
# routes.items()`), which the language's `spec.pair_views` say is a value of the mapping
PAIR_SECOND = "₂"
# after ELEMENT_OF: the one name a loop binds where the language gives it each item's first part (Go's
# `for k := range m`: a map's key, a channel's element), which the language's `spec.first_type` reads
FIRST_OF = "₁"

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
    param_types: tuple[str, ...] = ()  # each parameter's declared type name, "" when none (aligned with param_names)
    # (name, type name) of locals a callable declares with a type; "" when two declarations disagree
    # or, where the language records every local (`complete_locals`), when it has no declared type;
    # a loop's variable holds an element of what it iterates: ELEMENT_OF + that expression's text
    # (`for h in self.handlers` → "∈self.handlers"; the resolver reads its declared element type);
    # a local initialised by a field read holds it: HOLDS + the read (`conn := s.conn` → "≔s.conn");
    # a lambda's implicit parameter is named with the lambda's span (SPANNED)
    local_types: tuple[tuple[str, str], ...] = ()
    returns: str = ""  # a callable's declared return type name, "" when none or not one named type
    # each result's declared type name when a callable lists its results (Go `(*Command, []string,
    # error)`, `(made *Command)`; Rust's tuple `-> (A, B)`), "" for one that is no single named type;
    # () for any other callable
    results: tuple[str, ...] = ()
    # (member name, what it holds) of a type: a declared type name, or "Callee()" when assigned
    # the result of a call/construction (`self.x = Foo()`). A declared type binds calls through the
    # member where the language's types are static (`spec.declared_fields`); the rest is for the
    # ranked graph only, never proof
    attrs: tuple[tuple[str, str], ...] = ()
    # the type an extension function extends (Kotlin `fun Buffer.readX()`): `this` in its body, and
    # what `x.readX()` is called on; "" for every other unit. For the ranked graph, never proof
    ext_type: str = ""
    # the object a definition is assigned onto when its qualname leaves that object out: a CommonJS
    # export (`exports.isStream = function …` is `isStream`, assigned to `exports`); "" for every other
    # unit. The resolver files it as that object's member, never as a name of its module's scope
    assigned_to: str = ""
    # (fewest, most) arguments a call of a callable may pass, most -1 when unbounded (Java `T...`,
    # Kotlin `vararg`; a Kotlin parameter with a default value may be left out); () when not recorded
    # (every language but Java and Kotlin): overloads are told apart by it (`Call.args`)
    arity: tuple[int, ...] = ()

    @property
    def is_callable(self) -> bool:
        return self.kind in CALLABLE_KINDS

    @property
    def is_type(self) -> bool:
        return self.kind in CLASS_KINDS


def bodiless(u: Unit) -> bool:
    """A declaration with no body of its own (an interface's or abstract method, a Go interface's
    method): a signature, not code that runs."""
    return u.is_callable and u.sig_end_byte >= u.end_byte


def in_test_module(u: Unit) -> bool:
    """A unit inside an inline test module (Rust's `#[cfg(test)] mod tests`), or one whose own
    attributes make it test code (`#[test]`, `#[tokio::test]`, `#[cfg(test)]`): test code in a
    source file (explore and distill both leave it out)."""
    return _test_qualname(u.qualname) or (bool(u.decorators) and _test_attributes(u.decorators))


# A Rust attribute naming the test harness (`#[test]`, `#[tokio::test(flavor = …)]`) or a cfg
_RUST_ATTRIBUTE = re.compile(r"#\[\s*((?:\w+::)*)(\w+)\s*(.*)\]\s*$", re.S)
_CFG_TOKEN = re.compile(r'\s*(?:(\w+)|(")(?:[^"\\]|\\.)*"|(.))', re.S)


@lru_cache(maxsize=4096)
def _test_attributes(decorators: tuple[str, ...]) -> bool:
    return any(rust_test_attribute(d) for d in decorators)


@lru_cache(maxsize=4096)
def rust_test_attribute(attribute: str) -> bool:
    """Whether a Rust attribute makes an item test code: a test attribute, or a `cfg` whose
    predicate holds only under `cargo test` (`test`, `all(test, …)`; not `any(test, …)`, `not(test)`)."""
    m = _RUST_ATTRIBUTE.match(attribute)
    if m is None:
        return False
    if m.group(2) == "test" and (not m.group(3) or m.group(3).startswith("(")):
        return True
    return m.group(2) == "cfg" and not m.group(1) and _cfg_needs_test(m.group(3))


def _cfg_needs_test(args: str) -> bool:
    """`(predicate)` of a `#[cfg]`: whether it is true only when `test` is set."""
    tokens = [t.group(1) or t.group(2) or t.group(3) for t in _CFG_TOKEN.finditer(args) if t.group(0).strip()]
    # each open predicate: [operator, needs-test of each argument so far]
    stack: list[tuple[str, list[bool]]] = [("all", [])]
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if tok in ("all", "any", "not") and nxt == "(":
            stack.append((tok, []))
        elif tok == ")" and len(stack) > 1:
            op, args_ = stack.pop()
            needs = any(args_) if op == "all" else (bool(args_) and all(args_)) if op == "any" else False
            stack[-1][1].append(needs)
        elif tok not in ("(", ")", ",", "=", '"') and nxt != "(":
            stack[-1][1].append(tok == "test" and nxt != "=")
        if len(stack) > 32:
            return False
    return len(stack) == 1 and any(stack[0][1])


@lru_cache(maxsize=262_144)
def _test_qualname(qualname: str) -> bool:
    return any(seg in ("tests", "test") for seg in qualname.split(".")[:-1])


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
    # the locals a destructuring initialises from each position of the result, comma-joined, ""
    # for a position that binds no plain local: `a,b,c` of Go `a, b, c := f()`, `,b` of Rust
    # `let (_, b) = f()` (its first position's local is `assigned_to` too); "" for every other call
    assigned_rest: str = ""
    # how many arguments the call passes (a Kotlin trailing lambda counts), -1 when not recorded
    # (every language but Java and Kotlin): chooses among overloads by their `Unit.arity`
    args: int = -1
    # the receiver of the lambda with receiver the call is written in, when `this` there is another
    # object than the enclosing function's (Kotlin `x.apply { f() }`, `with(x) { f() }`): `x` as
    # written, "?" for one the text cannot name (`buildString { … }`); "" for every other call
    within: str = ""
    # what each argument says about its type, comma-joined (Java and Kotlin, "" for the others and
    # when no argument says anything): a plain name (a parameter or local), `this`, `"` for a string
    # literal, `:Foo` for Java's `new Foo(…)` or `(Foo) x`, "" for any other expression: chooses
    # among overloads of one count
    arg_words: str = ""


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


def referenced_names(
    calls: Sequence[Call], imports: Sequence[Import], supertypes: Sequence[Supertype], refs: Sequence[Call] = ()
) -> tuple[str, ...]:
    """Every name a file's references can bind through (the resolver's reverse index: which
    files must be re-resolved when a name's definitions change; the ranked graph's candidate
    callers). Functions handed over as values (`refs`) count too."""
    names = {c.name for c in calls}
    names.update(c.receiver.split(".")[0].split("::")[0] for c in calls if c.receiver)
    # a receiver that is a call chain (`new Builder().name(…)`) binds through every name in it
    names.update(w for c in calls if "(" in c.receiver for w in _IDENTIFIER.findall(c.receiver))
    names.update(r.name for r in refs)
    for imp in imports:
        names.update(x for x in (imp.name, imp.alias) if x)
        names.add(imp.module.replace("::", ".").replace("/", ".").rsplit(".", 1)[-1])
    names.update(s.name for s in supertypes)
    return tuple(sorted(names))


class DeferredCalls(Sequence):
    """A cached file's call records, decoded on first use. A warm start reads the units, imports
    and stored bindings of every file but the calls of almost none: decoding Django's 177,000
    calls up front was a fifth of it. Compares, hashes and iterates like the tuple it stands for."""

    __slots__ = ("_rows", "_ids", "_calls")

    def __init__(self, rows: bytes, ids: list[str]) -> None:
        self._rows: bytes | None = rows  # marshal: [(caller unit index or -1, *Call fields after caller), ...]
        self._ids: list[str] | None = ids
        self._calls: tuple[Call, ...] | None = None

    def materialize(self, rows: list | None = None) -> tuple[Call, ...]:
        """The records; `rows`: what raw_rows() returned, if at hand (not decoded again)."""
        calls = self._calls
        if calls is None:  # two threads may both decode: the results are equal, either one is kept
            ids, new = self._ids, tuple.__new__
            if rows is None:
                rows = marshal.loads(self._rows)
            calls = tuple(new(Call, (ids[row[0]] if row[0] >= 0 else None, *row[1:])) for row in rows)
            self._calls, self._rows, self._ids = calls, None, None
        return calls

    def raw_rows(self) -> list | None:
        """The encoded rows, decoded without building records ((caller unit index or -1, *Call
        fields after caller)): enough to read names from; None once the records are built."""
        rows = self._rows
        return marshal.loads(rows) if rows is not None else None

    def may_hold(self, names: Iterable[str]) -> bool:
        """False only when none of `names` occurs in the encoded rows (which hold every string
        they encode at least once): no record names one of them. True once decoded."""
        rows = self._rows
        return rows is None or any(n.encode() in rows for n in names)

    def __len__(self) -> int:
        return len(self.materialize())

    def __getitem__(self, i):  # type: ignore[override]
        return self.materialize()[i]

    def __iter__(self) -> Iterator[Call]:
        return iter(self.materialize())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DeferredCalls):
            other = other.materialize()
        return self.materialize() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.materialize())

    def __repr__(self) -> str:
        return f"DeferredCalls({'decoded' if self._calls is not None else 'pending'})"


@dataclass(frozen=True, slots=True)
class FileFacts:
    path: str  # root-relative, POSIX separators
    language: str
    sha256: str
    size: int
    lines: int
    units: tuple[Unit, ...] = ()
    calls: tuple[Call, ...] | DeferredCalls = ()  # deferred when read from the cache
    imports: tuple[Import, ...] = ()
    supertypes: tuple[Supertype, ...] = ()
    package: str = ""  # Java/Kotlin package, Go package name
    parse_errors: int = 0  # ERROR/MISSING nodes in the tree
    extractor_version: str = field(default=EXTRACTOR_VERSION)
    # referenced_names() of the calls, imports and supertypes, computed once (stored in the cache
    # so the resolver's index needs no decoded calls); None = compute on demand
    referenced: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    # functions and methods handed over as values (callback arguments, table entries, `this::m`):
    # Call records (construct False) for the ranked graph only; the resolver never binds them
    refs: tuple[Call, ...] | DeferredCalls = ()
    # what distill reads of the syntax tree, kept so that a request parses no file (index/extract.py
    # `_distill_marks`): marshal bytes of (error handler spans, boundary marks), b"" when none
    distill_marks: bytes = field(default=b"", compare=False, repr=False)
    # (exported name, local name) of a CommonJS module's `exports.X = Y;` statements at module level,
    # Y a plain name: compiled ES modules export so (`exports.Store = Store;`), and `require` of such a
    # module returns an object whose member X is what Y names there (so does `module.exports = { X: Y }`);
    # ("", Y) of `module.exports = Y;` and `export default Y;` (the module's own value); ("default.X", Y)
    # of `export default { X: Y }` (its members); () for every other file
    export_aliases: tuple[tuple[str, str], ...] = ()
    # a platform variant by what the file says, not its name: a Go file whose build constraint
    # leaves it out of a default build on a common platform (`//go:build darwin || freebsd`)
    platform_variant: bool = False

    def names_referenced(self) -> tuple[str, ...]:
        if self.referenced is not None:
            return self.referenced
        return referenced_names(self.calls, self.imports, self.supertypes, self.refs)
