"""Training the confidence gate's model, and the table of what each signal group adds.

The labelled questions of the dev split go through the pipeline once with the confidence gate
recording its features and no model (:func:`confidence_rows`; the evaluation is cached like any
other). The label of a question is whether its answer — the best fragment's quote — holds a gold
span; a question that must be refused is labelled wrong whatever it would quote. A logistic
regression over the standardised features (scikit-learn, seeded) is fitted on every dev row and
written as JSON (:class:`workbench.gates.ConfidenceModel`) with a card of what it was trained on.

Its threshold and its ablation are read off cross-validated predictions: each dev question is
scored by a model that did not see it, and the answers are ranked by that score on the
risk–coverage curve (:func:`workbench.studies.risk_coverage`), over the questions every other
gate lets through. The threshold is the one that reaches the most coverage within the risk
asked for; the ablation retrains without each signal group in turn and reports its AURC.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

from workbench.config import Settings
from workbench.corpus._questions import SETS
from workbench.corpus._text import Corpus
from workbench.digests import sha256_file
from workbench.errors import WorkbenchError
from workbench.gates._confidence import feature_groups, feature_names
from workbench.gates._confidence_model import ConfidenceModel
from workbench.index._fragment_index import source_digest
from workbench.studies._gates import QuestionFiles, evaluate_sets_cached, question_files
from workbench.studies._risk import risk_coverage
from workbench.studies._selection import MUST_REFUSE, gold_spans

SEED = 13
"""The seed of the folds (the solver itself is deterministic)."""
FOLDS = 5
"""Cross-validation folds for the threshold and the ablation."""
C = 1.0
"""Inverse regularisation strength of the logistic regression."""
RISK = 0.05
"""The risk the chosen threshold keeps the cross-validated dev answers within."""


class ConfidenceTrainingError(WorkbenchError):
    """Too few labelled questions (or of one label only) to train or cross-validate on."""


@dataclass(frozen=True)
class ConfidenceTraining:
    """A fitted confidence model and how it measured on the dev split."""

    model: ConfidenceModel
    """The model fitted on every dev question (its card says on what)."""
    rows: pd.DataFrame
    """The dev rows of the evaluation, with ``label`` and the cross-validated ``confidence``."""
    features: pd.DataFrame
    """One row of features per question, same order."""
    cv_aurc: float
    """AURC of the cross-validated estimates (lower is better)."""
    top_score_aurc: float
    """AURC of the best reranked score over the same questions, for comparison."""
    files: tuple[Path, ...]
    """The question files trained on."""


def _training_settings(settings: Settings) -> Settings:
    """``settings`` with the confidence gate recording features and no model (nothing gated)."""
    order = list(settings.gates.order)
    if "confidence" not in order:
        order.insert(order.index("verbatim") if "verbatim" in order else len(order), "confidence")
    return settings.with_overrides(gates={"order": order, "confidence_model": "",
                                          "confidence_threshold": 0.0})


def _confidence_numbers(verdicts: str) -> dict[str, Any]:
    for verdict in json.loads(verdicts):
        if verdict.get("gate") == "confidence":
            return dict(verdict.get("numbers") or {})
    return {}


def confidence_rows(settings: Settings, *, sets: Sequence[str] = SETS,
                    questions: QuestionFiles | None = None, split: str = "dev",
                    progress: bool = False
                    ) -> tuple[pd.DataFrame, pd.DataFrame, tuple[Path, ...]]:
    """The evaluation rows of ``split`` with their ``label``, the features, and the files read.

    Args:
        settings: The index, corpus, retrieval and gate settings (the confidence gate's own
            model and threshold are switched off for the run).
        sets: Bundled sets by name, when ``questions`` is not given.
        questions: Labelled JSONL question files of one's own.
        split: The split to read (training reads ``dev`` only).
        progress: A progress bar on stderr.
    """
    files = question_files(settings, sets, questions)
    rows, _ = evaluate_sets_cached(_training_settings(settings), sets=sets, split=split,
                                   questions=questions, progress=progress)
    if rows.empty:
        raise ConfidenceTrainingError(f"no question of the {split} split in "
                                      f"{', '.join(str(f) for f in files)}")
    gold = gold_spans(files, settings.paths.corpus)
    names = feature_names()
    records, labels = [], []
    for row in rows.itertuples(index=False):
        numbers = _confidence_numbers(str(row.verdicts))
        records.append({name: float((numbers.get("features") or {}).get(name, 0.0))
                        for name in names})
        path, start, end = numbers.get("path"), numbers.get("quote_start"), numbers.get("quote_end")
        holds = (row.set not in MUST_REFUSE and path is not None and start is not None
                 and any(g.overlaps(str(path), int(start), int(end or start))
                         for g in gold.get(str(row.id), ())))
        labels.append(bool(holds))
    rows = rows.reset_index(drop=True).copy()
    rows["label"] = labels
    return rows, pd.DataFrame.from_records(records, columns=list(names)), files


def _fit(x: np.ndarray, y: np.ndarray, seed: int) -> tuple[StandardScaler, LogisticRegression]:
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=C, max_iter=5000, random_state=seed)
    model.fit(scaler.transform(x), y)
    return scaler, model


def cross_validated(features: pd.DataFrame, labels: Sequence[bool], *, seed: int = SEED,
                    folds: int = FOLDS) -> np.ndarray:
    """Each row's estimate from a model fitted on the other folds (stratified, seeded).

    Raises:
        ConfidenceTrainingError: Fewer rows of either label than folds.
    """
    y = np.asarray(labels, dtype=bool)
    smaller = int(min(y.sum(), (~y).sum()))
    if smaller < folds:
        raise ConfidenceTrainingError(f"{int(y.sum())} right and {int((~y).sum())} wrong "
                                      f"answers: each needs at least {folds} for {folds}-fold "
                                      "cross-validation")
    x = features.to_numpy(dtype=float)
    out = np.zeros(len(y))
    for train, held in StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y):
        scaler, model = _fit(x[train], y[train], seed)
        out[held] = model.predict_proba(scaler.transform(x[held]))[:, 1]
    return out


def _aurc(rows: pd.DataFrame, estimates: np.ndarray) -> tuple[float, float | None]:
    """AURC of ``estimates`` as the rows' ranking score, and the threshold within :data:`RISK`."""
    ranked = rows.assign(confidence=estimates)
    curve = risk_coverage(ranked, "confidence", levels=(RISK,))
    return curve.aurc, curve.at_risk[0].threshold


