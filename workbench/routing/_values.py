"""Where a value stands in a question, and where a number is no value.

Read by the rule router's binding and, for a question's data shapes and a value described by its
parts (:func:`holds_shape`, :func:`describes_data`), by the span router too.

The shapes of data only one utility takes (:data:`DATA_SHAPES`) and the letters each utility's data
is written in (:data:`DATA_ALPHABETS`), both read from ``data/patterns.yaml``; the interpreter of
``data/not_a_value.yaml`` (:func:`unnamed_spans`, :func:`_numbered`), and the checks of a number's
neighbours: a count of time or of the data's parts, a bound, a measure, a part of a value.
"""

from __future__ import annotations

import re

from workbench.relevance import (
    OPENING_QUOTES,
    question_literal_spans,
)
from workbench.routing._normalise import (
    ArgSpan,
    vocabularies,
)
from workbench.routing._tables import not_a_value, rule_patterns

P = rule_patterns()
"""The named patterns of ``data/patterns.yaml``."""
NAV = not_a_value()
"""The contexts of ``data/not_a_value.yaml`` in which a number is no value."""


DATA_ALPHABETS: dict[str, re.Pattern[str]] = P.prefixed("alphabet ")
"""The letters a utility's data is written in: a span outside them is not its data («радуга» is no
Base32, «Продукты у дома» no domain), so a decoder chosen for a word to encode binds nothing."""


DATA_SHAPES: dict[str, re.Pattern[str]] = P.prefixed("shape ")
"""Data whose shape only one utility takes: a question holding it scores for that utility as a
trigger of :data:`SHAPE_SCORE` letters would, wherever its words are."""


def holds_shape(uid: str, question: str) -> bool:
    """Whether ``question`` holds data of the shape only ``uid`` takes (:data:`DATA_SHAPES`).

    Not where every match is one word of a quoted text that has plain words besides: the "CI" of
    "a slug for «Ten Tips for Faster CI Pipelines»" is a word of the title, which is the data, not
    a Roman numeral. A quoted text all of whose words touch a match (a mojibake name, a
    percent-encoded run) still holds the shape.
    """
    shape = DATA_SHAPES.get(uid)
    if shape is None:
        return False
    matches = [m.span() for m in shape.finditer(question)]
    if not matches:
        return False
    literals = [(s, e) for s, e in question_literal_spans(question) if _opens_quote(question, s)]
    for start, end in matches:
        inside = [(s, e) for s, e in literals if s <= start and end <= e and (s, e) != (start, end)]
        if not inside:
            return True
        s, e = inside[0]
        words = [(s + w.start(), s + w.end()) for w in re.finditer(r"\S+", question[s:e])]
        if all(_overlaps(word, matches) for word in words if re.search(r"[^\W\d_]", question[slice(*word)])):
            return True
    return False


def _day_and_month(question: str, start: int, end: int) -> bool:
    """Whether ``question[start:end]`` is a day and a month («21.03»), no number or identifier.

    It stands after a preposition of time («от 21.03») or before a time of day («к кардиологу
    14.10 в 10:30»).
    """
    return NAV.day_month.fullmatch(question, start, end) is not None and bool(
        NAV.date_preposition.search(question, max(0, start - 8), start)
        or NAV.clock_after.match(question, end))


def _unit_starts(question: str, accepted: frozenset[str] | set[str] | None = None) -> list[int]:
    """Where the units of measure ``question`` names begin (of the ``accepted`` codes, if given)."""
    return [start for start, end in vocabularies()["unit"].spans(question)
            if accepted is None or ArgSpan(start, end, "enum:unit").value(question) in accepted]


def _written_in_unit(question: str, end: int, units: list[int]) -> bool:
    """Whether one of the units beginning at ``units`` is written right after a value ending at ``end``."""
    return any(P.adjacent_gap.match(question[end:u]) for u in units if u >= end)


def _measured(question: str, span: tuple[int, int]) -> bool:
    """Whether a unit of measure follows the number at ``span`` («72 градуса», "5 km"): a measure."""
    return (NAV.degrees_after.match(question, span[1]) is not None
            or _written_in_unit(question, span[1], _unit_starts(question)))


def _no_quantity(question: str, span: tuple[int, int], name: str) -> bool:
    """Whether the number at ``span`` is no value of argument ``name``, though a number.

    «3 года», «через 20» count time (left to an argument that counts time, or a year), «12 hex
    digits» counts the data's parts (the places of a rounding are its own), "under 80" bounds it,
    and a year is no measure («72 градуса по Фаренгейту … високосный ли 2032 год»).
    """
    return ((name != "year" and _counts_time(question, span))
            or (name == "year" and _measured(question, span))
            or NAV.grade.match(question, span[1]) is not None
            or (name != "digits" and NAV.parts_after.match(question, span[1]) is not None)
            or NAV.bound.search(question, max(0, span[0] - 14), span[0]) is not None)


def _counts_time(question: str, span: tuple[int, int]) -> bool:
    """Whether the number at ``span`` counts a span of time (:data:`NAV.time_count`, :data:`NAV.through`).

    Four digits before «год» or "year" name a year of the calendar («2025 год»), no count.
    """
    unit = NAV.time_count.match(question, span[1])
    if unit and re.fullmatch(r"[12]\d{3}", question[span[0]:span[1]]) and re.match(
            r"\s*(?:год|year)", unit[0], re.IGNORECASE):
        return False
    return bool(unit or NAV.through.search(question, max(0, span[0] - 8), span[0]))


