"""The test suite itself: markers select what the README's contributor loop promises, and a
missing optional extra skips its tests instead of breaking collection."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Runs pytest with the MCP SDK (and anyio, which only it brings) unimportable, as without the extra.
WITHOUT_MCP = """
import importlib.abc, sys
class WithoutMcp(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("mcp", "anyio"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, WithoutMcp())
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def _pytest(*args: str, code: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "pytest", *args]
    return subprocess.run(cmd, cwd=TESTS.parent, capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})})


def test_not_e2e_deselects_every_editor_test():
    out = _pytest("--collect-only", "-q", "-p", "no:cacheprovider", "-m", "not e2e", "tests/e2e")
    assert "no tests collected" in out.stdout and "deselected" in out.stdout, out.stdout + out.stderr
    assert out.returncode == 5, out.stdout + out.stderr  # 5 = nothing selected


def test_not_slow_deselects_the_kill_9_rounds():
    out = _pytest("--collect-only", "-q", "-p", "no:cacheprovider", "-m", "not slow", "tests/test_crash_safety.py")
    assert "test_kill_9" not in out.stdout and "test_a_damaged_cache_file" in out.stdout, out.stdout + out.stderr


def test_without_the_mcp_extra_the_mcp_tests_skip_and_collection_goes_on():
    # Plugins are named, not auto-loaded: anyio's own pytest plugin is installed only with the extra.
    out = _pytest("-q", "-x", "-p", "no:cacheprovider", "-p", "pytest_asyncio", "-rs", "tests/test_mcp.py",
                  code=WITHOUT_MCP, env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert out.returncode in (0, 5), out.stdout + out.stderr
    assert "skipped" in out.stdout and "could not import 'mcp'" in out.stdout, out.stdout + out.stderr


DOCS = ["README.md", "nvim-client/README.md", "vscode-client/README.md", "docs/mcp.md", "bench/README.md"]


def test_every_doc_installs_this_repository_not_the_unrelated_pypi_codegraph():
    import re
    import tomllib

    repo = TESTS.parent
    project = tomllib.loads((repo / "pyproject.toml").read_text())["project"]
    assert project["name"] == "codegraph-lsp"  # "codegraph" on PyPI is somebody else's
    assert set(project["scripts"]) == {"codegraph", "codegraph-lsp"}
    for doc in DOCS:
        text = (repo / doc).read_text()
        # the only `pip install codegraph` a doc may show is the warning that it "installs an unrelated project"
        assert not re.search(r"pip install (-U )?['\"]?codegraph\b(?!-lsp)(?!`\s+installs an unrelated)", text), doc
        assert "pip install -e ." in text or "pip install -e '.[mcp]'" in text, doc


def test_nothing_points_outside_the_repository_for_design_notes():
    repo = TESTS.parent
    outside = "shared" + "/"  # spelled apart, so a grep for pointers does not find this test
    for folder in ["server", "tests", "vscode-client/src", "nvim-client", "docs", "bench"]:
        for path in (repo / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".md", ".ts", ".lua", ".sh"} and "node_modules" not in path.parts:
                assert outside + "design" not in path.read_text(errors="replace"), path
    assert outside not in (repo / "README.md").read_text()
    for name in ["architecture", "explore", "distill", "protocol"]:
        assert (repo / "docs" / f"{name}.md").is_file()


def test_the_extension_readme_has_no_relative_links():
    # vsce refuses to package a README whose relative links it cannot resolve to a repository URL
    import re

    text = (TESTS.parent / "vscode-client" / "README.md").read_text()
    assert not re.findall(r"\]\((?!https?://|#)[^)]*\)", text)
