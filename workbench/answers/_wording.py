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
