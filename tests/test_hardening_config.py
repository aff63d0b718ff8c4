"""Hostile configuration: the files that decide what to read (ignore files) and the manifests the
engines read beside the source. A line or file git would skip is skipped and reported; nothing
in them stops the index, explore or distill, or makes them slow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from codegraph.index.index import RootIndex
from codegraph.requests import run_distill_frame, run_explore
from codegraph.workspace import scope as scope_module
from codegraph.workspace.scope import ScopeConfig

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "config"
CODE = "def f():\n    return 1\n"


def write(root: Path, rel: str, data: str | bytes = CODE) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def built(root: Path, **config) -> RootIndex:
    index = RootIndex(root, ScopeConfig(**config), use_cache=False)
    index.build(workers=1)
    return index


def copy(tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copytree(FIXTURES / name, dst, symlinks=True)
    return dst


# ---- ignore files ---------------------------------------------------------------------------------
def test_a_lone_bang_line_is_skipped_reported_and_the_rest_of_the_file_applies(tmp_path):
    index = built(copy(tmp_path, "hostile-ignores"))
    assert "x/b.py" in index.files
    assert index.skipped["x/local_tmp.py"] == ".gitignore"
    assert "'!'" in index.skipped["x/.gitignore:1"]


def test_reversed_ranges_read_as_git_reads_them(tmp_path):
    index = built(copy(tmp_path, "hostile-ignores"))
    assert index.skipped["quiet.py"] == ".gitignore"  # [q-p]*.py is [q]*.py to git
    assert index.skipped["scratch.py"] == ".gitignore"
    assert {"app.py", "pkg/worker.py", "pkg/ok.py", "x/b.py"} <= set(index.files)


def test_a_deeper_ignore_file_overrides_its_parents_as_in_git(tmp_path):
    root = tmp_path / "ws"
    write(root, ".gitignore", "tmp_*\n**/gen/**\n")
    write(root, "sub/.gitignore", "!tmp_1.py\n")
    write(root, "gen/.gitignore", "!keep.py\n")
    for rel in ("sub/tmp_1.py", "sub/tmp_2.py", "gen/keep.py", "gen/other.py"):
        write(root, rel)
    index = built(root)
    assert set(index.files) == {"sub/tmp_1.py", "gen/keep.py"}  # what `git ls-files -o --exclude-standard` keeps


def test_posix_character_classes_read_as_git_reads_them(tmp_path):
    root = tmp_path / "ws"
    write(root, ".gitignore", "[[:digit:]]*\n[[:punct:]]x.py\n")
    for rel in ("1st.py", "pkg/main.py", "-x.py"):
        write(root, rel)
    index = built(root)
    assert set(index.files) == {"pkg/main.py", "-x.py"}  # [:punct:] is reported, not guessed
    assert "class" in index.skipped[".gitignore:2"]


def test_cli_index_succeeds_and_lists_the_skipped_line(tmp_path):
    root = copy(tmp_path, "hostile-ignores")
    out = subprocess.run([sys.executable, "-m", "codegraph.cli", "index", str(root), "--no-cache", "--list-skipped"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "x/.gitignore:1" in out.stdout and "'!'" in out.stdout


def test_ignore_file_bytes_read_as_git(tmp_path):
    root = tmp_path / "ws"
    # byte order mark, CRLF line ends, a NUL that ends its pattern, an undecodable name
    write(root, ".gitignore", b"\xef\xbb\xbfbom.py\r\ncrlf.py\r\nnul.py\x00tail\n\xff\xfe.py\n")
    for name in ("bom.py", "crlf.py", "nul.py", "kept.py"):
        write(root, name)
    write(root, os.fsdecode(b"\xff\xfe.py"))
    index = built(root)
    assert set(index.files) == {"kept.py"}
    assert "NUL" in index.skipped[".gitignore:3"]


def test_huge_ignore_file_is_capped_reported_and_its_head_applies(tmp_path):
    root = tmp_path / "ws"
    body = b"ignored.py\n" + b"".join(b"junk_%d/deeper/**/*.tmp\n" % i for i in range(450_000))  # over 10 MB
    write(root, ".gitignore", body)
    write(root, "ignored.py")
    write(root, "kept.py")
    index = built(root)
    assert set(index.files) == {"kept.py"}
    assert "over" in index.skipped[".gitignore"]


def test_symlinked_or_directory_ignore_files_are_not_read_and_say_why(tmp_path):
    root = tmp_path / "ws"
    write(root, "elsewhere.txt", "kept.py\n")
    write(root, "a/kept.py")
    os.symlink(root / "elsewhere.txt", root / "a" / ".gitignore")  # git does not follow it
    write(root, "b/.gitignore/inner.py")  # a directory named .gitignore: walked like any directory
    index = built(root)
    assert {"a/kept.py", "b/.gitignore/inner.py"} <= set(index.files)
    assert "symlink" in index.skipped["a/.gitignore"]
    assert "directory" in index.skipped["b/.gitignore"]


def test_backtracking_patterns_on_a_deep_tree_finish(tmp_path):
    root = tmp_path / "ws"
    deep = "/".join(["a"] * 150)
    write(root, ".gitignore", "**/a/**/a/**/b\n*a*a*a*a*a*a*b\n")
    write(root, f"{deep}/leaf.py")
    write(root, "a" * 200 + ".py")
    out = subprocess.run([sys.executable, "-m", "codegraph.cli", "index", str(root), "--no-cache"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "files       2" in out.stdout


def test_an_invalid_configured_exclude_is_reported_and_the_others_apply(tmp_path):
    root = tmp_path / "ws"
    write(root, "gen/x.py")
    write(root, "kept.py")
    index = built(root, exclude=("!", "gen/"))
    assert set(index.files) == {"kept.py"}
    assert index.skipped["gen/"] == "excluded by configuration"
    assert "'!'" in index.skipped["(configured exclude #1)"]


def test_a_failure_deciding_one_path_skips_that_path_only(tmp_path, monkeypatch):
    root = tmp_path / "ws"
    write(root, "bad.py")
    write(root, "good.py")
    original = scope_module.Scope.file_reason

    def failing(self, rel, size=None):
        if rel == "bad.py":
            raise RuntimeError("boom")
        return original(self, rel, size)

    monkeypatch.setattr(scope_module.Scope, "file_reason", failing)
    index = built(root)
    assert set(index.files) == {"good.py"}
    assert "RuntimeError" in index.skipped["bad.py"]


# ---- manifests ------------------------------------------------------------------------------------
def _in_thread(fn, timeout: float):
    """fn's result, or a failure when it does not return in time (a blocking read hangs the test no longer)."""
    box: dict = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"did not finish in {timeout} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_broken_and_wrongly_typed_manifests_of_every_kind_are_gaps(tmp_path):
    index = built(copy(tmp_path, "hostile-manifests"))
    assert {"src/tool/cli.py", "web/index.js", "crate/src/lib.rs", "gomod/main.go"} <= set(index.files)
    pack = run_distill_frame(index, {"format": "json"})["pack"]
    assert pack["sources"]
    assert "run_command" in run_explore(index, {"query": "How does main reach run_command?"})["text"]


