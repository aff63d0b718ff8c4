"""Surfaces: where the architecture is, and what a package offers its users.

The architecture's scope (tests, examples, docs, benchmarks and build scripts are material about
the code, never its entries or core), public by the language's own convention, the host contracts
a callable implements, and the names a package's root files export. Every rule reads layout and
syntax that any code base has; none names a corpus.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

from ..index.facts import CALLABLE_KINDS, CLASS_KINDS, Unit
from ..model.facts import bodiless, in_test_module
from ..languages import BY_NAME
from ..workspace.scope import is_side_module
from .topology import Model

# Files that make up a package's public face: what they name is the surface users import.
ROOT_FILES = frozenset({"__init__.py", "index.js", "index.ts", "index.mjs", "index.cjs", "lib.rs", "mod.rs", "main.ts", "main.js"})
# Directory names of code shipped beside a library rather than in it (tools, vendored helpers).
SIDE_DIRS = frozenset({"tools", "tool", "util", "utils", "internal", "contrib", "extras", "cmd", "bin", "compat", "vendor"})
WORD = re.compile(rb"[A-Za-z_$][\w$]*")


# Directory names that hold material about the code, not the code's architecture.
NON_ARCH_DIRS = frozenset({
    "example", "examples", "sample", "samples", "demo", "demos", "doc", "docs", "documentation", "tutorial",
    "tutorials", "bench", "benches", "benchmark", "benchmarks", "scripts", "test", "tests", "testing", "testdata",
    "fixtures", "fixture", "e2e", "spec", "specs", "__tests__", "__mocks__", "testutil", "testutils", "playground",
    "website",  # a docs site's own code beside the library (Docusaurus's `website/pages/en/index.js`)
})
# ...and such a directory with a qualifier: FastAPI's and Typer's `docs_src/`, `examples-js/`
DOCS_WITH_QUALIFIER = re.compile(r"^[_.]?(docs?|documentation|examples?|samples?|demos?|tutorials?)[-_](?:src|sources?|code|snippets?|examples?|samples?|py|python|js|ts|go|rs|rust|java|kt|apps?|projects?)[\w-]*$", re.I)
# Test source sets and test-support modules: `fooTest`, `test-utils`, `lib-mock`, `lib-fakeclock` (a compound word
# beginning with fake/mock/stub after a separator), `mocks`, a fake, mock or dummy server.
TEST_SOURCE_SET = re.compile(r"^[a-z][A-Za-z0-9]*Test(s|Fixtures)?$|^test[-_A-Z]|[-_](tests?|testing)$|[-_](mock|fake|stub)[a-z0-9]*$|"
                             r"^(mocks?|fakes?|stubs?)$|^(mock|fake|stub|dummy)[-_]?[a-z]*servers?$")
BUILD_FILES = re.compile(
    r"(^|/)(build\.rs|setup\.py|noxfile\.py|fabfile\.py|conftest\.py|[Gg]runtfile\.[cm]?[jt]s|[Gg]ulpfile(\.babel)?\.[cm]?[jt]s|"
    r"[\w.-]+\.config\.[cm]?[jt]s|\.eslintrc\.[cm]?js|Makefile|build\.gradle(\.kts)?|settings\.gradle(\.kts)?)$|"
    r"\.d\.[cm]?ts$|\.pyi$|(^|/)(testing|test[\w-]*)\.\w+$"
)


def non_architecture(path: str) -> bool:
    """Tests, examples, docs, benchmarks and build scripts: never entry, assembly or core."""
    parts = path.split("/")
    if any(p.lstrip("_.") in NON_ARCH_DIRS or TEST_SOURCE_SET.search(p.lstrip("_.")) or DOCS_WITH_QUALIFIER.match(p) for p in parts[:-1]):
        return True
    return bool(BUILD_FILES.search(path)) or is_side_module(path)


def test_code(u: Unit) -> bool:
    """An inline test module (Rust's `#[cfg(test)] mod tests`) or a unit inside one: test code in a source file."""
    return in_test_module(u) or (u.kind in CLASS_KINDS and u.name in ("tests", "test"))


def is_public(u: Unit, language: str, source: bytes) -> bool:
    """Public by the language's own convention (syntax, not naming taste): its spec's `is_public`."""
    spec = BY_NAME.get(language)
    if spec is None:
        return not u.name.startswith("_")
    return spec.is_public(u.name, source[u.start_byte : max(u.sig_end_byte, u.start_byte)])


def is_public_in(index, model: Model, u: Unit) -> bool:
    """`is_public` of a unit of the model, read once: the walk's stages and the features ask about the same units."""
    got = model.public.get(u.id)
    if got is None:
        got = model.public[u.id] = is_public(u, index.files[u.path].language, index.sources[u.path])
    return got


HOST_ARGS = re.compile(rb"\(\s*(?:(scope\s*,\s*\w*receive\w*\s*,\s*\w*send\w*)|environ\s*,\s*\w*start_response\w*)\s*\)")
HOST_ARG_WORDS = (b"receive", b"start_response")  # every HOST_ARGS match holds one: a file naming neither hands no host arguments on


def host_interface(u: Unit, language: str) -> str:
    """The host contract a callable implements, from its signature ('' when none): by its parameter
    names (the spec's `param_hosts`), or a method a structural contract names."""
    spec = BY_NAME.get(language)
    if spec is not None and spec.param_hosts and u.kind in CALLABLE_KINDS and len(u.param_names) >= 2:
        joined = " ".join(u.param_names)
        if any(wanted[0] in joined for wanted, _ in spec.param_hosts):  # cheap: every contract names its first
            names = tuple(n.lstrip("*&") for n in u.param_names)
            for wanted, shown in spec.param_hosts:
                if all(n in names for n in wanted):
                    return shown
    if spec is not None and spec.structural_hosts and u.kind == "method" and not bodiless(u):  # not the interface's own
        for _, method, shown in spec.host_contracts:
            if u.name == method:
                return f"{shown} ({method})"
    return ""


def is_public_api(index, model: Model, u: Unit) -> bool:
    """Public as a user of the package sees it: public by syntax, a module function only when its module exports
    it, a member of a type only when the type is public (where the language says so)."""
    lang = index.files[u.path].language
    if not (is_public_in(index, model, u) if u.id in model.units else is_public(u, lang, index.sources[u.path])):
        return False
    parent = model.units.get(u.parent) if u.parent else None
    spec = BY_NAME.get(lang)
    if spec is not None and u.kind == "function" and (parent is None or parent.kind == "statement"):
        exported = _exported(spec.exported_names, index.sources[u.path])  # a module's function: public if exported
        if exported is not None and u.name not in exported:
            return False
    if parent is not None and parent.kind in CLASS_KINDS and spec is not None and spec.public_through_type:
        return is_public_in(index, model, parent)
    if spec is not None and spec.module_public is not None:
        source = index.sources[u.path]
        while parent is not None:  # every enclosing module of the file must let it out
            if parent.kind == "object" and not spec.module_public(source[parent.start_byte : max(parent.sig_end_byte, parent.start_byte)]):
                return False
            parent = model.units.get(parent.parent) if parent.parent else None
    return True


@lru_cache(maxsize=4096)
def _exported(names_of, source: bytes) -> "frozenset[str] | None":
    """The names a module file exports (read once per file content)."""
    return names_of(source)


def exported_names(index) -> frozenset[bytes]:
    """Every identifier a package root file names (`__init__.py`, `index.js`, `lib.rs`, …): the
    names a package re-exports, its `__all__`, its `pub use` items."""
    names: set[bytes] = set()
    for path in index.files:
        if posixpath.basename(path) in ROOT_FILES and not non_architecture(path):
            names.update(WORD.findall(index.sources.get(path, b"")))
    return frozenset(names)
