"""Charset category: bytes of a text in a charset and back, mojibake repair, code points."""

from __future__ import annotations

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
)

TEXT = data("text", "string", "the text", "текст")
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


def _cyrillic_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum("\u0400" <= c <= "\u04ff" for c in letters) / len(letters)


@define(
    "charset.fix_mojibake",
    en="repair UTF-8 text that was misread in a single-byte charset",
    ru="исправить текст в UTF-8, прочитанный в однобайтовой кодировке («кракозябры»)",
    args=[TEXT],
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
