"""The learned ranking: how likely a candidate is a body the answer needs.

Two logistic stages over `features.FEATURES`, standardized. The first judges each candidate
alone; the second adds what its neighbours among the candidates scored in the first (the best
callee, the best caller, both at once — a step between two strong units — and the sum), so a
unit on the path between strong hits rises though its own words are weak. The weights are
fitted on the development set's fit split by `bench/fit_explore.py` (chosen by
leave-one-corpus-out validation) and shipped as `ranker_weights.json`. Plain Python at run
time: the server needs no learning library.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .features import FEATURES

WEIGHTS_FILE = Path(__file__).with_name("ranker_weights.json")
CONTEXT = ("best_callee", "best_caller", "bridge", "hood_sum", "own_logit", "own_logrank")


@dataclass(frozen=True)
class Linear:
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float

    @classmethod
    def from_json(cls, data: dict) -> "Linear":
        return cls(tuple(data["mean"]), tuple(data["scale"]), tuple(data["coef"]), float(data["intercept"]))

    def to_json(self) -> dict:
        return {"mean": list(self.mean), "scale": list(self.scale), "coef": list(self.coef), "intercept": self.intercept}

    def logit(self, row: list[float]) -> float:
        z = self.intercept
        for x, m, s, c in zip(row, self.mean, self.scale, self.coef):
            z += c * (x - m) / s
        return max(-40.0, min(40.0, z))


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def context_rows(first: list[float], links: list[tuple[list[int], list[int]]]) -> list[list[float]]:
    """CONTEXT per candidate from the first stage's probabilities of its neighbours."""
    order = sorted(range(len(first)), key=lambda i: -first[i])
    rank = {i: r for r, i in enumerate(order)}
    out = []
    for i, (callees, callers) in enumerate(links):
        down = max((first[j] for j in callees if j != i), default=0.0)
        up = max((first[j] for j in callers if j != i), default=0.0)
        hood = sum(first[j] for j in set(callees) | set(callers) if j != i)
        p = min(max(first[i], 1e-6), 1 - 1e-6)
        out.append([down, up, min(down, up), math.log1p(hood), math.log(p / (1 - p)), math.log1p(rank[i])])
    return out


@dataclass(frozen=True)
class Model:
    features: tuple[str, ...]
    first: Linear
    second: Linear | None
    alpha: float = 0.5  # selection: probability per character ** alpha

    @classmethod
    def from_json(cls, data: dict) -> "Model":
        names = tuple(data["features"])
        if names != FEATURES:
            missing = sorted(set(FEATURES) - set(names))
            extra = sorted(set(names) - set(FEATURES))
            raise ValueError(f"ranker weights do not match the features (missing {missing}, unknown {extra}): refit with bench/fit_explore.py")
        second = Linear.from_json(data["second"]) if data.get("second") else None
        return cls(names, Linear.from_json(data["first"]), second, float(data.get("alpha", 0.5)))

    def to_json(self) -> dict:
        return {"features": list(self.features), "first": self.first.to_json(), "second": self.second.to_json() if self.second else None, "alpha": self.alpha}

    def rank(self, rows: list[list[float]], links: list[tuple[list[int], list[int]]]) -> list[float]:
        """The probability that each candidate is a needed body."""
        first = [sigmoid(self.first.logit(r)) for r in rows]
        if self.second is None:
            return first
        return [sigmoid(self.second.logit(r + c)) for r, c in zip(rows, context_rows(first, links))]


_model: Model | None = None


@lru_cache(maxsize=1)
def weights_digest() -> str:
    """The shipped weights' identity (distill's question packs name it in their cache key)."""
    return hashlib.sha256(WEIGHTS_FILE.read_bytes()).hexdigest()[:12]


def model() -> Model:
    global _model
    if _model is None:
        _model = Model.from_json(json.loads(WEIGHTS_FILE.read_text()))
    return _model


def use(m: Model | None) -> None:
    """Replace the shipped model (the bench's leave-one-corpus-out folds); None restores it."""
    global _model
    _model = m
