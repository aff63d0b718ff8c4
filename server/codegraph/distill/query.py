"""Scenario B: a directed question seeds the selection with the symbols it names.

Seeds come from exact symbol matches first, then from identifiers in paths and first doc
lines; a token that matches too many units names nothing in particular and is dropped. A
question in plain words ("how are blueprints registered?") names few symbols: the remaining
places go to the units a learned ranking judges most likely needed for it (explore's, wired in
by requests.py: the engines do not import each other). A plain word names a unit ahead of the
ranking's places only where the ranking lists it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .topology import Model


@dataclass(frozen=True)
class Ranking:
    """A learned judgement of which units a question needs, from the layer above the engines."""

    rank: Callable[[object, str, int], list[str]]  # (index, question, limit) → unit ids, best first
    identity: str  # its weights' digest: part of a question pack's cache key


RANKING: Ranking | None = None  # requests.py wires in explore's learned ranking; without it, named seeds only


def use_ranking(ranking: Ranking | None) -> None:
    global RANKING
    RANKING = ranking

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
STOP = frozenset("""a an and are as at be by does do for from how in into is it of on or the this that to what when where
which who why with without does after before between via then there their its code repo repository project""".split())
MAX_SEEDS = 6
MAX_MATCHES_PER_TOKEN = 5


def tokens(question: str) -> list[str]:
    out = []
    for tok in TOKEN.findall(question):
        if len(tok) >= 3 and tok.lower() not in STOP:
            out.append(tok)
    return list(dict.fromkeys(out))


def seeds(question: str, model: Model, ranked: list[str] = ()) -> list[str]:
    """The question's named symbols first, then `ranked` (unit ids, best first), up to MAX_SEEDS.

    A plain word ("run", "handler": no dot, underscore or inner capital) names the definitions of
    that name only where the ranking lists them too; the others come after the ranking's places
    ("how does the IOLoop run callbacks?" gave four unrelated `run` methods four of six places).
    A name defined several times in one file (overloads, a function defined in two branches) takes
    one place, its largest definition: the one with the code (rxjs's `mergeMap` took four)."""
    listed = set(ranked)
    named = named_seeds(question, model)
    first = [u for u, strong in named if strong or u in listed]
    later = [u for u, strong in named if not strong and u not in listed]
    callables = [u for u in ranked if u in model.units and model.units[u].is_callable]
    out: list[str] = []
    for uid in first + callables + later:
        if len(out) >= MAX_SEEDS:
            break
        uid = largest_twin(model, uid)
        if uid not in out:
            out.append(uid)
    return out


def largest_twin(model: Model, uid: str) -> str:
    """The largest definition of the unit's kind and name in its file (of equal sizes the first)."""
    u = model.units[uid]
    twins = [x for x in model.units_in(u.path) if x.qualname == u.qualname and x.kind == u.kind]
    return max(twins, key=lambda x: (x.end_byte - x.start_byte, -x.start_byte)).id


def named_seeds(question: str, model: Model) -> list[tuple[str, bool]]:
    """The units the question's tokens name, best first, each with whether an identifier-shaped
    token (`app.use`, `mergeMap`, `apply_async`) names it rather than only a plain word."""
    by_name: dict[str, list[str]] = {}
    for uid, u in model.units.items():
        if u.kind == "statement":
            continue
        by_name.setdefault(u.name.lower(), []).append(uid)
        by_name.setdefault(u.qualname.lower(), []).append(uid)
    score: dict[str, int] = {}
    strong: set[str] = set()
    for tok in tokens(question):
        key = tok.lower()
        hits = list(dict.fromkeys(by_name.get(key, []) or by_name.get(key.rsplit(".", 1)[-1], [])))
        weight = 3 if "." in tok or any(c.isupper() for c in tok[1:]) or "_" in tok else 2
        if not hits:  # text match: paths and first doc lines
            hits = [uid for uid, u in model.units.items()
                    if u.kind != "statement" and (key in u.path.lower().replace("-", "_") or key in u.doc.lower().split())]
            weight = 1
        if 0 < len(hits) <= MAX_MATCHES_PER_TOKEN:
            for uid in hits:
                score[uid] = score.get(uid, 0) + weight
                if weight == 3:
                    strong.add(uid)
    ranked = sorted(score, key=lambda u: (-score[u], model.stable(u)))
    out = [u for u in ranked if not model.units[u].is_type] or ranked[:MAX_SEEDS]
    return [(u, u in strong) for u in out]


def neighbourhood(model: Model, seed_ids: list[str]) -> set[str]:
    """Where a directed question's skeleton may come from: the seeds, their resolved
    neighbours, and the units of the seeds' own files (package structure, not guesses)."""
    pool = set(seed_ids)
    files = {model.units[s].path for s in seed_ids}
    for s in seed_ids:
        pool |= model.neighbours(s)
    # a seed file's module statements (imports, registrations) only when a seed reaches them: as a
    # file's units they filled a question's stages with `<wiring@N>` import lines
    pool |= {uid for uid, u in model.units.items() if u.path in files and u.kind != "statement"}
    return pool
