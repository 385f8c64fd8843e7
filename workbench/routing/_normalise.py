"""Argument normalisers: a span of the question, passed through a declared, deterministic function.

A router binds an argument by naming a span of the question (character offsets) and the
normaliser that turns the span's text into a value. The value is never written by the router
itself, so it is always the normalisation of words the user wrote. The normalisers, by name
(:data:`NORMALISERS`; an enum normaliser is ``enum:<vocabulary>``):

- ``text``: the span itself.
- ``number`` / ``integer``: digits with spaces, non-breaking spaces or commas between thousands,
  a decimal comma or point, or a number written in Russian or English words (a small explicit
  table, :data:`NUMBER_WORDS`), to a number; ``integer`` refuses a fraction. ``number-ru`` and
  ``integer-ru`` read every comma as the decimal mark («3,141» is 3.141, where English "1,500"
  is 1500); a router picks them for a question in Russian.
- ``date``: a date written with day, month and year (ISO, ``05.03.2024``, «5 марта 2024»,
  ``March 5, 2024``) to ISO 8601 through ``dateparser`` with a fixed relative base and only its
  absolute-date parser, so the current date never enters: a relative date («завтра») has no value.
  A span with a time of day gives ``YYYY-MM-DDTHH:MM:SS``.
- ``date-range-start``: the first day of a range that leaves its month and year to the date
  ending it («1 по 31 марта 2026», "1 to 31 March 2026") to that day in ISO 8601; a range that
  would start after its end has no value.
- ``month``: a month's name in either language («марта», "March") to its number.
- ``base``: a word that names a number base («двоичной», "hex") or "base 16", for the two base
  arguments of ``number.convert_base`` only.
- ``places``: a word that names a count of decimal places («до сотых», "to the nearest
  thousandth"), for the ``digits`` argument only.
- ``periods``: words that name how often interest is compounded («с ежемесячной
  капитализацией», "compounded quarterly") to periods a year, for ``periods_per_year`` only.
- ``code``: an identifier written with digits (an INN, an IBAN, a card number) as written; a span
  without a digit, or one that goes on past the end of its sentence, has no value.
- ``duration-<unit>`` (``days``, ``months``, ``years``, ``hours``): a number and the unit of time
  written after it, counted in the argument's unit where that count is exact: «на 5 лет» is 60
  months, "2 weeks" 14 days; «2 месяца» has no value in days.
- ``enum:<vocabulary>``: a word or phrase to an enum value, by the vocabularies of
  ``synonyms.yaml`` and the ``choices`` the utility schemas declare.

The date normalisers are written in :mod:`workbench.routing._dates`, the vocabularies in
:mod:`workbench.routing._vocabulary`. :func:`candidate_spans` lists every span of a question
that some normaliser reads, in order; :func:`derive` finds the span a given value is the
normalisation of, if any, so a value bound by a router that keeps no spans can still be checked
(:func:`underived_arguments`).
"""

from __future__ import annotations

import decimal
import functools
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from workbench.routing._dates import (
    date_spans,
    month_spans,
    normalise_date,
    normalise_month,
    normalise_range_start,
    normalise_time_first,
    range_start_spans,
)
from workbench.routing._vocabulary import (
    NormaliseError,
    Vocabulary,
    build_vocabulary,
    synonym_file,
    vocabularies,
)
from workbench.utilities import unit_codes, unit_names


@dataclass(frozen=True)
class ArgSpan:
    """Where an argument's value comes from: a span of the question and its normaliser."""

    start: int
    """Offset of the span's first character in the question (code points)."""
    end: int
    """Offset just past its last character."""
    normaliser: str
    """The normaliser's name (a key of :data:`NORMALISERS`, or ``enum:<vocabulary>``)."""

    def text(self, question: str) -> str:
        """The span's text in ``question``."""
        return question[self.start:self.end]

    def value(self, question: str) -> Any:
        """The span's text in ``question`` through the normaliser.

        Raises:
            NormaliseError: The offsets lie outside the question, or the normaliser gives no
                value for the span's text.
        """
        if not 0 <= self.start < self.end <= len(question):
            raise NormaliseError(f"span {self.start}-{self.end} lies outside the question "
                                 f"({len(question)} characters)")
        return normalise(self.normaliser, self.text(question))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"start": self.start, "end": self.end, "normaliser": self.normaliser}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ArgSpan:
        """Rebuild a span from :meth:`to_dict` output."""
        return cls(int(data["start"]), int(data["end"]), str(data["normaliser"]))


