"""Charset category: bytes of a text in a charset and back, mojibake repair, code points."""

from __future__ import annotations

import re
import unicodedata

from workbench.utilities._encoding import parse_hex
from workbench.utilities._schema import (
    BadArgument,
    charset_codec,
    circ,
    data,
    decode_bytes,
    define,
    encode_text,
    ex,
    text_form,
)

TEXT = data("text", "string", "the text", "текст", form="phrase")
CHARSET = circ(
    "charset", "string", "the charset (e.g. windows-1251)", "кодировка (например, windows-1251)"
)
FORMS = ("NFC", "NFD", "NFKC", "NFKD")

# Charsets a UTF-8 text is commonly misread as, in the order tried: the Windows Cyrillic page first
# because it is what Russian mojibake ("РџСЂРёРІРµС‚") most often comes from.
_MISREAD_AS = ("cp1251", "cp1252", "latin-1", "koi8-r", "cp866")


@define(
    "charset.encode",
    en="bytes of a text in a charset, as spaced hex",
    ru="байты текста в заданной кодировке, шестнадцатеричные через пробел",
    args=[TEXT, CHARSET],
    examples=[
        ex({"text": "Привет", "charset": "windows-1251"}, "cf f0 e8 e2 e5 f2"),
        ex({"text": "Привет", "charset": "koi8-r"}, "f0 d2 c9 d7 c5 d4"),
        ex({"text": "€", "charset": "utf-8"}, "e2 82 ac"),
    ],
)
def encode(text: str, charset: str) -> str:
    """Lower-case hex bytes separated by single spaces."""
    return encode_text(text, charset).hex(" ")


@define(
    "charset.decode",
    en="text from hex bytes in a charset",
    ru="текст из шестнадцатеричных байтов в заданной кодировке",
    args=[data("data", "string", "the bytes as hex", "байты в шестнадцатеричном виде"), CHARSET],
    examples=[ex({"data": "cf f0 e8 e2 e5 f2", "charset": "windows-1251"}, "Привет")],
)
def decode(data: str, charset: str) -> str:
    """Decode hex bytes (spaces, colons, ``0x`` allowed) with ``charset``."""
    return decode_bytes(parse_hex(data), charset)


@define(
    "charset.transcode",
    en="re-encode hex bytes from one charset to another",
    ru="перекодировать шестнадцатеричные байты из одной кодировки в другую",
    args=[
        data("data", "string", "the bytes as hex", "байты в шестнадцатеричном виде"),
        circ("from_charset", "string", "the charset of the bytes", "исходная кодировка"),
        circ("to_charset", "string", "the target charset", "целевая кодировка"),
    ],
    examples=[
        ex(
            {"data": "cf f0 e8 e2 e5 f2", "from_charset": "windows-1251", "to_charset": "koi8-r"},
            "f0 d2 c9 d7 c5 d4",
        )
    ],
)
def transcode(data: str, from_charset: str, to_charset: str) -> str:
    """The same text's bytes in ``to_charset``, as spaced hex."""
    charset_codec(from_charset, "from_charset")
    charset_codec(to_charset, "to_charset")
    text = decode_bytes(parse_hex(data), from_charset)
    return encode_text(text, to_charset, "data").hex(" ")


_QUOTE_MARKS = "\"'«»“”„`"


_READABLE = frozenset("LNPZ")
"""The Unicode categories (letters, numbers, punctuation, spaces) a repaired word is made of: a
correct Russian word whose bytes happen to be valid UTF-8 («так» in cp866) reads as braille."""
_SYMBOL_BLOCKS = ((0x00A0, 0x00FF), (0x2000, 0x214F))
"""The blocks whose symbols a repaired word may hold too (№, €, ©)."""
_CLOSING = ".,;:!?)"
"""Punctuation that ends a sentence or a clause after a word: no part of a misread run's end."""


def _readable(char: str) -> bool:
    return unicodedata.category(char)[0] in _READABLE or any(
        low <= ord(char) <= high for low, high in _SYMBOL_BLOCKS)


def _misread(token: str) -> bool:
    """Whether ``token``'s bytes in a charset of ``_MISREAD_AS`` are UTF-8 of another readable text."""
    for codec in _MISREAD_AS:
        try:
            repaired = token.encode(codec).decode("utf-8")
        except UnicodeError:
            continue
        if repaired != token and all(_readable(c) for c in repaired):
            return True
    return False


def _neutral(word: str) -> bool:
    """Digits and punctuation, which read alike however the bytes were decoded («50», «3,2%»)."""
    return word.isascii() and not any(c.isalpha() for c in word)