def unnamed_spans(question: str) -> list[tuple[int, int]]:
    """The spans that name when, whom or what (``role: unnamed`` of ``not_a_value.yaml``), no value.

    A time of day, a phone number, a vehicle's plate, a document's number, a school's class, a
    room, a count of guests: each match, or the last group of it that took part.
    """
    return [m.span(m.lastindex or 0) for entry in NAV.entries.values()
            if entry.options.get("role") == "unnamed" for m in entry.regex.finditer(question)]


def _numbered(question: str, start: int, place: bool) -> bool:
    """Whether the value at ``start`` names a thing, no quantity or data of its own.

    A context of ``role: names_a_thing`` (``not_a_value.yaml``) ends within its ``window`` before
    it: a numbering sign («№», "ticket #"), a record's noun ("line 8812", «заказ 880») or, with
    ``place`` (for the utilities that read no address), a place's («кв. 48»). A context's
    ``unless_value`` keeps a value of that shape a value (a bank card's twelve digits after
    «карта»), its ``value_shape`` is the shape the value must have to be named.
    """
    for entry in NAV.entries.values():
        options = entry.options
        if options.get("role") != "names_a_thing" or (options.get("scope") == "place" and not place):
            continue
        if entry.regex.search(question, max(0, start - int(options["window"])), start) is None:
            continue
        unless, shape = options.get("unless_value"), options.get("value_shape")
        if unless and NAV.entries[unless].regex.match(question, start):
            continue
        if shape and not NAV.entries[shape].regex.match(question, start):
            continue
        return True
    return False


def _opens_quote(question: str, start: int) -> bool:
    """Whether an opening quote mark stands right before ``start`` (a quoted literal begins there)."""
    return question[start - 1:start] in OPENING_QUOTES


def _quoted_text(question: str, span: tuple[int, int]) -> bool:
    """Whether ``span`` is a quoted text of two sentences or more: a text, whatever figures it holds.

    'give me the stats: "The collection comprises 214 letters … Most were acquired …"' quotes the
    abstract; the count in it is a part of it, not a description of it.
    """
    return _opens_quote(question, span[0]) and P.sentence_end.search(
        question, span[0], span[1]) is not None


def _counts_within(question: str, start: int, end: int) -> bool:
    """Whether a token of ``question[start:end]`` counts the data's parts (:func:`_counts_parts`)."""
    return NAV.count_in_words.search(question, start, end) is not None or any(
        _counts_parts(question, m.start(), m[0]) for m in NAV.count.finditer(question, start, end))


def _counts_parts(question: str, start: int, text: str) -> bool:
    """Whether the token ``text`` at ``start`` is a count of the data's parts (:data:`NAV.counted`).

    Digits alone with the noun after them («12 символов»), or joined to it by a hyphen ("10-digit"),
    or the noun right before them («символов 80»).
    """
    digits = re.match(r"\d+", text)
    return digits is not None and text[digits.end():digits.end() + 1] in {"", "-"} and bool(
        NAV.counted.match(question, start + digits.end()) or NAV.counted_before.search(question, 0, start))


def describes_data(question: str) -> bool:
    """Whether ``question`` describes a value by its parts.

    How many it has («он 12-значный», "13 digits"), or what it starts or ends with ("starts with
    460", «начинается на 16»). Where the value itself is missing, such words name circumstances
    of the data, not the data.
    """
    return NAV.count_in_words.search(question) is not None or any(
        _part_of_value(question, m.start(), m[0].rstrip(".?"))
        for m in [*P.token.finditer(question), *NAV.count.finditer(question)])


def _part_of_value(question: str, start: int, text: str) -> bool:
    """Whether the token ``text`` at ``start`` is a part of a value, no value of its own.

    It counts the value's parts (:func:`_counts_parts`) or is what the value starts or ends with
    (:data:`NAV.part_of_value`).
    """
    return _counts_parts(question, start, text) or NAV.part_of_value.search(
        question, max(0, start - 20), start) is not None


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in taken)


def _quoted_name(question: str, start: int, end: int) -> bool:
    """Whether the quoted literal ``question[start:end]`` is a name: a model, a product, a firm.

    Three words at most, one of them a word of letters that opens with a capital («Альпика 28»,
    "Nova 2"): the number in it is part of the name, no quantity of the request.
    """
    words = question[start:end].split()
    return _opens_quote(question, start) and len(words) <= 3 and any(
        w[:1].isupper() and w.isalpha() for w in words) and any(any(c.isdigit() for c in w) for w in words)


def _figure_about_data(question: str, span: tuple[int, int]) -> bool:
    """Whether the bare number at ``span`` is a figure about the data, not the data.

    It is approximate ("about 40 Cyrillic characters", «около 300») or counts a part of the data
    ("300 rows with Windows line endings", «12 строк»): a text is never written so.
    """
    start, end = span
    if not question[start:end].isdigit():
        return False
    return bool(NAV.approximately.search(question[max(0, start - 16):start])
                or NAV.count_noun.match(question, end) or NAV.counted_kind.match(question, end))
