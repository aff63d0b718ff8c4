"""What a file's units hold, read off matched nodes: the declared types of parameters and locals,
the members a type holds (declared or assigned), the calls that initialise locals, and the
functions handed over as values. Pure functions of one file's units and query matches.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict

from tree_sitter import Node

from ..languages.spec import held_value, text
from ..model.facts import CLASS_KINDS, ELEMENT_OF, FIRST_OF, HOLDS, MAX_RECEIVER, PAIR_SECOND, SPANNED, VARIANT_OF, Call, Unit

_new_tuple = tuple.__new__
CLASS_UNIT_KINDS = CLASS_KINDS - {"impl"}  # members live on the type; a Rust impl block holds none


_TYPE_WRAPPERS = ("&mut ", "&", "*", "mut ", "const ", "readonly ", "final ", "dyn ", "impl ")
_LIFETIME = re.compile(r"'\w+\s+")
# a slice or an array, kept for what a loop over it walks: Go's `[]*Handler`, `[4]Step`, Rust's `[Step]`
_SLICE = re.compile(r"\[(?:\w*\][\w*.\[\]]+|[A-Za-z_][\w:<>]*\])$")


def _type_name(node: Node | None) -> str:
    """A declared type as a name codegraph can look up (`*Server` → `Server`, `Optional["Foo"]`,
    `Foo | None` and `Foo?` → `Foo`); "" when it is no single named type (unions, tuples,
    functions)."""
    if node is None:
        return ""
    if node.type in ("type", "type_annotation"):
        node = node.named_child(0) if node.named_child_count else None
        if node is None:
            return ""
    t = text(node).strip()
    if node.type == "channel_type":  # Go's `chan *Job`, `<-chan Job`: what a receive gets is its element
        return " ".join(t.split())[:120]
    changed = True
    while changed:
        changed = False
        for prefix in _TYPE_WRAPPERS:
            if t.startswith(prefix):
                t, changed = t[len(prefix) :].lstrip(), True
        lifetime = _LIFETIME.match(t)  # `&'cmd mut Command`
        if lifetime:
            t, changed = t[lifetime.end() :], True
    if t.startswith("Optional[") and t.endswith("]"):
        t = t[9:-1].strip()
    if "+" in _outside_type_args(t):  # `dyn Handler + 'a`, `impl Service + ?Sized`: the one named bound
        bounds = [b for b in _top_level_split(t, "+") if b and b[0] not in "'?"]
        t = bounds[0] if len(bounds) == 1 else ""
    if "|" in t:  # `Foo | None`, `Foo | undefined`: still one named type
        named = [p.strip() for p in t.split("|") if p.strip() not in ("None", "null", "undefined", "")]
        t = named[0] if len(named) == 1 else ""
    t = t.strip("\"'").rstrip("?")
    # type arguments may hold anything (`ReadyCache<D::Key, D::Service, Req>`); the rest may not
    if not t or any(c in _outside_type_args(t) for c in "|&,() \t\n") or t[0] == "{" or (t[0] == "[" and not _SLICE.match(t)):
        return ""
    return t[:120]


def _top_level_split(t: str, sep: str) -> list[str]:
    """`t` cut at each `sep` outside type arguments, the parts stripped."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(t):
        depth += (c in "<([") - (c in ">)]")
        if c == sep and depth == 0:
            parts.append(t[start:i].strip())
            start = i + 1
    return parts + [t[start:].strip()]


def generic_bounds(node: Node, markers: frozenset[str] = frozenset()) -> dict[str, str]:
    """The type parameters a callable (and the impl or type around it) bounds by one named trait
    (`fn f<C: Consumer>(c: C)`, `where C: Consumer + Send + 'a`, `impl<C: Consumer> Map<C>`; `markers`:
    the bounds that name no behaviour of the value, `Send`): name → bound."""
    named: dict[str, list[Node]] = {}  # each type parameter → its named bounds, wherever written
    body = node.parent  # a method's impl or trait: the item whose body list holds it (never a file's root)
    for cur in (node, body.parent if body is not None and body.type == "declaration_list" else None):
        if cur is None:
            continue
        for holder in (cur.child_by_field_name("type_parameters"), next((c for c in cur.children if c.type == "where_clause"), None)):
            for tp in holder.named_children if holder is not None else ():
                left = tp.child_by_field_name("left") or next((c for c in tp.named_children if c.type == "type_identifier"), None)
                if left is None or left.type != "type_identifier":
                    continue
                bounds = tp.child_by_field_name("bounds") or next((c for c in tp.named_children if c.type == "trait_bounds"), None)
                named.setdefault(text(left), []).extend(
                    b for b in (bounds.named_children if bounds is not None else ())
                    if b.type not in ("lifetime", "removed_trait_bound") and text(b) not in markers)
    # a parameter of no bound, or of several, is of no type the index can name (never a type of its name)
    return {name: _type_name(bounds[0]) if len(bounds) == 1 else "" for name, bounds in named.items()}


