"""What explore derives from a whole snapshot and a CLI run would otherwise compute again each
time: the BM25 word index (`relevance.WordIndex`) and the ranked graph's computed edges and
callers (`LikelyGraph.out` / `into`), kept in the fact cache's `derived` table.

Each process of the CLI starts with nothing in memory: on netty (2,563 Java files) the word
index took 2.5 s of a 6.5 s question and the callers the question walked 0.8 s; on the
TypeScript compiler's repository (32,000 files) 11 s and 4 s. A row is valid only for the key
it is stored under: the snapshot's fingerprint (every path and content hash, the resolver's code
and the facts model with its EXTRACTOR_VERSION, the workspace's module mapping), the code of the
whole package (a changed rule or word splitter is a changed table) and FORMAT. An edited file is
another snapshot: its tables are built again and stored in place of the old ones. Bytes that do
not decode into the tables this snapshot would build (a damaged or foreign row) are dropped and
the tables built: never an exception, never a wrong answer.

The answer is the same either way: the word index is a function of the files' facts and text,
and the ranked graph memoizes nothing that depends on the order it is asked in (warm.py)."""

from __future__ import annotations

import functools
import hashlib
import logging
import marshal
import zlib
from array import array
from pathlib import Path

from ..graph.likely import likely_graph
from ..graph.rules import Likely
from ..index.index import RootIndex, snapshot_fingerprint
from .relevance import WordIndex

log = logging.getLogger(__name__)

FORMAT = 1  # the rows' layout below: bump when it changes
WORDS, GRAPH = "explore-words", "explore-graph"
# The ranked graph's edges and callers kept: the most recent this many units' of each (a CLI
# question on the TypeScript compiler computes about 5,000; a server's whole-graph warm-up far more).
GRAPH_KEPT = 60_000
MAX_BYTES = 64_000_000  # a row larger than this, compressed, is not written

# Errors that bytes which are not what was written can raise while decoded.
_BAD = (ValueError, TypeError, KeyError, IndexError, EOFError, OverflowError, AttributeError, zlib.error)


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """The package's code: a table from another version of any rule is never reused."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for source in sorted(package.rglob("*.py")):
        digest.update(str(source.relative_to(package)).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def snapshot_key(index: RootIndex) -> str:
    """This version's key (computed once per version)."""
    hit = index.memo.get("snapshot-key")
    if hit is not None and hit[0] == index.version:
        return hit[1]
    key = hashlib.sha256(f"{_code_digest()}\0{snapshot_fingerprint(index.files, index.resolver.workspace_fingerprint())}".encode()).hexdigest()
    index.memo["snapshot-key"] = (index.version, key)
    return key


def _store(index: RootIndex):
    return getattr(index, "store", None)


# ---- the word index ------------------------------------------------------------------------
class StoredPostings:
    """word → {unit id: term frequency}, decoded word by word as the question's words are met
    (a question reads a few dozen of the index's tens of thousands of words)."""

    __slots__ = ("_raw", "_ids", "_done")

    def __init__(self, raw: dict[str, tuple[bytes, bytes]], ids: list[str]) -> None:
        self._raw, self._ids, self._done = raw, ids, {}

    def get(self, word: str, default=None):
        hit = self._done.get(word)
        if hit is None:
            raw = self._raw.get(word)
            if raw is None:
                return default
            hit = self._done[word] = _posting(raw, self._ids)
        return hit

    def __getitem__(self, word: str) -> dict[str, int]:
        hit = self.get(word)
        if hit is None:
            raise KeyError(word)
        return hit

    def __contains__(self, word: object) -> bool:
        return word in self._raw

    def __iter__(self):
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def keys(self):
        return self._raw.keys()

    def items(self):
        return ((w, self[w]) for w in self._raw)

    def values(self):
        return (self[w] for w in self._raw)


def _posting(raw: tuple[bytes, bytes], ids: list[str]) -> dict[str, int]:
    at, tfs = raw
    positions = array("I")
    positions.frombytes(at)
    counts = array("I")
    counts.frombytes(tfs)
    if len(positions) != len(counts):
        raise ValueError("posting of unequal lengths")
    return dict(zip(map(ids.__getitem__, positions), counts))


def _unit_ids(index: RootIndex) -> list[str]:
    """The ids `WordIndex` lists, in its order: every unit but module statements, file by file."""
    return [u.id for facts in index.files.values() for u in facts.units if u.kind != "statement"]


def encode_words(words: WordIndex) -> bytes:
    ids = list(words.units)
    at = {uid: i for i, uid in enumerate(ids)}
    postings = {w: (array("I", map(at.__getitem__, p)).tobytes(), array("I", p.values()).tobytes()) for w, p in words.postings.items()}
    return zlib.compress(marshal.dumps((FORMAT, ids, [words.lengths[uid] for uid in ids], postings)), 1)


