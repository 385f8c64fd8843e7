"""Risk and coverage of a gate run: the curve, its area, a promise's check, and a shift check.

Definitions, the same wherever a figure is printed (questions of any corpus, question file,
split or rerank mode):

- *risk* = wrong answers ÷ answers, where an answer is wrong when its quoted fragment holds no
  gold span of an answerable question (``in_corpus``) or when it answers a question that must be
  refused (``out_of_corpus``, ``relevance_traps``);
- *coverage* = answerable questions answered from a gold fragment ÷ answerable questions.

:func:`risk_coverage` orders the answers a score would give by that score, best first, and draws
the risk–coverage curve. The answers considered (the *pool*) are the questions every gate lets
through except the gates a score stands for (:data:`SCORE_GATES`: the threshold gate reads the
best reranked score, the confidence gate a learned probability of being right), so every score
is ranked over the same questions and their areas compare. Beside the curve stand the ceilings
that ranking sets: the coverage of answering exactly the questions whose best candidate holds
gold (the abstention that cannot be beaten with the ranking as it is), and of those with gold
anywhere in the candidates (what a better reranker could add).

A *promise* (``[promise]`` in the settings, written by ``workbench gates calibrate --risk``) is a
threshold chosen by Learn-then-Test (:func:`workbench.stats.learn_then_test`) on a calibration
split. :func:`promise_check` says whether it carries to a run (same corpus, rerank mode and
gates), what risk it realised there, and :func:`shift_check` whether the run's scores look like
the calibration's — a test that needs no labels, since a promise holds only on questions drawn
like those it was made on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench import registry
from workbench.config import Promise, Settings
from workbench.digests import corpus_digest, sha256_file
from workbench.errors import WorkbenchError
from workbench.stats import exact_interval, format_p
from workbench.studies._analysis import ANSWERED, first_firing, run_order
from workbench.studies._selection import MUST_REFUSE

SCORE_GATES: Mapping[str, str] = {"top_score": "threshold", "confidence": "confidence"}
"""Each score column an answer can be ranked by, and the gate that reads it."""

RISK_LEVELS: tuple[float, ...] = (0.01, 0.02, 0.05, 0.10)
"""The risks at which the coverage is read off the curve."""

TOP_K = 10
"""How deep the second ranking ceiling looks for gold (the candidates a run keeps)."""


class RiskCoverageError(WorkbenchError):
    """A risk–coverage figure was asked of rows that cannot give it; the message says why."""


def default_score(rows: pd.DataFrame) -> str:
    """``confidence`` when the rows carry it (a learned gate wrote it), else ``top_score``."""
    if "confidence" in rows.columns and rows["confidence"].notna().any():
        return "confidence"
    return "top_score"


def _check_score(rows: pd.DataFrame, score: str) -> None:
    if score not in rows.columns:
        raise RiskCoverageError(f"the rows hold no {score!r} column to rank answers by; scores "
                                f"known: {', '.join(SCORE_GATES)}")


def answer_labels(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per row: whether the question is answerable, and whether its best candidate holds gold.

    An answer to the row is right exactly when both hold; every other answer is wrong.
    """
    answerable = ~rows["set"].isin(MUST_REFUSE).to_numpy()
    gold = rows["top_is_gold"].fillna(False).to_numpy(dtype=bool)
    return answerable, answerable & gold


def score_pool(rows: pd.DataFrame, *, order: Sequence[str] | None = None,
               lifted: Sequence[str] | None = None, threshold: float | None = None,
               min_coverage: float | None = None, margin: float | None = None) -> np.ndarray:
    """The rows every gate lets through but those in ``lifted``: the answers a score ranks.

    The gates are re-sliced from the cached verdicts (:func:`~workbench.studies.first_firing`;
    the threshold, gate 0's coverage and the margin replaced when given); a question the
    pipeline refused for a reason no lifted gate gives (an invariant, say) stays out.

    Args:
        rows: A gate run's rows.
        order: The gate order (default: the run's own).
        lifted: Gates whose firing the score replaces (default: every gate of
            :data:`SCORE_GATES`).
        threshold: The threshold gate's threshold, when it differs from the run's (and the
            gate is not lifted).
        min_coverage: Gate 0's coverage, when it differs from the run's.
        margin: The disagreement margin, when it differs from the run's.
    """
    lifted = tuple(SCORE_GATES.values()) if lifted is None else tuple(lifted)
    kept = [gate for gate in run_order(rows, order) if gate not in lifted]
    passed = first_firing(rows, kept, threshold=threshold, min_coverage=min_coverage,
                          margin=margin) == ANSWERED
    if "answer_mode" in rows.columns:
        registry.load("gate")
        codes = registry.metadata_of("gate", "code")
        lifted_codes = [codes[gate] for gate in lifted if gate in codes]
        passed &= (rows["answer_mode"].eq("A") | rows["answer_code"].isin(lifted_codes)).to_numpy()
    return passed


