"""Answers and refusals: the records every source shares and the wording rule of refusals."""

from workbench.answers._records import Refusal
from workbench.answers._wording import FALSEHOOD_PATTERN, falsehood_words, speakable

__all__ = ["FALSEHOOD_PATTERN", "Refusal", "falsehood_words", "speakable"]