def _outside_type_args(t: str) -> str:
    """`t` without its type arguments: `<…>`, and `[…]` opened right after a name (Python's
    `dict[str, Route]`, Go's `Set[K, V]`; not a leading `[]` or `[4]`)."""
    out, depth, square = [], 0, 0
    for i, c in enumerate(t):
        if c == "<":
            depth += 1
        elif c == ">" and depth:
            depth -= 1
        elif c == "[" and (square or (i and (t[i - 1].isalnum() or t[i - 1] == "_"))):
            square += 1
        elif c == "]" and square:
            square -= 1
        elif depth == 0 and not square:
            out.append(c)
    return "".join(out)


def _with_local_types(units: list[Unit], matches: list[dict[str, list[Node]]], implicit: str = "", keep_outer: bool = False,
                      entered=None) -> list[Unit]:
    """Units whose callables get the (name, type) of the locals they declare with a type, the
    typed parameters of the anonymous functions inside included; a name declared twice with
    different types in one callable, or also bound by an untyped parameter of an anonymous
    function (`@untyped`), gets "" (which one a call sees is a question of blocks, left unknown).
    `@local` names a body binds otherwise (Java's every local, typed or not) only when untyped.
    A loop's variable (`@element`) holds an element of the collection it walks (`@of`): recorded as
    ELEMENT_OF + that expression's text, for the resolver to read its declared element type; a local
    initialised by a field read (`@holder`, `@held`: `conn := s.conn`) as HOLDS + the read (a context
    manager's name, `@_enter`, as HOLDS + the call `entered` makes of the managed value). A lambda
    that binds the language's implicit parameter (`@implicit`: Kotlin's `it`) is a binding of that name:
    an element of what it walks (`handlers.forEach { it.run() }`), what it is called on (`c?.let {
    it.close() }`: `@held`), or else untyped where its body names it; each lambda's own, the name
    carrying the lambda's span (SPANNED: `it·120·164`), and so is a parameter a lambda declares
    (`@scope`: the lambda), the plain name of no known type in the rest of the callable — unless
    `keep_outer` (a language whose untyped locals go unrecorded): then the plain name keeps what the
    callable binds it to outside the lambdas (`r := chi.NewRouter()` beside `r.Get("/", func(w
    http.ResponseWriter, r *http.Request) {…})`: a call's receiver inside a lambda is its parameter,
    by position), except where a read a local holds or a loop walks inside such a lambda starts
    from the name (`ctx := r.Context()` in it: such reads carry no position)."""
    callables = sorted((u for u in units if u.kind in ("function", "method", "constructor")), key=lambda u: (u.start_byte, -u.end_byte))
    starts = [u.start_byte for u in callables]
    found: dict[str, dict[str, str]] = {}
    untyped: dict[str, set[str]] = {}  # callable → names it binds without a type (`@local` captures)
    unknown: dict[str, set[str]] = {}  # callable → names an anonymous function's untyped parameter binds
    # a callback's parameter an element capture types (`xs.forEach((x) => …)`) is no untyped one there
    managed: set[tuple[str, str]] = set()  # (callable, name) whose entry is a context manager's value alone
    lambdas: dict[str, list[tuple[str, int, int]]] = {}  # callable → (name, start, end) of its lambdas' parameters
    reads: dict[str, list[tuple[str, int]]] = {}  # callable → (first name, where) of the reads and walks its locals hold
    elements = {(caps.get("element") or caps["implicit"])[0].start_byte for caps in matches
                if (caps.get("element") or caps.get("implicit")) and (caps.get("of") or caps.get("held"))}
    for caps in _variant_bindings(matches):
        names, types = caps.get("name"), caps.get("type")
        walked = None  # a loop's walked collection, or a field read a local holds, with its mark
        lam = caps.get("implicit")
        if lam and not implicit:
            continue
        if caps.get("payload"):  # `Value::String(ref f) => …`: the variant's payload at that position
            names, walked = caps["name"], VARIANT_OF + caps["payload"]
        elif caps.get("element") and caps.get("of") or lam and caps.get("of"):
            # the second of a pair (`for k, v in d.items()`, `@_pair` the first) is marked so
            # the one name of a loop that gives it each item's first part (Go's `for k := range m`)
            paired = PAIR_SECOND if caps.get("_pair") else FIRST_OF if caps.get("_first") else ""
            names, walked = caps.get("element") or lam, ELEMENT_OF + paired + " ".join(text(caps["of"][0]).split())
        elif (caps.get("holder") or lam) and caps.get("held"):
            names, walked = caps.get("holder") or lam, HOLDS + " ".join(text(caps["held"][0]).split())
            if caps.get("_enter") and entered is not None:  # `with E as x`: what E's `__enter__()` returns
                walked += entered(caps["_enter"][0])
        elif caps.get("local") or caps.get("untyped") or lam:
            names, types = caps.get("local") or caps.get("untyped") or lam, None
            if names[0].start_byte in elements or lam and not re.search(rf"\b{implicit}\b", text(lam[0])):
                continue
        at = names[0].start_byte
        # the innermost callable holding it: walking back from the last one starting before it,
        # the first that has not ended yet
        i = bisect.bisect_right(starts, at) - 1
        while i >= 0 and callables[i].end_byte <= at:
            i -= 1
        if i < 0:
            continue
        owner = callables[i]
        name = implicit if lam else text(names[0])
        span = lam[0] if lam else caps["scope"][0] if caps.get("scope") else None
        if span is not None:  # a lambda's parameter: its own inside it, of no known type outside
            if caps.get("payload") or caps.get("holder"):
                pass  # a pattern's (`if let Some(c) = …`) leaves the outer name be
            elif keep_outer and not lam:
                lambdas.setdefault(owner.id, []).append((name, span.start_byte, span.end_byte))
            else:
                unknown.setdefault(owner.id, set()).add(name)
            name = _spanned(name, span)
        if walked is not None and keep_outer:
            first = _FIRST_NAME.search(walked)
            if first:
                reads.setdefault(owner.id, []).append((first.group(0), at))
        if types is None and walked is None:
            (unknown if caps.get("untyped") or lam else untyped).setdefault(owner.id, set()).add(name)
            continue
        declared = _type_name(types[0]) if walked is None else walked if len(walked) <= MAX_RECEIVER else ""
        if declared in ("var", "let", "auto"):  # Java `var x = …` declares no type
            continue
        seen = found.setdefault(owner.id, {})
        if caps.get("outer"):  # an entry of an object literal the member holds: `queues.request`
            name = f"{text(caps['outer'][0])}.{name}"
        entering = (owner.id, name) if caps.get("_enter") else None
        if entering is not None and name in seen and (owner.id, name) not in managed:
            continue  # `pipe: Pipeline` beside `with … as pipe`: the annotation says
        if entering is None and (owner.id, name) in managed and types is not None:
            managed.discard((owner.id, name))
            seen.pop(name, None)
        if entering is not None:
            managed.add(entering)
        seen[name] = declared if seen.get(name, declared) == declared else ""
    for uid, names_ in untyped.items():  # a local with no type of its own is still a local
        seen = found.setdefault(uid, {})
        for name in sorted(names_ - seen.keys()):
            seen[name] = ""
    for uid, bound in lambdas.items():  # a read inside the lambda that starts from its parameter's name
        for name, start, end in bound:
            if any(first == name and start <= at < end for first, at in reads.get(uid, ())):
                unknown.setdefault(uid, set()).add(name)
    for uid, names_ in unknown.items():  # bound without a type beside a typed one: either
        seen = found.setdefault(uid, {})
        for name in sorted(names_):
            seen[name] = ""
    if not found:
        return units
    return [u._replace(local_types=tuple(found[u.id].items())) if u.id in found else u for u in units]


