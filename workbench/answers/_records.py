"""Records every source shares: the refusal."""

from __future__ import annotations

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
