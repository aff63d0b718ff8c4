"""Ignore files read the way git reads them: a line git cannot use is skipped and reported, and
every other line of the file still applies. Nothing here raises on the file's content.

git reads `.gitignore` as bytes split at "\\n" (a "\\r" before it is dropped, a UTF-8 byte order
mark at the start is skipped, a NUL ends the pattern's C string), never follows a symlinked
`.gitignore` inside the work tree, and ignores one that is not a regular file. pathspec turns each
line into a regular expression; lines it refuses (a lone `!`, a trailing backslash) match nothing
in git either and are reported. A reversed range `[z-a]`, which git reads as `[z]`, and a class
such as `[[:digit:]]`, which pathspec misreads, are rewritten first.

A pattern whose regular expression can backtrack (two repeats that cross slashes, or four in
all; the implicit leading `**/` counts) matches on RE2, in linear time: Python's backtracking
engine takes minutes for `**/a/**/a/**/b` on a 2,000-level tree or `*a*a*a*b` on a long name,
and a hostile repository chooses both the patterns and the paths. Every other pattern keeps
Python's engine (cheaper per call for the usual `*.pyc`).
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
from pathspec.util import normalize_file
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
    return ascii(text[:60] + ("..." if len(text) > 60 else ""))


_BRACKET = re.compile(r"\[([!^]?\]?)((?:\[:[a-z]*:\]|\\.|[^\]])*)\]")
_REVERSED = re.compile(r"(\\.|[^\\])-(\\.|[^\\])")
_POSIX = re.compile(r"\[:([a-z]*):\]")
# git's character classes that pathspec cannot read, as plain ranges (the ASCII ones git means)
POSIX_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
                 "xdigit": "0-9A-Fa-f", "blank": " \t", "space": " \t\r\f\v"}


def _git_brackets(line: str) -> str | None:
    """Bracket expressions as git's wildmatch reads them: a reversed range `[z-a]` matches only its
    first character, `[[:digit:]]` is a class pathspec does not know. None: a class git has that
    is not translated here (the line is reported, not guessed)."""
    if "[" not in line:
        return line
    unknown = []

    def fix_range(r: re.Match) -> str:
        lo, hi = r.group(1)[-1], r.group(2)[-1]
        return r.group(0) if lo <= hi else r.group(1)

    def fix_class(m: re.Match) -> str:
        def posix(c: re.Match) -> str:
            if c.group(1) not in POSIX_CLASSES:
                unknown.append(c.group(1))
            return POSIX_CLASSES.get(c.group(1), "")

        inner = _POSIX.sub(posix, m.group(2))
        return "[" + m.group(1) + _REVERSED.sub(fix_range, inner) + "]"

    fixed = _BRACKET.sub(fix_class, line)
    return None if unknown else fixed


# Paths and patterns meet as text; bytes that are not UTF-8 arrive as lone surrogates (Python's
# surrogateescape), which RE2 cannot encode. Both sides map them to private-use characters.
_SURROGATES = re.compile("[\udc80-\udcff]")


def matchable(text: str) -> str:
    """A path or pattern as matching sees it (lengths unchanged)."""
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
        if re2 is not None and pattern.regex is not None and _costly(pattern.regex.pattern):
            pattern.regex = re2.compile(pattern.regex.pattern)
    except Exception as exc:  # noqa: BLE001 - any refusal of one line is that line's problem
        return f"invalid pattern: {type(exc).__name__}"
    return pattern


class _Builder:
    """Collects one file's patterns and problems, a line at a time."""

    def __init__(self, problems: list[IgnoreProblem]) -> None:
        self.patterns: list[GitIgnoreSpecPattern] = []
        self.dir_patterns: list[GitIgnoreSpecPattern] = []
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
        if not (line[1:] if line.startswith("!") else line).strip("/"):
            # git is left with an empty pattern; pathspec reads `!/` as "every path with a slash"
            self.problem(no, f"ignore line skipped: {_shown(line)} (an empty pattern: matches nothing in git)")
            return
        translated = _git_brackets(line)
        got = _compile(matchable(translated)) if translated is not None else "character class not translated"
        if isinstance(got, str):
            self.problem(no, f"ignore line skipped: {_shown(line)} ({got})")
        elif got.include is not None:
            self.patterns.append(got)
            # a directory is matched by its name without the slash, and a dir-only rule too
            core = translated if translated.endswith("\\ ") else translated.rstrip(" ")
            as_dir = _compile(matchable(core[:-1])) if core.endswith("/") and len(core) > 1 else got
            if not isinstance(as_dir, str) and as_dir.include is not None:
                self.dir_patterns.append(as_dir)

    def full(self) -> bool:
        return len(self.patterns) >= MAX_PATTERNS

    def rules(self) -> tuple[IgnoreRules | None, list[IgnoreProblem]]:
        if self.hidden:
            self.problems.append(IgnoreProblem(0, f"{self.hidden} more lines skipped"))
        if not self.patterns:
            return None, self.problems
        return IgnoreRules(pathspec.GitIgnoreSpec(self.patterns, backend="simple"),
                           pathspec.GitIgnoreSpec(self.dir_patterns, backend="simple")), self.problems


