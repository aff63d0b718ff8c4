"""Overloads, a stage of resolution: among the declarations of one name in a scope, the ones a
call passing a given number of arguments may mean (Java and Kotlin choose overloads by their
arguments; the count alone often tells). The Resolver inherits these."""

from __future__ import annotations

from functools import lru_cache

from ..model.facts import ELEMENT_OF, HOLDS, FileFacts, Unit
from .resolver_indexes import spec_of

# a parameter of one of these types takes an argument of any type (Kotlin's `Any`, Java's `Object`)
_TOP_TYPES = frozenset({"Any", "Object"})
# the types a string literal argument has
_STRING_TYPES = frozenset({"String", "CharSequence", "Comparable"}) | _TOP_TYPES


@lru_cache(maxsize=65_536)
def _plain(type_name: str) -> str:
    """A parameter's or argument's type as one name: no qualifier, type arguments, nullability,
    array or varargs marks (`kotlin.collections.List<Foo>?` → `List`, `Foo...` → `Foo`)."""
    cut = type_name.find("<")
    name = type_name[:cut] if cut >= 0 else type_name
    return name.strip().rstrip("?.").rpartition(".")[2].removesuffix("[]").strip()


@lru_cache(maxsize=65_536)
def _last(type_name: str) -> str:
    """A parameter's type name without its qualifier: `Painter.State` → `State`."""
    return type_name.rpartition(".")[2]


