"""Two run records of one kind, item by item: what flipped, and whether the change is significant.

Each kind of run names the columns that identify an item and says how a row's verdict is read
(:data:`DIFF_KINDS`): a gate run's question was handled correctly or not, a router's item was
right or wrong, an answer leaked or not, a fragment is still quotable or not, a forgery was
caught or not, a specification was certified or not. Items present in both runs are paired; the
flips between them are listed and tested with the exact McNemar test
(:func:`workbench.stats.mcnemar`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from workbench.runs._records import RunRecord, RunRecordError, resolve_run
from workbench.stats import McNemarResult, format_p, mcnemar


@dataclass(frozen=True)
class Verdicts:
    """One run's verdict per row, as a kind reads it."""

    good: np.ndarray
    """Per row: the verdict is the wanted one (correct, clean, quotable, caught, certified)."""
    outcome: np.ndarray
    """Per row: what happened, in words (the gate that fired, the error type, the status...)."""


@dataclass(frozen=True)
class DiffKind:
    """How the rows of one kind of run are paired and judged."""

    key: tuple[str, ...]
    """The columns that identify an item across runs."""
    label: str
    """The column that describes an item to a reader (a question, a path...)."""
    good: str
    """The name of the wanted verdict."""
    bad: str
    """The name of the other verdict."""
    verdicts: Callable[[RunRecord], Verdicts]
    """Reads every row's verdict; raises :class:`RunRecordError` when a column is missing."""


def _need(record: RunRecord, *columns: str) -> pd.DataFrame:
    missing = [c for c in columns if c not in record.rows.columns]
    if missing:
        raise RunRecordError(f"{record.run_id} ({record.manifest.get('kind')}) lacks the column(s) "
                             f"{', '.join(missing)} that its kind's verdict is read from")
    return record.rows


def _text(values: Any) -> np.ndarray:
    return np.array(["" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v)
                     for v in values], dtype=object)


def _gate_verdicts(record: RunRecord) -> Verdicts:
    """The question was handled correctly under the run's own gate order.

    An answerable question is handled correctly when it was answered from a gold fragment; any
    other question when it was refused (the rule of ``workbench.gates``' analysis). The gates
    are those the record evaluated, read from its own ``wf_<gate>`` columns.
    """
    from workbench.studies import ANSWERED, first_firing, outcome_correctness, run_order

    # the record names the gates it evaluated (its wf_<gate> columns); it needs at least one
    rows = _need(record, "id", "set", "top_is_gold", "n_hits")
    if not any(c.startswith("wf_") for c in rows.columns):
        raise RunRecordError(f"{record.run_id} (gates) holds no wf_<gate> column: it names no "
                             f"gate whose verdicts could be compared")
    outcome = first_firing(rows, run_order(record, None))
    correct_answer, _ = outcome_correctness(rows, outcome)
    refused_unanswerable = (outcome != ANSWERED) & (rows["set"] != "in_corpus").to_numpy()
    return Verdicts(correct_answer | refused_unanswerable, outcome.astype(object))


def _router_verdicts(record: RunRecord) -> Verdicts:
    rows = _need(record, "router", "id", "correct", "error")
    errors = _text(rows["error"])
    return Verdicts(rows["correct"].to_numpy(dtype=bool),
                    np.where(errors == "", "ok", errors).astype(object))


def _answer_verdicts(record: RunRecord) -> Verdicts:
    rows = _need(record, "id", "leak")
    leak = rows["leak"].to_numpy(dtype=bool)
    reasons = _text(rows["leak_reason"]) if "leak_reason" in rows.columns else _text([""] * len(rows))
    modes = _text(rows["mode"]) if "mode" in rows.columns else _text([""] * len(rows))
    outcome = np.where(leak, reasons, np.where(modes == "A", "mode A, evidence holds", "refused"))
    return Verdicts(~leak, outcome.astype(object))


def _drift_verdicts(record: RunRecord) -> Verdicts:
    rows = _need(record, "fragment_id", "status")
    status = _text(rows["status"])
    return Verdicts(status == "match", status)


def _negative_verdicts(record: RunRecord) -> Verdicts:
    rows = _need(record, "kind", "number", "caught")
    invariant = _text(rows["invariant"]) if "invariant" in rows.columns else _text([""] * len(rows))
    caught = rows["caught"].to_numpy(dtype=bool)
    return Verdicts(caught, np.where(caught, invariant, "passed the checker").astype(object))


def _spec_verdicts(record: RunRecord) -> Verdicts:
    rows = _need(record, "spec_id", "passed")
    codes = _text(rows["code"]) if "code" in rows.columns else _text([""] * len(rows))
    passed = rows["passed"].to_numpy(dtype=bool)
    return Verdicts(passed, np.where(passed, "certified", codes).astype(object))


DIFF_KINDS: dict[str, DiffKind] = {
    "gates": DiffKind(("id",), "question", "correct", "wrong", _gate_verdicts),
    "routers": DiffKind(("router", "id"), "question", "right", "wrong", _router_verdicts),
    "answers": DiffKind(("id",), "question", "clean", "leak", _answer_verdicts),
    "drift": DiffKind(("fragment_id",), "path", "quotable", "not quotable", _drift_verdicts),
    "negative_control": DiffKind(("kind", "number"), "detail", "caught", "passed",
                                 _negative_verdicts),
    "fts": DiffKind(("spec_id",), "path", "certified", "refused", _spec_verdicts),
}
"""Kind of run -> how its items are keyed and judged."""

FLIP_COLUMNS = ("verdict_a", "verdict_b", "outcome_a", "outcome_b", "direction")
"""The columns of :attr:`RunDiff.flips` after the key columns and the label."""