def score_values(rows: pd.DataFrame, score: str) -> np.ndarray:
    """The score column as floats; a missing score ranks below every other."""
    return rows[score].astype(float).fillna(-np.inf).to_numpy()


@dataclass(frozen=True)
class CurvePoint:
    """One point of the risk–coverage curve: answer where the score reaches ``threshold``."""

    threshold: float
    """The score an answer must reach."""
    answers: int
    """Answers given at this threshold."""
    wrong: int
    """Wrong answers among them."""
    right: int
    """Answerable questions answered from a gold fragment."""
    risk: float
    """``wrong / answers``."""
    coverage: float
    """``right / answerable questions``."""
    answered_share: float
    """``answers / pool``: the share of the pool answered (the axis the area is taken over)."""


@dataclass(frozen=True)
class CoverageAtRisk:
    """The most coverage the curve reaches without its risk passing ``level``."""

    level: float
    """The risk allowed."""
    coverage: float
    """The coverage at the best point within it (0 when no point is)."""
    threshold: float | None
    """That point's threshold (``None``: none is within the risk)."""
    answers: int
    """Answers there."""
    wrong: int
    """Wrong answers there."""


@dataclass(frozen=True)
class Ceilings:
    """Coverage that ranking allows, whatever the abstention: what is lost to ranking."""

    gold_first: float
    """Answerable questions whose best candidate holds gold ÷ answerable: answering those and
    refusing all else is the best any abstention can do with the ranking as it is."""
    gold_in_top: float
    """Answerable questions with gold among the first ``top_k`` candidates ÷ answerable: what a
    perfect reranker would allow."""
    top_k: int
    """How deep ``gold_in_top`` looks."""
    pool: float
    """The coverage when every answer of the pool is given: what the other gates leave."""


@dataclass(frozen=True)
class OperatingPoint:
    """The run as its gates answered: the pipeline's verified answers."""

    answers: int
    """Verified answers (mode A)."""
    wrong: int
    """Wrong ones among them."""
    right: int
    """Answerable questions answered from a gold fragment."""
    risk: float | None
    """``wrong / answers`` (``None`` without an answer)."""
    coverage: float
    """``right / answerable``."""
    interval: tuple[float, float] | None
    """The exact 95% interval of the risk."""


