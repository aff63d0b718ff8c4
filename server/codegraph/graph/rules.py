"""The ranked graph's vocabulary: the edge record, each rule's calibrated confidence, and the
pure helpers the rule families share (receiver segments, arity, path tiers, per-file context).
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from functools import lru_cache
from typing import NamedTuple

from ..index.facts import Call, DeferredCalls, FileFacts, Unit
from ..model.facts import MAX_RECEIVER
from ..languages import spec_for_path
from ..workspace.scope import is_side_module, is_test_path


class Likely(NamedTuple):
    src: str  # caller unit id
    dst: str  # callee/referenced unit id
    line: int  # call/reference site line in src's file
    confidence: float  # 0..1, calibrated: measured precision of the rule
    rule: str  # short plain name of the rule that proposed it


# Calibrated confidence of one proposed target per rule: its measured precision
# (bench/bench_likely.py on the 12 development corpora). Two measures: (a) resolved edges
# hidden and recovered — an upper bound, since resolved sites are the easy ones; (a2) Python
# unknown sites and references checked against jedi's goto — the sites the rules are for, but
# jedi answers mostly where the receiver is a builtin or library object. Where (a2) has a
# sample it decides; rules neither measure can test (dispatch alternatives, protocols) carry
# a prior, marked. A rule proposing k targets for one site gives each `_K_FACTOR[k]` of it
# (measured: k=2 0.47-0.51, k=3 0.32-0.33).
PROTOTYPE_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})  # `T.prototype.m` is T's method m
RULE_CONFIDENCE: dict[str, float] = {
    "resolved": 1.0,
    # functions handed over as values: (a2) 255/255 and 96/96
    "callback-ref": 0.95,
    "method-value": 0.95,
    # typed receivers: (a2) attr-type 13/13, field-type 28/28, return-type 10/10, local-type 3/3;
    # (a) declared-type 449/449, local-type 172/172
    "attr-type": 0.95,
    "field-type": 0.95,
    "declared-type": 0.95,
    "local-type": 0.95,
    "return-type": 0.9,
    "base-method": 0.9,  # (a) 712/712, (a2) 1/1: members defined twice in the type or its bases
    # bare names the resolver could not bind (JavaScript default imports, re-exports): (a) 0.99-1.00
    # at k=1 on 1179-1665 sites; (a2) too few Python sites (most bare unknowns are builtins)
    "same-file": 0.9,
    "import-reach": 0.9,
    "same-package": 0.85,
    # `utils.merge()` where `utils` is an imported module or its default-exported object: the
    # function of that name defined at the top of the imported file
    "module-member": 0.9,
    "unique-name": 0.2,  # (a) 0/2, (a2) 0/7: a name defined once elsewhere is usually a builtin's namesake
    # untyped member calls are mostly calls into libraries and builtins: (a2). Since the guards of
    # graph/foreign.py (no guess on a receiver known to hold a builtin's or a library's value), (a2)
    # on x-requests, flask, x-click and celery (300 sites each), before → after: receiver-name
    # 0.45 → 0.50, member-same-file 0.24 → 0.27, member-import-reach 0.09 → 0.12, unique-name 0/44 →
    # 0/25, all rules 0.61 → 0.68; jedi's answer a builtin or a library's 268 → 193 of 963/937 sites.
    # The confidences stay at the twelve-corpus calibration below until it is measured again
    "receiver-name": 0.3,  # (a) 270/270 but (a2) 0.13-0.17; a hand check of 12 sites jedi cannot answer: 9 right
    "member-same-file": 0.25,  # (a2) 0.20-0.24
    "member-import-reach": 0.06,  # (a2) 0.05-0.06
    # priors, not measurable by hiding (they add alternatives to a bound target) nor by jedi
    # (which answers the declared method): kept below the measured rules
    "family-dispatch": 0.5,  # / sqrt(number of implementations)
    "wide-dispatch": 0.5,  # the same, for families of 9-16 implementations (a rule of its own)
    "subtype-method": 0.5,  # / sqrt(number of implementations)
    "protocol-call": 0.4,
    # a local named like a field of its method's own type, with no type of its own: that field,
    # destructured from self (Rust patterns): a hand check, see docs/explore.md
    "field-binding": 0.8,
    # a Rust future or stream built here is polled later (`Server { … }` → `Server::poll`): a hand
    # check of 25 sampled sites on two async corpora, 25 right (returned, spawned, awaited or
    # stored to be polled); kept at the typed rules' level, not above (the poll runs later)
    "built-protocol": 0.9,
    # `super(…)` / `super.m()`: the supertype's constructor or member
    "super-call": 0.95,
    # `Type.member()` where `Type` is an import binding a class of the imported file
    "class-member": 0.9,
    # a callable indexing a module-level table of functions of its file (`strategies[key]`)
    "table-lookup": 0.9,
    # `x.f()` reaching a Kotlin extension function `fun T.f()` in reach of the file (see
    # graph/extension.py): a hand check of 25 sampled edges, 24 right (docs/graph.md)
    "extension-call": 0.85,
    # `this.body = x` / `this.status` reading an accessor of its own type or object literal (see
    # graph/accessors.py): a hand check of 25 sampled edges, 25 right (docs/graph.md)
    "accessor-read": 0.9,
    # a Python string naming a definition by import path (graph/paths.py): a hand check of 24 sampled
    # edges, each names its definition, 23 loaded by path (docs/graph.md)
    "import-path": 0.9,
    # a method reading a property unit of its own type (`components.x()`, `this.cache.get()`: a
    # member with a getter, an initialiser block or an anonymous object): a hand check, see
    # docs/explore.md
    "member-read": 0.85,
    # `self.app = app` from an untyped constructor parameter: the one type the project's
    # constructions pass there (see graph/typed.py)
    "param-flow": 0.85,
    # `render(…)` where `render` is a parameter: the functions the resolved calls of its function
    # pass in that place (see graph/typed.py): a hand check of 50 sampled edges on 14 corpora, 50
    # right (docs/graph.md); a value handed over, like callback-ref
    "handed-in": 0.95,
    # `handler = make_handler(); handler(…)`: the function nested in the (resolved) maker that it
    # returns by name: every edge on 14 corpora checked by hand, 8/8 (docs/graph.md)
    "returned-function": 0.9,
}
_K_FACTOR = {1: 1.0, 2: 0.5, 3: 0.33}


# What each rule guessed, in the words a reader of an answer needs (explore's `## Flow` says
# "likely: …" with these; the JSON and the call queries keep the rule's name)
RULE_WORDS: dict[str, str] = {
    "callback-ref": "a function handed over as a value",
    "method-value": "a method handed over as a value",
    "attr-type": "the attribute's declared type has it",
    "field-type": "the field's declared type has it",
    "declared-type": "the receiver's declared type has it",
    "local-type": "the local's type has it",
    "return-type": "the type the receiver was made by has it",
    "base-method": "the method as the type or its base defines it",
    "same-file": "the one definition of that name in this file",
    "import-reach": "the one definition of that name in the files this one imports",
    "same-package": "the one definition of that name in this package",
    "module-member": "that name in the imported module",
    "unique-name": "the only definition of that name",
    "receiver-name": "a type named like the receiver has it",
    "member-same-file": "a method of that name in this file",
    "member-import-reach": "a method of that name in a file this one imports",
    "family-dispatch": "one of the overrides the call may run",
    "wide-dispatch": "one of the many overrides the call may run",
    "subtype-method": "a subtype's override the call may run",
    "protocol-call": "the protocol method the syntax runs",
    "field-binding": "a field taken apart from self",
    "built-protocol": "a future or stream built here, polled later",
    "super-call": "the supertype's member",
    "class-member": "a member of the imported class",
    "table-lookup": "a function from a table in this file",
    "extension-call": "an extension function on the receiver's type",
    "accessor-read": "an accessor of its own type",
    "import-path": "named by its import path in a string",
    "member-read": "a property of its own type",
    "param-flow": "the type the constructor is given",
    "handed-in": "the function its callers pass in",
    "returned-function": "the function its maker returns",
    # explore's own hops (explore/flow.py)
    "table-entry": "an entry of that table",
    "named-variant": "the named type's override of the method called",
}
MAX_NAME_CANDIDATES = 3  # more same-named definitions in the best locality tier: no guess
MAX_DISPATCH = 16  # overriding implementations listed for one call on a base/interface method
MAX_NARROW_DISPATCH = 8  # up to this many: `family-dispatch`; more: `wide-dispatch`
MAX_INTO_FILES = 48  # files that only share a common name, computed for one into()
CTOR_NAMES = ("__init__", "constructor")
_SECONDARY_DIRS = frozenset({"examples", "example", "docs", "doc", "benchmarks", "benchmark", "bench", "benches", "samples", "sample", "demo", "demos", "scripts", "website"})
# a docs or examples directory with a qualifier (`docs_src`, `examples-js`) is one too
_DOCS_WITH_QUALIFIER = re.compile(r"^[_.]?(docs?|documentation|examples?|samples?|demos?|tutorials?)[-_](?:src|sources?|code|snippets?|examples?|samples?|py|python|js|ts|go|rs|rust|java|kt|apps?|projects?)[\w-]*$", re.I)
_COMPILED_DIRS = frozenset({"dist", "build", "umd", "bundles"})  # not `lib/`: JavaScript packages keep their source there
_SOURCE_EXTS = (".ts", ".tsx", ".mts", ".cts")


def _type_args(text: str) -> list[str]:
    """Top-level type arguments: `Map<K, List<V>>` → [`K`, `List<V>`]."""
    for opener, closer in ("<>", "[]"):
        start = text.find(opener)
        if start > 0 and text.rstrip().endswith(closer):
            inner, depth, cur, out = text[start + 1 : text.rstrip().rfind(closer)], 0, "", []
            for ch in inner:
                if ch in "<[(":
                    depth += 1
                elif ch in ">])":
                    depth -= 1
                if ch == "," and depth == 0:
                    out.append(cur.strip())
                    cur = ""
                else:
                    cur += ch
            out.append(cur.strip())
            return [a.lstrip("?").replace("out ", "").replace("in ", "").replace("extends ", "").strip() for a in out if a.strip() not in ("", "?", "*")]
    return []


_SEGMENT = re.compile(r"^([A-Za-z_$][\w$]*)((?:\([^()]*\)|\[[^\[\]]*\])*)$")


# `list.get(i)`, `items.elementAt(0)`: a container's element, whose type is the declared type argument
ELEMENT_ACCESSORS = frozenset({"get", "elementAt", "getOrNull", "first", "last", "firstOrNull", "lastOrNull", "at"})
_ONE_INDEX = re.compile(r"\((?:\w+|\w+\s*[-+]\s*\d+)?\)")


def _segments(receiver: str) -> list[tuple[str, bool]] | None:
    """A receiver as (name, called) steps: `a.b` → [(a, F), (b, F)]; `handlers[p]` and
    `factories.get(i)` → [(handlers, F)] (an element keeps the declared element type);
    `x.make()` → [(x, F), (make, T)]; None when a step is no plain name with calls/indexes after it,
    or when the receiver was cut at the recorded length (it may end where a shorter expression would)."""
    hit = _segments_of(receiver)  # the same receiver text is read by several rules per site
    return list(hit) if hit is not None else None


@lru_cache(maxsize=65536)
def _segments_of(receiver: str) -> tuple[tuple[str, bool], ...] | None:
    if len(receiver) >= MAX_RECEIVER:
        return None
    parts = [p for p in _top_level_split(receiver.replace("::", ".").replace("?.", ".").replace("!!", "").replace("?", "")) if p]
    out: list[tuple[str, bool]] = []
    for part in parts:
        m = _SEGMENT.match(part.strip())
        if m is None:
            return None
        if out and m.group(1) in ELEMENT_ACCESSORS and _ONE_INDEX.fullmatch(m.group(2)):
            continue  # `factories.get(i)`: an element, like `handlers[p]`
        out.append((m.group(1), m.group(2).startswith("(")))
    return tuple(out) or None


def _top_level_split(receiver: str) -> list[str]:
    """`Chain(mx.middlewares...).x` → [`Chain(mx.middlewares...)`, `x`]: dots inside arguments
    and indexes are no steps."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(receiver):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "." and depth == 0:
            parts.append(receiver[start:i])
            start = i + 1
    parts.append(receiver[start:])
    return parts