_FIRST_NAME = re.compile(r"[A-Za-z_]\w*")


def _variant_bindings(matches: list[dict[str, list[Node]]]):
    """The matches, a pattern of an enum variant (`@variant`, `@bind`: `Value::Pair(_, ref a)`) as one
    binding per name it binds at a position of its own (`a` ← `Value::Pair(1)`), under its `@scope`."""
    for caps in matches:
        if not caps.get("bind"):
            yield caps
            continue
        variant = "".join(text(caps["variant"][0]).split())
        if caps["bind"][0].type == "struct_pattern":  # `Value::Named { ref inner, op: o, .. }`: by field
            for field, part in _fields(caps["bind"][0]):
                yield {"name": [part], "payload": f"{variant}.{field}", "scope": caps["scope"]}
            continue
        for i, part in enumerate(_positions(caps["bind"][0])):
            while part.type in ("ref_pattern", "mut_pattern") and part.named_child_count:
                part = part.named_children[-1]
            if part.type == "identifier":
                yield {"name": [part], "payload": f"{variant}({i})", "scope": caps["scope"]}


def _fields(pattern: Node) -> list[tuple[str, Node]]:
    """(field, the name bound to it) of a struct pattern: `{ inner }`, `{ ref inner }`, `{ op: mut o }`."""
    out = []
    for child in pattern.named_children:
        if child.type != "field_pattern":
            continue
        name, bound = child.child_by_field_name("name"), child.child_by_field_name("pattern")
        if bound is None:
            bound = name if name is not None and name.type == "shorthand_field_identifier" else None
        while bound is not None and bound.type in ("ref_pattern", "mut_pattern") and bound.named_child_count:
            bound = bound.named_children[-1]
        if name is not None and bound is not None and bound.type in ("identifier", "shorthand_field_identifier"):
            out.append((text(name), bound))
    return out


