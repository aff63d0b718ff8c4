"""The command line as a newcomer meets it: answers that say why they are empty, errors that
name the flags typed, minimums that work, and an index summary that lists what it skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-m", "codegraph.cli", *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_a_question_that_names_nothing_lists_candidates_and_exits_1(tmp_path: Path, cache: Path):
    # before: 83 characters ("No named symbol matched; ...") and exit status 0
    out = _cli("explore", str(FIXTURES / "distill" / "py-service"), "how does it work?", cache=cache)
    assert out.returncode == 1, out.stderr
    assert "No symbol or call flow matched “how does it work?”" in out.stdout
    assert "Closest candidates, the most-called units here:" in out.stdout
    assert out.stdout.count("\n- `") >= 3  # candidates, each with path:line
    assert "Try naming a function, class or file, for example “How does `" in out.stdout


def test_an_answer_that_only_lost_to_the_budget_is_not_called_empty(cache: Path):
    repo = Path(__file__).resolve().parents[1]
    out = _cli("explore", str(repo), "How does run_explore reach explore?", "--max-chars", "1000", cache=cache)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("## Flow") and "No answer" not in out.stdout


def test_an_empty_folder_says_so(tmp_path: Path, cache: Path):
    (tmp_path / "empty").mkdir()
    out = _cli("explore", str(tmp_path / "empty"), "how does main work?", cache=cache)
    assert out.returncode == 1
    assert "Nothing to explore here: 0 supported files and no others." in out.stdout


def test_a_folder_of_other_languages_says_what_it_ignored(tmp_path: Path, cache: Path):
    root = tmp_path / "c-project"
    root.mkdir()
    for i in range(10):
        (root / f"f{i}.c").write_text(f"int f{i}(void) {{ return {i}; }}\n")
    (root / "a.txt").write_text("notes\n")
    (root / "b.TXT").write_text("notes\n")
    out = _cli("explore", str(root), "how does f1 work?", cache=cache)
    assert out.returncode == 1
    assert "0 supported files; 12 files of other languages ignored: .c ×10, .txt ×2" in out.stdout
    assert "codegraph reads Python, TypeScript/TSX, JavaScript/JSX, Java, Kotlin, Go and Rust" in out.stdout
    index = _cli("index", str(root), cache=cache)
    assert "ignored     12 files of other languages: .c ×10, .txt ×2" in index.stdout


def test_errors_name_the_cli_flags_not_the_protocol_fields(cache: Path):
    root = str(FIXTURES / "distill" / "py-service")
    out = _cli("explore", root, "run", "--max-chars", "5", cache=cache)
    assert out.returncode == 2
    assert out.stderr.strip() == "codegraph: --max-chars must be between 1,000 and 400,000 (got 5)"
    out = _cli("distill", root, "--budget-bytes", "100", cache=cache)
    assert out.returncode == 2 and "--budget-bytes must be between 512" in out.stderr and "budgetBytes" not in out.stderr
    for blank in ("  ", ""):  # an empty --question was an overview, silently
        out = _cli("distill", root, "--question", blank, cache=cache)
        assert out.returncode == 2 and out.stderr.strip() == "codegraph: --question must not be blank", blank


def test_the_documented_minimums_work(cache: Path):
    root = str(FIXTURES / "distill" / "py-service")
    out = _cli("explore", root, "How does main reach the store?", "--max-chars", "1000", cache=cache)
    assert out.returncode == 0 and 0 < len(out.stdout) <= 1001
    # --budget-bytes: the smallest pack depends on the repository; a cap below it names a value that works
    # (the value named is for the request as asked: the JSON and the markdown pack differ in size)
    for budget, fmt in ((512, "markdown"), (512, "json"), (700, "json")):
        out = _cli("distill", root, "--budget-bytes", str(budget), "--format", fmt, cache=cache)
        assert out.returncode == 2
        assert f"--budget-bytes {budget} is too small for this repository: the smallest pack needs" in out.stderr, out.stderr
        works = out.stderr.split("Use --budget-bytes ")[1].split()[0]
        again = _cli("distill", root, "--budget-bytes", works, "--format", fmt, cache=cache)
        assert again.returncode == 0, again.stderr
        if fmt == "json":
            assert json.loads(again.stdout)["budget"]["cap"] == int(works)


def test_the_mcp_schema_minimums_are_the_servers(tmp_path: Path):
    pytest.importorskip("mcp")
    from codegraph.distill.request import parse_distill
    from codegraph.mcp_server import TOOLS
    from codegraph.requests import InvalidParams, parse_explore

    schemas = {t["name"]: t["inputSchema"]["properties"] for t in TOOLS}
    checks = [(schemas["codegraph_explore"]["maxOutputChars"], lambda v: parse_explore({"query": "q", "maxOutputChars": v}, 1)),
              (schemas["codegraph_distill"]["budgetBytes"], lambda v: parse_distill({"budgetBytes": v}))]
    for schema, parse in checks:
        parse(schema["minimum"])
        parse(schema["maximum"])
        for outside in (schema["minimum"] - 1, schema["maximum"] + 1):
            with pytest.raises(InvalidParams):
                parse(outside)


def test_index_lists_what_it_skipped_grouped_by_reason(tmp_path: Path, cache: Path):
    root = tmp_path / "repo"
    (root / "node_modules" / "x").mkdir(parents=True)
    (root / "app.py").write_text("def main():\n    return 1\n")
    for i in range(5):
        (root / f"blob{i}.py").write_bytes(b"\x00\x01binary")
    (root / "big.py").write_text("x = 1\n" * 500)
    (root / "bigger.py").write_text("x = 1\n" * 700)
    out = _cli("index", str(root), "--max-file-bytes", "1000", cache=cache)
    assert out.returncode == 0, out.stderr
    assert "skipped     8  (--list-skipped lists every path)" in out.stdout
    assert "         5  binary: blob0.py, blob1.py, blob2.py and 2 more" in out.stdout
    assert "         1  dependencies (node_modules): node_modules/" in out.stdout
    # one group for the limit, not one per file size (before: "larger than maxFileBytes (3000 > 1000): big.py")
    assert "         2  larger than maxFileBytes (1,000): big.py, bigger.py\n" in out.stdout
    full = _cli("index", str(root), "--max-file-bytes", "1000", "--list-skipped", cache=cache)
    assert "         5  binary:\n" in full.stdout
    assert all(f"              blob{i}.py\n" in full.stdout for i in range(5))
    sizes = "         2  larger than maxFileBytes (1,000):\n              big.py (3,000 bytes)\n              bigger.py (4,200 bytes)\n"
    assert sizes in full.stdout
    listed = json.loads(_cli("index", str(root), "--max-file-bytes", "1000", "--list-skipped", "--json", cache=cache).stdout)
    assert len(listed["skipped"]) == listed["skippedTotal"] == 8
    assert {"path": "big.py", "reason": "larger than maxFileBytes (1,000)", "bytes": 3000} in listed["skipped"]


@pytest.mark.parametrize("value", ["-1", "0", "999", "100000001"])
def test_max_file_bytes_out_of_bounds_is_refused_naming_the_flag(tmp_path: Path, cache: Path, value: str):
    # before: -1 was accepted and every file was skipped ("larger than maxFileBytes (73 > -1)")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    return 1\n")
    for command in ("index", "mcp"):
        out = _cli(command, str(root), "--max-file-bytes", value, cache=cache)
        assert out.returncode == 2, (command, out.stdout, out.stderr)
        assert out.stderr.strip() == f"codegraph: --max-file-bytes must be between 1,000 and 100,000,000 (got {int(value):,})"


def test_a_root_that_does_not_exist_says_so(tmp_path: Path, cache: Path):
    # before: "not a directory" for a path that does not exist at all
    out = _cli("index", str(tmp_path / "nowhere"), cache=cache)
    assert out.returncode == 1 and out.stderr.strip() == f"codegraph: {tmp_path / 'nowhere'}: does not exist"
    (tmp_path / "file.py").write_text("x = 1\n")
    out = _cli("calls", str(tmp_path / "file.py"), "x", cache=cache)
    assert out.returncode == 1 and out.stderr.strip() == f"codegraph: {tmp_path / 'file.py'}: not a directory"
    # the MCP server checks its ROOT the same way (it said "not a directory" for both)
    out = _cli("mcp", str(tmp_path / "nowhere"), cache=cache)
    assert out.returncode == 2 and out.stderr.strip() == f"codegraph: {tmp_path / 'nowhere'}: does not exist"


def test_the_queries_name_max_chars_for_what_they_left_out(tmp_path: Path, cache: Path):
    # before: "… 6 more edges left out (raise maxOutputChars to see them)" from the CLI, with 11 left out
    root = tmp_path / "repo"
    root.mkdir()
    lines = ["def target():", "    return 1", ""]
    for i in range(10):
        lines += [f"def caller_number_{i:02d}_of_the_target():", "    return target()", ""]
        lines += [f"def second_step_caller_{i:02d}_of_the_target():", f"    return caller_number_{i:02d}_of_the_target()", ""]
    (root / "mod.py").write_text("\n".join(lines) + "\n")
    out = _cli("calls", str(root), "target", "--depth", "2", "--max-chars", "1000", "--json", cache=cache)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)  # the protocol's answer, as the LSP and MCP give it
    left_out = result["stats"]["edges"] - result["stats"]["shown"]
    assert result["stats"]["edges"] == 20 and left_out > 0
    assert result["text"].endswith(f"\n… {left_out} more edges left out (raise maxOutputChars to see them)")
    text = _cli("calls", str(root), "target", "--depth", "2", "--max-chars", "1000", cache=cache)
    assert text.stdout == result["text"].replace("maxOutputChars", "--max-chars") + "\n"
    text = _cli("impact", str(root), "./mod.py:1", "--depth", "2", "--max-chars", "1000", cache=cache)
    assert text.returncode == 0, text.stderr
    assert text.stdout.endswith("more units left out (raise --max-chars to see them)\n") and "maxOutputChars" not in text.stdout


def test_a_closed_pipe_is_not_a_traceback(cache: Path):
    root = str(FIXTURES / "distill" / "py-service")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    # `true` exits at once, long before the summary is printed: every write meets a closed pipe
    out = subprocess.run(f"'{sys.executable}' -m codegraph.cli index '{root}' | true", shell=True, env=env,
                         capture_output=True, text=True, timeout=120)
    assert "Traceback" not in out.stderr and "BrokenPipeError" not in out.stderr, out.stderr


def test_the_json_pack_the_cli_prints_stays_within_its_byte_budget(cache: Path):
    """The cap is measured on the sent frame; the CLI printed the pack indented, a sixth over the cap."""
    root = str(FIXTURES / "distill" / "py-service")
    for budget in ("2000", "4000"):
        out = _cli("distill", root, "--format", "json", "--budget-bytes", budget, cache=cache)
        assert out.returncode == 0, out.stderr
        assert len(out.stdout.encode()) <= int(budget), (budget, len(out.stdout.encode()))
        assert json.loads(out.stdout)["budget"]["cap"] == int(budget)
