"""What keeps a likely rule from guessing (docs/graph.md, "Guards"): a bare name bound in the
functions around the call — a parameter or a local holding a value (`next()`, `done()`: no
definition of that name elsewhere runs), a local reading one member of an imported module (`const
isFunction = astUtils.isFunction`); a call that runs no override (`super`, a private method); a
type that defines no member of the name called. A mixin of `LikelyGraph`, reading the binding text
`ForeignValues` keeps per file."""

from __future__ import annotations

import re

from ..index.facts import CLASS_KINDS, FileFacts, Unit
from ..languages import BY_NAME
from .foreign import _dict_scoping
from .rules import _PRIVATE, _private_name


_MEMBER_READ = re.compile(r"([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)")  # `astUtils.isFunction`


class Guards:
    def _static_site(self, how: str | None, dst: Unit) -> bool:
        """A resolved call that runs its target and no override: `super().m()` / `super.m()` (up to
        the supertype's member only), Python's `Base.m(self)` naming the class (elsewhere a type
        named still dispatches: Rust's `Trait::m(self)`, a Kotlin `expect object`'s actual
        declarations). `how`: `_FileCtx.static_sites`."""
        if how == "super":
            return True
        if how == "owner" and dst.receiver and dst.param_names[:1] == (dst.receiver,):
            # a method taking its object as a parameter, called through its class with the object
            # passed (Python's `Base.__init__(self, …)`)
            owner = self.index.resolver.units.get(dst.parent) if dst.parent else None
            return owner is not None and owner.kind == "class"
        return False

    def _private(self, owner: Unit, name: str) -> bool:
        """A private method of `owner` (by its name, or every declaration of it in `owner` marked
        `private`): the types below cannot override it, so a call runs that one."""
        if _private_name(name):
            return True
        key = (owner.id, name)  # asked once per dispatch: memoized
        hit = self._memo_private.get(key)
        if hit is None:
            members = [m for m in self.index.resolver.members_of(owner).get(name, []) if m.is_callable and m.parent == owner.id]
            hit = self._memo_private[key] = bool(members) and all(_PRIVATE.match(self.index.sources.get(m.path, b""), m.start_byte) for m in members)
        return hit

    def _value_named(self, facts: FileFacts, caller: Unit | None, name: str) -> bool:
        """A bare call's name is a parameter or a local of an enclosing function, so the call runs
        the value it holds (no definition of that name elsewhere). Java keeps methods and variables
        apart (`node(…)` beside a local `node` is the method); in Kotlin only a local of a function
        type is what the call invokes. A parameter defaulting to the function of its own name and a
        name only an object destructuring binds (`const { parentNode } = internals`) are no values."""
        spec = BY_NAME.get(facts.language)
        if spec is not None and spec.implicit_this:  # a bare name can be a member: Java, Kotlin
            # with no call protocol a variable cannot be called (Java: `node(…)` is the method);
            # with one, only a local of a function type is what the call invokes (Kotlin)
            return bool(spec.call_protocol) and "->" in self.index.resolver._declared_type(caller, name)
        if not self._is_local(facts, caller, name) and not self._bound_here(facts, caller, name):
            return False
        units = self.index.resolver.units
        bindings = self._bindings(facts.path)
        assigned = self._ctx(facts.path).assigned
        cur = caller
        while cur is not None and not cur.is_type:
            if name in cur.param_names:
                # `def send(self, …, Event=Event)`, `function f(fn = fn)`: a parameter that defaults
                # to the function of its own name holds that function (a speed idiom)
                sig = self.index.sources.get(cur.path, b"")[cur.start_byte : cur.sig_end_byte]
                word = name.encode()
                # the name twice in the signature first: a pattern per name is costly to compile
                return sig.count(word) < 2 or re.search(rb"(?<![\w$.])" + re.escape(word) + rb"\s*(?::[^=,()]*)?=\s*" + re.escape(word) + rb"\b(?!\s*[.(\[])", sig) is None
            if cur.is_callable:
                start, end, holes = cur.sig_end_byte, cur.end_byte, self._holes(cur)
                if (
                    (cur.id, name) in assigned or bindings.assigned(name, start, end, False, holes)
                    or bindings.declared(name, start, end, holes) or bindings.other(name, start, end, named=False, holes=holes)
                ):
                    return True
                if bindings.other(name, start, end, holes=holes):
                    # only `const { parentNode } = internals`: the property of that name, which may be
                    # a function handed out under it
                    return False
            cur = units.get(cur.parent) if cur.parent else None
        return True

    def _aliased_member(self, facts: FileFacts, caller: Unit | None, name: str) -> list[tuple[Unit, float, str]]:
        """A local every assignment of which reads one member of an imported module or class
        (`const isFunction = astUtils.isFunction`, `signature = canvas.maybe_signature`): that member."""
        bindings = self._bindings(facts.path)
        units = self.index.resolver.units
        cur = caller
        while cur is not None and cur.is_callable:
            rhs = bindings.assigned(name, cur.sig_end_byte, cur.end_byte, False, self._holes(cur))
            if rhs:
                read = {(m.group(1), m.group(2)) if m else None for m in (_MEMBER_READ.fullmatch(r) for r in rhs)}
                if len(read) != 1 or None in read:
                    return []
                head, member = read.pop()  # type: ignore[misc]
                return self._module_member(facts, head, member) or self._imported_class_member(facts, head, member)
            cur = units.get(cur.parent) if cur.parent else None
        return []

    def _bound_here(self, facts: FileFacts, caller: Unit | None, name: str) -> bool:
        """A name an enclosing function binds in a way the index does not record as a local: a loop
        target, `with … as name`, a tuple or array destructuring, a declaration (`let name = …`; in
        Python any assignment). Not an object destructuring's shorthand (`const { mount } = app`):
        it keeps the property's name, which may be a function's handed out by that name."""
        bindings = self._bindings(facts.path)
        units = self.index.resolver.units
        python = _dict_scoping(BY_NAME.get(facts.language))
        cur = caller
        while cur is not None and cur.is_callable:
            start, end, holes = cur.sig_end_byte, cur.end_byte, self._holes(cur)
            if bindings.other(name, start, end, named=False, holes=holes) or (
                bindings.assigned(name, start, end, False, holes) if python else bindings.declared(name, start, end, holes)
            ):
                return True
            cur = units.get(cur.parent) if cur.parent else None
        return False

    def _lacks(self, t: Unit, name: str) -> bool:
        """Neither `t` nor a type above it defines `name`, as far as the index can tell: every
        supertype it names is bound (or no project type of that name exists), and no extension
        function of that name exists anywhere (`private fun Path.requireExist()` in another type)."""
        if self._members_named(t, name) or any(u.ext_type for u in self.by_name().get(name, ())):
            return False
        resolver = self.index.resolver
        for cur in resolver.lineage(t, 6):
            bound = {u.name for u in resolver.supertypes_of(cur)}
            facts = self.index.files.get(cur.path)
            for sup in facts.supertypes if facts is not None else ():
                if sup.unit == cur.id and sup.name not in bound and any(u.kind in CLASS_KINDS for u in self.by_name().get(sup.name, ())):
                    return False  # a project supertype the resolver did not bind: its members are unknown
        return True
