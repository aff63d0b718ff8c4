"""Hostile files in every language: each is indexed or skipped with a reason; nothing raises out
of the indexer; parsing and extraction have deadlines; walks are iterative; resources stay bounded."""

from __future__ import annotations

import os
import resource
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.index import extract as extract_mod
from codegraph.index.extract import SourceError, extract_source, parse
from codegraph.index.index import RootIndex
from codegraph.workspace.scope import ScopeConfig
from hostile import LANG_EXT, hostile_files, nested, remove_tree, sample

CORPUS = Path(__file__).parent / "corpus"
LANGUAGES = list(LANG_EXT)


def _accounted(index: RootIndex, names: list[str]) -> None:
    """Every file is either indexed or skipped with a reason a person can read — never lost."""
    for name in names:
        assert (name in index.files) != (name in index.skipped), name
        if name in index.skipped:
            assert index.skipped[name].strip(), name


def _build(root: Path, **config) -> RootIndex:
    index = RootIndex(root, ScopeConfig(**config), use_cache=False)
    index.build(workers=1)
    return index


def _run_with_small_stack(fn):
    """Runs fn in a thread whose recursion limit leaves ~120 frames: only iterative code survives."""
    out: dict = {}

    def target() -> None:
        depth = 0
        frame = sys._getframe()
        while frame is not None:
            depth, frame = depth + 1, frame.f_back
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(depth + 120)
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 — reported to the test below
            out["error"] = exc
        finally:
            sys.setrecursionlimit(old)

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


# ---- the checked-in corpus ------------------------------------------------------------------
def test_corpus_files_are_indexed_or_skipped_with_a_reason(tmp_path: Path):
    root = tmp_path / "ws"
    shutil.copytree(CORPUS, root, ignore=shutil.ignore_patterns("*.md", ".gitattributes", "__pycache__"))
    index = _build(root)
    names = sorted(p.name for p in root.iterdir())
    _accounted(index, names)
    units = {n: [u.qualname for u in f.units] for n, f in index.files.items()}
    assert units["bom.py"] == ["with_bom"]
    assert units["crlf.py"] == ["crlf", "C", "C.m"]
    assert "mixed" in units["mixed_endings.py"]
    assert units["latin1_declared.py"] == ["café"]
    assert index.skipped["latin1_undeclared.py"] == "not UTF-8 and no encoding declaration"
    assert index.skipped["lone_surrogate_codec.py"].startswith("undecodable with declared encoding")
    assert index.skipped["unknown_codec.py"].startswith("undecodable with declared encoding")
    assert "binary" in index.skipped["nul_byte.py"]
    assert "utf16.py" in index.skipped
    for name in ("Truncated.java", "truncated.go", "truncated.rs", "truncated.ts", "truncated.tsx", "truncated.js", "truncated.kt"):
        assert name in index.files and index.files[name].parse_errors > 0, name


def test_a_declared_codec_yielding_lone_surrogates_skips_the_file_not_the_index(tmp_path: Path):
    # before: UnicodeEncodeError escaped decode_source and RootIndex.build failed as a whole
    (tmp_path / "bad.py").write_bytes((CORPUS / "lone_surrogate_codec.py").read_bytes())
    (tmp_path / "good.py").write_text("def ok():\n    return 1\n")
    index = _build(tmp_path)
    assert list(index.files) == ["good.py"] and "bad.py" in index.skipped


# ---- generated hostile files, every language ------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_hostile_files_never_raise_out_of_the_indexer(language: str, tmp_path: Path):
    files = hostile_files(language)
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    started = time.monotonic()
    index = _run_with_small_stack(lambda: _build(tmp_path, max_file_bytes=10_000_000))
    elapsed = time.monotonic() - started
    _accounted(index, list(files))
    assert index.skipped[f"one_line_5mb{LANG_EXT[language]}"].startswith("minified")
    assert index.skipped[f"minified{LANG_EXT[language]}"].startswith("minified")
    assert "generated" in index.skipped[f"generated_marked{LANG_EXT[language]}"]
    if language == "javascript":
        assert index.skipped["bundle.min.js"] == "generated or minified"
    assert f"huge_generated{LANG_EXT[language]}" in index.files  # big but honest source is indexed
    assert elapsed < 60, elapsed


@pytest.mark.parametrize("language", LANGUAGES)
def test_unclosed_deep_nesting_is_bounded_by_the_deadlines(language: str, monkeypatch):
    monkeypatch.setattr(extract_mod, "PARSE_TIMEOUT_S", 0.5)
    started = time.monotonic()
    try:
        facts, _, _ = extract_source("x" + LANG_EXT[language], language, nested(language, 50_000, closed=False))
        assert facts.parse_errors > 0
    except SourceError as exc:
        assert "timed out" in str(exc) or "too broken to index" in str(exc)
    assert time.monotonic() - started < 10  # before: 13-25 s per file (error recovery + two error-query walks)


