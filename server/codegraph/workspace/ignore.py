"""Ignore files read the way git reads them: a line git cannot use is skipped and reported, and
every other line of the file still applies. Nothing here raises on the file's content.

git reads `.gitignore` as bytes split at "\\n" (a "\\r" before it is dropped, a UTF-8 byte order
mark at the start is skipped, a NUL ends the pattern's C string), never follows a symlinked
`.gitignore` inside the work tree, and ignores one that is not a regular file. pathspec turns each
line into a regular expression; lines it refuses (a lone `!`, a trailing backslash) match nothing
in git either and are reported. A reversed range `[z-a]`, which git reads as `[z]`, is rewritten so.

A pattern whose regular expression can backtrack (two repeats that cross slashes, or four in all;
the implicit leading `**/` counts) matches on RE2, in linear time: Python's backtracking engine takes minutes for `**/a/**/a/**/b` on a
2,000-level tree or `*a*a*a*b` on a long name, and a hostile repository chooses both the patterns
and the paths. Every other pattern keeps Python's engine (cheaper per call for the usual `*.pyc`).
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import pathspec
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

try:  # a dependency; without it (a broken install) costly patterns backtrack as before
    import re2
except ImportError:  # pragma: no cover
    re2 = None

# git reads up to 100 MB; past this many bytes or patterns the rest of the file is skipped and
# said so: every pattern costs compile time once and (on the fallback engine) time for every path.
# Matching costs every path a test per pattern: real ignore files hold tens to hundreds.
MAX_IGNORE_BYTES = 1_000_000
MAX_PATTERNS = 2_000
MAX_REPORTED_LINES = 20  # per file; the rest are counted in one line
# A path segment is at most 255 bytes on the file systems we walk; no longer pattern is a real one.
MAX_LINE_CHARS = 4096


@dataclass(frozen=True, slots=True)
class IgnoreProblem:
    line: int  # 1-based; 0 = the whole file
    reason: str


def _shown(text: str) -> str:
    """A line as a report shows it: escaped, short."""
    return ascii(text[:60] + ("…" if len(text) > 60 else ""))


_BRACKET = re.compile(r"\[(?:[!^])?\]?(?:\[:[a-z]+:\]|\\.|[^\]])*\]")
_REVERSED = re.compile(r"(\\.|[^\\])-(\\.|[^\\\]])")


def _git_ranges(line: str) -> str:
    """`[z-a]` as git's wildmatch reads it: a reversed range matches only its first character."""
    if "-" not in line or "[" not in line:
        return line

    def fix_class(m: re.Match) -> str:
        def fix_range(r: re.Match) -> str:
            lo, hi = r.group(1)[-1], r.group(2)[-1]
            return r.group(0) if lo <= hi else r.group(1)

        body = m.group(0)
        return _REVERSED.sub(fix_range, body)

    return _BRACKET.sub(fix_class, line)


# Paths and patterns meet as text; bytes that are not UTF-8 arrive as lone surrogates (Python's
# surrogateescape), which RE2 cannot encode. Both sides map them to private-use characters.
_SURROGATES = re.compile("[\udc80-\udcff]")


def matchable(text: str) -> str:
    if text.isascii():
        return text
    return _SURROGATES.sub(lambda m: chr(ord(m.group(0)) - 0xDC80 + 0xF780), text)


_ESCAPED = re.compile(r"\\.")


def _costly(regex: str) -> bool:
    """Repeats that can backtrack polynomially: two that cross slashes (n² on a deep path) or
    four in all (n⁴ on a long name)."""
    bare = _ESCAPED.sub("", regex)
    return bare.count(".+") + bare.count(".*") >= 2 or bare.count("*") + bare.count("+") >= 4


