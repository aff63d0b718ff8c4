"""The path prior: how much a file's path (and, for a platform variant, its head) says it is the
project's main code rather than an example, test support, docs or one platform's variant."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Iterator

from ..index.facts import Unit
from ..workspace.scope import is_platform_variant, is_side_module


# Path segments of code that is not the project's main path: examples, docs, benchmarks,
# build scripts and type-declaration copies. They stay findable, at a discount, so a question
# about the library meets the library first.
# (also a docs or examples directory with a qualifier: FastAPI's and Typer's `docs_src/`, `examples-js/`)
_SECONDARY_DIR = re.compile(
    r"(^|/)[_.]?(examples?|samples?|demos?|docs?|documentation|site|website|tutorials?|benchmarks?|benches|bench|scripts?|tools|contrib|playground"
    r"|(?:docs?|documentation|examples?|samples?|demos?|tutorials?)[-_](?:src|sources?|code|snippets?|examples?|samples?|py|python|js|ts|go|rs|rust|java|kt|apps?|projects?)[\w-]*)/", re.I)
_SECONDARY_FILE = re.compile(r"(\.d\.[cm]?ts$|\.pyi$|(^|/)(build\.rs|setup\.py|conf\.py|noxfile\.py|fabfile\.py|[Gg]ulpfile(\.babel)?\.[cm]?[jt]s|[Gg]runtfile\.[cm]?[jt]s|[\w.-]*\.config\.[cm]?[jt]s)$)")


SUPPORT_PRIOR = 0.35  # examples, docs, benchmarks, test support
PLATFORM_PRIOR = 0.6  # one platform's variant


# Test support shipped beside the library: a harness, mocks, fakes, a `testing` module, a dummy
# server the tests run against (`dummyserver/`, as the file names' `dummy` already said), a test client
# a framework ships for its users' tests (`testclient.py`).
TEST_SUPPORT_DIR = re.compile(r"(?:^|/)(?:[\w.-]*(?:mock|fake|stub|fixture|testing|testutil|testkit|conftest)[\w.-]*|dummy[-_]?servers?|(?:[\w.]+[-_.])?testers?)(?:/|$)", re.I)
TEST_SUPPORT_NAME = re.compile(r"(?:^|[_.-])(?:mock|fake|stub|dummy|testing|fixture|tester|test[_-]?(?:helper|util|client))s?(?:[_.-]|$)", re.I)


# What the index a request reads knows of a file beyond its path, set for the request's duration
# by `read_priors` (the path prior is asked of paths in every stage of a request): root-relative
# path -> the prior that replaces the path's own.
_READ_PRIORS: ContextVar[dict[str, float]] = ContextVar("codegraph_read_priors", default={})


@contextmanager
def read_priors(variants: frozenset[str], support: frozenset[str], library: frozenset[str]) -> Iterator[None]:
    """`path_prior` inside this block also reads: `variants`, files whose head says they are
    platform variants (`FileFacts.platform_variant`: Go's `//go:build darwin || freebsd`), off the
    main path as a `_darwin.go` name is; `support`, modules named like test support that are test
    support by their imports (graph/support.py), off it as a `testing/` folder is; `library`,
    modules so named that the library's own modules import, main code whatever their name says."""
    read: dict[str, float] = {}
    for path in variants:
        if _path_prior(path) == 1.0:
            read[path] = PLATFORM_PRIOR
    for path in support:
        read[path] = min(_path_prior(path), SUPPORT_PRIOR)
    for path in library:
        if _path_prior(path) == SUPPORT_PRIOR and _path_prior(path, by_name=False) == 1.0:
            read[path] = 1.0
    token = _READ_PRIORS.set(read)
    try:
        yield
    finally:
        _READ_PRIORS.reset(token)


def read_prior(path: str) -> float | None:
    """The prior the request's index gives `path` beyond its path, None when it gives none."""
    return _READ_PRIORS.get().get(path)


def path_prior(path: str) -> float:
    """1.0 for the project's main code, less for platform variants (by name, or by what the file's
    head says), test support, examples, docs, benchmarks and declaration copies."""
    hit = _READ_PRIORS.get().get(path)
    return _path_prior(path) if hit is None else hit


@lru_cache(maxsize=65536)
def _path_prior(path: str, by_name: bool = True) -> float:
    """The prior a path says; `by_name=False`: without the test-support rules on the file's own name."""
    if _SECONDARY_FILE.search(path):
        return 0.3
    folder, _, name = path.rpartition("/")
    if _SECONDARY_DIR.search(path) or is_side_module(path) or (TEST_SUPPORT_DIR.search(path) if by_name else TEST_SUPPORT_DIR.search(folder)) or (by_name and TEST_SUPPORT_NAME.search(name)):
        return SUPPORT_PRIOR
    if is_platform_variant(path):
        return PLATFORM_PRIOR
    return 1.0


def prefer_main(units: list[Unit]) -> list[Unit]:
    """Among same-named definitions, those on the main path when any is (a `.d.ts` or an
    example's copy of a name never competes with the implementation)."""
    best = max((path_prior(u.path) for u in units), default=1.0)
    return [u for u in units if path_prior(u.path) >= best]

