"""Catch-up from disk for a root nobody sends file events for (the MCP server has no editor).

Before each request the root is rescanned and every file's (mtime_ns, size) compared with the
last scan's; changed, new and deleted files go through `RootIndex.refresh_path`, the same
incremental path as an LSP file event. A file whose mtime is too recent to trust (same-tick
edits) is re-checked by content hash on the next scan. While nothing the last walk saw has changed
(`quiet`: a stat per directory and file, no walk), there is nothing to rescan: on Django that look
takes about a fifth of the walk's time.
"""

from __future__ import annotations

import logging
import os
import time

from .extract import sha256
from .index import RootIndex

log = logging.getLogger(__name__)

RACY_NS = 2_000_000_000  # an mtime this close to the stat time may hide a same-tick second edit


class DiskWatch:
    """(mtime_ns, size) per in-scope file of one root; `catch_up` feeds differences to the index."""

    def __init__(self, index: RootIndex) -> None:
        self.index = index
        self.stats: dict[str, tuple[int, int]] = {}
        self.racy: set[str] = set()
        self.seen: dict[str, tuple[int, int]] = {}  # what the last walk saw (ScanResult.seen)
        self.seen_racy = False

    def _stat_all(self, files: dict[str, str]) -> dict[str, tuple[int, int]]:
        now = time.time_ns()
        out: dict[str, tuple[int, int]] = {}
        racy: set[str] = set()
        for rel in files:
            try:
                st = os.stat(self.index.root / rel)
            except OSError:
                continue
            out[rel] = (st.st_mtime_ns, st.st_size)
            if st.st_mtime_ns > now - RACY_NS:
                racy.add(rel)
        self.racy = racy
        return out

    def snapshot(self) -> None:
        """Taken just before the first build, so an edit during the build is caught next time."""
        scan = self.index.scope.scan()
        self.stats = self._stat_all(scan.files)
        self._saw(scan.seen)

    def quiet(self) -> bool:
        """Nothing the last walk saw changed: no directory it walked (an entry added, removed or
        renamed changes its mtime) and no file it met (a .gitignore too), and none of them so recent
        that a second edit in the same tick could hide. A stat each, no walk, no ignore rules:
        about a fifth of a scan's time."""
        if not self.seen or self.seen_racy or self.racy:
            return False
        root = str(self.index.root)
        for rel, sig in self.seen.items():
            try:
                st = os.stat(os.path.join(root, rel) if rel else root)
            except OSError:
                return False
            if (st.st_mtime_ns, st.st_size) != sig:
                return False
        return True

    def _saw(self, seen: dict[str, tuple[int, int]]) -> None:
        now = time.time_ns()
        self.seen = seen
        self.seen_racy = any(mtime > now - RACY_NS for mtime, _ in seen.values())

    def catch_up(self) -> list[str]:
        """Applies what changed on disk since the last scan and settles; returns the paths touched."""
        index = self.index
        started = time.perf_counter()
        if self.quiet():
            return []
        index.scope.forget_ignore_rules()  # pick up .gitignore edits too
        previous_racy = self.racy
        scan = index.scope.scan()
        current = self._stat_all(scan.files)
        changed = [rel for rel, sig in current.items() if self.stats.get(rel) != sig]
        for rel in sorted(previous_racy & current.keys()):
            if self.stats.get(rel) == current[rel] and self._content_changed(rel):
                changed.append(rel)
        gone = [rel for rel in (set(index.files) | set(self.stats)) if rel not in current]
        # deferred: many changed files (a branch switch) settle their dependents once, below
        for rel in sorted(set(changed)):
            index.refresh_path(rel, defer=True)
        for rel in sorted(gone):
            if rel in index.files:
                index.refresh_path(rel, defer=True)
            if rel not in scan.skipped:
                index.forget_deleted(rel)
        index.settle()
        self.stats = current
        self._saw(scan.seen)
        touched = sorted(set(changed) | set(gone))
        if touched:
            log.info("catch-up: %d file(s) refreshed in %.1f ms (%s)", len(touched), (time.perf_counter() - started) * 1000, ", ".join(touched[:5]))
        return touched

    def _content_changed(self, rel: str) -> bool:
        facts = self.index.files.get(rel)
        if facts is None:
            return True
        try:
            raw = (self.index.root / rel).read_bytes()
        except OSError:
            return True
        return sha256(raw) != facts.sha256
