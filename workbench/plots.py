"""Plotly figures shared by the notebooks, the widgets and the HTML report.

Each is built from a table the analysis functions already computed (nothing here re-runs an
evaluation). Every figure has a title, labelled axes and a fixed height, so it reads the same in
the report, a notebook, or an exported image.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

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
    order; a point up and to the right is better on both. ``table`` is a sweep's cells (cells
    whose ``status`` is not ``ok`` are left out) or the rows of ``threshold_sweep``.
    """
    fig = go.Figure()
    done = table[table["status"] == "ok"] if "status" in table else table
    # a sweep's cells name the threshold by its settings key; threshold_sweep's rows plainly
    key = next((k for k in ("gates.threshold", "threshold") if k in table), None)
    for name, cells in done.groupby(curve_by, sort=False):
        cells = cells.sort_values(key) if key else cells
        hover = (cells[key].map(lambda t: f"threshold {t:.4g}") if key
                 else cells["cell"].astype(str))
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


RISK_COVERAGE_TITLE = "Risk against coverage; a cross marks where the run's gates answer"
"""The title of :func:`risk_coverage_figure` where no other is given (the report's)."""


def risk_coverage_figure(curves: Mapping[str, Mapping[str, Any]], title: str = RISK_COVERAGE_TITLE,
                         *, chosen: Mapping[str, Any] | None = None) -> go.Figure:
    """Lines of risk against coverage, one per curve, each with a cross at its run's own point.

    Args:
        curves: Curve name -> a curve as :meth:`workbench.studies.RiskCoverage.to_dict` gives it
            (and a run record keeps it): ``points`` (each with ``threshold``, ``risk`` and
            ``coverage``; a threshold no score reaches is ``None``) and ``run`` (the run's own
            ``risk`` and ``coverage``; no cross where its risk is ``None``).
        title: The figure title.
        chosen: One more operating point to mark (``name``, ``risk``, ``coverage``): the point
            a threshold picked on the curve, beside the run's own.
    """
    fig = go.Figure()
    for name, curve in curves.items():
        points = curve.get("points") or []
        fig.add_trace(go.Scatter(
            x=[p["coverage"] for p in points], y=[p["risk"] for p in points],
            mode="lines", name=name,
            text=[f"threshold {p['threshold']}" if p.get("threshold") is not None else ""
                  for p in points],
            hovertemplate="%{text}<br>coverage %{x:.1%}<br>risk %{y:.1%}<extra></extra>"))
        run = curve.get("run") or {}
        if run.get("risk") is not None:
            fig.add_trace(go.Scatter(x=[run["coverage"]], y=[run["risk"]], mode="markers",
                                     marker={"size": 12, "symbol": "x"},
                                     name=f"{name}: operating point"))
    if chosen is not None and chosen.get("risk") is not None:
        fig.add_trace(go.Scatter(x=[chosen["coverage"]], y=[chosen["risk"]], mode="markers",
                                 marker={"size": 12, "symbol": "circle-open",
                                         "line": {"width": 2}},
                                 name=str(chosen.get("name") or "chosen point")))
    fig.update_layout(title=title,
                      xaxis={"title": "coverage", "tickformat": ".0%"},
                      yaxis={"title": "risk (wrong ÷ answers)", "tickformat": ".0%"},
                      height=380, margin={"t": 48, "b": 40})
    return fig


# --- a static SVG of a figure, for pages read without a kernel or a script ----------------------

_SVG_WIDTH = 760
_PALETTE = ("#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2",
            "#ff9da6", "#9d755d", "#bab0ac")


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _seq(values: Any) -> list[Any]:
    """A trace's data as a list (plotly keeps a tuple, a NumPy array or ``None``)."""
    return [] if values is None else list(values)


def _number(value: object) -> float | None:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _tick(value: float, fmt: str) -> str:
    if fmt.endswith("%"):
        return f"{100 * value:.0f}%"
    return f"{value:g}"


def _nice_step(span: float) -> float:
    """A round step that cuts ``span`` into about five parts (1, 2 or 5 times a power of ten)."""
    if span <= 0:
        return 1.0
    raw = span / 5
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _trace_colour(trace: Any, i: int) -> str:
    colour = getattr(trace.marker, "color", None) if hasattr(trace, "marker") else None
    if isinstance(colour, str):
        return colour
    line = getattr(trace, "line", None)
    if line is not None and isinstance(getattr(line, "color", None), str):
        return str(line.color)
    return _PALETTE[i % len(_PALETTE)]


