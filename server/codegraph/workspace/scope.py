"""Which files of a workspace folder are in scope, and why each other file is not.

Discovery is an explicit stack walk (no recursion limit on deep trees). Every file that is
seen and left out keeps a reason a person can read.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..languages import spec_for_path
from .ignore import IgnoreProblem, IgnoreRules, matchable, parse_lines, read_ignore_file

# Hand-written cores reach a few megabytes (a single-file library of 1.2 MB, a compiler's type checker
# near 3 MB), and packages that ship only their build hold their code in 1-2 MB modules; minified and
# generated files are told by their content, not their size.
DEFAULT_MAX_FILE_BYTES = 4_000_000
MAX_FILE_BYTES_BOUNDS = (1_000, 100_000_000)  # what `maxFileBytes` / --max-file-bytes takes (the LSP's initializationOptions the same)
MAX_FILES = 200_000  # a runaway walk stops here and says so

# Directories that are never source of the project itself.
EXCLUDED_DIRS = {
    ".git": "VCS directory", ".hg": "VCS directory", ".svn": "VCS directory", ".bzr": "VCS directory",
    "node_modules": "dependencies (node_modules)", "bower_components": "dependencies",
    ".venv": "virtualenv", "venv": "virtualenv", ".tox": "virtualenv", ".nox": "virtualenv", "site-packages": "dependencies",
    "__pycache__": "build output", ".mypy_cache": "tool cache", ".pytest_cache": "tool cache", ".ruff_cache": "tool cache",
    "build": "build output", "dist": "build output", "out": "build output", "target": "build output",
    ".next": "build output", ".nuxt": "build output", "coverage": "build output", ".gradle": "build output",
    "vendor": "vendored code", "_vendor": "vendored code", "vendored": "vendored code",
    "third_party": "vendored code", "third-party": "vendored code", "external": "vendored code",
    ".idea": "editor settings", ".vscode-test": "editor test download", ".eggs": "build output",
}
# A package that ships only its build (an npm package's `dist/`, `build/` or `out/`): when the walk
# finds no file in scope outside them — or at most this many, and the root's package.json publishes
# from them — it takes those directories as the code. Type declarations outside (`types/*.d.ts`)
# describe the build; they are not counted (vite: 14 of them beside `bin/`, its code all in `dist/`).
SHIPPED_BUILD_DIRS = frozenset({"dist", "build", "out"})
ONLY_BUILT_FILES = 3
# ...or more of them, when they are thin doors into the build: the package.json's entries, or the
# files they name, import from a build directory, and all of them together are under a quarter of
# the build's code (yargs: `index.cjs` requiring `./build/index.cjs`, a few platform shims). Source
# beside its build (a TypeScript `src/` compiled to `dist/`) is as large as the build: it stays the code.
SHIM_FILES, SHIM_SHARE = 16, 0.25
# What a JavaScript build writes, and TypeScript source and declarations (graph/copies.py reads them too)
BUILT_JS = (".js", ".mjs", ".cjs")
TS_SOURCE, TS_DECLARATION = (".ts", ".tsx", ".mts", ".cts"), (".d.ts", ".d.mts", ".d.cts")
_INTO_BUILD = re.compile(rb"""(?:require\(|from\s|import\(?)\s*['"]\.{1,2}/(?:dist|build|out)/""")
# Below a JVM source root (`src/<source set>/kotlin/…`) every directory is a package: `acme/ui/target`
# holds the library's `Target` types, not a build's output.
_JVM_SOURCE_ROOT = re.compile(r"(?:^|/)src/[\w.-]+/(?:java|kotlin|scala|groovy)/")
_PACKAGE_NAMED_LIKE_OUTPUT = {"build", "dist", "out", "target", "coverage"}
# Dependencies checked out into a project (git submodules, a vendoring script) sit in a top-level
# `external/`; deeper down the word names what the code talks to (nest's `interfaces/external/`).
_VENDORED_AT_ROOT_ONLY = {"external"}


MINIFIED_LINE = 500


def _long_line_share(raw: bytes) -> float:
    """The share of a file's bytes in lines longer than MINIFIED_LINE."""
    if len(raw) <= MINIFIED_LINE:
        return 0.0
    return sum(len(line) for line in raw.split(b"\n") if len(line) > MINIFIED_LINE) / len(raw)


def _package_named_like_output(rel_dir: str) -> bool:
    """A package below a JVM source root named like a build's output (`…/src/main/java/acme/aop/target`)."""
    name = rel_dir.rsplit("/", 1)[-1]
    return name in _PACKAGE_NAMED_LIKE_OUTPUT and _JVM_SOURCE_ROOT.search(rel_dir[: -len(name)]) is not None


def _unmatchable_packages(text: str) -> str:
    """`text` (a path as ignore rules read it) with each package named like a build's output below a
    JVM source root marked so that no rule names it: no build writes into a source package, so a
    `.gitignore`'s `target/` or `out` meant for the build's output does not hide `acme.aop.target`.
    The mark keeps every other rule's reading (`*.java`, `**/aop/**`); each component's length
    changes alike in any prefix, so a prefix's marked form is a prefix of the whole's."""
    parts = text.split("/")
    if len(parts) < 5 or _PACKAGE_NAMED_LIKE_OUTPUT.isdisjoint(parts):
        return text
    return "/".join(p + "\x00" if p in _PACKAGE_NAMED_LIKE_OUTPUT and _package_named_like_output("/".join(parts[: i + 1])) else p
                    for i, p in enumerate(parts))


def _excluded_dir(rel_dir: str) -> str | None:
    """Why the directory at `rel_dir` (relative, "/"-separated) is never the project's source, or None."""
    name = rel_dir.rsplit("/", 1)[-1]
    reason = EXCLUDED_DIRS.get(name)
    if reason and _package_named_like_output(rel_dir):
        return None
    if name in _VENDORED_AT_ROOT_ONLY and "/" in rel_dir:
        return None  # `src/interfaces/external/`: the project's own code about something external
    return reason


# `cargo vendor` writes this file into every crate it copies into a project (`vendor/`, or any
# directory `.cargo/config.toml` names): the crate is a dependency's code, not the project's.
CARGO_CHECKSUM = ".cargo-checksum.json"
VENDORED_CRATE_REASON = "vendored code (a crate cargo vendor copied)"
# Sphinx's HTML builder writes `.buildinfo` and `searchindex.js` into the root of every site it
# builds (`docs/_build/html/`, or wherever `sphinx-build` was pointed), with its theme's scripts in
# `_static/`: a built site shipped in a source distribution is the documentation's output, not code.
BUILT_DOCS_MARKS = (".buildinfo", "searchindex.js")
BUILT_DOCS_REASON = "build output (a site Sphinx built)"
LOCKFILES = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "Cargo.lock", "go.sum", "uv.lock", "Pipfile.lock", "composer.lock", "Gemfile.lock"}
GENERATED_NAME = re.compile(
    r"(\.min\.(js|mjs|cjs|css)$|\.bundle\.js$|\.(umd|iife|global)\.[cm]?js$|_pb2(_grpc)?\.pyi?$|\.pb\.go$|\.pb\.gw\.go$|"
    r"\.generated\.\w+$|\.g\.dart$|\.d\.ts\.map$|\.js\.map$)"
)
# A package built for both module systems ships each module twice: `parse.js` beside `parse.mjs`
# (or `index.js` beside `index.cjs`, `index.mjs` beside `index.cjs`); the copy in the other format
# says nothing the first does not.
MODULE_FORMAT_COPY = re.compile(r"\.[cm]js$")
# a build's second format named by an infix: `index.esm.js`, `index.cjs.js`, `index.modern.mjs` beside
# `index.js`, and with no plain `index.js` the CommonJS one beside the ES module one (`pkg.cjs.js`
# beside `pkg.esm.js`, `pkg.development.cjs.js` beside `pkg.development.esm.js`)
MODULE_FORMAT_INFIX = re.compile(r"\.(esm|cjs|modern|es)\.[cm]?js$")
# ...and each build's declarations with it: `parse.d.cts` (or `parse.d.mts`) beside `parse.d.ts`,
# `parse.d.cts` beside `parse.d.mts`
MODULE_FORMAT_DECLARATION = re.compile(r"\.d\.[cm]ts$")
MODULE_FORMAT_REASON = "module-format copy (the same module's .js, or its .mjs, is indexed)"
DECLARATION_FORMAT_REASON = "module-format copy (the same module's .d.ts, or its .d.mts, is indexed)"
# A compiler or bundler writes `x.js.map` beside the `x.js` it emits (Source Map v3); the map's
# `sources` name the files it was compiled from. When every one of them is in the workspace (a
# TypeScript `src/` shipped beside its `lib/commonjs/` and `lib/module/` builds), the built file
# repeats code that is indexed. A map whose sources are absent (only the build is shipped) keeps it.
SOURCE_MAP_MAX_BYTES = 10_000_000
COMPILED_COPY_REASON = "compiled copy (its source map's sources are indexed)"
# a mark written as a value (this module's own pattern below, assigned to a name) marks nothing
_ASSIGNMENT = re.compile(rb"\s*[a-z_][\w.]*\s*(?::[^=\n]*)?=[^=]")
GENERATED_MARK = re.compile(
    rb"@generated|Code generated .* DO NOT EDIT|auto-generated|autogenerated by|This file is generated|"
    # testify's `require`, protoc's Java; `DO NOT MODIFY`: Android's `R.java`, binding generators
    rb"generated automatically|automatically generated|\bDO NOT (?:EDIT|MODIFY)\b|must not be edited|"
    # a version file a build tool writes (setuptools_scm's `# file generated by setuptools_scm`,
    # versioneer's `# This file was generated by 'versioneer.py'`): only as a comment's opening
    # words, since "the lock file generated by pip-compile" in a docstring describes another file
    rb"^\s*(?:#+|//+|/?\*+)\s*(?:this\s+)?file\s+(?:was\s+|is\s+)?(?:auto-?)?generated\s+by\b",
    re.IGNORECASE,
)

# Java's mark of generated source (JSR 250's `@Generated`, `javax.annotation.processing.Generated`):
# code generators (gRPC's stubs, OpenAPI's models) annotate the type they write instead of writing a
# comment. Read on the lowercased opening, before the file's first type declaration: an annotation of
# a member further down marks that member only.
_JVM_GENERATED = re.compile(rb"^[ \t]*@(?:(?:javax|jakarta)\.annotation\.(?:processing\.)?)?generated\b", re.M)
_JVM_TYPE_START = re.compile(
    rb"^[ \t]*(?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp|data|open|internal|enum|annotation)\s+)*"
    rb"(?:class|interface|enum|record|object|@interface)\b", re.M)
JVM_SOURCE = (".java", ".kt")

# Go's constraint that keeps a file out of every build: a program run by hand (`go run gen.go`), in
# no package of its directory. Only before the package clause (the leading comments) is it one.
_GO_BUILD_IGNORE = re.compile(rb"\s*//(?:go:build|\s*\+build)\s+ignore\s*$")
# ...and the go-fuzz convention's: a file built only under the `gofuzz` tag is a fuzzing harness
# (`func FuzzParse(data []byte) int`), built by the fuzzing tool and by no build of the package.
_GO_BUILD_GOFUZZ = re.compile(rb"\s*//(?:go:build|\s*\+build)\s+gofuzz(?:\s*(?:&&|,)[^|\n]*)?\s*$")
# A library definition the flow-typed tool installs for a dependency (`flow-typed/npm/chai_v4.x.x.js`,
# `declare module "chai" {…}`) opens with its signature line: a dependency's types, not the project's code.
_FLOW_TYPED = re.compile(rb"\s*//\s*flow-typed signature:")
FLOW_TYPED_REASON = "vendored code (a library definition flow-typed installed)"

# Files that carry credentials: never indexed, never in any output.
SECRET_NAME = re.compile(
    r"^(\.env(\..*)?|.*\.(pem|key|p12|pfx|jks|keystore|ppk|asc|gpg|kdbx)|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|"
    r"\.netrc|_netrc|\.npmrc|\.pypirc|\.pgpass|\.htpasswd|\.git-credentials|credentials(\.json|\.ya?ml|\.xml)?|"
    r"secrets?\.(json|ya?ml|toml|env)|.*\.tfvars|service[-_]account.*\.json)$",
    re.IGNORECASE,
)
SECRET_DIRS = {".ssh", ".aws", ".gnupg", ".azure", ".kube", ".docker"}

TEST_PATH = re.compile(
    # (a package's private test folders too: `_tests/`, `_testing/`)
    r"(^|/)(_?tests?|__tests__|_?testing|spec|specs|e2e|fixtures?|__fixtures__|testdata|__mocks__)/|"
    # a test-suite module, also one per area (`testsuite/`, `testsuite-http2/`, `test_suites/`)
    r"(^|/)test[-_]?suites?([-_][\w.-]+)?/|(^|/)test_[^/]*\.py$|_test\.(py|go)$|"
    # test support kept outside test folders: `internal/testutil/`, `test-helpers/`, a module
    # `okio-testing-support/`, Gradle's `src/testFixtures/`
    r"(^|/)([\w.]+[-_])?test(ing)?[-_]?(helpers?|utils?|support|kit|harness|fixtures)/|(^|/)src/testFixtures/|"
    # `x.test.mjs`, `x.spec.cts`; tsd's type tests (`index.test-d.ts`, a `test-d/` folder)
    r"\.(test|spec|test-d)\.[cm]?[jt]sx?$|(^|/)test-d/|(^|/)src/test/|(^|/)src/[a-z]\w*Test/|Tests?\.(java|kt)$|(^|/)conftest\.py$|"
    r"(^|/)tests?\.rs$|(^|/)tests\.py$|"  # Rust's `#[cfg(test)] mod tests;` file, Django's app tests
    # a library's pytest plugin, loaded only by pytest for its users' tests: `pytest_plugin.py`,
    # `_pkg_pytestplugin.py`, `contrib/pytest.py`
    r"(^|/)\w*pytest_?plugin\.py$|(^|/)pytest\.py$|"
    # a build's test module named by its suffix, its harness in its main source set (`<lib>-tests/src/main/`,
    # an integration-test module `<lib>-it/src/`), and the Maven invoker plugin's `src/it/` projects
    r"(^|/)[\w.-]+[-_]tests/src/|(^|/)[\w.-]+-it/src/|(^|/)src/it/[^\n]*\.(java|kt|groovy|scala)$"
)

# Modules and source sets of benchmarks and examples shipped beside the library, named by a build
# plugin's convention (a JVM source set `src/jmh/java/`) or by the library's name and the word (`<lib>-examples/`,
# `<lib>-samples/`, `<lib>-jmh/`, `<lib>-perf/`, `microbench/`): material about the code, like
# `examples/` and `benchmarks/`. A bare `perf/` is not one (a package about perf events).
SIDE_MODULE = re.compile(
    r"(^|/)(?:[\w.-]+-)?(?:jmh|microbench(?:marks?)?|perf-?tests?|benchmarks?|bench|examples?|samples?|demos?)/|"
    r"(^|/)[\w.-]+-perf/|(^|/)src/(?:jmh|perf\w*|bench\w*|microbench\w*)/(?:java|kotlin|scala|groovy)/",
    re.IGNORECASE,
)


def file_kind(name: str) -> str:
    """How a file of another language is counted: its extension (".c"), or its name ("Makefile")."""
    stem, dot, ext = name.rpartition(".")
    return f".{ext.lower()}" if dot and stem else name


@lru_cache(maxsize=65536)  # asked for every ranked unit of every question: paths repeat
def is_test_path(path: str) -> bool:
    return bool(TEST_PATH.search(path))


@lru_cache(maxsize=65536)
def is_side_module(path: str) -> bool:
    """A file of a benchmark or example module or source set (`SIDE_MODULE`)."""
    return bool(SIDE_MODULE.search(path))


# Platform variants of code that exists for every platform: Go's build-tagged files (a file name's
# `_GOOS`, `_GOARCH` or `_GOOS_GOARCH` suffix is a build constraint to the go tool; `_mips64x` is the
# standard library's spelling for both byte orders), Kotlin Multiplatform source sets other than the
# common one and the JVM's: Kotlin's own platform (`jvmMain`, and Android's, which runs JVM code)
# holds the `actual` implementations most users run, the reference the other platforms vary from
# (and the source sets they share with it: `zlibMain`, `jvmCommonMain`, `nonJsCommonMain`).
PLATFORM_VARIANT = re.compile(
    r"_(windows|win|darwin|linux|freebsd|openbsd|netbsd|solaris|plan9|wasm|js|unix|posix|nt)(_\w+)?\.(go|rs|py)$|"
    r"_(aix|android|dragonfly|hurd|illumos|ios|wasip1|zos)(_\w+)?\.go$|"
    r"_(386|amd64|amd64p32|arm|armbe|arm64|arm64be|loong64|mips|mipsle|mips64|mips64le|mips64p32|mips64p32le|mipsx|mips64x|"
    r"ppc|ppc64|ppc64le|ppc64x|riscv|riscv64|s390|s390x|sparc|sparc64)\.go$|"
    r"(^|/)(?:ios|tvos|watchos|macos|linux|mingw|apple|native|unix|posix|js|wasm|desktop|nonAndroid|nonJvm|nonApple)\w*Main/"
)


def is_platform_variant(path: str) -> bool:
    """A file of one platform's variant of code that exists for every platform (`PLATFORM_VARIANT`)."""
    return bool(PLATFORM_VARIANT.search(path))


def is_secret_path(path: str) -> bool:
    parts = [p for p in path.split("/") if p and p != "."]
    return bool(parts) and (SECRET_NAME.match(parts[-1]) is not None or any(p in SECRET_DIRS for p in parts[:-1]))


_COMMENT_STARTS = (b"//", b"#", b"/*", b"*", b"--", b"<!--")


def _leading_comments(header: bytes) -> list[bytes]:
    """The lines of a file's opening comments (blank lines, line comments, block comments,
    a module docstring), up to its first line of code: a generator marks the file there, while
    the same words further down describe one item (`/// an auto-generated help writer`)."""
    out: list[bytes] = []
    closer = b""
    for line in header.splitlines():
        s = line.strip()
        if closer:  # inside a block comment or a docstring
            out.append(line)
            if closer in s:
                closer = b""
            continue
        if not s:
            continue
        for opener, end in ((b"/*", b"*/"), (b'"""', b'"""'), (b"'''", b"'''")):
            if s.startswith(opener):
                out.append(line)
                closer = b"" if end in s[len(opener):] else end
                break
        else:
            if not s.startswith(_COMMENT_STARTS):
                break
            out.append(line)
    return out


def oversize_reason(max_file_bytes: int) -> str:
    """Why a file too large is skipped: the limit only, so every such file has the one reason
    (the file's size is its own, shown where the paths are listed)."""
    return f"larger than maxFileBytes ({max_file_bytes:,})"


@dataclass(frozen=True)
class ScopeConfig:
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    languages: frozenset[str] | None = None


@dataclass
class ScanResult:
    files: dict[str, str] = field(default_factory=dict)  # rel path → language
    skipped: dict[str, str] = field(default_factory=dict)  # rel path → reason
    # files of languages codegraph does not read, by kind (".c", "Makefile"): counted, not listed
    unsupported: dict[str, int] = field(default_factory=dict)
    # every directory walked and regular file met → (mtime_ns, size): while none of them changes,
    # the walk would find the same (the disk watch's quick look, index/disk.py)
    seen: dict[str, tuple[int, int]] = field(default_factory=dict)


class Scope:
    """Decides membership for one root; also answers for single paths (edits, evidence)."""

    def __init__(self, root: Path, config: ScopeConfig) -> None:
        self.root = root.resolve()
        self.config = config
        self._configured, bad = parse_lines(config.exclude) if config.exclude else (None, [])
        # configuration lines that were skipped, reported with the walk's skipped paths
        self._exclude_problems = {f"(configured exclude #{p.line})": p.reason for p in bad}
        self.problems: dict[str, str] = dict(self._exclude_problems)
        self._ignores: dict[str, IgnoreRules | None] = {}  # dir rel path ("" = root) → its .gitignore
        self._chains: dict[str, tuple[tuple[str, IgnoreRules], ...]] = {}
        # build directories the last walk took as the code: the project ships nothing else
        self.admitted: frozenset[str] = frozenset()
        self._vendored: dict[str, str] = {}  # dir rel path → why a tool's mark in it excludes it ("" none)
        self._dirs: dict[str, list[str]] = {}  # dir rel path → its subdirectories (a bare source map's search)
        self._published_from: tuple[tuple[int, int], frozenset[str]] | None = None  # package.json's (mtime, size), its targets

    # ---- single-path decisions -------------------------------------------------
    def relpath(self, abspath: Path | str) -> str | None:
        """Root-relative POSIX path, or None when the path is outside the root."""
        try:
            rel = Path(os.path.abspath(abspath)).relative_to(self.root)
        except ValueError:
            return None
        return rel.as_posix()

    def forget_ignore_rules(self) -> None:
        """Drops the memoised .gitignore rules (one changed): the next decisions read them again."""
        self._ignores.clear()
        self._chains.clear()
        self.problems = dict(self._exclude_problems)

    def _load_ignore(self, rel_dir: str) -> None:
        if rel_dir in self._ignores:
            return
        rel = f"{rel_dir}/.gitignore" if rel_dir else ".gitignore"
        spec, problems = read_ignore_file(os.path.join(self.root, rel))
        self._report(rel, problems)
        self._ignores[rel_dir] = spec

    def _report(self, rel: str, problems: list[IgnoreProblem]) -> None:
        whole = "; ".join(p.reason for p in problems if not p.line)
        if whole:
            self.problems[rel] = whole
        for p in problems:
            if p.line:
                self.problems[f"{rel}:{p.line}"] = p.reason

    def _chain_of(self, rel_dir: str) -> tuple[tuple[str, IgnoreRules], ...]:
        """The .gitignore specs of rel_dir and its ancestors, root first; memoised per directory so a
        2,000-level tree costs O(depth) per path, not O(depth²) joins."""
        missing = []
        cur = rel_dir
        while cur not in self._chains:
            missing.append(cur)
            if not cur:
                break
            cur = cur.rpartition("/")[0]
        for d in reversed(missing):
            parent = self._chains.get(d.rpartition("/")[0], ()) if d else ()
            self._load_ignore(d)
            spec = self._ignores.get(d)
            self._chains[d] = parent + ((d, spec),) if spec is not None else parent
        return self._chains[rel_dir]

    def _ignored(self, rel: str, is_dir: bool) -> str | None:
        text = matchable(rel)  # the patterns saw the same mapping of undecodable bytes (same length)
        if self._configured is not None and self._configured.decide(text, is_dir):
            return "excluded by configuration"
        text = _unmatchable_packages(text)
        # as git: the deepest ignore file with a matching rule decides (its last matching rule)
        for base, rules in reversed(self._chain_of(rel.rpartition("/")[0])):
            decided = rules.decide(text[len(_unmatchable_packages(matchable(base))) + 1 :] if base else text, is_dir)
            if decided is not None:
                return ".gitignore" if decided else None
        return None

    def _excluded_dir_here(self, rel_dir: str) -> str | None:
        """`_excluded_dir`, except for the build directories the last walk took as the code, and a
        Python package named like a build's output: a directory holding an `__init__.py` is a
        package someone imports (`pkg/operations/build/`, a project whose import name is `build`
        or `coverage`); what a build writes (`build/lib/pkg/`) is no package itself."""
        if rel_dir in self.admitted:
            return None
        reason = _excluded_dir(rel_dir)
        if reason and rel_dir.rsplit("/", 1)[-1] in _PACKAGE_NAMED_LIKE_OUTPUT and os.path.isfile(self.root / rel_dir / "__init__.py"):
            return None
        return reason

    def dir_reason(self, rel: str) -> str | None:
        name = rel.rsplit("/", 1)[-1]
        excluded = self._excluded_dir_here(rel)
        if excluded:
            return excluded
        if name in SECRET_DIRS:
            return "secret-bearing directory"
        if name.endswith(".egg-info"):
            return "build output"
        marked = self._marked_dir(rel)
        if marked:
            return marked
        return self._ignored(rel, True)

    def _marked_dir(self, rel_dir: str) -> str | None:
        """Why `rel_dir` (below the root) is no code of the project by a file a tool writes into it,
        or None: a crate `cargo vendor` copied (it writes a `.cargo-checksum.json` into each; orjson's
        sdist ships 36 of them below `include/cargo/`), a site Sphinx built (`.buildinfo` or
        `searchindex.js` beside its `_static/`)."""
        known = self._vendored.get(rel_dir)
        if known is None:
            known = ""
            if rel_dir:
                here = self.root / rel_dir
                if os.path.isfile(here / CARGO_CHECKSUM):
                    known = VENDORED_CRATE_REASON
                elif any(os.path.isfile(here / mark) for mark in BUILT_DOCS_MARKS) and os.path.isdir(here / "_static"):
                    known = BUILT_DOCS_REASON
            self._vendored[rel_dir] = known
        return known or None

    def file_reason(self, rel: str, size: int | None = None) -> str | None:
        """Why a file is out of scope by its name and size alone (None = in scope so far), or for a
        module-format copy, by the other format of its module beside it."""
        name = rel.rsplit("/", 1)[-1]
        if is_secret_path(rel):
            return "secret-bearing file"
        parts = rel.split("/")[:-1]
        if any(part in SECRET_DIRS for part in parts) or any(
            part in EXCLUDED_DIRS and self._excluded_dir_here("/".join(parts[: i + 1])) for i, part in enumerate(parts)
        ) or any(self._marked_dir("/".join(parts[: i + 1])) for i in range(len(parts))):
            return "inside an excluded directory"
        if spec_for_path(rel, self.config.languages) is None:
            return "unsupported language"
        if name in LOCKFILES:
            return "lockfile"
        if GENERATED_NAME.search(name):
            return "generated or minified"
        infix = MODULE_FORMAT_INFIX.search(name)
        if infix and (os.path.isfile(self.root / (rel[: infix.start() - len(name)] + ".js")) or (
                infix.group(1) == "cjs" and os.path.isfile(self.root / (rel[: infix.start() - len(name)] + ".esm.js")))):
            return MODULE_FORMAT_REASON
        if MODULE_FORMAT_COPY.search(name) and (
            os.path.isfile(self.root / (rel[:-4] + ".js")) or (rel.endswith(".cjs") and os.path.isfile(self.root / (rel[:-4] + ".mjs")))
        ):
            return MODULE_FORMAT_REASON
        if MODULE_FORMAT_DECLARATION.search(name) and (
            os.path.isfile(self.root / (rel[:-6] + ".d.ts")) or (rel.endswith(".d.cts") and os.path.isfile(self.root / (rel[:-6] + ".d.mts")))
        ):
            return DECLARATION_FORMAT_REASON
        ignored = self._ignored(rel, False)
        if ignored:
            return ignored
        if size is not None and size > self.config.max_file_bytes:
            return oversize_reason(self.config.max_file_bytes)
        if name.endswith(BUILT_JS) and self._compiled_from_workspace(rel):
            return COMPILED_COPY_REASON
        return None

    def _compiled_from_workspace(self, rel: str) -> bool:
        """Whether `rel` has a source map beside it whose sources are all other files of the
        workspace in scope by their names (a source outside the root, or an unreadable map: no)."""
        map_path = self.root / (rel + ".map")
        try:
            if os.stat(map_path).st_size > SOURCE_MAP_MAX_BYTES:
                return False
            with open(map_path, "rb") as fh:
                source_map = json.loads(fh.read())
        except (OSError, ValueError):
            return False
        sources = source_map.get("sources") if isinstance(source_map, dict) else None
        root = source_map.get("sourceRoot") or "" if isinstance(source_map, dict) else ""
        if not isinstance(sources, list) or not sources or not isinstance(root, str):
            return False
        here = rel.rpartition("/")[0]
        contents = source_map.get("sourcesContent")
        for i, source in enumerate(sources):
            if not isinstance(source, str) or ":" in source or ":" in root:
                return False  # `webpack://…`, `file:///…`: not a path in this workspace
            src = os.path.normpath(os.path.join(here, root, source)).replace(os.sep, "/")
            if src == rel or src.startswith("../") or src == ".." or os.path.isabs(src):
                return False
            if not os.path.isfile(self.root / src) and not root and "/" not in source and isinstance(contents, list) and i < len(contents):
                src = self._bare_source(rel, source, contents[i]) or src
            if not os.path.isfile(self.root / src) or self._source_out_of_scope(src):
                return False
        return True

    def _bare_source(self, rel: str, name: str, content: object) -> str:
        """The workspace file a source map names by its bare file name (`"sources": ["hooks.tsx"]`, as
        react-native-builder-bob's Babel writes for `lib/module/components/hooks.js`): the file of that
        name under a sibling of one of the build's directories, at the built file's place below it or
        higher (`src/components/hooks.tsx`), whose text is the map's `sourcesContent`; "" when none."""
        if not isinstance(content, str):
            return ""
        parts = rel.split("/")[:-1]
        wanted = content.encode("utf-8", "surrogatepass")
        for depth in range(len(parts) - 1, -1, -1):  # the build's directories, nearest first
            parent, built, tail = parts[:depth], parts[depth], parts[depth + 1 :]
            for sibling in self._subdirs("/".join(parent)):
                if sibling == built:
                    continue
                for cut in range(len(tail) + 1):
                    src = "/".join([*parent, sibling, *tail[cut:], name])
                    try:
                        if (self.root / src).read_bytes() == wanted:
                            return src
                    except OSError:
                        continue
        return ""

    def _subdirs(self, rel_dir: str) -> list[str]:
        got = self._dirs.get(rel_dir)
        if got is None:
            try:
                got = sorted(e.name for e in os.scandir(self.root / rel_dir) if e.is_dir(follow_symlinks=False) and not e.name.startswith("."))
            except OSError:
                got = []
            self._dirs[rel_dir] = got
        return got

    def _source_out_of_scope(self, rel: str) -> bool:
        parts = rel.split("/")
        if any(self.dir_reason("/".join(parts[:depth])) for depth in range(1, len(parts))):
            return True
        name = parts[-1]
        return spec_for_path(rel, self.config.languages) is None or bool(GENERATED_NAME.search(name)) or self._ignored(rel, False) is not None

    def language_of(self, rel: str) -> str | None:
        spec = spec_for_path(rel, self.config.languages)
        return spec.name if spec else None

    def content_reason(self, raw: bytes, rel: str = "") -> str | None:
        """Why a file is out of scope by its content (None = in scope); `rel`, its path, tells a
        JavaScript file, which a build may minify however small."""
        head = raw[:8192]
        if b"\x00" in head:
            return "binary"
        # every mark contains "generated": the substring test spares most files the case-insensitive
        # regex, which costs more than the rest of reading the file
        header = raw[:2048].lower()
        if b"generated" in header and any(
            GENERATED_MARK.search(line) and not _ASSIGNMENT.match(line) for line in _leading_comments(header)
        ) and not self._published(rel):
            return "generated (marked in header)"
        if rel.endswith(JVM_SOURCE) and b"generated" in (opening := raw[:8192].lower()):
            mark, start = _JVM_GENERATED.search(opening), _JVM_TYPE_START.search(opening)
            if mark is not None and (start is None or mark.start() < start.start()):
                return "generated (marked by a @Generated annotation)"
        if b"build ignore" in header and any(_GO_BUILD_IGNORE.match(line) for line in _leading_comments(header)):
            return "not built (Go's //go:build ignore)"
        if b"gofuzz" in header and any(_GO_BUILD_GOFUZZ.match(line) for line in _leading_comments(header)):
            return "fuzzing harness (Go's //go:build gofuzz)"
        if b"flow-typed signature" in header and any(_FLOW_TYPED.match(line) for line in _leading_comments(header)):
            return FLOW_TYPED_REASON
        if len(raw) > 20_000:
            newlines = raw.count(b"\n") + 1
            if len(raw) / newlines > 500:
                return "minified (average line over 500 chars)"
        elif rel.endswith(BUILT_JS) and _long_line_share(raw) > 0.5:
            # a small module minified under its license comment (lit-html ships `static.js`, 996 bytes
            # in nine lines, beside its readable `development/static.js`): hand-written code wraps
            return "minified (most of it in lines over 500 chars)"
        return None

    def check_abs(self, abspath: str) -> tuple[str | None, str | None]:
        """(rel path, reason) for a path named by a client; refuses anything leaving the root."""
        if "\x00" in str(abspath):  # the OS calls below would raise ValueError, not answer
            return None, "not a valid path (NUL byte)"
        rel = self.relpath(abspath)
        if rel is None or rel.startswith("..") or rel in ("", "."):
            return None, "outside the workspace"
        real = os.path.realpath(abspath)
        if self.relpath(real) is None:
            return rel, "symlink leaves the workspace"
        parts = rel.split("/")
        for depth in range(1, len(parts)):
            reason = self.dir_reason("/".join(parts[:depth]))
            if reason:
                return rel, reason
        return rel, self.file_reason(rel)

    # ---- the walk -----------------------------------------------------------------
    def scan(self) -> ScanResult:
        result = ScanResult()
        for rel, language in self.walk(result):
            result.files[rel] = language
        return result

    def walk(self, result: ScanResult) -> Iterator[tuple[str, str]]:
        """(path, language) of each file in scope as the walk meets it; what it skips, and why,
        goes to `result.skipped`, with the ignore-file lines it could not use. A full build reads
        (and parses) files while the walk goes on. Nothing a path holds can stop the walk: a
        failure deciding one path skips that path with the failure as its reason."""
        self.admitted = frozenset()  # decided afresh by every walk
        self._vendored.clear()
        self._dirs.clear()
        seen = 0
        try:
            st = os.stat(self.root)
            result.seen[""] = (st.st_mtime_ns, st.st_size)
        except OSError:
            pass
        outside: list[str] = []
        code = 0  # the files outside that are code: a declaration (`types/*.d.ts`) only describes the build's
        for rel, language in self._walk_from([""], result):
            seen += 1
            if not rel.endswith(TS_DECLARATION):
                code += 1
                if len(outside) <= SHIM_FILES:
                    outside.append(rel)
            yield rel, language
        built = sorted(d[:-1] for d, reason in result.skipped.items()
                       if reason == "build output" and d.endswith("/") and d[:-1].rsplit("/", 1)[-1] in SHIPPED_BUILD_DIRS)
        if built and (code == 0 or code <= ONLY_BUILT_FILES and self._manifest_points_into(built)
                      or code <= SHIM_FILES and self._doors_into(built, outside)):
            # a package that ships only its build (an npm package's `dist/`): the build is the code
            self.admitted = frozenset(built)
            for d in built:
                del result.skipped[d + "/"]
                try:
                    st = os.stat(self.root / d)
                    result.seen[d] = (st.st_mtime_ns, st.st_size)
                except OSError:
                    pass
            yield from self._walk_from(built[::-1], result, seen)
        result.skipped.update(self.problems)

    def _published(self, rel: str) -> bool:
        """Whether the root's package.json publishes this file (its main, module or an export). Such a file is
        the package's code even when its banner says it was generated: a package that ships only its bundled
        build ("DO NOT EDIT … generated from files in ./src/", the source not shipped) had no code left but
        its command-line script."""
        if not rel:
            return False
        try:
            st = os.stat(self.root / "package.json")
        except OSError:
            return False
        key = (st.st_mtime_ns, st.st_size)
        if self._published_from is None or self._published_from[0] != key:
            self._published_from = (key, frozenset(self._manifest_targets()))
        return rel in self._published_from[1]

    def _manifest_points_into(self, dirs: list[str]) -> bool:
        """Whether the root's package.json publishes code from one of `dirs` (its main, module or
        an export): then a file or two beside them is a shim, not the package's source."""
        return any(t.startswith(d + "/") for t in self._manifest_targets() for d in dirs)

    def _doors_into(self, dirs: list[str], outside: list[str]) -> bool:
        """Whether the files found outside the build directories are doors into them: the package.json
        publishes from a build directory or from a file that imports from one, and those files hold
        under SHIM_SHARE of the bytes the build's code files hold."""
        if any(rel.endswith(TS_SOURCE) and not rel.endswith(TS_DECLARATION) for rel in outside):
            return False  # TypeScript beside a build is the source the build was compiled from, however small
        targets = self._manifest_targets()
        if not (any(t.startswith(d + "/") for t in targets for d in dirs)
                or any(t in outside and self._imports_from_build(t) for t in targets)):
            return False
        shim_bytes = sum(self._size(self.root / rel) for rel in outside)
        return shim_bytes < SHIM_SHARE * self._code_bytes(dirs, enough=shim_bytes / SHIM_SHARE)

    def _imports_from_build(self, rel: str) -> bool:
        try:
            with open(self.root / rel, "rb") as fh:
                return bool(_INTO_BUILD.search(fh.read(200_000)))
        except OSError:
            return False

    def _code_bytes(self, dirs: list[str], enough: float) -> int:
        """The bytes of the code files below `dirs` (declarations and bundles left out), counted until
        they pass `enough` or 20,000 entries were looked at: a build is read whole only when admitted."""
        total, budget = 0, 20_000
        for d in dirs:
            for top, subdirs, names in os.walk(self.root / d):
                subdirs[:] = [x for x in subdirs if x not in ("node_modules", ".git")]
                for name in names:
                    if (spec_for_path(name, self.config.languages) is not None and not GENERATED_NAME.search(name)
                            and not name.endswith(TS_DECLARATION)):
                        total += self._size(os.path.join(top, name))
                budget -= len(names)
                if budget <= 0 or total > enough:
                    return total
        return total

    @staticmethod
    def _size(path) -> int:
        try:
            return os.stat(path).st_size
        except OSError:
            return 0

    def _manifest_targets(self) -> list[str]:
        """The files the root's package.json publishes (main, module, every export), as written."""
        try:
            path = self.root / "package.json"
            if path.stat().st_size > 1_000_000:
                return []
            manifest = json.loads(path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError):
            return []
        if not isinstance(manifest, dict):
            return []
        targets: list[str] = []

        def collect(value: object, depth: int = 0) -> None:
            if isinstance(value, str):
                targets.append(value.removeprefix("./"))
            elif isinstance(value, (dict, list)) and depth < 4:  # conditions, and fallback lists
                for v in list(value.values() if isinstance(value, dict) else value)[:200]:
                    collect(v, depth + 1)

        for key in ("main", "module", "exports"):
            collect(manifest.get(key))
        return targets

    def _walk_from(self, stack: list[str], result: ScanResult, seen: int = 0) -> Iterator[tuple[str, str]]:
        while stack:
            rel_dir = stack.pop()
            try:
                entries = sorted(os.scandir(self.root / rel_dir), key=lambda e: e.name)
            except OSError as exc:
                result.skipped[rel_dir or "."] = f"unreadable directory ({exc.strerror or exc})"
                continue
            for entry in entries:
                rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
                try:
                    decided = self._decide(entry, rel, result)
                except Exception as exc:  # noqa: BLE001 - one path's failure is that path's reason
                    result.skipped[rel] = f"scope decision failed ({type(exc).__name__}: {ascii(str(exc)[:80])})"
                    continue
                if decided == "dir":
                    stack.append(rel)
                elif decided is not None:
                    seen += 1
                    if seen > MAX_FILES:
                        result.skipped[rel] = f"file limit reached ({MAX_FILES} files)"
                        continue
                    yield rel, decided

    def _decide(self, entry: os.DirEntry, rel: str, result: ScanResult) -> str | None:
        """"dir" to descend, a language for a file in scope, None when skipped (recorded in `result`)."""
        try:
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if self.relpath(real) is None:
                    result.skipped[rel] = "symlink leaves the workspace"
                    return None
                if os.path.isdir(real):
                    result.skipped[rel] = "symlinked directory (not followed)"
                    return None
            st = entry.stat(follow_symlinks=True)
        except OSError as exc:
            result.skipped[rel] = f"unreadable ({exc.strerror or exc})"
            return None
        if stat.S_ISDIR(st.st_mode):
            reason = self.dir_reason(rel)
            if reason is None:
                result.seen[rel] = (st.st_mtime_ns, st.st_size)
                return "dir"
            if reason != "VCS directory":
                result.skipped[rel + "/"] = reason
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        result.seen[rel] = (st.st_mtime_ns, st.st_size)
        reason = self.file_reason(rel, st.st_size)
        if reason is None:
            spec = spec_for_path(rel, self.config.languages)
            return spec.name if spec else ""
        if reason == "unsupported language":
            kind = file_kind(entry.name)
            result.unsupported[kind] = result.unsupported.get(kind, 0) + 1
        else:
            result.skipped[rel] = reason
        return None