def _unwrapped(receiver: str, wrappers: tuple[str, ...]) -> str:
    """`Pin::new(self.conn.as_mut().unwrap())` → `self.conn.as_mut().unwrap()`: a wrapper call
    hands back its one argument (a receiver with anything after the wrapper's parentheses stays)."""
    for w in wrappers:
        if receiver.startswith(w + "(") and receiver.endswith(")"):
            inner = receiver[len(w) + 1 : -1]
            depth = 0
            for ch in inner:  # the parentheses must close only at the end
                depth += (ch == "(") - (ch == ")")
                if depth < 0:
                    return receiver
            return inner.lstrip("&").removeprefix("mut ").strip() if depth == 0 else receiver
    return receiver


_NEAR_NAME_RULES = frozenset({"same-file", "import-reach", "same-package"})  # not a namesake anywhere
_STATIC = re.compile(rb"\s*(?:@\w+\s*)*(?:public\s+|protected\s+|private\s+)?static\b")


@lru_cache(maxsize=4096)
def _indexed(name: str) -> re.Pattern[bytes]:
    """`name[` as a whole identifier read by index (not a member `x.name[`, not a longer name)."""
    return re.compile(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"\s*\[")


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


def _calls(facts: FileFacts) -> tuple[Call, ...]:
    """A file's call records as a plain tuple (a cached file's are decoded on first use)."""
    calls = facts.calls
    return calls.materialize() if isinstance(calls, DeferredCalls) else calls  # type: ignore[return-value]


