"""Calibrating the utility doubt (:mod:`workbench.routing._doubt`) on a calibration split.

A router's decisions on the split are scored item by item (:func:`workbench.routing.evaluate_router`);
each utility call it made is labelled wrong where the item was not right: the wrong utility, a wrong,
missing or unexpected value, a call where the gold is a refusal or a quote. For each threshold ``t``
of a fixed grid, the calls under ``t`` are the ones a doubt of ``t`` refuses, and the null hypothesis
"more than ``beta`` of them are right" is tested with the exact binomial p-value
``P[Binomial(n, beta) <= k]`` (``n`` calls under ``t``, ``k`` right) at level ``delta`` over the
grid's size (Bonferroni, so every rejection holds together with probability ``1 - delta``). The
doubt is the loosest threshold rejected: it refuses the most calls of which, with that probability,
at most ``beta`` would have been right. This is Learn-then-Test (Angelopoulos et al. 2021) with the
refusal as the action and a lost right call as the loss.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pandas as pd

from workbench.routing._doubt import UtilityDoubt
from workbench.routing._span import class_probability
from workbench.stats import RiskControlError, TooFewAnswersError

BETA = 0.4
"""The promised most share of right calls among the calls the doubt refuses: each right call lost
comes with at least 1.5 wrong calls prevented (a wrong call that returns a result is the worse outcome)."""
DELTA = 0.1
"""The probability the promise may fail."""
GRID = tuple(round(0.05 * i, 2) for i in range(1, 20))
"""The thresholds tested: 0.05 to 0.95 by 0.05."""
MIN_CALLS = 50
"""The fewest utility calls a calibration runs over."""

def doubt_outcomes(rows: pd.DataFrame) -> tuple[list[float], list[bool]]:
    """Each utility call's class probability and whether it was wrong, from an evaluation's rows.

    A decision is a dict, or the JSON text a run record keeps. The probability is the one the
    router wrote in its raw output (:func:`workbench.routing._span.class_output`), to three places.
    """
    scores: list[float] = []
    wrong: list[bool] = []
    for decision, correct in zip(rows["decision"], rows["correct"], strict=True):
        if isinstance(decision, str):  # as a run record keeps it
            decision = json.loads(decision)
        if not decision or decision.get("source") != "utility":
            continue
        probability = class_probability(str(decision.get("raw_output") or ""))
        if probability is None:
            continue  # a call the classifier did not choose by probability (none in a span router)
        scores.append(probability)
        wrong.append(not bool(correct))
    return scores, wrong


def calibrate_utility_doubt(rows: pd.DataFrame, *, router: str, split: str, tasksets: Sequence[str],
                            beta: float = BETA, delta: float = DELTA, grid: Sequence[float] = GRID,
                            min_calls: int = MIN_CALLS, run: str | None = None) -> UtilityDoubt:
    """The utility doubt chosen on ``rows`` (one router's scored items); see the module's text.

    Raises:
        RiskControlError: ``beta`` or ``delta`` outside (0, 1), or a grid threshold outside (0, 1).
        TooFewAnswersError: fewer than ``min_calls`` utility calls.
    """
    from scipy.stats import binom

    if not (0 < beta < 1 and 0 < delta < 1) or not grid or not all(0 < t < 1 for t in grid):
        raise RiskControlError(f"beta {beta:g}, delta {delta:g} and every threshold of the grid must lie "
                               "strictly between 0 and 1")
    scores, wrong = doubt_outcomes(rows)
    if len(scores) < min_calls:
        raise TooFewAnswersError(f"{len(scores)} utility calls on the calibration split; a doubt is "
                                 f"calibrated on at least {min_calls}")
    common = {"router": router, "beta": beta, "delta": delta, "grid": tuple(sorted(grid)),
              "calls": len(scores), "wrong": sum(wrong), "split": split, "tasksets": tuple(tasksets),
              "run": run}
    chosen: tuple[float, int, int, float] | None = None
    for t in sorted(grid):
        under = [w for s, w in zip(scores, wrong, strict=True) if s < t]
        right = under.count(False)
        p_value = float(binom.cdf(right, len(under), beta)) if under else 1.0
        if p_value <= delta / len(grid):
            chosen = (t, len(under), right, p_value)
    if chosen is None:
        return UtilityDoubt(threshold=0.0, refused=0, refused_right=0, p_value=1.0, **common,  # type: ignore[arg-type]
                            no_promise=f"at no threshold of the {len(grid)} tested are the calls under it "
                                       f"right at most {beta:g} of the time with probability {1 - delta:g}")
    t, refused, right, p_value = chosen
    return UtilityDoubt(threshold=t, refused=refused, refused_right=right, p_value=p_value,
                        **common)  # type: ignore[arg-type]


__all__ = ["BETA", "DELTA", "GRID", "MIN_CALLS", "calibrate_utility_doubt", "doubt_outcomes"]
