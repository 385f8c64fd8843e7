"""How many tokens the same text costs under different router tokenizers.

The system under study reports that a vocabulary expanded for Russian makes Russian requests cheaper. This is
measured here, not assumed: the same texts (the task set's questions by language, the category
index a two-stage prompt shows, the gold decisions a router writes) are tokenised by each
tokenizer, and every tokenizer is compared with the first one named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.routing._score import TaskItem
from workbench.routing._transformers import compact_prompt, decision_target, load_tokenizer
from workbench.utilities import category_index

TOKEN_COLUMNS: tuple[str, ...] = (
    "tokenizer", "vocabulary", "group", "texts", "characters", "tokens", "chars_per_token",
    "tokens_per_text", "savings",
)  # fmt: skip
"""The columns of :func:`token_table`; ``savings`` is ``1 - tokens / tokens of the first tokenizer``."""


def text_groups(items: Sequence[TaskItem]) -> dict[str, list[str]]:
    """The texts compared: prompts by language, the category index, and the gold decisions.

    Args:
        items: Task items (the router task set, the red team, or both).

    Returns:
        Group name -> texts: ``prompt ru`` and ``prompt en`` (each question in the compact prompt),
        ``category index`` (the one text stage one of the two-stage prompt shows) and
        ``decision`` (each gold decision as the JSON a router writes).
    """
    groups: dict[str, list[str]] = {"prompt ru": [], "prompt en": []}
    for item in items:
        groups.setdefault(f"prompt {item.lang}", []).append(compact_prompt(item.question))
    groups["category index"] = [category_index()]
    groups["decision"] = [decision_target(item.gold) for item in items if item.gold]
    return {name: texts for name, texts in groups.items() if texts}


def token_table(tokenizers: Mapping[str, Any], items: Sequence[TaskItem]) -> pd.DataFrame:
    """Tokens per group of texts under each tokenizer, with the savings against the first.

    Args:
        tokenizers: Name -> a tokenizer (``encode(text, add_special_tokens=False)``) or the path
            of a folder holding one; the first is the reference for ``savings``.
        items: The task items whose texts are counted (see :func:`text_groups`).

    Returns:
        One row per tokenizer and group, columns :data:`TOKEN_COLUMNS`.
    """
    loaded = {name: load_tokenizer(tok) if isinstance(tok, str | Path) else tok
              for name, tok in tokenizers.items()}
    groups = text_groups(items)
    rows: list[dict[str, Any]] = []
    reference: dict[str, int] = {}
    for name, tokenizer in loaded.items():
        for group, texts in groups.items():
            tokens = sum(len(tokenizer.encode(text, add_special_tokens=False)) for text in texts)
            characters = sum(len(text) for text in texts)
            reference.setdefault(group, tokens)
            rows.append({
                "tokenizer": name, "vocabulary": len(tokenizer), "group": group, "texts": len(texts),
                "characters": characters, "tokens": tokens,
                "chars_per_token": characters / tokens if tokens else float("nan"),
                "tokens_per_text": tokens / len(texts),
                "savings": 1.0 - tokens / reference[group] if reference[group] else float("nan"),
            })  # fmt: skip
    return pd.DataFrame(rows, columns=list(TOKEN_COLUMNS))
