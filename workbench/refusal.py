"""The refusal record every source shares, and the wording rule every refusal obeys.

A refusal is a statement about a closed domain: its code, the area that was searched and the
numbers behind it. It says what was not shown inside that area; it never calls a thesis false.
The pattern below catches the English words and every form of the Russian stems,
case-insensitively, and a test runs it over every refusal template of every source.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Refusal:
    """A refusal: a statement about a closed domain, with its code and the numbers behind it."""

    code: str
    """A code from one of the closed code sets (gates, utilities, FTS, fallacies)."""
    area: str
    """Where the system looked: the corpus and its size, the catalog, the morphism library."""
    numbers: Mapping[str, Any] = field(default_factory=dict)
    """The counts that justify it: fragments checked, best score and threshold, missing items."""
    text: str = ""
    """The human sentence, in the question's language; never asserts falsehood."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"code": self.code, "area": self.area, "numbers": dict(self.numbers), "text": self.text}


FALSEHOOD_PATTERN = re.compile(
    r"\b(false\w*|incorrect\w*|ложн\w*|ложь|неверн\w*|неправильн\w*)",
    re.IGNORECASE | re.UNICODE,
)


def falsehood_words(text: str) -> list[str]:
    """The forbidden words found in ``text`` (empty when the wording is acceptable)."""
    return [m.group(0) for m in FALSEHOOD_PATTERN.finditer(text)]


def speakable(items: list[str] | tuple[str, ...]) -> tuple[list[str], int]:
    """Split items echoed from a question into those a refusal may repeat and a hidden count.

    A refusal lists what it could not find, and those items come from the user's own words; a
    question that says "неправильно" must not make the refusal say it.
    """
    kept = [item for item in items if not FALSEHOOD_PATTERN.search(str(item))]
    return kept, len(items) - len(kept)


__all__ = ["FALSEHOOD_PATTERN", "Refusal", "falsehood_words", "speakable"]
