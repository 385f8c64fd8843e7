"""The risk–coverage curve of each gate run in scope, with the run's own operating point.

``eval gates`` keeps each split's curve in its record (``summary.risk_coverage``, from
:func:`workbench.studies.risk_coverage`); this section draws them
(:func:`workbench.plots.risk_coverage_figure`, the figure the risk widget draws too) and
tabulates the operating point, without computing anything anew.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from workbench.plots import risk_coverage_figure
from workbench.report._html import esc, figure, number, percent, table


def risk_coverage_block(records: dict[Any, Any], command: str) -> tuple[str, tuple[str, ...]]:
    """The figure and the table of operating points, and the runs they came from.

    Args:
        records: Gate runs by rerank mode.
        command: What to run where no run recorded a curve.
    """
    drawn: dict[str, Any] = {}
    table_rows, used = [], []
    for mode, record in records.items():
        curves = (record.manifest.get("summary") or {}).get("risk_coverage") or {}
        for split, curve in curves.items():
            drawn[f"{mode or 'gates'}, {split}"] = curve
            run = curve.get("run") or {}
            table_rows.append({"run": record.run_id, "rerank mode": str(mode), "split": split,
                               "score": curve.get("score"), "answers": run.get("answers"),
                               "wrong": run.get("wrong"), "risk": run.get("risk"),
                               "coverage": run.get("coverage"), "AURC": curve.get("aurc")})
            if record.run_id not in used:
                used.append(record.run_id)
    if not table_rows:
        return (f'<p class="missing">No gate run in this report recorded a risk–coverage curve. '
                f"Make one with <code>{esc(command)}</code>.</p>", ())
    fig = risk_coverage_figure(drawn)
    frame = pd.DataFrame.from_records(table_rows)
    body = (figure(fig, "fig-risk-coverage")
            + table(frame, {"risk": percent, "coverage": percent,
                            "AURC": lambda v: number(v, 4)}))
    return body, tuple(used)


__all__ = ["risk_coverage_block"]