@pytest.mark.parametrize("name", ["pyproject.toml", "package.json", "crate/Cargo.toml"])
def test_deeply_nested_manifest_never_stops_distill(tmp_path, name):
    root = copy(tmp_path, "hostile-manifests")
    opener = b"a = " if name.endswith(".toml") else b""
    write(root, name, opener + b"[" * 100_000)
    index = built(root)
    assert run_distill_frame(index, {"format": "json"})["pack"]["sources"]


@pytest.mark.parametrize("content", [b"\x00\xff" * 5000, b"{" + b'"k": 1, ' * 200_000 + b"}", b"\xff\xfe{}"])
def test_binary_huge_or_undecodable_package_json_is_a_gap(tmp_path, content):
    root = copy(tmp_path, "hostile-manifests")
    write(root, "package.json", content)
    index = built(root)
    assert run_distill_frame(index, {"format": "json"})["pack"]["sources"]


def test_a_fifo_manifest_never_blocks_distill(tmp_path):
    root = copy(tmp_path, "hostile-manifests")
    os.unlink(root / "pyproject.toml")
    os.mkfifo(root / "pyproject.toml")
    index = built(root)
    assert _in_thread(lambda: run_distill_frame(index, {"format": "json"})["pack"]["sources"], 60)


def test_a_manifest_symlinked_out_of_the_root_is_not_read(tmp_path, caplog):
    root = copy(tmp_path, "hostile-manifests")
    outside = tmp_path / "outside.toml"
    outside.write_text('[project.scripts]\nleak = "tool.cli:main"\n')
    os.unlink(root / "pyproject.toml")
    os.symlink(outside, root / "pyproject.toml")
    index = built(root)
    pack = run_distill_frame(index, {"format": "json"})["pack"]
    assert "leak" not in str(pack)
