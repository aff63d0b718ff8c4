"""Typed-receiver rules of the ranked graph: what type a receiver, a local, a member or a view
holds (`attr-type`, `field-type`, `return-type`, `local-type`, `declared-type`, `field-binding`).
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, Call, FileFacts, Unit
from ..languages import BY_NAME
from ..languages.spec import last_segment
from ..model.facts import ELEMENT_OF, SPANNED, VARIANT_OF
from .rules import _calls, _is_test, _segments, _type_args

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex  # noqa: F401


def _lambda_bound(facts: FileFacts, caller: Unit | None, name: str) -> bool:
    """Whether a lambda inside `caller` has a parameter `name` (recorded under the lambda's span,
    `r·120·164`) in a language whose untyped locals go unrecorded: the ranked graph, which reads no
    positions, leaves such a name to the resolver (a call on it inside the lambda is the parameter's,
    outside it the local's). A name a pattern binds in a block (`Value::Named { inner } =>`) is no
    lambda's: the ranked graph reads it as the field it is named like, as before."""
    spec = BY_NAME.get(facts.language)
    prefix = name + SPANNED
    return (caller is not None and spec is not None and not spec.complete_locals
            and any(n.startswith(prefix) and not declared.startswith(VARIANT_OF) for n, declared in caller.local_types))


# the modifier of a multiplatform declaration, before its name (`internal expect class Sink`)
_EXPECT = re.compile(rb"[^{(=]*?\bexpect\s+(?:[a-z]+\s+)*(?:class|interface|object)\b")


FLOW_DEPTH = 3  # a member handed through constructors (`this.x = x`, whose caller had it handed in too), followed this deep


def _argument(source: bytes, call: Call, position: int, keyword: str) -> str | None:
    """The text of a call's argument: `keyword=…` if passed so, else the one at `position` (None
    when absent, or after a spread whose positions are unknown)."""
    text = source[call.start_byte : call.end_byte].decode("utf-8", "replace")
    at = text.find(call.name)
    at = text.find("(", at + len(call.name) if at >= 0 else 0)
    if at < 0:
        return None
    args, depth, cur, quote = [], 0, [], ""
    escaped = False
    for ch in text[at + 1 :]:
        if quote:
            cur.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True  # `"a\"b"`: the quote after a backslash does not end the string
            elif ch == quote:
                quote = ""
            continue
        if ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        args.append("".join(cur).strip())
    for a in args:
        named = re.match(r"(\w+)\s*=(?!=)\s*(.*)", a, re.S)
        if named and named.group(1) == keyword:
            return named.group(2).strip()
    plain = []
    for a in args:
        if a.startswith(("*", "...")):
            return None
        if re.match(r"\w+\s*=(?!=)", a):
            break  # keyword arguments end the positional ones
        plain.append(a)
    return plain[position] if 0 <= position < len(plain) else None


class TypedReceivers:
    """Mixin of LikelyGraph: the type a receiver expression holds."""

    index: "RootIndex"

    def _patched_type(self, statement: Unit) -> Unit | None:
        """The type a module-level statement gives members when it loads (`Axios.prototype[m] =
        function () { return this.request(…) }`): `this` in the functions it assigns is that type."""
        facts = self.index.files.get(statement.path)
        spec = BY_NAME.get(facts.language) if facts is not None else None
        if spec is None or spec.runtime_members is None:
            return None
        hit = spec.runtime_members.search(self.index.sources.get(statement.path, b""), statement.start_byte, statement.end_byte)
        return self._type_named(statement.path, hit.group(1).decode()) if hit else None

    def _type_named(self, path: str, name: str) -> Unit | None:
        """A type called `name` near `path`: in the file, else the one in the nearest tier."""
        key = (path, name)
        if key not in self._memo_types:
            self._memo_types[key] = self._find_type_named(path, name)
        return self._memo_types[key]

    def _find_type_named(self, path: str, name: str) -> Unit | None:
        facts = self.index.files.get(path)
        if facts is None:
            return None
        local = [u for u in self.index.resolver.top.get(path, {}).get(name, []) if u.kind in CLASS_KINDS and u.kind != "impl"]
        if len(local) == 1:
            return local[0]
        defs = [u for u in self.by_name().get(name, []) if u.kind in CLASS_KINDS and u.kind != "impl"]
        hits = self._best_tier(path, defs)
        if len(hits) > 1:
            expect = self._expected(hits)
            package = getattr(self.index.files.get(expect[0].path), "package", "")
            if len(expect) == 1 and (package == facts.package or any(i.module == package and i.name in (name, "*") for i in facts.imports)):
                return expect[0]
        if len(hits) == 1 and self._tier(path, hits[0]) <= 2:
            return hits[0]
        # imported by name through a re-export (`use crate::cache::ReadyCache` where cache/mod.rs
        # re-exports it): the one type of that name in the workspace
        if len(defs) == 1 and not _is_test(defs[0].path) and any((imp.alias or imp.name) == name for imp in facts.imports):
            return defs[0]
        return None

    def _expected(self, hits: list[Unit]) -> list[Unit]:
        """One type declared in several source sets (Kotlin `expect class T` and its `actual`
        classes, one package): the `expect` declaration stands for them all (the members common
        code sees); other look-alikes stay ambiguous."""
        files = self.index.files
        if len({getattr(files.get(u.path), "package", "") for u in hits} | {""}) != 2:
            return hits
        expect = [u for u in hits if _EXPECT.match(self.index.sources.get(u.path, b""), u.start_byte, u.end_byte)]
        return expect if len(expect) == 1 else hits

    def _actuals(self, t: Unit) -> list[Unit]:
        """The `actual` declarations of an `expect` type (same name and package, other source
        sets): the types below them are below it too."""
        hit = self._memo_actuals.get(t.id)
        if hit is None:
            hit = self._memo_actuals[t.id] = self._find_actuals(t)
        return hit

    def _find_actuals(self, t: Unit) -> list[Unit]:
        files = self.index.files
        package = getattr(files.get(t.path), "package", "")
        if not package or not _EXPECT.match(self.index.sources.get(t.path, b""), t.start_byte, t.end_byte):
            return []
        actual = [u for u in self.by_name().get(t.name, ()) if u.id != t.id and u.kind in CLASS_KINDS and getattr(files.get(u.path), "package", "") == package]
        # the resolver binds no supertype written with that name (it names several types): the
        # types declaring it in that package or importing it from there
        units = self.index.resolver.units
        below = [
            units[s.unit] for f in files.values() if f.package and (f.package == package or any(i.module == package and i.name in (t.name, "*") for i in f.imports))
            for s in f.supertypes if s.name == t.name and s.unit in units
        ]
        return actual + below

    def _type_from_text(self, facts: FileFacts, text: str) -> Unit | None:
        """A declared type as a type unit; an array or a container/wrapper from outside the
        index (`List<Factory>`, `Lazy<Cache>`, `Foo[]`) stands for its element type."""
        key = (facts.path, text)
        if key not in self._memo_texts:
            self._memo_texts[key] = None  # an alias named in its own arguments (`type Item = Vec<St::Item>`) ends here
            self._memo_texts[key] = self._find_type_from_text(facts, text)
        return self._memo_texts[key]

    def _find_type_from_text(self, facts: FileFacts, text: str) -> Unit | None:
        text = text.strip()
        while text.endswith("[]"):
            text = text[:-2].strip()
        t = self.index.resolver._resolve_type_text(facts, text)
        if t is not None:
            return self._past_alias(t)
        name = last_segment(text)
        t = self._type_by_path(facts, text, name)  # `proto::h2::Server`: the path decides before locality
        if t is not None:
            return t
        t = self._type_named(facts.path, name) if name and name[:1].isupper() else None
        if t is not None:
            return self._past_alias(t)
        aliased = self._alias_of(facts, name) if name and name[:1].isupper() else ""
        if aliased:
            return self._type_from_text(facts, aliased)
        for args in _type_args(text)[::-1]:
            t = self._type_from_text(facts, args)
            if t is not None:
                return t
        return None

    def _type_by_path(self, facts: FileFacts, text: str, name: str) -> Unit | None:
        """`proto::h1::Dispatcher<…>`: the one type of that name whose file lies under the
        directories the path spells (`…/proto/h1/…`), where the path's modules do not resolve."""
        head = text.split("<", 1)[0].replace("::", ".").split(".")
        dirs = [p for p in head[:-1] if p not in ("crate", "self", "super", "")]
        if not dirs or not name:
            return None
        spelled = "/" + "/".join(dirs) + "/"
        hits = [
            u for u in self.by_name().get(name, ())
            if u.kind in CLASS_KINDS and u.kind != "impl" and (spelled in "/" + u.path or ("/" + posixpath.splitext(u.path)[0]).endswith(spelled[:-1]))
        ]
        hits = [u for u in hits if not _is_test(u.path)] if not _is_test(facts.path) else hits
        return hits[0] if len(hits) == 1 else None

    def _past_alias(self, t: Unit) -> Unit:
        """The type an alias unit stands for (Go's `type Config = base.Config` is a unit: its members
        are the target's), itself when it is no alias or its target is not in the index."""
        facts = self.index.files.get(t.path)
        spec = BY_NAME.get(facts.language) if facts is not None and t.kind in CLASS_KINDS else None
        if spec is None or spec.type_alias is None:
            return t
        own = spec.type_alias.match(self.index.sources.get(t.path, b"")[t.start_byte : t.end_byte])  # the unit is an alias
        target = own.group(2).decode("utf-8", "replace").strip() if own is not None and own.group(1).decode() == t.name else ""
        if not target:
            return t
        found = self._type_from_text(facts, target)  # (memoised: an alias cycle ends in None)
        return found if found is not None else t

    def _alias_of(self, facts: FileFacts, name: str) -> str:
        """What a type alias declared in the file stands for (`type H1<T> = proto::Dispatcher<T>;`),
        "" when the file declares none of that name. An alias of itself is none."""
        target = self._alias_targets(facts).get(name, "")
        return target if target and last_segment(target) != name else ""

    def _alias_targets(self, facts: FileFacts) -> dict[str, str]:
        aliases = self._aliases.get(facts.path)
        if aliases is None:
            spec = BY_NAME.get(facts.language)
            source = self.index.sources.get(facts.path, b"") if spec is not None and spec.type_alias is not None else b""
            aliases = self._aliases[facts.path] = {  # the first declaration of a name wins (`#[cfg]` variants)
                m.group(1).decode(): m.group(2).decode("utf-8", "replace").strip()
                for m in reversed(list(spec.type_alias.finditer(source)))
            } if b"type " in source else {}
        return aliases

    def _held_type(self, facts: FileFacts, held: str) -> tuple[Unit | None, bool]:
        """The type a member or local holds: (type, made by a call)."""
        if not held.endswith("()"):
            return self._type_from_text(facts, held), False
        callee = held[:-2]
        resolver = self.index.resolver
        parts = [p for p in callee.replace("::", ".").split(".") if p]
        if not parts:
            return None, True
        head = resolver._lookup(facts, None, parts[0])
        for part in parts[1:]:
            head = resolver._member_of(head, part)
        if isinstance(head, Unit):
            if head.kind in CLASS_KINDS:
                return head, True
            if head.is_callable and head.returns:
                other = self.index.files.get(head.path)
                return (self._type_from_text(other, head.returns) if other is not None else None), True
            return None, True
        return self._type_named(facts.path, parts[-1]) if parts[-1][:1].isupper() else None, True

    def _member_type(self, t: Unit, name: str) -> tuple[Unit | None, str]:
        """What member `name` of type `t` (or of its supertypes) holds: (type, rule)."""
        for cur in self.index.resolver.lineage(t, 5):
            held = next((h for n, h in cur.attrs if n == name), None)
            if held:
                facts = self.index.files.get(cur.path)
                if facts is None:
                    return None, ""
                found, made = self._held_type(facts, held)
                return found, ("attr-type" if made else "field-type")
            flowed = self._param_flow(cur, name)
            if flowed is not None:
                return flowed, "param-flow"
        getter = self.index.resolver.find_member(t, name)
        if getter is not None and getter.is_callable and getter.returns and self._getter(getter):
            # `self.lexer.tokenize()` where `lexer` is a `@property … -> Lexer` or a `get lexer(): Lexer`:
            # reading the member runs it, and it declares what it gives
            found, _ = self._made_by(getter)
            if found is not None:
                return found, "return-type"
        return None, ""

    def _getter(self, u: Unit) -> bool:
        """A member read without a call: a Python `@property` (cached or not), a JavaScript/TypeScript `get`."""
        if any(d.lstrip("@").rsplit(".", 1)[-1] in ("property", "cached_property") for d in u.decorators):
            return True
        return self._accessor_kind(u) == "get"

    def _local_type(self, facts: FileFacts, caller: Unit | None, local: str) -> tuple[Unit | None, str]:
        """`x = Foo()` / `x = f()` (f declared `-> Ctx`) in the same callable: x's type. Not where an
        anonymous function's parameter rebinds the name (`conns.forEach { s -> s.close() }`, `|s|`,
        `(s) =>`: the extractor marks it untyped or an element where the language records no other
        untyped local): which binding a call sees is a question of blocks (bindings/resolve.py REBOUND)."""
        if caller is None:
            return None, ""
        spec = BY_NAME.get(facts.language)
        if spec is not None and not spec.complete_locals and (any(
                n == local and (not declared or declared.startswith(ELEMENT_OF)) for n, declared in caller.local_types)
                or _lambda_bound(facts, caller, local)):  # a lambda's parameter of the name: which one a call sees is the resolver's question
            return None, ""
        ctx = self._ctx(facts.path)
        idxs = ctx.assigned.get((caller.id, local))
        if not idxs:
            return None, ""
        dsts = {ctx.call_dst.get(i) for i in idxs}
        if dsts == {None} and len(idxs) == 1:  # `let me = self.project()`: a view of what it is called on
            call = _calls(facts)[idxs[0]]
            if call.assigned_rest:  # a destructuring's local: no view, no whole result
                return None, ""
            t, rule = self._view_type(facts, caller, call)
            return (t, rule) if t is not None else self._likely_made(facts, caller, local, call)
        if len(dsts) != 1 or None in dsts:
            return None, ""
        target = self.index.resolver.units.get(next(iter(dsts)))  # type: ignore[arg-type]
        if target is None:
            return None, ""
        if target.kind == "constructor" and target.parent:
            return self.index.resolver.units.get(target.parent), "local-type"
        position = _position(facts, idxs, local)
        return self._made_by(target) if position is None else self._made_at(target, position)

    def _likely_made(self, facts: FileFacts, caller: Unit, local: str, call: Call) -> tuple[Unit | None, str]:
        """`rootCmd := c.Root()` where the resolver left `c.Root()` unknown: what its one strong
        likely target makes (a typed rule's method with a declared return type)."""
        key = (caller.id, local)
        if key in self._typing:  # `x = x.next()`: no type from itself
            return None, ""
        self._typing.add(key)
        try:
            hits = [h for h in self.targets(facts, call) if h[1] >= 0.85]
        finally:
            self._typing.discard(key)
        if len({h[0].id for h in hits}) != 1:
            return None, ""
        t, _ = self._made_by(hits[0][0])
        return (t, "return-type") if t is not None else (None, "")

    def _receiver_type(self, facts: FileFacts, caller: Unit | None, steps: list[tuple[str, bool]]) -> tuple[Unit | None, str]:
        """The type a receiver holds (`self.session_interface`, `ctx`, `factories.get(i)`), and
        the rule that typed its last step."""
        resolver = self.index.resolver
        method, owner = self._enclosing(caller)
        self_words = {"self", "this", "Self"} | ({method.receiver} if method is not None and method.receiver else set())
        head, called = steps[0]
        t: Unit | None
        if called:
            hit = resolver._lookup(facts, caller, head)
            t, rule = self._made_by(hit)
        elif head in self_words:
            t, rule = owner, "self"
        elif _lambda_bound(facts, caller, head):  # a lambda's parameter of the name: which binding is the resolver's question
            return None, ""
        else:
            declared = resolver._declared_type(caller, head)
            if declared:
                t, rule = self._type_from_text(facts, declared), "declared-type"
            else:
                t, rule = self._local_type(facts, caller, head)
                if t is None and owner is not None:
                    spec = BY_NAME.get(facts.language)
                    if spec is not None and spec.implicit_this and not self._is_local(facts, caller, head):
                        t, rule = self._member_type(owner, head)
                    elif spec is not None and spec.field_bindings and not self._is_local(facts, caller, head):
                        t, rule = self._field_binding(owner, head)
                if t is None and len(steps) > 1 and steps[1][1] and head[:1].isupper() and not self._is_local(facts, caller, head):
                    # `AutoHelp::new(…).write_help()`: a type's associated function, what it makes
                    t, rule = self._type_named(facts.path, head), "return-type"
        views = self._self_views(facts)
        rest = steps[1:]
        while rest:
            (name, called), rest = rest[0], rest[1:]
            if t is None:
                return None, ""
            if called:  # `x.make()`: what make returns; `list.get(i)` on a container: its element
                m = resolver.find_member(t, name)
                if m is None and (rule != "self" or name in views):  # `self.as_mut()`: self itself
                    continue
                t, rule = self._made_by(m)
            elif rest and not rest[0][1] and self._member_type(t, f"{name}.{rest[0][0]}")[0] is not None:
                # `this.queues.request`: an entry of an object literal the member holds
                t, rule = self._member_type(t, f"{name}.{rest[0][0]}")
                rest = rest[1:]
            else:
                t, rule = self._member_type(t, name)
        return (t, rule) if t is not None else (None, "")

    # ---- param-flow: a member set from an untyped constructor parameter -----------------------
    def _param_flow(self, t: Unit, name: str) -> Unit | None:
        """`self.app = app` / `this.filter = filter` in t's constructor, the parameter untyped (Python,
        JavaScript): the one type the project's constructions of t pass in that place (`new
        RouterExplorer(…, new RouterExceptionFilters(…))`, `Consumer(app=self.app)` where the caller's
        member is typed). Dependency injection by hand: the type is in the caller, not the callee.
        An argument typed by another param-flow is followed FLOW_DEPTH constructors deep; a nested
        answer is always the depth-cut one (never the memo's), so no answer depends on which call was
        asked about first."""
        key = (t.id, name)
        if not self._flowing and key in self._memo_flow:  # a nested answer is always the depth-cut one
            return self._memo_flow[key]
        if self._flowing >= FLOW_DEPTH or key in self._flow_stack:
            return None
        self._flowing += 1
        self._flow_stack.append(key)
        try:
            found = self._find_param_flow(t, name)
        finally:
            self._flowing -= 1
            self._flow_stack.pop()
        if not self._flowing:  # only a whole answer is kept: a nested one was cut by the depth
            self._memo_flow[key] = found
        return found

    def _find_param_flow(self, t: Unit, name: str) -> Unit | None:
        ctor = self.constructor(t)
        if ctor is None or not ctor.param_names:
            return None
        body = self.index.sources.get(ctor.path, b"")[ctor.sig_end_byte : ctor.end_byte]
        word = name.encode()  # `.name` in the body first: a pattern per name is costly to compile
        hit = re.search(rb"^[ \t]*(?:self|this)\." + re.escape(word) + rb"[ \t]*=[ \t]*(\w+)[ \t]*;?[ \t]*$", body, re.M) if b"." + word in body else None
        param = hit.group(1).decode() if hit else ""
        at = ctor.param_names.index(param) if param in ctor.param_names else -1
        if at < 0 or (at < len(ctor.param_types) and ctor.param_types[at]):
            return None  # not a parameter, or a typed one (the index records those as attrs)
        skip = 1 if ctor.receiver and ctor.param_names[0] == ctor.receiver else 0  # Python's `self`
        position = at - skip
        types: set[str] = set()
        kept: Unit | None = None
        for facts, i, call in self._constructions(t.name):
            arg = _argument(self.index.sources.get(facts.path, b""), call, position, param)
            if arg is None:
                continue
            caller = self.index.resolver.units.get(call.caller) if call.caller else None
            maker = self._enclosing(caller)[1] if caller is not None else None
            if maker is not None and maker.id == t.id:
                continue  # t making another of itself hands on its own member: no new evidence
            dst = self._ctx(facts.path).call_dst.get(i)
            target = self.index.resolver.units.get(dst) if dst else None
            if dst and (target is None or (target.id != t.id and target.parent != t.id)):
                continue  # the resolver bound this call to something else of that name
            typed = self._argument_type(facts, caller, arg)
            if typed is not None:
                types.add(typed.id)
                kept = typed
            if len(types) > 1:
                return None
        return kept

    # ---- handed-in: a parameter called, holding the function its callers pass -----------------
    def _handed_in(self, facts: FileFacts, caller: Unit | None, name: str) -> list[Unit]:
        """`render(vnode, …)` where `render` is a parameter of `createAppAPI(render, hydrate)`: the
        functions the resolved calls of that function pass in its place, named there
        (`createAppAPI(render, hydrate)` inside `baseCreateRenderer`, whose `render` is its own
        nested function). A call passing anything else (a value, a parameter of its own, a lambda)
        adds nothing; more than MAX_NAME_CANDIDATES functions: none."""
        resolver = self.index.resolver
        binder = caller
        while binder is not None and not binder.is_type and name not in binder.param_names:
            binder = resolver.units.get(binder.parent) if binder.parent else None
        if binder is None or not binder.is_callable or name not in binder.param_names:
            return []
        key = (binder.id, name)
        hit = self._memo_handed.get(key)
        if hit is not None:
            return hit
        at = binder.param_names.index(name)
        skip = 1 if binder.receiver and binder.param_names[0] == binder.receiver else 0  # Python's `self`
        found: dict[str, Unit] = {}
        for src, _, _ in self.index.graph.inc(binder.id):
            site = resolver.units.get(src)
            if site is None or site.path not in self.index.files:
                continue
            site_facts = self.index.files[site.path]
            ctx = self._ctx(site.path)
            source = self.index.sources.get(site.path, b"")
            for i, call in enumerate(_calls(site_facts)):
                if call.caller != src or ctx.call_dst.get(i) != binder.id:
                    continue
                arg = _argument(source, call, at - skip, name)
                if arg is None or not re.fullmatch(r"[A-Za-z_$][\w$]*", arg) or self._is_local(site_facts, site, arg) and not self._nested_named(site, arg):
                    continue
                target = self._nested_named(site, arg) or resolver._lookup(site_facts, site, arg)
                if isinstance(target, Unit) and target.is_callable and target.id != binder.id:
                    found[target.id] = target
        hit = self._memo_handed[key] = list(found.values()) if len(found) <= 3 else []
        return hit

    def _made_function(self, facts: FileFacts, caller: Unit | None, name: str) -> list[Unit]:
        """`handler = c.create_task_handler(); handler(m)`: a local assigned by resolved calls of a
        function that returns one of its nested functions by name (`return on_task_received`):
        that nested function."""
        if caller is None:
            return []
        ctx = self._ctx(facts.path)
        idxs = ctx.assigned.get((caller.id, name))
        found: set[str] = set()
        units = self.index.resolver.units
        for i in idxs or ():
            maker = units.get(ctx.call_dst.get(i, ""))
            returned = self._returned_nested(maker) if maker is not None and maker.is_callable else []
            if len(returned) != 1:
                return []
            found.add(returned[0].id)
        return [units[found.pop()]] if len(found) == 1 else []

    def _returned_nested(self, maker: Unit) -> list[Unit]:
        """The functions nested in `maker` that it returns by name."""
        hit = self._memo_returned.get(maker.id)
        if hit is None:
            body = self.index.sources.get(maker.path, b"")[maker.sig_end_byte : maker.end_byte]
            names = {m.group(1).decode() for m in re.finditer(rb"\breturn[ \t]+([A-Za-z_$][\w$]*)[ \t]*;?[ \t]*(?:$|\n|\})", body)}
            hit = self._memo_returned[maker.id] = [
                u for n in sorted(names) for u in self.by_name().get(n, ()) if u.parent == maker.id and u.is_callable
            ]
        return hit

    def _nested_named(self, scope: Unit, name: str) -> Unit | None:
        """A function called `name` nested in `scope` or in a callable around it."""
        units = self.index.resolver.units
        cur = scope
        while cur is not None and cur.is_callable:
            for u in self.by_name().get(name, ()):
                if u.parent == cur.id and u.is_callable:
                    return u
            cur = units.get(cur.parent) if cur.parent else None
        return None

    def _constructions(self, name: str) -> list[tuple[FileFacts, int, Call]]:
        """The calls that may construct a type called `name` (`new X(…)`, `X(…)`) outside tests, read
        only in the files that name it (the resolver's reverse index). Only an untyped parameter asks,
        so in typed languages they are never looked at."""
        hit = self._constructs.get(name)
        if hit is None:
            hit = []
            for path in sorted(self.index.resolver.refs.get(name, ())):
                facts = self.index.files.get(path)
                if facts is None or _is_test(path):
                    continue
                hit += [(facts, i, call) for i, call in enumerate(_calls(facts)) if call.name == name]
            self._constructs[name] = hit
        return hit

    def _argument_type(self, facts: FileFacts, caller: Unit | None, arg: str) -> Unit | None:
        """The type an argument expression holds at its call site, by the typed rules."""
        made = re.fullmatch(r"(?:new\s+)?([\w.]+)\s*(?:<[^()]*>)?\s*\(.*\)", arg, re.S)
        if made:
            return self._held_type(facts, made.group(1) + "()")[0]
        member = re.fullmatch(r"(?:self|this)\.(\w+)", arg)
        if member:
            owner = self._enclosing(caller)[1]
            return self._member_type(owner, member.group(1))[0] if owner is not None else None
        if re.fullmatch(r"\w+", arg):
            if arg in ("self", "this"):
                return self._enclosing(caller)[1]
            if _lambda_bound(facts, caller, arg):
                return None
            declared = self.index.resolver._declared_type(caller, arg)
            if declared:
                return self._type_from_text(facts, declared)
            return self._resolved_local(facts, caller, arg)
        return None

    def _resolved_local(self, facts: FileFacts, caller: Unit | None, local: str) -> Unit | None:
        """`x = Foo()` in the caller, the call resolved: x's type (no likely rule: what a likely rule
        answers may itself read a param-flow, and this one must not depend on the order of asking)."""
        ctx = self._ctx(facts.path)
        idxs = ctx.assigned.get((caller.id, local)) if caller is not None else None
        dsts = {ctx.call_dst.get(i) for i in idxs or ()}
        if dsts == {None} and len(idxs or ()) == 1 and _calls(facts)[idxs[0]].construct:  # type: ignore[index]
            made = _calls(facts)[idxs[0]]  # type: ignore[index]  # `const c = new mod.Consumer()`, unresolved
            return self._held_type(facts, f"{made.receiver}.{made.name}()" if made.receiver else f"{made.name}()")[0]
        if len(dsts) != 1 or None in dsts:
            return None
        target = self.index.resolver.units.get(next(iter(dsts)))  # type: ignore[arg-type]
        if target is not None and target.kind == "constructor" and target.parent:
            return self.index.resolver.units.get(target.parent)
        position = _position(facts, idxs, local)  # type: ignore[arg-type]
        return (self._made_by(target) if position is None or target is None else self._made_at(target, position))[0]

    def _self_views(self, facts: FileFacts) -> frozenset[str]:
        spec = BY_NAME.get(facts.language)
        return spec.self_views if spec is not None else frozenset()

    def _view_type(self, facts: FileFacts, caller: Unit | None, call: Call) -> tuple[Unit | None, str]:
        """The type a view call hands back (`self.project()`, `self.as_mut()`): its receiver's,
        when that type does not define the call itself."""
        if call.name not in self._self_views(facts) or not call.receiver:
            return None, ""
        steps = _segments(call.receiver)
        if steps is None or (steps[0][0], call.assigned_to) == (call.assigned_to, call.assigned_to):
            return None, ""  # `let x = x.as_ref()`: no self-reference
        t, rule = self._receiver_type(facts, caller, steps)
        if t is None or self.index.resolver.find_member(t, call.name) is not None:
            return None, ""
        return t, rule

    def _field_binding(self, owner: Unit, local: str) -> tuple[Unit | None, str]:
        """A local named like a field of the method's own type (or one of its enum variants'),
        destructured from self: that field's declared type."""
        t, rule = self._member_type(owner, local)
        return (t, "field-binding") if t is not None and rule == "field-type" else (None, "")

    def _made_at(self, hit: Unit, position: int) -> tuple[Unit | None, str]:
        """The type of `position` of the results `hit` lists (`b` of `a, b := f()`, `let (a, b) = f()`)."""
        declared = hit.results[position] if hit.is_callable and 0 <= position < len(hit.results) else ""
        other = self.index.files.get(hit.path) if len(declared) > 1 and declared != "Self" else None
        return (self._type_from_text(other, declared), "return-type") if other is not None else (None, "")

    def _made_by(self, hit) -> tuple[Unit | None, str]:
        """The type a call of `hit` makes: a type's instance, a callable's declared return type."""
        if not isinstance(hit, Unit):
            return None, ""
        if hit.kind in CLASS_KINDS:
            return hit, "local-type"
        if hit.is_callable and hit.returns:
            if hit.returns == "Self" and hit.parent:  # `fn new(…) -> Self`: the impl's own type
                owner = self._enclosing(hit)[1]
                return (owner, "return-type") if owner is not None and owner.kind in CLASS_KINDS else (None, "")
            other = self.index.files.get(hit.path)
            return (self._type_from_text(other, hit.returns) if other is not None else None), "return-type"
        return None, ""

    def _is_local(self, facts: FileFacts, caller: Unit | None, name: str) -> bool:
        resolver = self.index.resolver
        assigned = self._ctx(facts.path).assigned
        cur = caller
        # a name assigned in a class body (`private val cache = Cache()`) is a member, not a local
        while cur is not None and not cur.is_type:
            if name in cur.param_names or (cur.id, name) in assigned or any(n == name for n, _ in cur.local_types):
                return True
            cur = resolver.units.get(cur.parent) if cur.parent else None
        return False

    # ---- the rules for one unknown call site ------------------------------------------------


def _position(facts: FileFacts, idxs: list[int], local: str) -> int | None:
    """The one result position the calls at `idxs` assign `local` from when they destructure
    (`b` of `a, b := f()`: 1); None when they take the result whole, -1 when positions disagree."""
    calls = _calls(facts)
    found = {calls[i].assigned_rest.split(",").index(local) if calls[i].assigned_rest else None for i in idxs}
    return found.pop() if len(found) == 1 else -1
