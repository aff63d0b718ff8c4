"""What an explore answer says when it has nothing to show: why, and what to try instead.

An empty answer that only says "no named symbol matched" leaves a newcomer guessing whether
the question, the folder or the tool is at fault. This one says which, and lists the units a
question could name.
"""

from __future__ import annotations

from ..index.index import RootIndex
from ..workspace.scope import is_test_path

LANGUAGES = "Python, TypeScript/TSX, JavaScript/JSX, Java, Kotlin, Go and Rust"
MAX_CANDIDATES = 8


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def unsupported_summary(unsupported: dict[str, int], limit: int = 6) -> str:
    """".c ×10, .txt ×2" — the most frequent kinds first."""
    kinds = sorted(unsupported.items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join(f"{kind} ×{count}" for kind, count in kinds[:limit])
    if len(kinds) > limit:
        text += f" and {len(kinds) - limit} more kinds"
    return text


def folder_summary(index: RootIndex) -> str:
    """"0 supported files; 12 files of other languages ignored: .c ×10, .txt ×2" (and skips)."""
    parts = [_plural(len(index.files), "supported file")]
    others = sum(index.unsupported.values())
    if not index.files and not others and not index.skipped:
        return "0 supported files and no others"
    if others:
        parts.append(f"{_plural(others, 'file')} of other languages ignored: {unsupported_summary(index.unsupported)}")
    if index.skipped:
        parts.append(f"{_plural(len(index.skipped), 'path')} skipped (`codegraph index --list-skipped` lists them with reasons)")
    return "; ".join(parts)


def most_called(index: RootIndex, include_tests: bool, limit: int = MAX_CANDIDATES) -> list[tuple[int, object]]:
    """(distinct callers, unit) of the callables and types with the most callers: the units a
    question is most likely to be about when it names none."""
    g = index.graph.g
    out = []
    for uid, unit in index.resolver.units.items():
        if not (unit.is_callable or unit.is_type) or (not include_tests and is_test_path(unit.path)) or uid not in g:
            continue
        callers = {src for src, _, kind in g.in_edges(uid, keys=True) if kind in ("calls", "constructs")}
        out.append((len(callers), unit))
    out.sort(key=lambda t: (-t[0], t[1].path, t[1].start_line))
    return out[:limit]


def no_answer(index: RootIndex, query: str, include_tests: bool, budget: int) -> str:
    """The text of an explore answer that found no file to show, at most `budget` characters."""
    if not index.files:
        lines = [
            "## No answer",
            "",
            f"Nothing to explore here: {folder_summary(index)}.",
            f"codegraph reads {LANGUAGES}. Point it at a folder with such files.",
        ]
        return _fit(lines, budget)
    shown = query if len(query) <= 120 else query[:117] + "..."
    lines = [
        "## No answer",
        "",
        f"No symbol or call flow matched “{shown}”: the question names no function, class or file",
        "of this repository, and none of its words occur in their names, paths or docstrings.",
        f"Indexed: {folder_summary(index)}.",
    ]
    if not include_tests and all(is_test_path(p) for p in index.files):
        lines += ["", "Every supported file here is a test file, and test files are left out: set `includeTests` (CLI: `--include-tests`)."]
    candidates = most_called(index, include_tests)
    # the example must be a name the question parser takes for code: one letter never is
    example = next((u.qualname for _, u in candidates if len(u.name) > 1), None)
    if candidates:
        said = f", for example “How does `{example}` work?”" if example else ""
        lines += ["", f"Try naming a function, class or file{said}. "
                  "Closest candidates, the most-called units here:", ""]
        lines += [
            f"- `{u.qualname}` ({u.kind}) — {u.path}:{u.start_line}" + (f" · {_plural(n, 'caller')}" if n else "")
            for n, u in candidates
        ]
    else:
        lines += ["", "Try naming a function, class or file of this repository in the question."]
    return _fit(lines, budget)


def _fit(lines: list[str], budget: int) -> str:
    """Whole lines only, within the budget (the explore budget is at least 1,000 characters)."""
    out = ""
    for line in lines:
        if len(out) + len(line) + 1 > budget:
            break
        out += line + "\n"
    return out
