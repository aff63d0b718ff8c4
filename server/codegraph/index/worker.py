"""What a parse worker process runs, importable on its own: a spawned worker (the LSP server
has threads, so it cannot fork) imports only this, the extractor and the cache encoding, not
networkx or the resolver."""

from __future__ import annotations

import gc
from contextlib import contextmanager

from .extract import SourceError, decode_source, extract, parse, reading_language, sha256
from ..model.facts import FileFacts
from .store import Blob, encode


@contextmanager
def no_cyclic_gc(freeze: bool = False):
    """Bulk loads allocate about a million long-lived objects (Django), and CPython's cyclic GC
    would rescan the growing heap again and again: a third of a warm start, a seventh of a cold
    one, measured. Facts hold no reference cycles, so collection waits until the load is done;
    `freeze` then moves the survivors out of every later scan (they are still freed by refcount)."""
    enabled = gc.isenabled()
    if freeze:
        gc.collect()  # garbage that exists now must not be frozen with the index (cheap: frozen objects are not scanned)
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        if freeze:
            gc.freeze()


def extract_raw(args: tuple[str, str, bytes]) -> tuple[str, FileFacts | None, str]:
    rel, language, raw = args
    try:
        source = decode_source(raw, language)
        language = reading_language(language, source)
        tree = parse(language, source)
        return rel, extract(rel, language, source, tree, sha256(raw), len(raw)), ""
    except SourceError as exc:
        return rel, None, str(exc)
    except (RecursionError, MemoryError, ValueError) as exc:  # a hostile file never stops the index
        return rel, None, f"extraction failed ({type(exc).__name__})"


def extract_batch(batch: list[tuple[str, str, bytes]]) -> list[tuple[str, tuple[str, Blob] | None, str]]:
    """Worker side: facts travel back as cache rows (sha, blob), which the main
    process decodes faster than it unpickles the same objects."""
    out = []
    with no_cyclic_gc():
        for rel, facts, reason in map(extract_raw, batch):
            out.append((rel, (facts.sha256, encode(facts)) if facts is not None else None, reason))
    return out
