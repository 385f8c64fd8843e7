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

Two guards keep a small or lopsided calibration set from writing settings that quietly disarm
the gates: a split with fewer than :data:`MIN_PER_KIND` answerable or must-refuse questions is
refused (:class:`CalibrationSetError`), and a cell that switches a gate off (a threshold, a
margin or gate 0's coverage of 0) is passed over for the best one that does not, unless the
caller allows it in so many words (``allow_off``).

With a risk (``risk``, ``delta``) the score threshold is chosen by Learn-then-Test
(:func:`workbench.stats.learn_then_test`) on the split's answers instead, and the overlay also
writes the promise (``[promise]``: the risk, its probability, the threshold, the counts, and the
digests of the calibration questions, the corpus and the gates) that ``workbench eval gates``
holds later runs against.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from workbench.config import Promise, Settings, threshold_key
from workbench.corpus._questions import SETS, QuestionSetError
from workbench.errors import WorkbenchError
from workbench.index import read_manifest
from workbench.stats import NoPromise, RiskBound, answers_needed, learn_then_test
from workbench.studies._analysis import calibrate_gates
from workbench.studies._gates import QuestionFiles, evaluate_sets_cached, question_files
from workbench.studies._risk import (
    SCORE_GATES,
    RiskCoverageError,
    answer_labels,
    calibration_digest,
    default_score,
    gates_digest,
    score_pool,
    score_values,
)
from workbench.studies._selection import MUST_REFUSE

MIN_PER_KIND = 20
"""The fewest answerable and the fewest must-refuse questions a calibration split may hold."""

MIN_PROMISE_ANSWERS = 50
"""The fewest answered calibration questions a risk promise is searched over."""

CONFIDENCE_KEY = "confidence_threshold"
"""The ``[gates]`` key of the confidence gate's threshold, which a promise on its score sets."""

SWITCHES: dict[str, str] = {"threshold": "threshold", "margin": "disagreement",
                            "min_coverage": "gate0"}
"""A grid column, and the gate a value of 0 in it switches off."""


class CalibrationSetError(QuestionSetError):
    """The calibration split is too small, or too lopsided, to tune the gates on."""


class SwitchedOffError(WorkbenchError):
    """Calibration would write a value that switches a gate off and the caller did not allow it."""


def switched_off(cell: pd.Series | dict) -> tuple[str, ...]:
    """The gates a grid cell switches off: those whose number in it is 0 (or below)."""
    return tuple(gate for column, gate in SWITCHES.items() if float(cell[column]) <= 0.0)


def check_calibration_set(rows: pd.DataFrame, split: str, minimum: int = MIN_PER_KIND) -> None:
    """Refuse a split with fewer than ``minimum`` answerable or must-refuse questions.

    Raises:
        CalibrationSetError: Naming both counts and the minimum.
    """
    refuse = int(rows["set"].isin(MUST_REFUSE).sum())
    answerable = len(rows) - refuse
    if answerable < minimum or refuse < minimum:
        raise CalibrationSetError(
            f"the {split} split holds {answerable} answerable and {refuse} must-refuse "
            f"question(s); calibrating asks at least {minimum} of each (min_per_kind), or "
            "the chosen numbers follow a handful of questions")


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
    declined: tuple[str, ...] = ()
    """Gates the grid's best cell switched off, passed over for the best cell that does not."""
    bound: RiskBound | NoPromise | None = None
    """Learn-then-Test's answer when a risk was asked for (``None``: none was)."""
    promise: Promise | None = None
    """The promise written, when the bound holds one."""
    confidence_threshold: float | None = None
    """The confidence gate's threshold, when the promise is on its score."""

    @property
    def promise_coverage(self) -> float | None:
        """The coverage at the promise's threshold on the split (``None`` without a promise).

        Answerable questions answered from gold there ÷ the split's answerable questions.
        """
        if self.promise is None:
            return None
        answerable = int((~self.rows["set"].isin(MUST_REFUSE)).sum())
        right = self.promise.answers - self.promise.wrong
        return right / answerable if answerable else 0.0

    @property
    def gates(self) -> dict[str, float]:
        """The ``[gates]`` keys it tuned, with their chosen values."""
        gates = {threshold_key(self.mode): self.threshold,
                 "min_lexical_coverage": self.min_lexical_coverage,
                 "disagreement_margin": self.disagreement_margin}
        if self.confidence_threshold is not None:
            gates[CONFIDENCE_KEY] = self.confidence_threshold
        return gates

    def to_toml(self) -> str:
        """The settings overlay: a ``[gates]`` table with the tuned keys, and the promise."""
        names = ", ".join(f.name for f in self.files)
        lines = [f"# tuned by `workbench gates calibrate` on the {self.split} split of {names}",
                 f"# (rerank {self.mode}, {self.n_questions} questions: answerable answered "
                 f"from gold {self.hasans_correct:.4f}, unanswerable refused "
                 f"{self.noans_refused:.4f}, false answers {self.false_answers})",
                 "[gates]"]
        lines += [f"{key} = {float(value)!r}" for key, value in self.gates.items()]
        if self.promise is not None:
            p = self.promise
            lines += ["", f"# Learn-then-Test on {p.answers} answers of the {p.split} split: "
                      f"risk at most {p.alpha:g} with probability {1 - p.delta:g}", "[promise]"]
            for key, value in vars(p).items():
                if isinstance(value, tuple):
                    lines.append(f"{key} = [{', '.join(repr(float(v)) for v in value)}]")
                elif isinstance(value, str):
                    lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
                else:
                    lines.append(f"{key} = {value!r}")
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


def _promise(settings: Settings, rows: pd.DataFrame, files: Sequence[Path], split: str,
             cell: pd.Series, score: str, alpha: float, delta: float, min_answers: int
             ) -> tuple[RiskBound | NoPromise, Promise | None]:
    """Learn-then-Test over the split's answers at ``cell``; the promise when one holds."""
    gate = SCORE_GATES[score]
    if score not in rows.columns or not rows[score].notna().any():
        raise RiskCoverageError(f"the {split} split's rows carry no {score!r} score to promise a "
                                "risk on" + (" (the confidence gate wrote none: is its model "
                                             "there?)" if score == "confidence" else ""))
    pool = score_pool(rows, order=settings.gates.order, lifted=(gate,),
                      threshold=None if gate == "threshold" else float(cell["threshold"]),
                      min_coverage=float(cell["min_coverage"]), margin=float(cell["margin"]))
    _, right = answer_labels(rows)
    scores = score_values(rows, score)[pool]
    bound = learn_then_test(scores, ~right[pool], alpha, delta, min_answers)
    if isinstance(bound, NoPromise):
        return bound, None
    gates = {threshold_key(settings.reranker.mode): bound.threshold if gate == "threshold"
             else float(cell["threshold"]),
             "min_lexical_coverage": float(cell["min_coverage"]),
             "disagreement_margin": float(cell["margin"])}
    if gate == "confidence" and hasattr(settings.gates, CONFIDENCE_KEY):
        gates[CONFIDENCE_KEY] = bound.threshold
    tuned = settings.with_overrides(gates=gates)
    promise = Promise(alpha=alpha, delta=delta, score=score, mode=settings.reranker.mode,
                      threshold=bound.threshold, answers=bound.answers, wrong=bound.wrong,
                      split=split, calibration_digest=calibration_digest(files, split),
                      corpus_digest=str(read_manifest(settings.paths.index)["corpus_digest"]),
                      gates_digest=gates_digest(tuned),
                      scores=tuple(float(v) for v in scores))
    return bound, promise


def calibrate(settings: Settings, *, split: str = "dev", sets: Sequence[str] = SETS,
              questions: QuestionFiles | None = None, progress: bool = False,
              risk: float | None = None, delta: float = 0.1, score: str | None = None,
              allow_off: bool = False, min_per_kind: int = MIN_PER_KIND,
              min_answers: int = MIN_PROMISE_ANSWERS, cache: bool = True) -> Calibration:
    """Evaluate the questions of ``split`` and choose the gates' numbers on them.

    Args:
        settings: The index, corpus, rerank mode (``[reranker].mode``) and gate order; the rows
            are evaluated under these settings and re-sliced for every cell of the grid.
        split: The split to tune on; ``dev`` keeps ``test`` for reporting.
        sets: Bundled sets by name (ignored when ``questions`` is given).
        questions: Question files of one's own, in place of the bundled sets.
        progress: Show a progress bar while questions are evaluated.
        risk: A risk to promise (wrong answers ÷ answers); the score threshold is then chosen by
            Learn-then-Test at the grid's best gate 0 coverage and margin.
        delta: The probability the promise may fail.
        score: The score the promise's threshold applies to (default: ``confidence`` when the
            rows carry it, else ``top_score``, the threshold gate's own score).
        allow_off: Let a value that switches a gate off be chosen.
        min_per_kind: The fewest answerable and must-refuse questions the split may hold.
        min_answers: The fewest answered questions a promise is searched over.
        cache: ``False`` evaluates the questions again whatever the evaluation cache holds.

    Returns:
        The chosen cell and its grid, with the bound and the promise when a risk was asked for.

    Raises:
        CalibrationSetError: Too few questions of a kind in the split.
        SwitchedOffError: The promise's threshold would switch the threshold gate off.
        workbench.stats.RiskControlError: ``risk`` or ``delta`` outside (0, 1); too few answers.
    """
    if risk is not None:
        answers_needed(risk, delta)  # a level out of range fails before any question is asked
    files = question_files(settings, sets, questions)
    rows, cached = evaluate_sets_cached(settings, sets=sets, split=split, progress=progress,
                                        questions=questions, cache=cache)
    if rows.empty:
        raise QuestionSetError(f"no question of the {split} split in "
                               f"{', '.join(str(f) for f in files)}: nothing to tune on")
    check_calibration_set(rows, split, min_per_kind)
    table = calibrate_gates(rows, split=split, order=settings.gates.order)
    table["switches_off"] = ["+".join(switched_off(cell)) for _, cell in table.iterrows()]
    declined: tuple[str, ...] = ()
    best = table.iloc[0]
    if not allow_off and best["switches_off"]:
        declined = switched_off(best)
        admissible = table[table["switches_off"] == ""]
        if admissible.empty:
            raise SwitchedOffError(
                f"every cell of the grid switches a gate off on the {split} split (the best "
                f"switches off {', '.join(declined)}); allow it in so many words (allow_off, "
                "--allow-gates-off) or calibrate on other questions")
        best = admissible.iloc[0]
    threshold = float(best["threshold"])
    bound, promise = None, None
    confidence_threshold: float | None = None
    if risk is not None:
        score = score or default_score(rows)
        bound, promise = _promise(settings, rows, files, split, best, score, risk, delta,
                                  min_answers)
        if isinstance(bound, RiskBound):
            gate = SCORE_GATES[score]
            if bound.threshold <= 0 and not allow_off:
                raise SwitchedOffError(
                    f"the loosest threshold with a risk of at most {risk:g} is "
                    f"{bound.threshold!r}, which switches the {gate} gate off; allow it in so "
                    "many words (allow_off, --allow-gates-off) or calibrate on other questions")
            if gate == "threshold":
                threshold = bound.threshold
            elif hasattr(settings.gates, CONFIDENCE_KEY):
                confidence_threshold = bound.threshold
    if threshold != float(best["threshold"]):  # the figures of the cell actually written
        best = calibrate_gates(rows, split=split, order=settings.gates.order,
                               thresholds=[threshold], coverages=[float(best["min_coverage"])],
                               margins=[float(best["margin"])]).iloc[0]
    return Calibration(
        mode=settings.reranker.mode, split=split, threshold=threshold,
        min_lexical_coverage=float(best["min_coverage"]),
        disagreement_margin=float(best["margin"]),
        hasans_correct=float(best["hasans_correct"]), noans_refused=float(best["noans_refused"]),
        false_answers=int(best["false_answers"]), n_questions=len(rows), files=files,
        table=table, rows=rows, cached=cached, declined=declined, bound=bound, promise=promise,
        confidence_threshold=confidence_threshold)
