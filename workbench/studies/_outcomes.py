"""What a gate run's verified answers are worth: leakage re-checked, selection errors counted.

One function for ``workbench demo`` and ``workbench eval gates``: every mode-A answer of the run
is re-checked against the files as they are now (leakage, closed by construction and expected to
be 0), and every verified answer is held against the gold labels (selection errors, which
construction cannot close), with the targets checked on the way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from workbench.answers import CheckContext
from workbench.config import Settings
from workbench.corpus import Corpus
from workbench.corpus._questions import GoldSpan
from workbench.index import FragmentIndex
from workbench.studies._gates import answers_frame
from workbench.studies._leakage import LeakageReport, leakage
from workbench.studies._selection import SelectionReport, selection_errors


@dataclass(frozen=True)
class RunOutcomes:
    """The leakage and the selection errors of one gate run."""

    answers: pd.DataFrame
    """The pipeline's answers, one row per question, with ``leak`` and ``leak_reason``."""
    leakage: LeakageReport
    """Mode-A answers without verifiable evidence."""
    selection: SelectionReport
    """Verified answers from the wrong place, and every target checked."""

    def per_set(self) -> dict[str, dict[str, int]]:
        """Leaks and mode-A answers per question set."""
        return {str(name): {"leaks": int(part["leak"].sum()),
                            "mode_a": int((part["mode"] == "A").sum())}
                for name, part in self.answers.groupby("set", sort=False)}

    def lines(self) -> list[str]:
        """The leakage line, then the selection errors and the targets."""
        counts = ", ".join(f"{name} {c['leaks']}/{c['mode_a']}" for name, c in self.per_set().items())
        return [f"leakage: {self.leakage.leaks} of {self.leakage.mode_a} mode-A answers lack "
                f"verifiable evidence ({counts}; every invariant re-checked against the files now)",
                *self.selection.lines()]


def run_outcomes(rows: pd.DataFrame, settings: Settings, index: FragmentIndex,
                 gold: Mapping[str, Sequence[GoldSpan]] | None) -> RunOutcomes:
    """Re-check every answer of ``rows`` (a gate run) and count its selection errors.

    Args:
        rows: The gate run's rows (:func:`workbench.studies.evaluate_sets`).
        settings: Its settings; the corpus checked against is ``[paths].corpus``.
        index: The index the run searched.
        gold: Gold spans by question id, for the quote-level count (``None``: fragment level).
    """
    answers = answers_frame(rows)
    context = CheckContext.for_index(index, Corpus(settings.paths.corpus), settings)
    report = leakage(answers, context)
    leaked = dict(zip(report.leaked_rows, report.reasons, strict=True))
    answers["leak"] = [number in leaked for number in range(len(answers))]
    answers["leak_reason"] = [leaked.get(number, "") for number in range(len(answers))]
    selection = selection_errors(rows, gold=gold, leaks=report.leaks, answered=report.mode_a)
    return RunOutcomes(answers=answers, leakage=report, selection=selection)
