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

:func:`candidate_spans` lists every span of a question that some normaliser reads, in order;
:func:`derive` finds the span a given value is the normalisation of, if any, so a value bound by a
router that keeps no spans can still be checked (:func:`underived_arguments`).
"""

from __future__ import annotations

import datetime as dt
import decimal
import functools
import math
import re
import zoneinfo
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from workbench.errors import WorkbenchError
from workbench.text import analyze
from workbench.utilities import load_catalog, unit_codes, unit_names


class NormaliseError(WorkbenchError, ValueError):
    """A span that the named normaliser gives no value for, or a normaliser that does not exist."""


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


# --- dates ---------------------------------------------------------------------------------

RELATIVE_BASE = dt.datetime(2000, 1, 1)
"""The fixed date dateparser is given, so no parse ever depends on today."""

DATEPARSER_SETTINGS: dict[str, Any] = {
    "RELATIVE_BASE": RELATIVE_BASE,
    "PARSERS": ["absolute-time"],  # no relative dates, no timestamps
    "REQUIRE_PARTS": ["day", "month", "year"],
    "DATE_ORDER": "DMY",
    "PREFER_DAY_OF_MONTH": "first",
    "RETURN_AS_TIMEZONE_AWARE": False,
}
"""dateparser's settings: absolute dates with day, month and year only, and a fixed base."""

_RU_ENDINGS = r"(?:ь|я|е|ём|ем|ю)?"
_MONTH_FORMS: tuple[str, ...] = (
    rf"январ{_RU_ENDINGS}|january|jan\.?", rf"феврал{_RU_ENDINGS}|february|feb\.?",
    r"март(?:а|е|ом|у)?|march|mar\.?", rf"апрел{_RU_ENDINGS}|april|apr\.?",
    r"ма(?:й|я|е|ем|ю)|may", rf"июн{_RU_ENDINGS}|june|jun\.?", rf"июл{_RU_ENDINGS}|july|jul\.?",
    r"август(?:а|е|ом|у)?|august|aug\.?", rf"сентябр{_RU_ENDINGS}|september|sept?\.?",
    rf"октябр{_RU_ENDINGS}|october|oct\.?", rf"ноябр{_RU_ENDINGS}|november|nov\.?",
    rf"декабр{_RU_ENDINGS}|december|dec\.?",
)
"""Each month's written forms, January first: a Russian month in any case, an English month or
its abbreviation. Dates and the ``month`` normaliser both read months from here."""
_MONTH_WORD = "(?:" + "|".join(_MONTH_FORMS) + ")"
_TIME_AFTER = r"(?:(?:\s+(?:года|г\.))?,?\s+(?:(?:в|at)\s+)?\d{1,2}:\d{2}(?::\d{2})?(?!\d))?"
"""The time of day that may follow a date in words or with dots: «15 мая 2026 года в 12:30»,
"May 15, 2026 at 12:30", «15.05.2026 12:30»."""
_ORDINAL = r"(?:st|nd|rd|th)?"
"""The English ordinal ending a day may carry: "July 20th, 1969", "the 3rd of March 2025"."""
_DATE_SPAN = re.compile(
    r"(?<!\d)\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?|,?\s+(?:в|at)\s+\d{1,2}:\d{2}(?::\d{2})?)?(?!\d)"
    r"|(?<![\d.])\d{1,2}\.\d{1,2}\.\d{4}(?!\d)" + _TIME_AFTER
    + r"|(?<![\d/])\d{1,2}/\d{1,2}/\d{4}(?!\d)"
    + rf"|(?<!\w)\d{{1,2}}{_ORDINAL}\s+(?:of\s+)?{_MONTH_WORD}\s+\d{{4}}(?!\d)" + _TIME_AFTER
    + rf"|(?<!\w){_MONTH_WORD}\s+\d{{1,2}}{_ORDINAL},?\s+\d{{4}}(?!\d)" + _TIME_AFTER,
    re.IGNORECASE)
_TIME = re.compile(r"\d{1,2}:\d{2}")


@functools.cache
def _dateparser() -> Callable[..., Any]:
    import dateparser  # loaded on first use: it reads its language tables at import

    return dateparser.parse  # type: ignore[no-any-return]


def normalise_date(text: str) -> str:
    """A date with day, month and year, in Russian or English words or digits, to ISO 8601.

    Raises:
        NormaliseError: The text is not one complete absolute date (a relative date, a date
            without a year, or a day that does not exist).
    """
    return _normalised_date(" ".join(text.split()))


_RANGE_DAY = re.compile(r"(?<![\w.:/-])(\d{1,2})\s*(?:по|до|to|through|[-–—])\s*", re.IGNORECASE)


