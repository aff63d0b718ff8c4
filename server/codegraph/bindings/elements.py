"""Loop elements and held reads, a stage of resolution: a loop's variable holds an element of the
collection it walks (`for h in self.handlers`, `for _, h := range c.handlers`, `for (const h of
this.handlers)`), and the collection's declared type says which (`[]Handler`, `Vec<Box<dyn Handler>>`,
`list[Handler]`, `Handler[]`: the language's `spec.element_type`); a local initialised by a field
read holds what the read denotes (`conn := s.conn`, `let codec = &mut self.codec`, `const router =
this.router`). The extractor records the walked expression or the read beside the local
(`Unit.local_types`, ELEMENT_OF / HOLDS); the Resolver inherits these (a mixin).
"""

from __future__ import annotations

from ..model.facts import ELEMENT_OF, FIRST_OF, HOLDS, PAIR_SECOND, SPANNED, FileFacts, Unit
from .call_text import call_open
from .carriers import is_carried
from .resolver_indexes import spec_of

MAX_NESTING = 3  # loops over a loop variable's field (`for row in rows: for cell in row.cells`), reads of a read
_SELF_WORDS = frozenset({"self", "this", "Self"})


def _bare(expr: str) -> str:
    """An expression without the reference taken of it: `&mut self.codec` → `self.codec`."""
    expr = expr.strip().lstrip("&*").strip()
    return expr[4:].lstrip() if expr.startswith("mut ") else expr


def _head(expr: str) -> str:
    """The name an expression starts from: `&mut self.codec` → `self`, `xs.iter()` → `xs`."""
    expr = _bare(expr)
    end = 0
    while end < len(expr) and (expr[end].isalnum() or expr[end] == "_"):
        end += 1
    return expr[:end]


def _counted(walked: str, functions: tuple[str, ...]) -> str:
    """The first argument of a call of one of `functions` (`enumerate(self.steps, 1)` → `self.steps`),
    "" when `walked` is no such call."""
    name, paren, rest = walked.partition("(")
    if name not in functions or not paren or not rest.endswith(")") or call_open(walked) != len(name):
        return ""
    depth = 0
    for i, ch in enumerate(rest[:-1]):
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "," and depth == 0:
            return rest[:i].strip()
    return rest[:-1].strip()


def _opening(expr: str) -> int | None:
    """Where the bracket that closes `expr` opens (`t[i][j]` → 4), None when unbalanced."""
    depth = 0
    for i in range(len(expr) - 1, -1, -1):
        depth += (expr[i] == "]") - (expr[i] == "[")
        if depth == 0:
            return i
    return None


