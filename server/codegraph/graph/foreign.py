"""Receivers the index knows to hold something that is not the project's: a member call on them
names a builtin's or a library's method, so no rule guesses a project method of that name
(`kwargs.get("stream")` is no `Session.get`, `sb.toString()` on a `new StringBuilder()` no
`Lookup.toString`).

Known exactly (no guess at all), all from the index's facts and the caller's own text:
- a literal receiver (`", ".join(…)`, `[a, b].index(…)`)
- a variadic parameter (`*args`, `**kwargs`, `...rest`, `vararg xs`): a tuple, dict or array,
  unless the body replaces it
- a local or field every assignment of which in its scope (nested functions' bodies left out) is
  a literal (`{}`, `[]`, `""`), a builtin maker (`dict()`, `mutableListOf()`) or a construction of
  a type the project does not define (`new StringBuilder()`, `HashMap::new()`, `OrderedDict()`);
  the None-default idiom (`x = x or {}`, `x = x if x is not None else {}`) counts as its literal
- a declared string type (final: no project type is one), a type the project does not define
  named bare (`Long.toString`, `Math.max`, `JSON.parse`)
Known as declared (a project type implementing a library type may still be the value, so only
such types' methods stay targets):
- a parameter, local or field declared as a builtin container (the short list below, per
  language) or as a type the project defines nowhere whose type arguments name none of its types
  (`Type`, `t.TextIO`, `context.Context`)
- a library module's attribute (`os.environ`, `sys.stdout`): Python and JavaScript imports the
  resolver left unmapped, not relative, naming no directory or file of the project
Anything else is unknown and the rules guess as before. The lists are language builtins, never
names of a corpus.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, FileFacts, Unit
from ..languages import BY_NAME
from ..model.facts import ELEMENT_OF, HOLDS
from .rules import _segments, _top_level_split

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex  # noqa: F401

# builtin strings and scalars: a call on one returns a builtin again (`sb.append(x).append(y)`)
SCALAR_TYPES = frozenset({
    "str", "bytes", "int", "float", "bool", "complex",  # Python
    "String", "StringBuilder", "StringBuffer", "CharSequence", "Int", "Long", "Double", "Float",
    "Boolean", "Short", "Byte", "Char", "Integer", "Character",  # Java, Kotlin
    "string", "number", "boolean", "bigint",  # JavaScript, TypeScript, Go
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64",  # Rust
    "char",
})
# builtin containers: a call on one is the container's method; an element read from it
# (`list.get(i)`, `map[k]`) keeps the element type, which the typed rules read
CONTAINER_TYPES = frozenset({
    "list", "dict", "set", "frozenset", "tuple", "bytearray", "List", "Dict", "Set", "FrozenSet",
    "Tuple", "Sequence", "MutableSequence", "Mapping", "MutableMapping", "Iterable", "Iterator",
    "Collection", "OrderedDict", "defaultdict", "deque", "Counter", "DefaultDict", "Deque",  # Python
    "ArrayList", "LinkedList", "Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap",
    "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "Queue", "ArrayDeque", "MutableList",
    "MutableMap", "MutableSet", "MutableCollection", "MutableIterable", "MutableIterator",
    "Array", "ListIterator",  # Java, Kotlin (List, Map, Set, Collection above)
    "WeakMap", "WeakSet", "ReadonlyArray", "Record", "ReadonlyMap", "ReadonlySet",  # JavaScript, TypeScript
    "Vec", "VecDeque", "BTreeMap", "BTreeSet", "BinaryHeap",  # Rust (HashMap, HashSet above)
})
# builtin functions that make a container or a string (`dict(…)`, `mutableListOf(…)`)
BUILTIN_MAKERS = {
    "dict": "container", "list": "container", "set": "container", "frozenset": "container",
    "tuple": "container", "bytearray": "container", "defaultdict": "container", "deque": "container",
    "str": "scalar", "bytes": "scalar", "repr": "scalar", "sorted": "container",  # Python
    "listOf": "container", "mutableListOf": "container", "arrayListOf": "container", "mapOf": "container",
    "mutableMapOf": "container", "hashMapOf": "container", "linkedMapOf": "container", "setOf": "container",
    "mutableSetOf": "container", "hashSetOf": "container", "linkedSetOf": "container", "arrayOf": "container",
    "emptyList": "container", "emptyMap": "container", "emptySet": "container", "buildString": "scalar",
    "buildList": "container", "buildMap": "container",  # Kotlin
}
# Rust associated functions that make a value of their type (`HashMap::new()`)
_MAKING_ASSOCIATED = frozenset({"new", "with_capacity", "default", "new_in", "from_iter", "with_hasher"})
# attributes every Python object carries, of builtin types
_BUILTIN_DUNDERS = frozenset({"__dict__", "__name__", "__qualname__", "__module__", "__doc__", "__annotations__", "__mro__", "__slots__", "__all__"})
# a declared type that says nothing (`Any`, `object`): duck typing, not a library's value
_UNTYPED = frozenset({"Any", "any", "unknown", "object", "Object", "dynamic", "interface{}", "T"})

_TYPE_PARAM = re.compile(r"[A-Z][A-Z0-9]?|T[A-Z]\w*")
# a declared type's text: modifiers and references dropped, union alternatives, `Optional[…]`, type arguments
_MODIFIERS = re.compile(r"&(?:'\w+)?|\bmut\s+|\breadonly\s+|\bconst\s+|\bfinal\s+|\bdyn\s+|\bimpl\s+|[*?!]")
_SPACES = re.compile(r"\s+")
_UNION = re.compile(r"\s*\|\s*")
_OPTIONAL = re.compile(r"(?:typing\.)?Optional\[(.*)\]")
_TYPE_ARGS_OPEN = re.compile(r"[<\[(]")
_MODULE_SEP = re.compile(r"[./]")
_PATH_SEP = re.compile(r"[./:]")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


def _literal_kind(rhs: str, dicts: bool) -> str:
    """"scalar"/"container" when an expression's text is one literal (`"a"`, `[a, b]`, `{}` where
    `dicts`; not `"a".upper()` nor `[a, b][0]`), else ""."""
    rhs = rhs.strip()
    kind = _literal_start(rhs, dicts)
    if kind == "scalar":
        whole = _NUMBER.fullmatch(rhs) or _STRING.fullmatch(rhs) or (rhs.startswith("format!(") and _closes_at_end(rhs[7:]))
        return kind if whole else ""
    if kind == "container":
        if rhs.startswith("map["):  # `map[string]int{…}`
            opened = rhs.find("{")
        else:
            opened = rhs.find("[") if rhs.startswith("vec!") else 0
        return kind if opened >= 0 and _closes_at_end(rhs[opened:]) else ""
    return ""


_NUMBER = re.compile(r"-?\d[\w.]*")
_STRING_START = re.compile(r"""(?:[rRbBfFuU]{1,2})?["'`]""")
_STRING = re.compile(
    r"(?:[rRbBfFuU]{1,2})?"
    r"""(?:"{3}[\s\S]*"{3}|'{3}[\s\S]*'{3}|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)"""
)