@pytest.mark.parametrize("language", ["python", "java", "tsx"])
def test_a_megabyte_of_unclosed_brackets_is_skipped_quickly(language: str):
    # before: the fact query walk grows with the square of the broken run (130 KB: 12 s; 1 MB: minutes)
    started = time.monotonic()
    with pytest.raises(SourceError, match="too broken to index"):
        extract_source("x" + LANG_EXT[language], language, nested(language, 1_000_000 // len(nested(language, 1)), closed=False))
    assert time.monotonic() - started < 15


def test_parse_timeout_aborts_and_the_parser_is_reusable():
    src = nested("python", 50_000, closed=False)
    with pytest.raises(SourceError, match="timed out"):
        parse("python", src, timeout_s=0.0)
    # an aborted parse must not be resumed on the next file
    tree = parse("python", b"def ok():\n    return 1\n")
    assert not tree.root_node.has_error and tree.root_node.children[0].type == "function_definition"


def test_progress_callback_is_ignored_for_bytes_but_honoured_with_a_read_callback():
    """The premise of `parse`: py-tree-sitter only calls progress_callback when reading via a callback."""
    import warnings

    parser = extract_mod._parser("python")
    calls = []
    src = sample("python", 200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.parse(src, progress_callback=lambda *a: calls.append(a) or False)
    assert calls == []
    parser.parse(lambda off, _pt: src[off : off + 4096], progress_callback=lambda *a: calls.append(a) or False)
    assert calls


def test_many_definitions_on_one_line_extract_in_linear_time():
    # before: each unit counted newlines from the file start (quadratic: 60,000 defs took 40-140 s)
    src = b"".join(sample("javascript", 30_000).split(b"\n"))
    started = time.monotonic()
    facts, _, _ = extract_source("x.js", "javascript", src)
    assert len(facts.units) == 30_000
    assert time.monotonic() - started < 10


# ---- property tests: random content ------------------------------------------------------------
def _check_facts(facts, source: bytes) -> None:
    lines = max(1, facts.lines)
    for u in facts.units:
        assert 0 <= u.start_byte <= u.end_byte <= len(source)
        assert 1 <= u.start_line <= u.end_line <= lines + 1
    for c in facts.calls:
        assert 0 <= c.start_byte <= c.end_byte <= len(source)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(language=st.sampled_from(LANGUAGES), raw=st.binary(max_size=3000))
def test_random_bytes_extract_or_skip(language: str, raw: bytes):
    try:
        facts, source, _ = extract_source("x" + LANG_EXT[language], language, raw)
    except SourceError:
        return
    _check_facts(facts, source)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(language=st.sampled_from(LANGUAGES), data=st.data())
def test_mutated_sources_extract_or_skip(language: str, data):
    src = bytearray(sample(language, 8))
    for _ in range(data.draw(st.integers(0, 12))):
        op = data.draw(st.sampled_from(["del", "ins", "dup"]))
        pos = data.draw(st.integers(0, len(src)))
        if op == "del" and src:
            del src[min(pos, len(src) - 1) : pos + data.draw(st.integers(1, 20))]
        elif op == "ins":
            src[pos:pos] = data.draw(st.sampled_from([b"{", b"}", b"(", b")", b"\n", b"\r\n", b"\t", b"'", b'"', b"\xef\xbb\xbf",
                                                      b"/*", b"*/", b"#", b"`", b"<", b">", b"\xc3", b"\xe2\x80\xa8", b"class ", b"def "]))
        else:
            src[pos:pos] = src[pos : pos + data.draw(st.integers(1, 200))]
    try:
        facts, source, _ = extract_source("x" + LANG_EXT[language], language, bytes(src))
    except SourceError:
        return
    _check_facts(facts, source)


@settings(max_examples=40, deadline=None)
@given(language=st.sampled_from(LANGUAGES), texts=st.lists(st.text(max_size=400), min_size=1, max_size=6))
def test_open_document_edits_with_random_text_never_raise(language: str, texts: list[str], tmp_path_factory):
    root = tmp_path_factory.mktemp("docs")
    index = RootIndex(root, use_cache=False)
    index.build(workers=1)
    rel = "doc" + LANG_EXT[language]
    index.open_document(rel, texts[0])
    for text in texts[1:]:
        index.set_document(rel, text.encode("utf-8", "surrogatepass"), None)
    assert (rel in index.files) or (rel in index.skipped)


# ---- timing: files that vanish, change or refuse between scan and read ----------------------------
def test_files_vanishing_or_changing_between_scan_and_read(tmp_path: Path, monkeypatch):
    for name in ("gone.py", "changed.py", "now_binary.py", "grew.py", "stays.py"):
        (tmp_path / name).write_text("def original():\n    return 1\n")
    index = RootIndex(tmp_path, ScopeConfig(max_file_bytes=2_000), use_cache=False)
    real_walk = index.scope.walk

    def walk_then_race(result):
        found = list(real_walk(result))  # the walk has seen every file; now they change under it
        (tmp_path / "gone.py").unlink()
        (tmp_path / "changed.py").write_text("def replaced():\n    return 2\n")
        (tmp_path / "now_binary.py").write_bytes(b"\x00\x01\x02" * 100)
        (tmp_path / "grew.py").write_text("x = 1\n" * 1_000)
        yield from found

    monkeypatch.setattr(index.scope, "walk", walk_then_race)
    index.build(workers=1)
    _accounted(index, ["gone.py", "changed.py", "now_binary.py", "grew.py", "stays.py"])
    assert "unreadable" in index.skipped["gone.py"]
    assert [u.name for u in index.files["changed.py"].units] == ["replaced"]
    assert "binary" in index.skipped["now_binary.py"]
    assert "maxFileBytes" in index.skipped["grew.py"]
    assert "stays.py" in index.files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_file_replaced_by_a_fifo_after_the_walk_does_not_hang_the_index(tmp_path: Path, monkeypatch):
    (tmp_path / "a.py").write_text("def kept():\n    pass\n")
    (tmp_path / "b.py").write_text("def replaced():\n    pass\n")
    index = RootIndex(tmp_path, ScopeConfig(), use_cache=False)
    real_walk = index.scope.walk

    def walk_then_swap(result):
        found = list(real_walk(result))
        (tmp_path / "b.py").unlink()
        os.mkfifo(tmp_path / "b.py")  # opening it for reading would block until a writer comes
        yield from found

    monkeypatch.setattr(index.scope, "walk", walk_then_swap)
    index.build(workers=1)
    assert sorted(index.files) == ["a.py"]
    assert "not a regular file" in index.skipped["b.py"]
    index.refresh_path("b.py")  # a watched-file event for it later: still no hang, still out
    assert "b.py" not in index.files


def test_permission_denied_files_and_directories_are_skipped_with_a_reason(tmp_path: Path, monkeypatch):
    # tests run as root, where chmod 000 denies nothing: simulate the OS refusing instead
    (tmp_path / "secretive.py").write_text("def hidden():\n    pass\n")
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "inner.py").write_text("def inner():\n    pass\n")
    (tmp_path / "open.py").write_text("def visible():\n    pass\n")
    real_open, real_scandir = os.open, os.scandir

    def guarded_open(path, *args, **kwargs):
        if str(path).endswith("secretive.py"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    def guarded_scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", guarded_open)
    monkeypatch.setattr(os, "scandir", guarded_scandir)
    index = _build(tmp_path)
    assert index.skipped["secretive.py"] == "unreadable (Permission denied)"
    assert index.skipped["locked"] == "unreadable directory (Permission denied)"
    assert list(index.files) == ["open.py"]


# ---- resource bounds ---------------------------------------------------------------------------
def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_deep_directory_tree_is_walked_iteratively(tmp_path: Path):
    top = tmp_path / "deep"
    top.mkdir()
    cur, depth = top, 0
    try:
        for depth in range(1, 2_001):
            cur = cur / "d"
            cur.mkdir()
        (cur / "deep.py").write_text("def deepest():\n    pass\n")
        (top / "top.py").write_text("def top():\n    pass\n")
        started = time.monotonic()
        index = _run_with_small_stack(lambda: _build(top))
        assert time.monotonic() - started < 15  # before: 15 s in O(depth²) .gitignore lookups
        assert "top.py" in index.files
        deepest = "d/" * depth + "deep.py"
        assert deepest in index.files or deepest in index.skipped or any(r.startswith("unreadable") for r in index.skipped.values())
    finally:
        remove_tree(top)  # iterative: shutil.rmtree (and pytest's tmp cleanup) recurse and fail at this depth
    assert depth == 2_000


def test_an_enormous_file_is_skipped_without_being_read(tmp_path: Path):
    big = tmp_path / "enormous.py"
    with open(big, "wb") as fh:
        fh.truncate(3_000_000_000)  # 3 GB sparse file
    (tmp_path / "small.py").write_text("def small():\n    pass\n")
    before = _rss_mb()
    index = _build(tmp_path)
    assert "maxFileBytes" in index.skipped["enormous.py"]
    assert _rss_mb() - before < 200
    status = index.status()
    assert {"path": "enormous.py", "reason": index.skipped["enormous.py"]} in status["skipped"]


def test_many_files_time_and_memory_stay_bounded_and_status_says_what_was_skipped(tmp_path: Path):
    n_unsupported, n_empty = 20_000, 5_000  # bench_hardening.py runs the 100,000-file version
    for d in range(50):
        (tmp_path / f"d{d}").mkdir()
    for i in range(n_unsupported):
        (tmp_path / f"d{i % 50}" / f"f{i}.txt").write_bytes(b"")
    for i in range(n_empty):
        (tmp_path / f"d{i % 50}" / f"e{i}.py").write_bytes(b"")
    for i in range(300):
        (tmp_path / f"d{i % 50}" / f"x{i}.min.js").write_bytes(b"")
    before = _rss_mb()
    started = time.monotonic()
    index = _build(tmp_path)
    assert time.monotonic() - started < 60
    assert _rss_mb() - before < 600
    status = index.status()
    assert status["files"] == n_empty
    assert status["skippedTotal"] == 300 and len(status["skipped"]) == 50
    assert all(s["reason"] == "generated or minified" for s in status["skipped"])
