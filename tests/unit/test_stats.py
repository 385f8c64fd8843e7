"""One way to print a p-value, used by every face."""

from __future__ import annotations

import pytest

from workbench.stats import format_p


@pytest.mark.parametrize(("p", "text"), [
    (1.0, "1"), (0.5681, "0.568"), (0.04213, "0.0421"), (0.001, "0.001"),
    (8.577708625136334e-9, "8.58e-09"), (0.0, "0"), (float("nan"), "–"),
])
def test_p_values_print_one_way_and_never_as_zero(p: float, text: str) -> None:
    assert format_p(p) == text


def test_every_face_prints_p_through_format_p() -> None:
    """No face formats a p-value with a fixed number of decimals of its own."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"p_value:\.\d[fg]|p_value, \d\)|p=\{p_value:|p\.p_value, \d")
    files = [*root.joinpath("workbench").rglob("*.py"), *root.joinpath("notebooks").rglob("*.py")]
    offenders = [str(f) for f in files if pattern.search(f.read_text(encoding="utf-8"))]
    assert offenders == []


@pytest.mark.parametrize(("k", "n"), [(0, 64), (2, 64), (1, 10), (10, 10), (5, 129), (37, 40)])
def test_the_exact_interval_is_clopper_pearson(k: int, n: int) -> None:
    from workbench.stats import exact_interval

    low, high = exact_interval(k, n)
    assert low <= k / n <= high
    mirrored = exact_interval(n - k, n)  # the interval of the failures mirrors that of the successes
    assert low == pytest.approx(1 - mirrored[1], abs=1e-12)
    assert high == pytest.approx(1 - mirrored[0], abs=1e-12)
    if k == 0:  # the closed forms at the edges: P(X = 0) = (1 - p) ** n = 0.025
        assert low == 0.0 and high == pytest.approx(1 - 0.025 ** (1 / n), abs=1e-12)
    if k == n:
        assert high == 1.0 and low == pytest.approx(0.025 ** (1 / n), abs=1e-12)
    # the defining tails: P(X >= k) = 2.5% at the lower end, P(X <= k) = 2.5% at the upper
    from scipy.stats import binom

    if k > 0:
        assert binom.sf(k - 1, n, low) == pytest.approx(0.025, abs=1e-9)
    if k < n:
        assert binom.cdf(k, n, high) == pytest.approx(0.025, abs=1e-9)
    narrow = exact_interval(k, n, confidence=0.5)
    assert low <= narrow[0] and narrow[1] <= high and narrow[1] - narrow[0] < high - low


def test_the_exact_interval_of_two_in_sixty_four() -> None:
    from workbench.stats import exact_interval

    assert [round(x, 5) for x in exact_interval(2, 64)] == [0.00381, 0.10837]  # as scipy's binomtest gives
    assert exact_interval(0, 64)[1] > 0.05  # none wrong of 64 does not show a share under 1%
    assert exact_interval(0, 368)[1] < 0.01 < exact_interval(0, 367)[1]  # what showing 1% takes
    low, high = exact_interval(50, 5000)  # a large set: no overflow, a narrow interval
    assert 0.0074 < low < 0.01 < high < 0.0132
    for k, n, confidence in ((1, 0, 0.95), (-1, 5, 0.95), (6, 5, 0.95), (1, 5, 1.0)):
        with pytest.raises(ValueError, match="no interval"):
            exact_interval(k, n, confidence)
