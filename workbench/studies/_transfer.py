"""The bound under shift: a promise calibrated on one corpus, held against the test split of another.

A Learn-then-Test promise ("at most α wrong answers, with probability 1 − δ") holds for questions
drawn like the calibration's. This study measures what it is worth elsewhere: the threshold is
learnt on the calibration rows' split (dev), then applied to the target rows' split (test), and
the realised risk and coverage are set beside the promise, with the label-free shift check
(:func:`~workbench.studies.shift_check`) that should have warned where the two differ.

The rows are those of :func:`~workbench.studies.evaluate_sets` (any corpus, any question file),
with the score column the promise is made on; several calibration runs (two corpora, say) are
pooled by passing their rows concatenated.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from workbench.stats import NoPromise, RiskBound, exact_interval, learn_then_test
from workbench.studies._risk import (
    SCORE_GATES,
    RiskCoverageError,
    ShiftCheck,
    answer_labels,
    score_pool,
    score_values,
    shift_check,
)
from workbench.studies._selection import MUST_REFUSE

MIN_ANSWERS = 30
"""The fewest answered calibration questions the promise is searched over."""


@dataclass(frozen=True)
class Transfer:
    """A promise learnt on one run's split and what it realised on another's."""

    calibrated_on: str
    """A name for the calibration rows (a corpus, or several joined by " + ")."""
    applied_to: str
    """A name for the target rows."""
    alpha: float
    """The risk promised."""
    delta: float
    """The probability the promise may fail."""
    score: str
    """The score column the threshold applies to."""
    bound: RiskBound | NoPromise
    """The Learn-then-Test result on the calibration split (a threshold, or why none holds)."""
    answers: int
    """Target answers at the threshold (0 without a promise)."""
    wrong: int
    """Wrong ones among them."""
    interval: tuple[float, float] | None
    """The exact 95% interval of the realised risk."""
    coverage: float
    """Target answerable questions answered from gold at the threshold ÷ answerable."""
    must_refuse_refused: float | None
    """Target must-refuse questions left unanswered at the threshold ÷ must-refuse questions."""
    shift: ShiftCheck | None
    """The label-free shift check of the target's scores against the calibration's."""

    @property
    def realised(self) -> float | None:
        """The realised risk on the target: wrong ÷ answers (``None`` without an answer)."""
        return self.wrong / self.answers if self.answers else None

    @property
    def kept(self) -> bool | None:
        """Whether the realised risk stayed within the promised α (``None`` without a promise)."""
        if isinstance(self.bound, NoPromise):
            return None
        return self.realised is None or self.realised <= self.alpha

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        out = asdict(self)
        out["bound"] = {"kind": type(self.bound).__name__, **asdict(self.bound)}
        out["realised"] = self.realised
        out["kept"] = self.kept
        return out

    def line(self) -> str:
        """One line: promise, threshold, realised risk and coverage, and the shift check."""
        head = (f"calibrated on {self.calibrated_on}, applied to {self.applied_to}: at most "
                f"{100 * self.alpha:g}% wrong with probability {1 - self.delta:g}")
        if isinstance(self.bound, NoPromise):
            return f"{head} — no promise: {self.bound.reason}"
        realised = ("no answer" if self.realised is None or self.interval is None else
                    f"{self.wrong} of {self.answers} wrong, {100 * self.realised:.1f}% "
                    f"({100 * self.interval[0]:.1f}–{100 * self.interval[1]:.1f}%)")
        refused = ("" if self.must_refuse_refused is None else
                   f", must-refuse refused {100 * self.must_refuse_refused:.1f}%")
        shift = ("" if self.shift is None or self.shift.shifted is None else
                 " — shift check: WARNING, the scores differ" if self.shift.shifted else
                 " — shift check: no difference found")
        return (f"{head}: threshold {self.bound.threshold:.4f} ({self.bound.answers} calibration "
                f"answers, {self.bound.wrong} wrong); realised {realised}, coverage "
                f"{100 * self.coverage:.1f}%{refused}{shift}")


def _split(rows: pd.DataFrame, split: str | None) -> pd.DataFrame:
    return rows if split is None else rows[rows["split"] == split]


def promise_transfer(calibration: pd.DataFrame, target: pd.DataFrame, *, alpha: float,
                     delta: float, score: str = "confidence", calibrated_on: str = "calibration",
                     applied_to: str = "target", calibration_split: str | None = "dev",
                     target_split: str | None = "test", min_answers: int = MIN_ANSWERS,
                     level: float = 0.05) -> Transfer:
    """Learn a threshold on ``calibration``'s split and hold it against ``target``'s.

    The answers a score ranks are those every other gate lets through (the gate that reads the
    score is lifted, :func:`~workbench.studies.score_pool`), on both sides alike.

    Args:
        calibration: Gate-run rows to calibrate on (several runs concatenated pool them).
        target: Gate-run rows to apply the threshold to.
        alpha: The risk to promise, in (0, 1).
        delta: The probability the promise may fail, in (0, 1).
        score: The score column (``confidence`` or ``top_score``).
        calibrated_on: A name for the calibration rows, for the line printed.
        applied_to: A name for the target rows.
        calibration_split: The calibration rows' split to learn on (``None``: all).
        target_split: The target rows' split to apply to (``None``: all).
        min_answers: The fewest answered calibration questions to search over.
        level: The shift check's test level.

    Raises:
        RiskCoverageError: A side lacks the score column or holds no row of its split.
        RiskControlError: ``alpha`` or ``delta`` outside (0, 1).
        TooFewAnswersError: Fewer than ``min_answers`` calibration answers.
    """
    if score not in SCORE_GATES:
        raise RiskCoverageError(f"score {score!r}: known scores are {', '.join(SCORE_GATES)}")
    lifted = (SCORE_GATES[score],)
    sides = {"calibration": _split(calibration, calibration_split),
             "target": _split(target, target_split)}
    for name, rows in sides.items():
        if rows.empty:
            raise RiskCoverageError(f"the {name} rows hold no question of their split")
        if score not in rows.columns or not rows[score].notna().any():
            raise RiskCoverageError(f"the {name} rows carry no {score!r} score")
    cal = sides["calibration"]
    cal_pool = score_pool(cal, lifted=lifted)
    _, cal_right = answer_labels(cal)
    cal_scores = score_values(cal, score)[cal_pool]
    bound = learn_then_test(cal_scores, ~cal_right[cal_pool], alpha, delta, min_answers)
    tgt = sides["target"]
    answerable, right = answer_labels(tgt)
    tgt_pool = score_pool(tgt, lifted=lifted)
    tgt_scores = score_values(tgt, score)
    if isinstance(bound, NoPromise):
        return Transfer(calibrated_on, applied_to, alpha, delta, score, bound, 0, 0, None, 0.0,
                        None, None)
    answered = tgt_pool & (tgt_scores >= bound.threshold)
    n, k = int(answered.sum()), int((answered & ~right).sum())
    must_refuse = tgt["set"].isin(MUST_REFUSE).to_numpy()
    refused = (float((must_refuse & ~answered).sum() / must_refuse.sum())
               if must_refuse.any() else None)
    coverage = float((answered & right).sum() / max(int(answerable.sum()), 1))
    shift = shift_check(cal_scores, tgt_scores[tgt_pool & np.isfinite(tgt_scores)],
                        bound.threshold, level)
    return Transfer(calibrated_on, applied_to, alpha, delta, score, bound, n, k,
                    exact_interval(k, n) if n else None, coverage, refused, shift)


__all__ = ["MIN_ANSWERS", "Transfer", "promise_transfer"]
