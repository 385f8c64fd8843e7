"""Plotly figures shared by the notebooks, the widgets and the HTML report.

Each is built from a table the analysis functions already computed (nothing here re-runs an
evaluation). Every figure has a title, labelled axes and a fixed height, so it reads the same in
the report, a notebook, or an exported image.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

ANSWERED_CORRECT = "answered, correct"
ANSWERED_WRONG = "answered, wrong"

GATE_COLORS: dict[str, str] = {
    "gate0": "#8250df",
    "threshold": "#0969da",
    "disagreement": "#bf8700",
    "relevance": "#cf222e",
    "verbatim": "#1b7f83",
    "answered": "#8c959f",
}
"""The colours of the built-in gates (and of answered questions), the same in every view."""
_FALLBACK_COLOURS = ("#4c78a8", "#72b7b2", "#b279a2", "#f58518", "#9d755d", "#bab0ac")


def gate_colors(gates: Sequence[str]) -> dict[str, str]:
    """A colour for each of ``gates`` and for ``answered``.

    A built-in gate keeps its colour of :data:`GATE_COLORS`; any other gate (one a researcher
    registered) takes the fallback colours in turn, so the same order always colours the same.
    """
    colours = {"answered": GATE_COLORS["answered"]}
    others = 0
    for gate in gates:
        if gate in GATE_COLORS:
            colours[gate] = GATE_COLORS[gate]
        else:
            colours[gate] = _FALLBACK_COLOURS[others % len(_FALLBACK_COLOURS)]
            others += 1
    return colours
_RIGHT, _WRONG = "#54a24b", "#e45756"
_SOURCE_COLOURS = {"quote": "#4c78a8", "utility": "#f58518", "spec": "#b279a2"}


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"}, height=height,
                      template="plotly_white", margin={"l": 10, "r": 10, "t": 60, "b": 40},
                      legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0.0},
                      font={"size": 12})
    return fig


def gate_firing_figure(attribution: pd.DataFrame, order: Sequence[str], title: str) -> go.Figure:
    """Stacked bars: per question set, how many questions each gate refused first.

    Args:
        attribution: :func:`workbench.gates.gate_attribution` (one row per set and ``all``).
        order: The gate order the attribution used (the stacking order).
        title: The figure title.
    """
    table = attribution.drop(index="all", errors="ignore")
    sets = [str(s) for s in table.index][::-1]  # the first set on top
    fig = go.Figure()
    colours = gate_colors(order)
    segments = [(gate, table[gate], colours[gate]) for gate in order]
    segments.append((ANSWERED_CORRECT, table["answered_correct"], _RIGHT))
    segments.append((ANSWERED_WRONG, table["false_answers"], _WRONG))
    for name, values, colour in segments:
        counts = [int(v) for v in values.to_numpy()][::-1]
        fig.add_trace(go.Bar(name=name, y=sets, x=counts, orientation="h", marker_color=colour,
                             text=[str(c) if c else "" for c in counts], textposition="inside",
                             hovertemplate=f"{name}: %{{x}}<extra>%{{y}}</extra>"))
    fig.update_layout(barmode="stack", legend_traceorder="normal")
    fig.update_xaxes(title_text="questions (first gate that refused, else the answer's outcome)")
    fig.update_yaxes(title_text="question set")
    return _layout(fig, title, 330)


def router_figure(summary: pd.DataFrame, metrics: Sequence[tuple[str, str]], title: str) -> go.Figure:
    """Grouped bars: one group per metric, one bar per router (shares from 0 to 1).

    Args:
        summary: One row per router, one column per figure (a routers run's summary).
        metrics: ``(column, label)`` pairs to draw, in order.
        title: The figure title.
    """
    fig = go.Figure()
    present = [(c, label) for c, label in metrics if c in summary.columns]
    for name in summary.index:
        values = [float(summary.loc[name, c]) if pd.notna(summary.loc[name, c]) else None
                  for c, _ in present]
        fig.add_trace(go.Bar(name=str(name), x=[label for _, label in present], y=values,
                             text=[f"{100 * v:.0f}%" if v is not None else "" for v in values],
                             textposition="outside",
                             hovertemplate="%{x}: %{y:.3f}<extra>" + str(name) + "</extra>"))
    fig.update_layout(barmode="group")
    fig.update_yaxes(title_text="share of items", range=[0, 1.1], tickformat=".0%")
    fig.update_xaxes(title_text="figure")
    return _layout(fig, title, 380)


def catch_rate_figure(per_kind: pd.DataFrame, title: str) -> go.Figure:
    """Horizontal bars: the share of each forgery kind the invariant checker caught.

    Args:
        per_kind: :func:`workbench.answers.catch_rates` (kind, source, forgeries, caught, ...).
        title: The figure title.
    """
    table = per_kind.sort_values(["catch_rate", "kind"], ascending=[False, True])
    fig = go.Figure()
    for source, part in table.groupby("source", sort=False):
        fig.add_trace(go.Bar(
            name=str(source), y=part["kind"], x=part["catch_rate"], orientation="h",
            marker_color=_SOURCE_COLOURS.get(str(source), "#bab0ac"),
            text=[f"{int(c)}/{int(n)}" for c, n in zip(part["caught"], part["forgeries"],
                                                       strict=True)],
            # a short bar cannot hold its label: put it after the bar
            textposition=["inside" if rate >= 0.2 else "outside" for rate in part["catch_rate"]],
            hovertemplate="%{y}: %{x:.1%}<extra>" + str(source) + "</extra>"))
    fig.update_yaxes(categoryorder="array", categoryarray=list(table["kind"])[::-1],
                     title_text="forgery kind")
    fig.update_xaxes(title_text="caught by the invariant checker", range=[0, 1.02], tickformat=".0%")
    return _layout(fig, title, 120 + 22 * len(table))


def drift_figure(counts: dict[str, int], title: str) -> go.Figure:
    """Bars: fragments per drift status (match, drifted, changed, missing_file)."""
    colours = {"match": _RIGHT, "drifted": "#f58518", "changed": _WRONG, "missing_file": "#9d755d"}
    names = list(counts)
    fig = go.Figure(go.Bar(x=names, y=[counts[n] for n in names],
                           marker_color=[colours.get(n, "#bab0ac") for n in names],
                           text=[str(counts[n]) for n in names], textposition="outside",
                           hovertemplate="%{x}: %{y}<extra></extra>"))
    top = max(counts.values(), default=0)
    fig.update_yaxes(title_text="fragments", range=[0, top * 1.15 + 1])
    fig.update_xaxes(title_text="status against the files now")
    return _layout(fig, title, 300)


def sweep_curve_figure(table: pd.DataFrame, curve_by: str, title: str) -> go.Figure:
    """Lines: must-refuse questions refused (x) against answerable ones answered from gold (y).

    One line per value of ``curve_by`` (e.g. the rerank mode), one point per cell, in threshold
    order; a point up and to the right is better on both.
    """
    fig = go.Figure()
    done = table[table["status"] == "ok"]
    for name, cells in done.groupby(curve_by, sort=False):
        cells = cells.sort_values("gates.threshold") if "gates.threshold" in cells else cells
        hover = (cells["gates.threshold"].map(lambda t: f"threshold {t:.4g}")
                 if "gates.threshold" in cells else cells["cell"].astype(str))
        fig.add_trace(go.Scatter(
            x=cells["noans_refused_share"], y=cells["hasans_correct_share"], mode="lines+markers",
            name=str(name), text=hover,
            hovertemplate="%{text}<br>NoAns refused %{x:.1%}<br>HasAns correct %{y:.1%}"
                          "<extra></extra>"))
    fig.update_xaxes(title_text="must-refuse questions refused (NoAns)", range=[0, 1.02],
                     tickformat=".0%")
    fig.update_yaxes(title_text="answerable questions answered from gold (HasAns)",
                     range=[0, 1.02], tickformat=".0%")
    return _layout(fig, title, 420)
