"""Training the small routers here: a byte-level BPE tokenizer and a tiny Qwen3-architecture model.

No base model can be downloaded here, so each router is trained from scratch on the seeded lines
of :func:`workbench.routing.generate_training_data`. Every line becomes the compact prompt and
its target JSON (:func:`~workbench.routing._transformers.training_text`) followed by the
end-of-text token; the lines are packed into 128-token blocks and the model is trained with
AdamW, seeded, behind a tqdm progress bar. The folder written holds the fp16 safetensors
weights, the tokenizer (saved as a ``PreTrainedTokenizerFast``) and ``workbench_training.json``
with what was trained and measured.

A config is a TOML file (``models/routers/*.toml``) whose keys are the fields of
:class:`RouterTrainingConfig`.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
import tomllib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from workbench.config import project_relative, project_root
from workbench.errors import WorkbenchError
from workbench.routing._dataset import generate_training_data
from workbench.routing._transformers import TRAINING_RECORD, training_text

BLOCK_SIZE = 128
BATCH_SIZE = 16
EOS_TOKEN = "<|endoftext|>"
PAD_TOKEN = "<|pad|>"
RU_VOCAB_FACTOR = 1.5
"""How much larger the expanded-Russian vocabulary is than the configured one."""
RU_UPWEIGHT = 3
"""How many times each Russian line is shown to the expanded-Russian tokenizer's trainer."""
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


class TrainingConfigError(WorkbenchError, ValueError):
    """A training config that cannot be read, or with a missing, unknown or bad value."""


