"""Fit distill's anchor score and role model on the development set's fit split.

    python bench/fit_distill.py [--devset DIR] [--features a,b,…|--drop a,b,…] [--C 1.0] [--objective pointwise|listwise] [--l2 100] [--extra]
                                [--role-only a,b,…] [--score-only a,b,…] [--role-C 0.05] [--refresh] [--write] [--save-loco]
                                [--store PATH] [--misses CASE,…] [--role-confusion]

For every fit pack it indexes the corpus (the CLI's cache), describes every candidate unit with
`codegraph.distill.features` (its features and its job features, `ALL_NAMES`) and labels the unit that is each gold anchor (the smallest unit
covering ≥ 90 % of the anchor's lines, no more than twice its size). It then:

- validates leave-one-corpus-out: for each corpus, a model fitted on the others scores that
  corpus's candidates, the selection the engine makes from the scores (`ranker.select`) is
  applied, and the anchors it recalls are counted like the scorer does;
- fits the anchor score (logistic regression, standardized features, L2 with C) and the role
  model (multinomial logistic regression over the anchors' roles, L2 with --role-C, reading the
  --role-only features too — by default the job features and the proven call-graph counts — and not the --score-only ones) on all packs; it also prints the role
  model's leave-one-corpus-out accuracy on every anchor;
- with --misses, prints for those cases each anchor's rank and score under the weights fitted without
  its corpus (or "no unit" when no candidate is it) and the chosen units that are no anchor: what to
  read when a corpus's LOCO recall is low;
- with --role-confusion, prints the role model's LOCO confusion matrix (gold against predicted role on every
  anchor), each confusion with the number of corpora it shows on, and each corpus's confusions;
- with --objective listwise, fits both scores as a softmax over each corpus's candidates (tried, not
  shipped: docs/distill-experiments.md); with --extra, the project's own packs
  (`bench/devset_extra/`) join the fit and the leave-one-corpus-out;
- with --write, writes the weights to `server/codegraph/distill/weights.json` and the per-pack
  LOCO recall to `bench/distill-loco.json` (bench_devset.py prints it); with --save-loco, the LOCO
  recall alone (after an index change whose weights are kept);
- with --e2e, also answers each held-out corpus with the engine itself (in-process, the fold's weights in
  place of the shipped ones): the pack as sent, with the lanes, one-hop boundaries, spill and spares the
  simulation leaves out; with --write or --save-loco its recall goes to `bench/distill-loco-e2e.json`.

Needs scikit-learn (`pip install -e '.[bench]'`); the server only reads the JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from codegraph.distill import features as F  # noqa: E402
from codegraph.distill import ranker  # noqa: E402
from explore_dataset import extra_cases  # noqa: E402

WEIGHTS = REPO / "server" / "codegraph" / "distill" / "weights.json"
LOCO = REPO / "bench" / "distill-loco.json"
LOCO_E2E = REPO / "bench" / "distill-loco-e2e.json"  # the same held out, the engine's own packs (--e2e)
ROLES = ("TRIGGER_ENTRY", "ASSEMBLY_INIT", "STATE_ORCHESTRATE", "PERSISTENCE_SINK", "BOUNDARY")


def covers(u, a) -> float:
    lo, hi = max(u[0], a["line"]), min(u[1], a["end_line"])
    return max(0, hi - lo + 1) / (a["end_line"] - a["line"] + 1)


def corpus_data(root: Path, case: dict) -> dict:
    """Candidates, their line spans and sizes, and the gold anchors' label per candidate."""
    from codegraph import service
    from codegraph.distill.engine import _analysis
    from codegraph.workspace.scope import ScopeConfig

    ws = service.Workspace(service.CLI, service.IndexOptions(ScopeConfig(), None, True))
    index = ws.add_root(root.resolve().as_uri())
    [stats] = ws.build_now(lambda *a: None)
    if stats is None:
        ws.close()
        return {}
    try:
        model, entries, roles, plan, _ = _analysis(index, lambda: False)
        cands = F.candidates(index, model, roles, entries, plan.picks, plan.out)
        units = [model.units[u] for u in cands.uids]
        rows = [r + j for r, j in zip(cands.rows, F.jobs(index, model, cands.uids, roles, plan.picks))]  # ALL_NAMES: the role model's too
    finally:
        ws.close()
    spans = [(u.start_line, u.end_line) for u in units]
    paths = [u.path for u in units]
    label = [-1] * len(units)  # index of the anchor a candidate is
    for ai, a in enumerate(case["anchors"]):
        best = None
        for i, (p, sp) in enumerate(zip(paths, spans)):
            if p == a["path"] and covers(sp, a) >= 0.9:
                size = sp[1] - sp[0] + 1
                if size <= 2 * (a["end_line"] - a["line"] + 1) + 4 and (best is None or size < spans[best][1] - spans[best][0] + 1):
                    best = i
        if best is not None:
            label[best] = ai
    return {"rows": rows, "spans": spans, "paths": paths, "label": label, "anchors": case["anchors"],
            "bytes": [u.end_byte - u.start_byte for u in units], "parents": [u.parent or "" for u in units],
            "uids": cands.uids, "kinds": [u.kind for u in units], "near": cands.near, "group": cands.group, "down": cands.down, "wraps": list(cands.wraps),
            "bodiless": [ranker.no_body(u) for u in units]}


