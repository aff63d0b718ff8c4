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

# Every pattern costs compile time once and a test for every path: real ignore files hold tens to
# hundreds. Past the caps the rest of the file is skipped, and said so.
MAX_IGNORE_BYTES = 32_000_000  # git's own limit is 100 MB
MAX_PATTERNS = 2_000
NL = b"\n"
MAX_REPORTED_LINES = 20  # per file; the rest are counted in one line
# Longer ignore rules are dropped (negations are kept): dropping a rule only ever keeps more files.
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


class _Builder:
    """Collects one file's patterns and problems, a line at a time."""

    def __init__(self, problems: list[IgnoreProblem]) -> None:
        self.patterns: list[GitIgnoreSpecPattern] = []
        self.problems = problems
        self.hidden = 0

    def problem(self, no: int, reason: str) -> None:
        if len(self.problems) < MAX_REPORTED_LINES:
            self.problems.append(IgnoreProblem(no, reason))
        else:
            self.hidden += 1

    def add(self, no: int, line: str) -> None:
        if line.endswith("\r"):
            line = line[:-1]
        if "\x00" in line:
            line = line.split("\x00", 1)[0]
            self.problem(no, f"ignore line cut at a NUL byte, as git reads it: {_shown(line)}")
        if not line or line.startswith("#"):
            return
        if len(line) > MAX_LINE_CHARS and not line.startswith("!"):
            self.problem(no, f"ignore line skipped: over {MAX_LINE_CHARS} characters (no path is that long)")
            return
        got = _compile(matchable(_git_ranges(line)))
        if isinstance(got, str):
            self.problem(no, f"ignore line skipped: {_shown(line)} ({got})")
        elif got.include is not None:
            self.patterns.append(got)

    def full(self) -> bool:
        return len(self.patterns) >= MAX_PATTERNS

    def spec(self) -> tuple[pathspec.GitIgnoreSpec | None, list[IgnoreProblem]]:
        if self.hidden:
            self.problems.append(IgnoreProblem(0, f"{self.hidden} more lines skipped"))
        return (pathspec.GitIgnoreSpec(self.patterns, backend="simple") if self.patterns else None), self.problems


_NEGATION = re.compile(rb"^![^\n]*", re.MULTILINE)


def parse_ignore(data: bytes) -> tuple[pathspec.GitIgnoreSpec | None, list[IgnoreProblem]]:
    """The spec of an ignore file's bytes and the lines it skipped (never raises on content).

    Past MAX_PATTERNS patterns only negations (`!…`) still apply: dropping an ignore rule can
    only keep more files, so a capped file never hides a file git keeps."""
    problems: list[IgnoreProblem] = []
    if len(data) > MAX_IGNORE_BYTES:
        cut = data.rfind(b"\n", 0, MAX_IGNORE_BYTES)
        data = data[: cut + 1 if cut >= 0 else 0]
        problems.append(IgnoreProblem(0, f"ignore file over {MAX_IGNORE_BYTES} bytes: the lines after line {data.count(NL)} not read"))
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    builder = _Builder(problems)
    pos, no = start, 1
    while pos < len(data) and not builder.full():
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        builder.add(no, data[pos:end].decode("utf-8", "surrogateescape"))
        pos, no = end + 1, no + 1
    if pos < len(data):
        skipped_from, negations = no, 0
        for m in _NEGATION.finditer(data, pos):
            no += data.count(NL, pos, m.start())
            pos = m.start()
            if negations >= MAX_PATTERNS:
                break
            builder.add(no, m.group(0).decode("utf-8", "surrogateescape"))
            negations += 1
        problems.append(IgnoreProblem(0, f"over {MAX_PATTERNS} patterns: from line {skipped_from} on only negations (!) apply"
                                         + (f", the first {MAX_PATTERNS} of them" if negations >= MAX_PATTERNS else "")))
    return builder.spec()


def parse_lines(lines: Iterable[str]) -> tuple[pathspec.GitIgnoreSpec | None, list[IgnoreProblem]]:
    """Patterns given as text (configured excludes): the same rules, one problem per bad entry."""
    builder = _Builder([])
    for no, line in enumerate(lines, 1):
        if builder.full():
            builder.problem(no, f"over {MAX_PATTERNS} patterns: skipped")
            continue
        builder.add(no, str(line))
    return builder.spec()


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
