"""Mode B: advisory text from a configured local causal language model.

Any transformers model directory works (a tokenizer and a causal LM saved with
``save_pretrained``). Nothing is downloaded: the directory is opened with ``local_files_only``.
The text is advisory; it carries no evidence and no guarantee, and the answer says so.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Protocol, runtime_checkable

from workbench.errors import WorkbenchError


class GeneratorError(WorkbenchError):
    """A generator directory that cannot be opened as a local causal language model."""


@runtime_checkable
class Generator(Protocol):
    """Anything that writes advisory text for a question."""

    model_id: str
    """What produced the text (a folder, a model name)."""

    def generate(self, question: str) -> str:
        """Advisory text for ``question``."""
        ...


class TransformersGenerator:
    """A causal LM from a local folder, decoded greedily (the same question gives the same text)."""

    def __init__(self, path: str | Path, max_new_tokens: int = 64) -> None:
        folder = Path(path)
        if not folder.is_dir():
            raise GeneratorError(f"generator folder {folder} does not exist")
        try:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
            self.model = AutoModelForCausalLM.from_pretrained(folder, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise GeneratorError(f"{folder} is not a local causal language model: {exc}") from exc
        self.model.eval()
        self.model_id = str(folder)
        self.max_new_tokens = max_new_tokens

    def generate(self, question: str) -> str:
        """Greedy continuation of ``question``, without the prompt."""
        import torch

        encoded = self.tokenizer(question, return_tensors="pt")
        pad = self.tokenizer.pad_token_id
        if pad is None:
            pad = self.tokenizer.eos_token_id if self.tokenizer.eos_token_id is not None else 0
        with torch.no_grad():
            output = self.model.generate(**encoded, max_new_tokens=self.max_new_tokens,
                                         do_sample=False, pad_token_id=pad)
        new = output[0, encoded["input_ids"].shape[1]:]
        return str(self.tokenizer.decode(new, skip_special_tokens=True)).strip()


@functools.cache
def load_generator(path: str, max_new_tokens: int = 64) -> TransformersGenerator:
    """Open the generator at ``path`` once per process."""
    return TransformersGenerator(path, max_new_tokens)
