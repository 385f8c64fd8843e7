"""The measured figures of one suite of runs, as one JSON-ready record.

The README's measured block, the report and the notebooks' prose quote these figures; they are
computed here from run records only, so a figure has one source. ``workbench report --markdown``
writes them to ``docs/figures.json`` (committed, so a clean clone has them) and renders the
README block from that file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.answers import ForgeryKind
from workbench.runs import RunRecord
from workbench.stats import format_p
from workbench.studies._analysis import headline
from workbench.studies._selection import gold_for_run, selection_errors

EXPECTED_TO_PASS: tuple[str, ...] = (ForgeryKind.VALID_EVIDENCE_OTHER_QUESTION.value,)
"""Forgery kinds the invariant checker is not built to catch: it tests where evidence comes
from, not whether it fits the question, so another question's valid evidence passes."""

FIGURES_VERSION = 1
"""The layout of the figures record; a change of layout bumps it."""


def _leaks(record: RunRecord | None) -> tuple[int | None, int | None]:
    if record is None:
        return None, None
    rows = record.rows
    mode_a = int(rows["mode"].eq("A").sum()) if "mode" in rows.columns else None
    if "leak" in rows.columns:
        return int(rows["leak"].astype(bool).sum()), mode_a
    total = (record.manifest.get("summary") or {}).get("leakage")
    return (int(total) if total is not None else None), mode_a


def quote_figures(gates: RunRecord, answers: RunRecord | None) -> dict[str, Any]:
    """One rerank mode: the test-split shares, the selection errors, leakage and the targets."""
    leaks, mode_a = _leaks(answers)
    report = selection_errors(gates, gold=gold_for_run(gates), leaks=leaks, answered=mode_a)
    per_set = report.per_set
    return {
        "run": gates.run_id, "answers_run": answers.run_id if answers is not None else None,
        "shares_test": {k: round(v, 6) for k, v in headline(gates, "test").items()},
        "answered_wrong": report.answered_wrong, "verified": report.verified,
        "wrong_per_set": {str(k): int(v) for k, v in per_set["answered wrong"].items()
                          if k != "all"},
        "quote_misses_gold_span": (int(per_set.loc["all", "quote misses gold span"])
                                   if report.gold_known else None),
        "leakage": leaks, "mode_a": mode_a,
        "targets": [c.to_dict() for c in report.targets],
    }


def negative_figures(record: RunRecord) -> dict[str, Any]:
    """The negative control: caught overall, and without the kinds expected to pass."""
    rows = record.rows
    summary = record.manifest.get("summary") or {}
    expected = rows["kind"].isin(EXPECTED_TO_PASS)
    return {
        "run": record.run_id, "forgeries": len(rows), "caught": int(rows["caught"].sum()),
        "expected_to_pass": list(EXPECTED_TO_PASS),
        "expected_to_pass_forgeries": int(expected.sum()),
        "expected_to_pass_caught": int(rows.loc[expected, "caught"].sum()),
        "forgeries_without": int((~expected).sum()),
        "caught_without": int(rows.loc[~expected, "caught"].sum()),
        "genuine": summary.get("genuine"), "genuine_passed": summary.get("genuine_passed"),
    }


def router_figures(record: RunRecord) -> dict[str, Any]:
    """The router comparison: source accuracy and items per router, and every paired test."""
    summary = record.manifest.get("summary") or {}
    tests = record.manifest.get("mcnemar_all") or []
    return {
        "run": record.run_id, "split": record.manifest.get("split"),
        "tasksets": list(record.manifest.get("tasksets") or []),
        "routers": {name: {"items": figures.get("items"),
                           "source_accuracy": figures.get("source_accuracy"),
                           "argument_exact_match": figures.get("argument_exact_match")}
                    for name, figures in summary.items()},
        "mcnemar": [{"a": t.get("router_a"), "b": t.get("router_b"), "b_count": t.get("b"),
                     "c_count": t.get("c"), "p": t.get("p_value"),
                     "p_text": format_p(t["p_value"]) if t.get("p_value") is not None else None}
                    for t in tests],
    }


def suite_figures(*, suite: str | None, gates: Mapping[Any, RunRecord],
                  answers: Mapping[Any, RunRecord], negative: RunRecord | None,
                  routers: RunRecord | None) -> dict[str, Any]:
    """Every measured figure of one suite, by rerank mode where it has one.

    Args:
        suite: The suite's id (``None`` when the runs belong to none).
        gates: The gate run of each rerank mode.
        answers: The answers run of each rerank mode (its leak verdicts).
        negative: The negative-control run.
        routers: The router comparison run.
    """
    commits = {str(r.manifest.get("git_commit")) for r in [*gates.values(), *answers.values()]
               if r.manifest.get("git_commit")}
    return {
        "version": FIGURES_VERSION, "suite": suite,
        "commit": sorted(commits)[0][:10] if len(commits) == 1 else None,
        "quote": {str(mode): quote_figures(record, answers.get(mode))
                  for mode, record in gates.items()},
        "negative_control": negative_figures(negative) if negative is not None else None,
        "routers": router_figures(routers) if routers is not None else None,
    }


__all__ = ["EXPECTED_TO_PASS", "FIGURES_VERSION", "negative_figures", "quote_figures",
           "router_figures", "suite_figures"]