def _arity(source: bytes, call: Call) -> int:
    """How many arguments a call passes (commas at the top level of its first parentheses);
    -1 when the text does not say (no parentheses, a spread, a trailing lambda)."""
    text = source[call.start_byte : call.end_byte]
    open_ = text.find(b"(")
    if open_ < 0 or b"..." in text or text.rstrip().endswith(b"}"):
        return -1
    depth, commas, empty, quote = 0, 0, True, 0
    for ch in text[open_ + 1 :]:
        if quote:  # inside a string literal: its commas and brackets are text
            quote = 0 if ch == quote else quote
            continue
        if ch in b"\"'`":
            quote, empty = ch, False
        elif ch in b"([{":
            depth += 1
        elif ch in b")]}":
            if depth == 0:
                return 0 if empty else commas + 1
            depth -= 1
        elif ch == 44 and depth == 0:  # ","
            commas += 1
        if ch not in b" \t\r\n":
            empty = False
    return -1


@lru_cache(maxsize=65536)
def _dirname(path: str) -> str:
    return posixpath.dirname(path)


@lru_cache(maxsize=65536)
def _is_test(path: str) -> bool:
    return is_test_path(path)


@lru_cache(maxsize=65536)
def _secondary(path: str) -> int:
    """0 main source, 1 examples/docs/benchmarks, 2 compiled copies and declarations."""
    spec = spec_for_path(path)
    if spec is not None and spec.copy_suffixes and path.endswith(spec.copy_suffixes):  # declarations, bundles
        return 2
    parts = path.split("/")[:-1]
    if any(p in _COMPILED_DIRS for p in parts) and not path.endswith(_SOURCE_EXTS):
        return 2
    if any(p.lower().lstrip("_.") in _SECONDARY_DIRS or _DOCS_WITH_QUALIFIER.match(p) for p in parts) or is_side_module(path):  # `_examples/` too
        return 1
    return 0