def answer_e2e(root: Path, case: dict, w: dict, devset: Path) -> tuple[float, float | None]:
    """The engine's own pack on one corpus, answered in-process with the weights `w` (`ranker.use`):
    its anchor full recall and role agreement as the development set's scorer counts them. The
    simulation (`evaluate`) counts the selection's 32; the pack adds the lanes, the one-hop boundaries,
    the spill and the spares."""
    from codegraph import service
    from codegraph.distill import engine
    from codegraph.workspace.scope import ScopeConfig

    sys.path.insert(0, str(devset))
    import score  # noqa: E402  (the development set's own scorer)

    ws = service.Workspace(service.CLI, service.IndexOptions(ScopeConfig(), None, True))
    try:
        ws.add_root(root.resolve().as_uri())
        ws.build_now(lambda *a: None)
        ranker.use(ranker.Ranker(w))
        engine._analyses.clear()  # an index version's learned picks and packs are memoized with the weights that made them
        engine._memo.clear()
        pack = ws.answer_now(service.DISTILL, {"format": "json"})["pack"]
    finally:
        ranker.use(None)
        engine._analyses.clear()
        engine._memo.clear()
        ws.close()
    files = pack.get("files", [])
    units = [{"path": files[s["file"]]["path"] if isinstance(s.get("file"), int) else s.get("path"), "start_line": s["lines"][0],
              "end_line": s["lines"][-1], "role": role, "bytes": s.get("bytes")}
             for s in pack.get("sources", []) if s.get("lines") for role in (s.get("roles") or [""])]  # as the scorer's runner reads a pack
    row = score.score_distill(case, {"case_id": case["id"], "units": units})
    return row["anchor_full_recall"], row["role_agreement"]


def recall(d: dict, chosen: list[int]) -> float:
    got = 0
    for a in d["anchors"]:
        lines = set()
        for i in chosen:
            if d["paths"][i] == a["path"]:
                s, e = d["spans"][i]
                lines.update(range(max(s, a["line"]), min(e, a["end_line"]) + 1))
        got += len(lines) / (a["end_line"] - a["line"] + 1) >= 0.9
    return got / len(d["anchors"])


