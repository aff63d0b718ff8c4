"""The persistent fact cache: warm restarts re-parse nothing unchanged; a bad cache is never trusted."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from codegraph.index.index import RootIndex
from codegraph.index.store import SCHEMA, FactStore

LANG_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lang"


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(LANG_FIXTURES / "python", root, ignore=shutil.ignore_patterns("expected.json"))
    return root


def build(root: Path, cache: Path, **kw) -> tuple[RootIndex, object]:
    index = RootIndex(root, cache_dir=cache, **kw)
    stats = index.build()
    index.close()
    return index, stats


def facts_of(index: RootIndex) -> dict:
    return {p: (f.units, f.calls, f.imports, f.supertypes) for p, f in index.files.items()}


def edges_of(index: RootIndex) -> dict:
    return {p: b.edges for p, b in index.bindings.items()}


def cache_file(cache: Path) -> Path:
    (path,) = list(cache.glob("facts-*.sqlite3"))
    return path


def test_warm_restart_parses_no_unchanged_file(repo, tmp_path):
    cold, s1 = build(repo, tmp_path / "c")
    warm, s2 = build(repo, tmp_path / "c")
    assert (s1.parsed, s1.from_cache) == (4, 0)
    assert (s2.parsed, s2.from_cache) == (0, 4)
    assert facts_of(warm) == facts_of(cold) and edges_of(warm) == edges_of(cold)


def test_changing_one_file_reparses_exactly_that_file(repo, tmp_path):
    build(repo, tmp_path / "c")
    (repo / "app/registry.py").write_text((repo / "app/registry.py").read_text() + "\n\ndef extra():\n    return build('x')\n")
    index, stats = build(repo, tmp_path / "c")
    assert (stats.parsed, stats.from_cache) == (1, 3)
    assert "extra" in {u.name for u in index.files["app/registry.py"].units}


def test_deleted_file_leaves_the_cache(repo, tmp_path):
    build(repo, tmp_path / "c")
    (repo / "app/registry.py").unlink()
    build(repo, tmp_path / "c")
    rows = sqlite3.connect(cache_file(tmp_path / "c")).execute("SELECT path FROM files").fetchall()
    assert ("app/registry.py",) not in rows


def _assert_rebuilt(repo, cache, reference):
    index, stats = build(repo, cache)
    assert (stats.parsed, stats.from_cache) == (4, 0)
    assert facts_of(index) == facts_of(reference) and edges_of(index) == edges_of(reference)
    _, again = build(repo, cache)  # and the rebuilt cache is good again
    assert (again.parsed, again.from_cache) == (0, 4)
    return stats


def test_garbage_cache_file_is_discarded_and_rebuilt(repo, tmp_path):
    reference, _ = build(repo, tmp_path / "c")
    cache_file(tmp_path / "c").write_bytes(b"\x00garbage, not sqlite\xff" * 500)
    stats = _assert_rebuilt(repo, tmp_path / "c", reference)
    assert "discarded" in stats.cache_note


def test_truncated_cache_file_is_discarded_and_rebuilt(repo, tmp_path):
    reference, _ = build(repo, tmp_path / "c")
    path = cache_file(tmp_path / "c")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    _assert_rebuilt(repo, tmp_path / "c", reference)


def test_cache_with_garbage_facts_rows_is_not_trusted(repo, tmp_path):
    reference, _ = build(repo, tmp_path / "c")
    conn = sqlite3.connect(cache_file(tmp_path / "c"))
    conn.execute("UPDATE files SET facts = '[\"python\", 1, 2'")
    conn.commit()
    conn.close()
    index, stats = build(repo, tmp_path / "c")
    assert stats.parsed == 4
    assert facts_of(index) == facts_of(reference)


def test_damaged_calls_are_caught_at_load_not_when_first_read(repo, tmp_path):
    # Calls are decoded lazily; a row whose calls text was damaged (still valid SQLite, even
    # valid JSON) must be re-parsed at load instead of failing in some later request.
    reference, _ = build(repo, tmp_path / "c")
    conn = sqlite3.connect(cache_file(tmp_path / "c"))
    conn.execute("UPDATE files SET calls = '[]' WHERE calls != '[]'")
    damaged = conn.total_changes
    conn.commit()
    conn.close()
    assert damaged > 0
    index, stats = build(repo, tmp_path / "c")
    assert stats.parsed == damaged
    assert facts_of(index) == facts_of(reference)
    assert edges_of(index) == edges_of(reference)


def test_cached_calls_decode_on_first_read_and_equal_parsed_ones(repo, tmp_path):
    from codegraph.index.facts import DeferredCalls

    reference, _ = build(repo, tmp_path / "c")
    index, stats = build(repo, tmp_path / "c")
    assert stats.from_cache == len(index.files)
    deferred = [f.calls for f in index.files.values()]
    assert all(isinstance(c, DeferredCalls) for c in deferred)
    assert all("pending" in repr(c) for c in deferred)  # nothing read them on the way to ready
    for path, facts in index.files.items():
        assert facts == reference.files[path] and hash(facts) == hash(reference.files[path])
        assert list(facts.calls) == list(reference.files[path].calls) and len(facts.calls) == len(reference.files[path].calls)
        assert facts.names_referenced() == reference.files[path].names_referenced()


def _set_meta(cache: Path, key: str, value: str) -> None:
    conn = sqlite3.connect(cache_file(cache))
    conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.commit()
    conn.close()


def test_cache_of_a_foreign_root_is_discarded(repo, tmp_path):
    reference, _ = build(repo, tmp_path / "c")
    _set_meta(tmp_path / "c", "root", "/somewhere/else")
    stats = _assert_rebuilt(repo, tmp_path / "c", reference)
    assert "foreign" in stats.cache_note


def test_cache_of_an_old_schema_is_discarded(repo, tmp_path):
    reference, _ = build(repo, tmp_path / "c")
    _set_meta(tmp_path / "c", "schema", "codegraph-facts-0")
    assert SCHEMA != "codegraph-facts-0"
    _assert_rebuilt(repo, tmp_path / "c", reference)


def test_cache_written_by_another_interpreter_is_discarded(repo, tmp_path):
    # rows are marshal bytes, whose format belongs to the Python that wrote them
    reference, _ = build(repo, tmp_path / "c")
    _set_meta(tmp_path / "c", "codec", "marshal 3, Python 3.4")
    _assert_rebuilt(repo, tmp_path / "c", reference)


def test_rows_of_another_extractor_version_are_reparsed(repo, tmp_path):
    reference, _ = build(repo, tmp_path / "c")
    conn = sqlite3.connect(cache_file(tmp_path / "c"))
    conn.execute("UPDATE files SET version = 'old'")
    conn.commit()
    conn.close()
    _assert_rebuilt(repo, tmp_path / "c", reference)


def test_cache_dir_override_is_where_the_cache_lives(repo, tmp_path):
    build(repo, tmp_path / "custom" / "place")
    assert len(list((tmp_path / "custom" / "place").glob("facts-*.sqlite3"))) == 1


def test_cache_dir_accepts_a_string(repo, tmp_path):
    store = FactStore(repo, str(tmp_path / "s"))
    store.close()
    assert list((tmp_path / "s").glob("facts-*.sqlite3"))


def test_use_cache_false_writes_nothing(repo, tmp_path):
    cache = tmp_path / "c"
    _, stats = build(repo, cache, use_cache=False)
    assert stats.parsed == 4
    assert not cache.exists() or list(cache.iterdir()) == []


def test_cli_no_cache_writes_nothing(repo, tmp_path):
    cache = tmp_path / "c"
    out = subprocess.run(
        [sys.executable, "-m", "codegraph.cli", "index", str(repo), "--no-cache", "--cache-dir", str(cache)],
        capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert not cache.exists() or list(cache.iterdir()) == []


def test_cli_cache_dir_gives_a_warm_second_run(repo, tmp_path):
    cmd = [sys.executable, "-m", "codegraph.cli", "index", str(repo), "--cache-dir", str(tmp_path / "c")]
    subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=True)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=True).stdout
    assert "(0 parsed, 4 from cache)" in out


def test_edits_are_written_through_to_the_cache(repo, tmp_path):
    index = RootIndex(repo, cache_dir=tmp_path / "c")
    index.build()
    text = (repo / "app/registry.py").read_text()
    index.open_document("app/registry.py", text)
    (repo / "app/registry.py").write_text(text + "\ndef late():\n    pass\n")
    index.close_document("app/registry.py")  # re-reads disk, commits, writes the row
    index.close()
    warm, stats = build(repo, tmp_path / "c")
    assert (stats.parsed, stats.from_cache) == (0, 4)
    assert "late" in {u.name for u in warm.files["app/registry.py"].units}


def test_store_round_trip_keeps_every_fact_equal():
    from codegraph.index.store import decode, encode

    for lang_dir in sorted(LANG_FIXTURES.iterdir()):
        index = RootIndex(lang_dir, use_cache=False)
        index.build()
        for path, facts in index.files.items():
            back = decode(path, facts.sha256, encode(facts))
            assert (back.units, back.calls, back.imports, back.supertypes, back.package) == (
                facts.units, facts.calls, facts.imports, facts.supertypes, facts.package), path
            hash(back.units)  # tuples all the way down


def _edges(index: RootIndex) -> dict:
    return {p: (sorted(map(repr, b.edges)), b.unresolved) for p, b in index.bindings.items()}


def test_stored_bindings_are_reused_only_for_the_same_snapshot(repo, tmp_path, monkeypatch):
    from codegraph.bindings.resolve import Resolver

    build(repo, tmp_path / "c")  # cold: resolves and stores the snapshot's bindings
    calls = []
    original = Resolver.resolve_file
    monkeypatch.setattr(Resolver, "resolve_file", lambda self, path: calls.append(path) or original(self, path))
    warm, _ = build(repo, tmp_path / "c")
    assert calls == []  # nothing changed: no resolution at all
    fresh = RootIndex(repo, use_cache=False)
    fresh.build()
    assert _edges(warm) == _edges(fresh)

    (repo / "app/registry.py").write_text((repo / "app/registry.py").read_text() + "\n\ndef late():\n    return 1\n")
    changed, _ = build(repo, tmp_path / "c")
    assert calls  # another snapshot: resolved again, never the stored bindings
    fresh = RootIndex(repo, use_cache=False)
    fresh.build()
    assert _edges(changed) == _edges(fresh)


def test_a_dropped_index_is_freed_by_reference_counting(tmp_path: Path):
    # A build freezes what it allocated out of the cyclic GC's scans (a third of a warm start on
    # Django), which is only sound while the index holds no reference cycles: one would leak it.
    import weakref

    from codegraph.explore.engine import explore
    from codegraph.explore.model import ExploreRequest

    root = Path(__file__).resolve().parents[1] / "fixtures" / "explore" / "family-python"
    index = RootIndex(root, cache_dir=tmp_path / "cache")
    index.build(workers=1)
    explore(index, ExploreRequest(query="How does execute_sql reach as_sql?", max_output_chars=4000), lambda: None)
    assert "explore" in index.memo
    index.status()
    index.close()
    refs = [weakref.ref(index), weakref.ref(index.graph), weakref.ref(index.resolver), weakref.ref(index.store)]
    del index
    assert [r() is None for r in refs] == [True] * 4