@dataclass(frozen=True)
class RouterTrainingConfig:
    """One small router to train: its data, tokenizer, model sizes and optimisation."""

    name: str
    """The router's name (``base``, ``ru-vocab``...)."""
    refusal_share: float
    """The share of refusal lines in the training data."""
    lines: int
    """How many training lines to generate."""
    vocab_size: int
    """The tokenizer's vocabulary size (the expanded-Russian variant multiplies it)."""
    extra_ru: bool
    """Train the tokenizer with an expanded Russian vocabulary."""
    hidden_size: int
    """Model width."""
    intermediate_size: int
    """MLP width."""
    layers: int
    """Decoder layers."""
    heads: int
    """Attention heads."""
    kv_heads: int
    """Key/value heads (grouped-query attention)."""
    head_dim: int
    """Width of one head."""
    epochs: int
    """Passes over the packed blocks."""
    lr: float
    """AdamW learning rate (peak, decayed linearly to a tenth)."""
    seed: int
    """Seed of the data, the initialisation and the batch order."""
    out: str
    """The output folder, relative to the project root (``models/routers/NAME``)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.refusal_share <= 1.0:
            raise TrainingConfigError(f"{self.name}: refusal_share must lie in [0, 1]")
        for key in ("lines", "vocab_size", "hidden_size", "intermediate_size", "layers", "heads",
                    "kv_heads", "head_dim", "epochs"):
            if int(getattr(self, key)) <= 0:
                raise TrainingConfigError(f"{self.name}: {key} must be positive")
        if self.heads % self.kv_heads:
            raise TrainingConfigError(f"{self.name}: heads must be a multiple of kv_heads")
        if self.lr <= 0:
            raise TrainingConfigError(f"{self.name}: lr must be positive")

    def model_config(self, vocab_size: int) -> Any:
        """The ``Qwen3Config`` of this router for a tokenizer of ``vocab_size`` tokens."""
        from transformers import Qwen3Config

        return Qwen3Config(
            vocab_size=vocab_size, hidden_size=self.hidden_size,
            intermediate_size=self.intermediate_size, num_hidden_layers=self.layers,
            num_attention_heads=self.heads, num_key_value_heads=self.kv_heads, head_dim=self.head_dim,
            tie_word_embeddings=True, max_position_embeddings=1024, use_cache=True,
        )

    def tokenizer_vocab(self) -> int:
        """The vocabulary size the tokenizer is trained to."""
        return int(self.vocab_size * RU_VOCAB_FACTOR) if self.extra_ru else self.vocab_size


def load_training_config(path: str | Path) -> RouterTrainingConfig:
    """Read a training config TOML.

    Raises:
        TrainingConfigError: On an unreadable file, a missing or unknown key, or a bad value.
    """
    source = Path(path)
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TrainingConfigError(f"cannot read training config {source}: {exc}") from None
    names = [f.name for f in fields(RouterTrainingConfig)]
    missing = [n for n in names if n not in data]
    unknown = sorted(set(data) - set(names))
    if missing or unknown:
        raise TrainingConfigError(f"{source}: missing keys {missing}, unknown keys {unknown}")
    try:
        return RouterTrainingConfig(**data)
    except TypeError as exc:
        raise TrainingConfigError(f"{source}: {exc}") from None


def parameter_count(config: RouterTrainingConfig, vocab_size: int | None = None) -> int:
    """Parameters of the model a config builds (tied embeddings counted once)."""
    from transformers import Qwen3ForCausalLM

    model = Qwen3ForCausalLM(config.model_config(vocab_size or config.tokenizer_vocab()))
    return sum(p.numel() for p in model.parameters())


def train_tokenizer(lines: Sequence[str], vocab_size: int, extra_ru: bool = False,
                    out: str | Path | None = None) -> Any:
    """Train a byte-level BPE tokenizer and wrap it as a ``PreTrainedTokenizerFast``.

    Args:
        lines: The training text, one line per item.
        vocab_size: The vocabulary size (multiplied by :data:`RU_VOCAB_FACTOR` when ``extra_ru``).
        extra_ru: The expanded-Russian variant: a larger vocabulary, trained with every line
            containing Cyrillic shown :data:`RU_UPWEIGHT` times.
        out: A folder to save the tokenizer to (``save_pretrained``), when given.

    Returns:
        The tokenizer, with ``<|endoftext|>`` as its end-of-text and ``<|pad|>`` as its padding token.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    size = int(vocab_size * RU_VOCAB_FACTOR) if extra_ru else vocab_size
    corpus: list[str] = []
    for line in lines:
        corpus.extend([line] * (RU_UPWEIGHT if extra_ru and _CYRILLIC.search(line) else 1))
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=size, special_tokens=[EOS_TOKEN, PAD_TOKEN],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tokenizer.train_from_iterator(corpus, trainer=trainer)
    wrapped = PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token=EOS_TOKEN, pad_token=PAD_TOKEN,
                                      clean_up_tokenization_spaces=False)
    if out is not None:
        wrapped.save_pretrained(str(out))
    return wrapped


