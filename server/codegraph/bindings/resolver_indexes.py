"""The resolver's cross-file indexes, kept current edit by edit.

Split from resolve.py, which only reads them: an edit updates these indexes in place, and they
answer which files must be re-resolved because they reference a name the edited file defines or
defined.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from ..languages import BY_NAME
from ..languages.spec import LanguageSpec
from ..model.facts import FileFacts, Unit
from .js_workspace import JsWorkspace

MAX_SUPER_DEPTH = 8
# CommonJS: `exports.f = …` and `module.exports.f = …` are members of the object `require` returns
COMMONJS_EXPORTS = ("module.exports", "exports")


# Module systems whose modules pass on the names they import (re-exports followed to their
# definitions): JavaScript's paths, Rust's crates, Python's packages (an `__init__.py`'s imports)
PASSING_ON = frozenset({"path", "crate", "python"})


def spec_of(facts: FileFacts) -> LanguageSpec:
    return BY_NAME[facts.language]


def module_binds(spec: LanguageSpec, module: str) -> str:
    """The local name `import module` binds (no alias)."""
    return module.split(".")[0] if spec.import_binds == "first" else module.rsplit("/", 1)[-1]


def scope_key(facts: FileFacts) -> str:
    """Where members of a type may be defined: its file, its Go package dir, its Rust crate."""
    scope = spec_of(facts).member_scope
    if scope == "directory":
        return posixpath.dirname(facts.path)
    if scope == "crate":
        return facts.path.split("/src/")[0] + "/src" if "/src/" in facts.path else ""
    return facts.path


def package_key(facts: FileFacts) -> tuple[str, str] | None:
    """The package whose top-level names this file shares without imports, if any."""
    scope = spec_of(facts).package_scope
    if scope == "directory":
        return (scope, posixpath.dirname(facts.path))
    if scope == "declared" and facts.package:
        return (scope, facts.package)
    return None


def elsewhere_owner(facts: FileFacts | None, u: Unit) -> str:
    """The type name of a method whose type another file of its scope declares (Go), else ""."""
    if u.parent is not None or u.kind != "method" or "." not in u.qualname or facts is None or spec_of(facts).member_scope != "directory":
        return ""
    return u.qualname.rsplit(".", 1)[0]


def member_owner(u: Unit) -> str | None:
    """What a unit is a member of: the object it is assigned onto (a CommonJS export's `exports`),
    else the owner its qualname names; None for a name of its module's scope."""
    if u.assigned_to:
        return u.assigned_to
    return u.qualname.rsplit(".", 1)[0] if "." in u.qualname else None


def _observed_names(facts: FileFacts) -> "tuple[str, ...] | set[str]":
    """The names whose definitions this file's bindings depend on: what it references, and the
    types of its methods declared elsewhere in the package (their receivers bind through them)."""
    names = facts.names_referenced()
    if spec_of(facts).member_scope != "directory":
        return names
    return {*names, *(o for u in facts.units if (o := elsewhere_owner(facts, u)))}


class ResolverIndexes:
    """The cross-file indexes and their upkeep; `Resolver` adds the lookups that read them."""

    def __init__(self) -> None:
        self.files: dict[str, FileFacts] = {}
        self.units: dict[str, Unit] = {}
        self.top: dict[str, dict[str, list[Unit]]] = {}
        self.members: dict[tuple[str, str], dict[str, list[Unit]]] = defaultdict(lambda: defaultdict(list))
        self.packages: dict[tuple[str, str], dict[str, list[Unit]]] = defaultdict(lambda: defaultdict(list))
        # dotted module name → the file it names. Two files can claim one name (`src/pkg/x.py` and
        # `pkg/x.py`): the first path in order owns it, and the next one takes over when it goes.
        self.py_modules: dict[str, str] = {}
        self.rust_modules: dict[str, str] = {}
        self._module_owners = {"python": self.py_modules, "crate": self.rust_modules}  # by module system
        self._claims: dict[tuple[str, str], set[str]] = defaultdict(set)  # (module system, module) → claiming files
        self.go_dirs: dict[str, set[str]] = defaultdict(set)
        self.refs: dict[str, set[str]] = defaultdict(set)  # referenced name → files
        self.defined: dict[str, int] = defaultdict(int)  # name → how many definitions carry it
        self.extension_names: dict[str, int] = defaultdict(int)  # name → how many extension functions carry it
        self.imports_by_local: dict[str, dict[str, list]] = {}  # path → local name → imports binding it
        self.js_workspace = JsWorkspace()  # bare JavaScript module names → the workspace's packages
        self.go_modules: dict[str, str] = {}  # Go module path → the directory of its go.mod (go_modules.py)
        # Memos of pure lookups over the indexes; every update() clears them.
        self._memo_supers: dict[str, list[Unit]] = {}
        self._memo_members: dict[tuple, Unit | None] = {}  # (type id, name) or (type id, name, arguments)
        self._memo_arity: dict[str, tuple[int, ...]] = {}  # a Kotlin override's arity, from what it overrides
        self._memo_extended: dict[str, Unit | None] = {}  # an extension function's extended type
        self._memo_imports: dict[tuple[str, str], tuple[str, str | Unit] | None] = {}
        self._memo_exports: dict[str, dict[str, list[Unit]]] = {}  # files with `export_aliases`
        self._passing: set[tuple[str, str]] = set()  # (module, name) a re-export walk is inside
        # the call being resolved, for choosing among overloads of one count by its arguments' types:
        # (file, calling unit, `Call.arg_words`), None between calls (`Overloads._typed_pick`)
        self._arg_call: tuple | None = None
        self._arg_types: tuple | None = None  # (that call, its arguments' types): read once per call
        self._memo_go_names: dict[str, dict[str, list]] = {}  # path → package name → unaliased Go imports of it

    def workspace_fingerprint(self) -> str:
        """What the workspace's package.json/tsconfig and go.mod files map module names to."""
        return self.js_workspace.fingerprint() + (repr(sorted(self.go_modules.items())) if self.go_modules else "")

    def _clear_memos(self) -> None:
        self._memo_supers.clear()
        self._memo_members.clear()
        self._memo_arity.clear()
        self._memo_extended.clear()
        self._memo_imports.clear()
        self._memo_exports.clear()
        self._memo_go_names.clear()

    # ---- index maintenance ---------------------------------------------------------
    def _names_defined(self, facts: FileFacts) -> set[str]:
        names = {u.name for u in facts.units if u.kind != "statement"}
        spec = spec_of(facts)
        if spec.module_system == "python":  # `import pkg.mod` refers to the file as `mod`
            names.update(m.rsplit(".", 1)[-1] for m in spec.module_names(facts.path))
        names.add(posixpath.basename(facts.path).rsplit(".", 1)[0])
        names.add(posixpath.basename(posixpath.dirname(facts.path)))
        return names

    @staticmethod
    def _changed_names(old: FileFacts, new: FileFacts) -> tuple[set[str], set[tuple[str, str]]]:
        """What other files can observe of an edit: (top-level names, (owner, member) pairs).

        An edit inside a body leaves every definition where it was: nothing outside the file
        needs re-resolving. Definitions that appear, vanish or move, and types whose
        supertypes or package change, are what other files can observe.
        """
        def shape(f: FileFacts) -> set[tuple[str, str, int]]:
            counts: dict[tuple[str, str], int] = defaultdict(int)
            fields = spec_of(f).declared_fields or spec_of(f).assigned_fields
            for u in f.units:
                if u.kind != "statement":  # a second definition makes a name ambiguous; an extension
                    # binds by the type it extends; a type's declared fields and a callable's declared
                    # return type (or listed results) bind calls through them
                    counts[(u.qualname, f"{u.kind}:{u.ext_type}:{u.attrs if fields and u.is_type else ''}:{u.returns}:{u.results}:{u.assigned_to}")] += 1
            return {(q, k, n) for (q, k), n in counts.items()}

        def supers(f: FileFacts) -> set[tuple[str, str, str]]:
            return {(s.unit, s.text, s.kind) for s in f.supertypes}

        names: set[str] = set()
        members: set[tuple[str, str]] = set()
        for qualname, _, _ in shape(old) ^ shape(new):
            owner, _, name = qualname.rpartition(".")
            if owner in COMMONJS_EXPORTS:  # reached through the module, not through a type
                names.add(name)
            elif owner:
                members.add((owner.rsplit(".", 1)[-1], name))
            else:
                names.add(name)
        names |= {uid.rsplit("::", 1)[-1].rsplit(".", 1)[-1].split("#")[0] for uid, _, _ in supers(old) ^ supers(new)}
        default = spec_of(new).default_export
        aliases = set(old.export_aliases) ^ set(new.export_aliases)  # what `require` of the file hands back
        names |= {n for pair in aliases for n in pair}
        if aliases or (default and any(q in (default, "default") for q, _, _ in shape(old) ^ shape(new))):
            # a default import names the file, not the definition: its importers name the module
            names.add(posixpath.basename(new.path).rsplit(".", 1)[0])
            names.add(posixpath.basename(posixpath.dirname(new.path)))
        if old.package != new.package:
            names |= {u.name for u in old.units} | {u.name for u in new.units}
        return names, members

    def _remove(self, facts: FileFacts) -> None:
        self.imports_by_local.pop(facts.path, None)
        for u in facts.units:
            self.units.pop(u.id, None)
            if u.kind != "statement":
                for counts in (self.defined, self.extension_names) if u.ext_type else (self.defined,):
                    left = counts[u.name] - 1
                    if left > 0:
                        counts[u.name] = left
                    else:
                        del counts[u.name]
        self.top.pop(facts.path, None)
        key = scope_key(facts)
        for u in facts.units:
            owner = member_owner(u)
            if owner is not None:
                bucket = self.members.get((key, owner))
                if bucket is not None and u.name in bucket:
                    bucket[u.name] = [x for x in bucket[u.name] if x.id != u.id]
        pkg = package_key(facts)
        if pkg is not None:
            bucket = self.packages.get(pkg)
            if bucket is not None:
                for u in facts.units:
                    if u.name in bucket:
                        bucket[u.name] = [x for x in bucket[u.name] if x.id != u.id]
        spec = spec_of(facts)
        owners = self._module_owners.get(spec.module_system)
        if owners is not None:
            for mod in spec.module_names(facts.path):
                self._unclaim(owners, spec, mod, facts.path)
        if spec.module_system == "directory":
            self.go_dirs[posixpath.dirname(facts.path)].discard(facts.path)
        for name in _observed_names(facts):
            self.refs[name].discard(facts.path)

    def _claim(self, owners: dict[str, str], spec: LanguageSpec, module: str, path: str) -> None:
        self._claims[(spec.module_system, module)].add(path)
        held = owners.get(module)
        # the firmest claim, then the first path in order, whatever order files arrive in
        if held is None or (spec.module_rank(held, module), held) >= (spec.module_rank(path, module), path):
            owners[module] = path

    def _unclaim(self, owners: dict[str, str], spec: LanguageSpec, module: str, path: str) -> None:
        claims = self._claims.get((spec.module_system, module))
        if claims is None:
            return
        claims.discard(path)
        if not claims:
            del self._claims[(spec.module_system, module)]
            owners.pop(module, None)
        elif owners.get(module) == path:
            owners[module] = min(claims, key=lambda p: (spec.module_rank(p, module), p))

    @staticmethod
    def _bound_name(facts: FileFacts, imp) -> str:
        """The local name an import binds in its file ("" for star imports)."""
        if imp.name == "*":
            return ""
        if imp.name == "":
            if imp.alias:
                return imp.alias
            return module_binds(spec_of(facts), imp.module)
        return imp.alias or imp.name

    def _add(self, facts: FileFacts) -> None:
        self.files[facts.path] = facts
        by_local: dict[str, list] = defaultdict(list)
        for imp in facts.imports:
            bound = self._bound_name(facts, imp)
            if bound:
                by_local[bound].append(imp)
        self.imports_by_local[facts.path] = by_local
        top: dict[str, list[Unit]] = defaultdict(list)
        key = scope_key(facts)
        pkg = package_key(facts)
        defined = self.defined
        for u in facts.units:
            self.units[u.id] = u
            if u.kind == "statement":
                continue
            defined[u.name] += 1
            if u.ext_type:
                self.extension_names[u.name] += 1
            # a Rust `impl Square` block is not a second definition of `Square`
            if u.parent is None and "." not in u.qualname and u.kind != "impl" and not u.assigned_to:
                top[u.name].append(u)
                if pkg is not None:
                    self.packages[pkg][u.name].append(u)
            owner = member_owner(u)
            if owner is not None:
                self.members[(key, owner)][u.name].append(u)
        self.top[facts.path] = top
        spec = spec_of(facts)
        owners = self._module_owners.get(spec.module_system)
        if owners is not None:
            for mod in spec.module_names(facts.path):
                self._claim(owners, spec, mod, facts.path)
        if spec.module_system == "directory":
            self.go_dirs[posixpath.dirname(facts.path)].add(facts.path)
        for name in _observed_names(facts):
            self.refs[name].add(facts.path)

    def add_all(self, facts: list[FileFacts]) -> None:
        """Bulk load for a full build (no dependents to report: everything resolves afterwards)."""
        self._clear_memos()
        for f in facts:
            old = self.files.get(f.path)
            if old is not None:
                self._remove(old)
            self._add(f)

    def update(self, changed: list[FileFacts], removed: list[str]) -> set[str]:
        """Applies new facts; returns every file whose bindings may have changed."""
        self._clear_memos()
        touched_names: set[str] = set()
        touched_members: set[tuple[str, str]] = set()  # (owner type name, member name)
        dirty: set[str] = set()
        for path in removed:
            old = self.files.pop(path, None)
            if old is not None:
                touched_names |= self._names_defined(old)
                self._remove(old)
        for facts in changed:
            old = self.files.get(facts.path)
            names, members = self._touched(old, facts)
            touched_names |= names
            touched_members |= members
            if old is not None:
                self._remove(old)
            self._add(facts)
            dirty.add(facts.path)
        return (dirty | self._referencing(touched_names, touched_members)) & self.files.keys()

    def dependents(self, before: FileFacts | None, after: FileFacts | None) -> set[str]:
        """Files whose bindings may differ between two states of one file (None = absent), as
        the indexes stand now: what edits deferred while typing leave to re-resolve."""
        if before is None and after is None:
            return set()
        if after is None:
            names, members = self._names_defined(before), set()
        else:
            names, members = self._touched(before, after)
        return self._referencing(names, members) & self.files.keys()

    def _touched(self, old: FileFacts | None, new: FileFacts) -> tuple[set[str], set[tuple[str, str]]]:
        """(names, (owner, member) pairs) other files can observe changing from old to new."""
        if old is None:
            return self._names_defined(new), set()
        names, members = self._changed_names(old, new)
        names |= self._changed_passed_on(old, new)
        if spec_of(new).member_scope != "file":  # methods of a type live in many files of its package
            return names | {m for _, m in members}, set()
        return names, members

    def _changed_passed_on(self, old: FileFacts, new: FileFacts) -> set[str]:
        """Names a module may pass on whose imports changed (`pub use command::Command` added to a
        `mod.rs`, `export { f } from './f'` removed): their importers bind through them. A star
        import passes on what its module defines."""
        if spec_of(new).module_system not in PASSING_ON:
            return set()

        def named(f: FileFacts) -> set[tuple[str, str, str, int]]:
            return {(i.module, i.name, i.alias, i.level) for i in f.imports if i.name != ""}

        names: set[str] = set()
        for module, name, alias, level in named(old) ^ named(new):
            if name != "*":
                names.add(alias or name)
                continue
            where = self._module_file(new, module, level)  # type: ignore[attr-defined]  # the Resolver's
            names |= set(self.top.get(where, {})) if where else set()
        return names

    def _referencing(self, names: set[str], members: set[tuple[str, str]]) -> set[str]:
        dirty: set[str] = set()
        for name in names:
            dirty |= self.refs.get(name, set())
        if members:
            # A member is reached through its type: only files that name the type (or a type
            # that extends it, by name, transitively) and the member can bind to it.
            owners = self._descendant_names({owner for owner, _ in members})
            naming_a_type = set().union(*(self.refs.get(t, set()) for t in owners))
            for _, member in members:
                dirty |= self.refs.get(member, set()) & naming_a_type
        return dirty

    def _descendant_names(self, roots: set[str]) -> set[str]:
        """Type names extending any of `roots`, transitively, by name (a safe over-approximation)."""
        names = set(roots)
        for _ in range(MAX_SUPER_DEPTH):
            grown = {
                self.units[s.unit].name
                for facts in self.files.values()
                for s in facts.supertypes
                if s.name in names and s.unit in self.units
            }
            if grown <= names:
                break
            names |= grown
        return names
