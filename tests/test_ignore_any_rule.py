"""Most paths of a tree match no rule of its ignore files: one search over the rules' alternation
says so (workspace/ignore.py `_any_rule`), where pathspec tried each rule in turn; every decision
stays pathspec's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from codegraph.workspace import ignore

# a real ignore file's shapes (the TypeScript compiler's, abridged), negations and dir-only rules too
GITIGNORE = b"""node_modules/
built/*
tests/cases/rwc/*
!tests/cases/webharness/compilerToString.js
\\#*\\#
.\\#*
tests/baselines/local/*
src/harness/*.js
*.swp
tests/cases/**/*.js
!tests/cases/docker/*.js/
scripts/*.js.map
coverage/
**/.DS_Store
**/.vscode/*
!**/.vscode/tasks.json
tests/cases/user/*/**/*.d.ts
!tests/cases/user/zone.js/
[Bb]in/
doc?/*.md
"""


def _pathspec(rules: ignore.IgnoreRules, path: str, is_dir: bool):
    return (rules.dirs if is_dir else rules.files).check_file(path).include


def test_a_path_no_rule_matches_is_decided_by_one_search(monkeypatch):
    rules, problems = ignore.parse_ignore(GITIGNORE)
    assert rules is not None and not problems
    calls = []
    for spec in (rules.files, rules.dirs):
        original = spec.check_file
        monkeypatch.setattr(spec, "check_file", lambda path, original=original: calls.append(path) or original(path))
    assert rules.decide("src/compiler/checker.ts", False) is None
    assert rules.decide("src/compiler", True) is None
    assert calls == []
    assert rules.decide("built/local/tsc.js", False) is True
    assert rules.decide("a/.vscode/tasks.json", False) is False  # kept by a negation
    assert calls == ["built/local/tsc.js", "a/.vscode/tasks.json"]


def test_a_costly_rule_keeps_every_rule_on_its_own():
    # RE2 matches a pattern that would backtrack: never joined into Python's alternation
    rules, _ = ignore.parse_ignore(b"*.pyc\n**/a/**/a/**/b\n")
    assert rules is not None and rules._misses[0] is None
    assert rules.decide("x/a/y/a/z/b", False) is True and rules.decide("src/main.py", False) is None


_PIECES = ["a", "b", "*", "**", "?", "[ab]", "[!a]", "/", ".", "x.js", "\\#", " ", "!"]
_lines = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join)
_paths = st.lists(st.sampled_from(["a", "b", "ab", "x.js", ".a", "#b#", "a b", "dir"]), min_size=1, max_size=5).map("/".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_lines, min_size=1, max_size=12), st.lists(_paths, min_size=1, max_size=12), st.booleans())
def test_every_decision_is_the_one_pathspec_makes(lines, paths, is_dir):
    rules, _ = ignore.parse_ignore("\n".join(lines).encode())
    if rules is None:
        return
    for path in paths:
        assert rules.decide(path, is_dir) == _pathspec(rules, path, is_dir), (lines, path)
