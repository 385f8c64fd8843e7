"""The rule router's binding: each argument of a chosen utility takes a span the question offers.

:func:`bind_arguments` walks the schema's arguments and takes, for each, the first span its
normaliser gives a value for (:mod:`._rule_offer` lists them, best first).
"""

from __future__ import annotations

import re
from typing import Any

from workbench.routing._asks import (
    ELSEWHERE_WORDS,
)
from workbench.routing._dates import time_first_spans
from workbench.routing._normalise import (
    BASE_ARGS,
    CODE_ARGUMENTS,
    DURATION_ARGS,
    PERCENT_ARGS,
    TIME_ARGS,
    ArgSpan,
    NormaliseError,
    duration_unit_after,
    period_spans,
    place_spans,
    vocabularies,
)
from workbench.routing._rule_offer import (
    PAIR_ARGS,
    TAIL_ARGS,
    _cue_named,
    _cued_first,
    _cued_value,
    _fitting,
    _marked_runs,
    _name_only,
    _named_word,
    _Offer,
    _one_sentence,
    _shape_runs,
)
from workbench.routing._tables import not_a_value, rule_patterns
from workbench.routing._values import (
    DATA_SHAPES,
    _counts_within,
    _figure_about_data,
    _no_quantity,
    _overlaps,
    _quoted_text,
    _unit_starts,
    _written_in_unit,
)
from workbench.routing._vocabulary import vocabulary_for
from workbench.utilities import UtilitySchema, unit_codes

P = rule_patterns()
"""The named patterns of ``data/patterns.yaml``."""
NAV = not_a_value()
"""The contexts of ``data/not_a_value.yaml`` in which a number is no value."""


DIRECTED_PAIRS = (("from_unit", "to_unit"), ("from_tz", "to_tz"))
"""Argument pairs whose *from* member is the one written right after the value."""


def _from_to_first(numbers: list[tuple[int, int]], question: str) -> None:
    """Move the numbers after "from" and "to" («с», «до») to the front, in that order.

    "Yield on field 7 went from 52.4 c/ha last year to 61.9": the old and the new value are
    the ones the change runs between, not the field's number.
    """
    start = next((n for n in numbers if P.from_word.search(question, max(0, n[0] - 6), n[0])), None)
    end = next((n for n in numbers if start is not None and n[0] > start[1]
                and P.to.search(question, max(0, n[0] - 4), n[0])), None)
    if start is not None and end is not None:
        numbers[:] = [start, end] + [n for n in numbers if n not in (start, end)]


def _measured_first(numbers: list[tuple[int, int]], question: str, uid: str) -> None:
    """Move the numbers written right before a unit that conversion ``uid`` accepts to the front.

    In "Pallet 4 of 6 - gross weight 1,850 lb" the value is the number the unit measures.
    """
    units = _unit_starts(question, unit_codes()[uid])
    numbers.sort(key=lambda n: not _written_in_unit(question, n[1], units))


def _orient(uid: str, question: str, bound: dict[str, ArgSpan], first: str, second: str) -> None:
    """Swap a *from*/*to* pair when only the *to* value is written right after the data value.

    «Сколько сантиметров в 5,5 дюймах?» names the target unit first; the unit written after the
    number is the one the number is in. Any span naming the same value counts, so
    "Москве … 09:00 (Europe/Moscow)" is read as the zone of the time.
    """
    vocabulary = vocabulary_for(uid, first)
    if vocabulary is None:
        return
    values = [span.end for name, span in bound.items()
              if name not in (first, second) and not span.normaliser.startswith("enum:")]
    if first == "from_tz":  # "a call at 14:00 Kaliningrad time on 15 October": the zone of the clock
        values += [m.end() for m in NAV.clock.finditer(question)]
    adjacent = set()
    for start, end in vocabularies()[vocabulary].spans(question):
        if any(start >= v and P.adjacent_gap.match(question[v:start]) for v in values):
            try:
                adjacent.add(ArgSpan(start, end, f"enum:{vocabulary}").value(question))
            except NormaliseError:
                continue
    if bound[second].value(question) in adjacent and bound[first].value(question) not in adjacent:
        bound[first], bound[second] = bound[second], bound[first]


