"""Ahead of the next question, while typing pauses: a new index version's explore tables and the
ranked graph's working set, computed before anyone asks.

After an edit, the first question pays for what the new version has not computed yet: the word
index and name table (carried over, `relevance.py`), the families, and — most of it — the callers
of the units the last questions walked (`LikelyGraph.into`: each reads the edges of every unit
that may call it). The language server calls `warm` once its edits are applied and no other
write waits (service.py), so the question that follows a pause finds them done. The answer is the
same either way: the graph memoizes nothing that depends on the order it is asked in.
"""

from __future__ import annotations

import time
from typing import Callable

from ..graph.likely import likely_graph
from ..index.index import RootIndex
from .tables import derived

# The working set is computed most recent first until this much time has passed; what is left
# is computed by the question that needs it, as before.
WARM_SECONDS = 3.0


def warm(index: RootIndex, checkpoint: Callable[[], None], seconds: float = WARM_SECONDS) -> int:
    """The tables, and the callers and edges of the last version's most recently asked units;
    returns how many units' callers or edges it computed. `checkpoint` raises to stop it (an edit
    or a question arrived)."""
    if not index.ready or not index.files:
        return 0
    checkpoint()
    derived(index)
    graph = likely_graph(index)
    deadline = time.monotonic() + seconds
    done = 0
    for callers, unit_id in reversed(list(graph.asked)):  # the last question's first
        if time.monotonic() > deadline:
            break
        checkpoint()
        (graph.prefill_into if callers else graph.prefill_out)(unit_id)
        done += 1
    return done
