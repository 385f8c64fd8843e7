"""Which language a text is written in, by the share of its Cyrillic letters."""

from __future__ import annotations

import re

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_LATIN = re.compile(r"[A-Za-z]")


def detect_lang(text: str) -> str:
    """``ru`` when at least 30% of the letters are Cyrillic, else ``en``."""
    cyr = len(_CYRILLIC.findall(text))
    lat = len(_LATIN.findall(text))
    return "ru" if cyr and cyr >= 0.3 * (cyr + lat) else "en"