_SUPER = re.compile(r"super\b")  # `super()`, `super(Cls, self)`, `super`, `super<Base>`
# a `private` modifier among a declaration's leading annotations and modifiers (Java, Kotlin, TypeScript, C#)
_PRIVATE = re.compile(
    rb"\s*(?:(?:@[\w.]+(?:\([^()]*\))?|/\*.*?\*/|//[^\n]*)\s*)*"
    rb"(?:(?:public|protected|internal|static|final|abstract|override|open|suspend|inline|async|readonly|synchronized|native|operator|infix|tailrec|external|sealed|virtual)\s+)*private\b",
    re.S,
)


def _private_name(name: str) -> bool:
    """A name a private member is declared with, never overridden: JavaScript's `#m`, Python's
    `__m` (mangled per class; `__init__` is no such name)."""
    return name.startswith("#") or (name.startswith("__") and not name.endswith("__"))


def _owner_name(unit_id: str) -> str:
    """`path::Outer.Base.method` → `Base` (the qualname's second-to-last step)."""
    qual = unit_id.partition("::")[2]
    return qual.rsplit(".", 2)[-2] if qual.count(".") >= 1 else ""


class _FileState:
    __slots__ = ("out",)

    def __init__(self) -> None:
        self.out: dict[str, list[Likely]] = defaultdict(list)