def _literal_start(rhs: str, dicts: bool) -> str:
    """"scalar"/"container" when an expression's text starts a literal: a number, a string (with
    the prefixes `f`, `b`, `r`, `u`), an array or list `[…]`, a Go map `map[…]…{…}`, Rust's
    `vec![…]` and `format!(…)`; `{…}` only where it is a dict (`dicts`: in JavaScript it is an
    object that may hold the project's functions, in Rust a block, in Kotlin a lambda)."""
    if not rhs:
        return ""
    if _NUMBER.match(rhs) or _STRING_START.match(rhs):
        return "scalar"
    if rhs.startswith("format!("):
        return "scalar"
    if rhs[0] == "[" or rhs.startswith(("map[", "vec![")) or (dicts and rhs[0] == "{"):
        return "container"
    return ""


def _dict_scoping(spec) -> bool:
    """Python's scoping and literals: an assignment alone makes its name a local of the function it
    is in (a module name at the top), and `{…}` is a dict. Its spec states Python through its import
    system (`module_system` "python"); no other supported language scopes names so."""
    return spec is not None and spec.module_system == "python"


def _closes_at_end(text: str) -> bool:
    """The bracket that opens `text` closes at its end (`[a, b]`, not `[a, b][0]`)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch in "([{") - (ch in ")]}")
        if depth == 0:
            return i == len(text) - 1
    return False


_CALL_HEAD = re.compile(r"(?:new\s+)?([A-Za-z_$][\w$.:]*?)\s*(?:::)?(?:<[^()]*>)?\s*\(")


def _call_text(rhs: str) -> tuple[str, str] | None:
    """`new java.util.HashMap<>(…)` → ("java.util", "HashMap"); `HashMap::new()` → ("HashMap", "new");
    None when the expression is not one call (its parentheses closing at the end)."""
    m = _CALL_HEAD.match(rhs)
    if m is None:
        return None
    depth = 0
    rest = rhs[m.end() - 1 :].rstrip().rstrip(";").rstrip()
    for i, ch in enumerate(rest):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            if i != len(rest) - 1:
                return None
            break
    callee = m.group(1).replace("::", ".").strip(".")
    receiver, _, name = callee.rpartition(".")
    return receiver, name


# what precedes an assigned name on its line (indentation, a declaration keyword, `self.`) and
# what follows it (a type annotation, `=` or `:=`, the right side)
_BEFORE_TARGET = re.compile(
    rb"(?P<indent>[ \t]*)(?P<decl>(?:export\s+)?(?:pub(?:\([^)\n]*\))?\s+)?(?:let|const|var|val|static)\s+(?:mut\s+)?)?(?P<member>(?:self|this)\.)?"
)
_AFTER_TARGET = re.compile(rb"[ \t]*(?::(?!:)[^=\n()\"']+)?(?P<op>:=|=(?![=>]))[ \t]*(?P<rhs>.*)")
# other ways a name is bound on its line, as (pattern before it, pattern after it): a loop
# target, `as name`, a tuple target, a destructuring, `global`/`nonlocal`, an assignment expression
_OTHER_BINDINGS = (
    (re.compile(rb".*\bfor\b"), re.compile(rb"[^\n:;]*?[ \t)\]]\b(?:in|of)\b")),
    (re.compile(rb".*\bas[ \t]+$"), re.compile(rb"")),
    (re.compile(rb"[ \t]*[\w$ ()\[\]*]*,[\w$ ()\[\]*,]*$"), re.compile(rb"[\w$ ()\[\]*,]*(?::=|=(?!=))")),
    (re.compile(rb"[ \t]*[\w$ ()\[\]*]*$"), re.compile(rb"[ \t]*,[\w$ ()\[\]*,]*(?::=|=(?!=))")),
    (re.compile(rb".*\b(?:let|const|var)[ \t]*[\[{][^=;]*$"), re.compile(rb"[^=;]*[\]}][ \t]*=")),
    (re.compile(rb".*\b(?:global|nonlocal)\b"), re.compile(rb"")),
    (re.compile(rb".*\($"), re.compile(rb"[ \t]*:=")),
    # a parameter of an anonymous function: `(req, done) =>`, `done =>`, `function (err, done)`, `lambda done:`
    (re.compile(rb".*\([^()]*$"), re.compile(rb"[^()\n]*\)[ \t]*(?::[^=\n]*)?=>")),
    (re.compile(rb"(?:.*[^\w$.])?$"), re.compile(rb"[ \t]*=>")),
    (re.compile(rb".*\bfunction\b[ \t*]*[\w$]*[ \t]*\([^()]*$"), re.compile(rb"[^()\n]*\)")),
    (re.compile(rb".*\blambda\b[^:\n]*$"), re.compile(rb"[^:\n]*:")),
)
_NONE_DEFAULTS = (  # `x or {}`, `x if x is not None else {}`, `{} if x is None else x`, `x ?? []`, `x || []`
    re.compile(r"(?P<a>[\w$]+)\s+(?:or|\|\||\?\?)\s+(?P<lit>.+)"),
    re.compile(r"(?P<a>[\w$]+)\s+if\s+(?P<b>[\w$]+)\s+is\s+not\s+None\s+else\s+(?P<lit>.+)"),
    re.compile(r"(?P<lit>.+?)\s+if\s+(?P<b>[\w$]+)\s+is\s+None\s+else\s+(?P<a>[\w$]+)"),
    re.compile(r"(?P<lit>.+?)\s+if\s+not\s+(?P<b>[\w$]+)\s+else\s+(?P<a>[\w$]+)"),
)
_VARIADIC = re.compile(rb"(?:\*\*?|\.\.\.)\s*([A-Za-z_$][\w$]*)|\bvararg\s+([A-Za-z_]\w*)|\b([A-Za-z_]\w*)\s+\.\.\.")
_ALIAS_EXTS = (".ts", ".tsx", ".mts", ".cts", ".rs", ".kt", ".kts", ".go")  # languages with type aliases (`type X =`, `typealias`)
_GENERIC_PARAMS = re.compile(rb"[<\[,]\s*([A-Za-z_]\w*)\b\s*(?:extends\b|:|,|>|\]|=)")


class _Bindings:
    """Where a file binds a name: its assignments (`name = …`, `self.name = …`) and the other
    binding forms, found per name on first use (the lines that spell it)."""

    __slots__ = ("source", "memo")

    def __init__(self, source: bytes) -> None:
        self.source = source
        # (name, start, end) → ([(offset, right side, member, at the line's start, with a declaration
        # keyword)], [(offset of another binding, it keeps the name: an object destructuring's shorthand)])
        self.memo: dict[tuple[str, int, int], tuple[list[tuple[int, str, bool, bool, bool]], list[tuple[int, bool]]]] = {}

    def _scan(self, name: str, start: int = 0, stop: int = -1) -> tuple[list[tuple[int, str, bool, bool, bool]], list[tuple[int, bool]]]:
        """The bindings of `name` in source[start:stop] (the whole source by default)."""
        key = (name, start, stop)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        src, word = self.source, name.encode()
        assigns: list[tuple[int, str, bool, bool, bool]] = []
        others: list[tuple[int, bool]] = []
        size = len(src)
        limit = size if stop < 0 else min(stop, size)
        n, ident = len(word), _IDENT_BYTES
        at = src.find(word, start, limit)
        while at >= 0:
            end = at + n
            if (at and src[at - 1] in ident) or (end < size and src[end] in ident):
                at = src.find(word, end, limit)  # inside a longer name: most occurrences, decided cheaply
                continue
            nxt = end
            while nxt < size and src[nxt] in (32, 9):
                nxt += 1
            follows = src[nxt] if nxt < size else 10
            # a binding is followed by `=`, `:` (an annotation, `:=`), `,`, a closing bracket, the end
            # of its line or `in`/`of` (a loop target); a use by anything else (`(`, `.`, `[`, …)
            if follows in _BINDING_FOLLOWERS or src[nxt : nxt + 3] in (b"in ", b"of ", b"in\t"):
                line_start = src.rfind(b"\n", 0, at) + 1
                line_end = src.find(b"\n", end)
                line_end = len(src) if line_end < 0 else line_end
                before, after = src[line_start:at], src[end:line_end]
                b = _BEFORE_TARGET.fullmatch(before)
                a = _AFTER_TARGET.match(after) if b is not None else None
                if b is not None and a is not None:
                    if not (b.group("member") and b.group("decl")):
                        rhs = a.group("rhs").decode("utf-8", "replace").strip().rstrip(";").strip()
                        declares = b.group("decl") is not None or a.group("op") == b":="  # `let x = …`, Go's `x := …`
                        assigns.append((at, rhs, b.group("member") is not None, not b.group("indent"), declares))
                elif _binding_line(before, after) and any(pb.match(before) and pa.match(after) for pb, pa in _OTHER_BINDINGS):
                    # `const { mount, patch: p } = app`: `mount` is app's `mount` by name
                    opener = max(before.rfind(b"{"), before.rfind(b"["))
                    named = opener >= 0 and before[opener : opener + 1] == b"{" and not before.rstrip().endswith(b":") and after.lstrip()[:1] != b":"
                    others.append((at, named))
                elif not before.strip() and after.strip() in (b"", b",") and _in_destructuring(src, at):
                    others.append((at, True))  # a line of a multi-line `const {\n  parentNode,\n} = internals`
            at = src.find(word, end, limit)
        hit = self.memo[key] = (assigns, others)
        return hit

    def assigned(self, name: str, start: int, end: int, member: bool, holes: tuple = ()) -> list[str]:
        """The right sides of `name`'s assignments in source[start:end], outside the `holes` (the
        bodies of the functions nested there: other scopes)."""
        return [rhs for at, rhs, mem, _, _ in self._scan(name, start, end)[0] if mem == member and not _in(at, holes)]

    def declared(self, name: str, start: int, end: int, holes: tuple = ()) -> bool:
        """A declaration of `name` in source[start:end] (`let`/`const`/`var`/`val`, `:=`)."""
        return any(decl and not mem and not _in(at, holes) for at, _, mem, _, decl in self._scan(name, start, end)[0])

    def top(self, name: str, python: bool) -> list[str]:
        """Module-level assignments: at a line's start, with a declaration keyword outside Python
        (a line of a multi-line string that looks like one has none)."""
        return [rhs for _, rhs, mem, col0, decl in self._scan(name)[0] if not mem and col0 and (python or decl)]

    def other(self, name: str, start: int, end: int, named: bool = True, holes: tuple = ()) -> bool:
        """Another binding of `name` in source[start:end]; `named=False` leaves out an object
        destructuring's shorthand (`const { mount } = app`), which keeps the property's name."""
        return any((named or not keeps) and not _in(at, holes) for at, keeps in self._scan(name, start, end)[1])


def _in(at: int, spans: tuple) -> bool:
    return any(a <= at < b for a, b in spans)


_BRACES = re.compile(rb"[{}]")  # the brackets a destructuring's pattern is found by (C speed, not a loop per byte)
_DECLARING_END = re.compile(rb"\b(?:let|const|var)\s*$")
_ASSIGNED_AFTER = re.compile(rb"\s*(?::[^=;{}]+)?=(?![=>])")


def _in_destructuring(src: bytes, at: int) -> bool:
    """The name at `at` stands alone on its line inside `{ … }` that a destructuring assigns
    (`const {` … `} = x`, nested patterns included)."""
    depth, i = 0, -1
    for m in reversed(list(_BRACES.finditer(src, max(0, at - 4000), at))):  # the `{` that opens the pattern
        if src[m.start()] == 125:  # }
            depth += 1
        elif depth == 0:
            i = m.start()
            break
        else:
            depth -= 1
    if i < 0:
        return False
    head = src[max(0, i - 200) : i].rstrip()
    while head.endswith(b":"):  # a nested pattern `o: {`: climb to the pattern around it
        return _in_destructuring(src, i)
    if not _DECLARING_END.search(head):
        return False
    depth = 0
    for m in _BRACES.finditer(src, at, min(len(src), at + 4000)):  # the `}` that closes it, then `=`
        j = m.start()
        if src[j] == 123:
            depth += 1
        elif depth == 0:
            return _ASSIGNED_AFTER.match(src[j + 1 : j + 200]) is not None
        else:
            depth -= 1
    return False


_BINDING_FOLLOWERS = frozenset(b"=:,)]};\r\n")


def _binding_line(before: bytes, after: bytes) -> bool:
    """A cheap look at the line before the patterns of `_OTHER_BINDINGS` run."""
    return (
        b"for" in before or b"as" in before or b"global" in before or b"nonlocal" in before
        or (b"=" in after and (b"," in before or b"," in after or b"{" in before or b"[" in before))
        or (before.endswith(b"(") and b":=" in after)
        or b"=>" in after or b"function" in before or b"lambda" in before
    )


def _ident_byte(ch: int) -> bool:
    return ch == 36 or ch == 95 or 48 <= ch <= 57 or 65 <= ch <= 90 or 97 <= ch <= 122 or ch >= 128  # `$`, `_`, alphanumerics


_IDENT_BYTES = frozenset(ch for ch in range(256) if _ident_byte(ch))


def _none_default(rhs: str, name: str) -> str:
    """The None-default idiom of `name` (`_NONE_DEFAULTS`): the literal's text (both sides hold one
    type); "" for any other expression."""
    for pattern in _NONE_DEFAULTS:
        m = pattern.fullmatch(rhs.strip())
        if m and m.group("a") == name and (m.groupdict().get("b") in (None, name)):
            return m.group("lit")
    return ""


class ForeignValues:
    """Mixin of LikelyGraph: is a receiver known to hold a builtin's or a library's value."""

    index: "RootIndex"

    def _foreign(self, facts: FileFacts, caller: Unit | None, receiver: str) -> str:
        """"exact" when `receiver` holds a value of a builtin's or a library's type made here (a
        literal, a construction, `**kwargs`) or of a final builtin (a string): a member call on it
        runs no project method. "declared" when it is only declared so (a parameter typed
        `List<…>`, `Type`, a library module's attribute): a project type implementing that
        library type may be the value. "" when unknown."""
        key = (caller.id if caller is not None else facts.path, receiver)
        hit = self._memo_foreign.get(key)
        if hit is None:
            hit = self._memo_foreign[key] = self._find_foreign(facts, caller, receiver.strip())
        return hit

    def _find_foreign(self, facts: FileFacts, caller: Unit | None, receiver: str) -> str:
        if _literal_kind(receiver, _dict_scoping(BY_NAME.get(facts.language))):  # `", ".join(…)`, `[a, b].index(x)`; not `[a, b][0].run()`
            return "exact"
        if receiver.rpartition(".")[2] in _BUILTIN_DUNDERS:  # `self.__dict__.update(…)`
            return "exact"
        steps = _segments(receiver)
        if steps is None or steps[0][1] or "[" in receiver or len(steps) != len(_top_level_split(receiver.replace("::", ".").replace("?.", "."))):
            return ""  # a call first, or an element of a container (`xs[i]`, `xs.get(i)`): its own type
        method, owner = self._enclosing(caller)
        head = steps[0][0]
        rest = steps[1:]
        self_words = {"self", "this", "Self"} | ({method.receiver} if method is not None and method.receiver else set())
        if head in self_words:
            if owner is None or not rest or rest[0][1]:
                return ""
            kind = self._member_kind(owner, rest[0][0]) or ""
            rest = rest[1:]
        else:
            kind = self._value_kind(facts, caller, owner, head)
        base = kind.removeprefix("made:")
        if not base:
            return ""
        if not rest:
            return "exact" if kind.startswith("made:") or base in ("scalar", "class") else "declared"
        if base == "scalar":  # `sb.append(x).append(y)`, `s.strip().lower()`
            return "exact" if all(called for _, called in rest) else ""
        if base in ("module", "class", "library"):  # `os.path`, `sys.stdout`, `System.out`: a library's attributes
            # (not a type the project defines or implements: `ser::Error::custom(…)` runs an impl)
            return "" if any(called or self._project_type_name(facts, name) for name, called in rest) else "declared"
        return ""

    # ---- what a name holds ------------------------------------------------------------------
    def _value_kind(self, facts: FileFacts, caller: Unit | None, owner: Unit | None, name: str) -> str:
        """What `name` is known to hold there: "scalar", "container" or "library" (its declared
        type), the same prefixed "made:" (a value made in its scope: its type exactly), "module" (a
        library's module) or "class" (a type the project does not define, named bare); "" when
        unknown or the project's."""
        resolver = self.index.resolver
        source = self.index.sources.get(facts.path, b"")
        assigned = self._ctx(facts.path).assigned
        bindings = self._bindings(facts.path)
        spec = BY_NAME.get(facts.language)
        python = _dict_scoping(spec)
        cur = caller
        while cur is not None and not cur.is_type:
            if cur.is_callable or cur.kind == "statement":
                start = cur.sig_end_byte if cur.is_callable else cur.start_byte
                holes = self._holes(cur)
                if name in cur.param_names:
                    at = cur.param_names.index(name)
                    if self._variadic(source, cur, name):  # a tuple, dict or array, unless the body replaces it
                        if not bindings.assigned(name, start, cur.end_byte, False, holes):
                            return "made:container"
                        return self._assigned_kind(facts, start, cur.end_byte, name, member=False, holes=holes)
                    declared = cur.param_types[at] if at < len(cur.param_types) else ""
                    if declared:
                        return self._type_kind(facts, cur, declared)
                    # an untyped parameter: known only when the body replaces it (`x = x or {}`)
                    return self._assigned_kind(facts, start, cur.end_byte, name, member=False, holes=holes)
                declared = next((t for n, t in cur.local_types if n == name), None)
                if declared and not declared.startswith((ELEMENT_OF, HOLDS)):  # a loop variable's, a held read's: the resolver's question
                    return self._type_kind(facts, cur, declared)
                # a local of this scope: declared here (Python: assigned here)
                if (
                    declared is not None or (cur.id, name) in assigned
                    or (bindings.assigned(name, start, cur.end_byte, False, holes) if python else bindings.declared(name, start, cur.end_byte, holes))
                ):
                    return self._assigned_kind(facts, start, cur.end_byte, name, member=False, holes=holes)
            cur = resolver.units.get(cur.parent) if cur.parent else None
        if owner is not None and spec is not None and spec.implicit_this:
            held = self._member_kind(owner, name)
            if held is not None:  # a member of the method's own type
                return held
        imported = self._import_kind(facts, name)
        if imported is not None:
            return imported
        if bindings.top(name, python):
            # a module-level name: what every assignment of it at the top makes
            return self._assigned_kind(facts, 0, len(source), name, member=False, top=True)
        if self.by_name().get(name):
            return ""  # a project definition of that name
        if name[:1].isupper() and not _TYPE_PARAM.fullmatch(name) and not self._project_type_name(facts, name):
            return "class"  # `Long.toString(x)`, `Math.max(…)`, `JSON.parse(…)`: a type the project does not define
        return ""

    def _member_kind(self, owner: Unit, name: str) -> str | None:
        """What the member `name` of `owner` (or of its supertypes) is known to hold; None when
        no such member is recorded."""
        resolver = self.index.resolver
        for cur in resolver.lineage(owner, 5):
            facts = self.index.files.get(cur.path)
            if facts is None:
                return ""
            held = next((h for n, h in cur.attrs if n == name), None)
            if held and not held.endswith("()"):  # a declared type decides
                return self._type_kind(facts, cur, held)
            assigned = self._bindings(cur.path).assigned(name, cur.start_byte, cur.end_byte, True)
            if held or assigned:
                kind = self._held_kind(facts, cur, held) if held else ""
                if held and not kind:
                    return ""
                if assigned:
                    other = self._assigned_kind(facts, cur.start_byte, cur.end_byte, name, member=True)
                    if not other:
                        return ""
                    kind = "made:container" if "made:container" in (kind, other) else kind or other
                return kind
            if resolver.members_of(cur).get(name):
                return ""  # a member unit (a nested type, a property): the project's
        return None

    def _assigned_kind(self, facts: FileFacts, start: int, end: int, name: str, member: bool, top: bool = False, holes: tuple = ()) -> str:
        """The kind every assignment of `name` in the file's bytes [start, end) gives it ("" when
        one of them is unknown, when the name is also bound another way there, or when there is
        none). `top`: the module level (`_Bindings.top`; the indented ones are other scopes' locals)."""
        bindings = self._bindings(facts.path)
        if not member and bindings.other(name, start, end, holes=holes):
            return ""
        kinds = set()
        for rhs in bindings.top(name, _dict_scoping(BY_NAME.get(facts.language))) if top else bindings.assigned(name, start, end, member, holes):
            kind = self._expression_kind(facts, rhs, name)
            if not kind:
                return ""
            kinds.add(kind)
        if not kinds:
            return ""
        return next(iter(kinds)) if len(kinds) == 1 else "made:container" if "made:container" in kinds else "made:library"

    def _expression_kind(self, facts: FileFacts, rhs: str, name: str) -> str:
        """What an assigned expression makes: a literal, a builtin maker, a construction of a type
        the project does not define; "" for anything else (a function's result may be anything:
        `getattr(…)`, `copy(x)`, `require('./x')`)."""
        default = _none_default(rhs, name) if name else ""
        if default:
            rhs = default
        kind = _literal_kind(rhs, _dict_scoping(BY_NAME.get(facts.language)))
        if kind:
            return "made:" + kind
        call = _call_text(rhs)
        if call is None:
            return ""
        receiver, callee = call
        constructed = rhs.startswith("new ")
        if not receiver and callee in BUILTIN_MAKERS and not self.by_name().get(callee):
            return "made:" + BUILTIN_MAKERS[callee]
        if callee in _MAKING_ASSOCIATED and receiver.rpartition(".")[2][:1].isupper():
            callee = receiver.rpartition(".")[2]  # `HashMap::new()`: a value of its type
        elif receiver and not constructed and self._import_kind(facts, receiver.split(".", 1)[0]) != "module":
            return ""  # a method's or a project module's result, not a construction
        if not callee[:1].isupper():
            return ""
        if not receiver and (self._import_kind(facts, callee) == "" or isinstance(self.index.resolver._lookup(facts, None, callee), Unit)):
            return ""  # `const Fastify = require('..'); Fastify()`: the project's, under another name
        # (a capitalized callee the project does not define: a library's type or a builtin conversion)
        kind = self._type_kind(facts, None, callee)
        return "made:" + kind if kind else ""

    def _held_kind(self, facts: FileFacts, unit: Unit, held: str) -> str:
        """A member's recorded holding (`OrderedDict()`, `List<Factory>`), as a kind."""
        if held.endswith("()"):
            return self._expression_kind(facts, held, "")
        return self._type_kind(facts, unit, held)

    def _type_kind(self, facts: FileFacts, where: Unit | None, text: str) -> str:
        """A declared type's kind: a builtin scalar or container, a library's type (none of the
        names it spells is the project's), or "" (the project's, a type parameter, unknown)."""
        text = _MODIFIERS.sub(" ", text).strip()
        text = _SPACES.sub(" ", text)
        if not text:
            return ""
        alternatives = [a.strip() for a in _UNION.split(text) if a.strip() not in ("None", "null", "undefined", "")]
        if len(alternatives) != 1:
            return ""
        text = alternatives[0]
        optional = _OPTIONAL.fullmatch(text)
        if optional:
            text = optional.group(1).strip()
        if text.endswith("[]") or text.startswith(("[", "map[")):
            return "container"
        outer = _TYPE_ARGS_OPEN.split(text, 1)[0].strip()
        outer = outer.replace("::", ".").rsplit(".", 1)[-1].strip()
        if not outer or outer in _UNTYPED or not _IDENT.fullmatch(outer):
            return ""
        if self._project_type_name(facts, outer) or self._type_param(facts, where, outer):
            return ""
        if outer in SCALAR_TYPES:
            return "scalar"
        if outer in CONTAINER_TYPES:
            return "container"
        args = set(_IDENT.findall(text[len(text.split("<", 1)[0]) :] if "<" in text else text[text.find("[") + 1 :] if "[" in text else ""))
        if any(self._project_type_name(facts, a) or self._type_param(facts, where, a) for a in args):
            return ""  # `Provider<Cache>`, `Option<Conn>`: stands for what it holds
        return "library"

    def _project_type_name(self, facts: FileFacts, name: str) -> bool:
        """A name the project defines (any unit, a type alias) or implements (a supertype of a
        project type: `class Headers(MutableMapping)` makes a `MutableMapping` parameter possibly
        the project's)."""
        if self.by_name().get(name):
            return True
        if self._alias_of(facts, name):
            return True
        names = self._defined_type_names
        if names is None:  # supertypes the project's types name
            names = self._defined_type_names = frozenset(s.name for f in self.index.files.values() for s in f.supertypes)
        if name in names:
            return True
        # a type alias (`type TypeResolveContext = (…)` across lines, `typealias`), which is no unit:
        # declared in this file, a file it imports or one that names it (the resolver's reverse index)
        key = (facts.path, name)
        hit = self._memo_aliases.get(key)
        if hit is None:
            spelled = (b"type " + name.encode(), b"typealias " + name.encode())  # a cheap look first
            paths = {facts.path} | set(self.imported_files(facts.path)) | set(self.index.resolver.refs.get(name, ()))
            sources = [
                src for path in sorted(paths) if path.endswith(_ALIAS_EXTS)
                for src in (self.index.sources.get(path, b""),) if spelled[0] in src or spelled[1] in src
            ]
            # compiled only for a name some file spells so (a pattern per name is costly)
            declared = re.compile(rb"(?m)^[ \t]*(?:export[ \t]+|pub(?:\([^)\n]*\))?[ \t]+|declare[ \t]+)*(?:type|typealias)[ \t]+" + re.escape(name.encode()) + rb"\b[ \t]*(?:<[^=\n]*>)?[ \t]*=") if sources else None
            hit = self._memo_aliases[key] = any(declared.search(src) is not None for src in sources)
        return hit

    def _implements_foreign(self, method: Unit) -> bool:
        """The method's type (or a project type above it) declares a supertype the project does not
        define (`WildcardTypeImpl implements WildcardType`, `class Headers(MutableMapping)`): a value
        declared as a library's type may be one of these."""
        units = self.index.resolver.units
        owner = units.get(method.parent) if method.parent else None
        if owner is None or owner.kind not in CLASS_KINDS:
            return False
        hit = self._memo_implements.get(owner.id)
        if hit is None:
            hit = any(
                sup.unit == t.id and sup.name not in _UNTYPED and not any(u.kind in CLASS_KINDS for u in self.by_name().get(sup.name, ()))
                for t in self.index.resolver.lineage(owner, 6)
                for facts in (self.index.files.get(t.path),) if facts is not None
                for sup in facts.supertypes
            )
            self._memo_implements[owner.id] = hit
        return hit

    def _extends_foreign(self, name: str) -> bool:
        """The project adds a method called `name` to a type it does not define (Kotlin's
        `fun String.name()`, Rust's `impl Trait for String { fn name… }`): a call on a builtin's
        value may run it, so the name rules keep their say."""
        hit = self._memo_extends.get(name)
        if hit is None:
            units = self.index.resolver.units
            hit = False
            for u in self.by_name().get(name, ()):
                if not u.is_callable:
                    continue
                parent = units.get(u.parent) if u.parent else None
                extended = u.ext_type or (parent.name if parent is not None and parent.kind == "impl" else "")
                words = _IDENT.findall(_TYPE_ARGS_OPEN.split(extended, 1)[0])  # `&'b mut Deserializer<'a>` → Deserializer
                extended = words[-1] if words else ""
                if extended and not any(t.kind in CLASS_KINDS and t.kind != "impl" for t in self.by_name().get(extended, ())):
                    hit = True
                    break
            self._memo_extends[name] = hit
        return hit

    def _type_param(self, facts: FileFacts, where: Unit | None, name: str) -> bool:
        """`T`, `TResult`, or a name declared between angle brackets in an enclosing signature."""
        if _TYPE_PARAM.fullmatch(name):
            return True
        units = self.index.resolver.units
        cur = where
        while cur is not None:
            params = self._memo_generics.get(cur.id)
            if params is None:
                sig = self.index.sources.get(cur.path, b"")[cur.start_byte : max(cur.sig_end_byte, cur.start_byte)]
                params = self._memo_generics[cur.id] = frozenset(n.decode() for n in _GENERIC_PARAMS.findall(sig))
            if name in params:
                return True
            cur = units.get(cur.parent) if cur.parent else None
        return False

    def _holes(self, scope: Unit) -> tuple:
        """The spans of the functions nested directly in `scope`: their names are their own."""
        hit = self._memo_holes.get(scope.id)
        if hit is None:
            if scope.path not in self._memo_holes_done:  # one pass over the file's units
                self._memo_holes_done.add(scope.path)
                facts = self.index.files.get(scope.path)
                spans: dict[str, list[tuple[int, int]]] = {}
                for u in facts.units if facts is not None else ():
                    if u.parent and u.is_callable:
                        spans.setdefault(u.parent, []).append((u.start_byte, u.end_byte))
                for parent, found in spans.items():
                    self._memo_holes[parent] = tuple(found)
            hit = self._memo_holes.setdefault(scope.id, ())
        return hit

    def _bindings(self, path: str) -> _Bindings:
        hit = self._memo_bindings.get(path)
        if hit is None:
            hit = self._memo_bindings[path] = _Bindings(self.index.sources.get(path, b""))
        return hit

    def _variadic(self, source: bytes, callable_: Unit, name: str) -> bool:
        """`*args`, `**kwargs`, `...rest`, `vararg xs`, `String... xs`, Go's `xs ...T`."""
        names = self._memo_variadic.get(callable_.id)
        if names is None:
            sig = source[callable_.start_byte : callable_.sig_end_byte]
            names = self._memo_variadic[callable_.id] = frozenset(
                (a or b or c).decode() for a, b, c in _VARIADIC.findall(sig)
            )
        return name in names

    def _import_kind(self, facts: FileFacts, name: str) -> str | None:
        """"module" when the imports binding `name` in the file are all libraries', "" when one of
        them is the project's, None when no import binds it."""
        spec = BY_NAME.get(facts.language)
        if spec is None or spec.outside_imports != "root":
            return None  # crate, package and class paths the resolver does not map to files: unknown
        key = (facts.path, name)
        if key in self._memo_imports:
            return self._memo_imports[key]
        hit = self._memo_imports[key] = self._find_import_kind(facts, name)
        return hit

    def _find_import_kind(self, facts: FileFacts, name: str) -> str | None:
        first = getattr(BY_NAME.get(facts.language), "import_binds", "last") == "first"  # `import os.path` binds `os`
        imported = [
            imp for imp in facts.imports
            if (imp.alias or (imp.name if imp.name not in ("", "*", "default") else _MODULE_SEP.split(imp.module)[0 if first else -1])) == name
        ]
        if not imported:
            return None
        return "module" if all(self._library_import(facts, imp) for imp in imported) else ""

    def _library_import(self, facts: FileFacts, imp) -> bool:
        """An import the resolver bound to no project file, of a module that is not relative and
        names none of the project's modules: where the language names modules (Python's dotted
        names, `spec.module_names`), its first segment is no first segment of one nor a directory
        or module outside a package (`collections` is no `celery.utils.collections`, `json` no
        `flask.json`, `flaskr` is `examples/tutorial/flaskr`); elsewhere no part of its path is a
        directory or file name of the project."""
        if imp.level or imp.module.startswith((".", "/", "@/", "~")):
            return False
        b = self.index.bindings.get(facts.path)
        if b is not None and any(e.kind == "imports" and e.line == imp.line for e in b.edges):
            return False
        roots = self._module_roots.get(facts.language)
        if roots is None:
            spec = BY_NAME.get(facts.language)
            paths = [path for path, other in self.index.files.items() if other.language == facts.language]
            found = {name.split(".", 1)[0] for path in paths for name in (spec.module_names(path) if spec is not None else ())}
            if found:
                # and what a directory on the import path holds: a directory or module whose own
                # directory is no package (`examples/tutorial/flaskr`, not `src/flask/json`)
                packages = {path.rpartition("/")[0] for path in paths if path.rpartition("/")[2].startswith("__init__.")}
                for path in paths:
                    parts = path.split("/")
                    for i in range(len(parts)):
                        if "/".join(parts[: i]) not in packages:
                            found.add(parts[i].split(".", 1)[0])
            roots = self._module_roots[facts.language] = frozenset(found)
        if roots:
            return imp.module.split(".", 1)[0] not in roots
        names = self._project_path_names
        if names is None:
            found: set[str] = set()
            for path in self.index.files:
                parts = path.split("/")
                found.update(parts[:-1])
                found.add(parts[-1].split(".", 1)[0])
            names = self._project_path_names = frozenset(found)
        return not any(part in names for part in _PATH_SEP.split(imp.module) if part)