@dataclass(frozen=True)
class TrainingReport:
    """What one training run did and measured (also written as ``workbench_training.json``)."""

    name: str
    """The config's name."""
    out: str
    """The folder written."""
    lines: int
    """Training lines generated."""
    refusal_share: float
    """The refusal share asked for."""
    tokens: int
    """Tokens in all lines together."""
    blocks: int
    """Packed 128-token blocks."""
    vocab_size: int
    """The tokenizer's actual vocabulary size."""
    parameters: int
    """Model parameters (tied embeddings counted once)."""
    epochs: int
    """Passes over the blocks."""
    steps: int
    """Optimiser steps."""
    seconds: float
    """Wall time of the training loop."""
    seconds_per_step: float
    """Mean wall time of one optimiser step."""
    final_loss: float
    """Mean loss over the last epoch's steps."""
    prompt_format: str = "compact"
    """The prompt format the router must be used with."""
    config: dict[str, Any] | None = None
    """The config as trained (with overrides applied)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return asdict(self)


def _lr_factor(step: int, total: int) -> float:
    warmup = max(1, total // 20)
    if step < warmup:
        return (step + 1) / warmup
    return 1.0 - 0.9 * (step - warmup) / max(1, total - warmup)


def train_router(config: RouterTrainingConfig, *, lines: int | None = None, epochs: int | None = None,
                 out: str | Path | None = None, progress: bool = True) -> TrainingReport:
    """Train one small router from scratch and save it.

    Args:
        config: The router to train.
        lines: Override of the config's number of lines (for quick runs).
        epochs: Override of the config's epochs.
        out: Override of the output folder (default: the config's ``out`` under the project root).
        progress: Show a tqdm progress bar.

    Returns:
        The training report, also written to ``workbench_training.json`` in the folder.

    Raises:
        TrainingConfigError: When the data packs into no full 128-token block.
    """
    import numpy as np
    import torch
    from tqdm import tqdm
    from transformers import Qwen3ForCausalLM

    config = replace(config, lines=lines or config.lines, epochs=epochs or config.epochs)
    target = Path(out) if out is not None else project_root() / config.out
    random.seed(config.seed)
    np.random.seed(config.seed)
    torch.manual_seed(config.seed)

    rows = generate_training_data(lines=config.lines, refusal_share=config.refusal_share, seed=config.seed)
    texts = [training_text(r["question"], r["gold"]) for r in rows]
    tokenizer = train_tokenizer(texts, config.vocab_size, extra_ru=config.extra_ru)
    eos = tokenizer.eos_token_id
    stream: list[int] = []
    for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]:
        stream.extend(ids)
        stream.append(eos)
    n_blocks = len(stream) // BLOCK_SIZE
    if n_blocks == 0:
        raise TrainingConfigError(f"{config.name}: {len(stream)} tokens make no {BLOCK_SIZE}-token block")
    blocks = torch.tensor(stream[: n_blocks * BLOCK_SIZE], dtype=torch.long).view(n_blocks, BLOCK_SIZE)

    model_config = config.model_config(len(tokenizer))
    model_config.eos_token_id = eos
    model_config.bos_token_id = eos
    model_config.pad_token_id = tokenizer.pad_token_id
    model = Qwen3ForCausalLM(model_config)
    parameters = sum(p.numel() for p in model.parameters())
    optimiser = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.01)
    per_epoch = math.ceil(n_blocks / BATCH_SIZE)
    total = per_epoch * config.epochs
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda s: _lr_factor(s, total))
    generator = torch.Generator().manual_seed(config.seed)

    model.train()
    losses: list[float] = []
    start = time.perf_counter()
    with tqdm(total=total, desc=f"train {config.name}", unit="step", disable=not progress) as bar:
        for _ in range(config.epochs):
            losses = []
            order = torch.randperm(n_blocks, generator=generator)
            for first in range(0, n_blocks, BATCH_SIZE):
                batch = blocks[order[first:first + BATCH_SIZE]]
                loss = model(input_ids=batch, labels=batch).loss
                optimiser.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimiser.step()
                scheduler.step()
                losses.append(float(loss.item()))
                bar.set_postfix(loss=f"{losses[-1]:.3f}")
                bar.update(1)
    seconds = time.perf_counter() - start

    target.mkdir(parents=True, exist_ok=True)
    model.eval()
    model.generation_config.eos_token_id = eos
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.half()
    model.save_pretrained(str(target), safe_serialization=True)
    tokenizer.save_pretrained(str(target))
    report = TrainingReport(
        name=config.name, out=project_relative(target), lines=len(rows), refusal_share=config.refusal_share,
        tokens=len(stream), blocks=n_blocks, vocab_size=len(tokenizer), parameters=parameters,
        epochs=config.epochs, steps=total, seconds=round(seconds, 3),
        seconds_per_step=round(seconds / total, 4), final_loss=round(sum(losses) / len(losses), 4),
        config=asdict(config))
    (target / TRAINING_RECORD).write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n",
                                          encoding="utf-8")
    return report
