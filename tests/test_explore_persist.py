"""A CLI run starts with nothing in memory: explore's word index and the ranked graph's computed
edges are kept in the fact cache for the snapshot they were built from (explore/persist.py). The next
run on the same files reads them instead of building them; an edited file, a damaged or a foreign
row builds them again; the answer is always the one a fresh index gives."""

from __future__ import annotations

import json
import marshal
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest

from codegraph import service
from codegraph.explore import relevance
from codegraph.graph.likely import LikelyGraph
from codegraph.service import IndexOptions, Workspace

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "explore" / "family-python"
QUESTION = json.loads((FIXTURE / "gold.json").read_text())["query"]
EDITED = "minorm/sql/compiler.py"
WORDS, GRAPH = "explore-words", "explore-graph"  # the rows explore/persist.py writes


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    return root


def ask(root: Path, cache: Path | None) -> str:
    """One CLI run: a fresh workspace, one question, closed."""
    ws = Workspace(service.CLI, IndexOptions(cache_dir=cache, use_cache=cache is not None))
    ws.add_root(root.resolve().as_uri())
    ws.build_now()
    try:
        return ws.answer_now(service.EXPLORE, {"query": QUESTION, "maxOutputChars": 8000})["text"]
    finally:
        ws.close()


@pytest.fixture
def counted(monkeypatch) -> dict[str, int]:
    """How many units' words were read from source, and how many units' callers were computed."""
    counts = {"words": 0, "into": 0}
    bags, into = relevance._unit_bags, LikelyGraph._compute_into

    def counting_bags(facts, source, words_of):
        for pair in bags(facts, source, words_of):
            counts["words"] += 1
            yield pair

    def counting_into(self, unit_id):
        counts["into"] += 1
        return into(self, unit_id)

    monkeypatch.setattr(relevance, "_unit_bags", counting_bags)
    monkeypatch.setattr(LikelyGraph, "_compute_into", counting_into)
    return counts


def rows(cache: Path) -> dict[str, int]:
    (path,) = cache.glob("facts-*.sqlite3")
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT name, length(data) FROM derived").fetchall())


def test_a_second_run_reads_the_word_index_and_callers_instead_of_building_them(repo, tmp_path, counted):
    first = ask(repo, tmp_path / "c")
    assert counted["words"] > 0 and counted["into"] > 0
    assert set(rows(tmp_path / "c")) == {WORDS, GRAPH}
    counted.update(words=0, into=0)
    second = ask(repo, tmp_path / "c")
    assert (counted["words"], counted["into"]) == (0, 0)
    assert second == first == ask(repo, None)


def test_an_edited_file_builds_them_again_and_the_answer_shows_the_edit(repo, tmp_path, counted):
    ask(repo, tmp_path / "c")
    path = repo / EDITED
    text = path.read_text()
    assert "def execute_sql(self, result_type=MULTI, chunked_fetch" in text
    path.write_text(text.replace("def execute_sql(self, result_type=MULTI, chunked_fetch", "def execute_sql(self, persisted_marker=None, result_type=MULTI, chunked_fetch"))
    counted.update(words=0, into=0)
    answer = ask(repo, tmp_path / "c")
    assert counted["words"] > 0 and counted["into"] > 0  # another snapshot: nothing stored is read
    assert "persisted_marker" in answer
    assert answer == ask(repo, None)
    counted.update(words=0, into=0)
    assert ask(repo, tmp_path / "c") == answer  # the edited snapshot's tables were stored in their place
    assert (counted["words"], counted["into"]) == (0, 0)


def test_a_stored_word_index_is_the_one_a_build_makes(repo, tmp_path):
    from codegraph.explore import persist
    from codegraph.index.index import RootIndex

    index = RootIndex(repo, cache_dir=tmp_path / "c")
    index.build(workers=1)
    built = relevance.WordIndex(index.files, index.sources)
    read = persist.decode_words(index, persist.encode_words(built))
    assert list(read.units) == list(built.units) and read.lengths == built.lengths and read.norm == built.norm
    assert list(read.postings) == list(built.postings)
    for w, posting in built.postings.items():
        assert list(read.postings[w].items()) == list(posting.items()), w
    assert read.score(["sql", "compil", "execut"]) == built.score(["sql", "compil", "execut"])
    index.close()


def _rewrite(cache: Path, name: str, data: bytes, crc: int | None = None) -> None:
    (path,) = cache.glob("facts-*.sqlite3")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE derived SET data = ?, crc = ? WHERE name = ?", (data, zlib.crc32(data) if crc is None else crc, name))


@pytest.mark.parametrize("damage", ["checksum", "not zlib", "not marshal", "wrong shape", "foreign units", "posting past the units"])
def test_a_damaged_or_foreign_row_is_built_again_never_trusted(repo, tmp_path, counted, damage):
    cache = tmp_path / "c"
    first = ask(repo, cache)
    (path,) = cache.glob("facts-*.sqlite3")
    with sqlite3.connect(path) as conn:
        words = dict(conn.execute("SELECT name, data FROM derived").fetchall())[WORDS]
    fmt, ids, lengths, postings = marshal.loads(zlib.decompress(words))
    bad = {
        "not zlib": b"not a compressed row",
        "not marshal": zlib.compress(b"\xff\x00garbage"),
        "wrong shape": zlib.compress(marshal.dumps((fmt, ids, lengths, [1, 2, 3]))),
        "foreign units": zlib.compress(marshal.dumps((fmt, ids[::-1], lengths, postings))),
        "posting past the units": zlib.compress(marshal.dumps((fmt, ids, lengths, {"sql": ((10**6).to_bytes(4, "little"), (1).to_bytes(4, "little"))}))),
    }
    for name in (WORDS, GRAPH):
        if damage == "checksum":
            _rewrite(cache, name, words[:-1] + bytes([words[-1] ^ 1]), zlib.crc32(words))
        else:
            _rewrite(cache, name, bad[damage])
    counted.update(words=0, into=0)
    assert ask(repo, cache) == first
    assert counted["words"] > 0 and counted["into"] > 0
    counted.update(words=0, into=0)
    assert ask(repo, cache) == first  # and stored again, whole
    assert (counted["words"], counted["into"]) == (0, 0)


def test_a_stored_word_index_carries_over_to_an_edited_version(repo, tmp_path):
    # the language server reads the stored index at its first build, then updates it at each edit
    from codegraph.explore import persist
    from codegraph.index.index import RootIndex

    index = RootIndex(repo, cache_dir=tmp_path / "c")
    index.build(workers=1)
    read = persist.decode_words(index, persist.encode_words(relevance.WordIndex(index.files, index.sources)))
    path = repo / EDITED
    path.write_text(path.read_text().replace("def execute_sql(self, result_type=MULTI, chunked_fetch", "def execute_sql(self, persisted_marker=None, result_type=MULTI, chunked_fetch"))
    edited = RootIndex(repo, use_cache=False)
    edited.build(workers=1)
    files, sources = dict(index.files), dict(index.sources)
    files[EDITED], sources[EDITED] = edited.files[EDITED], edited.sources[EDITED]
    updated, built = read.updated(files, sources), relevance.WordIndex(files, sources)
    assert list(updated.units) == list(built.units) and updated.lengths == built.lengths
    assert {w: list(p.items()) for w, p in updated.postings.items()} == {w: list(p.items()) for w, p in built.postings.items()}
    assert "persist" in updated.postings
    index.close()