def _base_for(name: str, bases: list[tuple[int, int]], question: str) -> list[tuple[int, int]]:
    """The span naming the base ``name`` asks for, if any.

    "from"/«из» marks the source, "to"/"in"/«в»/«по» the target, and an unmarked one is the
    source if none is marked, else the target: «шестнадцатеричное 1A2 переведи в десятичную»
    reads 16 as the source and 10 as the target; "Convert 255 to base 2" names only the
    target, so the source stays absent (and the router refuses ``MISSING_ARGUMENT``).
    """
    def marked(pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        return [(s, e) for s, e in bases if pattern.search(question[max(0, s - 12):s])]

    targets, sources = marked(P.to_base), marked(P.from_base)
    plain = [span for span in bases if span not in targets and span not in sources]
    source = (sources or plain)[:1]
    if name == "from_base":
        return source
    return (targets or [span for span in plain if span not in source])[:1]


def _digits_before_base(question: str, bases: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The digits written just before "from"/"in"/«из» and a base (:data:`P.before_base`).

    "Convert ff from base 16 to base 2" gives «ff», which holds no decimal digit, so no token took it.
    """
    return [m.span(1) for start, _ in bases if (m := P.before_base.search(question, 0, start))]


def _value_or_none(question: str, span: tuple[int, int], normaliser: str) -> Any:
    """The value ``normaliser`` gives the span, or None where it gives none."""
    try:
        return ArgSpan(*span, normaliser).value(question)
    except NormaliseError:
        return None


def _take(spans: list[tuple[int, int]], question: str, normaliser: str, duration: str | None = None
          ) -> tuple[ArgSpan, Any] | None:
    """The first span of ``spans`` the normaliser gives a value for (taken out of the list).

    With ``duration``, the unit of time an argument counts, a number written with a unit of time is
    read with it («на 5 лет» is 60 months, :func:`normalise_duration`) and passed over where that
    unit holds no whole number of ``duration`` («2 месяца» as days); a bare one by ``normaliser``.
    """
    while spans:
        start, end = spans.pop(0)
        after = duration_unit_after(question, end) if duration else None
        span = ArgSpan(start, after[0], f"duration-{duration}") if after else ArgSpan(start, end, normaliser)
        try:
            return span, span.value(question)
        except NormaliseError:
            continue
    return None


def _take_unit(name: str, offer: _Offer, accepted: frozenset[str] | set[str]) -> tuple[ArgSpan, Any] | None:
    """The unit a conversion's ``from_unit`` or ``to_unit`` takes (taken out of the offer).

    Its names, and its single letters where they stand as units ("350 F … in C"), in the
    question's order; a unit of another quantity is none ("kg" of a data size). The unit after
    the word that asks into one ("What is that in pounds?") is the target, and the source only
    where no other is written.
    """
    question = offer.question
    candidates = [ArgSpan(*s, kind) for kind in ("enum:unit", "unit-letter") for s in offer.spans(kind)]
    own = sorted((c for c in candidates if c.value(question) in accepted), key=lambda c: c.start)
    into = [c for c in own if P.into_unit.search(question[max(0, c.start - 8):c.start])]
    rest = [c for c in own if c not in into]
    for span in (into + rest if name == "to_unit" else rest + into):
        offer.spans(span.normaliser).remove((span.start, span.end))
        return span, span.value(question)
    return None


def bind_arguments(schema: UtilitySchema, question: str, own: tuple[str, ...],
                   own_patterns: tuple[tuple[str, re.Pattern[str]], ...], names: frozenset[str]
                   ) -> dict[str, ArgSpan]:
    """Each argument of ``schema`` that a span of ``question`` gives a value for, with that span.

    ``own`` are the utility's trigger words, ``own_patterns`` where each begins a word, ``names``
    the one-word names of every utility (a token that is one names no data).
    """
    uid = schema.id
    offer = _Offer(question, schema, own, own_patterns, names)
    bound: dict[str, ArgSpan] = {}
    # a month binds first: in "month 2 of 2023" the year must not take the 2
    for arg in sorted(schema.arguments, key=lambda a: a.name != "month"):
        name = arg.name
        vocabulary = vocabulary_for(uid, name)
        taken: tuple[ArgSpan, Any] | None = None
        if name in BASE_ARGS:
            taken = _take(_base_for(name, offer.bases, question), question, "base")
        elif vocabulary is not None:
            spans = offer.spans(f"enum:{vocabulary}")
            accepted = unit_codes().get(uid) if vocabulary == "unit" else None
            # of two modes, the one named last is asked for, the first the text as it is: "came in all
            # lowercase, give me title case", «из нижнего регистра в верхний»; a unit of another
            # quantity is no unit of this conversion ("kg" of a data size)
            taken = (_take(spans[::-1] if name == "mode" else spans, question, f"enum:{vocabulary}")
                     if accepted is None else _take_unit(name, offer, accepted))
            if taken is not None:  # a value named twice is one: «Moscow (Europe/Moscow)», «12 соток (ares)»
                for kind in (f"enum:{vocabulary}", "unit-letter"):
                    spans = offer.spans(kind)
                    spans[:] = [s for s in spans if _value_or_none(question, s, kind) != taken[1]]
        elif name in TIME_ARGS:
            # «с 1 по 31 марта 2026»: the first day takes its month and year from the end
            # and a date after "up to" or «до» ends a span of time, never starts it
            dates = ([d for d in offer.dates if not P.up_to.search(question, max(0, d[0] - 12), d[0])]
                     if name == "start" else offer.dates)
            # and a moment's time may stand before its date ("at 15:30 … on 21.10.2025")
            taken = ((_take(offer.range_starts, question, "date-range-start")
                      if name == "start" else None)
                     or (_take(time_first_spans(question), question, "datetime-time-first")
                         if name == "datetime" else None)
                     or _take(dates, question, "date"))
            if taken is not None and taken[0].normaliser == "datetime-time-first":
                offer.dates = [d for d in offer.dates if d[1] != taken[0].end]
            elif taken is not None and (taken[0].start, taken[0].end) in offer.dates:
                offer.dates.remove((taken[0].start, taken[0].end))
        elif name in {"ip", "cidr"}:
            # a network is written with its prefix length, an address without one: in "is
            # 172.16.40.9 inside our office subnet?" the address is no network
            taken = _take([s for s in offer.ips if ("/" in question[s[0]:s[1]]) == (name == "cidr")],
                          question, "text")
        elif name == "roman":
            taken = _take([r for r in offer.romans if r[1] - r[0] >= 2], question, "text")
        elif name == "pattern":
            # a regular expression is written between backticks when the question has one
            ticked = [lit for lit in offer.literals if question[lit[0] - 1:lit[0]] == "`"]
            if ticked:
                offer.literals.remove(ticked[0])
                offer.literals.insert(0, ticked[0])
            # else one written unquoted right after its name («по регулярке \d+»)
            cued = [] if ticked else _cued_value(question, P.pattern_cue, P.regex_mark)
            taken = _take(cued, question, "text") or _take(offer.literals, question, "text")
        elif name == "replacement":
            # what replaces a match is named as such: «на `_`», "with `shade`", "replacement \2";
            # a literal without such a word is the text or the pattern, never the replacement
            cued = _cued_value(question, P.replacement_cue) or [
                lit for lit in offer.literals
                if P.replaced_by.search(question[max(0, lit[0] - 16):lit[0]])]
            taken = _take(cued, question, "text")
            if taken is not None and (taken[0].start, taken[0].end) in offer.literals:
                offer.literals.remove((taken[0].start, taken[0].end))
        elif name == "month":  # a month's name first, else a number 1-12
            taken = (_take(offer.months, question, "month")
                     or _take(offer.numbers, question, "month"))
        elif name == "digits" and (places := place_spans(question)):  # «до сотых»
            taken = _take(places, question, "places")
        elif name == "periods_per_year" and (periods := period_spans(question)):
            taken = _take(periods, question, "periods")  # «с ежемесячной капитализацией»
        elif name == "indent":  # "4-space indent", «с отступом в 2 пробела»
            taken = _take([m.span(g) for m in P.indent.finditer(question) for g in (1, 2) if m[g]],
                          question, "integer")
        elif name in PERCENT_ARGS and (offer.percents or name == "percent"):
            # "15% of 2,400" gives its percentage a sign; a bare number beside another
            # ("from 3,200 to 4,100") is no percentage of it
            taken = _take(offer.percents, question, "number" + offer.number_style)
        elif name in DURATION_ARGS and arg.type in {"integer", "number"}:
            taken = _take(offer.numbers, question, arg.type + offer.number_style, duration=name)
        elif arg.type in {"integer", "number"} and (arg.role.value == "data" or arg.required):
            if name != "year":  # "seconds since 1970", «с 2019 года»: a year the count starts from
                # and «3 года», «через 20» count time, no amount
                offer.numbers = [n for n in offer.numbers if not NAV.since_year.search(question, 0, n[1])
                                 and not (name in {"old", "new"} and NAV.in_year.search(question, 0, n[1]))]
            if uid in unit_codes() and name == "value":
                _measured_first(offer.numbers, question, uid)
            if name == "old":
                _from_to_first(offer.numbers, question)
            taken = _take([n for n in offer.numbers if not _no_quantity(question, n, name)],
                          question, arg.type + offer.number_style)
            if taken is not None:
                offer.numbers.remove((taken[0].start, taken[0].end))
        elif arg.role.value == "data" and arg.type == "string":
            # a quoted text that itself says the data is elsewhere («адрес тот же, что в
            # прошлом заказе») points at the data and is none
            # and so does one that counts its own parts («адрес: одна строка, символов 80»),
            # and one that opens by standing in for a value of a form («адрес: он в Казани, с
            # корпусом») where the value is no free text
            # and one that is what the value starts or ends with ("starts with 'Nsk'")
            offer.literals = [lit for lit in offer.literals
                              if not ELSEWHERE_WORDS.search(question, lit[0], lit[1])
                              and not (_counts_within(question, *lit) and not _quoted_text(question, lit))
                              and not NAV.part_of_value.search(question, max(0, lit[0] - 21), lit[0])
                              and not P.container.search(question, max(0, lit[0] - 12), max(0, lit[0] - 1))
                              and (name in TAIL_ARGS or not P.stands_in.match(question, lit[0]))]
            if name in TAIL_ARGS:  # «…ИКАО: Гарипова Алсу Ринатовна, 8А. Мама ждёт»: the name
                offer.literals = [_name_only(question, lit) for lit in offer.literals]
            if P.one_sentence_data.fullmatch(uid):
                offer.literals = [_one_sentence(question, lit) for lit in offer.literals]
            if name == "text":
                _cued_first(offer.literals, question)
            if name == "address":
                _cued_first(offer.literals, question, P.address_cue)
            if uid in DATA_SHAPES:  # the spans that hold data of the utility's shape come first
                for spans in (offer.literals, offer.tokens):
                    spans.sort(key=lambda span: DATA_SHAPES[uid].search(question, *span) is None)
            if name == "domain":  # «пример.рф» holds no digit, so no token took it
                offer.tokens = sorted(set(offer.tokens) | {
                    (m.start(), m.end()) for m in P.domain.finditer(question)})
            offer.literals = _fitting(offer.literals, question, uid)
            offer.tokens = _fitting(offer.tokens, question, uid)
            if (name in TAIL_ARGS and ELSEWHERE_WORDS.search(question)) or P.counts_words.fullmatch(uid):
                # "the essay I attached? The limit is 500": with the text kept elsewhere, a bare
                # number or date the question holds is a figure about it, not the text
                offer.tokens = [t for t in offer.tokens if any(c.isalpha() for c in question[t[0]:t[1]])]
            if name in TAIL_ARGS:
                # "about 40 Cyrillic characters", "300 rows": a figure about the data
                offer.tokens = [t for t in offer.tokens if not _figure_about_data(question, t)]
            if name in TAIL_ARGS and _cue_named(question):
                # a word its noun names as the data comes before a bare number («у слова
                # электрификация, если поле принимает 32?»: the 32 is a limit, not the text)
                offer.tokens = [t for t in offer.tokens if not question[t[0]:t[1]].isdigit()]
            kind = "code" if name in CODE_ARGUMENTS else "text"
            if kind == "code":  # a whole date ("2025-01-31") is a date, never an identifier,
                # and a sum with its currency ("Invoice for 96 000 rub.") is money
                offer.tokens = [t for t in offer.tokens if t not in offer.date_spans
                                and not NAV.currency_after.match(question, t[1])]
            # the word after "name" is named as the data: it comes before a bare token
            # ("a version-5 UUID for the name example.org")
            named = _named_word(question) if name == "name" else []
            named_modes = [span for a in schema.arguments if a.name == "mode"
                           and (mode := vocabulary_for(uid, a.name)) is not None
                           for span in vocabularies()[mode].separate_spans(question)]
            # and it is chosen inside a literal too («UUID v3: пространство URL, имя x.org»)
            if named and any(ls <= named[0][0] and named[0][1] <= le for ls, le in offer.literals[:1]):
                offer.literals.pop(0)
            taken = (_take(offer.literals, question, kind)
                     or (_take(offer.pair, question, kind) if name in PAIR_ARGS else None)
                     or _take(named, question, kind)
                     # a full name with its patronymic is one value («Шарафутдинов Рустем Ильдарович»)
                     or (_take([m.span() for m in P.full_name.finditer(question)], question, kind)
                         if name in TAIL_ARGS else None)
                     or _take(offer.tokens, question, kind)
                     # a run of the data's shape that names a mode ("camelCase to snake_case")
                     # is that mode, whichever of the two was taken
                     or (_take([r for r in _shape_runs(question, DATA_SHAPES[uid])
                                if not _overlaps(r, named_modes)], question, kind)
                         if uid in DATA_SHAPES and name in TAIL_ARGS else None)
                     or _take(_digits_before_base(question, offer.bases), question, kind)
                     or (_take(_marked_runs(question, own), question, kind)
                         if P.escaped_data.fullmatch(uid) else None)
                     or (_take(_cued_value(question, P.substring_cue), question, kind)
                         if name == "substring" else None)
                     or (_take(_fitting(offer.tail(), question, uid), question, kind)
                         # with the data kept elsewhere, unquoted words describe it
                         if name in TAIL_ARGS and not ELSEWHERE_WORDS.search(question) else None))
        if taken is not None:
            bound[name] = taken[0]
    for first, second in DIRECTED_PAIRS:
        if first in bound and second in bound:
            _orient(uid, question, bound, first, second)
    # one span is one value: a text argument that took the very span of another argument
    # (a literal `12` that is also the pattern) is left unbound rather than guessed
    for name in [n for n, span in bound.items() if span.normaliser == "text"]:
        span = bound[name]
        if any(other != name and (s.start, s.end) == (span.start, span.end)
               for other, s in bound.items()):
            del bound[name]
    return bound