class IgnoreRules:
    """One ignore file's rules, for files and for directories.

    pathspec matches a directory probed as `gen/` against `**/gen/**` and `gen/*`, which git
    matches only below the directory: a directory whose contents are ignored is still entered,
    and a deeper `!keep.py` keeps its file. So directories are probed by name, without the slash,
    on the same rules with each dir-only rule's slash dropped."""

    __slots__ = ("files", "dirs", "_misses")

    def __init__(self, files: pathspec.GitIgnoreSpec, dirs: pathspec.GitIgnoreSpec) -> None:
        self.files, self.dirs = files, dirs
        self._misses = (_any_rule(files.patterns), _any_rule(dirs.patterns))

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True: ignored, False: kept by a negation, None: no rule of this file matches."""
        anyone = self._misses[is_dir]
        if anyone is not None and anyone.search(normalize_file(path)) is None:
            return None  # no rule matches: pathspec would have tried each in turn to say so
        return (self.dirs if is_dir else self.files).check_file(path).include


_GROUP_NAME = re.compile(r"(\\*)\(\?P<\w+>")


def _any_rule(patterns) -> re.Pattern | None:
    """One regular expression that matches where any of the rules' does (their alternation, the
    groups' names dropped: pathspec names the same group in each), or None where that cannot be
    written exactly (another engine's pattern, other flags, a back reference). Most paths match
    no rule of an ignore file: one search says so where pathspec runs every rule's (a hundred on
    the TypeScript compiler's `.gitignore`: a third of its tree's walk)."""
    sources: list[str] = []
    flags: int | None = None
    for p in patterns:
        rx = p.regex
        if p.include is None or rx is None:
            continue
        if not isinstance(rx, re.Pattern) or not isinstance(rx.pattern, str) or (flags is not None and rx.flags != flags):
            return None  # RE2 (a costly pattern: never in a backtracking alternation) or bytes
        flags = rx.flags
        source = rx.pattern
        named = _GROUP_NAME.findall(source)
        if "(?P=" in source or len(named) != len(rx.groupindex) or any(len(escapes) % 2 for escapes in named):
            return None
        sources.append(_GROUP_NAME.sub(lambda m: m.group(1) + "(?:", source))
    if not sources:
        return None
    try:
        return re.compile("|".join(f"(?:{s})" for s in sources), flags or 0)
    except (re.error, RecursionError, OverflowError):
        return None


_NEGATION = re.compile(rb"^![^\n]*", re.MULTILINE)


def parse_ignore(data: bytes) -> tuple[IgnoreRules | None, list[IgnoreProblem]]:
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
    return builder.rules()


def parse_lines(lines: Iterable[str]) -> tuple[IgnoreRules | None, list[IgnoreProblem]]:
    """Patterns given as text (configured excludes): the same rules, one problem per bad entry."""
    builder = _Builder([])
    for no, line in enumerate(lines, 1):
        if builder.full():
            builder.problem(no, f"over {MAX_PATTERNS} patterns: skipped")
            continue
        builder.add(no, str(line))
    return builder.rules()


def read_ignore_file(path: str) -> tuple[IgnoreRules | None, list[IgnoreProblem]]:
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
