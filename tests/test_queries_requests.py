"""codegraph/calls and codegraph/impact as the service runs them (query/request.py), on small
repositories written here: the count of what the budget left out, paths written `./x`, `a/../x`
or absolute inside the root, ranges checked like single lines, the closest names for
`Owner.member`; and the index's one reason for every file over maxFileBytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from codegraph.index.index import RootIndex
from codegraph.model.fields import InvalidParams
from codegraph.query.request import name_budget, run_calls, run_impact
from codegraph.workspace.scope import ScopeConfig, oversize_reason


def _none() -> None:
    return None


def _index(root: Path, **config) -> RootIndex:
    index = RootIndex(root, ScopeConfig(**config), use_cache=False)
    index.build(workers=1)
    return index


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> RootIndex:
    """`target` called by 10 functions, each called by 3 more (40 edges two steps out), and a
    test that reaches it; a class whose base holds the member a caller may look for."""
    root = tmp_path_factory.mktemp("tree")
    (root / "pkg").mkdir()
    lines = ["def target():", "    return 1", ""]
    for i in range(10):
        lines += [f"def caller_number_{i:02d}_of_the_target():", "    return target()", ""]
        for j in range(3):
            lines += [f"def second_step_caller_{i:02d}_{j}_of_the_target():", f"    return caller_number_{i:02d}_of_the_target()", ""]
    (root / "pkg" / "mod.py").write_text("\n".join(lines) + "\n")
    (root / "pkg" / "app.py").write_text(
        "class Base:\n    def route(self):\n        return 1\n\n    def post(self):\n        return 2\n\n\n"
        "class App(Base):\n    def run(self):\n        return self.route()\n\n    def test_client(self):\n        return 3\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_mod.py").write_text("from pkg.mod import target\n\n\ndef test_target():\n    assert target() == 1\n")
    return _index(root)


# ---- 1. what the budget left out is counted, every edge of it ------------------------------------
def test_calls_counts_every_edge_it_left_out_children_of_a_left_out_edge_too(tree: RootIndex):
    # before: "… 7 more edges left out" with stats edges 134, shown 6 (children of a left-out edge were not counted)
    result = run_calls(tree, {"symbol": "target", "depth": 2, "maxOutputChars": 1000}, _none)
    stats = result["stats"]
    assert stats["edges"] == 41 and 0 < stats["shown"] < 41
    assert result["text"].endswith(f"… {stats['edges'] - stats['shown']} more edges left out (raise maxOutputChars to see them)")
    assert len(result["edges"]) == stats["shown"]


def test_impact_counts_the_units_it_left_out_not_its_headings(tree: RootIndex):
    # before: the section headings, blank lines and "(none found)" after the cut were counted as units
    result = run_impact(tree, {"changes": ["pkg/mod.py:1"], "depth": 2, "maxOutputChars": 1000}, _none)
    stats = result["stats"]
    assert len(result["changed"]) == 1 and "- target · function" in result["text"]
    left_out = stats["impacted"] + stats["tests"] - stats["shown"]
    assert left_out > 0
    assert result["text"].endswith(f"… {left_out} more units left out (raise maxOutputChars to see them)")


def test_the_budget_hint_can_name_the_transports_own_option(tree: RootIndex):
    result = name_budget(run_calls(tree, {"symbol": "target", "depth": 2, "maxOutputChars": 1000}, _none), "--max-chars")
    assert result["text"].endswith("more edges left out (raise --max-chars to see them)")
    assert result["stats"]["chars"] == len(result["text"])
    whole = run_calls(tree, {"symbol": "target", "maxOutputChars": 100_000}, _none)  # nothing left out: unchanged
    assert name_budget(dict(whole, stats=dict(whole["stats"])), "--max-chars") == whole


# ---- 2. a path as the user writes it --------------------------------------------------------------
def test_impact_takes_dot_slash_dot_dot_and_absolute_paths_inside_the_root(tree: RootIndex):
    # before: "is not a file in the index ('./pkg/mod.py'); files so named: …, pkg/mod.py"
    plain = run_impact(tree, {"changes": ["pkg/mod.py:1"]}, _none)
    for spelled in ("./pkg/mod.py:1", "pkg/../pkg/mod.py:1", "pkg//mod.py:1", f"{tree.root}/pkg/mod.py:1", f"{tree.root}/./pkg/mod.py:1"):
        assert run_impact(tree, {"changes": [spelled]}, _none)["changed"] == plain["changed"], spelled
    whole_file = run_impact(tree, {"changes": ["pkg/mod.py"]}, _none)["changed"]
    assert run_impact(tree, {"changes": ["./pkg/mod.py"]}, _none)["changed"] == whole_file


@pytest.mark.parametrize("spelled", ["../elsewhere.py", "pkg/../../elsewhere.py:3", "/etc/hosts", "/nowhere/pkg/mod.py:1"])
def test_a_path_outside_the_root_is_refused_naming_the_rule(tree: RootIndex, spelled: str):
    with pytest.raises(InvalidParams) as err:
        run_impact(tree, {"changes": ["pkg/mod.py", spelled]}, _none)
    assert err.value.field == "changes[1]"
    assert err.value.rule.startswith(f"is outside the root {tree.root}")
    assert "relative to the root, or an absolute path inside it" in err.value.rule


def test_calls_takes_the_same_paths_in_path_line_and_unit_ids(tree: RootIndex):
    # before: "names no function, method or type in the index ('./pkg/mod.py:1')"
    for symbol in ("./pkg/mod.py:1", f"{tree.root}/pkg/mod.py:1", "./pkg/mod.py::target", f"{tree.root}/pkg/mod.py::target"):
        assert [s["id"] for s in run_calls(tree, {"symbol": symbol}, _none)["symbols"]] == ["pkg/mod.py::target"], symbol
    with pytest.raises(InvalidParams, match="names a file; name a unit in it"):
        run_calls(tree, {"symbol": "./pkg/mod.py"}, _none)
    with pytest.raises(InvalidParams, match="is outside the root"):
        run_calls(tree, {"symbol": "../pkg/mod.py:1"}, _none)


# ---- 3. a range is checked as a line is -------------------------------------------------------------
def test_a_reversed_range_is_refused(tree: RootIndex):
    # before: accepted silently (read as 1-4)
    with pytest.raises(InvalidParams) as err:
        run_impact(tree, {"changes": ["pkg/mod.py:4-1"]}, _none)
    assert err.value.field == "changes[0]"
    assert err.value.rule == "has a reversed range 4-1: START-END needs START <= END (e.g. pkg/mod.py:1-4)"


def test_a_range_ending_past_the_file_is_refused_like_a_line_past_it(tree: RootIndex):
    # before: `:1-99999` was accepted (clamped) while `:99999` was refused
    lines = tree.files["pkg/mod.py"].lines
    for change in ("pkg/mod.py:99999", "pkg/mod.py:1-99999"):
        with pytest.raises(InvalidParams) as err:
            run_impact(tree, {"changes": [change]}, _none)
        assert err.value.rule == f"line 99999 is outside pkg/mod.py (1 to {lines})"
    assert run_impact(tree, {"changes": [f"pkg/mod.py:1-{lines}"]}, _none)["changed"]


# ---- 3b. a malformed line part is about the line, not the file -----------------------------------
@pytest.mark.parametrize("change, part", [("pkg/mod.py:abc", "'abc'"), ("pkg/mod.py:-5", "'-5'"), ("pkg/mod.py:1:2", "'1:2'"),
                                          ("pkg/mod.py:5-", "'5-'"), ("pkg/mod.py:", "''"), ("pkg/mod.py:\u00b2", "'\u00b2'"),
                                          ("./pkg/mod.py:abc", "'abc'")])
def test_impact_names_a_malformed_line_after_an_indexed_file(tree: RootIndex, change: str, part: str):
    # before: "is not a file in the index ('pkg/mod.py:abc')", for :1:2 ('pkg/mod.py:1'), a path never
    # written; `:5-` was read as 5 and `:²` crashed (int('²'))
    with pytest.raises(InvalidParams) as err:
        run_impact(tree, {"changes": ["pkg/mod.py", change]}, _none)
    assert err.value.field == "changes[1]"
    assert err.value.rule == (f"names pkg/mod.py, but {part} after it is not a line or a range: write PATH, PATH:LINE or "
                              "PATH:START-END, lines from 1 (e.g. pkg/mod.py:12 or pkg/mod.py:12-20)")


def test_impact_still_says_which_file_is_not_in_the_index(tree: RootIndex):
    for change, named in (("pkg/nope.py:3", "pkg/nope.py"), ("pkg/nope.py:abc", "pkg/nope.py:abc"), ("pkg/mod.pyx", "pkg/mod.pyx")):
        with pytest.raises(InvalidParams) as err:
            run_impact(tree, {"changes": [change]}, _none)
        assert err.value.rule.startswith(f"is not a file in the index ({named!r})"), err.value.rule


@pytest.mark.parametrize("symbol, part", [("pkg/mod.py:abc", "'abc'"), ("pkg/mod.py:-5", "'-5'"), ("pkg/mod.py:1:2", "'1:2'"),
                                          ("pkg/mod.py:\u00b2", "'\u00b2'")])
def test_calls_names_a_malformed_line_after_an_indexed_file(tree: RootIndex, symbol: str, part: str):
    # before: "names no function, method or type in the index ('pkg/mod.py:abc')"; `:²` crashed
    with pytest.raises(InvalidParams) as err:
        run_calls(tree, {"symbol": symbol}, _none)
    assert err.value.rule == f"names pkg/mod.py, but {part} after it is not a line number: write pkg/mod.py:LINE (lines from 1) or pkg/mod.py::Name"


def test_calls_refuses_a_line_outside_the_file_as_impact_does(tree: RootIndex):
    # before: "names line 0 of pkg/mod.py, where no function, method or type is defined" (and so for 99999)
    lines = tree.files["pkg/mod.py"].lines
    for line in (0, 99999):
        with pytest.raises(InvalidParams) as err:
            run_calls(tree, {"symbol": f"pkg/mod.py:{line}"}, _none)
        assert err.value.rule == f"line {line} is outside pkg/mod.py (1 to {lines})"


@pytest.mark.skipif(sys.platform == "win32", reason="no colon in a Windows file name")
def test_a_file_whose_name_holds_a_colon_is_still_a_file(tmp_path: Path):
    (tmp_path / "odd:12.py").write_text("def odd():\n    return 2\n")
    (tmp_path / "odd.py").write_text("def plain():\n    return 3\n")
    index = _index(tmp_path)
    ids = lambda result: [u["id"] for u in result["changed"]]  # noqa: E731
    assert ids(run_impact(index, {"changes": ["odd:12.py"]}, _none)) == ["odd:12.py::odd"]
    assert ids(run_impact(index, {"changes": ["odd:12.py:1"]}, _none)) == ["odd:12.py::odd"]
    assert [s["id"] for s in run_calls(index, {"symbol": "odd:12.py:1"}, _none)["symbols"]] == ["odd:12.py::odd"]
    with pytest.raises(InvalidParams, match=r"names odd:12.py, but 'x' after it is not a line or a range"):
        run_impact(index, {"changes": ["odd:12.py:x"]}, _none)


# ---- 5. the closest names for Owner.member ---------------------------------------------------------
def test_an_unknown_member_of_a_known_class_suggests_its_members_and_its_bases(tree: RootIndex):
    # before: no "closest" at all for App.nonexistent
    with pytest.raises(InvalidParams) as err:
        run_calls(tree, {"symbol": "App.nonexistent"}, _none)
    assert err.value.field == "symbol"
    closest = err.value.rule.split("; closest: ", 1)[1].split(", ")
    assert set(closest) == {"App.run", "App.test_client", "Base.route", "Base.post"}
    with pytest.raises(InvalidParams) as err:
        run_calls(tree, {"symbol": "pkg/app.py::App.rout"}, _none)
    assert err.value.rule.endswith("; closest: Base.route, App.run, Base.post, App.test_client")


# ---- 4. one reason for every file over maxFileBytes --------------------------------------------------
def test_every_file_over_max_file_bytes_has_the_one_reason(tmp_path: Path):
    # before: the size was in the reason ("larger than maxFileBytes (1200 > 1000)"), one group per size
    for i, size in enumerate((1_200, 1_500, 3_000)):
        (tmp_path / f"big{i}.py").write_text("x = 1\n" * (size // 6))
    (tmp_path / "small.py").write_text("y = 2\n")
    index = _index(tmp_path, max_file_bytes=1_000)
    assert oversize_reason(1_000) == "larger than maxFileBytes (1,000)"
    assert index.skipped == {f"big{i}.py": "larger than maxFileBytes (1,000)" for i in range(3)}
    index.open_document("buffer.py", "z = 3\n" * 400)  # an unsaved buffer over the limit: the same reason
    assert index.skipped["buffer.py"] == "larger than maxFileBytes (1,000)"