@dataclass(frozen=True)
class TrainingCorpus:
    """One more corpus to train on: its settings (index and corpus) and its question files."""

    settings: Settings
    """The settings naming the corpus and its index (retrieval and gates as the main ones)."""
    questions: QuestionFiles
    """Its labelled question files; only their dev split is read."""


def _corpus_rows(settings: Settings, sets: Sequence[str], questions: QuestionFiles | None,
                 progress: bool) -> tuple[pd.DataFrame, pd.DataFrame, tuple[Path, ...]]:
    rows, features, files = confidence_rows(settings, sets=sets, questions=questions,
                                            progress=progress)
    return rows.assign(corpus=Path(settings.paths.corpus).name), features, files


def train_confidence(settings: Settings, *, sets: Sequence[str] = SETS,
                     questions: QuestionFiles | None = None, name: str = "course",
                     seed: int = SEED, progress: bool = False,
                     also: Sequence[TrainingCorpus] = ()) -> ConfidenceTraining:
    """Fit the confidence model on the dev split of ``questions`` (or the bundled ``sets``).

    ``also`` adds the dev split of other corpora (each through its own index): one model for
    every corpus given, so one settings file serves them all. The card names each corpus's
    digest and question files; the rows carry a ``corpus`` column (the corpus folder's name).

    Raises:
        ConfidenceTrainingError: Too few dev questions of either label.
    """
    parts = [_corpus_rows(settings, sets, questions, progress)]
    parts += [_corpus_rows(extra.settings, SETS, extra.questions, progress) for extra in also]
    rows = pd.concat([part[0] for part in parts], ignore_index=True)
    features = pd.concat([part[1] for part in parts], ignore_index=True)
    files = tuple(f for part in parts for f in part[2])
    corpora = [settings, *(extra.settings for extra in also)]
    y = rows["label"].to_numpy(dtype=bool)
    estimates = cross_validated(features, y, seed=seed)
    cv_aurc, threshold = _aurc(rows, estimates)
    top_score_aurc = risk_coverage(rows, "top_score").aurc
    scaler, fitted = _fit(features.to_numpy(dtype=float), y, seed)
    card = {
        "name": name, "kind": "logistic regression over standardised features (scikit-learn)",
        "split": "dev",
        "questions": [{"file": f.name, "sha256": sha256_file(f)} for f in files],
        "corpus_digest": source_digest(Corpus(settings.paths.corpus)),
        "corpora": [{"name": Path(c.paths.corpus).name,
                     "digest": source_digest(Corpus(c.paths.corpus)),
                     "n": int((rows["corpus"] == Path(c.paths.corpus).name).sum())}
                    for c in corpora],
        "rerank_mode": settings.reranker.mode, "n": int(len(y)), "right": int(y.sum()),
        "seed": seed, "C": C, "folds": FOLDS,
        "label": "the best fragment's quote overlaps a gold span; a must-refuse question is "
                 "wrong",
        "cv_aurc": round(cv_aurc, 4), "top_score_aurc": round(top_score_aurc, 4),
        "threshold_rule": f"most cross-validated dev coverage within risk {RISK:g}",
        "groups": {group: list(names) for group, names in feature_groups().items()},
    }
    model = ConfidenceModel(
        features=tuple(features.columns), mean=tuple(float(v) for v in scaler.mean_),
        scale=tuple(float(v) for v in scaler.scale_),
        coef=tuple(float(v) for v in fitted.coef_[0]), intercept=float(fitted.intercept_[0]),
        threshold=round(float(threshold), 4) if threshold is not None else 0.0, card=card)
    return ConfidenceTraining(model=model, rows=rows.assign(confidence=estimates),
                              features=features, cv_aurc=cv_aurc, top_score_aurc=top_score_aurc,
                              files=files)


