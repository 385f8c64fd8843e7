"""Tuning the quote gates' numbers on a split of labelled questions, and writing them as settings.

:func:`calibrate` evaluates the questions (the bundled sets, or question files of one's own, on
the index and corpus the settings name) through :func:`~workbench.studies.evaluate_sets_cached`
and hands the rows to :func:`~workbench.studies.calibrate_gates`: the grid of gate 0's coverage,
the rerank mode's score threshold and the disagreement margin, best first. The best cell becomes
a :class:`Calibration`, which writes itself as a settings overlay: a TOML file holding only the
``[gates]`` keys it tuned, read by :func:`workbench.config.overlay_settings` (or a second
``--config``).

The thresholds shipped in ``workbench.toml`` are this function's output for the bundled sets'
dev split; an integration test holds that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from workbench.config import Settings, threshold_key
from workbench.corpus._questions import SETS, QuestionSetError
from workbench.studies._analysis import calibrate_gates
from workbench.studies._gates import QuestionFiles, evaluate_sets_cached, question_files


@dataclass(frozen=True)
class Calibration:
    """The gate settings chosen on one split, with the grid they were chosen from."""

    mode: str
    """The rerank mode whose scores the threshold applies to."""
    split: str
    """The split tuned on (``dev``)."""
    threshold: float
    """The chosen score threshold of ``mode``."""
    min_lexical_coverage: float
    """The chosen share of content terms gate 0 asks for."""
    disagreement_margin: float
    """The chosen margin of the disagreement gate."""
    hasans_correct: float
    """Share of answerable questions answered from a gold fragment at the chosen cell."""
    noans_refused: float
    """Share of unanswerable questions refused at the chosen cell."""
    false_answers: int
    """Answers that are not from a gold fragment, at the chosen cell."""
    n_questions: int
    """Questions of the split the grid was scored on."""
    files: tuple[Path, ...]
    """The question files read."""
    table: pd.DataFrame = field(repr=False, compare=False)
    """The whole grid, best first (:func:`~workbench.studies.calibrate_gates`)."""
    rows: pd.DataFrame = field(repr=False, compare=False)
    """The evaluated rows the grid was scored on."""
    cached: bool = False
    """Whether the rows came from the evaluation cache."""

    @property
    def gates(self) -> dict[str, float]:
        """The ``[gates]`` keys it tuned, with their chosen values."""
        return {threshold_key(self.mode): self.threshold,
                "min_lexical_coverage": self.min_lexical_coverage,
                "disagreement_margin": self.disagreement_margin}

    def to_toml(self) -> str:
        """The settings overlay: a ``[gates]`` table with the tuned keys only."""
        names = ", ".join(f.name for f in self.files)
        lines = [f"# tuned by `workbench gates calibrate` on the {self.split} split of {names}",
                 f"# (rerank {self.mode}, {self.n_questions} questions: answerable answered "
                 f"from gold {self.hasans_correct:.4f}, unanswerable refused "
                 f"{self.noans_refused:.4f}, false answers {self.false_answers})",
                 "[gates]"]
        lines += [f"{key} = {float(value)!r}" for key, value in self.gates.items()]
        return "\n".join(lines) + "\n"

    def write(self, path: str | Path) -> Path:
        """Write :meth:`to_toml` to ``path`` (its folder made if needed); returns the path."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.to_toml(), encoding="utf-8")
        tmp.replace(target)
        return target

    def apply(self, settings: Settings) -> Settings:
        """``settings`` with the tuned keys replaced."""
        return settings.with_overrides(gates=self.gates)


def calibrate(settings: Settings, *, split: str = "dev", sets: Sequence[str] = SETS,
              questions: QuestionFiles | None = None, progress: bool = False) -> Calibration:
    """Evaluate the questions of ``split`` and choose the gates' numbers on them.

    Args:
        settings: The index, corpus, rerank mode (``[reranker].mode``) and gate order; the rows
            are evaluated under these settings and re-sliced for every cell of the grid.
        split: The split to tune on; ``dev`` keeps ``test`` for reporting.
        sets: Bundled sets by name (ignored when ``questions`` is given).
        questions: Question files of one's own, in place of the bundled sets.
        progress: Show a progress bar while questions are evaluated.

    Returns:
        The best cell of :func:`~workbench.studies.calibrate_gates` and its grid.
    """
    files = question_files(settings, sets, questions)
    rows, cached = evaluate_sets_cached(settings, sets=sets, split=split, progress=progress,
                                        questions=questions)
    if rows.empty:
        raise QuestionSetError(f"no question of the {split} split in "
                               f"{', '.join(str(f) for f in files)}: nothing to tune on")
    table = calibrate_gates(rows, split=split, order=settings.gates.order)
    best = table.iloc[0]
    return Calibration(
        mode=settings.reranker.mode, split=split, threshold=float(best["threshold"]),
        min_lexical_coverage=float(best["min_coverage"]),
        disagreement_margin=float(best["margin"]),
        hasans_correct=float(best["hasans_correct"]), noans_refused=float(best["noans_refused"]),
        false_answers=int(best["false_answers"]), n_questions=len(rows), files=files,
        table=table, rows=rows, cached=cached)