# --- numbers -------------------------------------------------------------------------------

NUMBER_WORDS: dict[str, int] = {
    "ноль": 0, "нуль": 0, "zero": 0,
    "один": 1, "одна": 1, "одно": 1, "одного": 1, "одну": 1, "одной": 1, "one": 1,
    "два": 2, "две": 2, "двух": 2, "двум": 2, "two": 2,
    "три": 3, "трёх": 3, "трех": 3, "трём": 3, "three": 3,
    "четыре": 4, "четырёх": 4, "четырех": 4, "four": 4,
    "пять": 5, "пяти": 5, "five": 5, "шесть": 6, "шести": 6, "six": 6,
    "семь": 7, "семи": 7, "seven": 7, "восемь": 8, "восьми": 8, "eight": 8,
    "девять": 9, "девяти": 9, "nine": 9, "десять": 10, "десяти": 10, "ten": 10,
    "одиннадцать": 11, "eleven": 11, "двенадцать": 12, "twelve": 12, "тринадцать": 13,
    "thirteen": 13, "четырнадцать": 14, "fourteen": 14, "пятнадцать": 15, "fifteen": 15,
    "шестнадцать": 16, "sixteen": 16, "семнадцать": 17, "seventeen": 17, "восемнадцать": 18,
    "eighteen": 18, "девятнадцать": 19, "nineteen": 19,
    "двадцать": 20, "twenty": 20, "тридцать": 30, "thirty": 30, "сорок": 40, "forty": 40,
    "пятьдесят": 50, "fifty": 50, "шестьдесят": 60, "sixty": 60, "семьдесят": 70, "seventy": 70,
    "восемьдесят": 80, "eighty": 80, "девяносто": 90, "ninety": 90,
    "сто": 100, "hundred": 100, "hundreds": 100, "двести": 200, "триста": 300, "четыреста": 400,
    "пятьсот": 500,
    "шестьсот": 600, "семьсот": 700, "восемьсот": 800, "девятьсот": 900,
}  # fmt: skip
"""Number words, Russian (with the case forms questions use) and English, up to the hundreds."""

SCALE_WORDS: dict[str, int] = {
    "тысяча": 1000, "тысячи": 1000, "тысяч": 1000, "thousand": 1000,
    "миллион": 10**6, "миллиона": 10**6, "миллионов": 10**6, "million": 10**6,
}  # fmt: skip
"""Words that multiply the number before them."""
_SCALE_AFTER_DIGITS: dict[str, int] = {
    **SCALE_WORDS, "тыс": 1000, "тыс.": 1000, "млн": 10**6, "billion": 10**9, "млрд": 10**9,
    "миллиард": 10**9, "миллиарда": 10**9, "миллиардов": 10**9,
}  # fmt: skip
"""Scale words, with their abbreviations, that multiply digits written before them: "4.2 million",
«3 млн», «12 тыс.»."""
_SCALED = re.compile(r"\s+(" + "|".join(re.escape(w) for w in sorted(_SCALE_AFTER_DIGITS, key=len,
                                                                     reverse=True)) + r")(?!\w)",
                     re.IGNORECASE)

