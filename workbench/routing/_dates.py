"""Date normalisers: a date, a range's first day, a time written before its date, a month's name.

Dates go through ``dateparser`` with a fixed relative base and only its absolute-date parser, so
the current date never enters a value: a relative date («завтра») has none.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable
from typing import Any

from workbench.routing._vocabulary import NormaliseError

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


_TIME_FIRST = re.compile(
    r"(?<![\d:.])(\d{1,2}):(\d{2})(?::(\d{2}))?((?:[\s,(]+[^\W\d_][\w./-]*\)?){0,4}?)[\s,]+$")
"""A time of day before a date, at most four words between: "at 15:30 Yekaterinburg time on
21.10.2025", «в 08:15 по Екб, 03.11.2025», "17:30 local, Europe/Rome, on 20.06.2026" (a zone's
name is one word, its slash inside), "16:30 their time (Asia/Shanghai) on 9 April 2026"."""


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


def date_spans(question: str) -> list[tuple[int, int]]:
    """Spans that read as a complete absolute date, in order."""
    return [(m.start(), m.end()) for m in _DATE_SPAN.finditer(question)]


def month_spans(question: str) -> list[tuple[int, int]]:
    """The month names of ``question``, in order; English "may" only as "May", outside dates."""
    taken = date_spans(question)
    return [(m.start(), m.end()) for m in _MONTH_NAME.finditer(question)
            if not (m[0].lower().startswith("may") and not m[0].startswith("M"))
            and not any(s <= m.start() < e for s, e in taken)]
