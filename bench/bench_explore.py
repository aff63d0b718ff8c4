"""Explore on Django 5.2.8: warm latency and output size, adaptive against plain rendering.

    python bench/corpora.py && python bench/bench_explore.py [--cache-dir DIR]

Prints one row per question (cold = first call, which pays jedi's first inferences; warm =
the same question again), then the median and p95 of the warm latencies and the total size
of adaptive vs non-adaptive output. Target (issue 3): warm median ≤ 100 ms on Django.

Then the first question after an edit, as an editor hands one over (`open_document`: a new index
version): explore's word index and name table carried over from the last version
(`WordIndex.updated`, `NameTable.updated`, what the server does) against built again from every
file (what it did before), alternating, one edited
file at a time; the ratio of the medians is the number to compare. Then questions on subjects
none of the above walks, after edits: with the working set warmed against with the whole ranked
graph computed first (explore/warm.py), and that warm-up's time and memory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import require_corpus  # noqa: E402

QUESTIONS = [
    "When I iterate over a QuerySet, how does it become SQL through SQLCompiler.execute_sql and as_sql?",
    "How does a request pass through the middleware chain in BaseHandler.get_response and _get_response?",
    "How does Model.save call save_base and _save_table to insert or update a row?",
    "How does the URL resolver match a path: URLResolver.resolve and URLPattern.resolve?",
    "How does Form.is_valid run full_clean, _clean_fields and _clean_form?",
    "How does Template.render reach NodeList.render and Node.render_annotated?",
    "How does QuerySet.filter build a Q object and reach Query.add_q?",
    "How are migrations applied by MigrationExecutor.migrate and apply_migration?",
    "How does WhereNode.as_sql compile lookups with Lookup.as_sql?",
    "How does authenticate() iterate over backends and call ModelBackend.authenticate?",
    "How does runserver start: Command.inner_run and get_internal_wsgi_application?",
    "How does the cache middleware use UpdateCacheMiddleware.process_response and learn_cache_key?",
    # plain language, no symbol named: the learned ranking alone decides
    "How does a request reach the view function and how is the response returned?",
    "How is a model instance saved to the database?",
    "How are template variables resolved and filters applied when a template renders?",
    "How does the ORM turn a filtered query into SQL?",
    "How are database migrations planned and applied?",
    "How does form validation clean each field and collect errors?",
    "How does the session middleware load and save the session cookie?",
    "How does user authentication check a password against the configured backends?",
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args()
    from codegraph.index.index import RootIndex
    from codegraph.requests import run_explore

    root = require_corpus("django")
    cache = args.cache_dir or tempfile.mkdtemp(prefix="cg-bench-explore-")
    t0 = time.perf_counter()
    index = RootIndex(root, cache_dir=Path(cache))
    index.build()
    print(f"index ready in {time.perf_counter() - t0:.2f} s ({len(index.files)} files)")
    print(f"{'question':<58} {'cold ms':>8} {'warm ms':>8} {'adaptive':>9} {'plain':>7} {'skel':>5} {'flow':>5} {'100K adapt':>10} {'100K plain':>10}")
    warm: list[float] = []
    size_on = size_off = big_on = big_off = 0
    for q in QUESTIONS:
        t = time.perf_counter()
        run_explore(index, {"query": q})
        cold = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        on = run_explore(index, {"query": q})
        w = (time.perf_counter() - t) * 1000
        off = run_explore(index, {"query": q, "adaptive": False})
        # With room to spare, the budget no longer hides what adaptive sizing saves.
        wide_on = run_explore(index, {"query": q, "maxOutputChars": 100_000})
        wide_off = run_explore(index, {"query": q, "maxOutputChars": 100_000, "adaptive": False})
        warm.append(w)
        size_on += len(on["text"])
        size_off += len(off["text"])
        big_on += len(wide_on["text"])
        big_off += len(wide_off["text"])
        print(
            f"{q[:58]:<58} {cold:>8.0f} {w:>8.0f} {len(on['text']):>9} {len(off['text']):>7} {on['stats']['skeletonized']:>5} "
            f"{len(on['flow']):>5} {len(wide_on['text']):>10} {len(wide_off['text']):>10}"
        )
    plain = sorted(warm[-8:])
    warm.sort()
    p95 = warm[min(len(warm) - 1, int(round(0.95 * (len(warm) - 1))))]
    print(f"\nwarm latency: median {statistics.median(warm):.0f} ms, p95 {p95:.0f} ms (target median ≤ 100 ms)")
    p90 = plain[min(len(plain) - 1, int(round(0.9 * (len(plain) - 1))))]
    print(f"plain-language questions: median {statistics.median(plain):.0f} ms, p90 {p90:.0f} ms (target median ≤ 100 ms, p90 ≤ 150 ms)")
    print(f"output at the default budget: adaptive {size_on:,} chars vs plain {size_off:,} chars ({size_on / max(1, size_off):.2f}×)")
    print(f"output at 100,000 chars: adaptive {big_on:,} vs plain {big_off:,} ({big_on / max(1, big_off):.2f}×)")
    after_edit(index, run_explore)
    new_subjects(index, run_explore)
    disk_look(index)
    return 0


# Subjects none of the questions above walks: each is the first of its kind on the index version.
NEW_SUBJECTS = [
    "How does the admin site register a model and build its change list page?",
    "How are signals connected to receivers and sent when a model is saved?",
    "How does the paginator split a list of objects into pages?",
    "How is an email message built and sent through the configured backend?",
    "How does the CSRF middleware check the token on a POST request?",
    "How are uploaded files read from the request and stored?",
    "How does the static files finder locate a file across apps?",
    "How does translation pick the active language and look up a message?",
]


def _rss_mb() -> float:
    """The process's resident memory now (Linux), in MB; 0 where /proc is missing."""
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def new_subjects(index, run_explore, rounds: int = 3) -> None:
    """Questions on subjects nobody asked before (the working set emptied after each edit), on a new
    index version: after the working-set warm-up only, against after the whole ranked graph was
    computed while nobody asked (explore/warm.py), in turn, one edit per round and mode."""
    from codegraph.explore.warm import warm
    from codegraph.graph.likely import likely_graph

    paths = sorted(p for p in index.files if p.endswith(".py"))
    modes = ("working set", "whole graph")
    times: dict[str, list[float]] = {how: [] for how in modes}
    warming: list[float] = []
    rss: list[tuple[float, float]] = []
    for i in range(len(modes) * rounds):
        how = modes[i % len(modes)]
        rel = paths[(i * 104729) % len(paths)]
        index.open_document(rel, index.sources[rel].decode("utf-8", "replace") + f"\n# subject edit {i}\n")
        likely_graph(index).asked = {}  # every question below is on a new subject
        before = _rss_mb()
        t = time.perf_counter()
        warm(index, lambda: None, whole=how == "whole graph")
        if how == "whole graph":
            warming.append(time.perf_counter() - t)
            rss.append((before, _rss_mb()))
        for q in NEW_SUBJECTS:
            t = time.perf_counter()
            run_explore(index, {"query": q})
            times[how].append((time.perf_counter() - t) * 1000)
    ws, whole = (statistics.median(times[how]) for how in modes)
    p90 = {how: sorted(times[how])[int(round(0.9 * (len(times[how]) - 1)))] for how in modes}
    grew = rss[0][1] - rss[0][0]  # the first: later rounds reuse the memory the last version's graph freed
    print(f"questions on new subjects after an edit: median {ws:.0f} ms (p90 {p90['working set']:.0f}) after the working set only, "
          f"{whole:.0f} ms (p90 {p90['whole graph']:.0f}) after the whole graph ({whole / ws:.2f}×); the whole graph took a median "
          f"{statistics.median(warming):.1f} s of one core and {grew:+.0f} MB resident the first time ({len(likely_graph(index).walk_order()):,} units)")


