"""Statistical tests shared by the router comparison, the run diff and the end-to-end figures.

One place for the paired test that both use: two runs (or two routers) judged right or wrong on
the same items are compared by the exact McNemar test. One place for how far a share counted on
few items can be trusted: the exact (Clopper-Pearson) interval of a binomial share.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple


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


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """``P(X <= k)`` for ``X ~ Binomial(n, p)``, ``0 < p < 1``, summed term by term in logs.

    In logs, because ``C(n, i)`` alone overflows a float past n of about a thousand.
    """
    log_p, log_q, log_n = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return sum(math.exp(log_n - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q)
               for i in range(k + 1))


def _solve(f: Callable[[float], float], target: float) -> float:
    """The ``p`` in [0, 1] where the decreasing ``f(p)`` meets ``target`` (bisection, 60 steps)."""
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        if f(middle) > target:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def exact_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval of the share ``k / n``.

    The lower end is the ``p`` at which ``P(X >= k) = a / 2``, the upper the ``p`` at which
    ``P(X <= k) = a / 2``, with ``a = 1 - confidence`` (Clopper & Pearson 1934, Biometrika 26:404);
    0 and 1 where ``k`` is 0 or ``n``. No count of a few dozen items says a share is under 1%:
    0 of 64 still allows 5.6%.

    Raises:
        ValueError: ``n`` is not positive, ``k`` is outside 0..n, or ``confidence`` outside (0, 1).
    """
    if n <= 0 or not 0 <= k <= n or not 0.0 < confidence < 1.0:
        raise ValueError(f"no interval for {k} of {n} at confidence {confidence}")
    alpha = (1.0 - confidence) / 2
    low = 0.0 if k == 0 else _solve(lambda p: _binomial_cdf(k - 1, n, p), 1.0 - alpha)
    high = 1.0 if k == n else _solve(lambda p: _binomial_cdf(k, n, p), alpha)
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


__all__ = ["McNemarResult", "format_p", "mcnemar"]
