"""The wording rule every refusal obeys: it never asserts falsehood.

A refusal says what was not shown inside a named area; it does not call a thesis false. The
pattern below catches the English words and every form of the Russian stems, case-insensitively.
"""

from __future__ import annotations

import re

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