def _positions(pattern: Node) -> list[Node]:
    """The sub-patterns of a tuple pattern by position (its type and punctuation left out); none
    after a `..`, whose positions are unknown."""
    out = []
    for child in pattern.children[1:]:
        if child.type in ("(", ")", ","):
            continue
        if child.type == "remaining_field_pattern" or text(child) == "..":
            break
        out.append(child)
    return out


def _spanned(name: str, lam: Node) -> str:
    """The implicit parameter `name` of the lambda `lam`: `it·120·164`."""
    return f"{name}{SPANNED}{lam.start_byte}{SPANNED}{lam.end_byte}"


def _innermost(units: list[Unit], starts: list[int], kinds, at: int) -> Unit | None:
    """The innermost unit of one of `kinds` whose span holds byte `at` (units sorted by start,
    outermost first; `starts` their start bytes): walking back from the last one starting
    before it, the first that holds it."""
    i = bisect.bisect_right(starts, at) - 1
    while i >= 0:
        u = units[i]
        if u.end_byte > at and u.kind in kinds:
            return u
        i -= 1
    return None


_CALL_VALUES = frozenset({"call", "call_expression", "new_expression", "object_creation_expression", "composite_literal"})


def _callee_text(value: Node) -> str:
    """`Foo(1)` → `Foo()`, `new mod.X<T>()` → `mod.X()`: what a value was made by."""
    head = value.child_by_field_name("function") or value.child_by_field_name("constructor") or value.child_by_field_name("type")
    if head is None and value.named_child_count:
        head = value.named_child(0)
    t = text(head).strip()
    for opener in "<([":
        cut = t.find(opener)
        if cut > 0:
            t = t[:cut]
    t = t.replace("?.", ".").strip()
    if not t or any(ch in t for ch in " \t\n{}"):
        return ""
    return t[:120] + "()"


_NO_VALUE = frozenset({"null", "undefined"})


def _constructor(callable_: Unit | None, top: dict[str, Unit]) -> Unit | None:
    """The module-level constructor function whose instance `this` is in `callable_`: the function
    itself (`function Parser() { this.lexer = new Lexer(); }`) or the one whose prototype method it
    is (`Parser.prototype.next = function`), None for any other callable."""
    if callable_ is None or callable_.parent is not None:
        return None
    owner, dot, _ = callable_.qualname.rpartition(".")
    if callable_.kind == "method" and dot:
        return top.get(owner)
    return callable_ if callable_.kind == "function" and not dot else None


