"""The distill floor: PageRank over proven edges, top units in full until the frame is full.

    python bench/baseline_centrality.py distill ROOT --format json

Behind the CLI's interface (`run.py distill --cg` scores it like the engine): it indexes ROOT
with codegraph's own index (tests excluded, as distill does), ranks every definition by
PageRank over the proven call/construct edges, and lists the top definitions whose bodies fit
the 22,016-byte frame (at most 32), in the engine's JSON shape (`files`, `sources` with
`file`, `lines`, `bytes`, `roles`). Roles by plain degree: no callers → entry, no callees →
sink, else core. It is a floor to beat, not a product.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FRAME = 22_016
MAX_UNITS = 32


def ranked(model) -> list[str]:
    defs = [uid for uid, u in model.units.items() if u.kind != "statement"]
    keep = set(defs)
    out = {u: sorted(d for d in model.out.get(u, ()) if d in keep) for u in defs}
    pr = pagerank(defs, out)
    return sorted(defs, key=lambda u: (-pr[u], model.order[u]))


def pagerank(nodes: list[str], out: dict[str, list[str]], alpha: float = 0.85, rounds: int = 50) -> dict[str, float]:
    """Power iteration; dangling mass spread evenly (plain Python: the server has no numpy)."""
    n = len(nodes) or 1
    rank = dict.fromkeys(nodes, 1.0 / n)
    for _ in range(rounds):
        dangling = sum(rank[u] for u in nodes if not out[u])
        new = dict.fromkeys(nodes, (1 - alpha) / n + alpha * dangling / n)
        for u in nodes:
            if out[u]:
                share = alpha * rank[u] / len(out[u])
                for v in out[u]:
                    new[v] += share
        rank = new
    return rank


def pack(model) -> dict:
    files: list[dict] = []
    file_ix: dict[str, int] = {}
    sources, used = [], 0
    for uid in ranked(model):
        u = model.units[uid]
        size = u.end_byte - u.start_byte
        if used + size > FRAME:
            continue
        used += size
        if u.path not in file_ix:
            file_ix[u.path] = len(files)
            files.append({"path": u.path})
        role = "TRIGGER_ENTRY" if not model.inc.get(uid) else "PERSISTENCE_SINK" if not model.out.get(uid) else "STATE_ORCHESTRATE"
        sources.append({"file": file_ix[u.path], "symbol": u.qualname, "lines": [u.start_line, u.end_line],
                        "bytes": size, "roles": [role]})
        if len(sources) >= MAX_UNITS:
            break
    return {"files": files, "sources": sources}


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "distill":
        print(__doc__, file=sys.stderr)
        return 2
    from codegraph import service
    from codegraph.distill.topology import build_model
    from codegraph.workspace.scope import ScopeConfig

    root = Path(argv[1]).resolve()
    workspace = service.Workspace(service.CLI, service.IndexOptions(ScopeConfig(), None, True))
    index = workspace.add_root(root.as_uri())
    [stats] = workspace.build_now(lambda *a: None)
    if stats is None:
        print(f"baseline: {workspace.failed[root.as_uri()]}", file=sys.stderr)
        return 2
    try:
        out = pack(build_model(index))
    finally:
        workspace.close()
    sys.stdout.write(json.dumps({"pack": out}, sort_keys=True, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
