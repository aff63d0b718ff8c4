"""Conservative binding resolution: provable targets become edges, the rest stays unknown.

Provable here means: a name bound in the enclosing scopes of the same file, an explicit
import (with aliases) landing on a file in scope, the same package (Go directory, JVM
package), `self`/`this`/receiver member calls inside a type (walking resolved supertypes),
members of a class named explicitly, and member calls on a parameter whose declared type is
one named type (`def f(s: Store)`, `func f(s *Store)`, `f(s: Store)`: the declared target;
overrides are explore's dispatch question). A unique name elsewhere is never proof.

The indexes it reads, and which files an edit makes stale, live in resolver_indexes.py.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from functools import lru_cache
from pathlib import Path

from ..languages import spec_for_path
from ..languages.spec import last_segment
from ..model.bindings import Edge, FileBindings
from ..model.facts import CLASS_KINDS, ELEMENT_OF, HOLDS, MAX_RECEIVER, VARIANT_OF, FileFacts, Unit
from .call_text import UNCOUNTED, call_open, text_args, without_type_args
from .carriers import CARRIED, Carriers, is_carried
from .elements import Elements
from .extensions import Extensions
from .fields import DeclaredFields
from .imports import ImportBindings
from .objects import ModuleObjects
from .overloads import Overloads
from .package_vars import PackageVariables
from .resolver_indexes import MAX_SUPER_DEPTH, ResolverIndexes, elsewhere_owner, member_owner, package_key, scope_key, spec_of

SELF_WORDS = {"self", "this", "Self"}


MAX_CHAIN = 6  # links of a call chain evaluated for a receiver's type
# `require('./m').f()`: a member of the module the literal names, as through `const m = require('./m')`
_REQUIRE = re.compile(r"""require\(\s*(['"])([^'"]+)\1\s*\)""")
# `super(Child, self)`, `super(pkg.Child, cls)`: the explicit spelling of `super()` in a method of Child
_NAMED_SUPER = re.compile(r"super\(\s*(?:\w+\.)*(\w+)\s*,\s*\w+\s*\)")


def _named_super(receiver: str, owner: str) -> bool:
    """Whether `receiver` is `super(owner, self)`: what `super()` is in a method of `owner` (another
    class named there starts the search past it: unknown)."""
    m = _NAMED_SUPER.fullmatch(receiver)
    return m is not None and m.group(1) == owner


def encode_bindings(bindings: dict[str, FileBindings]) -> str:
    return json.dumps(
        {p: [[[e.src, e.dst, e.kind, e.line] for e in b.edges], list(b.unresolved)] for p, b in bindings.items()},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def decode_bindings(data: str) -> dict[str, FileBindings]:
    out: dict[str, FileBindings] = {}
    for path, (edges, unresolved) in json.loads(data).items():
        out[path] = FileBindings(tuple(Edge(src, dst, kind, line, path) for src, dst, kind, line in edges), tuple(unresolved))
    return out


@lru_cache(maxsize=1)
def resolver_fingerprint() -> str:
    """Changes whenever the resolution code or the facts model changes: stored bindings from
    another version are never reused, even if nobody remembered to bump a version number."""
    here = Path(__file__).resolve()
    digest = hashlib.sha256()
    package = here.parent.parent
    resolution = sorted(here.parent.glob("*.py"))  # the whole bindings/ package: resolve.py and its indexes
    languages = sorted((package / "languages").glob("*.py"))  # their specs say how names resolve
    for source in (*resolution, package / "model" / "facts.py", package / "model" / "bindings.py", *languages):
        digest.update(source.read_bytes())
    return digest.hexdigest()


# what a local holds when an anonymous function's parameter rebinds its name: nothing a member resolves on
REBOUND = ("rebound", "")


def _past_stubs(found: list[Unit]) -> Unit | None:
    """Of several definitions of one name in one scope, the one its typing stubs describe (`@overload`
    signatures, then the implementation the name is bound to): the only one without a stub
    decorator, when the others all have one; or, when each is compiled only in some builds (Rust's
    `#[cfg(…)]`) with the same parameters, the first, which stands for the one any build compiles;
    else None (two implementations: which, unknown)."""
    first = found[0]
    spec = spec_for_path(first.path)
    if spec is None or any(u.path != first.path or u.parent != first.parent or u.name != first.name for u in found):
        return None
    # a module declared inside a file merges with the function, class or enum of its name (TypeScript's
    # `function f` + `namespace f`; Rust's `fn f` beside `mod f`), and an interface with the class of its
    # name (`class Cheerio` + `interface Cheerio`): the name called or built is that one. (An interface
    # beside a function of its name, Kotlin's factory idiom, is a type clause's interface: unknown here.)
    values = [u for u in found if u.kind not in ("object", "interface")]
    if len(values) == 1 and (values[0].is_type or all(u.kind == "object" for u in found if u is not values[0])):
        return values[0]
    if not (spec.stub_decorators or spec.build_variant_attribute):
        return None
    if spec.build_variant_attribute:
        gated = all(any(d.startswith(spec.build_variant_attribute) for d in u.decorators) and u.param_types == first.param_types for u in found)
        return min(found, key=lambda u: u.start_byte) if gated else None
    real = [u for u in found if spec.stub_decorators.isdisjoint(u.decorators)]
    return real[0] if len(real) == 1 else None


class Resolver(ImportBindings, DeclaredFields, ModuleObjects, PackageVariables, Overloads, Extensions, Carriers, Elements, ResolverIndexes):
    """Resolution over the cross-file indexes; `resolve_file` is a pure read of them."""

    # ---- lookups ---------------------------------------------------------------------
    @staticmethod
    def _unique(found: list[Unit] | None) -> Unit | None:
        if not found:
            return None
        return found[0] if len(found) == 1 else _past_stubs(found)

    def _unique_for(self, found: list[Unit] | None, path: str) -> Unit | None:
        """`_unique`, and among one declaration's source-set variants in a JVM package (a Kotlin
        multiplatform `expect` in one source set and its `actual`s in others, a Java
        multi-release copy) the one a file at `path` compiles against: the variant in its own
        source set, the only one sharing the deepest directory with it. No such variant (a tie):
        unknown, as before. Go's per-platform files share one directory and always tie."""
        hit = self._unique(found)
        if hit is not None or not found or len({u.qualname for u in found}) != 1:
            return hit
        facts = self.files.get(path)
        if facts is None or spec_of(facts).package_scope != "declared":
            return None
        here = posixpath.dirname(path).split("/")
        shared = [len(posixpath.commonprefix([here, posixpath.dirname(u.path).split("/")])) for u in found]  # directories in common
        best = max(shared)
        return found[shared.index(best)] if shared.count(best) == 1 else None

    def members_of(self, t: Unit) -> dict[str, list[Unit]]:
        facts = self.files.get(t.path)
        if facts is None:
            return {}
        return self.members.get((scope_key(facts), t.qualname), {})

    def supertypes_of(self, t: Unit) -> list[Unit]:
        """Resolved direct supertypes of a type unit (Rust: the traits its impls implement)."""
        hit = self._memo_supers.get(t.id)
        if hit is None:
            self._memo_supers[t.id] = []  # a type whose supertype text resolves back to itself must not recurse
            hit = self._memo_supers[t.id] = self._supertypes_of(t)
        return hit

    def _supertypes_of(self, t: Unit) -> list[Unit]:
        facts = self.files.get(t.path)
        if facts is None:
            return []
        # Rust: `impl Trait for Square` blocks in the type's file carry the struct's traits
        impls = {u.id for u in facts.units if u.kind == "impl" and u.qualname == t.qualname} if spec_of(facts).impl_blocks else set()
        out = []
        for s in facts.supertypes:
            if s.unit == t.id or s.unit in impls:
                target = self._resolve_type_text(facts, s.text, self.units.get(t.parent) if t.parent else None)
                if target is not None and target.id != t.id:
                    out.append(target)
        return out

    def find_member(self, t: Unit, name: str, args: int = -1) -> Unit | None:
        """The member `name` of `t` or of the nearest type above it that has one; `args`: the
        arguments a call passes (-1 when not counted), which chooses among overloads."""
        key = (t.id, name) if args < 0 else (t.id, name, args)
        if key not in self._memo_members:
            self._memo_members[key] = self._find_member(t, name) if args < 0 else self._find_overload(t, name, args)
        hit = self._memo_members[key]
        if hit is None and args > 0 and self._arg_call is not None:  # overloads of one count: the arguments' types choose
            hit = self._find_overload(t, name, args, typed=True)
        return hit

    def _find_member(self, t: Unit, name: str) -> Unit | None:
        for cur in self.lineage(t):
            found = self.members_of(cur).get(name)
            hit = self._unique(found)
            if hit is None and found:
                # a Rust crate is one member scope (impl blocks may sit in any of its files), so the
                # same-named types of two modules (`buffer::ResponseFuture`, `limit::ResponseFuture`)
                # pool their members: the type's own file tells its `new` from the others'
                hit = self._unique([u for u in found if u.path == cur.path])
            if hit is not None:
                return hit
        return None

    def lineage(self, t: Unit, levels: int = MAX_SUPER_DEPTH):
        """`t`, then its supertypes level by level (each once, at most `levels` levels). Lazy: a caller
        that found what it looks for stops the walk."""
        seen: set[str] = set()
        frontier = [t]
        for _ in range(levels):
            nxt: list[Unit] = []
            for cur in frontier:
                if cur.id in seen:
                    continue
                seen.add(cur.id)
                yield cur
                nxt += self.supertypes_of(cur)
            if not nxt:
                return
            frontier = nxt

    def _lookup(self, facts: FileFacts, caller: Unit | None, name: str, args: int = -1) -> Unit | tuple[str, str] | None:
        """A bare name seen from inside `caller`: nested scopes, type members (JVM), module, imports,
        package. `args`: the arguments a call of it passes (-1 when not counted), to choose among overloads."""
        if (name not in self.defined and name not in self.imports_by_local.get(facts.path, ())
                and not (spec_of(facts).module_system == "directory" and name in self._go_named_imports(facts))):
            return None  # no definition anywhere and no import here: a builtin, a local, a global from outside
        cur = caller
        key = scope_key(facts)
        implicit_this = spec_of(facts).implicit_this  # a bare name in a type's body may be its member
        while cur is not None:
            if name in cur.param_names:
                return None  # a parameter shadows every outer binding of the name
            if cur.kind in ("function", "method", "constructor"):
                hit = self._unique(self.members.get((key, cur.qualname), {}).get(name))
                if hit is not None:
                    return hit
                if cur.ext_type and implicit_this:  # `fun Buffer.f() { g() }`: `this` is a Buffer
                    extended = self._extended_type(facts, cur)
                    if extended is not None:
                        hit = self.find_member(extended, name, args)
                        if hit is not None:
                            return hit if hit.kind != "constructor" else None
                        if any(self.members_of(t).get(name) for t in self.lineage(extended)):
                            return None  # its overloads: one of them, never an outer name
            if cur.kind == "object" and not implicit_this:
                # a module declared inside a file (a TypeScript `namespace`, a Rust `mod`): its
                # items see each other by their bare names
                hit = self._unique(self.members.get((key, cur.qualname), {}).get(name))
                if hit is not None:
                    return hit
            if cur.is_type and implicit_this:
                hit = self.find_member(cur, name, args)
                # a constructor is never called by its bare name (`new Square()` names the type)
                if hit is not None and hit.kind != "constructor":
                    return hit
                if hit is None and any(m.kind != "constructor" for m in self.members_of(cur).get(name, ())):
                    return None  # the type's own overloads: one of them, which unknown, never an outer name
            cur = self.units.get(cur.parent) if cur.parent else None
        local = self.top.get(facts.path, {}).get(name)
        if local:
            # imported *and* defined here (`try: from fast import f` / `except: def f`): no proof which wins
            if any(imp.name not in ("", "*") for imp in self.imports_by_local.get(facts.path, {}).get(name, ())):
                bound = self._import_binding(facts, name)  # `use super::Conn;` in the file's `mod tests`: the same
                if bound is None or bound[1] not in local:
                    return None
            if args >= 0 and spec_of(facts).package_scope == "declared":
                # a JVM file is no scope of its own: the overloads of its package are all candidates
                pkg = package_key(facts)
                pooled = self.packages.get(pkg, {}).get(name, ()) if pkg is not None else ()
                if len(pooled) > len(local):
                    fits = self._by_args(pooled, args)
                    if fits is not pooled:
                        return self._unique_for(fits, facts.path)
            return self._unique(self._by_args(local, args))
        bound = self._import_binding(facts, name)
        if bound is None and args >= 0 and name in self.imports_by_local.get(facts.path, ()):
            bound = self._imported_overload(facts, name, args)
        if bound is None and spec_of(facts).module_system == "crate":
            bound = self._passed_on(facts.path, name, 0)  # `use self::ast::*;`: the one glob that has it
        if bound is not None:
            kind, target = bound
            return target if kind == "unit" else (kind, target)  # type: ignore[return-value]
        pkg = package_key(facts)
        if pkg is not None:
            hit = self._unique_for(self._by_args(self.packages.get(pkg, {}).get(name), args), facts.path)
            if hit is not None:
                return hit
        return self._on_demand_import(facts, name) or self._implicit_extension(facts, caller, name, args)

    def _on_demand_import(self, facts: FileFacts, name: str) -> Unit | None:
        """A JVM name no scope, single import or the package binds, from the file's on-demand
        imports (the weakest binding, as the languages rank them): `import com.x.util.*` brings the
        package's types and functions, `import static com.x.Checks.*` the class's members."""
        if spec_of(facts).module_system != "package":
            return None
        stars = [imp for imp in facts.imports if imp.name == "*"]
        if not stars:
            return None
        found: dict[str, Unit] = {}
        for imp in stars:
            found.update((u.id, u) for u in self.packages.get(("declared", imp.module), {}).get(name, ()) if u.kind != "impl")
            holder = self._qualified_member(imp.module, facts.path)  # `import p.Outer.*`, `import p.Outer.Help.*`
            if holder is not None and holder.is_type:
                found.update((u.id, u) for u in self.members_of(holder).get(name, ()))
        return self._unique_for(list(found.values()), facts.path)

    def _resolve_type_text(self, facts: FileFacts, text: str, scope: Unit | None = None) -> Unit | None:
        """The type a type written in `facts` names; `scope` is the unit it is written in, whose
        enclosing types' nested types it sees (`Builder` in a method of `Retrofit` is `Retrofit.Builder`)."""
        clean = text
        for opener in "<[(":
            cut = clean.find(opener)
            if cut > 0:
                clean = clean[:cut]
        rooted = self._rooted_path(facts, clean.strip())  # `crate::frame::Headers`
        parts = rooted[1] if rooted is not None else [p for p in clean.replace("::", ".").split(".") if p]
        if not parts:
            return None
        head = self._member_of(rooted[0], parts[0]) if rooted is not None else self._lookup(facts, scope, parts[0])
        if head is None and len(parts) == 1 and rooted is None:
            head = self._type_only(facts, parts[0])
        elif head is None and rooted is None and spec_of(facts).module_system == "package":
            whole = self._qualified_member(".".join(parts), facts.path)  # `p.Outer.Model.Spec` written whole
            return whole if whole is not None and whole.is_type else None
        for part in parts[1:]:
            head = self._member_of(head, part)
        return head if isinstance(head, Unit) and head.is_type else None

    def _type_only(self, facts: FileFacts, name: str) -> Unit | None:
        """A type name in a type position that also names a function of the file or package (the
        Kotlin factory idiom `interface ImageLoader` + `fun ImageLoader(…)`): a type clause names
        only a type, so the one type of that name there is it. Nothing when the file imports the name."""
        if name in self.imports_by_local.get(facts.path, ()):
            return None
        types = [u for u in self.top.get(facts.path, {}).get(name, ()) if u.is_type and u.kind != "impl"]
        if not types:
            pkg = package_key(facts)
            types = [u for u in self.packages.get(pkg, {}).get(name, ()) if u.is_type and u.kind != "impl"] if pkg is not None else []
        return self._unique_for(types, facts.path)

    def _member_of(self, holder: Unit | tuple[str, str] | None, name: str, args: int = -1) -> Unit | tuple[str, str] | None:
        if holder is None:
            return None
        if isinstance(holder, Unit):
            return self.find_member(holder, name, args) if holder.is_type else self._function_member(holder, name)
        kind, where = holder
        if kind == CARRIED:
            return self._carried_member(where, name, args)
        if kind == "object":  # `internals.rules` with `const internals = {}`: modules fill such objects (objects.py)
            return self._object_member(where, name)
        if kind == "module":
            exported = self._commonjs_exports(where)
            if exported:  # a CommonJS module's members are what it exports
                return self._unique(exported.get(name))
            hit = self._unique(self.top.get(where, {}).get(name))
            if hit is not None:
                return hit
            passed = self._passed_on(where, name, 0)
            if passed is not None:
                return passed[1] if passed[0] == "unit" else passed
            facts = self.files.get(where)
            if facts is not None and spec_of(facts).module_system == "python":
                names = spec_of(facts).module_names(where)
                sub = self.py_modules.get(f"{names[0]}.{name}") if names else None
                return ("module", sub) if sub else None
            if facts is not None and spec_of(facts).module_system == "crate":  # `proto::streams::Streams`
                names = spec_of(facts).module_names(where)
                sub = self.rust_modules.get(f"{names[0]}::{name}") if names else None
                return ("module", sub) if sub else None
            return None
        if kind == "default":  # a member of the object `export default { find, … }` exports
            facts = self.files.get(where)
            locals_ = [local for key, local in facts.export_aliases if key == f"default.{name}"] if facts is not None else []
            bound = self._own_binding(facts, locals_[0], 0) if len(locals_) == 1 else None
            return bound[1] if bound is not None and bound[0] == "unit" else None
        if kind == "this":
            caller = self.units.get(where)
            return self._this_member(caller, name) if caller is not None else None
        if kind == "prototype":  # `T.prototype.name = function`, one of them, filed beside T, else inherited
            ctor = self.units.get(where)
            if ctor is None:
                return None
            facts = self.files[ctor.path]
            if self.members.get((scope_key(facts), ctor.qualname), {}).get(name):
                return self._prototype_method(ctor, name)
            return self._inherited_method(ctor, name)
        if kind == "package":
            found: list[Unit] = []
            for path in self.go_dirs.get(where, ()):
                found += self.top.get(path, {}).get(name, [])
            return self._unique(found)
        return None

    def _declared_type(self, caller: Unit | None, name: str, elements: bool = False) -> str:
        """The declared type name of the parameter or typed local `name`, seen from `caller` (""
        when it is neither or has no type): the innermost callable that binds the name decides.
        A loop variable's is ELEMENT_OF + what it walks with `elements`, else ""."""
        cur = caller
        while cur is not None:
            if name in cur.param_names:
                i = cur.param_names.index(name)
                return cur.param_types[i] if i < len(cur.param_types) else ""
            for local, declared in cur.local_types:  # `Foo x = …`, `let x: Foo`, `x: Foo = …`
                if local == name:
                    return declared if elements or not declared.startswith(ELEMENT_OF) else ""
            cur = self.units.get(cur.parent) if cur.parent else None
        return ""

    def _enclosing_type(self, caller: Unit | None) -> tuple[Unit | None, Unit | None]:
        """(innermost method, its type) for a call site."""
        cur = caller
        method = None
        while cur is not None:
            if method is None and cur.kind in ("method", "constructor"):
                method = cur
            if cur.is_type:
                return method, cur
            cur = self.units.get(cur.parent) if cur.parent else None
        return method, (self._receiver_type_elsewhere(method) if method is not None else None)

    def _receiver_type_elsewhere(self, method: Unit) -> Unit | None:
        """A Go method declared in another file of its package than its type (`func (c *Command)
        Find` in completions.go, `type Command struct` in command.go): the extractor sees one file
        and leaves the method without a parent, but its receiver is typed all the same."""
        owner = elsewhere_owner(self.files.get(method.path), method)
        if not owner:
            return None
        pkg = package_key(self.files[method.path])
        return self._unique([u for u in self.packages.get(pkg, {}).get(owner, ()) if u.is_type and u.kind != "impl"]) if pkg else None

    def _extended_type(self, facts: FileFacts, function: Unit) -> Unit | None:
        """The project type an extension function extends (`fun Buffer.f()` → Buffer), None when
        it is no project type."""
        hit = self._memo_extended.get(function.id, self._memo_extended)
        if hit is self._memo_extended:
            # written before the function's name: seen from the scope around it, not from its body
            t = self._resolve_type_text(facts, function.ext_type, self.units.get(function.parent) if function.parent else None)
            hit = self._memo_extended[function.id] = t if t is not None and t.kind != "impl" else None
        return hit

    def _receiver_target(self, facts: FileFacts, caller: Unit | None, receiver: str) -> Unit | tuple[str, str] | None:
        if receiver == "this" and caller is not None and caller.ext_type:
            return self._extended_type(facts, caller)  # `this` in `fun Buffer.f()`, in `function f(this: Buffer)`
        method, owner = self._enclosing_type(caller)
        if owner is not None and method is not None and receiver in {method.receiver, "this", "Self"} and receiver:
            return owner
        if owner is None and receiver == "this" and caller is not None and caller.receiver == "this":
            return self._this_object(caller)
        if owner is None and receiver == "this" and caller is not None and caller.kind == "function" and not caller.receiver:
            # a constructor function (`function T() { this.init(); }`): its prototype's methods
            return ("prototype", caller.id) if spec_of(facts).module_system == "path" and self._module_level(caller) else None
        if owner is not None and (receiver in ("super()", "super") or receiver.startswith("super(") and _named_super(receiver, owner.name)):
            supers = self.supertypes_of(owner)
            return ("super", owner.id) if supers else None
        if len(receiver) >= MAX_RECEIVER:  # cut where it was recorded: what it ends in is not what it is
            return None
        if receiver.startswith("require(") and (req := _REQUIRE.fullmatch(receiver)) and spec_of(facts).module_system == "path":
            path = self._module_file(facts, req.group(2), 0)
            return ("module", path) if path else None
        if receiver.rstrip("?!").endswith(")"):  # `new Builder().name(…)`, `store.open()`, `Foo::new()`, `pool.get()?`
            return self._call_result(facts, caller, receiver.rstrip("?!"))
        if receiver.endswith("]") or "]." in receiver:  # `s.handlers[i]`, `t[i].root`: an element read
            return self._indexed_target(facts, caller, receiver)
        rooted = self._rooted_path(facts, receiver)  # `crate::runtime::coop::poll_proceed()`
        if rooted is not None:
            head: Unit | tuple[str, str] | None = rooted[0]
            for part in rooted[1]:
                head = self._field_step(head, part) if part.isidentifier() else None
            return head
        parts = [p for p in receiver.replace("::", ".").split(".") if p]
        if not parts or any(not p.isidentifier() for p in parts):
            return None
        if parts[0] in SELF_WORDS or (method is not None and parts[0] == method.receiver):
            if owner is None and parts[0] == "this" and spec_of(facts).assigned_fields:
                owner = self._constructor_of(caller)  # `this.core.process()` in `T.prototype.parse = function`
            if len(parts) < 2 or owner is None or not (spec_of(facts).declared_fields or spec_of(facts).assigned_fields):
                return None  # attribute of self (self.x.y()) without static types: left unknown
            head = self._field_type(owner, parts[1])  # `self.conn.poll()`: through the field's declared type
            for part in parts[2:]:  # `self.conn.codec.decode()`
                head = self._field_step(head, part)
            return head
        if ".".join(parts[:2]) == "module.exports" or parts[0] == "exports":
            own = self._own_exports(facts, caller, parts[0])
            if own is not None:  # `exports.f()`, `module.exports.f()` inside the module that exports f
                head: Unit | tuple[str, str] | None = own
                for part in parts[2 if parts[0] == "module" else 1 :]:
                    head = self._member_of(head, part)
                return head
        declared = self._declared_type(caller, parts[0], elements=True)
        if declared.startswith(ELEMENT_OF):  # a loop's variable: an element of what it walks
            head = self._element_of(facts, caller, declared[len(ELEMENT_OF):], local=parts[0])
        elif declared.startswith(HOLDS):  # `conn := s.conn`: what the read it was initialised by denotes
            head = self._held(facts, caller, parts[0], declared[len(HOLDS):])
        elif declared.startswith(VARIANT_OF):  # `Value::String(ref f) => f.decor()`: the variant's payload
            head = self._variant_payload(facts, caller, declared[len(VARIANT_OF):])
        elif declared:  # a parameter with a declared type (`def f(s: Store)`, `func f(s *Store)`)
            head = self._value_type(facts, declared, caller)
        else:
            field = self._implicit_field(facts, caller, parts[0])
            head = field[0] if field is not None else self._lookup(facts, caller, parts[0])
            head = head if head is not None else self._module_object(facts, caller, parts[0])
        for part in parts[1:]:
            head = self._field_step(head, part)
        return head

    def _this_object(self, caller: Unit) -> tuple[str, str] | None:
        """`this` inside a function of no type whose own object is named where it is defined: an
        entry of an object literal (`module.exports = { host() { this.get(…) } }`), a function
        assigned to a member (`app.init = function () { this.set(…) }`, `T.prototype.m = function`).
        ("this", caller id) when the name is the object's (not the qualname of a function around it)."""
        facts = self.files.get(caller.path)
        owner = member_owner(caller)
        if facts is None or owner is None or spec_of(facts).module_system != "path":
            return None
        parent = self.units.get(caller.parent) if caller.parent else None
        if parent is not None and parent.kind != "statement" and (parent.is_type or owner == parent.qualname):
            return None  # a class's member (its type binds `this`), or a name its nesting gave it
        return ("this", caller.id)

    def _this_member(self, caller: Unit, name: str) -> Unit | None:
        """Member `name` of the object `this` is in `caller` (`_this_object`): the one callable filed
        under the same object name in the same scope (both at module level, or both in one function).
        When the name is a function of the file (`function T() {}` with `T.prototype.m = function`),
        a prototype method (kind "method") sees the prototype's methods and a function assigned to T
        (`T.create = function`, kind "function") T's own: an object literal has both kinds of entry."""
        facts = self.files[caller.path]
        owner = member_owner(caller)
        found = self.members.get((scope_key(facts), owner), {}).get(name) if owner else None
        if not found:  # the prototype's method a constructor of the file inherits (`util.inherits(T, Base)`)
            ctor = self._unique([u for u in self.top.get(facts.path, {}).get(owner, ()) if u.is_callable]) if owner else None
            return self._inherited_method(ctor, name) if ctor is not None and caller.kind == "method" else None
        here = self._module_level(caller)
        found = [u for u in found if u.is_callable and (u.parent == caller.parent or (here and self._module_level(u)))]
        if any(u.is_callable for u in self.top.get(facts.path, {}).get(owner, ())):
            found = [u for u in found if u.kind == caller.kind]
        return self._unique(found)

    def _module_level(self, u: Unit) -> bool:
        parent = self.units.get(u.parent) if u.parent else None
        return parent is None or (parent.kind == "statement" and parent.parent is None)

    def _call_result(self, facts: FileFacts, caller: Unit | None, expr: str, depth: int = 0) -> Unit | None:
        """The type a call expression used as a receiver evaluates to: `new X(…)` is an X; a proven
        call of a type (`Builder()`) or constructor is its type; a proven call of a callable that
        declares one named return type is that type (`fn new() -> Self`: its impl's type). Chains
        evaluate link by link; anything else (no declared type, a generic, an unproven link) is unknown."""
        called = self._called(facts, caller, expr, depth)
        if called is None:
            return None
        target, holder, name = called
        if target is None and is_carried(holder):  # `pool.get()?.unwrap()`: the carrier's own method
            return self._carried_result(holder, name)
        if target is None and name.startswith("new ") and spec_of(facts).assigned_fields:
            return self._constructed(facts, caller, expr[4:].lstrip())  # `new Parser()`, Parser a constructor function
        return self._result_type(target)

    def _called(self, facts: FileFacts, caller: Unit | None, expr: str, depth: int = 0) -> tuple | None:
        """(the proven target or None, what it is called on, the name called) of a call expression;
        `new X(…)` targets the type X; the count of arguments chooses among overloads. None when
        `expr` is no call of a name."""
        open_at = call_open(expr)
        if open_at is None or depth > MAX_CHAIN:
            return None
        callee = without_type_args(expr[:open_at].rstrip())
        if callee.startswith("new ") and "(" not in callee:  # `new Outer.Builder(…)`, not `new B().name(…)`
            return self._resolve_type_text(facts, callee[4:].strip(), caller), None, callee
        cut = max(callee.rfind("."), callee.rfind("::"))
        # the count chooses among overloads: a name defined once has none
        last = callee[cut + 1 :] if cut >= 0 else callee
        args = text_args(expr[open_at + 1 : -1]) if self.defined.get(last, 0) > 1 and spec_of(facts).call_args is not UNCOUNTED else -1
        if cut < 0:
            return (self._lookup(facts, caller, callee, args) if callee.isidentifier() else None), None, callee
        # a chain broken over lines (`conn\n    .getData()\n    .ban(k)`) leaves the line break before the dot
        head, name = callee[:cut].rstrip().rstrip("?!").rstrip(), callee[cut + (2 if callee[cut] == ":" else 1) :].strip()
        if not name.isidentifier():
            return None
        holder = self._call_result(facts, caller, head, depth + 1) if head.endswith(")") else self._receiver_target(facts, caller, head)
        target = self._member_of(holder, name, args) if isinstance(holder, Unit) or holder.__class__ is tuple and holder[0] != "super" else None
        if target is None and name in self.extension_names:  # `source(p).buffer()`: an extension of what the link returns
            target = self._receiver_extension(facts, holder, name, args)
        return target, holder, name

    def _result_type(self, target, position: int | None = None) -> Unit | None:
        """The type a call of `target` hands back, taken whole; or at `position` of the results it
        lists, taken apart (`b` of `a, b := f()`, of `let (a, b) = f()`)."""
        if not isinstance(target, Unit):
            return None
        facts = self.files.get(target.path)
        if position is not None:
            declared = target.results[position] if target.is_callable and position < len(target.results) else ""
        else:
            if target.is_type:
                return target if target.kind != "impl" else None
            if target.kind == "constructor":
                owner = self.units.get(target.parent) if target.parent else None
                return owner if owner is not None and owner.is_type else None
            # Go: compiled code never takes a call of several results as one value (`f().m()`, `x := f()`),
            # so where it is taken as a value, its listed result is its first (`x` of `x, err := f()`);
            # a Rust tuple taken whole is none of its members
            first = target.results[0] if target.results and facts is not None and not spec_of(facts).tuple_results else ""
            declared = target.returns or first
        if not target.is_callable or len(declared) < 2:  # none, or a one-letter type parameter
            return None
        if facts is None:
            return None
        if declared == "Self":
            return self._self_type(facts, target)
        return self._value_type(facts, declared, target, self._self_type(facts, target) if "Self" in declared else None)

    def _self_type(self, facts: FileFacts, member: Unit) -> Unit | None:
        """The type `Self` names in `member`'s signature: its type's, or its impl block's."""
        owner = self.units.get(member.parent) if member.parent else None
        if owner is None or owner.kind != "impl":
            return owner if owner is not None and owner.is_type else None
        return self._resolve_type_text(facts, owner.qualname)

    def _own_exports(self, facts: FileFacts, caller: Unit | None, word: str) -> tuple[str, str] | None:
        """The file's own CommonJS exports object, when it exports by assignment and no enclosing
        callable takes `module`/`exports` as a parameter (a wrapper that hands in another object)."""
        if not self._commonjs_exports(facts.path):
            return None
        cur = caller
        while cur is not None:
            if word in cur.param_names:
                return None
            cur = self.units.get(cur.parent) if cur.parent else None
        return ("module", facts.path)

    # ---- resolution ------------------------------------------------------------------
    def resolve_file(self, path: str) -> FileBindings:
        facts = self.files[path]
        edges, unresolved = self._call_edges(facts)
        edges += self._supertype_edges(facts)
        edges += self._import_edges(facts)
        return FileBindings(tuple(edges), tuple(unresolved))

    def _call_edges(self, facts: FileFacts) -> tuple[list[Edge], list[int]]:
        """Edges of the calls a target is proven for, and the indexes of the others."""
        path = facts.path
        edges: list[Edge] = []
        unresolved: list[int] = []
        # locals initialised by a construction in the same unit: `chain = Chain(); chain.proceed()`
        local_types: dict[tuple[str | None, str], Unit | tuple[str, str] | None] = {}
        # Within one file a (caller, receiver, name) triple always binds the same way (unless a
        # typed local says otherwise): a third of Django's call sites repeat one.
        memo: dict[tuple[str | None, str, str, int, str], Unit | tuple[str, str] | None] = {}
        holders: dict = {}  # (caller, receiver, lambda receiver) → what the receiver denotes
        assigned: dict[str, int] = {}  # how many calls of the file initialise each name
        new_edge = tuple.__new__  # skips the NamedTuple's Python-level __new__: one per resolved call
        spans: dict = {}  # each caller's lambda parameters, by name
        complete = spec_of(facts).complete_locals  # its untyped locals are marked too: no closure parameter told apart
        for idx, (caller_id, name, receiver, line, at, _, _, assigned_to, assigned_rest, args, within, arg_words) in enumerate(facts.calls):
            target: Unit | tuple[str, str] | None
            if receiver:  # `it.close()`, `h.run()`: the parameter of the lambda around the call
                receiver = self._spanned_receiver(caller_id, receiver, at, spans)
            typed = local_types.get((caller_id, receiver)) if receiver and local_types else None
            if typed is not None:
                self._arg_call = (facts, self.units.get(caller_id) if caller_id else None, arg_words) if arg_words else None
                self._in_receiver_lambda = bool(within)
                target = self.find_member(typed, name, args) if typed.__class__ is Unit else self._member_of(typed, name, args)
                if target is None and name in self.extension_names:
                    target = self._receiver_extension(facts, typed, name, args)
                self._arg_call = None
            else:
                key = (caller_id, receiver, name, args, within, arg_words)
                target = memo.get(key, memo)
                if target is memo:
                    caller = self.units.get(caller_id) if caller_id else None
                    self._in_receiver_lambda = bool(within)  # a bare name there may be the lambda receiver's
                    if within and receiver in ("", "this"):
                        target = self._within_target(facts, caller, within, name, args, receiver)
                    elif receiver:
                        holder = holders.get((caller_id, receiver, within), holders)
                        if holder is holders:
                            holder = holders[(caller_id, receiver, within)] = self._receiver_target(facts, caller, receiver)
                        # the receiver is known: the call's own arguments may choose among overloads of one count
                        self._arg_call = (facts, caller, arg_words) if arg_words else None
                        if holder.__class__ is tuple and holder[0] == "super":
                            owner = self.units.get(holder[1])
                            target = None
                            for sup in self.supertypes_of(owner) if owner else []:
                                target = self.find_member(sup, name, args)
                                if target is not None:
                                    break
                        else:
                            target = self._member_of(holder, name, args)
                            if target is None and name in self.extension_names:
                                target = self._receiver_extension(facts, holder, name, args)
                    else:  # (`Err(e)` beside an imported `enum Err` calls no enum: the spec's `uncallable_kinds`)
                        self._arg_call = (facts, caller, arg_words) if arg_words else None
                        target = self._lookup(facts, caller, name, args)
                        target = None if target.__class__ is Unit and target.kind in spec_of(facts).uncallable_kinds else target
                    self._arg_call = None
                    memo[key] = target
            is_unit = target.__class__ is Unit
            if assigned_rest:  # a destructuring: each local holds its position's result
                for position, local in enumerate(assigned_rest.split(",")):
                    if local:
                        key = (caller_id, local)
                        local_types[key] = self._result_type(target, position) if key not in local_types and is_unit else None
            elif assigned_to:
                key = (caller_id, assigned_to)
                # an anonymous function's parameter of the same name (`s = Step()` beside `conns.forEach { s -> s.close() }`,
                # `|s| s.close()`, `(s) => s.close()`: the extractor marks it untyped, or an element of what the callback
                # walks, where a language records no other untyped local) leaves every call on the name unknown: which
                # binding a call sees is a question of blocks; a second assignment makes its type unprovable
                if not complete and self._rebound(caller_id, assigned_to):
                    local_types[key] = REBOUND
                elif key in local_types:
                    local_types[key] = None
                elif is_unit:  # a constructor function makes an instance (`const p = new Parser()`)
                    local_types[key] = self._result_type(target) or (self._instance_of(target) if spec_of(facts).assigned_fields else None)
                else:  # `let c = pool.get().unwrap()`: a carrier's own method on a carried receiver
                    held = typed if typed is not None else holders.get((caller_id, receiver, within)) if receiver else None
                    local_types[key] = self._carried_result(held, name) if is_carried(held) else None
                assigned[assigned_to] = assigned.get(assigned_to, 0) + 1
            if is_unit and target.kind != "statement":
                kind = "constructs" if target.kind in CLASS_KINDS else "calls"
                edges.append(new_edge(Edge, (caller_id or path, target.id, kind, line, path)))
            else:
                unresolved.append(idx)
        if unresolved:  # a module's own instance, a package variable declared with a type
            found = self._module_instance_calls(facts, local_types, assigned, unresolved) if assigned else {}
            found = self._package_var_calls(facts, local_types, [i for i in unresolved if i not in found]) | found
            if found:  # one edge per resolved call, in call order (the ranked graph pairs them up)
                resolved = sorted(set(range(len(facts.calls))) - set(unresolved))
                by_call = dict(zip(resolved, edges)) | found
                edges = [by_call[i] for i in sorted(by_call)]
                unresolved = [i for i in unresolved if i not in found]
        return edges, unresolved

    def _rebound(self, caller_id: str | None, name: str) -> bool:
        """Whether the extractor marks `name` untyped in the callable (an anonymous function's untyped
        parameter binds it, or two declarations disagree on its type) or an element a loop or a
        callback's parameter walks."""
        caller = self.units.get(caller_id) if caller_id else None
        return caller is not None and any(local == name and (not declared or declared.startswith(ELEMENT_OF)) for local, declared in caller.local_types)

    def _module_instance_calls(self, facts: FileFacts, local_types: dict, assigned: dict[str, int],
                               unresolved: list[int]) -> dict[int, Edge]:
        """Calls on a module's own instance (`default = Registry()` or `const reg = new Registry()` at the
        top of the file, `reg.register(x)` in its functions), proven like a local's: the name is
        assigned once in the file, by a call whose result type is proven, and the calling function has
        no parameter or local of that name. Returns the edge of each such call by its index."""
        module_types: dict[str, Unit] = {}
        for (caller_id, name), t in local_types.items():
            holder = self.units.get(caller_id) if caller_id else None
            # made at the top of the file: by a module statement, or as a variable's value (Go's `var std = New()`)
            if t is not None and assigned.get(name) == 1 and (holder is None or (holder.kind in ("statement", "variable") and self._module_level(holder))):
                module_types[name] = t
        found: dict[int, Edge] = {}
        if not module_types:
            return found
        for idx in unresolved:
            call = facts.calls[idx]
            t = module_types.get(call.receiver)
            caller = self.units.get(call.caller) if call.caller else None
            target = None
            if t is not None and caller is not None and caller.kind != "statement" and not self._binds_locally(caller, call.receiver, local_types):
                target = self._member_of(t, call.name, call.args)
            if target.__class__ is Unit and target.kind != "statement":
                kind = "constructs" if target.kind in CLASS_KINDS else "calls"
                found[idx] = Edge(call.caller, target.id, kind, call.line, facts.path)
        return found

    def _binds_locally(self, caller: Unit, name: str, local_types: dict) -> bool:
        """Whether a parameter or a local of the caller, or of a function around it, is called `name`."""
        cur: Unit | None = caller
        while cur is not None:
            if cur.is_callable and (name in cur.param_names or any(n == name for n, _ in cur.local_types)
                                    or (cur.id, name) in local_types):
                return True
            cur = self.units.get(cur.parent) if cur.parent else None
        return False

    def _within_target(self, facts: FileFacts, caller: Unit | None, within: str, name: str, args: int, receiver: str) -> Unit | None:
        """A bare call (or one on `this`) inside a lambda with receiver (Kotlin `x.apply { f() }`,
        `with(x) { f() }`): first a member of x's type; where that type is the project's, has no
        member of the name and every type above it is known, the names around (`f` of the enclosing
        class, of the package); anything else (x of a library type or unknown) is left unknown, but
        for a construction of a project type (`Error(…)`: no library object has a member named so)."""
        holder = None if within == "?" else self._receiver_target(facts, caller, within)
        if not isinstance(holder, Unit) or not holder.is_type:
            found = None if receiver else self._lookup(facts, caller, name, args)
            return found if isinstance(found, Unit) and found.is_type and found.kind != "impl" else None
        hit = self.find_member(holder, name, args)
        if hit is not None:
            return hit if hit.kind != "constructor" else None
        if receiver or not self._closed(holder) or any(self.members_of(t).get(name) for t in self.lineage(holder)):
            return None
        found = self._lookup(facts, caller, name, args)
        return found if isinstance(found, Unit) else None

    def _closed(self, t: Unit) -> bool:
        """Whether every supertype `t` and the types above it declare is one of the workspace's
        (their members are all known)."""
        for cur in self.lineage(t):
            facts = self.files.get(cur.path)
            declared = sum(1 for s in facts.supertypes if s.unit == cur.id) if facts is not None else 1
            if declared != len(self.supertypes_of(cur)):
                return False
        return True

    def _supertype_edges(self, facts: FileFacts) -> list[Edge]:
        edges: list[Edge] = []
        for sup in facts.supertypes:
            owner = self.units.get(sup.unit)
            # written in the scope around the type (a TypeScript namespace's sibling interface, a nested class's)
            target = self._resolve_type_text(facts, sup.text, self.units.get(owner.parent) if owner is not None and owner.parent else None)
            if owner is not None and target is not None and target.id != owner.id:
                edges.append(Edge(owner.id, target.id, sup.kind, owner.name_line, facts.path))
        return edges