def _with_attrs(units: list[Unit], matches: list[dict[str, list[Node]]], agree: bool = False) -> list[Unit]:
    """Type units with the members they hold: declared field types, and `self.x = Foo()` /
    `this.x = new X()` / `self.x = param` (the parameter's declared type). A declared type wins
    over assignments; the first assignment wins over later ones. With `agree` (no declared types,
    `spec.assigned_fields`) a member assigned two different values in its class is listed a second
    time with no type: a guess may take the first, no proof takes either."""
    ordered = sorted(units, key=lambda u: (u.start_byte, -u.end_byte))
    starts = [u.start_byte for u in ordered]
    found: dict[str, dict[str, tuple[int, str]]] = {}  # type id → member → (0 declared | 1 assigned, type)
    assigned: dict[tuple[str, str], set[str]] = defaultdict(set)  # (type id, member) → the values written, with `agree`
    top = {u.qualname: u for u in units if u.parent is None and u.kind == "function"} if agree else {}
    for caps in matches:
        if caps.get("variant") and caps.get("field"):  # `Named { inner: Array }`: `Named.inner`
            owner = _innermost(ordered, starts, CLASS_UNIT_KINDS, caps["variant"][0].start_byte)
            if owner is not None:
                found.setdefault(owner.id, {}).setdefault(f"{text(caps['variant'][0])}.{text(caps['field'][0])}", (0, _type_name(caps["payload"][0])))
            continue
        if caps.get("variant") and caps.get("payload"):  # `String(Formatted<String>)`: `String(0)`
            owner = _innermost(ordered, starts, CLASS_UNIT_KINDS, caps["variant"][0].start_byte)
            if owner is not None:
                seen = found.setdefault(owner.id, {})
                for i, held in enumerate(c for c in caps["payload"][0].named_children if c.type not in ("attribute_item", "visibility_modifier")):
                    seen.setdefault(f"{text(caps['variant'][0])}({i})", (0, _type_name(held)))
            continue
        names = caps.get("name")
        if not names:
            continue
        at = names[0].start_byte
        owner = _innermost(ordered, starts, CLASS_UNIT_KINDS, at)
        if owner is None and agree:
            owner = _constructor(_innermost(ordered, starts, ("function", "method"), at), top)
        if owner is None:
            continue
        types, values, objs = caps.get("type"), caps.get("value"), caps.get("obj")
        if types:  # `x: T` in the class body, or `self.x: T = …` in a method
            if objs and text(objs[0]) not in ("self", "this"):
                callable_ = _innermost(ordered, starts, ("function", "method", "constructor"), at)
                if callable_ is None or text(objs[0]) != callable_.receiver:
                    continue
            held, rank = _type_name(types[0]), 0
        elif values:
            callable_ = _innermost(ordered, starts, ("function", "method", "constructor"), at)
            if objs and text(objs[0]) not in ("self", "this") and (callable_ is None or text(objs[0]) != callable_.receiver):
                continue
            value = values[0]
            for _ in range(2):
                if value.type not in _PASS_THROUGH or value.named_child_count != 1:
                    break
                value = value.named_child(0)
            rank = 1
            if value.type in _CALL_VALUES:
                held = _callee_text(value)
            elif value.type in _PLAIN_NAMES and callable_ is not None and text(value) in callable_.param_names:
                held = callable_.param_types[callable_.param_names.index(text(value))]
            else:
                held = ""
            if agree and value.type not in _NO_VALUE:  # `this.socket = null` on close holds no other type
                assigned[(owner.id, text(names[0]))].add(held or text(value)[:120])
            if not held:
                continue
        else:
            continue
        if not held:
            continue
        seen = found.setdefault(owner.id, {})
        name = text(names[0])
        if caps.get("outer"):  # an entry of an object literal the member holds: `queues.request`
            name = f"{text(caps['outer'][0])}.{name}"
        if name not in seen or seen[name][0] > rank:
            seen[name] = (rank, held)
    # `this.state = new Idle()`, later `this.state = new Running()` (or a value handed in)
    mixed = {key for key, values in assigned.items() if len(values) > 1 and found.get(key[0], {}).get(key[1], (0,))[0] == 1}
    if not found:
        return units
    return [u._replace(attrs=tuple(a for k, (_, v) in found[u.id].items() for a in ([(k, v), (k, "")] if (u.id, k) in mixed else [(k, v)])))
            if u.id in found else u for u in units]