def range_start_spans(question: str) -> list[tuple[int, int]]:
    """Ranges whose first day leaves its month and year to the date that ends them.

    «с 1 по 31 марта 2026 года», "from 1 to 31 March 2026": each span runs from the first day
    to the end of that date, and :func:`normalise_range_start` reads the day it starts on.
    """
    ends = {start: end for start, end in date_spans(question)}
    return [(m.start(1), ends[m.end()]) for m in _RANGE_DAY.finditer(question) if m.end() in ends]


def normalise_range_start(text: str) -> str:
    """The first day of a range written «1 по 31 марта 2026» or "1 to 31 March 2026", in ISO 8601.

    Raises:
        NormaliseError: The text is no such range, its day does not exist in that month, or it
            comes after the range's end.
    """
    match = _RANGE_DAY.match(text)
    if match is None:
        raise NormaliseError(f"not a range that starts with a bare day: {text[:40]!r}")
    end = dt.date.fromisoformat(normalise_date(text[match.end():])[:10])
    try:
        start = end.replace(day=int(match[1]))
    except ValueError:
        raise NormaliseError(f"no day {match[1]} in {end:%Y-%m}") from None
    if start > end:
        raise NormaliseError(f"the range starts on {start} after it ends on {end}")
    return start.isoformat()


@functools.lru_cache(maxsize=4096)
def _normalised_date(raw: str) -> str:
    """:func:`normalise_date` of a text with its spaces made single, remembered.

    The settings fix the base date, so one text always reads as one date; routing one question
    binds several utilities, and each would parse the same span again.
    """
    if not _DATE_SPAN.fullmatch(raw):
        raise NormaliseError(f"not a date with day, month and year: {raw!r}")
    slashed = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", raw)
    if slashed:
        first, second, year = (int(g) for g in slashed.groups())
        return _slashed_date(first, second, year, raw)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):  # ISO already; dateparser would read it too
        try:
            return dt.date.fromisoformat(raw).isoformat()
        except ValueError:
            raise NormaliseError(f"no such day: {raw!r}") from None
    parsed = _dateparser()(raw, languages=["ru", "en"], settings=DATEPARSER_SETTINGS)
    if parsed is None:
        raise NormaliseError(f"no such date: {raw!r}")
    if _TIME.search(raw):
        return str(parsed.replace(tzinfo=None).isoformat(timespec="seconds"))
    return str(parsed.date().isoformat())


_TIME_FIRST = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{2})(?::(\d{2}))?((?:[\s,]+[^\W\d_][\w.-]*){0,4}?)[\s,]+$")
"""A time of day before a date, at most four words between: "at 15:30 Yekaterinburg time on
21.10.2025", «в 08:15 по Екб, 03.11.2025»."""


def time_first_spans(question: str) -> list[tuple[int, int]]:
    """Spans from a time of day to the date it is on, written after it (:data:`_TIME_FIRST`).

    Only dates that carry no time of their own; the span runs from the time to the date's end
    and reads through :func:`normalise_time_first`.
    """
    found = []
    for start, end in date_spans(question):
        if _TIME.search(question, start, end):
            continue
        time = _TIME_FIRST.search(question, max(0, start - 60), start)
        if time is not None:
            found.append((time.start(), end))
    return found


def normalise_time_first(text: str) -> str:
    """A time of day, up to four words, then a date, to ISO 8601 with seconds.

    "15:30 Yekaterinburg time on 21.10.2025" is ``2025-10-21T15:30:00``; the words between
    (a zone, "on") are read by other arguments, not here.

    Raises:
        NormaliseError: The text does not open with a time of day and end with a date, or the
            time does not exist.
    """
    for start, end in reversed(date_spans(text)):
        if end != len(text):
            continue
        time = _TIME_FIRST.fullmatch(text, 0, start)
        if time is None:
            break
        hour, minute, second = int(time[1]), int(time[2]), int(time[3] or 0)
        if hour > 23 or minute > 59 or second > 59:
            raise NormaliseError(f"no such time of day: {text!r}")
        return f"{normalise_date(text[start:end])}T{hour:02d}:{minute:02d}:{second:02d}"
    raise NormaliseError(f"not a time of day followed by a date: {text!r}")


def _slashed_date(first: int, second: int, year: int, raw: str) -> str:
    """A date written with slashes, read only where its order is not in doubt.

    17/11/1986 is day first and 11/17/1986 month first; 05/03/2025 is the 5th of March in Russia
    and the 3rd of May in the United States, so it is no date here (the same day twice, 04/04,
    reads either way).
    """
    if first <= 12 and second <= 12 and first != second:
        raise NormaliseError(f"day and month may be read either way: {raw!r}")
    day, month = (second, first) if second > 12 else (first, second)
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        raise NormaliseError(f"no such day: {raw!r}") from None


