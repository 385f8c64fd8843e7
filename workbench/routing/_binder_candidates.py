"""The learned binder's candidates: the spans of a question a declared normaliser reads for one argument.

An argument the binder weighs (:func:`weighed`) is a number or an integer that the question gives
as data (an amount, a year, a count of days), a date, or an identifier written with digits (an
INN, an ISBN). Its candidates are every span a declared normaliser (:mod:`._normalise`) turns
into a value of the argument's type; the span a reference binding chose (when one is given) joins
them, so the learned choice never has fewer spans to choose from than the rules had.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from workbench.relevance import question_literal_spans
from workbench.routing._normalise import (
    BASE_ARGS,
    CODE_ARGUMENTS,
    DATE_ARGS,
    DURATION_ARGS,
    PERCENT_ARGS,
    ArgSpan,
    NormaliseError,
    date_spans,
    duration_spans,
    number_spans,
    percent_spans,
    range_start_spans,
    reads_decimal_comma,
)
from workbench.routing._tables import triggers
from workbench.utilities import Argument

COUNT_ARGUMENTS = frozenset({"digits", "periods_per_year", "indent", "month"})
"""Numbers read from words of their own («до сотых», «ежемесячно», a month's name): not weighed."""
MAX_CANDIDATES = 40
"""The most candidates one argument is weighed among; a question offering more is refused
(:class:`TooManyCandidates`) rather than read slowly or guessed."""
MAX_SPAN_CHARS = 64
"""The longest span weighed: no number or identifier an argument takes is longer."""
_CODE_RUN = re.compile(r"(?<![\w-])(?:\d[\d -]*[\dXx]|\d)(?![\w-])")


class Candidate(NamedTuple):
    """One span the question offers an argument, with its value."""

    span: ArgSpan
    """Where it is and its normaliser."""
    value: Any
    """The normaliser's value of the span."""


class TooManyCandidates(NamedTuple):
    """More spans than :data:`MAX_CANDIDATES`, or one longer than :data:`MAX_SPAN_CHARS`."""

    argument: str
    """The argument concerned."""
    found: int
    """How many spans it offered (or the longest span's length)."""
    limit: int
    """The bound."""
    what: str
    """``candidates`` or ``characters``."""


def weighed(arg: Argument) -> bool:
    """Whether the learned binder chooses this argument's span (the rest keep the reference binding).

    A date's is; a datetime's time of day is left to the reference binding.
    """
    if arg.name in DATE_ARGS:
        return True
    if arg.name in CODE_ARGUMENTS and arg.type == "string":
        return True
    return (arg.type in {"integer", "number"} and arg.name not in BASE_ARGS | COUNT_ARGUMENTS
            and (arg.role.value == "data" or arg.required))


def _number_normaliser(arg: Argument, question: str) -> str:
    style = "-ru" if reads_decimal_comma(question) else ""
    return arg.type + style


def _spans(arg: Argument, question: str) -> list[ArgSpan]:
    if arg.name in DATE_ARGS:
        found = [ArgSpan(s, e, "date") for s, e in date_spans(question)]
        if arg.name == "start":
            found += [ArgSpan(s, e, "date-range-start") for s, e in range_start_spans(question)]
        return found
    if arg.name in CODE_ARGUMENTS:
        return [ArgSpan(m.start(), m.end(), "code") for m in _CODE_RUN.finditer(question)]
    kind = _number_normaliser(arg, question)
    found = [ArgSpan(s, e, kind) for s, e in number_spans(question)]
    if arg.name in PERCENT_ARGS:
        found += [ArgSpan(s, e, kind) for s, e in percent_spans(question)]
    if arg.name in DURATION_ARGS:
        found += [ArgSpan(s, e, f"duration-{arg.name}") for s, e in duration_spans(question)]
    return found


def candidates(arg: Argument, question: str, reference: ArgSpan | None = None
               ) -> list[Candidate] | TooManyCandidates:
    """Every span of ``question`` a declared normaliser reads as a value of ``arg``, in order.

    ``reference`` (the span a reference binding chose) joins them when it reads. Spans that give
    no value are dropped; of spans with the same offsets the first normaliser is kept.
    """
    spans = _spans(arg, question)
    if reference is not None:
        spans.append(reference)
    longest = max((s.end - s.start for s in spans), default=0)
    if longest > MAX_SPAN_CHARS:
        return TooManyCandidates(arg.name, longest, MAX_SPAN_CHARS, "characters")
    seen: set[tuple[int, int]] = set()
    found: list[Candidate] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if (span.start, span.end) in seen:
            continue
        try:
            value = span.value(question)
        except NormaliseError:
            continue
        if arg.type == "integer" and isinstance(value, float) and not value.is_integer():
            continue
        seen.add((span.start, span.end))
        found.append(Candidate(span, value))
    if len(found) > MAX_CANDIDATES:
        return TooManyCandidates(arg.name, len(found), MAX_CANDIDATES, "candidates")
    return found


NAMED_BEFORE = 24
"""How many characters before a candidate are read for the identifier's name (:func:`named_fit`)."""


def named_fit(uid: str, arg: Argument, question: str, span: ArgSpan) -> bool:
    """Whether ``span`` may be the identifier ``arg`` of utility ``uid``, by its form.

    A span of the identifier's form (:attr:`~workbench.utilities.Argument.shape`) may; so may one
    of another form that stands right after the identifier's name («проверь ИНН 12345»): the person
    asking gave it as that identifier, and its check will say it fails. Any other («заказ 209»
    beside a request to check an ИНН) is another number of the message, whatever a model scores it.
    """
    if arg.fits_shape(question[span.start:span.end]):
        return True
    names = "|".join(re.escape(n) for n in sorted({arg.name, *triggers().get(uid, ())}, key=len,
                                                  reverse=True))
    before = question[max(0, span.start - NAMED_BEFORE):span.start].lower()
    return re.search(rf"(?<!\w)(?:{names})\w{{0,3}}[\s:№#=\-–—]*$", before) is not None


QUOTE_MARKS = "«“`"
"""Marks that set a literal apart in a message (plain ``"`` and ``'`` are left out: JSON and
apostrophes use them inside the data itself)."""
_WORD_OUTSIDE = re.compile(r"[^\W\d_]{2,}")


def quoted_within(question: str, span: ArgSpan) -> tuple[int, int] | None:
    """The literal a text span holds in quote marks with words of the message beside it, or ``None``.

    A text argument bound to «Ваш велосипед ждёт» — сколько байт? has two readings, the literal
    and the whole run; the span offers both, so the binder does not choose between them. The
    literals are those :func:`workbench.relevance.question_literal_spans` finds in the run; the
    first one opened by :data:`QUOTE_MARKS` decides. A plain ``"`` counts only where it opens the
    run and the literal is words with a space between ("Best week of my life!" — how many words?):
    JSON's keys and strings open with it too, but its data does not open a run with such a string.
    """
    text = question[span.start:span.end]
    for start, end in question_literal_spans(text):
        if start and (text[start - 1] in QUOTE_MARKS
                      or (start == 1 and text[0] == '"' and " " in text[start:end].strip())):
            outside = text[:start - 1] + " " + text[end + 1:]
            return ((span.start + start, span.start + end)
                    if end > start and _WORD_OUTSIDE.search(outside) else None)
    return None


_SENTENCE_END = (".", "!", "?", "…")
_LINE_MARKS = (":", ",", ";", "\t", "|", "=")
"""Marks every line of a block may hold: a YAML key's colon, a CSV or TSV delimiter, a pair's sign."""


def _opens(line: str) -> str:
    """How a line opens: ``upper`` or ``lower`` by its first character's case, else ``other``."""
    return "upper" if line[:1].isupper() else "lower" if line[:1].islower() else "other"


def last_line_apart(question: str, span: ArgSpan) -> tuple[int, int] | None:
    """The block a text span holds without its last line, where that line is set apart, or ``None``.

    A list, a table or a YAML mapping pasted with a remark on its own line after it («(qty to
    follow)», «оплатили пока 3 человека», «Заказ №77 на 16 500 руб.», "convert pls") has two
    readings, the block with and without that line, and only its shape tells them apart. The last
    of three lines or more (blank ones not counted) is set apart where it is a bracketed remark
    and no line above is; where every line above opens with a capital and it opens in lower case;
    where it ends a sentence (a full stop, a question or exclamation mark) and no line above does;
    or where every line above holds a mark of :data:`_LINE_MARKS` (a YAML key's colon, a CSV
    comma) that it lacks, unless it is indented under the first line (a key's nested value).
    """
    text = question[span.start:span.end].rstrip()
    raw = [line for line in text.split("\n") if line.strip()]
    if len(raw) < 3:
        return None
    *body, last = [line.strip() for line in raw]
    nested = len(raw[-1]) - len(raw[-1].lstrip()) > len(raw[0]) - len(raw[0].lstrip())
    apart = (
        (last.startswith("(") and last.endswith(")")
         and not any(line.startswith("(") and line.endswith(")") for line in body))
        or (_opens(last) == "lower" and all(_opens(line) == "upper" for line in body))
        or (last.endswith(_SENTENCE_END) and not any(line.endswith(_SENTENCE_END) for line in body))
        or (not nested  # a value indented under the key above it is the block's own
            and any(mark not in last and all(mark in line for line in body) for mark in _LINE_MARKS))
    )
    if not apart:
        return None
    end = text.rindex("\n")
    return span.start, span.start + len(text[:end].rstrip())


def lead_in_colon(question: str, span: ArgSpan) -> tuple[int, int] | None:
    r"""A text span without the colon it ends with, where the message goes on after that colon.

    A pattern bound up to the colon that leads in its text («регуляркой \d{2}:\d{2}: Пн 07:30
    …») has two readings, with the colon and without it; one set in quote marks is whole.
    """
    text = question[span.start:span.end]
    if (len(text) < 2 or not text.endswith(":") or set_in_quotes(question, span)
            or not question[span.end:span.end + 1].isspace() or not question[span.end:].strip()):
        return None
    return span.start, span.start + len(text[:-1].rstrip())


CLOSING = {"«": "»", "“": "”", "„": "“", '"': '"', "'": "'", "`": "`"}
"""Each quote mark that opens a literal and the mark that closes it."""


def set_in_quotes(question: str, span: ArgSpan) -> bool:
    """Whether ``span`` stands between a quote mark and its closing one («Сплин – Романс»).

    Only the marks beside the span are read, so a literal that holds a quoted name of its own
    («Бусю ждём в 11:00, салон «Пушистик», ул. Мира 5») is set in quotes too, which the literal
    finder of :mod:`workbench.relevance` (first closing mark) does not pair.
    """
    opening = question[span.start - 1:span.start] if span.start else ""
    return opening in CLOSING and question[span.end:span.end + 1] == CLOSING[opening]


def same_value(a: Any, b: Any) -> bool:
    """Whether two argument values are the same (numbers compared as numbers, strings without spaces)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip() == b.strip()
    return False


__all__ = ["CLOSING", "MAX_CANDIDATES", "MAX_SPAN_CHARS", "QUOTE_MARKS", "Candidate",
           "TooManyCandidates", "candidates", "last_line_apart", "lead_in_colon", "named_fit",
           "quoted_within", "same_value", "set_in_quotes", "weighed"]