def decode_words(index: RootIndex, data: bytes) -> WordIndex:
    """The word index these bytes hold for this snapshot; ValueError (or another of `_BAD`) when
    they do not fit it."""
    fmt, ids, lengths, raw = marshal.loads(zlib.decompress(data))
    if fmt != FORMAT or not isinstance(raw, dict) or not isinstance(lengths, list):
        raise ValueError("another format")
    if ids != _unit_ids(index) or len(lengths) != len(ids) or not all(type(n) is int for n in lengths):
        raise ValueError("another snapshot's units")
    for w, pair in raw.items():
        if not (isinstance(w, str) and isinstance(pair, tuple) and len(pair) == 2 and all(type(b) is bytes for b in pair)):
            raise ValueError("a posting of another shape")
        if len(pair[0]) != len(pair[1]) or len(pair[0]) % 4:
            raise ValueError("a posting of unequal lengths")
    words = WordIndex({}, None)
    sources = index.sources
    words._read = {p: (f, sources.get(f.path)) for p, f in index.files.items()}
    words.units = {u.id: u for facts in index.files.values() for u in facts.units if u.kind != "statement"}
    words.lengths = dict(zip(ids, lengths))
    n = len(ids)
    for at, _ in raw.values():  # every position a unit's: checked once here, never while asked
        positions = array("I")
        positions.frombytes(at)
        if positions and max(positions) >= n:
            raise ValueError("a posting names no unit")
    words.postings = StoredPostings(raw, ids)  # type: ignore[assignment]
    words._measure()
    return words


def load_words(index: RootIndex) -> WordIndex | None:
    """The stored word index of this very snapshot, or None (none stored, another snapshot's, or
    bytes that do not decode: the caller builds it)."""
    store = _store(index)
    if store is None:
        return None
    data = store.load_derived(WORDS, snapshot_key(index))
    if data is None:
        return None
    try:
        return decode_words(index, data)
    except _BAD as exc:
        log.warning("stored word index unusable (%s): building it", exc)
        return None


# ---- the ranked graph's computed edges -------------------------------------------------------
def _rows(table: dict[str, list[Likely]]) -> dict[str, list[tuple]]:
    kept = list(table.items())[-GRAPH_KEPT:]
    return {uid: [tuple(e) for e in edges] for uid, edges in kept}


def encode_graph(outs: dict[str, list[Likely]], into: dict[str, list[Likely]]) -> bytes:
    return zlib.compress(marshal.dumps((FORMAT, _rows(outs), _rows(into))), 1)


def _edges(rows: object, units: dict) -> dict[str, list[Likely]]:
    if not isinstance(rows, dict):
        raise ValueError("a table of another shape")
    out: dict[str, list[Likely]] = {}
    for uid, edges in rows.items():
        if uid not in units or not isinstance(edges, list):
            raise ValueError("edges of no unit")
        row = []
        for e in edges:
            if not (isinstance(e, tuple) and len(e) == 5 and type(e[2]) is int and type(e[3]) is float and isinstance(e[4], str)):
                raise ValueError("an edge of another shape")
            if e[0] not in units or e[1] not in units:
                raise ValueError("an edge to no unit")
            row.append(Likely(*e))
        out[uid] = row
    return out


def load_graph(index: RootIndex) -> tuple[int, int]:
    """Fills this snapshot's ranked graph with the edges and callers stored for it; how many of
    each. A unit computed already keeps its own."""
    store = _store(index)
    if store is None:
        return 0, 0
    data = store.load_derived(GRAPH, snapshot_key(index))
    if data is None:
        return 0, 0
    units = index.resolver.units
    try:
        fmt, outs, into = marshal.loads(zlib.decompress(data))
        if fmt != FORMAT:
            raise ValueError("another format")
        outs, into = _edges(outs, units), _edges(into, units)
    except _BAD as exc:
        log.warning("stored ranked graph unusable (%s): computing it", exc)
        return 0, 0
    graph = likely_graph(index)
    with graph._lock:
        for uid, edges in outs.items():
            graph._outs.setdefault(uid, edges)
        for uid, edges in into.items():
            graph._into.setdefault(uid, edges)
    return len(outs), len(into)


def loaded(index: RootIndex) -> None:
    """The stored tables of this snapshot put in place (the first version's explore tables call
    it): the ranked graph's edges now; the word index is read by `tables.derived`."""
    outs, into = load_graph(index)
    index.memo["persisted"] = {"version": index.version, "key": snapshot_key(index), "outs": outs, "into": into}


def keep(index: RootIndex) -> None:
    """Stores what this session built and the cache does not hold for its snapshot: the word
    index when it was built rather than read, the ranked graph when it computed more than it
    read. Called when the workspace closes."""
    store = _store(index)
    d = index.memo.get("explore")
    if store is None or not index.ready or d is None or d.version != index.version:
        return
    key = snapshot_key(index)
    if d.memo.get("words-read") != key:
        _put(store, WORDS, key, lambda: encode_words(d.words))
    graph = index.memo.get("likely")
    if graph is not None and graph.version == index.version:
        had = index.memo.get("persisted") or {}
        same = had.get("version") == index.version and had.get("key") == key
        outs, into = dict(graph._outs), dict(graph._into)
        if len(outs) > (had["outs"] if same else 0) or len(into) > (had["into"] if same else 0):
            _put(store, GRAPH, key, lambda: encode_graph(outs, into))


def _put(store, name: str, key: str, encode) -> None:
    try:
        data = encode()
    except (ValueError, TypeError, OverflowError) as exc:  # pragma: no cover - tables are plain data
        log.warning("%s not stored (%s)", name, exc)
        return
    if len(data) <= MAX_BYTES:
        store.put_derived(name, key, data)