_MONTH_NAME = re.compile(
    r"(?<!\w)(?:" + "|".join(f"(?P<m{n}>{forms})" for n, forms in enumerate(_MONTH_FORMS, 1))
    + r")(?!\w)", re.IGNORECASE)
"""One month's name; the group that matched (``m1`` … ``m12``) is its number."""


def normalise_month(text: str) -> int:
    """A month named in Russian or English words («феврале», "Feb."), or written 1–12, as 1–12.

    Raises:
        NormaliseError: The text is not one month.
    """
    raw = text.strip()
    if raw.isdigit():
        if 1 <= int(raw) <= 12:
            return int(raw)
        raise NormaliseError(f"no month {raw}")
    match = _MONTH_NAME.fullmatch(raw)
    if match and match.lastgroup:
        return int(match.lastgroup[1:])
    raise NormaliseError(f"not a month: {text!r}")


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
    value = normalise_number(match["count"],
                             decimal_comma=bool(re.search(r"[а-яё]", match[written], re.IGNORECASE)))
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


def month_spans(question: str) -> list[tuple[int, int]]:
    """The month names of ``question``, in order; English "may" only as "May", outside dates."""
    taken = date_spans(question)
    return [(m.start(), m.end()) for m in _MONTH_NAME.finditer(question)
            if not (m[0].lower().startswith("may") and not m[0].startswith("M"))
            and not any(s <= m.start() < e for s, e in taken)]


# --- enums ---------------------------------------------------------------------------------


@functools.cache
def _word_pattern(word: str, stem: bool) -> re.Pattern[str]:
    """A vocabulary word as a pattern.

    A ``*`` inside a phrase («продукт* питания») and a final stem take any letters; spaces match any
    run of spaces.
    """
    letters = r"[^\W\d_]*"
    parts = [letters if piece == "*" else r"\s+" if piece.isspace() else re.escape(piece)
             for piece in re.split(r"(\s+|\*)", word) if piece]
    return re.compile("".join(parts) + (letters if stem else ""), re.IGNORECASE)


