"""Cyrillic to Latin by the two standards the workbench knows, shared by utilities and retrieval.

The ``text.transliterate`` utility exposes them to routers; the cross-encoder reads Russian
through the ГОСТ table because its tokenizer splits Cyrillic into single characters. One table,
one implementation, on the ground floor so that neither of those floors imports the other.
"""

from __future__ import annotations

# ГОСТ 7.79-2000, system B (Latin letters only, with diacritic-free digraphs and backticks).
# Ц is "c" before i, e, y, j and "cz" elsewhere; that context is handled in code.
GOST_B = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "yo", "ж": "zh", "з": "z",
    "и": "i", "й": "j", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "x", "ц": "cz", "ч": "ch", "ш": "sh",
    "щ": "shh", "ъ": "``", "ы": "y`", "ь": "`", "э": "e`", "ю": "yu", "я": "ya",
}  # fmt: skip
# ICAO Doc 9303 (7th ed., 2015), the table Russian passports have used since 2013.
ICAO = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh",
    "щ": "shch", "ъ": "ie", "ы": "y", "ь": "", "э": "e", "ю": "iu", "я": "ia",
}  # fmt: skip
STANDARDS = {"gost-7.79-b": GOST_B, "icao": ICAO}
_GOST_SOFT_C = set("иеыйiey")


def transliterate_table(text: str, table: dict[str, str], gost: bool) -> str:
    """Letter-by-letter transliteration with ``table``; ``gost`` applies the ГОСТ rule for ц.

    Characters outside the table are kept; a capital becomes a capitalised (or, inside an
    all-capitals word, all-capitals) Latin group.
    """
    out: list[str] = []
    for i, ch in enumerate(text):
        low = ch.lower()
        latin = table.get(low)
        if latin is None:
            out.append(ch)
            continue
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if gost and low == "ц" and nxt.lower() in _GOST_SOFT_C:
            latin = "c"
        if ch != low and latin:
            prev = text[i - 1] if i > 0 else ""
            # A capital inside an all-capitals word stays all capitals (ЩИ -> SHHI, not ShhI).
            all_caps = (nxt.isalpha() and nxt.isupper()) or (
                not nxt.isalpha() and prev.isalpha() and prev.isupper()
            )
            latin = latin.upper() if all_caps else latin[0].upper() + latin[1:]
        out.append(latin)
    return "".join(out)


__all__ = ["GOST_B", "ICAO", "STANDARDS", "transliterate_table"]
