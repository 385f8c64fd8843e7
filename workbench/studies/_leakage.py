"""Leakage: responses claimed as mode A without resolvable evidence.

A row leaks when it claims mode A and any of these holds: it carries no evidence; its source
refused (a gate, the utility checker, the FTS gate) and it answered anyway; the invariant checker
did not pass it (at the time of the run, or now when a context is given). A leak counts even when
the content happens to be right: what is measured is whether the answer was *shown*, not whether
it was true. The target is 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.answers._evidence import Answer, EvidenceFormatError, Mode
from workbench.answers._invariants import CheckContext, check_answer
from workbench.answers._pipeline import AnswerResult
from workbench.runs import RunRecord


@dataclass(frozen=True)
class LeakageReport:
    """How many responses of a run leaked."""

    rows: int
    """Rows looked at."""
    mode_a: int
    """Rows that claimed mode A."""
    leaks: int
    """Mode-A rows without resolvable evidence."""
    leaked_rows: tuple[int, ...]
    """Row numbers of the leaks."""
    reasons: tuple[str, ...]
    """Why each leaked row leaked, same order."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"rows": self.rows, "mode_a": self.mode_a, "leaks": self.leaks,
                "leaked_rows": list(self.leaked_rows), "reasons": list(self.reasons)}


def _rows(run_or_rows: Any) -> list[Mapping[str, Any]]:
    if isinstance(run_or_rows, RunRecord):
        run_or_rows = run_or_rows.rows
    if isinstance(run_or_rows, pd.DataFrame):
        return [dict(r) for r in run_or_rows.to_dict(orient="records")]
    return [r.to_row() if isinstance(r, AnswerResult) else dict(r) for r in run_or_rows]


def _leak_reason(row: Mapping[str, Any], context: CheckContext | None) -> str | None:
    text = row.get("answer_json") or ""
    if not text:
        return None
    try:
        answer = Answer.from_dict(json.loads(text))
    except (ValueError, EvidenceFormatError):
        return "the stored answer cannot be read back" if row.get("mode") == "A" else None
    if answer.mode is not Mode.A:
        return None
    if not answer.evidence:
        return "mode A without evidence"
    if row.get("source_refusal_code"):
        return f"answered although the source refused ({row['source_refusal_code']})"
    if context is not None:
        failure = check_answer(answer, context).first_failure
        return f"{failure[1]} does not hold now" if failure is not None else None
    if row.get("invariants_passed") is not True:
        return "the invariant checker did not pass it"
    return None


def leakage(run_or_rows: RunRecord | pd.DataFrame | Iterable[Any],
            context: CheckContext | None = None) -> LeakageReport:
    """Count the leaks of a run record, a frame of rows, or pipeline results.

    Args:
        run_or_rows: A :class:`workbench.runs.RunRecord`, its ``rows`` frame, row mappings (as
            :meth:`AnswerResult.to_row` writes them), or :class:`AnswerResult` objects.
        context: When given, every mode-A answer is re-checked against it now; otherwise the
            verdict the checker recorded at run time is used.
    """
    rows = _rows(run_or_rows)
    leaked: list[int] = []
    reasons: list[str] = []
    mode_a = 0
    for number, row in enumerate(rows):
        if row.get("mode") == "A":
            mode_a += 1
        reason = _leak_reason(row, context)
        if reason is not None:
            leaked.append(number)
            reasons.append(reason)
    return LeakageReport(rows=len(rows), mode_a=mode_a, leaks=len(leaked),
                         leaked_rows=tuple(leaked), reasons=tuple(reasons))