class Elements:
    """Typing loop variables by the declared type of what they walk, and locals by the field read
    they are initialised by, for the Resolver (a mixin)."""

    _holding = 0  # reads being resolved now: `a := b.x` with `b := a.y` ends here

    def _held(self, facts: FileFacts, caller: Unit | None, local: str, read: str) -> Unit | tuple[str, str] | None:
        """What a local initialised by the field read `read` denotes: the read as a receiver (a read
        of the local itself, `node := node.next`, is its own question: unknown)."""
        head = _bare(read)
        if _head(head) == local or self._holding >= MAX_NESTING:
            return None
        self._holding += 1
        try:
            return self._receiver_target(facts, caller, head)
        finally:
            self._holding -= 1

    def _element_of(self, facts: FileFacts, caller: Unit | None, walked: str, depth: int = 0,
                    local: str = "") -> Unit | tuple[str, str] | None:
        """The value a loop variable (`local`) holds when its loop walks the expression `walked` (a
        walk of the variable itself, `xs.iter().map(|xs| …)`, is its own question: unknown)."""
        found = self._element_text(facts, caller, walked, depth, local)
        return self._value_type(*found) if found is not None else None

    def _element_text(self, facts: FileFacts, caller: Unit | None, walked: str, depth: int = 0,
                      local: str = "") -> tuple[FileFacts, str, Unit | None] | None:
        """(the file, the declared type text, the unit it is written in) of what a loop variable
        (`local`) holds when its loop walks `walked`: a collection itself when the walk is of nested
        collections (`for _, parts := range m` over `map[string][]*Part`, then `range parts`)."""
        views = spec_of(facts).value_views
        first = walked.startswith(FIRST_OF)  # `for k := range m`: a map's key, a channel's element
        if first:
            walked, views = walked[len(FIRST_OF) :], ()
        if walked.startswith(PAIR_SECOND):  # `for name, route in routes.items()`: `route` as `routes[name]`
            walked, views = walked[len(PAIR_SECOND) :], spec_of(facts).pair_views
            counted = _counted(walked, spec_of(facts).counted_walks)
            if counted:  # `for i, step in enumerate(steps)`: an element of `steps`
                walked, views = counted, ()
            elif not any(walked.endswith(v) for v in views):
                return None
        if _head(walked) == local or self._holding >= MAX_NESTING:
            return None
        view = next((v for v in views if walked.endswith(v)), "")
        self._holding += 1
        try:  # `routes.values()` walks what `routes[k]` reads
            found = self._collection_text(facts, caller, walked[: len(walked) - len(view)], depth)
        finally:
            self._holding -= 1
        if found is None:
            return None
        where, written, scope = found
        spec = spec_of(where)
        element = spec.first_type(written) if first else spec.index_type(written) if view else spec.element_type(written)
        return (where, element, scope) if element else None

    def _collection_text(self, facts: FileFacts, caller: Unit | None, expr: str, depth: int) -> tuple[FileFacts, str, Unit | None] | None:
        """(the file it is written in, the declared type text, the unit it is written in) of a walked
        expression: a typed parameter or local (`steps`), or a field read off one or off the method's
        own object (`self.steps`, `c.handlers`, `unit.deps.items`), references and the language's
        element adapters (`.iter()`) taken off."""
        expr = _bare(expr)
        spec = spec_of(facts)
        for adapter in spec.element_adapters:
            if expr.endswith(adapter):
                expr = expr[: -len(adapter)]
        if "[" in expr:  # `s.handlers[i]`, `t[i].root`, `routes[name]`: an element read, then fields
            return self._indexed_text(facts, caller, expr, depth)
        if expr.endswith(")"):  # `c.Commands()`, `self.handlers()`: what the call is declared to return
            return self._returned_text(facts, caller, expr)
        parts = expr.replace("?.", ".").split(".")
        if not parts or not all(p.isidentifier() for p in parts):
            return None
        method, owner = self._enclosing_type(caller)
        if (owner is not None and parts[0] not in _SELF_WORDS and not self._declared_type(caller, parts[0], elements=True)
                and self._implicit_field(facts, caller, parts[0]) is not None):
            parts = ["this", *parts]  # Java's bare field (`steps.forEach(…)`): a field of `this`
        if parts[0] in _SELF_WORDS or (method is not None and parts[0] == method.receiver):
            if len(parts) < 2 or owner is None:
                return None
            head: Unit | tuple[str, str] | None = owner
        else:
            declared = self._declared_type(caller, parts[0], elements=True)
            if declared.startswith(HOLDS):  # `handlers := c.handlers` then `range handlers`
                read = declared[len(HOLDS):]
                if _head(read) == parts[0] or depth >= MAX_NESTING:
                    return None
                return self._collection_text(facts, caller, ".".join((read, *parts[1:])), depth + 1)
            if len(parts) == 1:  # a loop variable walked in turn: an element of an element
                if declared.startswith(ELEMENT_OF):
                    return self._element_text(facts, caller, declared[len(ELEMENT_OF):], depth + 1, parts[0]) if depth < MAX_NESTING else None
                return (facts, declared, caller) if declared else None
            if declared.startswith(ELEMENT_OF):
                head = self._element_of(facts, caller, declared[len(ELEMENT_OF):], depth + 1, parts[0]) if depth < MAX_NESTING else None
            else:
                head = self._value_type(facts, declared, caller) if declared else None
        for part in parts[1:-1]:
            head = self._field_step(head, part)
        return self._field_text(head, parts[-1])

    def _variant_payload(self, facts: FileFacts, caller: Unit | None, bound: str) -> Unit | None:
        """What a pattern of an enum variant binds at a position (`Value::String(ref f)`: `Value::String(0)`,
        `Self::Pair(1)`): the type the enum declares there, read where the enum is declared."""
        if bound.endswith(")"):
            path, _, position = bound.rpartition("(")
            member = f"({position}"
        else:  # `Value::Named { ref inner }`: `Value::Named.inner`; `Conn { state, .. }`: `Conn.state`
            path, _, field = bound.rpartition(".")
            member = f".{field}"
        written, _, variant = path.rpartition("::")
        enum = (self._enclosing_type(caller)[1] if written == "Self" else self._resolve_type_text(facts, written, caller)) if written else None
        if enum is not None:
            return self._field_type(enum, f"{variant}{member}")
        if member[0] == ".":  # a struct's own pattern
            struct = self._enclosing_type(caller)[1] if path == "Self" else self._resolve_type_text(facts, path, caller)
            return self._field_type(struct, member[1:]) if struct is not None else None
        return None

    def _spanned_receiver(self, caller_id: str | None, receiver: str, at: int, spans: dict) -> str:
        """A receiver naming a lambda's parameter (`it.handle()`, `h.conn.close()`) as the binding of
        the innermost lambda around byte `at` that has one by that name (`it·120·164.handle()`);
        unchanged where none does, or a callable inside that lambda has a parameter so named. `spans`
        caches each caller's lambda bindings (name → (start, end, local, the callable's depth))."""
        end = 0
        while end < len(receiver) and (receiver[end].isalnum() or receiver[end] == "_"):
            end += 1
        if not end:
            return receiver
        known = spans.get(caller_id)
        if known is None:
            known = spans[caller_id] = {}
            cur, depth = self.units.get(caller_id) if caller_id else None, 0
            while cur is not None:
                for local, _ in cur.local_types:
                    if SPANNED in local:
                        name, start, stop = local.split(SPANNED)
                        known.setdefault(name, []).append((int(start), int(stop), local, depth))
                for p in cur.param_names:
                    known.setdefault(p, []).append((cur.start_byte, cur.end_byte, "", depth))
                cur, depth = (self.units.get(cur.parent) if cur.parent else None), depth + 1
        best = None
        for start, stop, local, depth in known.get(receiver[:end], ()):
            if start <= at < stop and (best is None or start > best[0]):
                best = (start, local)
        return best[1] + receiver[end:] if best is not None and best[1] else receiver

    def _indexed_text(self, facts: FileFacts, caller: Unit | None, expr: str, depth: int) -> tuple[FileFacts, str, Unit | None] | None:
        """`_collection_text` of an expression that reads an element (`s.handlers[i]`, `m[key]`: what
        the collection's declared type says an index reads, the language's `spec.index_type`; a
        slice `xs[1:]` is of the collection's own type) or a field of one (`t[i].root`)."""
        if depth >= MAX_NESTING:
            return None
        if expr.endswith("]"):
            opened = _opening(expr)
            if opened is None or opened == 0:
                return None
            found = self._collection_text(facts, caller, expr[:opened], depth + 1)
            if found is None:
                return None
            where, written, scope = found
            if ":" in expr[opened:]:  # a slice of a slice or an array: the same elements
                return found if spec_of(where).index_type(written) else None
            element = spec_of(where).index_type(written)
            return (where, element, scope) if element else None
        cut = expr.rfind(".")
        if cut <= 0 or not expr[cut + 1 :].isidentifier() or expr.rfind("]") > cut:
            return None
        found = self._collection_text(facts, caller, expr[:cut], depth + 1)
        if found is None:
            return None
        where, written, scope = found
        return self._field_text(self._value_type(where, written, scope), expr[cut + 1 :])

    def _indexed_target(self, facts: FileFacts, caller: Unit | None, expr: str) -> Unit | tuple[str, str] | None:
        """What a receiver reading an element denotes (`s.handlers[i].ServeHTTP()`, `self.routes[k].match()`)."""
        found = self._collection_text(facts, caller, expr, 0)
        return self._value_type(*found) if found is not None else None

    def _returned_text(self, facts: FileFacts, caller: Unit | None, expr: str) -> tuple[FileFacts, str, Unit] | None:
        """(the file, the declared return type text, the callable) of the proven callee of a call
        expression (`c.Commands()` → `[]*Command`)."""
        called = self._called(facts, caller, expr)
        target = called[0] if called is not None else None
        if target.__class__ is not Unit or not target.is_callable:
            return None
        where = self.files.get(target.path)
        written = target.returns or (target.results[0] if len(target.results) == 1 else "")
        return (where, written, target) if where is not None and written else None

    def _field_text(self, head: Unit | tuple[str, str] | None, name: str) -> tuple[FileFacts, str, Unit] | None:
        """(the file, the declared type text, the declaring type) of field `name` of a typed value, in a
        language that declares its fields; None when unknown or made by a call."""
        if is_carried(head):
            head = self._carried_parts(head[1])[1]
        if head.__class__ is not Unit or not head.is_type:
            return None
        facts = self.files.get(head.path)
        if facts is None or not (spec_of(facts).declared_fields or spec_of(facts).annotated_fields):
            return None
        t = head if head.kind != "impl" else self._resolve_type_text(facts, head.qualname)
        for cur in self.lineage(t) if t is not None else ():
            held = next((h for n, h in cur.attrs if n == name), None)
            if held is not None:
                where = self.files.get(cur.path)
                return (where, held, cur) if where is not None and held and not held.endswith("()") else None
        return None
