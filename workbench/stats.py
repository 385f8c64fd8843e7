"""Statistical tests shared by the router comparison, the run diff and the end-to-end figures.

One place for the paired test that both use: two runs (or two routers) judged right or wrong on
the same items are compared by the exact McNemar test. One place for how far a share counted on
few items can be trusted: the exact (Clopper-Pearson) interval of a binomial share. One place for
a risk bound with a guarantee: Learn-then-Test's fixed-sequence search for the loosest score
threshold whose share of wrong answers stays under a level with a stated probability.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from workbench.errors import WorkbenchError


class McNemarResult(NamedTuple):
    """The exact McNemar test on paired right/wrong outcomes (unpacks as ``b, c, statistic, p``)."""

    b: int
    """Items where A is right and B is wrong."""
    c: int
    """Items where A is wrong and B is right."""
    statistic: int
    """``min(b, c)``: the exact test's statistic."""
    p_value: float
    """The exact two-sided p-value (1.0 when there is no discordant pair)."""


def _exact_two_sided(k: int, n: int) -> float:
    """``min(1, 2 * sum_{i<=k} C(n, i) / 2**n)`` for ``k <= n/2``, computed exactly."""
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, 2.0 * tail / 2 ** n)


def mcnemar(a_correct: Sequence[bool], b_correct: Sequence[bool]) -> McNemarResult:
    """The exact (binomial) McNemar test on paired right/wrong outcomes.

    Only discordant pairs count: ``b`` items where A is right and B wrong, ``c`` where A is wrong
    and B right. Under the null hypothesis (equal error rates) ``b ~ Binomial(b + c, 1/2)``, so the
    exact two-sided p-value is

        p = min(1, 2 * sum_{i=0}^{min(b, c)} C(b + c, i) * 0.5 ** (b + c))

    (McNemar 1947; the exact form as in Fagerland, Lydersen & Laake 2013, BMC Med. Res. Methodol.
    13:91). With no discordant pairs p is 1.

    Args:
        a_correct: Per item, whether A was right.
        b_correct: Per item, whether B was right (same items, same order).

    Returns:
        ``(b, c, statistic, p_value)`` as a :class:`McNemarResult`.

    Raises:
        ValueError: The two sequences differ in length.
    """
    a = [bool(x) for x in a_correct]
    b_list = [bool(x) for x in b_correct]
    if len(a) != len(b_list):
        raise ValueError(f"paired outcomes differ in length: {len(a)} and {len(b_list)}")
    b = sum(1 for x, y in zip(a, b_list, strict=True) if x and not y)
    c = sum(1 for x, y in zip(a, b_list, strict=True) if y and not x)
    k, n = min(b, c), b + c
    try:
        from scipy.stats import binomtest
    except ImportError:  # scipy is optional; the exact sum is small for task-set sizes
        p_value = _exact_two_sided(k, n)
    else:
        p_value = float(binomtest(k, n, 0.5).pvalue) if n else 1.0
    return McNemarResult(b, c, k, p_value)


