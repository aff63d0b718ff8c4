"""Ahead of the next question, while typing pauses: a new index version's explore tables and the
ranked graph's working set, computed before anyone asks.

After an edit, the first question pays for what the new version has not computed yet: the word
index and name table (carried over, `relevance.py`), the families, and — most of it — the callers
of the units the last questions walked (`LikelyGraph.into`: each reads the edges of every unit
that may call it). The language server calls `warm` once its edits are applied and no other
write waits (service.py), so the question that follows a pause finds them done. The answer is the
same either way: the graph memoizes nothing that depends on the order it is asked in.

Then, while nobody asks, the rest of the ranked graph: every unit's edges, then every unit's
callers, main path first. A question on a subject nobody asked about before walks units no earlier
question walked, and their edges and callers were most of its time (`bench_explore.py` on Django:
such questions after an edit took a median 286 ms, p90 1,061 ms, with the working set warmed, and
62 ms, p90 144 ms, with the whole graph; it took 9.6 s of one core). The service starts it once
edits and questions have rested a while longer; it stops at the next request or edit like the
working set, and what it did stays done for this version.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Callable

from ..graph.likely import likely_graph
from ..index.index import RootIndex
from .tables import derived

log = logging.getLogger(__name__)

# The working set is computed most recent first until this much time has passed; what is left
# is computed by the question that needs it, as before.
WARM_SECONDS = 3.0


def warm(index: RootIndex, checkpoint: Callable[[], None], seconds: float = WARM_SECONDS, whole: bool = True) -> int:
    """The tables, the callers and edges of the last version's most recently asked units (for at
    most `seconds`), then — `whole` — every unit's edges and callers; returns how many units'
    callers or edges it computed (or found computed). `checkpoint` raises to stop it (an edit or
    a question arrived)."""
    if not index.ready or not index.files:
        return 0
    checkpoint()
    derived(index)
    graph = likely_graph(index)
    deadline = time.monotonic() + seconds
    done = 0
    for callers, unit_id in reversed(list(graph.asked)):  # the last question's first
        if time.monotonic() >= deadline:  # seconds 0: the working set was warmed already
            break
        checkpoint()
        (graph.prefill_into if callers else graph.prefill_out)(unit_id)
        done += 1
    if whole:
        units = graph.walk_order()[:WHOLE_GRAPH_UNITS]
        for prefill in (graph.prefill_out, graph.prefill_into):  # a unit's callers read their edges
            for unit_id in units:
                checkpoint()
                prefill(unit_id)
            done += len(units)
    return done


# The whole graph costs memory and time (on Django, 11,539 units: 26–46 MB and about 10 s of one core):
# beyond this many units only the first this many (main path first) are computed ahead.
WHOLE_GRAPH_UNITS = 40_000


# The working set outlives the server: written beside the fact cache when the workspace closes,
# read after the next start's first build, so the first question after a restart is warm too.
WORKING_SET_KEPT = 4096
WORKING_SET_MAX_BYTES = 4_000_000


def _working_set_file(index: RootIndex) -> Path | None:
    store = getattr(index, "store", None)
    return None if store is None else store.path.with_name(store.path.stem + "-working.json")


def remember(index: RootIndex) -> None:
    """Writes the ranked graph's working set beside the fact cache (nothing without a cache)."""
    path = _working_set_file(index)
    graph = index.memo.get("likely")
    if path is None or graph is None or not getattr(graph, "asked", None):
        return
    data = [[int(callers), unit_id] for callers, unit_id in list(graph.asked)[-WORKING_SET_KEPT:]]
    try:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError as exc:
        log.info("working set not written: %s", exc)


def recall(index: RootIndex) -> int:
    """The last session's working set, as the graph's asks (units that no longer exist left out);
    how many. A missing, broken or foreign file recalls nothing."""
    path = _working_set_file(index)
    if path is None:
        return 0
    try:
        if path.stat().st_size > WORKING_SET_MAX_BYTES:
            return 0
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return 0
    units = index.resolver.units
    asked = [(bool(row[0]), row[1]) for row in data if isinstance(row, list) and len(row) == 2
             and row[0] in (0, 1) and isinstance(row[1], str) and row[1] in units] if isinstance(data, list) else []
    graph = likely_graph(index)
    if asked and not graph.asked:  # a question already asked this session knows better
        graph.asked = dict.fromkeys(asked)
    return len(asked)