class Overloads:
    """Choosing among overloads by the count of arguments, for the Resolver (a mixin)."""

    def _admits(self, u: Unit, args: int) -> bool:
        """Whether a call passing `args` arguments may be a call of `u` (true when either is not counted)."""
        arity = u.arity
        if args < 0 or not arity:
            return True
        if len(arity) > 2:  # a Kotlin override: the declaration it overrides has the default values
            arity = self._overridden_arity(u)
        return arity[0] <= args and (arity[1] < 0 or args <= arity[1])

    def _overridden_arity(self, u: Unit) -> tuple[int, ...]:
        """The arity of a Kotlin override, which takes the default values of what it overrides: that
        of the nearest declaration above its type of the same name and parameters; (0, most) when
        none is known (a supertype outside the workspace)."""
        hit = self._memo_arity.get(u.id)
        if hit is None:
            self._memo_arity[u.id] = hit = (0, u.arity[1])  # a cycle ends here
            owner = self.units.get(u.parent) if u.parent else None
            for cur in self.lineage(owner) if owner is not None and owner.is_type else ():
                if cur.id == owner.id:
                    continue
                above = [m for m in self.members_of(cur).get(u.name, ()) if m.arity and m.arity[1] == u.arity[1] and self._same_parameters(m, u)]
                if above:
                    if len(above) == 1:
                        hit = above[0].arity if len(above[0].arity) < 3 else self._overridden_arity(above[0])
                    break
            self._memo_arity[u.id] = hit
        return hit

    @staticmethod
    def _same_parameters(a: Unit, b: Unit) -> bool:
        """Whether two declarations of one name may be one method and its override (the same
        parameter types as written; a type parameter or an unnamed type matches any), not two overloads."""
        if len(a.param_types) != len(b.param_types):
            return False
        return all(x == y or len(x) < 2 or len(y) < 2 or _last(x) == _last(y) for x, y in zip(a.param_types, b.param_types))

    @staticmethod
    def _variants(found: list[Unit]) -> bool:
        """Whether declarations of one name are written with the same parameter types (`State` and
        `Painter.State` alike): one declaration's source-set variants, not overloads."""
        first = [_last(t) for t in found[0].param_types]
        return all([_last(t) for t in u.param_types] == first for u in found[1:])

    def _by_args(self, found: list[Unit] | None, args: int) -> list[Unit] | None:
        """Definitions of one name in a scope that a call passing `args` arguments may mean (Java and
        Kotlin choose among overloads by the arguments; the count alone often tells): those whose
        arity admits it, none when two of those are different overloads. A scope where the name is
        no function alone (a type, an extension function) is left as it is."""
        if not found or any(not u.is_callable or u.ext_type for u in found):
            return found
        return self._fitting(found, args)

    def _fitting(self, found: list[Unit], args: int) -> list[Unit]:
        """`_by_args` over callables alike (overloads, or extension functions of one receiver type)."""
        if args < 0 or len(found) < 2 or not all(u.arity for u in found):
            return found
        fits = [u for u in found if self._admits(u, args)]
        # several left: one declaration's source-set variants (`expect`/`actual`), written alike
        if not fits or self._variants(fits):
            return fits
        pick = self._typed_pick(fits)
        return [pick] if pick is not None else []

    def _typed_pick(self, fits: list[Unit]) -> Unit | None:
        """Of overloads that admit a call's count of arguments, the one its arguments' types choose,
        as Java and Kotlin choose: the one overload whose parameters are those types exactly, else
        the one whose parameters accept them all (a supertype, `Any`/`Object`, a type parameter).
        Only arguments whose type the source states count (a typed parameter or local, a field, `this`,
        a string); None when they leave two or more, or none."""
        known = self._argument_types()
        if not known:
            return None
        exact = [u for u in fits if all(at < len(u.param_types) and _plain(u.param_types[at]) == name for at, name, _ in known)]
        if len(exact) == 1:
            return exact[0]
        if exact:
            return None
        accepting = [u for u in fits if all(self._accepts(u, at, names) for at, _, names in known)]
        return accepting[0] if len(accepting) == 1 else None

    @staticmethod
    def _accepts(u: Unit, at: int, names: frozenset[str]) -> bool:
        if at >= len(u.param_types):
            return True  # a varargs position
        param = _plain(u.param_types[at])
        return param in names or param in _TOP_TYPES or len(param) < 2 or u.param_types[at].lstrip().startswith("(")

    def _argument_types(self) -> tuple:
        """The call being resolved (`_arg_call`): (position, its type's name, the names it may be
        passed as — itself and its supertypes) for each argument whose type the source states."""
        call = self._arg_call
        if call is None:
            return ()
        if self._arg_types is not None and self._arg_types[0] is call:
            return self._arg_types[1]
        facts, caller, words = call
        self._arg_call = None  # what the arguments' types take to read (a field's initialiser) is no call of these arguments
        known = []
        for at, word in enumerate(words.split(",")):
            if not word:
                continue
            if word == '"':
                known.append((at, "String", _STRING_TYPES))
                continue
            t = self._argument_type(facts, caller, word)
            if isinstance(t, Unit):
                known.append((at, t.name, frozenset(s.name for s in self.lineage(t)) | _TOP_TYPES))
            elif t:
                known.append((at, t, frozenset({t}) | _TOP_TYPES))
        self._arg_call = call
        self._arg_types = (call, tuple(known))
        return self._arg_types[1]

    def _argument_type(self, facts: FileFacts, caller: Unit | None, word: str) -> Unit | str | None:
        """The type of one argument word: `this`'s type, a parameter's or typed local's declared type
        (a workspace type, or the name of one from outside: `Long`, `String`), a field's."""
        if word[0] == ":":  # `new Foo(…)`, `(Foo) x`
            t = self._resolve_type_text(facts, word[1:], caller)
            return t if t is not None else _plain(word[1:])
        method, owner = self._enclosing_type(caller)
        if word == "this":
            if caller is not None and caller.ext_type and not self._in_receiver_lambda:
                return self._extended_type(facts, caller)
            return owner if not self._in_receiver_lambda else None
        declared = self._declared_type(caller, word)
        if declared.startswith((ELEMENT_OF, HOLDS)):
            return None
        if declared:
            t = self._resolve_type_text(facts, declared, caller)
            return t if t is not None else _plain(declared) if "<" not in declared and "(" not in declared else None
        if caller is not None and any(word == n for n, _ in caller.local_types):
            return None  # an untyped local
        return self._field_type(owner, word) if owner is not None else None

    def _find_overload(self, t: Unit, name: str, args: int, typed: bool = False) -> Unit | None:
        """The member a call passing `args` arguments runs: the nearest one whose arity admits the
        count (a Java or Kotlin type inherits its supertypes' overloads). Where a type declares several
        of that name, the one it admits is the target only when every other admitted declaration
        above it is that method's (the same parameter types): anything else is left unknown — or,
        `typed`, chosen by the arguments' types among the type's own (`_typed_pick`)."""
        pick: Unit | None = None
        for cur in self.lineage(t):
            found = self.members_of(cur).get(name)
            if not found:
                continue
            if len(found) > 1:  # one declaration's source-set variants pool their members: the type's own
                found = [u for u in found if u.path == cur.path] or found
            fits = [u for u in found if self._admits(u, args)]
            if pick is None:
                if len(fits) > 1:
                    if not typed:
                        return None
                    pick = self._typed_pick(fits)
                    return pick  # chosen among this type's overloads: what is above it overrides or is hidden
                if fits:
                    pick = fits[0]
                    if len(found) == 1:  # the only declaration of its name there: above it are its overrides
                        return pick
            elif any(not self._same_parameters(pick, u) for u in fits):
                return None
        return pick

    def _imported_overload(self, facts: FileFacts, name: str, args: int) -> tuple[str, Unit] | None:
        """A JVM import of a function name that several overloads share (`import p.write` of
        `fun write(a)` and `fun write(a, b)`; Java's `import static p.Utils.check` of a class's
        static `check(a)` and `check(a, b)`): the one a call passing `args` arguments admits."""
        if spec_of(facts).module_system != "package":
            return None
        found: dict[str, Unit] = {}
        for imp in self.imports_by_local.get(facts.path, {}).get(name, ()):
            if imp.name == name and not imp.alias:
                found.update((u.id, u) for u in self.packages.get(("declared", imp.module), {}).get(name, ()))
                if not found:  # a static import names a member of the class the module path ends in
                    outer_pkg, _, outer = imp.module.rpartition(".")
                    holders = [u for u in self.packages.get(("declared", outer_pkg), {}).get(outer, ()) if u.is_type and u.kind != "impl"]
                    holder = self._unique_for(holders, facts.path)
                    if holder is not None:
                        found.update((u.id, u) for u in self.members_of(holder).get(name, ()) if u.is_callable)
        hit = self._unique_for(self._by_args(list(found.values()), args), facts.path) if len(found) > 1 else None
        return ("unit", hit) if hit is not None else None