def _refs(units: list[Unit], matches: list[dict[str, list[Node]]], bound: frozenset[str] | None) -> list[Call]:
    """Functions and methods handed over as values, as Call records of their enclosing unit.
    `bound`: in languages whose bare names bind only within the file (definitions, imports),
    the names a bare reference can denote a function by; other bare names are locals."""
    ordered = sorted(units, key=lambda u: (u.start_byte, -u.end_byte))
    starts = [u.start_byte for u in ordered]
    out: dict[int, Call] = {}
    bound_b = {n.encode() for n in bound} if bound is not None else None
    for caps in matches:
        bare = caps.get("bare")
        if bare is not None:  # a plain name (one capture): most are locals, dropped before anything else
            node = bare[0]
            raw = node.text
            if bound_b is not None and raw not in bound_b:
                continue
            name, receiver = raw.decode("utf-8", "replace"), ""
        else:
            nodes = caps.get("ref")
            if not nodes:
                continue
            node = nodes[0]
            names = caps.get("name")
            if names:
                name = names[0].text.decode("utf-8", "replace")
                receivers = caps.get("receiver")
                if not receivers and bound is not None and name not in bound:
                    continue
                receiver = receivers[0].text.decode("utf-8", "replace")[:MAX_RECEIVER] if receivers else ""
            else:  # `this::handle`, `Foo::bar`, `::top`
                receiver, _, name = text(node).rpartition("::")
                name, receiver = name.strip(), receiver.strip()[:MAX_RECEIVER]
        start = node.start_byte
        if start in out or not name.isidentifier():
            continue
        # the innermost unit holding it: walking back from the last one starting before it
        i = bisect.bisect_right(starts, start) - 1
        while i >= 0 and ordered[i].end_byte <= start:
            i -= 1
        caller = ordered[i].id if i >= 0 else None
        out[start] = _new_tuple(Call, (caller, name, receiver, node.start_point.row + 1, start, node.end_byte, False, "", "", -1, "", ""))
    return [out[k] for k in sorted(out)]


def _parameters(node: Node) -> Node | None:
    """A callable's parameter list node."""
    params = node.child_by_field_name("parameters")
    if params is None:
        # `const f = (a) => …`, `const f = ((a) => …) as F`; `T.prototype.m = function (a) …`
        value = held_value(node) or node.child_by_field_name("right")
        params = value.child_by_field_name("parameters") if value is not None else None
    if params is None:
        params = next((c for c in node.children if c.type in ("function_value_parameters", "formal_parameters", "parameters")), None)
    if params is None and node.type == "compact_constructor_declaration":
        # a Java record's compact constructor (`Point { … }`) takes the record header's components
        record = node.parent.parent if node.parent is not None else None
        params = record.child_by_field_name("parameters") if record is not None else None
    return params