def disk_look(index, runs: int = 5) -> None:
    """What each MCP request pays before it is answered: the catch-up from disk, with nothing
    changed — the quick look (a stat per directory and file) against the full walk it replaces."""
    from codegraph.index.disk import DiskWatch

    watch = DiskWatch(index)
    watch.snapshot()
    trusted = watch.quiet()  # False when the tree's files are too recent to trust a stat alone
    times: dict[str, list[float]] = {"quick": [], "walk": []}
    for i in range(2 * runs):
        how = "quick" if i % 2 == 0 else "walk"
        if how == "walk":
            watch.seen = {}  # nothing known: the full walk, as before the quick look
        t = time.perf_counter()
        watch.catch_up()
        times[how].append((time.perf_counter() - t) * 1000)
    quick, walk = statistics.median(times["quick"]), statistics.median(times["walk"])
    print(f"catch-up from disk with nothing changed (each MCP request): median {quick:.0f} ms quick look, "
          f"{walk:.0f} ms full walk ({quick / walk:.2f}×)"
          + ("" if trusted else "; the tree's files are too recent for the quick look: both walked"))


def after_edit(index, run_explore, edits: int = 6) -> None:
    """The first plain-language question after each of `edits` one-line edits (spread over the
    tree): with the word index and name table updated, rebuilt, or updated and then warmed as the
    language server does while typing pauses (explore/warm.py), in turn."""
    from codegraph.explore.relevance import NameTable, WordIndex
    from codegraph.explore.warm import warm

    carried = WordIndex.updated, NameTable.updated
    rebuilt = (lambda self, files, sources=None: WordIndex(files, sources),  # noqa: E731
               lambda self, files, crates=None, sources=None: NameTable(files, crates, sources))
    paths = sorted(p for p in index.files if p.endswith(".py"))
    modes = ("updated", "rebuilt", "warmed")
    times: dict[str, list[float]] = {how: [] for how in modes}
    warming: list[float] = []
    q = QUESTIONS[-8]
    for i in range(len(modes) * edits):
        how = modes[i % len(modes)]
        WordIndex.updated, NameTable.updated = rebuilt if how == "rebuilt" else carried
        rel = paths[(i * 7919) % len(paths)]
        index.open_document(rel, index.sources[rel].decode("utf-8", "replace") + f"\n# edit {i}\n")
        if how == "warmed":
            t = time.perf_counter()
            warm(index, lambda: None, whole=False)
            warming.append(time.perf_counter() - t)
        t = time.perf_counter()
        run_explore(index, {"query": q})
        times[how].append((time.perf_counter() - t) * 1000)
    WordIndex.updated, NameTable.updated = carried
    up, full, warmed = (statistics.median(times[how]) for how in modes)
    print(f"first question after an edit: median {up:.0f} ms with the word index and name table carried over, {full:.0f} ms rebuilt ({up / full:.2f}×)")
    print(f"  after a pause in typing (the language server's working-set warm-up, median {statistics.median(warming):.1f} s, done first): "
          f"{warmed:.0f} ms ({warmed / full:.2f}× rebuilt, {warmed / up:.2f}× carried over)")


if __name__ == "__main__":
    raise SystemExit(main())
