"""The learned ranking: how likely a candidate is a body the answer needs.

A logistic model over `features.FEATURES`, standardized; its weights are fitted on the
development set's fit split by `bench/fit_explore.py` (chosen by leave-one-corpus-out
validation) and shipped as `ranker_weights.json`. Plain Python at run time: the server needs
no learning library.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from .features import FEATURES

WEIGHTS_FILE = Path(__file__).with_name("ranker_weights.json")


@dataclass(frozen=True)
class Model:
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    alpha: float = 0.5  # selection: probability per character ** alpha

    @classmethod
    def from_json(cls, data: dict) -> "Model":
        names = tuple(data["features"])
        if names != FEATURES:
            missing = sorted(set(FEATURES) - set(names))
            extra = sorted(set(names) - set(FEATURES))
            raise ValueError(f"ranker weights do not match the features (missing {missing}, unknown {extra}): refit with bench/fit_explore.py")
        return cls(names, tuple(data["mean"]), tuple(data["scale"]), tuple(data["coef"]), float(data["intercept"]), float(data.get("alpha", 0.5)))

    def to_json(self) -> dict:
        return {"features": list(self.features), "mean": list(self.mean), "scale": list(self.scale), "coef": list(self.coef), "intercept": self.intercept, "alpha": self.alpha}

    def probability(self, row: list[float]) -> float:
        z = self.intercept
        for x, m, s, c in zip(row, self.mean, self.scale, self.coef):
            z += c * (x - m) / s
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


_model: Model | None = None


def model() -> Model:
    global _model
    if _model is None:
        _model = Model.from_json(json.loads(WEIGHTS_FILE.read_text()))
    return _model


def use(m: Model | None) -> None:
    """Replace the shipped model (the bench's leave-one-corpus-out folds); None restores it."""
    global _model
    _model = m
