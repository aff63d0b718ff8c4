"""The path prior: how much a file's path (and, for a platform variant, its head) says it is the
project's main code rather than an example, test support, docs or one platform's variant."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Iterator

from ..index.facts import Unit
from ..workspace.scope import is_side_module


# Path segments of code that is not the project's main path: examples, docs, benchmarks,
# build scripts and type-declaration copies. They stay findable, at a discount, so a question
# about the library meets the library first.
# (also a docs or examples directory with a qualifier: FastAPI's and Typer's `docs_src/`, `examples-js/`)
_SECONDARY_DIR = re.compile(
    r"(^|/)[_.]?(examples?|samples?|demos?|docs?|documentation|site|website|tutorials?|benchmarks?|benches|bench|scripts?|tools|contrib|playground"
    r"|(?:docs?|documentation|examples?|samples?|demos?|tutorials?)[-_](?:src|sources?|code|snippets?|examples?|samples?|py|python|js|ts|go|rs|rust|java|kt|apps?|projects?)[\w-]*)/", re.I)
_SECONDARY_FILE = re.compile(r"(\.d\.[cm]?ts$|\.pyi$|(^|/)(build\.rs|setup\.py|conf\.py|noxfile\.py|fabfile\.py|[Gg]ulpfile(\.babel)?\.[cm]?[jt]s|[Gg]runtfile\.[cm]?[jt]s|[\w.-]*\.config\.[cm]?[jt]s)$)")


# Platform variants of code that exists for every platform: Go's build-tagged files (a file name's
# `_GOOS`, `_GOARCH` or `_GOOS_GOARCH` suffix is a build constraint to the go tool; `_mips64x` is the
# standard library's spelling for both byte orders), Kotlin Multiplatform source sets other than the
# common one.
_PLATFORM_VARIANT = re.compile(
    r"_(windows|win|darwin|linux|freebsd|openbsd|netbsd|solaris|plan9|wasm|js|unix|posix|nt)(_\w+)?\.(go|rs|py)$|"
    r"_(aix|android|dragonfly|hurd|illumos|ios|wasip1|zos)(_\w+)?\.go$|"
    r"_(386|amd64|amd64p32|arm|armbe|arm64|arm64be|loong64|mips|mipsle|mips64|mips64le|mips64p32|mips64p32le|mipsx|mips64x|"
    r"ppc|ppc64|ppc64le|ppc64x|riscv|riscv64|s390|s390x|sparc|sparc64)\.go$|"
    r"(^|/)(jvm|android|ios|js|wasmJs|native|apple|desktop|nonAndroid|nonJvm)Main/"
)


# Test support shipped beside the library: a harness, mocks, fakes, a `testing` module, a dummy
# server the tests run against (`dummyserver/`, as the file names' `dummy` already said).
TEST_SUPPORT_DIR = re.compile(r"(?:^|/)(?:[\w.-]*(?:mock|fake|stub|fixture|testing|testutil|testkit|conftest)[\w.-]*|dummy[-_]?servers?|(?:[\w.]+[-_.])?testers?)(?:/|$)", re.I)
TEST_SUPPORT_NAME = re.compile(r"(?:^|[_.-])(?:mock|fake|stub|dummy|testing|fixture|tester|test[_-]?(?:helper|util))s?(?:[_.-]|$)", re.I)


# The files of the index a request reads whose own head says they are platform variants
# (`FileFacts.platform_variant`: Go's `//go:build darwin || freebsd`), set for the request's
# duration by `variants_of`: the path prior is asked of paths in every stage of a request.
_VARIANT_FILES: ContextVar[frozenset[str]] = ContextVar("codegraph_variant_files", default=frozenset())


@contextmanager
def variants_of(files: frozenset[str]) -> Iterator[None]:
    """`path_prior` counts `files` (root-relative paths) as platform variants inside this block."""
    token = _VARIANT_FILES.set(files)
    try:
        yield
    finally:
        _VARIANT_FILES.reset(token)


def path_prior(path: str) -> float:
    """1.0 for the project's main code, less for platform variants (by name, or by what the file's
    head says), test support, examples, docs, benchmarks and declaration copies."""
    prior = _path_prior(path)
    return 0.6 if prior == 1.0 and path in _VARIANT_FILES.get() else prior


@lru_cache(maxsize=65536)
def _path_prior(path: str) -> float:
    if _SECONDARY_FILE.search(path):
        return 0.3
    if _SECONDARY_DIR.search(path) or is_side_module(path) or TEST_SUPPORT_DIR.search(path) or TEST_SUPPORT_NAME.search(path.rsplit("/", 1)[-1]):
        return 0.35
    if _PLATFORM_VARIANT.search(path):
        return 0.6
    return 1.0


def prefer_main(units: list[Unit]) -> list[Unit]:
    """Among same-named definitions, those on the main path when any is (a `.d.ts` or an
    example's copy of a name never competes with the implementation)."""
    best = max((path_prior(u.path) for u in units), default=1.0)
    return [u for u in units if path_prior(u.path) >= best]