def confidence_ablation(rows: pd.DataFrame, features: pd.DataFrame, *, seed: int = SEED
                        ) -> pd.DataFrame:
    """AURC of the cross-validated estimates with each signal group removed in turn.

    Args:
        rows: The dev rows with ``label`` (:func:`confidence_rows` or
            :attr:`ConfidenceTraining.rows`).
        features: Their features, same order.
        seed: The folds' seed.

    Returns:
        One row per model: ``removed`` (``—`` for every signal, the group's name otherwise),
        ``features`` (how many it kept), ``aurc`` and ``delta`` (its AURC minus the full
        model's: positive means the group helped), then the best reranked score alone.
    """
    y = rows["label"].to_numpy(dtype=bool)
    full, _ = _aurc(rows, cross_validated(features, y, seed=seed))
    records = [{"removed": "—", "features": features.shape[1], "aurc": full, "delta": 0.0}]
    for group, names in feature_groups().items():
        kept = features.drop(columns=[n for n in names if n in features.columns])
        aurc, _ = _aurc(rows, cross_validated(kept, y, seed=seed))
        records.append({"removed": group, "features": kept.shape[1], "aurc": aurc,
                        "delta": aurc - full})
    score = risk_coverage(rows, "top_score").aurc
    records.append({"removed": "every group (top_score alone)", "features": 0, "aurc": score,
                    "delta": score - full})
    return pd.DataFrame.from_records(records)


def write_model(training: ConfidenceTraining, out: str | Path) -> Path:
    """Write the model's JSON (the card inside it) to ``out``."""
    return training.model.save(out)