class _FileCtx:
    """What the rules read of one file beyond its facts: which call each resolved edge came
    from, and which calls initialise which locals."""

    __slots__ = ("call_dst", "assigned", "unresolved_by_caller", "refs_by_caller", "resolved_by_src", "children", "memo", "receivers_by_caller", "static_sites", "into_sites")

    def __init__(self, facts: FileFacts, bindings) -> None:
        self.call_dst: dict[int, str] = {}
        self.assigned: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.unresolved_by_caller: dict[str, list[int]] = defaultdict(list)
        self.refs_by_caller: dict[str, list[Call]] = defaultdict(list)
        self.resolved_by_src: dict[str, list] = defaultdict(list)
        self.children: dict[str, list[str]] = defaultdict(list)  # callable → callables nested directly in it
        self.memo: dict[tuple, list[tuple[Unit, float, str]]] = {}  # a (caller, receiver, name) site repeats often
        self.into_sites = None  # the sites by the names a call into a unit writes (graph/into.py), on first use
        unresolved = set(bindings.unresolved) if bindings is not None else set()
        edges = [e for e in bindings.edges if e.kind in ("calls", "constructs")] if bindings is not None else []
        calls = _calls(facts)
        resolved = [i for i in range(len(calls)) if i not in unresolved]
        # (caller, line, target) → "super" / "owner" for resolved calls that may run exactly their
        # target: through `super`, or through the target's own type named (`Base.__init__(self)`;
        # a trait's or an interface's name still dispatches: Rust's `Trait::m(self)`)
        self.static_sites: dict[tuple[str, int, str], str] = {}
        if len(resolved) == len(edges):  # the resolver emits one edge per resolved call, in order
            self.call_dst = {i: e.dst for i, e in zip(resolved, edges)}
            for i, e in zip(resolved, edges):
                receiver = calls[i].receiver
                if receiver and _SUPER.match(receiver):
                    self.static_sites[(e.src, e.line, e.dst)] = "super"
                elif receiver and receiver.replace("::", ".").rpartition(".")[2] == _owner_name(e.dst):
                    self.static_sites[(e.src, e.line, e.dst)] = "owner"
        for e in edges:
            self.resolved_by_src[e.src].append(e)
        self.receivers_by_caller: dict[str, dict[str, int]] = defaultdict(dict)  # caller → receiver text → first line
        for i, c in enumerate(calls):
            if c.assigned_rest and c.caller:  # a destructuring: every local it binds
                for local in {n for n in c.assigned_rest.split(",") if n}:
                    self.assigned[(c.caller, local)].append(i)
            elif c.assigned_to and c.caller:
                self.assigned[(c.caller, c.assigned_to)].append(i)
            if c.receiver and c.caller:
                self.receivers_by_caller[c.caller].setdefault(c.receiver, c.line)
        for i in sorted(unresolved):
            caller = calls[i].caller
            if caller:
                self.unresolved_by_caller[caller].append(i)
        for r in facts.refs:
            if r.caller:
                self.refs_by_caller[r.caller].append(r)
        by_id = {u.id: u for u in facts.units}
        for u in facts.units:
            parent = by_id.get(u.parent) if u.parent else None
            if parent is not None and u.is_callable and parent.is_callable:
                self.children[parent.id].append(u.id)