@lru_cache(maxsize=16384)  # the same lines recur across a tree's ignore files
def _compile(line: str) -> GitIgnoreSpecPattern | str:
    """The pattern of one line, or why it cannot be used (git's reading of it matches nothing)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "possible nested set": the regex is still right
            pattern = GitIgnoreSpecPattern(line)
        if re2 is not None and pattern.regex is not None and (_costly(pattern.regex.pattern) or "[:" in line):
            # RE2 also reads POSIX classes (`[[:digit:]]`) as git does; Python's engine does not
            pattern.regex = re2.compile(pattern.regex.pattern)
    except Exception as exc:  # noqa: BLE001 - any refusal of one line is that line's problem
        return f"invalid pattern: {type(exc).__name__}"
    return pattern


def parse_ignore(data: bytes) -> tuple[pathspec.GitIgnoreSpec | None, list[IgnoreProblem]]:
    """The spec of an ignore file's bytes and the lines it skipped (never raises on content)."""
    problems: list[IgnoreProblem] = []
    if len(data) > MAX_IGNORE_BYTES:
        cut = data.rfind(b"\n", 0, MAX_IGNORE_BYTES)
        data = data[: cut + 1 if cut >= 0 else 0]
        kept = data.count(b"\n")
        problems.append(IgnoreProblem(0, f"ignore file over {MAX_IGNORE_BYTES} bytes: the lines after line {kept} skipped"))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    return _spec(lines, problems)


def parse_lines(lines: Iterable[str]) -> tuple[pathspec.GitIgnoreSpec | None, list[IgnoreProblem]]:
    """Patterns given as text (configured excludes): the same rules, one problem per bad entry."""
    return _spec([str(x) for x in lines], [])


def _spec(lines: list[str], problems: list[IgnoreProblem]) -> tuple[pathspec.GitIgnoreSpec | None, list[IgnoreProblem]]:
    patterns: list[GitIgnoreSpecPattern] = []
    reported = len(problems)
    hidden = 0

    def problem(no: int, reason: str) -> None:
        nonlocal reported, hidden
        if reported < MAX_REPORTED_LINES:
            problems.append(IgnoreProblem(no, reason))
            reported += 1
        else:
            hidden += 1

    for no, line in enumerate(lines, 1):
        if line.endswith("\r"):
            line = line[:-1]
        if "\x00" in line:
            line = line.split("\x00", 1)[0]
            problem(no, f"ignore line cut at a NUL byte, as git reads it: {_shown(line)}")
        if not line or line.startswith("#"):
            continue
        if len(patterns) >= MAX_PATTERNS:
            problems.append(IgnoreProblem(0, f"over {MAX_PATTERNS} patterns: lines {no}-{len(lines)} skipped (the first {MAX_PATTERNS} apply)"))
            break
        if len(line) > MAX_LINE_CHARS:
            problem(no, f"ignore line skipped: over {MAX_LINE_CHARS} characters (no path is that long)")
            continue
        got = _compile(matchable(_git_ranges(line)))
        if isinstance(got, str):
            problem(no, f"ignore line skipped: {_shown(line)} ({got})")
        elif got.include is not None:
            patterns.append(got)
    if hidden:
        problems.append(IgnoreProblem(0, f"{hidden} more lines skipped"))
    return (pathspec.GitIgnoreSpec(patterns, backend="simple") if patterns else None), problems


def read_ignore_file(path: str) -> tuple[pathspec.GitIgnoreSpec | None, list[IgnoreProblem]]:
    """An ignore file on disk: absent → (None, []); one git would not read → (None, [why])."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None, []
    except (OSError, ValueError) as exc:
        return None, [IgnoreProblem(0, f"unreadable ignore file ({getattr(exc, 'strerror', None) or exc})")]
    if stat.S_ISLNK(st.st_mode):
        return None, [IgnoreProblem(0, "symlinked ignore file not read (git does not follow it)")]
    if stat.S_ISDIR(st.st_mode):
        return None, [IgnoreProblem(0, "ignore file is a directory")]
    if not stat.S_ISREG(st.st_mode):
        return None, [IgnoreProblem(0, "ignore file is not a regular file")]
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as fh:
            data = fh.read(MAX_IGNORE_BYTES + 64 * 1024)
    except OSError as exc:
        return None, [IgnoreProblem(0, f"unreadable ignore file ({exc.strerror or exc})")]
    return parse_ignore(data)