@functools.cache
def _bounded_pattern(word: str, stem: bool) -> re.Pattern[str]:
    """:func:`_word_pattern` as a whole word: no letter, digit or hyphen on either side."""
    return re.compile(rf"(?<![\w-]){_word_pattern(word, stem).pattern}(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class Vocabulary:
    """One enum vocabulary: values and the words that name them."""

    name: str
    """``charset``, ``unit``, ... or ``<utility>.<argument>``."""
    words: tuple[tuple[str, str, bool], ...]
    """``(word, value, is_stem)``, longest word first, words case-folded; a ``*`` left inside a
    word («продукт* питания») stands for any letters there."""

    def lookup(self, text: str) -> str:
        """The value ``text`` names.

        Raises:
            NormaliseError: No word of the vocabulary is ``text`` (or, for a stem, begins it).
        """
        folded = " ".join(text.split()).casefold()
        for word, value, stem in self.words:
            if _word_pattern(word, stem).fullmatch(folded):
                return value
        raise NormaliseError(f"{text!r} names no value of the {self.name} vocabulary")

    def spans(self, question: str) -> Iterator[tuple[int, int]]:
        """Every span of ``question`` that names a value, longest word first."""
        folded = question.casefold()
        for word, _, stem in self.words:
            if word.split("*", 1)[0].split(maxsplit=1)[0] not in folded:
                continue  # the cheap filter: the word's first piece is nowhere in the question
            for m in _bounded_pattern(word, stem).finditer(question):
                yield m.start(), m.end()

    def words_in(self, question: str) -> set[str]:
        """The declared words that name a value in ``question`` (over :meth:`separate_spans`)."""
        found = set()
        for start, end in self.separate_spans(question):
            text = " ".join(question[start:end].split()).casefold()
            found |= {word for word, _, stem in self.words if _word_pattern(word, stem).fullmatch(text)}
        return found

    def separate_spans(self, question: str) -> list[tuple[int, int]]:
        """The spans that name a value, in order, an overlapped one dropped for the earlier-longer.

        «не подтверждены» is kept and the «подтверждены» inside it dropped.
        """
        kept: list[tuple[int, int]] = []
        for start, end in sorted(self.spans(question), key=lambda s: (s[0], -s[1])):
            if not any(start < e and s < end for s, e in kept):
                kept.append((start, end))
        return kept


@functools.cache
def synonym_file() -> dict[str, Any]:
    """``synonyms.yaml``, read once: every section (``vocabularies``, ``bases``, ``spec_inputs``...).

    Callers copy what they change; the parsed file is shared.
    """
    text = resources.files("workbench.routing").joinpath("synonyms.yaml").read_text("utf-8")
    return dict(yaml.safe_load(text))


def _synonym_table() -> dict[str, dict[str, list[str]]]:
    return {name: {value: list(words or []) for value, words in (values or {}).items()}
            for name, values in synonym_file()["vocabularies"].items()}


@functools.cache
def vocabularies() -> dict[str, Vocabulary]:
    """Every enum vocabulary: ``synonyms.yaml`` plus one per argument with declared ``choices``."""
    table = _synonym_table()
    units = table.setdefault("unit", {})
    for alias, code in unit_names().items():
        # the units utility's own names: a word of four letters or more also takes its endings
        # («километров», "miles"); a shorter one («км», "kg") must stand alone, and one letter
        # («м», "c") is too common in ordinary text to name a unit at all; nor is a name that
        # the lexical analyzer drops as a stopword
        if len(alias) >= 2 and analyze(alias):  # "are" (the unit of area) is also a stopword
            units.setdefault(code, []).append(alias + "*" if len(alias) >= 4 and alias.isalpha() else alias)
    zones = table.setdefault("timezone", {})
    for zone in sorted(zoneinfo.available_timezones()):  # every IANA zone names itself: "Asia/Tokyo"
        if "/" in zone:
            zones.setdefault(zone, [])
            # and a city of a continent names its zone ("Warsaw time", "in New York"), unless the
            # city's name is an ordinary word too ("Phoenix", "Jersey")
            region, _, city = zone.partition("/")
            words = city.replace("_", " ").casefold()
            if (region in CITY_REGIONS and "/" not in city and words not in COMMON_CITY_WORDS
                    and len(words) >= 4):
                zones[zone].append(words)
    for uid, schema in load_catalog().schemas.items():
        for arg in schema.arguments:
            if arg.choices:
                table.setdefault(f"{uid}.{arg.name}", {})
                for choice in arg.choices:
                    table[f"{uid}.{arg.name}"].setdefault(str(choice), [])
    return {name: build_vocabulary(name, values or {}) for name, values in table.items()}


CITY_REGIONS = frozenset({"Europe", "Asia", "America", "Africa", "Australia"})
"""The IANA regions whose zones a city's name stands for (not the islands and stations of the oceans)."""
COMMON_CITY_WORDS = frozenset({"phoenix", "jersey", "regina", "nome", "denver", "monterrey", "nassau",
                               "chicago", "detroit", "boise", "juneau", "tell city", "center", "knox",
                               "marengo", "vevay", "winamac", "petersburg", "vincennes", "beulah",
                               "new salem", "louisville", "monticello", "grand turk", "kralendijk"})
"""City names of zones that a question says for something else (a name, a team, a brand)."""


def build_vocabulary(name: str, values: Mapping[str, Sequence[str] | None], *,
                     own_names: bool = True) -> Vocabulary:
    """A vocabulary from ``value -> words`` (a word ending in ``*`` is a stem).

    With ``own_names`` a value also names itself, unless it is a short word of ordinary text
    ("in", "t", "C") that has synonyms.
    """
    words: dict[str, tuple[str, bool]] = {}
    for value, synonyms in values.items():
        own = [str(value)] if own_names and (len(str(value)) >= 3 or not synonyms) else []
        for word in [*own, *(synonyms or [])]:
            stem = word.endswith("*")
            words.setdefault(word.rstrip("*").casefold(), (str(value), stem))
    ordered = sorted(((w, v, s) for w, (v, s) in words.items()), key=lambda t: (-len(t[0]), t[0]))
    return Vocabulary(name, tuple(ordered))


def vocabulary_for(utility: str, argument: str) -> str | None:
    """The vocabulary an argument's values come from, if it has one."""
    own = f"{utility}.{argument}"
    if own in vocabularies():
        return own
    for vocabulary, names in VOCABULARY_ARGUMENTS.items():
        if argument in names:
            return vocabulary
    return None


VOCABULARY_ARGUMENTS: dict[str, frozenset[str]] = {
    "charset": frozenset({"charset", "from_charset", "to_charset"}),
    "timezone": frozenset({"tz", "from_tz", "to_tz"}),
    "unit": frozenset({"from_unit", "to_unit"}),
    "regex_flags": frozenset({"flags"}),
    "uuid_namespace": frozenset({"namespace"}),
    "delimiter": frozenset({"delimiter"}),
}
"""Arguments without declared ``choices`` whose values a shared vocabulary gives."""


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


def date_spans(question: str) -> list[tuple[int, int]]:
    """Spans that read as a complete absolute date, in order."""
    return [(m.start(), m.end()) for m in _DATE_SPAN.finditer(question)]


_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per cent\b|процент)", re.IGNORECASE)


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