@dataclass(frozen=True)
class RiskCoverage:
    """The risk–coverage curve of one score over one run's pool, with its summary figures."""

    score: str
    """The column the answers were ranked by."""
    split: str | None
    """The split the rows were taken from (``None``: all)."""
    questions: int
    """Questions of the rows."""
    answerable: int
    """Answerable questions among them."""
    pool: int
    """Questions every gate but the score's lets through (:func:`score_pool`)."""
    points: tuple[CurvePoint, ...]
    """The curve, strictest threshold first, one point per distinct score."""
    aurc: float
    """Area under the curve: the mean, over the pool's answers taken best score first, of the
    risk at the threshold that admits each (ties admitted together); Geifman, Uziel &
    El-Yaniv 2019, "Bias-reduced uncertainty estimation for deep neural classifiers", ICLR."""
    aurc_best: float
    """The area a score that ranked every right answer first would have on this pool."""
    at_risk: tuple[CoverageAtRisk, ...]
    """Coverage at each risk of :data:`RISK_LEVELS`."""
    ceilings: Ceilings
    """The coverage ranking allows."""
    run: OperatingPoint
    """The run's own answers, as its gates gave them."""

    def frame(self) -> pd.DataFrame:
        """The curve as a table, one row per point."""
        return pd.DataFrame([asdict(p) for p in self.points],
                            columns=[f for f in CurvePoint.__dataclass_fields__])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (the run record keeps it whole).

        A threshold no score reaches is ``None`` (an answer without a score ranks last).
        """
        out = asdict(self)
        out["points"] = [{k: v if not isinstance(v, float) or np.isfinite(v) else None
                          for k, v in asdict(p).items()} for p in self.points]
        return out

    def aurc_ratio(self, baseline: RiskCoverage) -> float | None:
        """This curve's area over ``baseline``'s (the same pool): below 1, this score ranks better."""
        return self.aurc / baseline.aurc if baseline.aurc > 0 else None

    def baseline_line(self, baseline: RiskCoverage) -> str:
        """One line setting this curve beside ``baseline`` (another score over the same rows)."""
        ratio = self.aurc_ratio(baseline)
        times = f", {ratio:.2f}× its area" if ratio is not None else ""
        at = "; ".join(f"≤{100 * a.level:g}% {100 * a.coverage:.1f}%" for a in baseline.at_risk)
        return (f"  against {baseline.score}: AURC {baseline.aurc:.4f}{times}; its coverage at "
                f"risk {at}")

    def lines(self) -> list[str]:
        """What the terminal shows: the area, the coverage at each risk, the ceilings, the run."""
        split = f", {self.split} split" if self.split else ""
        many = "question" if self.questions == 1 else "questions"
        out = [f"risk and coverage (answers ranked by {self.score}{split}: {self.questions} "
               f"{many}, {self.answerable} answerable, {self.pool} pass every other gate):",
               f"  AURC {self.aurc:.4f} (a ranking with every right answer first: "
               f"{self.aurc_best:.4f})"]
        parts = []
        for item in self.at_risk:
            where = (f" at {item.threshold:.4f}, {item.wrong}/{item.answers} wrong"
                     if item.threshold is not None else " (no threshold)")
            parts.append(f"≤{100 * item.level:g}% {100 * item.coverage:.1f}%{where}")
        out.append("  coverage at risk " + "; ".join(parts))
        c = self.ceilings
        out.append(f"  ceilings: gold ranked first {100 * c.gold_first:.1f}%, gold in the top "
                   f"{c.top_k} {100 * c.gold_in_top:.1f}%; every answer of the pool "
                   f"{100 * c.pool:.1f}%")
        run = self.run
        if run.risk is None or run.interval is None:
            out.append("  the run as gated: no verified answer")
        else:
            low, high = run.interval
            out.append(f"  the run as gated: {run.answers} answers, {run.wrong} wrong: risk "
                       f"{100 * run.risk:.1f}% (exact 95% interval {100 * low:.1f}%–"
                       f"{100 * high:.1f}%), coverage {100 * run.coverage:.1f}%")
        return out


def _curve(scores: np.ndarray, wrong: np.ndarray, right: np.ndarray, answerable: int
           ) -> tuple[tuple[CurvePoint, ...], float]:
    """The curve points over one pool and its area (see :attr:`RiskCoverage.aurc`)."""
    if scores.size == 0:
        return (), 0.0
    thresholds = np.unique(scores)[::-1]
    order = np.argsort(-scores, kind="stable")
    answers = np.searchsorted(-scores[order], -thresholds, side="right")
    wrongs = np.concatenate([[0], np.cumsum(wrong[order])])[answers]
    rights = np.concatenate([[0], np.cumsum(right[order])])[answers]
    risks = wrongs / answers
    added = np.diff(np.concatenate([[0], answers]))
    aurc = float((risks * added).sum() / scores.size)
    points = tuple(CurvePoint(threshold=float(t), answers=int(n), wrong=int(k), right=int(r),
                              risk=float(k / n), coverage=float(r / answerable) if answerable
                              else 0.0, answered_share=float(n / scores.size))
                   for t, n, k, r in zip(thresholds, answers, wrongs, rights, strict=True))
    return points, aurc


def _at_risk(points: Sequence[CurvePoint], level: float) -> CoverageAtRisk:
    within = [p for p in points if p.risk <= level + 1e-12]
    if not within:
        return CoverageAtRisk(level, 0.0, None, 0, 0)
    best = max(within, key=lambda p: (p.coverage, p.threshold))
    return CoverageAtRisk(level, best.coverage, best.threshold, best.answers, best.wrong)


def _answered(rows: pd.DataFrame, order: Sequence[str]) -> np.ndarray:
    if "answer_mode" in rows.columns:
        return rows["answer_mode"].eq("A").to_numpy()
    return first_firing(rows, order) == ANSWERED


def risk_coverage(rows: pd.DataFrame, score: str | None = None, *, split: str | None = None,
                  order: Sequence[str] | None = None, lifted: Sequence[str] | None = None,
                  levels: Sequence[float] = RISK_LEVELS, top_k: int = TOP_K) -> RiskCoverage:
    """The risk–coverage curve of ``score`` over a gate run, with AURC, coverages and ceilings.

    Args:
        rows: The rows :func:`workbench.studies.evaluate_sets` returns.
        score: The column answers are ranked by, higher surer (default: :func:`default_score`).
        split: Only the rows of this split.
        order: The gate order (default: the run's own).
        lifted: The gates the score stands in for (default: every gate of :data:`SCORE_GATES`,
            so every score is ranked over the same pool).
        levels: The risks to read the coverage at.
        top_k: How deep the second ranking ceiling looks for gold.

    Raises:
        RiskCoverageError: The rows lack the score column, or hold no answerable question.
    """
    score = score or default_score(rows)
    _check_score(rows, score)
    if split is not None:
        rows = rows[rows["split"] == split]
    answerable, right = answer_labels(rows)
    n_answerable = int(answerable.sum())
    if n_answerable == 0:
        raise RiskCoverageError(f"no answerable question{' in the ' + split + ' split' if split else ''}"
                                ": coverage is taken over answerable questions")
    order = run_order(rows, order)
    pool = score_pool(rows, order=order, lifted=lifted)
    scores = score_values(rows, score)[pool]
    pool_right = right[pool]
    points, aurc = _curve(scores, ~pool_right, pool_right, n_answerable)
    ideal = np.empty(pool_right.size)  # every right answer first, then the wrong, one by one
    ideal[np.argsort(~pool_right, kind="stable")] = -np.arange(pool_right.size, dtype=float)
    _, aurc_best = _curve(ideal, ~pool_right, pool_right, n_answerable)
    ranks = rows["gold_rank"].astype(float).to_numpy()
    ceilings = Ceilings(gold_first=float(right.sum() / n_answerable),
                        gold_in_top=float((answerable & (ranks <= top_k)).sum() / n_answerable),
                        top_k=top_k, pool=float(pool_right.sum() / n_answerable))
    answered = _answered(rows, order)
    n, k, r = int(answered.sum()), int((answered & ~right).sum()), int((answered & right).sum())
    run = OperatingPoint(answers=n, wrong=k, right=r, risk=k / n if n else None,
                         coverage=r / n_answerable, interval=exact_interval(k, n) if n else None)
    return RiskCoverage(score=score, split=split, questions=len(rows), answerable=n_answerable,
                        pool=int(pool.sum()), points=points, aurc=aurc, aurc_best=aurc_best,
                        at_risk=tuple(_at_risk(points, level) for level in levels),
                        ceilings=ceilings, run=run)


@dataclass(frozen=True)
class ShiftCheck:
    """Whether a run's scores look like the calibration's: a check that needs no labels."""

    calibration: int
    """Calibration scores compared."""
    run: int
    """Scores of the run compared."""
    statistic: float | None
    """The two-sample Kolmogorov–Smirnov statistic (``None``: nothing to compare)."""
    p_value: float | None
    """Its p-value (the chance of so large a difference were both drawn alike)."""
    threshold: float
    """The promise's threshold."""
    share_calibration: float
    """Share of the calibration scores at or above the threshold."""
    share_run: float | None
    """Share of the run's scores at or above it."""
    interval: tuple[float, float] | None
    """The exact interval of ``share_run`` at ``1 - level``."""
    level: float
    """The test level."""
    shifted: bool | None
    """Whether the run differs from the calibration (``None``: the run has no score)."""

    def lines(self) -> list[str]:
        """The verdict with its numbers."""
        if self.shifted is None or self.statistic is None or self.p_value is None:
            return [f"shift check: no answer of this run passes the other gates; nothing to "
                    f"compare with the {self.calibration} calibration scores"]
        assert self.share_run is not None and self.interval is not None
        low, high = self.interval
        numbers = (f"Kolmogorov–Smirnov D {self.statistic:.3f}, p {format_p(self.p_value)} "
                   f"({self.run} scores here, {self.calibration} at calibration); at or above "
                   f"the threshold {self.threshold:.4f}: {100 * self.share_run:.1f}% here (exact "
                   f"{100 * (1 - self.level):g}% interval {100 * low:.1f}%–{100 * high:.1f}%) "
                   f"against {100 * self.share_calibration:.1f}% at calibration")
        if self.shifted:
            return [f"WARNING: these questions' scores differ from the calibration's, so the "
                    f"promise cannot be assumed here: {numbers}"]
        return [f"shift check: no sign that these questions differ from the calibration's "
                f"({numbers})"]


def shift_check(calibration: Sequence[float], run: Sequence[float], threshold: float,
                level: float = 0.05) -> ShiftCheck:
    """Compare a run's scores with the calibration's; shifted when either test says so.

    Two checks at ``level``: the two-sample Kolmogorov–Smirnov test of the whole distributions
    (scipy's ``ks_2samp``), and whether the calibration's share of scores at or above the
    threshold falls outside the exact (Clopper–Pearson) interval of the run's share. Neither needs
    a label; a run can still differ in what makes an answer wrong while its scores look alike.

    Raises:
        RiskCoverageError: ``level`` outside (0, 1) or no calibration score.
    """
    if not 0.0 < level < 1.0:
        raise RiskCoverageError(f"level = {level!r}: a test level is strictly between 0 and 1")
    before = np.asarray(calibration, dtype=float)
    after = np.asarray(run, dtype=float)
    after = after[np.isfinite(after)]
    if before.size == 0:
        raise RiskCoverageError("the promise holds no calibration score to compare with")
    share_before = float((before >= threshold).mean())
    if after.size == 0:
        return ShiftCheck(int(before.size), 0, None, None, threshold, share_before, None, None,
                          level, None)
    from scipy.stats import ks_2samp

    test = ks_2samp(before, after)
    k = int((after >= threshold).sum())
    interval = exact_interval(k, int(after.size), 1.0 - level)
    shifted = bool(test.pvalue < level or not interval[0] <= share_before <= interval[1])
    return ShiftCheck(int(before.size), int(after.size), float(test.statistic),
                      float(test.pvalue), threshold, share_before, k / after.size, interval,
                      level, shifted)


def gates_digest(settings: Settings) -> str:
    """A digest of the ``[gates]`` settings: a promise made under other gates does not carry."""
    plain = json.dumps(settings.to_dict()["gates"], sort_keys=True)
    return hashlib.sha256(plain.encode("utf-8")).hexdigest()


def calibration_digest(files: Sequence[Path], split: str) -> str:
    """A digest of the question files calibrated on and the split taken from them."""
    return corpus_digest({f"{Path(f).name}#{split}": sha256_file(f) if Path(f).is_file() else ""
                          for f in files})


@dataclass(frozen=True)
class PromiseCheck:
    """A promise held against one run: whether it carries there, what it realised, a shift check."""

    promise: Promise
    """The promise of the settings."""
    carries: bool
    """Whether the run is on the corpus, rerank mode and gates the promise was made on."""
    reasons: tuple[str, ...]
    """Why it does not carry (empty when it does)."""
    in_sample: bool
    """Whether the run holds the calibration questions themselves (left out of the figures)."""
    answers: int
    """The run's answers at the promise's threshold (calibration questions left out)."""
    wrong: int
    """Wrong ones among them."""
    interval: tuple[float, float] | None
    """The exact 95% interval of the realised risk."""
    shift: ShiftCheck | None
    """The shift check (``None`` when the promise does not carry)."""

    @property
    def realised(self) -> float | None:
        """The realised risk: wrong ÷ answers at the threshold (``None`` without an answer)."""
        return self.wrong / self.answers if self.answers else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, without the calibration scores the settings already hold."""
        out = asdict(self)
        out["promise"] = {k: v for k, v in asdict(self.promise).items() if k != "scores"}
        out["realised"] = self.realised
        return out

    def lines(self) -> list[str]:
        """The promise, whether it carries, its realised risk and the shift check."""
        p = self.promise
        out = [f"promise: risk at most {100 * p.alpha:g}% with probability {1 - p.delta:g} "
               f"where {p.score} reaches {p.threshold:.4f} (made on {p.answers} answers of the "
               f"{p.split} split, {p.wrong} wrong)"]
        if not self.carries:
            out.append("  it does not carry to this run: " + "; ".join(self.reasons))
            return out
        note = " (the calibration questions left out)" if self.in_sample else ""
        if self.realised is None or self.interval is None:
            out.append(f"  realised: no answer at the threshold{note}")
        else:
            low, high = self.interval
            out.append(f"  realised: {self.wrong} of {self.answers} answers wrong, risk "
                       f"{100 * self.realised:.1f}% (exact 95% interval {100 * low:.1f}%–"
                       f"{100 * high:.1f}%) against the promised {100 * p.alpha:g}%{note}")
        if self.shift is not None:
            out.extend("  " + line for line in self.shift.lines())
        return out


def promise_check(rows: pd.DataFrame, settings: Settings, *, corpus: str,
                  files: Sequence[Path] = (), level: float = 0.05) -> PromiseCheck:
    """Hold the settings' promise against a gate run.

    Args:
        rows: The run's rows.
        settings: Its settings; ``[promise]`` is the promise (``alpha > 0``).
        corpus: The digest of the corpus the run's index holds (``FragmentIndex.corpus_digest``).
        files: The run's question files; when they are the calibration's, the rows of the
            calibration split are left out of the realised risk and the shift check.
        level: The shift check's test level.

    Raises:
        RiskCoverageError: The settings hold no promise, or the rows lack its score.
    """
    promise = settings.promise
    if promise.alpha <= 0:
        raise RiskCoverageError("the settings hold no promise ([promise] alpha is 0); "
                                "`workbench gates calibrate --risk` makes one")
    reasons = []
    if promise.corpus_digest != corpus:
        reasons.append(f"the promise was made on corpus {promise.corpus_digest[:12]}, this run's "
                       f"index holds corpus {corpus[:12]}")
    if promise.score == "top_score" and promise.mode != settings.reranker.mode:
        reasons.append(f"its scores are rerank mode {promise.mode}'s, this run's are "
                       f"{settings.reranker.mode}'s")
    if promise.gates_digest != gates_digest(settings):
        reasons.append("the [gates] settings differ from those it was made under")
    if promise.score not in rows.columns:
        reasons.append(f"the rows hold no {promise.score!r} score")
    in_sample = bool(files) and calibration_digest(files, promise.split) == \
        promise.calibration_digest
    if in_sample:
        rows = rows[rows["split"] != promise.split]
    if reasons:
        return PromiseCheck(promise, False, tuple(reasons), in_sample, 0, 0, None, None)
    _, right = answer_labels(rows)
    pool = score_pool(rows, lifted=(SCORE_GATES[promise.score],))
    scores = score_values(rows, promise.score)
    answered = pool & (scores >= promise.threshold)
    n, k = int(answered.sum()), int((answered & ~right).sum())
    shift = shift_check(promise.scores, scores[pool], promise.threshold, level)
    return PromiseCheck(promise, True, (), in_sample, n, k, exact_interval(k, n) if n else None,
                        shift)


__all__ = [
    "RISK_LEVELS",
    "SCORE_GATES",
    "Ceilings",
    "CoverageAtRisk",
    "CurvePoint",
    "OperatingPoint",
    "PromiseCheck",
    "RiskCoverage",
    "RiskCoverageError",
    "ShiftCheck",
    "answer_labels",
    "calibration_digest",
    "default_score",
    "gates_digest",
    "promise_check",
    "risk_coverage",
    "score_pool",
    "score_values",
    "shift_check",
]
