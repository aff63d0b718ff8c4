"""Go build constraints read from a file's head (`//go:build linux || darwin`, `// +build !windows,amd64`).

A file that a default build leaves out on one of the common platforms is a platform variant, as a
file named `_linux.go` is: the go tool reads that file name as the constraint `linux`, and a file
whose constraint says the same (`//go:build linux`, `//go:build darwin || freebsd`, `//go:build !windows`)
or asks for a tag a build must set (`//go:build appengine`, `//go:build purego`, `//go:build race`) is
one implementation among its siblings, not the code every build runs. A constraint on the Go
release only (`//go:build go1.18`), or one every common platform meets (`//go:build !appengine`,
`//go:build !js`), leaves the file main code.
"""

from __future__ import annotations

import re

# The operating systems and architectures the go tool knows: their names are tags true on their
# own platform only (`unix` on every Unix-like one).
_UNIX = frozenset("aix android darwin dragonfly freebsd hurd illumos ios linux netbsd openbsd solaris".split())
# The common platforms a default build targets: a file built on each of them is main code.
_PLATFORMS = (("linux", "amd64"), ("darwin", "arm64"), ("windows", "amd64"))
# Tags a default build sets on every platform: the compiler, cgo (on natively), a Go release.
_DEFAULT_TAGS = frozenset({"gc", "cgo"})
_RELEASE = re.compile(r"go1\.\d+$")

_GO_BUILD = re.compile(r"//go:build\s+(.+)$")
_PLUS_BUILD = re.compile(r"//\s*\+build\s+(.+)$")
_TOKEN = re.compile(r"\s*(&&|\|\||!|\(|\)|[\w.]+)")


def _tags(goos: str, goarch: str) -> frozenset[str]:
    return _DEFAULT_TAGS | {goos, goarch} | ({"unix"} if goos in _UNIX else set())


def _eval_go_build(expr: str, tags: frozenset[str]) -> bool | None:
    """The `//go:build` expression's value with `tags` set (and every Go release), None when it
    does not parse."""
    tokens: list[str] = []
    pos = 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None:
            return None
        tokens.append(m.group(1))
        pos = m.end()
    at = 0

    def peek() -> str:
        return tokens[at] if at < len(tokens) else ""

    def unary() -> bool:
        nonlocal at
        tok = peek()
        at += 1
        if tok == "!":
            return not unary()
        if tok == "(":
            value = either()
            if peek() != ")":
                raise ValueError(expr)
            at += 1
            return value
        if not tok or tok in ("&&", "||", ")"):
            raise ValueError(expr)
        return tok in tags or _RELEASE.match(tok) is not None

    def both() -> bool:
        nonlocal at
        value = unary()
        while peek() == "&&":
            at += 1
            value = unary() and value
        return value

    def either() -> bool:
        nonlocal at
        value = both()
        while peek() == "||":
            at += 1
            value = both() or value
        return value

    try:
        value = either()
    except ValueError:
        return None
    return value if at == len(tokens) else None


def _eval_plus_build(lines: list[str], tags: frozenset[str]) -> bool:
    """`// +build` lines: each a space-separated OR of comma-separated ANDs of (negated) tags; lines AND."""
    def term(t: str) -> bool:
        neg = t.startswith("!")
        t = t.lstrip("!")
        return (t in tags or _RELEASE.match(t) is not None) != neg

    return all(any(all(term(t) for t in option.split(",") if t) for option in line.split()) for line in lines)


def constraint(source: bytes) -> tuple[str, list[str]]:
    """The file's `//go:build` expression ("" when none) and its `// +build` lines, from the
    comments before the package clause."""
    go_build = ""
    plus: list[str] = []
    in_block = False
    for raw in source[:8192].splitlines():
        line = raw.decode("utf-8", "replace").strip()
        if in_block:  # a license in a block comment may open the file
            in_block = "*/" not in line
            continue
        if not line:
            continue
        if line.startswith("/*"):
            in_block = "*/" not in line[2:]
            continue
        if not line.startswith("//"):
            break  # the package clause: a constraint comes before it
        if (m := _GO_BUILD.match(line)) is not None:
            go_build = m.group(1).strip()
        elif (m := _PLUS_BUILD.match(line)) is not None:
            plus.append(m.group(1).strip())
    return go_build, plus


def platform_variant(source: bytes) -> bool:
    """True for a file whose build constraint leaves it out of a default build on a common platform."""
    if b"build" not in source[:8192]:
        return False
    go_build, plus = constraint(source)
    if not go_build and not plus:
        return False
    for goos, goarch in _PLATFORMS:
        tags = _tags(goos, goarch)
        value = _eval_go_build(go_build, tags) if go_build else _eval_plus_build(plus, tags)
        if value is False:
            return True
    return False


# A file name's `_GOOS`, `_GOARCH` or `_GOOS_GOARCH` suffix, a constraint to the go tool as its
# `//go:build` line is (`_test` ahead of `.go` set aside).
_KNOWN_OS = _UNIX | frozenset("js plan9 wasip1 windows zos".split())
_KNOWN_ARCH = frozenset(
    "386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le "
    "ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm".split())


def _name_allows(path: str, goos: str, goarch: str) -> bool:
    stem = path.rpartition("/")[2].removesuffix(".go").removesuffix("_test")
    parts = stem.split("_")
    if len(parts) >= 3 and parts[-2] in _KNOWN_OS and parts[-1] in _KNOWN_ARCH:
        return parts[-2] == goos and parts[-1] == goarch
    if len(parts) >= 2 and parts[-1] in _KNOWN_OS:
        return parts[-1] == goos
    if len(parts) >= 2 and parts[-1] in _KNOWN_ARCH:
        return parts[-1] == goarch
    return True


def default_build(path: str, source: bytes) -> bool:
    """True when a default build on the first common platform (linux/amd64) compiles the file, by
    its name's suffix and its build constraint: of a function defined once per platform variant
    (`newPoller` in `poller_epoll.go`, `poller_kqueue.go`, `poller_windows.go`), the one a
    reader on that platform runs."""
    goos, goarch = _PLATFORMS[0]
    if not _name_allows(path, goos, goarch):
        return False
    if b"build" not in source[:8192]:
        return True
    go_build, plus = constraint(source)
    if not go_build and not plus:
        return True
    tags = _tags(goos, goarch)
    value = _eval_go_build(go_build, tags) if go_build else _eval_plus_build(plus, tags)
    return value is not False