def figure_svg(fig: go.Figure, *, width: int = _SVG_WIDTH) -> str:
    """The figure drawn as a plain SVG: bars (stacked or grouped, either direction) and lines.

    Plotly draws a figure with JavaScript; a page read without a kernel or scripts (a
    repository's viewer, ``nbconvert`` output opened offline) would show nothing. This draws the
    same data with no script and no font or file to fetch: the title, both axis titles, the
    ticks, a legend, every bar with its text label, every line with its markers. Hover texts
    become SVG ``<title>`` elements. Trace kinds other than bars and scatter lines are listed in
    the legend but not drawn.

    Args:
        fig: A plotly figure (the ones of this module, or any of bars and lines).
        width: The SVG's width in pixels (the height is the figure's).

    Returns:
        The ``<svg>`` element as text.
    """
    layout = fig.layout
    height = int(layout.height or 360)
    title = layout.title.text or ""
    traces = list(fig.data)
    bars = [t for t in traces if t.type == "bar"]
    horizontal = bool(bars) and all(t.orientation == "h" for t in bars)
    stacked = layout.barmode in ("stack", "relative")
    x_title = layout.xaxis.title.text or ""
    y_title = layout.yaxis.title.text or ""
    value_axis = layout.xaxis if horizontal else layout.yaxis
    value_format = str(value_axis.tickformat or "")

    # the category axis: categories in order of first appearance (plotly's default)
    category_of = "y" if horizontal else "x"
    categories: list[str] = []
    if bars:
        for trace in bars:
            for c in _seq(getattr(trace, category_of)):
                if str(c) not in categories:
                    categories.append(str(c))
        axis = layout.yaxis if horizontal else layout.xaxis
        if axis.categoryorder == "array" and axis.categoryarray:
            wanted = [str(c) for c in axis.categoryarray]
            categories = [c for c in wanted if c in categories] + [c for c in categories
                                                                  if c not in wanted]

    # the value range: stacked sums, or the largest single value; a fixed axis range wins
    values: list[float] = [0.0]
    if bars:
        totals: dict[tuple[str, bool], float] = {}
        for trace in bars:
            cats = _seq(getattr(trace, category_of))
            vals = _seq(getattr(trace, "x" if horizontal else "y"))
            for c, v in zip(cats, vals, strict=False):
                number = _number(v)
                if number is None:
                    continue
                if stacked:
                    key = (str(c), number >= 0)
                    totals[key] = totals.get(key, 0.0) + number
                else:
                    values.append(number)
        values.extend(totals.values())
    scatter = [t for t in traces if t.type == "scatter"]
    xs = [n for t in scatter for n in map(_number, _seq(t.x)) if n is not None]
    ys = [n for t in scatter for n in map(_number, _seq(t.y)) if n is not None]
    values.extend(ys)
    low, high = min(values), max(values)
    if value_axis.range is not None:
        low, high = (float(value_axis.range[0]), float(value_axis.range[1]))
    elif high == low:
        high = low + 1
    x_low, x_high = (min(xs, default=0.0), max(xs, default=1.0))
    if scatter and layout.xaxis.range is not None:
        x_low, x_high = float(layout.xaxis.range[0]), float(layout.xaxis.range[1])

    legend_names = [str(t.name) for t in traces if t.name is not None]
    legend_rows = math.ceil(len(legend_names) / 5) if legend_names else 0
    top = 36 + 18 * legend_rows
    label_width = (min(220, 8 + 7 * max((len(c) for c in categories), default=0))
                   if horizontal else 56)
    left, right, bottom = label_width + 24, 16, 48
    plot_w, plot_h = width - left - right, height - top - bottom
    if plot_w <= 40 or plot_h <= 40:
        plot_h = max(plot_h, 120)
        height = top + plot_h + bottom

    def value_pos(v: float) -> float:
        share = (v - low) / (high - low) if high != low else 0.0
        return left + share * plot_w if horizontal else top + plot_h - share * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(title)}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="8" y="20" font-size="15" fill="#1f2328">{_esc(title)}</text>']
    for i, name in enumerate(legend_names):
        trace = next(t for t in traces if str(t.name) == name)
        lx, ly = 8 + (i % 5) * ((width - 16) / 5), 34 + 18 * (i // 5)
        out.append(f'<rect x="{lx:.1f}" y="{ly:.1f}" width="12" height="12" '
                   f'fill="{_esc(_trace_colour(trace, i))}"/>'
                   f'<text x="{lx + 16:.1f}" y="{ly + 10:.1f}" fill="#1f2328">{_esc(name[:24])}</text>')
    # value ticks and grid
    step = _nice_step(high - low)
    tick = math.ceil(low / step) * step
    while tick <= high + step * 1e-9:
        pos = value_pos(tick)
        label = _esc(_tick(tick, value_format))
        if horizontal:
            out.append(f'<line x1="{pos:.1f}" y1="{top}" x2="{pos:.1f}" y2="{top + plot_h}" '
                       f'stroke="#e6e8eb"/><text x="{pos:.1f}" y="{top + plot_h + 14}" '
                       f'text-anchor="middle" fill="#57606a">{label}</text>')
        else:
            out.append(f'<line x1="{left}" y1="{pos:.1f}" x2="{left + plot_w}" y2="{pos:.1f}" '
                       f'stroke="#e6e8eb"/><text x="{left - 4}" y="{pos + 4:.1f}" '
                       f'text-anchor="end" fill="#57606a">{label}</text>')
        tick += step
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle" '
               f'fill="#1f2328">{_esc(x_title)}</text>')
    out.append(f'<text transform="translate(12 {top + plot_h / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle" fill="#1f2328">{_esc(y_title)}</text>')

    if bars:
        slot = (plot_h if horizontal else plot_w) / max(len(categories), 1)
        band = slot * 0.7
        offsets: dict[tuple[str, bool], float] = {}
        for i, trace in enumerate(bars):
            colour = _esc(_trace_colour(trace, traces.index(trace)))
            cats = _seq(getattr(trace, category_of))
            vals = _seq(getattr(trace, "x" if horizontal else "y"))
            labels = _seq(trace.text) if not isinstance(trace.text, str) else []
            for j, (c, v) in enumerate(zip(cats, vals, strict=False)):
                number = _number(v)
                if not number or str(c) not in categories:  # a zero bar has no area
                    continue
                k = categories.index(str(c))
                if horizontal:  # plotly puts the first category at the bottom
                    k = len(categories) - 1 - k
                if stacked:
                    key = (str(c), number >= 0)
                    start = offsets.get(key, 0.0)
                    offsets[key] = start + number
                    thick, shift = band, 0.0
                else:
                    start = 0.0
                    thick = band / len(bars)
                    shift = i * thick
                a, b = sorted((value_pos(start), value_pos(start + number)))
                across = (top if horizontal else left) + k * slot + (slot - band) / 2 + shift
                if horizontal:
                    box = (a, across, b - a, thick)
                else:
                    box = (across, a, thick, b - a)
                tip = _esc(f"{trace.name}: {v} ({c})")
                out.append(f'<rect x="{box[0]:.1f}" y="{box[1]:.1f}" width="{box[2]:.1f}" '
                           f'height="{box[3]:.1f}" fill="{colour}"><title>{tip}</title></rect>')
                text = str(labels[j]) if j < len(labels) and labels[j] is not None else ""
                # a label wider than its bar is left to the <title> (plotly hides it too)
                room = box[2] if horizontal else (box[3] if stacked else box[2] * 2)
                if text and room >= 7 * len(text) + 2:
                    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2 + 4
                    if not stacked and not horizontal:
                        cy = box[1] - 3  # grouped columns: the label sits on top
                    out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle" '
                               f'font-size="11" fill="#1f2328">{_esc(text)}</text>')
        for k, c in enumerate(categories):
            if horizontal:
                k = len(categories) - 1 - k
            mid = (top if horizontal else left) + k * slot + slot / 2
            if horizontal:
                out.append(f'<text x="{left - 6}" y="{mid + 4:.1f}" text-anchor="end" '
                           f'fill="#1f2328">{_esc(c)}</text>')
            else:
                out.append(f'<text x="{mid:.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
                           f'fill="#1f2328">{_esc(c)}</text>')

    for trace in scatter:
        colour = _esc(_trace_colour(trace, traces.index(trace)))
        points = []
        for x, y in zip(_seq(trace.x), _seq(trace.y), strict=False):
            nx, ny = _number(x), _number(y)
            if nx is None or ny is None:
                continue
            px = left + ((nx - x_low) / (x_high - x_low) if x_high != x_low else 0.5) * plot_w
            points.append((px, value_pos(ny)))
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.extend(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>'
                   for px, py in points)
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" '
               'stroke="#d0d7de"/>')
    out.append("</svg>")
    return "".join(out)
