"""Test support a library ships among its own modules, told by who imports whom.

A module named like test support (`testing.py`, `testutils.py`, `test_helpers.py`) may be a test
client or runner shipped for users' tests, or a real module that happens to be so named (a lexer
for test-report formats, a package's private `_testing.py` of task introspection). Its name does
not say which; its imports do. It is test support when it imports a test framework or another
package's test support (`unittest`, `pytest`, a web framework's `.test` client module), or when tests
import it and no module of the library does. Explore's path prior reads the verdict (test support
off the main path, a module so named that the library's own modules import on it); distill's scope
already leaves a `testing.py` out of the architecture by name (distill/surfaces.py BUILD_FILES).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

from ..workspace.scope import is_test_path

if TYPE_CHECKING:
    from ..index.index import RootIndex

# A module file named like test support (not a test folder's: those are tests by their path).
SUPPORT_MODULE = re.compile(
    r"(^|/)_?(testing|testutils?|test_utils?|testhelpers?|test_helpers?|testlib|test_support|testkit)\.py$", re.I)
# A test framework, or the test support of another package (its `.test`, `.testing`, `.testclient`
# or `.test_utils` module), by the absolute module an import names.
TEST_FRAMEWORK = re.compile(
    r"^(unittest|pytest|_pytest|doctest|nose2?|hypothesis|testtools|webtest|mock)(\.|$)|"
    r"\.(test|testing|testclient|testutils?|test_utils)(\.|$)")


class SupportModules:
    """The modules named like test support (`named`), and those of them that are test support by
    their imports (`support`); the rest of `named` are the library's own code."""

    def __init__(self, version: int, named: frozenset[str], support: frozenset[str]) -> None:
        self.version = version
        self.named = named
        self.support = support


def support_modules(index: "RootIndex") -> SupportModules:
    """The modules of `index` named like test support, judged by their imports (memoized per version)."""
    hit = index.memo.get("support")
    if hit is not None and hit.version == index.version:
        return hit  # type: ignore[return-value]
    named = frozenset(p for p in index.files if SUPPORT_MODULE.search(p) and not is_test_path(p))
    table = SupportModules(index.version, named, _support(index, named) if named else frozenset())
    index.memo["support"] = table
    return table


def test_support_files(index: "RootIndex") -> frozenset[str]:
    """The modules of `index` that are test support by their imports."""
    return support_modules(index).support


def _support(index: "RootIndex", named: frozenset[str]) -> frozenset[str]:
    importers: dict[str, set[str]] = defaultdict(set)
    for path, b in index.bindings.items():
        for e in b.edges:
            if e.kind == "imports" and e.dst in named:
                importers[e.dst].add(path)
    out: set[str] = set()
    for path in named:
        facts = index.files[path]
        b = index.bindings.get(path)
        lines = {e.line for e in b.edges if e.kind == "imports"} if b is not None else set()
        # an import of the project's own modules (an edge names the first import of each file) is
        # judged by who imports whom, not by its name
        inside = {imp.module for imp in facts.imports if imp.line in lines}
        if any(imp.level == 0 and imp.module not in inside and TEST_FRAMEWORK.search(imp.module or imp.name) for imp in facts.imports):
            out.add(path)
            continue
        by = importers.get(path, set())
        tests = {q for q in by if is_test_path(q)}
        # a stub (`.pyi`) and another support module import it for the same readers
        library = {q for q in by - tests if not q.endswith(".pyi") and q not in named}
        if tests and not library:
            out.add(path)
    return frozenset(out)