def _param_names(params: Node | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Plain identifiers a callable's parameters bind (patterns and destructuring are skipped),
    and each one's declared type name ("" when none)."""
    found: dict[str, str] = {}
    for p in params.named_children if params is not None else []:
        if p.type in ("identifier", "simple_identifier"):
            found.setdefault(text(p), "")
            continue
        names: list[str] = []
        for field in ("name", "pattern"):
            for inner in p.children_by_field_name(field):
                if inner.type in ("identifier", "simple_identifier"):
                    names.append(text(inner))
        if not p.children_by_field_name("name") and not p.children_by_field_name("pattern"):
            for inner in p.named_children:
                if inner.type in ("identifier", "simple_identifier"):
                    names.append(text(inner))
                    break
        declared = p.child_by_field_name("type")
        if declared is None and p.type == "parameter":  # Kotlin: `a: Foo` carries no field names
            declared = next((c for c in p.named_children if c.type in ("user_type", "nullable_type")), None)
        kind = _type_name(declared) if p.type not in ("list_splat_pattern", "dictionary_splat_pattern", "spread_parameter") else ""
        for name in names:
            if name:
                found.setdefault(name, kind)
    return tuple(found), tuple(found.values())


def _result_types(node: Node | None) -> tuple[str, ...]:
    """Each result's declared type name when a callable lists its results (Go `(*Command, []string,
    error)` → Command, "", error; `(cmd *Command, err error)`; Rust's tuple `-> (A, B)`); () when it declares one type
    unlisted (`returns` holds it) or none. A declaration of several names is one result per name."""
    if node is not None and node.type == "tuple_type":  # Rust `-> (Sender, Body)`
        return tuple(_type_name(t) for t in node.named_children)
    if node is None or node.type != "parameter_list":
        return ()
    out: list[str] = []
    for decl in node.named_children:
        if decl.type == "parameter_declaration":
            out += [_type_name(decl.child_by_field_name("type"))] * max(1, len(decl.children_by_field_name("name")))
    return tuple(out)


# Wrappers between a local's initialiser and the call that makes its value (`await f()`, `f()?`).
_PASS_THROUGH = {"await_expression", "await", "expression_list", "try_expression", "parenthesized_expression", "non_null_expression"}
_PLAIN_NAMES = ("identifier", "simple_identifier")


def _passes_through(value: Node) -> bool:
    """Whether a local's initialiser wraps the one call that makes its value: `await f()`, `f()?`,
    and Go's address of a composite literal, `&Server{…}` (a pointer to what the literal constructs)."""
    if value.named_child_count != 1:
        return False
    if value.type in _PASS_THROUGH:
        return True
    return value.type == "unary_expression" and value.child(0).type == "&" and value.named_child(0).type == "composite_literal"


def _assigned_calls(matches: list[dict[str, list[Node]]]) -> dict[int, tuple[Node | None, str]]:
    """Node id of a call that initialises locals → (the plain local its result (first position)
    initialises, or None; a destructuring's local of each position, comma-joined: `Call.assigned_rest`)
    (feeds receiver typing in bindings: `x = Foo(); x.m()`). From the assignment query's captures:
    walking up from every call instead costs a parent lookup per call, a tenth of extraction."""
    out: dict[int, tuple[Node | None, str]] = {}
    for caps in matches:
        targets, values = caps.get("target"), caps.get("value")
        if not targets or not values:
            continue
        target, value = targets[0], values[0]
        if target.type == "expression_list":  # Go lists names
            pairs = _go_pairs(target, value)
        elif target.type == "tuple_pattern":  # Rust `let (a, mut b, _) = f()`
            names = []
            for element in target.children:
                if element.type in ("(", ")", ","):
                    continue
                if text(element) == "..":  # `(a, .., z)`: the positions after it are unknown
                    break
                names.append(_pattern_name(element))  # `_` too: it is a position
            pairs = [(names[0], value, ",".join(text(n) if n is not None else "" for n in names))] if names else []
        else:
            pairs = [(target, value, "")]
        for target, value, rest in pairs:
            if target is not None and target.type not in _PLAIN_NAMES:
                target = None
            if target is None and not rest.strip(","):
                continue
            for _ in range(2):
                if not _passes_through(value):
                    break
                value = value.named_child(0)
            out.setdefault(value.id, (target, rest))
    return out


def _pattern_name(node: Node) -> Node | None:
    """The plain local a destructured position binds (`a`, `mut a`), None for any other pattern."""
    if node.type == "mut_pattern" and node.named_child_count:
        node = node.named_child(node.named_child_count - 1)
    return node if node.type in _PLAIN_NAMES else None


def _go_pairs(names: Node, values: Node) -> list[tuple[Node | None, Node, str]]:
    """(name, value, later names) of a Go `:=`: one value each (`x := f()`, `a, b := f(), g()`), or
    the one call of a multi-value assignment (`x, err := f()`) with its first name and all names
    comma-joined: each holds that position of f's results, which the resolver reads off f's declared
    results. `_` binds nothing (None / "")."""
    left = names.named_children
    right = values.named_children if values.type == "expression_list" else [values]
    if len(left) == len(right):
        return [(name, value, "") for name, value in zip(left, right) if text(name) != "_"]
    if len(right) != 1 or not left:
        return []
    first = left[0] if text(left[0]) != "_" else None
    return [(first, right[0], ",".join(n if n != "_" else "" for n in map(text, left)))]
