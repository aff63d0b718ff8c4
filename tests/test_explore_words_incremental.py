"""Explore's word index and name table after an edit are those of the new text, read again only
where the text changed.

`WordIndex.updated` carries the last index version's BM25 tables to the next one: a file whose
facts and source are the same objects keeps its entries, a changed, new or deleted file's
entries are cut out and put back in the files' order. Random sequences of edits, new files and
deletions on a copy of a fixture must give exactly — entry for entry, in the same order — what a
`WordIndex` built from scratch over the final index gives, and must read no file that did not
change (on a large code base the full build is seconds; this is the first question after an edit).
`NameTable.updated` does the same for the tables of names and qualified names.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.explore import relevance
from codegraph.explore.relevance import NameTable, WordIndex
from codegraph.index.index import RootIndex
from conftest import FIXTURES

SOURCE = FIXTURES / "explore" / "family-python"
SNIPPETS = [
    "\n\ndef added_helper(query):\n    return query.compile_where()\n",
    "\n\nclass ExtraCompiler:\n    def as_sql(self):\n        return 'SELECT'\n",
    "\n# a comment about compilers and rows\n",
    "\n\ndef broken(:\n",
    "é😀",
]
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("edit"), st.integers(0, 50), st.sampled_from(SNIPPETS), st.booleans()),
        st.tuples(st.just("add"), st.integers(0, 3), st.sampled_from(SNIPPETS), st.booleans()),
        st.tuples(st.just("delete"), st.integers(0, 50), st.just(""), st.booleans()),
    ),
    min_size=1,
    max_size=4,
)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture], derandomize=True)


def _same(a: WordIndex, b: WordIndex) -> None:
    assert list(a.units) == list(b.units)
    assert list(a.lengths.items()) == list(b.lengths.items())
    assert a.avg == b.avg
    assert list(a.norm.items()) == list(b.norm.items())
    assert set(a.postings) == set(b.postings)
    for w, posting in b.postings.items():
        assert list(a.postings[w].items()) == list(posting.items()), w


def _same_names(a: NameTable, b: NameTable) -> None:
    for x, y in zip(a._tables(), b._tables()):
        assert {k for k, v in x.items() if v} == {k for k, v in y.items() if v}
        for key, units in y.items():
            assert [u.id for u in x.get(key, ())] == [u.id for u in units], key


@pytest.fixture
def read_paths(monkeypatch):
    """The files the word index and the name table read (their units' bags and names), in order."""
    seen: list[str] = []
    real_bags, real_names = relevance._unit_bags, relevance._name_entries

    def recording(facts, source, words_of):
        seen.append(facts.path)
        return real_bags(facts, source, words_of)

    def naming(facts):
        seen.append(facts.path)
        return real_names(facts)

    monkeypatch.setattr(relevance, "_unit_bags", recording)
    monkeypatch.setattr(relevance, "_name_entries", naming)
    return seen


@SETTINGS
@given(ops=OPS)
def test_updated_tables_are_the_fresh_ones_and_read_only_changed_files(ops, read_paths):
    root = Path(tempfile.mkdtemp(prefix="cg-words-")) / "root"
    shutil.copytree(SOURCE, root)
    try:
        index = RootIndex(root, use_cache=False)
        index.build(workers=1)
        words = WordIndex(index.files, index.sources)
        names = NameTable(index.files)
        for kind, n, text, via_buffer in ops:
            paths = sorted(index.files)
            if kind == "edit":
                rel = paths[n % len(paths)]
                new = index.sources[rel].decode("utf-8") + text
                if via_buffer:
                    index.open_document(rel, new)
                else:
                    (root / rel).write_text(new, encoding="utf-8")
                    index.refresh_path(rel)
            elif kind == "add":
                rel = f"minorm/added_{n}.py"
                (root / rel).write_text(text.lstrip("\n") + "\n", encoding="utf-8")
                index.refresh_path(rel)
            else:
                rel = paths[n % len(paths)]
                if rel in index.open_docs:
                    continue  # an open buffer outlives its file on disk
                (root / rel).unlink()
                index.refresh_path(rel)
            before = {p: (f, index.sources.get(p)) for p, f in index.files.items()}
            del read_paths[:]
            updated = words.updated(index.files, index.sources)
            updated_names = names.updated(index.files)
            touched = set(read_paths)
            _same(updated, WordIndex(index.files, index.sources))
            _same_names(updated_names, NameTable(index.files))
            kept = {p for p, (f, s) in before.items() if p in words._read and words._read[p][0] is f and words._read[p][1] is s}
            assert not touched & kept, f"read unchanged files {sorted(touched & kept)}"
            words, names = updated, updated_names
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


def test_a_large_change_reads_every_file_again(tmp_path, read_paths):
    """A change to more than a tenth of the files, and more than 16 (a branch switch), builds the
    index from scratch; a smaller one reads only the changed files."""
    for n in range(40):
        (tmp_path / f"mod_{n:02d}.py").write_text(f"def step_{n}(x):\n    return step_{(n + 1) % 40}(x)\n", encoding="utf-8")
    index = RootIndex(tmp_path, use_cache=False)
    index.build(workers=1)
    words = WordIndex(index.files, index.sources)
    few = dict(list(index.files.items())[:-16])  # 16 files gone: updated
    del read_paths[:]
    _same(words.updated(few, index.sources), WordIndex(few, index.sources))
    assert len(read_paths) == 16 + len(few)  # the gone files' words (to cut them out), then the fresh build's
    many = dict(list(index.files.items())[:-17])  # 17 of 40 gone: rebuilt
    del read_paths[:]
    updated = words.updated(many, index.sources)
    assert read_paths == list(many)
    _same(updated, WordIndex(many, index.sources))
