"""The confidence model's weights on disk: plain JSON, checked when read, evaluated in NumPy.

A logistic regression over standardised features: ``p = 1 / (1 + exp(-(b + Σ wᵢ (xᵢ - μᵢ) / σᵢ)))``.
The file holds the feature names in order, their means and scales, the weights and the
intercept, the threshold the training chose on cross-validated dev predictions, and a card of
what it was trained on (question files' and corpus digests, the number of questions, the seed).
Nothing is unpickled: a damaged or mismatched file raises :class:`ConfidenceModelError`.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from workbench.errors import WorkbenchError

SCHEMA = "digit-confidence-logistic/1"
"""The format this module reads and writes; a file that names another is refused."""


class ConfidenceModelError(WorkbenchError):
    """A confidence model file that cannot be read, is damaged, or does not fit this code."""


@dataclass(frozen=True)
class ConfidenceModel:
    """A fitted logistic regression over named, standardised features."""

    features: tuple[str, ...]
    """Feature names, in the order of the weights."""
    mean: tuple[float, ...]
    """Each feature's mean on the training rows."""
    scale: tuple[float, ...]
    """Each feature's standard deviation on the training rows (1 where it was constant)."""
    coef: tuple[float, ...]
    """One weight per standardised feature."""
    intercept: float
    """The bias term."""
    threshold: float = 0.0
    """The threshold the training chose (the setting ``[gates] confidence_threshold`` decides)."""
    card: Mapping[str, Any] = field(default_factory=dict)
    """What it was trained on: question files and their digests, corpus digest, n, seed."""

    def __post_init__(self) -> None:
        n = len(self.features)
        problems = [f"{name} has {len(values)} values for {n} features"
                    for name, values in (("mean", self.mean), ("scale", self.scale),
                                         ("coef", self.coef)) if len(values) != n]
        numbers = [*self.mean, *self.scale, *self.coef, self.intercept, self.threshold]
        if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                   for v in numbers):
            problems.append("a weight, mean, scale or threshold is not a finite number")
        elif any(s <= 0 for s in self.scale):
            problems.append("a scale is not positive")
        if len(set(self.features)) != n:
            problems.append("a feature is named twice")
        if problems:
            raise ConfidenceModelError("confidence model: " + "; ".join(problems))

    def matrix(self, rows: Sequence[Mapping[str, float]]) -> np.ndarray:
        """The model's features of ``rows`` as a matrix (a feature a row lacks reads as 0)."""
        return np.array([[float(row.get(name, 0.0)) for name in self.features] for row in rows],
                        dtype=float).reshape(len(rows), len(self.features))

    def predict_matrix(self, x: np.ndarray) -> np.ndarray:
        """The estimated probability for each row of ``x`` (columns in :attr:`features` order)."""
        z = (x - np.asarray(self.mean)) / np.asarray(self.scale) @ np.asarray(self.coef)
        return 1.0 / (1.0 + np.exp(-(z + self.intercept)))

    def predict(self, values: Mapping[str, float]) -> float:
        """The estimated probability for one feature row."""
        z = self.intercept
        for name, mean, scale, coef in zip(self.features, self.mean, self.scale, self.coef,
                                           strict=True):
            z += coef * (float(values.get(name, 0.0)) - mean) / scale
        return 1.0 / (1.0 + math.exp(-z)) if z >= -700 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form written to disk."""
        return {"schema": SCHEMA, "features": list(self.features), "mean": list(self.mean),
                "scale": list(self.scale), "coef": list(self.coef), "intercept": self.intercept,
                "threshold": self.threshold, "card": dict(self.card)}

    @classmethod
    def from_dict(cls, raw: Any, where: str = "confidence model") -> ConfidenceModel:
        """Read the JSON form back, checking its schema and every field's type.

        Raises:
            ConfidenceModelError: Another schema, a missing or mistyped field, lengths that
                disagree, or a number that is not finite.
        """
        if not isinstance(raw, dict):
            raise ConfidenceModelError(f"{where}: expected a JSON object, got "
                                       f"{type(raw).__name__}")
        if raw.get("schema") != SCHEMA:
            raise ConfidenceModelError(f"{where}: schema {raw.get('schema')!r}, expected "
                                       f"{SCHEMA!r}; retrain with `workbench gates "
                                       f"train-confidence`")
        missing = [k for k in ("features", "mean", "scale", "coef", "intercept") if k not in raw]
        if missing:
            raise ConfidenceModelError(f"{where}: missing field(s) {', '.join(missing)}")
        if not (isinstance(raw["features"], list)
                and all(isinstance(n, str) for n in raw["features"])):
            raise ConfidenceModelError(f"{where}: features must be a list of names")
        for key in ("mean", "scale", "coef"):
            if not isinstance(raw[key], list):
                raise ConfidenceModelError(f"{where}: {key} must be a list of numbers")
        if not isinstance(raw.get("card", {}), dict):
            raise ConfidenceModelError(f"{where}: card must be an object")
        try:
            return cls(features=tuple(raw["features"]), mean=tuple(raw["mean"]),
                       scale=tuple(raw["scale"]), coef=tuple(raw["coef"]),
                       intercept=raw["intercept"], threshold=raw.get("threshold", 0.0),
                       card=dict(raw.get("card", {})))
        except ConfidenceModelError as error:
            raise ConfidenceModelError(f"{where}: {error}") from None

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the JSON form atomically (temp file, then rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n",
                       encoding="utf-8")
        tmp.replace(path)
        return path


def load_confidence_model(path: str | os.PathLike[str],
                          known: Sequence[str] | None = None) -> ConfidenceModel:
    """Read a confidence model file (cached while the file is unchanged).

    Args:
        path: The JSON file.
        known: The feature names this code computes; a model naming another is refused.

    Raises:
        ConfidenceModelError: The file is missing, not JSON, of another schema or damaged, or
            names a feature not in ``known``.
    """
    path = Path(path)
    try:
        stat = path.stat()
    except OSError as error:
        raise ConfidenceModelError(f"confidence model {path}: cannot read it ({error.strerror}); "
                                   f"train one with `workbench gates train-confidence` or set "
                                   f"[gates] confidence_model = \"\"") from None
    model = _load(str(path), stat.st_mtime_ns, stat.st_size)
    if known is not None:
        unknown = [name for name in model.features if name not in set(known)]
        if unknown:
            raise ConfidenceModelError(f"confidence model {path}: feature(s) "
                                       f"{', '.join(unknown)} are not computed by this version; "
                                       f"retrain with `workbench gates train-confidence`")
    return model


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> ConfidenceModel:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ConfidenceModelError(f"confidence model {path}: not a readable JSON file "
                                   f"({error})") from None
    return ConfidenceModel.from_dict(raw, f"confidence model {path}")
