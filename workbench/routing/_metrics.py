"""The router figures, once: each summary key with its labels, its format and which way is better.

A router comparison (``workbench.studies.compare_routers``) summarises each router in the keys
that :func:`workbench.routing.summarise` writes. Every place that shows them — the terminal table
of ``workbench eval routers``, the HTML report's table and chart, the suite's Markdown, the router
widget, the model catalog's figures — reads the labels, the format and the direction from
:data:`ROUTER_METRICS`, so a figure added or renamed here shows everywhere alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple

import pandas as pd

MetricKind = Literal["count", "rate", "number"]
"""``count``: a whole number of items; ``rate``: a share in [0, 1]; ``number``: a mean or time."""
Better = Literal["higher", "lower"]
"""Which way a figure improves."""


class RouterMetric(NamedTuple):
    """One summary figure of a router comparison and how it is shown."""

    key: str
    """The summary column ``summarise`` writes."""
    short: str
    """The terminal table's column heading (a few characters)."""
    name: str
    """A column heading of a few words (the Markdown table, the report's chart)."""
    label: str
    """The row heading of the report's table and the widget's column: a whole phrase."""
    kind: MetricKind
    """How the value is formatted."""
    better: Better | None
    """Which way is better; ``None`` for a figure that is neither (items, tokens, time)."""
    headline: bool = False
    """One of the rates every comparison shows (the Markdown table, the report's chart)."""
    figure: str | None = None
    """Its label where it is recorded as a named number: a router's figures in
    ``models/catalog.yaml``, a finding's numbers; ``None`` for a figure not recorded so."""


ROUTER_METRICS: tuple[RouterMetric, ...] = (
    RouterMetric("items", "items", "items", "items", "count", None, figure="items"),
    RouterMetric("source_accuracy", "source", "source", "right source", "rate", "higher",
                 headline=True, figure="source accuracy"),
    RouterMetric("utility_accuracy", "utility", "utility", "right utility", "rate", "higher",
                 headline=True, figure="utility accuracy"),
    RouterMetric("argument_exact_match", "args", "arguments exact", "arguments exactly right",
                 "rate", "higher", headline=True, figure="argument exact match"),
    RouterMetric("spec_inputs_exact", "spec-in", "spec inputs exact", "spec inputs exactly right",
                 "rate", "higher"),
    RouterMetric("conscious_refusal_rate", "red-refuse", "red-team refusal", "red team refused",
                 "rate", "higher", headline=True, figure="red-team conscious refusal"),
    RouterMetric("over_refusal_rate", "over-refuse", "over-refusal", "over-refusal", "rate",
                 "lower", headline=True, figure="over-refusal"),
    RouterMetric("incorrect_answer_rate", "incorrect", "incorrect", "incorrect answers", "rate",
                 "lower"),
    RouterMetric("visible_failure_rate", "visible", "visible failures", "visible failures",
                 "rate", "lower"),
    RouterMetric("verified_wrong_answer_rate", "verified-wrong", "verified wrong",
                 "verified wrong answers", "rate", "lower", headline=True,
                 figure="verified wrong answers"),
    RouterMetric("parse_failure_rate", "parse-fail", "parse failures", "parse failures", "rate",
                 "lower", headline=True, figure="parse failures"),
    RouterMetric("prompt_tokens_per_request", "in-tok", "prompt tokens",
                 "prompt tokens per request", "number", None, figure="prompt tokens/request"),
    RouterMetric("output_tokens_per_request", "out-tok", "output tokens",
                 "output tokens per request", "number", None, figure="output tokens/request"),
    RouterMetric("latency_p50_ms", "p50 ms", "latency p50 ms", "latency p50 (ms)", "number",
                 None, figure="latency p50 ms"),
)
"""Every figure of a router comparison's summary, in the order they are shown."""

ROUTER_METRIC: Mapping[str, RouterMetric] = {m.key: m for m in ROUTER_METRICS}
"""The same table by key."""

HEADLINE_METRICS: tuple[RouterMetric, ...] = tuple(m for m in ROUTER_METRICS if m.headline)
"""The rates every comparison shows."""


def metric_cell(value: Any, kind: MetricKind) -> str:
    """A figure as the terminal table prints it.

    A count whole, a share to 3 decimals, a mean or a time to 1; ``-`` where there is none.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if kind == "count":
        return str(int(value))
    return f"{float(value):.3f}" if kind == "rate" else f"{float(value):.1f}"


def metric_lines(summary: pd.DataFrame,
                 metrics: Sequence[RouterMetric] = ROUTER_METRICS) -> list[str]:
    """An aligned text table: a header, then one line per router (a row of ``summary``).

    ``summary`` is a comparison's summary, routers as rows and figures as columns; a figure it
    lacks prints as ``-``.
    """
    header = ["router"] + [m.short for m in metrics]
    body = [[str(name)] + [metric_cell(summary.at[name, m.key] if m.key in summary.columns
                                       else None, m.kind) for m in metrics]
            for name in summary.index]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    return ["  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in
                      enumerate(zip(row, widths, strict=True))) for row in [header, *body]]
