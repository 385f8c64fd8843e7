"""The risk–coverage curve of each gate run in scope, with the run's own operating point.

``eval gates`` keeps each split's curve in its record (``summary.risk_coverage``, from
:func:`workbench.studies.risk_coverage`); this section draws them and tabulates the operating
point, without computing anything anew.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from workbench.report._html import esc, figure, number, percent, table


def risk_coverage_block(records: dict[Any, Any], command: str) -> tuple[str, tuple[str, ...]]:
    """The figure and the table of operating points, and the runs they came from.

    Args:
        records: Gate runs by rerank mode.
        command: What to run where no run recorded a curve.
    """
    fig = go.Figure()
    table_rows, used = [], []
    for mode, record in records.items():
        curves = (record.manifest.get("summary") or {}).get("risk_coverage") or {}
        for split, curve in curves.items():
            points = curve.get("points") or []
            name = f"{mode or 'gates'}, {split}"
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
            table_rows.append({"run": record.run_id, "rerank mode": str(mode), "split": split,
                               "score": curve.get("score"), "answers": run.get("answers"),
                               "wrong": run.get("wrong"), "risk": run.get("risk"),
                               "coverage": run.get("coverage"), "AURC": curve.get("aurc")})
            if record.run_id not in used:
                used.append(record.run_id)
    if not table_rows:
        return (f'<p class="missing">No gate run in this report recorded a risk–coverage curve. '
                f"Make one with <code>{esc(command)}</code>.</p>", ())
    fig.update_layout(title="Risk against coverage; a cross marks where the run's gates answer",
                      xaxis={"title": "coverage", "tickformat": ".0%"},
                      yaxis={"title": "risk (wrong ÷ answers)", "tickformat": ".0%"},
                      height=380, margin={"t": 48, "b": 40})
    frame = pd.DataFrame.from_records(table_rows)
    body = (figure(fig, "fig-risk-coverage")
            + table(frame, {"risk": percent, "coverage": percent,
                            "AURC": lambda v: number(v, 4)}))
    return body, tuple(used)


__all__ = ["risk_coverage_block"]