@dataclass(frozen=True)
class RunDiff:
    """Two runs of one kind compared item by item."""

    kind: str
    """The kind of both runs."""
    run_a: str
    """The first run's id."""
    run_b: str
    """The second run's id."""
    paired: int
    """Items present in both runs."""
    only_a: int
    """Items only the first run holds."""
    only_b: int
    """Items only the second run holds."""
    flips: pd.DataFrame
    """The paired items whose verdict differs: key columns, label, :data:`FLIP_COLUMNS`."""
    test: McNemarResult
    """McNemar on the paired verdicts: ``b`` wanted only in a (regressions), ``c`` only in b."""

    def lines(self, show: int = 20) -> list[str]:
        """What the terminal shows: the counts, the test, and up to ``show`` flips."""
        spec = DIFF_KINDS[self.kind]
        out = [f"{self.kind}: {self.run_a} -> {self.run_b}; {self.paired} items in both"
               f" ({self.only_a} only in a, {self.only_b} only in b)",
               f"flipped: {len(self.flips)}; McNemar b={self.test.b} ({spec.good} only in a), "
               f"c={self.test.c} ({spec.good} only in b), exact p={format_p(self.test.p_value)}"]
        for row in self.flips.head(show).to_dict(orient="records"):
            key = " · ".join(str(row[k]) for k in spec.key)
            label = str(row.get(spec.label, ""))[:70]
            out.append(f"  {key}: {row['verdict_a']} -> {row['verdict_b']} ({row['direction']}; "
                       f"{row['outcome_a']} -> {row['outcome_b']}) {label}")
        if len(self.flips) > show:
            out.append(f"  ... {len(self.flips) - show} more")
        return out


def _frame(record: RunRecord, spec: DiffKind, where: Mapping[str, Any] | None) -> pd.DataFrame:
    verdicts = spec.verdicts(record)
    rows = record.rows
    missing = [c for c in (*spec.key, *(where or {})) if c not in rows.columns]
    if missing:
        raise RunRecordError(f"{record.run_id} lacks the column(s) {', '.join(missing)}")
    frame = rows[list(spec.key)].copy()
    frame["_label"] = _text(rows[spec.label]) if spec.label in rows.columns else ""
    frame["_good"] = verdicts.good
    frame["_outcome"] = verdicts.outcome
    keep = np.ones(len(rows), dtype=bool)
    for column, value in (where or {}).items():
        keep &= (rows[column].astype(str) == str(value)).to_numpy()
    frame = frame[keep]
    duplicated = frame.duplicated(list(spec.key))
    if duplicated.any():
        first = frame[duplicated].iloc[0]
        raise RunRecordError(f"{record.run_id}: the item {tuple(first[list(spec.key)])} occurs "
                             f"more than once; the key {'+'.join(spec.key)} must be unique")
    return frame


def diff_runs(a: RunRecord | str | os.PathLike[str], b: RunRecord | str | os.PathLike[str], *,
              results_dir: str | os.PathLike[str] = "results",
              where: Mapping[str, Any] | None = None) -> RunDiff:
    """Compare two run records of the same kind item by item.

    Args:
        a: The first run: a :class:`RunRecord`, its folder, or its id under ``results_dir``.
        b: The second run, likewise.
        results_dir: Where run ids are looked up.
        where: Only rows whose columns equal these values, e.g. ``{"router": "rule"}`` to compare
            one router across two router runs.

    Returns:
        The flipped items, the counts of paired and unpaired items, and the exact McNemar test.

    Raises:
        RunRecordError: A run is missing, the kinds differ, the kind has no diff definition, or a
            run lacks the key or verdict columns of its kind.
    """
    record_a, record_b = resolve_run(a, results_dir), resolve_run(b, results_dir)
    kind_a, kind_b = record_a.manifest.get("kind"), record_b.manifest.get("kind")
    if kind_a != kind_b:
        raise RunRecordError(f"cannot diff a {kind_a} run ({record_a.run_id}) with a {kind_b} run "
                             f"({record_b.run_id}): the kinds must be the same")
    spec = DIFF_KINDS.get(str(kind_a))
    if spec is None:
        raise RunRecordError(f"runs of kind {kind_a!r} have no item-by-item diff; kinds that do: "
                             f"{', '.join(DIFF_KINDS)}")
    left, right = _frame(record_a, spec, where), _frame(record_b, spec, where)
    merged = left.merge(right, on=list(spec.key), how="outer", suffixes=("_a", "_b"),
                        indicator=True)
    both = merged[merged["_merge"] == "both"]
    good_a, good_b = both["_good_a"].astype(bool), both["_good_b"].astype(bool)
    flipped = both[good_a != good_b]
    flips = flipped[list(spec.key)].copy()
    flips[spec.label] = [la or lb for la, lb in zip(flipped["_label_a"], flipped["_label_b"],
                                                     strict=True)]
    flips["verdict_a"] = np.where(flipped["_good_a"].astype(bool), spec.good, spec.bad)
    flips["verdict_b"] = np.where(flipped["_good_b"].astype(bool), spec.good, spec.bad)
    flips["outcome_a"] = flipped["_outcome_a"].to_numpy()
    flips["outcome_b"] = flipped["_outcome_b"].to_numpy()
    flips["direction"] = np.where(flipped["_good_b"].astype(bool), "improved", "regressed")
    return RunDiff(kind=str(kind_a), run_a=record_a.run_id, run_b=record_b.run_id,
                   paired=len(both), only_a=int((merged["_merge"] == "left_only").sum()),
                   only_b=int((merged["_merge"] == "right_only").sum()),
                   flips=flips.reset_index(drop=True), test=mcnemar(list(good_a), list(good_b)))
