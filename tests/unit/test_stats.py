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