def fit(data: dict, cols: list[int], C: float, extra: dict | None = None):
    """Logistic regression, standardized, each corpus weighing the same; `extra`: per corpus,
    more columns for each candidate (the context of the first score)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    X = np.array([[r[c] for c in cols] + (extra[k][i] if extra else []) for k, d in data.items() for i, r in enumerate(d["rows"])])
    y = np.array([lab >= 0 for d in data.values() for lab in d["label"]])
    mean, scale = X.mean(0), X.std(0) + 1e-9
    # each corpus weighs the same, whatever its size
    w = np.concatenate([np.full(len(d["rows"]), 1.0 / len(d["rows"])) for d in data.values()])
    w = w * len(w) / w.sum()
    m = LogisticRegression(C=C, max_iter=2000, class_weight="balanced").fit((X - mean) / scale, y, sample_weight=w)
    return {"mean": mean.tolist(), "scale": scale.tolist(), "coef": m.coef_[0].tolist(), "intercept": float(m.intercept_[0])}


def fit_listwise(data: dict, cols: list[int], l2: float, extra: dict | None = None):
    """The anchor score fitted listwise: for each corpus, a softmax over its candidates, each of its
    anchors one draw (a conditional logit; each corpus weighs the same), L2 of strength `l2` on the
    standardized weights. The selection ranks one corpus's candidates against each other, and so does
    this objective: a feature whose level moves with the corpus (its size, its language) cannot buy
    a corpus's units a place, only the order within a corpus counts. Then one balanced logistic fit
    of the labels on that score (slope and intercept) puts it on the pointwise model's scale, where
    log-odds 0 is what the engine believes in and the context model reads probabilities."""
    import numpy as np
    from scipy.optimize import minimize
    from sklearn.linear_model import LogisticRegression

    Xs = [np.array([[r[c] for c in cols] + (extra[k][i] if extra else []) for i, r in enumerate(d["rows"])]) for k, d in data.items()]
    ys = [np.array([lab >= 0 for lab in d["label"]], float) for d in data.values()]
    every = np.vstack(Xs)
    mean, scale = every.mean(0), every.std(0) + 1e-9
    zs = [(x - mean) / scale for x in Xs]
    pairs = [(z, y, y.sum()) for z, y in zip(zs, ys) if y.sum() > 0]

    def loss(w):
        total, grad = 0.0, np.zeros_like(w)
        for z, y, k in pairs:
            s = z @ w
            top = s.max()
            e = np.exp(s - top)
            p = e / e.sum()
            total += top + np.log(e.sum()) - (s @ y) / k
            grad += p @ z - (y @ z) / k
        n = len(pairs)
        return total / n + 0.5 * l2 * (w @ w), grad / n + l2 * w

    w = minimize(loss, np.zeros(every.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 1000}).x
    s = np.concatenate([z @ w for z in zs])[:, None]
    weight = np.concatenate([np.full(len(z), 1.0 / len(z)) for z in zs])
    cal = LogisticRegression(C=1.0, class_weight="balanced").fit(s, np.concatenate(ys) > 0, sample_weight=weight * len(weight) / weight.sum())
    a, b = float(cal.coef_[0][0]), float(cal.intercept_[0])
    return {"mean": mean.tolist(), "scale": scale.tolist(), "coef": (a * w).tolist(), "intercept": b}


def fit_roles(data: dict, cols: list[int], C: float):
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    X, y = [], []
    for d in data.values():
        for r, lab in zip(d["rows"], d["label"]):
            if lab >= 0:
                X.append([r[c] for c in cols])
                y.append(ROLES.index(d["anchors"][lab]["role"]))
    X = np.array(X)
    mean, scale = X.mean(0), X.std(0) + 1e-9
    m = LogisticRegression(C=C, max_iter=4000).fit((X - mean) / scale, np.array(y))
    return {"mean": mean.tolist(), "scale": scale.tolist(), "classes": [ROLES[c] for c in m.classes_],
            "coef": m.coef_.tolist(), "intercept": m.intercept_.tolist()}


def fit_all(data: dict, cols: list[int], C: float, names: list[str], stages: int, role_names: list[str] | None = None,
            role_C: float | None = None, l2: float | None = None, context_names=None) -> dict:
    """The anchor score (and with stages=2 the context model over its neighbours' first scores) and the roles
    (over `role_names`, default the anchor's features). With `l2`, both scores are fitted listwise
    (`fit_listwise`), else pointwise with C."""
    def fit_score(extra=None):
        return fit_listwise(data, cols, l2, extra) if l2 is not None else fit(data, cols, C, extra)

    first = fit_score()
    role_names = role_names or names
    w = {"features": names, "anchor": first,
         "role": {**fit_roles(data, [F.ALL_NAMES.index(n) for n in role_names], role_C or C), "features": role_names}}
    if stages == 2:
        context_names = context_names or CONTEXT_NAMES
        every = ranker.CONTEXT + ranker.DIRECTED
        at = [every.index(n) for n in context_names]
        directed = any(n in ranker.DIRECTED for n in context_names)
        r = ranker.Ranker(w)
        extra = {}
        for k, d in data.items():
            rows = [[x[c] for c in cols] for x in d["rows"]]
            ctx = ranker.context([r.score(x) for x in rows], d["near"], d["group"], d.get("down") if directed else None)
            extra[k] = [[c[j] for j in at] for c in ctx]
        w["context"] = fit_score(extra)
        w["context_features"] = list(context_names)
    return w


def choose(d: dict, model, names: list[str]) -> tuple[list[float], list[int]]:
    """The engine's scores and selection on one corpus."""
    ix = [F.NAMES.index(n) for n in names]
    scores = model.scores([[r[i] for i in ix] for r in d["rows"]], d["near"], d["group"], d.get("down"))
    return scores, ranker.select(scores, d["bytes"], d["uids"], d["parents"], d["kinds"], [r[F.NAMES.index("non_arch")] >= 1 for r in d["rows"]],
                                 wraps=d.get("wraps"), bodiless=d.get("bodiless"))


def evaluate(d: dict, w: dict, names: list[str]) -> tuple[float, float]:
    """(recall, role agreement) of the engine's selection from these weights on one corpus."""
    model = ranker.Ranker(w)
    scores, chosen = choose(d, model, names)
    rix = [F.ALL_NAMES.index(n) for n in model.role_names]
    main = dict(zip(chosen, ranker.roles_of(model, [[d["rows"][i][c] for c in rix] for i in chosen], [ranker.believed(scores[i], d["rows"][i]) for i in chosen])))
    hit_roles = []
    for a in d["anchors"]:
        for i in chosen:
            if d["paths"][i] == a["path"] and covers(d["spans"][i], a) >= 0.9:
                hit_roles.append(main[i] == a["role"])
                break
    return recall(d, chosen), (sum(hit_roles) / len(hit_roles) if hit_roles else 0.0)


def role_pairs(d: dict, w: dict) -> list[tuple[str, str]]:
    """The role model alone on every candidate that is an anchor (whether or not it is chosen): (gold, predicted)."""
    model = ranker.Ranker(w)
    rix = [F.ALL_NAMES.index(n) for n in model.role_names]
    return [(d["anchors"][lab]["role"], model.role([r[c] for c in rix])) for r, lab in zip(d["rows"], d["label"]) if lab >= 0]


def confusion(pairs: dict[str, list[tuple[str, str]]]) -> None:
    """The LOCO confusion matrix of gold role (rows) against predicted role (columns) on every anchor, then each
    confusion with the number of corpora it shows on (a cause counts when it shows on three) and per corpus."""
    short = {r: r.split("_")[0][:6] for r in ROLES}
    every = [p for v in pairs.values() for p in v]
    print("gold \\ predicted " + " ".join(f"{short[r]:>7s}" for r in ROLES) + "   total  right")
    for g in ROLES:
        row = [sum(1 for a, b in every if a == g and b == p) for p in ROLES]
        print(f"{short[g]:17s} " + " ".join(f"{n:7d}" for n in row) + f"   {sum(row):5d}  {row[ROLES.index(g)] / max(sum(row), 1):.2f}")
    print("confusions (gold -> predicted): anchors, corpora")
    seen: dict[tuple[str, str], list[str]] = {}
    for case, v in pairs.items():
        for a, b in v:
            if a != b:
                seen.setdefault((a, b), []).append(case)
    for (a, b), cases in sorted(seen.items(), key=lambda kv: (-len(set(kv[1])), -len(kv[1]), kv[0])):
        print(f"  {short[a]:7s}-> {short[b]:7s} {len(cases):4d} anchors on {len(set(cases)):2d} corpora")
    for case, v in pairs.items():
        wrong = sorted({(a, b) for a, b in v if a != b})
        print(f"  {case:28s} {sum(a == b for a, b in v):3d}/{len(v):3d} " +
              ", ".join(f"{short[a]}->{short[b]} {sum(1 for x in v if x == (a, b))}" for a, b in wrong))


def misses(d: dict, w: dict, names: list[str]) -> None:
    """Each anchor of one held-out corpus: hit or miss, its rank and score; then the chosen non-anchors."""
    scores, chosen = choose(d, ranker.Ranker(w), names)
    rank = {i: k for k, i in enumerate(sorted(range(len(scores)), key=lambda i: (-scores[i], i)))}
    unit = {lab: i for i, lab in enumerate(d["label"]) if lab >= 0}
    for ai, a in enumerate(d["anchors"]):
        i = unit.get(ai)
        where = "no unit" if i is None else f"{'hit ' if i in chosen else 'miss'} rank {rank[i]:4d} score {scores[i]:6.2f} {d['bytes'][i]:6d} B"
        print(f"  {a['role'][:6]:6s} {a['symbol'][:44]:44s} {where}")
    print("  chosen, no anchor:")
    for i in chosen:
        if d["label"][i] < 0:
            print(f"    {scores[i]:6.2f} {d['uids'][i]} ({d['bytes'][i]} B)")


# The shipped split of the call-graph counts: the anchor score reads them over the walk's selection
# graph (`sel_*`), the role model over proven calls (docs/distill.md). The defaults below are that
# split, so a plain run measures what ships.
PROVEN_COUNTS = ("log_in", "log_out", "log_out2", "no_callers", "no_callees", "pagerank", "pagerank_rev",
                 "pct_pagerank", "pct_pagerank_rev", "pct_in")
SELECTION_COUNTS = tuple(n for n in F.NAMES if n.startswith("sel_"))
CONTEXT_NAMES = ranker.CONTEXT  # the context model's columns as shipped (--context; ranker.DIRECTED: measured, not shipped)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--devset", default=os.environ.get("CODEGRAPH_DEVSET", str(next((p for p in (REPO.parent / "shared" / "devset", REPO.parent.parent / "shared" / "devset") if p.is_dir()), REPO.parent / "shared" / "devset"))))
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "codegraph-devset"))
    ap.add_argument("--features", default="")
    ap.add_argument("--drop", default="")
    ap.add_argument("--role-only", default=",".join(F.JOB_NAMES + PROVEN_COUNTS),
                    help="features only the role model reads (default: the job features and the proven call-graph counts)")
    ap.add_argument("--score-only", default=",".join(("tiny",) + SELECTION_COUNTS),
                    help="features the role model does not read (default: the ≤ 3 lines flag — the role model reads the size "
                    "as log_bytes — and the selection graph's counts)")
    ap.add_argument("--role-C", type=float, default=0.05, help="the role model's L2 strength (chosen by leave-one-corpus-out)")
    ap.add_argument("--C", type=float, default=1.0, help="the pointwise objective's L2 (with --objective pointwise)")
    ap.add_argument("--objective", choices=("listwise", "pointwise"), default="pointwise",
                    help="the anchor score's objective: a logistic fit over all candidates (shipped), or a softmax over each corpus's (tried)")
    ap.add_argument("--l2", type=float, default=100.0, help="the listwise objective's L2 strength (chosen by leave-one-corpus-out)")
    ap.add_argument("--context", default=",".join(CONTEXT_NAMES), help="the context model's columns")
    ap.add_argument("--stages", type=int, default=2, choices=(1, 2))
    ap.add_argument("--refresh", action="store_true", help="recompute the cached candidate tables")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--save-loco", action="store_true", help="write the per-pack LOCO recall to bench/distill-loco.json, not the weights")
    ap.add_argument("--store", default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "codegraph-fit-distill.pkl"),
                    help="the candidate tables' cache (give each session its own: --refresh rewrites it)")
    ap.add_argument("--extra", action="store_true", help="also the project's own packs (bench/devset_extra/) — in the fit and in the leave-one-corpus-out (with --write they are no longer held out)")
    ap.add_argument("--role-confusion", action="store_true", help="print the LOCO confusion of gold and predicted roles")
    ap.add_argument("--misses", default="", help="cases whose held-out anchors and wrong picks to print")
    ap.add_argument("--e2e", action="store_true", help="also answer each held-out corpus with the engine itself (its fold's weights, in-process)")
    args = ap.parse_args()
    cases = json.load(open(Path(args.devset) / "distill_cases.json"))["cases"]
    if args.extra:  # the project's own answer keys on corpora of neither split (extra_corpora.py fetches them)
        cases += extra_cases("distill")
    store = Path(args.store)
    data = pickle.loads(store.read_bytes()) if store.is_file() and not args.refresh else {}
    if set(data) != {c["id"] for c in cases} or any(len(d["rows"][0]) != len(F.ALL_NAMES) or "wraps" not in d for d in data.values() if d):
        data = {}
        for c in cases:
            data[c["id"]] = corpus_data(Path(args.cache) / c["corpus"], c)
            print(f"{c['id']}: {len(data[c['id']].get('rows', []))} candidates", file=sys.stderr)
        store.write_bytes(pickle.dumps(data))
    data = {k: d for k, d in data.items() if d}
    every_name = [n for n in (args.features.split(",") if args.features else F.ALL_NAMES) if n not in args.drop.split(",")]
    names = [n for n in every_name if n not in args.role_only.split(",")]
    role_names = [n for n in every_name if n not in args.score_only.split(",")]
    cols = [F.NAMES.index(n) for n in names]
    l2 = args.l2 if args.objective == "listwise" else None
    loco, roles, pairs, e2e = {}, {}, {}, {}
    corpus_of = {c["id"]: c for c in cases}
    for case in data:
        rest = {k: d for k, d in data.items() if k != case}
        w = fit_all(rest, cols, args.C, names, args.stages, role_names, args.role_C, l2, args.context.split(","))
        loco[case], roles[case] = evaluate(data[case], w, names)
        if args.e2e:
            e2e[case] = answer_e2e(Path(args.cache) / corpus_of[case]["corpus"], corpus_of[case], w, Path(args.devset))
        pairs[case] = role_pairs(data[case], w)
        if case in args.misses.split(","):
            print(f"{case}: LOCO {loco[case]:.2f}")
            misses(data[case], w, names)
    labelled = {k: sum(lab >= 0 for lab in d["label"]) / len(d["anchors"]) for k, d in data.items()}
    for case in data:
        end = f"  end to end {e2e[case][0]:.2f} roles {e2e[case][1] or 0.0:.2f}" if case in e2e else ""
        print(f"{case:28s} LOCO {loco[case]:.2f} roles {roles[case]:.2f}{end}  (anchors that are units: {labelled[case]:.2f})")
    every = [a == b for v in pairs.values() for a, b in v]
    print(f"LOCO role model on every anchor: {sum(every) / len(every):.3f} ({len(every)} anchors)")
    if args.role_confusion:
        confusion(pairs)
    print(f"LOCO mean {statistics.mean(loco.values()):.3f}, roles {statistics.mean(roles.values()):.3f}, "
          f"min {min(loco.values()):.2f}; ceiling {statistics.mean(labelled.values()):.3f}")
    if e2e:
        print(f"LOCO end to end (the engine's packs, each corpus answered with its fold's weights): mean {statistics.mean(r for r, _ in e2e.values()):.3f}, "
              f"roles {statistics.mean(x or 0.0 for _, x in e2e.values()):.3f}, min {min(r for r, _ in e2e.values()):.2f}")
    w = fit_all(data, cols, args.C, names, args.stages, role_names, args.role_C, l2, args.context.split(","))
    in_sample = {k: evaluate(d, w, names)[0] for k, d in data.items()}
    print(f"fit (in-sample) mean {statistics.mean(in_sample.values()):.3f}")
    if args.write or args.save_loco:
        # the leave-one-corpus-out refits every fold, so it measures the index and the features, not the
        # shipped weights: after an index change it is saved alone (--save-loco), the weights kept
        LOCO.parent.mkdir(exist_ok=True)
        LOCO.write_text(json.dumps({k: round(v, 4) for k, v in loco.items()}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {LOCO}")
        if e2e:
            LOCO_E2E.write_text(json.dumps({k: round(r, 4) for k, (r, _) in e2e.items()}, indent=1, sort_keys=True) + "\n")
            print(f"wrote {LOCO_E2E}")
    if args.write:
        WEIGHTS.write_text(json.dumps(w, indent=1, sort_keys=True) + "\n")
        print(f"wrote {WEIGHTS}")


if __name__ == "__main__":
    main()