def exact_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval of the share ``k / n``.

    The lower end is the ``p`` at which ``P(X >= k) = a / 2``, the upper the ``p`` at which
    ``P(X <= k) = a / 2``, with ``a = 1 - confidence`` (Clopper & Pearson 1934, Biometrika 26:404);
    0 and 1 where ``k`` is 0 or ``n``. No count of a few dozen items says a share is under 1%:
    0 of 64 still allows 5.6%.

    Both ends are the beta quantiles those tail equations solve to (scipy's ``beta.ppf``), a few
    microseconds at any count, so a widget may recompute one per slider move.

    Raises:
        ValueError: ``n`` is not positive, ``k`` is outside 0..n, or ``confidence`` outside (0, 1).
    """
    from scipy.stats import beta

    if n <= 0 or not 0 <= k <= n or not 0.0 < confidence < 1.0:
        raise ValueError(f"no interval for {k} of {n} at confidence {confidence}")
    alpha = (1.0 - confidence) / 2
    low = 0.0 if k == 0 else float(beta.ppf(alpha, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(1.0 - alpha, k + 1, n - k))
    return low, high


def format_p(p_value: float) -> str:
    """A p-value as every face prints it: three significant digits, never rounded to zero.

    ``0.568``, ``0.0421``, ``8.58e-09``; ``1`` when there is no evidence at all. A fixed number
    of decimals would print a tiny p as ``0.0000`` beside the same p elsewhere as ``8.58e-09``.
    """
    p = float(p_value)
    if p != p:  # NaN: not computed
        return "–"
    return f"{p:.3g}" if p >= 1e-3 or p == 0 else f"{p:.2e}"


class RiskControlError(WorkbenchError, ValueError):
    """A risk bound was asked for with a level, a probability or scores it cannot be taken on."""


class TooFewAnswersError(RiskControlError):
    """Too few answered calibration questions to promise anything; the message gives the counts."""


@dataclass(frozen=True)
class RiskBound:
    """A score threshold whose risk is at most ``alpha`` with probability at least ``1 - delta``.

    The guarantee is over the draw of the calibration questions: on new questions drawn like
    them, answering where the score reaches ``threshold`` gives a share of wrong answers of at
    most ``alpha``, except with probability ``delta``.
    """

    alpha: float
    """The risk promised: the most wrong answers per answer."""
    delta: float
    """The probability with which the promise may fail."""
    threshold: float
    """Answer where the score is at least this: the loosest threshold the test let through."""
    answers: int
    """Calibration answers at the threshold (scores at or above it)."""
    wrong: int
    """Wrong answers among them."""
    p_value: float
    """``P[Binomial(answers, alpha) <= wrong]``: the exact p-value of "risk above alpha" there."""
    calibration_answers: int
    """Answered calibration questions the search ran over (the loosest threshold's answers)."""
    tested: int
    """Thresholds tested, strictest first, before the search stopped."""

    @property
    def risk(self) -> float:
        """The share of wrong answers at the threshold on the calibration questions."""
        return self.wrong / self.answers


@dataclass(frozen=True)
class NoPromise:
    """No threshold keeps the risk at most ``alpha`` with probability ``1 - delta``: no promise."""

    alpha: float
    """The risk asked for."""
    delta: float
    """The probability with which it may fail."""
    reason: str
    """Why, with the numbers."""
    calibration_answers: int
    """Answered calibration questions the search ran over."""
    answers: int | None = None
    """Calibration answers at the first threshold that was not rejected (``None``: none tested)."""
    wrong: int | None = None
    """Wrong answers among them."""
    p_value: float | None = None
    """Its exact p-value, above ``delta``."""


def answers_needed(alpha: float, delta: float) -> int:
    """The fewest answers whose risk test can reject "risk above alpha" at level ``delta``.

    With no wrong answer among ``n`` the exact p-value is ``(1 - alpha) ** n``; below this ``n``
    it stays above ``delta`` whatever the labels (at alpha 0.05 and delta 0.1: 45 answers).
    """
    _check_levels(alpha, delta)
    n = max(1, math.ceil(math.log(delta) / math.log1p(-alpha)))
    while n > 1 and (1.0 - alpha) ** (n - 1) <= delta:  # guard the float rounding of the ceil
        n -= 1
    while (1.0 - alpha) ** n > delta:
        n += 1
    return n


def _check_levels(alpha: float, delta: float) -> None:
    bad = [f"{name} = {value!r}" for name, value in (("alpha", alpha), ("delta", delta))
           if not (isinstance(value, int | float) and 0.0 < float(value) < 1.0)]
    if bad:
        raise RiskControlError(f"{' and '.join(bad)}: a risk level and its failure probability "
                               "are each a number strictly between 0 and 1")


def learn_then_test(scores: Sequence[float], wrong: Sequence[bool], alpha: float, delta: float,
                    min_answers: int) -> RiskBound | NoPromise:
    """The loosest score threshold whose risk is at most ``alpha`` with probability ``1 - delta``.

    Learn then Test (Angelopoulos, Bates, Candès, Jordan & Lei 2021, arXiv:2110.01052) with the
    exact binomial p-value and fixed-sequence testing: a threshold ``t`` stands for the null
    hypothesis "the risk of answering where the score reaches ``t`` is above ``alpha``"; with
    ``n`` calibration answers at ``t`` of which ``k`` are wrong, its p-value is
    ``P[Binomial(n, alpha) <= k]`` (valid for a loss that is 0 or 1). The thresholds are tested
    from the strictest down, each at level ``delta`` (a fixed order spends no error budget), and
    the search stops at the first one not rejected; the last one rejected is returned. The
    candidate thresholds are the scores themselves: any fixed grid finer than them tests the
    same ``(n, k)`` pairs, and of the grid points with equal counts this takes the strictest.

    Thresholds answering fewer than :func:`answers_needed` questions cannot be rejected whatever
    their labels, so the sequence starts at the strictest threshold that reaches that count;
    where to start depends on the scores alone, never on which answers are wrong.

    Args:
        scores: The confidence score of each answered calibration question (higher: surer).
        wrong: Whether each answer is wrong (same order).
        alpha: The risk to promise, in (0, 1).
        delta: The probability the promise may fail, in (0, 1).
        min_answers: The fewest answered calibration questions to search over at all.

    Returns:
        A :class:`RiskBound`, or a :class:`NoPromise` saying why none holds; never a threshold
        without its guarantee.

    Raises:
        RiskControlError: ``alpha`` or ``delta`` outside (0, 1), a score that is not a finite
            number, or scores and labels of different lengths.
        TooFewAnswersError: Fewer than ``min_answers`` answered calibration questions.
    """
    _check_levels(alpha, delta)
    values = np.asarray(scores, dtype=float)
    flags = np.asarray(wrong, dtype=bool)
    if values.shape != flags.shape or values.ndim != 1:
        raise RiskControlError(f"{values.size} scores and {flags.size} wrong/right labels: "
                               "one label per score")
    if not np.isfinite(values).all():
        raise RiskControlError(f"{int((~np.isfinite(values)).sum())} of {values.size} scores are "
                               "not finite numbers")
    total = int(values.size)
    if total < min_answers:
        raise TooFewAnswersError(
            f"{total} answered calibration question(s), {int(flags.sum())} of them wrong: a "
            f"promise at risk {alpha:g} asks at least {min_answers} answered questions")
    from scipy.stats import binom

    thresholds = np.unique(values)[::-1]  # strictest first
    order = np.argsort(-values, kind="stable")
    answers = np.searchsorted(-values[order], -thresholds, side="right")
    wrongs = np.concatenate([[0], np.cumsum(flags[order])])[answers]
    p_values = binom.cdf(wrongs, answers, alpha)
    needed = answers_needed(alpha, delta)
    start = int(np.searchsorted(answers, needed))  # answers grow as the threshold loosens
    if start == len(thresholds):
        return NoPromise(alpha, delta, f"the {total} answered calibration questions are fewer "
                         f"than the {needed} a risk of {alpha:g} with probability "
                         f"{1 - delta:g} needs even with none wrong", total)
    chosen, tested = None, 0
    for i in range(start, len(thresholds)):
        tested += 1
        if p_values[i] > delta:
            break
        chosen = i
    if chosen is None:
        n, k, p = int(answers[start]), int(wrongs[start]), float(p_values[start])
        return NoPromise(alpha, delta, f"at the strictest threshold with {n} answers, {k} of "
                         f"them wrong: P[Binomial({n}, {alpha:g}) <= {k}] = {p:.3g} is above "
                         f"{delta:g}", total, n, k, p)
    return RiskBound(alpha=alpha, delta=delta, threshold=float(thresholds[chosen]),
                     answers=int(answers[chosen]), wrong=int(wrongs[chosen]),
                     p_value=float(p_values[chosen]), calibration_answers=total, tested=tested)


__all__ = [
    "McNemarResult",
    "NoPromise",
    "RiskBound",
    "RiskControlError",
    "TooFewAnswersError",
    "answers_needed",
    "exact_interval",
    "format_p",
    "learn_then_test",
    "mcnemar",
]
