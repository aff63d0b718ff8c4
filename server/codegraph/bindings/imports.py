"""Import bindings, a stage of resolution: the file a module import names under each language's
module system, and what an imported name denotes — a definition, a module, or a name the
module passes on from another (`export { f } from './f'`, `pub use command::Command`).
The Resolver inherits these; they read its indexes (resolver_indexes.py)."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable

from ..model.bindings import Edge
from ..model.facts import FileFacts, Unit
from .go_modules import module_dir
from .resolver_indexes import COMMONJS_EXPORTS, PASSING_ON, module_binds, scope_key, spec_of

MAX_PASSED_ON = 8  # modules a re-exported name is followed through


def _crate_absolute(here: str, module: str) -> str:
    """A crate path relative to the module `here` as written from the crate root: `self::a` →
    `here::a`, `super::a` → `a` beside `here` (`super::super::a` one level further up)."""
    if module == "self" or module.startswith("self::"):
        return here + module[4:]
    base, steps = here, 0
    while module == "super" or module.startswith("super::"):
        module, steps = module[7:], steps + 1
    if not steps:
        return module
    parts = base.split("::")
    if len(parts) - steps < 1:
        return module
    return "::".join(parts[: len(parts) - steps] + ([module] if module else []))


class ImportBindings:
    """What imports bind, for the Resolver (a mixin over its indexes and lookups)."""

    def _module_file(self, facts: FileFacts, module: str, level: int) -> str | None:
        """The file a module import names, by the importer's module system."""
        spec = spec_of(facts)
        system = spec.module_system
        if system == "python":
            if level:
                base = facts.path.split("/")[:-1]
                base = base[: len(base) - (level - 1)] if level > 1 else base
                if level - 1 > len(facts.path.split("/")) - 1:
                    return None
                candidates = spec.module_names("/".join(base + ([*module.split(".")] if module else ["__init__"])) + ".py")
                for cand in candidates:
                    hit = self.py_modules.get(cand)
                    if hit:
                        return hit
                return None
            return self.py_modules.get(module)
        if system == "path":
            if module.startswith("."):
                base = posixpath.normpath(posixpath.join(posixpath.dirname(facts.path), module))
                base = "" if base == "." else base  # the root itself (`require('..')` from `test/`)
                bases: Iterable[str] = [base, *self.js_workspace.directory_entries(base)]
            else:  # a package of the workspace (`@vue/runtime-core`), else outside
                bases = self.js_workspace.bases(facts.path, module)
            for base in bases:
                for cand in spec.import_candidates(base):
                    if cand in self.files:
                        return cand
            return None
        if system == "crate":
            here = spec.module_names(facts.path)[0]
            if not module.startswith(("crate::", "self::", "super::")) and module not in ("crate", "self", "super"):
                # a path from the current module first (`use command::Command` in a `mod.rs`
                # that declares `mod command;`), then from the crate root
                child = self.rust_modules.get(f"{here}::{module}")
                if child is not None:
                    return child
            return self.rust_modules.get(_crate_absolute(here, module))
        return None

    def _rooted_path(self, facts: FileFacts, written: str) -> tuple[tuple[str, str], list[str]] | None:
        """A Rust path that opens at the crate root or at the current module (`crate::a::b::T`,
        `self::a::T`, `super::T`, `crate`): (its longest prefix that is a module of the crate, the names
        after it); None for any other path."""
        if spec_of(facts).module_system != "crate" or not (written.startswith(("crate::", "self::", "super::")) or written in ("crate", "super")):
            return None  # (`self` alone is a method's receiver; `crate::spawn()`, `super::helper()` name modules)
        segments = [s.strip() for s in written.split("::")]
        for i in range(len(segments), 0, -1):
            path = self._module_file(facts, "::".join(segments[:i]), 0)
            if path:
                return ("module", path), segments[i:]
        return None

    def _qualified_member(self, dotted: str, path: str) -> Unit | None:
        """What a JVM name written through its package denotes (`p.Outer.Inner`, `p.Outer.Model.Spec`:
        a class nested at any depth, seen from `path`): the longest prefix a package declares, its
        type, then member by member, the types between."""
        segments = dotted.split(".")
        for i in range(len(segments) - 1, 0, -1):
            declared = self.packages.get(("declared", ".".join(segments[:i])))
            if not declared or segments[i] not in declared:
                continue
            rest = segments[i + 1 :]
            if not rest and any(not u.is_type for u in declared[segments[i]]):
                return None  # `p.Size` names a class and its factory function (Kotlin): which one, unknown
            head = self._unique_for([u for u in declared[segments[i]] if u.is_type and u.kind != "impl"], path)
            for n, name in enumerate(rest):
                if head is None:
                    return None
                found = self.members_of(head).get(name, ())
                head = self._unique([u for u in found if u.is_type] if n < len(rest) - 1 else found)
            return head
        return None

    def _go_package_dir(self, import_path: str) -> str | None:
        moduled = module_dir(self.go_modules, import_path) if self.go_modules else None
        if moduled is not None and self.go_dirs.get(moduled):  # a workspace module's package (go.mod)
            return moduled
        parts = import_path.split("/")
        hits = []
        for i in range(len(parts)):
            cand = "/".join(parts[i:])
            if cand in self.go_dirs and self.go_dirs[cand]:
                hits.append(cand)
                break
        return hits[0] if hits else None

    def _commonjs_exports(self, path: str) -> dict[str, list[Unit]]:
        """Name → the definitions a CommonJS module exports by assignment (`exports.f = function`,
        `module.exports.f = …`, and a name of the module as `exports.Store = Store;`); empty for any
        other file."""
        found = [self.members.get((path, owner)) for owner in COMMONJS_EXPORTS]
        found = [b for b in found if b and any(b.values())]  # a bucket keeps names whose definitions left
        facts = self.files.get(path)
        aliases = facts.export_aliases if facts is not None else ()
        if len(found) < 2 and not aliases:
            return found[0] if found else {}
        hit = self._memo_exports.get(path)
        if hit is not None:
            return hit
        merged: dict[str, list[Unit]] = defaultdict(list)
        self._memo_exports[path] = merged  # a cycle of modules exporting each other's imports ends here
        for bucket in found:
            for name, units in bucket.items():
                merged[name] += units
        for name, local in aliases:
            if not name or name.startswith("default."):  # the module's own value and its members
                continue
            here = self.top.get(path, {}).get(local)
            if here:
                merged[name] += here
            elif facts is not None and "." in local:  # a compiled re-export's getter returning `x_1.Y`
                head, _, member = local.partition(".")
                module = self._import_binding(facts, head)
                found = self._member_of(module, member) if module is not None and module[0] == "module" else None
                if isinstance(found, Unit) and found not in merged[name]:
                    merged[name].append(found)
            elif facts is not None:  # `exports.Store = Store;` of an imported `Store`
                bound = self._import_binding(facts, local)
                if bound is not None and bound[0] == "unit" and bound[1] not in merged[name]:
                    merged[name].append(bound[1])
        return merged

    def _import_binding(self, facts: FileFacts, local: str, depth: int = 0) -> tuple[str, str | Unit] | None:
        """What an imported local name denotes: ("module", path) or ("unit", Unit). `depth`: the
        modules passed through to get here (`export { f } from './f'` in a chain)."""
        key = (facts.path, local)
        hit = self._memo_imports.get(key, key)
        if hit is key:
            hit = self._find_import_binding(facts, local, depth)
            # a miss deep in a chain may be the chain's cap, and one inside a walk of re-exports a
            # cycle's cut (a module reached again through its own `export *`)
            if hit is not None or not (depth or self._passing):
                self._memo_imports[key] = hit
        return hit

    def _own_binding(self, facts: FileFacts, local: str, depth: int) -> tuple[str, str | Unit] | None:
        """What a module-level name of `facts` denotes: its one definition there, else its import."""
        here = self.top.get(facts.path, {}).get(local)
        if here:
            hit = self._unique(here)
            return ("unit", hit) if hit is not None else None
        owner, _, name = local.rpartition(".")
        if owner:  # `module.exports = internals.Route = class {…}`: the member defined there
            hit = self._unique([u for u in self.members.get((scope_key(facts), owner), {}).get(name, ()) if u.path == facts.path and u.parent is None])
            return ("unit", hit) if hit is not None else None
        filled = self._module_object(facts, None, local)
        if filled is not None and local not in self.imports_by_local.get(facts.path, {}):
            return filled  # `const scripts = { add() {…} }` or `utils.merge = function …`, then `module.exports = scripts;`
        if depth >= MAX_PASSED_ON:
            return None
        return self._import_binding(facts, local, depth + 1)

    def _passed_on(self, path: str, name: str, depth: int) -> tuple[str, str | Unit] | None:
        """What a JavaScript, Rust or Python module passes on under `name` without defining it: a
        name it imports and re-exports (`export { ref } from './ref'`, `pub use command::Command`,
        a package's `__init__.py` saying `from .client import Client`; code that compiles imports
        from a module only what it exports, and a Python module's names are what it binds, so its
        one import of that name is the one), or the one among its `export * from` / `pub use x::*`
        / `from .x import *` modules' names (a package's `index.ts`, a `mod.rs`, an `__init__.py`;
        a Python star import passes on no `_private` name)."""
        facts = self.files.get(path)
        system = spec_of(facts).module_system if facts is not None else ""
        if facts is None or depth >= MAX_PASSED_ON or system not in PASSING_ON:
            return None
        key = (path, name)
        if key in self._passing:  # a cycle of re-exports (a barrel whose modules import from it)
            return None  # proves nothing the walk that first reached (path, name) does not see
        self._passing.add(key)
        try:
            return self._passed_on_walk(facts, system, path, name, depth)
        finally:
            self._passing.discard(key)

    def _passed_on_walk(self, facts: FileFacts, system: str, path: str, name: str, depth: int) -> tuple[str, str | Unit] | None:
        if name in self.imports_by_local.get(path, {}):
            return self._import_binding(facts, name, depth + 1)
        if system == "python" and name.startswith("_"):
            return None
        found: dict[str, tuple[str, str | Unit]] = {}
        for imp in facts.imports:
            sub = self._module_file(facts, imp.module, imp.level) if imp.name == "*" else None
            if sub is None or sub == path:
                continue
            exported = self._commonjs_exports(sub)  # a CommonJS module passes on what it exports
            hit = self._unique(exported.get(name) if exported else self.top.get(sub, {}).get(name))
            bound = ("unit", hit) if hit is not None else self._passed_on(sub, name, depth + 1)
            if bound is not None:
                found[bound[1].id if isinstance(bound[1], Unit) else bound[1]] = bound
        return next(iter(found.values())) if len(found) == 1 else None

    def _go_named_imports(self, facts: FileFacts) -> dict[str, list]:
        """A Go file's unaliased imports of workspace packages by the name their package clause
        declares where the path's last element is another (`example.com/lib/v2`, `…/amqp091-go` →
        `lib`, `amqp`): what the file calls them by."""
        hit = self._memo_go_names.get(facts.path)
        if hit is None:
            hit = self._memo_go_names[facts.path] = defaultdict(list)
            for imp in facts.imports:
                if imp.alias or imp.name:
                    continue
                target = self._go_package_dir(imp.module)
                names = {n for n in (getattr(self.files.get(p), "package", "") for p in self.go_dirs.get(target, ()) if target is not None)
                         if n and not n.endswith("_test")}
                if len(names) == 1 and (name := names.pop()) != module_binds(spec_of(facts), imp.module):
                    hit[name].append(imp)
        return hit

    def _find_import_binding(self, facts: FileFacts, local: str, depth: int = 0) -> tuple[str, str | Unit] | None:
        spec = spec_of(facts)
        imports = self.imports_by_local.get(facts.path, {}).get(local, ())
        named = not imports and spec.module_system == "directory"
        if named:  # `amqp.Dial()` with `import "…/amqp091-go"`: the name its package clause declares
            imports = self._go_named_imports(facts).get(local, ())
        for imp in imports:
            if imp.name in ("", "*"):
                if imp.name == "*":
                    continue
                bound = imp.alias or module_binds(spec, imp.module)
                if bound != local and not named:
                    continue
                if spec.module_system == "directory":
                    target = self._go_package_dir(imp.module)  # "": the root directory's package
                    return ("package", target) if target is not None else None
                module = imp.module if (imp.alias or spec.import_binds != "first") else imp.module.split(".")[0]
                path = self._module_file(facts, module, imp.level)
                return ("module", path) if path else None
            if (imp.alias or imp.name) != local:
                continue
            if spec.module_system == "package":
                target = self._unique_for(self.packages.get(("declared", imp.module), {}).get(imp.name), facts.path)
                if target is None:  # nested class import: pkg.Outer.Inner, pkg.Outer.Model.Spec
                    target = self._qualified_member(f"{imp.module}.{imp.name}", facts.path)
                return ("unit", target) if target else None
            path = self._module_file(facts, imp.module, imp.level)
            if path is None:
                return None
            if imp.name == "default":  # the file's default export, when it is a definition of its own
                target_facts = self.files.get(path)
                default = spec_of(target_facts).default_export if target_facts is not None else ""
                if default:
                    # `module.exports = function …`; `export default function (…) {…}`, a definition named `default`
                    target = self._unique([u for u in target_facts.units if u.qualname in (default, "default") and u.parent is None])
                    if target is not None:
                        return ("unit", target)
                    if self._commonjs_exports(path):  # no definition is the export: the exports object is
                        return ("module", path)
                    own = [local for name, local in target_facts.export_aliases if not name]
                    if len(own) == 1:  # `export default Store;`, `module.exports = Store;`: what Store names there
                        bound = self._own_binding(target_facts, own[0], depth)
                        if bound is not None:
                            return bound
                    elif not own and any(name.startswith("default.") for name, _ in target_facts.export_aliases):
                        return ("default", path)  # `export default { find, … }`
                    elif not own and any(i.name == "*" for i in target_facts.imports):
                        return ("module", path)  # a module of `export * from …` only: what it passes on
                continue
            target = self._unique(self.top.get(path, {}).get(imp.name))
            if target is None:  # `const { f } = require('./m')` with `exports.f = …` in m
                target = self._unique(self._commonjs_exports(path).get(imp.name))
            if target is not None:
                return ("unit", target)
            passed = self._passed_on(path, imp.name, depth)
            if passed is not None:  # `import { ref } from '@vue/reactivity'`: its index.ts re-exports it
                return passed
            if spec.module_system == "python":  # `from pkg import mod`
                sub = self._module_file(facts, f"{imp.module}.{imp.name}" if imp.module else imp.name, imp.level)
                if sub:
                    return ("module", sub)
            if spec.module_system == "crate":  # `use crate::proto;`, `use super::frame::{self, Reason}`
                sub = self._module_file(facts, f"{imp.module}::{imp.name}", imp.level)
                if sub and sub != facts.path:
                    return ("module", sub)
            return None
        return None

    def _import_edges(self, facts: FileFacts) -> list[Edge]:
        """One `imports` edge per file imported (the first import naming it), never to itself."""
        path = facts.path
        edges: list[Edge] = []
        seen_imports: set[str] = set()
        system = spec_of(facts).module_system
        for imp in facts.imports:
            for target_path in self._import_targets(facts, imp, system):
                if target_path != path and target_path not in seen_imports:
                    seen_imports.add(target_path)
                    edges.append(Edge(path, target_path, "imports", imp.line, path))
        return edges

    def _import_targets(self, facts: FileFacts, imp, system: str) -> list[str]:
        """The files one import statement names, by the importer's module system."""
        if system == "directory":
            target_dir = self._go_package_dir(imp.module)
            return sorted(self.go_dirs.get(target_dir, ())) if target_dir is not None else []
        if system == "package":
            hit = self._unique(self.packages.get(("declared", imp.module), {}).get(imp.name)) if imp.name not in ("", "*") else None
            return [hit.path] if hit else []
        target_path = self._module_file(facts, imp.module, imp.level)
        if system == "python" and imp.name not in ("", "*"):
            sub = self._module_file(facts, f"{imp.module}.{imp.name}" if imp.module else imp.name, imp.level)
            if sub and self._unique(self.top.get(target_path or "", {}).get(imp.name)) is None:
                target_path = sub
        return [target_path] if target_path else []