_DIGITS = re.compile(
    r"(?<![\w.#/-])-?\d{1,3}(?:[ \u00a0]\d{3})+(?:[.,]\d+)?(?![\w.,]?\d)"  # 1 000 000,5
    r"|(?<![\w.#/-])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,]?\d)"  # 1,000,000.5
    # 42, 3,14, 2.5, -4, /20; not the 256 of SHA-256 or the 8 of UTF-8 (part of a name), nor the
    # 32 of "a 32-bit integer" or «12-значный» (the width of a representation, not a value)
    r"|(?<![\w.#])(?<![^\W\d_]-)-?\d+(?:[.,]\d+)?(?![\w]|[.,]\d"
    r"|-(?:bit|byte|digit|char|битн|байтн|значн|символьн|разрядн))"
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_STANDALONE_ONE = frozenset({"one", "один", "одна", "одно", "одного", "одну", "одной"})


def _number_words(text: str) -> int:
    words = [w.casefold() for w in _WORD.findall(text)]
    rest = _WORD.sub("", text).replace("-", "").strip()
    if not words or rest:
        raise NormaliseError(f"not a number in words: {text!r}")
    total, current = 0, 0
    seen = False
    for word in words:
        if word == "and":
            continue
        if word.startswith("hundred"):  # English multiplies: "three hundred"
            current = max(current, 1) * 100
            seen = True
        elif word in NUMBER_WORDS:
            current += NUMBER_WORDS[word]
            seen = True
        elif word in SCALE_WORDS:
            total += max(current, 1) * SCALE_WORDS[word]
            current, seen = 0, True
        else:
            raise NormaliseError(f"{word!r} is not a number word")
    if not seen:
        raise NormaliseError(f"not a number in words: {text!r}")
    return total + current


_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


def reads_decimal_comma(text: str) -> bool:
    """Whether a comma in ``text`` is the decimal mark: a Cyrillic letter shows it is Russian («3,141»).

    In English a comma separates thousands ("1,500"). The ``-ru`` normalisers read numbers so.
    """
    return _CYRILLIC.search(text) is not None


def normalise_number(text: str, *, decimal_comma: bool = False) -> int | float:
    """Digits (spaces or commas between thousands, decimal comma or point) or words, to a number.

    Args:
        text: The span's text.
        decimal_comma: Read every comma as the decimal mark, as Russian does («3,141» is
            3.141); otherwise a comma before groups of three digits separates thousands, as
            English does ("1,500" is 1500).

    Raises:
        NormaliseError: The text is not one number.
    """
    raw = text.strip()
    if not raw:
        raise NormaliseError("an empty span is not a number")
    if not any(c.isdigit() for c in raw):
        return _number_words(raw)
    scaled = re.search(r"\s+(\S+)$", raw)
    if scaled and scaled[1].casefold() in _SCALE_AFTER_DIGITS:  # "4.2 million": digits times a scale
        product = (decimal.Decimal(str(normalise_number(raw[:scaled.start()], decimal_comma=decimal_comma)))
                   * _SCALE_AFTER_DIGITS[scaled[1].casefold()])
        return int(product) if product == product.to_integral_value() else float(product)
    if not re.fullmatch(r"-?\d[\d \u00a0,.]*", raw) or raw.endswith((",", ".", " ")):
        raise NormaliseError(f"not a number: {text!r}")
    if not decimal_comma and re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", raw):
        digits = raw.replace(",", "")  # thousands separated by commas (English)
    else:
        if re.search(r"[ \u00a0]", raw) and not re.fullmatch(
                r"-?\d{1,3}(?:[ \u00a0]\d{3})+(?:[.,]\d+)?", raw):
            raise NormaliseError(f"not a number: {text!r}")
        digits = re.sub(r"[ \u00a0]", "", raw)
        if digits.count(",") + digits.count(".") > 1:
            raise NormaliseError(f"not a number: {text!r}")
        digits = digits.replace(",", ".")
    if "." in digits:
        value = float(digits)
        if not math.isfinite(value):
            raise NormaliseError(f"not a finite number: {text!r}")
        return value
    return int(digits)


def normalise_integer(text: str, *, decimal_comma: bool = False) -> int:
    """:func:`normalise_number`, refusing a number with a fractional part."""
    value = normalise_number(text, decimal_comma=decimal_comma)
    if isinstance(value, float):
        raise NormaliseError(f"not an integer: {text!r}")
    return value


_BASE_NUMBER = re.compile(r"(?<![\w-])(?:base|основани[еяюи]|radix)[\s-](\d{1,2})(?!\d)",
                          re.IGNORECASE)
"""A base written as a number after its name: "base 16", «по основанию 8», "radix 2"."""


@functools.cache
def base_vocabulary() -> Vocabulary:
    """The words that name a number base (the ``bases`` section of ``synonyms.yaml``).

    It is no enum vocabulary: only the base normaliser reads it, for the base arguments.
    """
    return build_vocabulary("base", synonym_file()["bases"], own_names=False)


@functools.cache
def counted_vocabulary(section: str) -> Vocabulary:
    """The words of a section of ``synonyms.yaml`` whose values are whole numbers named by words.

    ``places`` (decimal places: «до сотых» is 2) and ``periods`` (compounding periods a year: «с
    ежемесячной капитализацией» is 12); a value does not name itself, so a bare "2" names none.
    """
    return build_vocabulary(section, synonym_file()[section], own_names=False)


def places_vocabulary() -> Vocabulary:
    """The words that name a count of decimal places (:func:`counted_vocabulary` of ``places``)."""
    return counted_vocabulary("places")


def normalise_places(text: str) -> int:
    """A count of decimal places named by a word: «до сотых» and "to the nearest hundredth" are 2.

    Raises:
        NormaliseError: The text names no count of places.
    """
    return int(places_vocabulary().lookup(text))


def place_spans(question: str) -> list[tuple[int, int]]:
    """The words of ``question`` that name a count of decimal places, in order."""
    return places_vocabulary().separate_spans(question)


def normalise_periods(text: str) -> int:
    """Compounding periods a year named by words: «с ежемесячной капитализацией» is 12.

    Raises:
        NormaliseError: The text names no compounding.
    """
    return int(counted_vocabulary("periods").lookup(text))


def period_spans(question: str) -> list[tuple[int, int]]:
    """The words of ``question`` that name how often interest is compounded, in order."""
    return counted_vocabulary("periods").separate_spans(question)


DEGREE_WORDS = r"(?:degrees?|градус\w*)"
"""The word for degrees written between a temperature and its unit's letter ("17 degrees C")."""
_UNIT_LETTER = re.compile(r"°?[^\W\d_](?![\w°])")
_BEFORE_UNIT_LETTER = re.compile(rf"(?:\d\s?°?|\d\s{DEGREE_WORDS}\s|(?<![\w])(?:in|into|to|в|во)\s+)$",
                                 re.IGNORECASE)
_COMMON_LETTERS = frozenset({"a"})  # "in a minute": the are is no unit a letter may name


def normalise_unit_letter(text: str) -> str:
    """The unit one letter names where it stands as a unit: "F" is ``F``, «м» is ``m``, "°C" is ``C``.

    An alias of one letter ("c", «г») is read case-folded, a code of one letter ("m", "B") as
    written; a degree sign names a temperature only.

    Raises:
        NormaliseError: The text is no single letter naming a unit.
    """
    letter = text.strip()
    degree = letter.startswith("°")
    letter = letter.removeprefix("°")
    code = (letter if letter in _letter_codes()
            else unit_names().get(letter.casefold()) if len(letter) == 1 else None)
    if code is None or (degree and code not in unit_codes().get("units.temperature", ())):
        raise NormaliseError(f"{text!r} is no letter that names a unit")
    return code


@functools.cache
def _letter_codes() -> frozenset[str]:
    """The unit codes of one letter ("m", "B", "C"), but for the common ones (:data:`_COMMON_LETTERS`)."""
    return frozenset(code for accepted in unit_codes().values() for code in accepted
                     if len(code) == 1 and code not in _COMMON_LETTERS)


def unit_letter_spans(question: str) -> list[tuple[int, int]]:
    """The single letters of ``question`` that name a unit by where they stand, in order.

    One letter is too common in ordinary text to name a unit anywhere («м», "c"), so it does only
    right after a number ("350 F", "5m", "20 °C", "17 degrees C") or after the word that asks into a
    unit ("What's that in C?").
    """
    spans = []
    for m in _UNIT_LETTER.finditer(question):
        if question[m.start() - 1:m.start()].isalpha() or not _BEFORE_UNIT_LETTER.search(
                question, max(0, m.start() - 12), m.start()):
            continue
        try:
            normalise_unit_letter(m[0])
        except NormaliseError:
            continue
        spans.append(m.span())
    return spans


DURATION_ARGS = frozenset({"days", "months", "years", "hours"})
"""The arguments that count a span of time in the unit they are named after."""
_DURATION_UNITS: dict[str, str] = {
    "years": r"лет|год(?:а|у)?|years?|yrs?",
    "months": r"месяц(?:а|ев)?|мес\.|months?",
    "weeks": r"недел[ьяюи]|недель|weeks?",
    "days": r"день|дн(?:я|ей)|сут(?:ок|ки)|days?",
    "hours": r"час(?:а|ов)?|hours?|hrs?",
}
_PER_UNIT = {("months", "years"): 12, ("days", "weeks"): 7, ("hours", "days"): 24}
"""How many of the argument's unit one written unit holds, where that number is exact."""
_UNIT = r"\s+(?:" + "|".join(f"(?P<{unit}>{words})" for unit, words in _DURATION_UNITS.items()) + r")(?!\w)"
_UNIT_AFTER = re.compile(_UNIT, re.IGNORECASE)
_DURATION = re.compile(r"(?P<count>\S.*?)" + _UNIT, re.IGNORECASE)
"""A number and the unit of time written after it; the group named after the unit is the one that matched."""


def duration_unit_after(question: str, end: int) -> tuple[int, str] | None:
    """Where the unit of time written right after offset ``end`` ends, and which unit it is."""
    match = _UNIT_AFTER.match(question, end)
    return (match.end(), str(match.lastgroup)) if match else None


def normalise_duration(text: str, unit: str) -> int | float:
    """A number and its unit of time («5 лет», "2 weeks") as a count of ``unit``.

    «5 лет» is 60 months and "2 weeks" 14 days; a unit that holds no whole number of ``unit``
    (months in days) has no value.

    Raises:
        NormaliseError: The text is no number followed by a unit of time, or it does not convert.
    """
    match = _DURATION.fullmatch(text.strip())
    if match is None:
        raise NormaliseError(f"not a number and a unit of time: {text!r}")
    written = str(match.lastgroup)
    factor = 1 if written == unit else _PER_UNIT.get((unit, written))
    if factor is None:
        raise NormaliseError(f"{text!r} counts {written}, which is no whole number of {unit}")
    # a Russian unit reads a comma as the decimal mark («1,5 года»), as the ``-ru`` normalisers do
    value = normalise_number(match["count"], decimal_comma=reads_decimal_comma(match[written]))
    total = value * factor
    return int(total) if float(total).is_integer() else total


def duration_spans(question: str) -> list[tuple[int, int]]:
    """Each number with the unit of time written after it («на 5 лет», "for 2 weeks"), in order."""
    found = []
    for start, end in number_spans(question):
        unit = duration_unit_after(question, end)
        if unit is not None:
            found.append((start, unit[0]))
    return found


CODE_ARGUMENTS = frozenset({"inn", "ogrn", "snils", "bik", "kpp", "iban", "isbn", "code", "number",
                            "postcode"})
"""String arguments that hold an identifier written with digits: they bind through ``code``."""


def normalise_code(text: str) -> str:
    """An identifier written with digits (an INN, an IBAN, a card number), as written.

    A span without a digit is no such identifier: «Продукты у дома» is a shop's name, not its INN.
    Nor is one that a stop or a comma cuts before more words: "7707083893. Is it valid?" is an
    identifier and the sentence after it.
    """
    if not any(ch.isdigit() for ch in text):
        raise NormaliseError(f"{text[:40]!r} holds no digit, so it is no identifier")
    if _SENTENCE_AFTER.search(text):
        raise NormaliseError(f"{text[:40]!r} goes on past the end of a sentence")
    if _LOWER_WORD.search(text):
        raise NormaliseError(f"{text[:40]!r} holds words, so it describes an identifier")
    return text


_SENTENCE_AFTER = re.compile(r"[.,;!?]\s+[^\W\d_]")
"""A stop, comma or mark followed by a word: no identifier holds one."""
_LOWER_WORD = re.compile(r"(?<!\S)(?=[^\W\d_]*[^\W\d_A-ZА-ЯЁ])[^\W\d_]{2,}(?!\S)")
"""A word of two letters or more with a small one, standing alone: "it begins with 77" describes an
INN, where an IBAN's groups ("GB82 WEST 1234") are capitals."""


def normalise_base(text: str) -> int:
    """A number base named by a word («двоичной», "hex") or written "base 16", as 2–36.

    Raises:
        NormaliseError: The text names no base, or a base outside 2–36.
    """
    match = _BASE_NUMBER.fullmatch(text.strip())
    value = int(match[1] if match else base_vocabulary().lookup(text))
    if not 2 <= value <= 36:
        raise NormaliseError(f"no number base {value}: a base is 2–36")
    return value


def base_spans(question: str) -> list[tuple[int, int]]:
    """The spans that name a number base, in order, without overlaps (:func:`normalise_base`)."""
    found = [(m.start(), m.end()) for m in _BASE_NUMBER.finditer(question) if 2 <= int(m[1]) <= 36]
    found += [span for span in base_vocabulary().separate_spans(question)
              if not any(span[0] < e and s < span[1] for s, e in found)]
    return sorted(found)


# --- the table -----------------------------------------------------------------------------

NORMALISERS: dict[str, Callable[[str], Any]] = {
    "text": lambda text: text,
    "number": normalise_number,
    "integer": normalise_integer,
    "number-ru": functools.partial(normalise_number, decimal_comma=True),
    "integer-ru": functools.partial(normalise_integer, decimal_comma=True),
    "date": normalise_date,
    "datetime-time-first": normalise_time_first,
    "date-range-start": normalise_range_start,
    "month": normalise_month,
    "base": normalise_base,
    "code": normalise_code,
    "places": normalise_places,
    "periods": normalise_periods,
    "unit-letter": normalise_unit_letter,
    **{f"duration-{unit}": functools.partial(normalise_duration, unit=unit)
       for unit in sorted(DURATION_ARGS)},
}
"""The normalisers by name; ``enum:<vocabulary>`` names the enum normaliser of a vocabulary."""


def normalise(name: str, text: str) -> Any:
    """The value of ``text`` under the normaliser ``name``.

    Raises:
        NormaliseError: The normaliser does not exist or gives no value for ``text``.
    """
    kind, _, vocabulary = name.partition(":")
    if kind == "enum":
        known = vocabularies()
        if vocabulary not in known:
            raise NormaliseError(f"no vocabulary {vocabulary!r}; known: {', '.join(sorted(known))}")
        return known[vocabulary].lookup(text)
    function = NORMALISERS.get(name)
    if function is None:
        raise NormaliseError(f"no normaliser {name!r}; known: {', '.join(NORMALISERS)}, enum:<vocabulary>")
    if not text:
        raise NormaliseError("an empty span has no value")
    return function(text)


# --- spans a question offers ---------------------------------------------------------------


_PERCENT = re.compile(r"(?<!\d)(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per cent\b|процент)", re.IGNORECASE)


def percent_spans(question: str) -> list[tuple[int, int]]:
    """The numbers written as a percentage («22%», "15 percent", «10 процентов»), in order."""
    return [(m.start(1), m.end(1)) for m in _PERCENT.finditer(question)]


def number_spans(question: str, *, words: bool = True) -> list[tuple[int, int]]:
    """Spans that read as one number (digits, or number words), in order, outside dates."""
    taken = date_spans(question)
    found = []
    for m in _DIGITS.finditer(question):
        if any(s <= m.start() < e for s, e in taken):
            continue
        scale = _SCALED.match(question, m.end())  # "4.2 million" is one number
        found.append((m.start(), scale.end() if scale else m.end()))
    if words:
        found += [w for w in _word_number_spans(question)
                  if not any(s <= w[0] < e for s, e in found)]
    return sorted(found)


def _word_number_spans(question: str) -> list[tuple[int, int]]:
    """Runs of number words, joined by spaces, hyphens, or "and" after an English scale word."""
    found: list[tuple[int, int]] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        if run and not (len(run) == 1 and run[0][0].casefold() in _STANDALONE_ONE):
            found.append((run[0].start(), run[-1].end()))
        run.clear()

    words = list(_WORD.finditer(question))
    for i, m in enumerate(words):
        word = m[0].casefold()
        gap = question[run[-1].end():m.start()].strip() if run else ""
        if word in NUMBER_WORDS or word in SCALE_WORDS:
            if run and gap.casefold() not in ("", "-", "and"):
                close()
            run.append(m)
            continue
        # only English joins a number with "and", and only after a scale: "two thousand and
        # twenty"; "twelve and eighteen" and «двенадцать и восемнадцать» are two numbers
        joins = word == "and" and run and not gap and i + 1 < len(words) and (
            run[-1][0].casefold() in ("hundred", "thousand", "million")) and (
            words[i + 1][0].casefold() in NUMBER_WORDS
            and not question[m.end():words[i + 1].start()].strip())
        if not joins:
            close()
    close()
    return found


BASE_ARGS = frozenset({"from_base", "to_base"})
"""The arguments a number base is bound to (``number.convert_base``); only they read a base word."""
DATE_ARGS = frozenset({"date", "start", "end", "birth_date", "on_date"})
"""The arguments that take a calendar date."""
TIME_ARGS = DATE_ARGS | {"datetime"}
"""The arguments whose value is a date or a moment in ISO 8601: :data:`DATE_ARGS` and a datetime."""
PERCENT_ARGS = frozenset({"rate", "percent", "annual_rate"})
"""The arguments a percentage («22%») is bound to, besides a plain number."""


def candidate_spans(question: str, argument: str | None = None) -> Iterator[ArgSpan]:
    """Every span of ``question`` some normaliser reads, each with that normaliser.

    A base word («двоичной», "hex") is read as a number only for ``argument`` in
    :data:`BASE_ARGS`: for any other argument "hex" is no 16; a word of decimal places («сотых»)
    only for ``digits``.
    """
    for start, end in date_spans(question):
        yield ArgSpan(start, end, "date")
    if argument in {None, "start"}:
        for start, end in range_start_spans(question):
            yield ArgSpan(start, end, "date-range-start")
    for start, end in number_spans(question):
        yield ArgSpan(start, end, "number")
        if "," in question[start:end]:
            yield ArgSpan(start, end, "number-ru")
    for start, end in month_spans(question):
        yield ArgSpan(start, end, "month")
    if argument in BASE_ARGS:
        for start, end in base_spans(question):
            yield ArgSpan(start, end, "base")
    if argument == "digits":
        for start, end in place_spans(question):
            yield ArgSpan(start, end, "places")
    if argument == "periods_per_year":
        for start, end in period_spans(question):
            yield ArgSpan(start, end, "periods")
    if argument in DURATION_ARGS:
        for start, end in duration_spans(question):
            yield ArgSpan(start, end, f"duration-{argument}")
    for name, vocabulary in vocabularies().items():
        for start, end in vocabulary.spans(question):
            yield ArgSpan(start, end, f"enum:{name}")


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    return type(a) is type(b) and a == b


def derive(question: str, value: Any, argument: str | None = None) -> ArgSpan | None:
    """A span of ``question`` whose normalisation is ``value``, or None when there is none.

    A string is derived from itself where it occurs in the question verbatim (an identifier of
    :data:`CODE_ARGUMENTS` only where it holds a digit, as the binder reads it: a shop's name is
    no INN whichever router wrote it); otherwise (and for numbers) every span a normaliser reads
    for ``argument`` is tried (:func:`candidate_spans`).
    """
    if isinstance(value, str) and value:
        at = question.find(value)
        if at >= 0:
            span = ArgSpan(at, at + len(value), "code" if argument in CODE_ARGUMENTS else "text")
            try:
                span.value(question)
            except NormaliseError:
                return None
            return span
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return None
    for span in candidate_spans(question, argument):
        try:
            if _same(span.value(question), value):
                return span
        except NormaliseError:
            continue
    return None


@dataclass(frozen=True)
class Underived:
    """An argument whose value is not the normalisation of any span of the question."""

    argument: str
    """The argument's name."""
    value: Any
    """The value the router bound."""
    reason: str
    """Why it does not derive (the declared span gives another value, or no span gives it)."""


def underived_arguments(question: str, args: Mapping[str, Any],
                        spans: Mapping[str, ArgSpan] | None = None) -> list[Underived]:
    """The arguments of ``args`` whose values do not derive from a span of ``question``.

    An argument with a declared span must equal that span's normalisation; one without must be
    the normalisation of some span (:func:`derive`).
    """
    spans = spans or {}
    found = []
    for name, value in args.items():
        if isinstance(value, list | dict) or value is None:
            continue  # no utility declares such a type: the schema check refuses it (BAD_ARGUMENT)
        span = spans.get(name)
        if span is not None:
            try:
                given = span.value(question)
            except NormaliseError as exc:
                found.append(Underived(name, value, f"its span gives no value ({exc})"))
                continue
            if not _same(given, value):
                found.append(Underived(name, value, f"its span {span.start}-{span.end} reads "
                                                    f"{given!r} under {span.normaliser}"))
        elif derive(question, value, name) is None:
            found.append(Underived(name, value, "no span of the question normalises to it"))
    return found
