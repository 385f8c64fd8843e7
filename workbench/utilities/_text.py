"""Text category: statistics, word counts, slugs, transliteration, case, edit distance."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from workbench.translit import GOST_B, STANDARDS, transliterate_table
from workbench.utilities._schema import (
    BadArgument,
    charset_codec,
    circ,
    data,
    define,
    encode_text,
    ex,
)

TEXT = data("text", "string", "the text", "текст")
PHRASE = data("text", "string", "the text", "текст", form="phrase")
"""A text the utility takes as one value, not as a passage it reads (:func:`~._schema.first_clause`)."""
WORD = re.compile(r"\w+(?:[-'’]\w+)*")
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
MAX_EDIT_CELLS = 25_000_000

@define(
    "text.transliterate",
    en="Cyrillic to Latin by ГОСТ 7.79-2000 system B or ICAO Doc 9303",
    ru="транслитерация кириллицы латиницей по ГОСТ 7.79-2000 (система Б) или ICAO Doc 9303",
    args=[
        data("text", "string", "the text", "текст", form="cyrillic"),
        circ(
            "standard",
            "string",
            "the transliteration standard",
            "стандарт транслитерации",
            choices=tuple(STANDARDS),
        ),
    ],
    examples=[
        ex({"text": "Щукин Юрий", "standard": "icao"}, "Shchukin Iurii"),
        ex({"text": "Цирк и цапля, объём", "standard": "gost-7.79-b"}, "Cirk i czaplya, ob``yom"),
    ],
)
def transliterate(text: str, standard: str) -> str:
    """Letter-by-letter transliteration; characters outside the table are kept."""
    key = standard.strip().lower().replace(" ", "-")
    key = {"gost": "gost-7.79-b", "гост": "gost-7.79-b", "гост-7.79-2000": "gost-7.79-b"}.get(
        key, key
    )
    if key not in STANDARDS:
        raise BadArgument("standard", "one of " + ", ".join(STANDARDS))
    return transliterate_table(text, STANDARDS[key], gost=key == "gost-7.79-b")


@define(
    "text.slugify",
    en="URL slug of a text (Cyrillic transliterated by ГОСТ 7.79-2000 B)",
    ru="slug для URL (кириллица транслитерируется по ГОСТ 7.79-2000 Б)",
    args=[TEXT],
    examples=[
        ex({"text": "Привет, мир!"}, "privet-mir"),
        ex({"text": "Съешь ещё этих булок"}, "sesh-eshhyo-etix-bulok"),
    ],
)
def slugify(text: str) -> str:
    """Transliterate, drop accents and backticks, lower-case, join alphanumeric runs with '-'."""
    latin = transliterate_table(text, GOST_B, gost=True).replace("`", "")
    ascii_text = unicodedata.normalize("NFKD", latin).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


@define(
    "text.stats",
    en="characters, words, lines, sentences and bytes of a text",
    ru="символы, слова, строки, предложения и байты текста",
    args=[
        TEXT,
        circ(
            "charset",
            "string",
            "the charset bytes are counted in",
            "кодировка, в которой считаются байты",
            required=False,
            default="utf-8",
        ),
    ],
    result="object",
    examples=[
        ex(
            {"text": "Hello, world. How are you?\nFine!"},
            {
                "characters": 32,
                "characters_no_spaces": 27,
                "words": 6,
                "lines": 2,
                "sentences": 3,
                "bytes": 32,
                "charset": "utf-8",
            },
        ),
        ex(
            {"text": "Привет, мир!", "charset": "windows-1251"},
            {
                "characters": 12,
                "characters_no_spaces": 11,
                "words": 2,
                "lines": 1,
                "sentences": 1,
                "bytes": 12,
                "charset": "cp1251",
            },
        ),
    ],
)
def stats(text: str, charset: str = "utf-8") -> dict[str, object]:
    """Counts: code points, code points that are not whitespace, words, lines, sentences, bytes.

    Words are runs of letters and digits (inner hyphens and apostrophes kept); lines are
    ``str.splitlines``; a sentence ends at ``.``, ``!``, ``?`` or ``…`` followed by whitespace.
    """
    raw = encode_text(text, charset)
    sentences = [s for s in SENTENCE_END.split(text.strip()) if WORD.search(s)]
    return {
        "characters": len(text),
        "characters_no_spaces": sum(not c.isspace() for c in text),
        "words": len(WORD.findall(text)),
        "lines": len(text.splitlines()),
        "sentences": len(sentences),
        "bytes": len(raw),
        "charset": charset_codec(charset),
    }


@define(
    "text.word_count",
    en="number of words in a text",
    ru="число слов в тексте",
    args=[TEXT],
    result="integer",
    examples=[
        ex({"text": "Съешь же ещё этих мягких французских булок"}, 7),
        ex({"text": "well-known fact, isn't it?"}, 4),
    ],
)
def word_count(text: str) -> int:
    """Runs of letters and digits; inner hyphens and apostrophes keep a word whole."""
    return len(WORD.findall(text))


def _split_words(text: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-zа-яё0-9])(?=[A-ZА-ЯЁ])", " ", text)
    spaced = re.sub(r"(?<=[A-ZА-ЯЁ])(?=[A-ZА-ЯЁ][a-zа-яё])", " ", spaced)
    return re.findall(r"[^\W_]+", spaced)


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:].lower()


CASES: dict[str, Callable[[str], str]] = {
    "upper": str.upper,
    "lower": str.lower,
    "swap": str.swapcase,
    "title": lambda t: re.sub(r"[^\W_]+", lambda m: _capital(m.group(0)), t),
    "sentence": lambda t: _capital(t.lstrip()) if t.strip() else t,
    "snake": lambda t: "_".join(w.lower() for w in _split_words(t)),
    "kebab": lambda t: "-".join(w.lower() for w in _split_words(t)),
    "constant": lambda t: "_".join(w.upper() for w in _split_words(t)),
    "camel": lambda t: "".join(
        w.lower() if i == 0 else _capital(w) for i, w in enumerate(_split_words(t))
    ),
    "pascal": lambda t: "".join(_capital(w) for w in _split_words(t)),
}


@define(
    "text.change_case",
    en="change letter case: upper, lower, title, sentence, snake, kebab, camel, pascal...",
    ru="изменить регистр: верхний, нижний, заглавные, snake_case, kebab-case, camelCase...",
    args=[
        PHRASE,
        circ("mode", "string", "the target case", "нужный регистр", choices=tuple(CASES)),
    ],
    examples=[
        ex({"text": "Hello World example", "mode": "snake"}, "hello_world_example"),
        ex({"text": "parseHTTPResponse", "mode": "kebab"}, "parse-http-response"),
        ex({"text": "привет мир", "mode": "camel"}, "приветМир"),
    ],
)
def change_case(text: str, mode: str) -> str:
    """Apply one entry of the ``CASES`` table."""
    try:
        fn = CASES[mode.strip().lower()]
    except KeyError:
        raise BadArgument("mode", "one of " + ", ".join(CASES)) from None
    return fn(text)


@define(
    "text.reverse",
    en="reverse a text so that it reads backwards, last letter first; combining marks stay with "
    "their letters",
    ru="перевернуть текст задом наперёд, от последней буквы к первой; диакритика остаётся при "
    "своей букве",
    args=[PHRASE],
    examples=[ex({"text": "Привет"}, "тевирП"), ex({"text": "e\u0301a"}, "ae\u0301")],
)
def reverse(text: str) -> str:
    """Reverse clusters of a base character and its combining marks."""
    clusters: list[str] = []
    for ch in text:
        if clusters and unicodedata.combining(ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    return "".join(reversed(clusters))


@define(
    "text.levenshtein",
    en="Levenshtein edit distance between two texts",
    ru="расстояние Левенштейна между двумя строками",
    args=[
        data("a", "string", "the first text", "первая строка", form="phrase"),
        data("b", "string", "the second text", "вторая строка", form="phrase"),
    ],
    result="integer",
    examples=[ex({"a": "kitten", "b": "sitting"}, 3), ex({"a": "кот", "b": "скот"}, 1)],
)
def levenshtein(a: str, b: str) -> int:
    """Insertions, deletions and substitutions, unit cost (Wagner-Fischer, two rows)."""
    if len(a) * len(b) > MAX_EDIT_CELLS:
        raise BadArgument("a", "texts whose lengths multiply to at most 25 million")
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


@define(
    "text.count_substring",
    en="how many times a substring occurs in a text",
    ru="сколько раз подстрока встречается в тексте",
    args=[
        TEXT,
        data("substring", "string", "the substring to count", "искомая подстрока"),
        circ(
            "overlapping",
            "boolean",
            "count overlapping occurrences",
            "считать перекрывающиеся вхождения",
            required=False,
            default=False,
        ),
    ],
    result="integer",
    examples=[
        ex({"text": "banana", "substring": "ana"}, 1),
        ex({"text": "banana", "substring": "ana", "overlapping": True}, 2),
    ],
)
def count_substring(text: str, substring: str, overlapping: bool = False) -> int:
    """Case-sensitive count; non-overlapping unless asked."""
    if not substring:
        raise BadArgument("substring", "a non-empty substring")
    if not overlapping:
        return text.count(substring)
    count, start = 0, text.find(substring)
    while start != -1:
        count += 1
        start = text.find(substring, start + 1)
    return count


@define(
    "text.is_palindrome",
    en="whether a text reads the same backwards (letters and digits only)",
    ru="палиндром ли текст (учитываются только буквы и цифры)",
    args=[PHRASE],
    result="boolean",
    examples=[
        ex({"text": "А роза упала на лапу Азора"}, True),
        ex({"text": "palindrome"}, False),
    ],
)
def is_palindrome(text: str) -> bool:
    """Case-folded letters and digits, ё read as е; an empty text is not a palindrome."""
    core = [c for c in text.casefold().replace("ё", "е") if c.isalnum()]
    return bool(core) and core == core[::-1]


@define(
    "text.collapse_whitespace",
    en="trim a text and collapse runs of whitespace to one space",
    ru="обрезать пробелы по краям и схлопнуть повторы пробельных символов",
    args=[TEXT],
    examples=[ex({"text": "  a \t b\n\n c  "}, "a b c")],
)
def collapse_whitespace(text: str) -> str:
    """Whitespace runs (spaces, tabs, newlines) become one space."""
    return " ".join(text.split())


@define(
    "text.sort_lines",
    en="sort the lines of a text",
    ru="отсортировать строки текста",
    args=[
        TEXT,
        circ(
            "order",
            "string",
            "ascending or descending",
            "по возрастанию или по убыванию",
            required=False,
            default="asc",
            choices=("asc", "desc"),
        ),
    ],
    examples=[ex({"text": "pear\napple\nfig", "order": "asc"}, "apple\nfig\npear")],
)
def sort_lines(text: str, order: str = "asc") -> str:
    """Sort by code point (stable), joined with newlines."""
    if order not in ("asc", "desc"):
        raise BadArgument("order", "asc or desc")
    return "\n".join(sorted(text.splitlines(), reverse=order == "desc"))


@define(
    "text.dedupe_lines",
    en="remove repeated lines, keeping the first of each",
    ru="удалить повторяющиеся строки, оставив первую",
    args=[TEXT],
    examples=[ex({"text": "a\nb\na\nc\nb"}, "a\nb\nc")],
)
def dedupe_lines(text: str) -> str:
    """Order is kept; lines are compared exactly."""
    return "\n".join(dict.fromkeys(text.splitlines()))