@text_form("misread")
def misread_spans(text: str) -> list[tuple[int, int]]:
    """The runs of ``text`` that are misread UTF-8, longest first.

    A run is of words each misread (:func:`_misread`: «РњСѓРєР°», «вЂ”», «70С…140»), with words
    of digits and punctuation between them («50», «18:00»); a word of any other text ends it after
    its last misread word, and a quote mark ends it where it stands («…РЎРјРёСЂРЅРѕРІР°».), the
    mark left out, as is the punctuation after its last word («…РЎРѕРєРѕР»РѕРІР°.»).
    """
    runs: list[tuple[int, int]] = []
    start = last = -1

    def close(end: int) -> None:
        nonlocal start
        if start >= 0:
            runs.append((start, end))
        start = -1

    for m in re.finditer(r"\S+", text):
        s, e = m.start(), m.end()
        inner_s = s
        while inner_s < e and text[inner_s] in _QUOTE_MARKS + "(":
            inner_s += 1
        if inner_s > s:
            close(last)
        while e > inner_s and text[e - 1] in _CLOSING + _QUOTE_MARKS:
            e -= 1
        # the shortest word that reads as misread: «С„» is a misread «ф», «вЂ”» a dash
        e = next((end for end in range(e, m.end() + 1) if _misread(text[inner_s:end])), e)
        word, marks = text[inner_s:e], text[e:m.end()]
        if marks and all(c in _CLOSING for c in marks) and (
                m.end() == len(text.rstrip()) or text[m.end():m.end() + 1] in _QUOTE_MARKS):
            e, marks = m.end(), ""  # the text's or the quote's own last mark
        if word and _misread(word):
            start, last = (inner_s if start < 0 else start), e
        elif word and not _neutral(word):
            close(last)
            continue
        if any(c in _QUOTE_MARKS for c in marks):
            punct = marks[:min(marks.index(c) for c in _QUOTE_MARKS if c in marks)]
            close(e + len(punct) if word and start >= 0 else last)  # a quote is whole
    close(last)
    return sorted(runs, key=lambda r: (r[0] - r[1], r[0]))


def _cyrillic_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum("\u0400" <= c <= "\u04ff" for c in letters) / len(letters)


@define(
    "charset.fix_mojibake",
    en="repair UTF-8 text that was misread in a single-byte charset",
    ru="исправить текст в UTF-8, прочитанный в однобайтовой кодировке («кракозябры»)",
    args=[data("text", "string", "the text", "текст", form="misread")],
    examples=[
        ex({"text": "РџСЂРёРІРµС‚, РјРёСЂ"}, "Привет, мир"),
        ex({"text": "ÐŸÑ€Ð¸Ð²ÐµÑ‚"}, "Привет"),
    ],
)
def fix_mojibake(text: str) -> str:
    """Undo one wrong decoding: re-encode in a guessed charset and decode as UTF-8.

    Every candidate of ``_MISREAD_AS`` that round-trips is scored by the share of Cyrillic
    letters it yields, then by how few characters it needs; the best wins, ties go to the earlier
    candidate. The length counts because a misread text can be all Cyrillic letters itself
    («РЎРјРёСЂРЅРѕРІР°» for «Смирнова»): each two-byte letter read as two single-byte ones is
    undone into one, where a correct Russian text seldom round-trips at all (a text that does is
    a misreading too and is taken for one: «пё» is what KOI8-R makes of «У»'s UTF-8 bytes). A misread Latin
    text is repaired too ("cafÃ©" → "café"). A text none of them repairs is returned unchanged
    (it may simply be correct).
    """
    best, best_score = text, (_cyrillic_share(text), -len(text))
    for codec in _MISREAD_AS:
        try:
            repaired = text.encode(codec).decode("utf-8")
        except UnicodeError:
            continue
        if repaired == text:
            continue
        score = (_cyrillic_share(repaired), -len(repaired))
        if score > best_score:
            best, best_score = repaired, score
    return best


@define(
    "charset.utf8_length",
    en="length of a text in UTF-8 bytes",
    ru="длина текста в байтах UTF-8",
    args=[TEXT],
    result="integer",
    examples=[ex({"text": "Привет"}, 12), ex({"text": "a€😀"}, 8)],
)
def utf8_length(text: str) -> int:
    """Bytes of ``text`` in UTF-8 (a lone surrogate is a bad argument)."""
    return len(encode_text(text))


@define(
    "charset.byte_length",
    en="length of a text in bytes of a given charset",
    ru="длина текста в байтах заданной кодировки",
    args=[TEXT, CHARSET],
    result="integer",
    examples=[ex({"text": "Привет", "charset": "windows-1251"}, 6)],
)
def byte_length(text: str, charset: str) -> int:
    """Bytes of ``text`` in ``charset``."""
    return len(encode_text(text, charset))


@define(
    "charset.codepoints",
    en="Unicode code points of a text (U+XXXX)",
    ru="кодовые точки Unicode символов текста (U+XXXX)",
    args=[TEXT],
    result="array",
    examples=[ex({"text": "Ж€"}, ["U+0416", "U+20AC"])],
)
def codepoints(text: str) -> list[str]:
    """One ``U+XXXX`` (at least four hex digits) per code point."""
    return [f"U+{ord(c):04X}" for c in text]


@define(
    "charset.char_names",
    en="Unicode names of the characters of a text",
    ru="имена символов текста в Unicode",
    args=[TEXT],
    result="array",
    examples=[ex({"text": "Ё—"}, ["CYRILLIC CAPITAL LETTER IO", "EM DASH"])],
)
def char_names(text: str) -> list[str]:
    """The Unicode name of each code point; an unnamed one is given as ``U+XXXX``."""
    return [unicodedata.name(c, f"U+{ord(c):04X}") for c in text]


@define(
    "charset.normalize",
    en="Unicode normalisation of a text (NFC, NFD, NFKC, NFKD)",
    ru="нормализация Unicode текста (NFC, NFD, NFKC, NFKD)",
    args=[
        TEXT,
        circ(
            "form",
            "string",
            "the normalisation form",
            "форма нормализации",
            choices=FORMS,
        ),
    ],
    examples=[
        ex({"text": "e\u0301", "form": "NFC"}, "é"),
        ex({"text": "ﬁ", "form": "NFKC"}, "fi"),
    ],
)
def normalize(text: str, form: str) -> str:
    """Unicode normalisation (UAX #15)."""
    key = form.strip().upper()
    if key not in FORMS:
        raise BadArgument("form", "one of " + ", ".join(FORMS))
    return unicodedata.normalize(key, text)  # type: ignore[arg-type]
