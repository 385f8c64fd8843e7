"""Argument normalisers: every value is the normalisation of a span of the question.

Property tests write a value into a Russian or English question the way people write it (digits
with spaces, number words, dates in words), find the span, and read the value back; the rule
router's every argument is checked the same way, over generated questions and the task sets.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.routing import (
    ArgSpan,
    NormaliseError,
    RuleRouter,
    Source,
    candidate_spans,
    derive,
    load_tasks,
    normalise,
    underived_arguments,
    vocabularies,
)
from workbench.routing._dates import time_first_spans
from workbench.routing._normalise import (
    base_spans,
    date_spans,
    normalise_date,
    number_spans,
    places_vocabulary,
    range_start_spans,
)
from workbench.routing._vocabulary import vocabulary_for
from workbench.utilities import load_catalog

QUESTIONS = Path(__file__).resolve().parents[2] / "corpus" / "questions"
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RU_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
             "сентября", "октября", "ноября", "декабря"]
EN_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December"]
FRAMES = [("Сколько дней до {}?", "ru"), ("Какой день недели был {}", "ru"),
          ("What weekday was {}?", "en"), ("Add a week to {} please", "en")]


def _spans_reading(question: str, spans: list[tuple[int, int]], name: str) -> list:
    return [normalise(name, question[s:e]) for s, e in spans]


# --- numbers ---------------------------------------------------------------------------------


@FAST
@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(FRAMES),
       st.sampled_from(["plain", "spaces", "nbsp", "commas"]))
def test_integers_written_with_separators_read_back(n: int, frame: tuple[str, str],
                                                    style: str) -> None:
    written = {"plain": str(n), "spaces": f"{n:,}".replace(",", " "),
               "nbsp": f"{n:,}".replace(",", "\u00a0"), "commas": f"{n:,}"}[style]
    question = frame[0].format(written)
    spans = number_spans(question, words=False)
    assert len(spans) == 1
    start, end = spans[0]
    assert question[start:end] == written  # the span is the user's own writing
    assert normalise("number", question[start:end]) == n
    assert derive(question, n) is not None


@FAST
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=9999),
       st.sampled_from([",", "."]))
def test_decimals_with_comma_or_point(whole: int, fraction: int, mark: str) -> None:
    written = f"{whole}{mark}{fraction:04d}"
    question = f"Округли {written} до двух знаков"
    span = next(s for s in number_spans(question, words=False))
    assert question[span[0]:span[1]] == written
    assert normalise("number", written) == float(f"{whole}.{fraction:04d}")


NUMBER_WORDS: list[tuple[str, int]] = [
    ("ноль", 0), ("три", 3), ("двух", 2), ("двенадцать", 12), ("сорок два", 42),
    ("сто двадцать три", 123), ("девятьсот девяносто девять", 999), ("две тысячи двадцать шесть", 2026),
    ("тысяча", 1000), ("пять миллионов", 5_000_000),
    ("zero", 0), ("seven", 7), ("nineteen", 19), ("forty-two", 42), ("one hundred", 100),
    ("two thousand and twenty", 2020), ("three million", 3_000_000),
]


@pytest.mark.parametrize(("words", "value"), NUMBER_WORDS)
def test_number_words_in_both_languages(words: str, value: int) -> None:
    question = f"Переведи {words} в римские цифры" if re.search("[а-я]", words) else \
        f"Write {words} in Roman numerals"
    assert normalise("number", words) == value
    spans = number_spans(question)
    assert [question[s:e] for s, e in spans] == [words]
    assert derive(question, value) == ArgSpan(spans[0][0], spans[0][1], "number")


def test_a_conjunction_between_numbers_keeps_them_apart() -> None:
    for question in ("НОД чисел двенадцать и восемнадцать", "gcd of twelve and eighteen"):
        assert _spans_reading(question, number_spans(question), "number") == [12, 18]


@pytest.mark.parametrize("text", ["", "abc", "1 00", "1,2,3", "12.", "один два три четыре x",
                                  "3.4.5", "- 5"])
def test_what_is_not_one_number(text: str) -> None:
    with pytest.raises(NormaliseError):
        normalise("number", text)


@pytest.mark.parametrize(("question", "value", "normaliser"), [
    ("Округли 3,141 до двух знаков", 3.141, "number-ru"),
    ("Округли 1 000,5 до 0 знаков", 1000.5, "number-ru"),
    ("How much is 1,500 pounds in kilograms?", 1500, "number"),
    ("Round 2.5 to 0 decimals", 2.5, "number"),
])
def test_a_comma_reads_as_each_language_writes_it(question: str, value: float,
                                                  normaliser: str) -> None:
    decision = ROUTER.route(question)
    first = next(iter(decision.args))
    assert decision.args[first] == value and decision.arg_spans[first].normaliser == normaliser
    assert normalise("number-ru", "3,141") == 3.141 and normalise("number", "3,141") == 3141
    assert derive(question, value) is not None


def test_integer_refuses_a_fraction() -> None:
    assert normalise("integer", "1 024") == 1024
    with pytest.raises(NormaliseError):
        normalise("integer", "2,5")


def test_a_number_glued_to_a_name_is_part_of_the_name() -> None:
    question = "Посчитай SHA-256 от «abc» в UTF-8 и 10 раз"
    assert [question[s:e] for s, e in number_spans(question)] == ["10"]


# --- dates -------------------------------------------------------------------------------------


@FAST
@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)),
       st.integers(min_value=1, max_value=31), st.sampled_from(["ru", "en"]))
def test_a_range_starts_on_its_day_in_the_month_and_year_of_its_end(
        end: dt.date, first: int, lang: str) -> None:
    written = (f"с {first} по {end.day} {RU_MONTHS[end.month - 1]} {end.year} года" if lang == "ru"
               else f"from {first} to {end.day} {EN_MONTHS[end.month - 1]} {end.year}")
    question = f"Сколько рабочих дней {written}?" if lang == "ru" else f"How many business days {written}?"
    spans = range_start_spans(question)
    assert len(spans) == 1 and question[spans[0][0]:].startswith(str(first))
    try:
        expected: str | None = end.replace(day=first).isoformat()
    except ValueError:
        expected = None  # no such day in that month
    if expected is not None and expected > end.isoformat():
        expected = None  # a range runs forward
    if expected is None:
        with pytest.raises(NormaliseError):
            normalise("date-range-start", question[slice(*spans[0])])
    else:
        assert normalise("date-range-start", question[slice(*spans[0])]) == expected


def test_a_range_start_needs_a_bare_day_before_a_whole_date() -> None:
    assert range_start_spans("Сколько рабочих дней между 2026-03-01 и 2026-03-31?") == []
    assert range_start_spans("В 10:00 - 31 марта 2026 года") == []  # a time is no day
    decision = RuleRouter().route("Сколько рабочих дней с 1 по 31 марта 2026 года?")
    assert (decision.utility, decision.args) == (
        "date.business_days", {"start": "2026-03-01", "end": "2026-03-31"})
    # a router that keeps no spans wrote the same start: it is derived from the range
    span = derive("Сколько рабочих дней с 1 по 31 марта 2026 года?", "2026-03-01", "start")
    assert span is not None and span.normaliser == "date-range-start"


@pytest.mark.parametrize(("written", "iso"), [("17/11/1986", "1986-11-17"), ("11/17/1986", "1986-11-17"),
                                              ("04/04/2025", "2025-04-04")])
def test_a_date_with_slashes_reads_where_its_order_is_not_in_doubt(written: str, iso: str) -> None:
    question = f"Date of birth: {written}. How old is he?"
    spans = date_spans(question)
    assert [question[s:e] for s, e in spans] == [written]
    assert normalise_date(written) == iso


@pytest.mark.parametrize("written", ["05/03/2025", "31/02/2024"])
def test_a_date_with_slashes_in_doubt_or_impossible_has_no_value(written: str) -> None:
    with pytest.raises(NormaliseError):
        normalise_date(written)


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


@FAST
@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)),
       st.sampled_from(["us", "uk", "uk-of"]), st.sampled_from(FRAMES))
def test_an_english_day_written_as_an_ordinal_reads_back(day: dt.date, style: str,
                                                       frame: tuple[str, str]) -> None:
    # "July 20th, 1969", "20th July 1969", "the 3rd of March 2025"
    month = EN_MONTHS[day.month - 1]
    written = {"us": f"{month} {_ordinal(day.day)}, {day.year}",
               "uk": f"{_ordinal(day.day)} {month} {day.year}",
               "uk-of": f"{_ordinal(day.day)} of {month} {day.year}"}[style]
    question = frame[0].format(written)
    spans = date_spans(question)
    assert [question[s:e] for s, e in spans] == [written]
    assert _spans_reading(question, spans, "date") == [day.isoformat()]


@FAST
@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)),
       st.sampled_from(["iso", "dots", "ru", "ru-year", "en-us", "en-uk"]),
       st.sampled_from(FRAMES))
def test_dates_in_words_and_digits_read_back_as_iso(day: dt.date, style: str,
                                                    frame: tuple[str, str]) -> None:
    written = {
        "iso": day.isoformat(),
        "dots": f"{day.day:02d}.{day.month:02d}.{day.year}",
        "ru": f"{day.day} {RU_MONTHS[day.month - 1]} {day.year}",
        "ru-year": f"{day.day} {RU_MONTHS[day.month - 1]} {day.year}",
        "en-us": f"{EN_MONTHS[day.month - 1]} {day.day}, {day.year}",
        "en-uk": f"{day.day} {EN_MONTHS[day.month - 1]} {day.year}",
    }[style]
    question = frame[0].format(written + (" года" if style == "ru-year" else ""))
    spans = date_spans(question)
    assert [question[s:e] for s, e in spans] == [written]
    assert _spans_reading(question, spans, "date") == [day.isoformat()]


@FAST
@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)),
       st.times().map(lambda t: t.replace(second=0, microsecond=0)),
       st.sampled_from(["dots", "ru", "ru-year", "en-us", "en-uk"]), st.sampled_from(FRAMES))
def test_a_time_after_a_date_in_words_reads_back_as_one_iso_datetime(
        day: dt.date, time: dt.time, style: str, frame: tuple[str, str]) -> None:
    clock = f"{time.hour}:{time.minute:02d}"
    written = {
        "dots": f"{day.day:02d}.{day.month:02d}.{day.year} {clock}",
        "ru": f"{day.day} {RU_MONTHS[day.month - 1]} {day.year}, {clock}",
        "ru-year": f"{day.day} {RU_MONTHS[day.month - 1]} {day.year} года в {clock}",
        "en-us": f"{EN_MONTHS[day.month - 1]} {day.day}, {day.year} at {clock}",
        "en-uk": f"{day.day} {EN_MONTHS[day.month - 1]} {day.year} {clock}",
    }[style]
    question = frame[0].format(written)
    spans = date_spans(question)
    assert [question[s:e] for s, e in spans] == [written]
    assert _spans_reading(question, spans, "date") == [
        dt.datetime.combine(day, time).isoformat(timespec="seconds")]


@FAST
@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)),
       st.times().map(lambda t: t.replace(microsecond=0)),
       st.sampled_from(["{t} Yekaterinburg time on {d}", "{t} по Екб, {d}", "{t} her time, {d}", "{t} {d}",
                        "{t} local, Europe/Rome, on {d}", "{t} по Asia/Makassar, {d}",
                        "{t} their time (Asia/Shanghai) on {d}"]),
       st.sampled_from(["dots", "ru", "en"]))
def test_a_time_before_its_date_reads_back_as_one_iso_datetime(day: dt.date, time: dt.time, between: str,
                                                               style: str) -> None:
    clock = f"{time.hour}:{time.minute:02d}" + (f":{time.second:02d}" if time.second else "")
    written = {"dots": f"{day.day:02d}.{day.month:02d}.{day.year}",
               "ru": f"{day.day} {RU_MONTHS[day.month - 1]} {day.year}",
               "en": f"{EN_MONTHS[day.month - 1]} {day.day}, {day.year}"}[style]
    span = between.format(t=clock, d=written)
    question = f"The call is at {span}. What time is that in Tokyo?"
    spans = time_first_spans(question)
    assert [question[s:e] for s, e in spans] == [span]
    assert _spans_reading(question, spans, "datetime-time-first") == [
        dt.datetime.combine(day, time).isoformat(timespec="seconds")]


@pytest.mark.parametrize("text", ["25:10 on 01.02.2025", "10:61 01.02.2025", "10:00 on a Monday",
                                  "10:00 one two three four five 01.02.2025", "01.02.2025 10:00"])
def test_a_time_before_a_date_that_is_not_one_moment_has_no_value(text: str) -> None:
    with pytest.raises(NormaliseError):
        normalise("datetime-time-first", text)


def test_a_date_with_its_own_time_takes_no_time_before_it() -> None:
    assert time_first_spans("Сколько будет 10:00 по Москве, 01.02.2025 10:30?") == []


@pytest.mark.parametrize(("text", "iso"), [
    ("5 марта 2024", "2024-03-05"), ("1 января 2026", "2026-01-01"), ("29 февраля 2024", "2024-02-29"),
    ("March 5, 2024", "2024-03-05"), ("5 March 2024", "2024-03-05"), ("31.12.1999", "1999-12-31"),
    ("2026-03-10 09:00", "2026-03-10T09:00:00"),
])
def test_date_round_trip_examples(text: str, iso: str) -> None:
    assert normalise("date", text) == iso


@pytest.mark.parametrize("text", ["завтра", "tomorrow", "вчера", "next Monday", "5 марта",
                                  "March 2024", "29 февраля 2023", "31.04.2024", "2024-02-30",
                                  "через неделю"])
def test_relative_incomplete_and_impossible_dates_have_no_value(text: str) -> None:
    with pytest.raises(NormaliseError):
        normalise("date", text)
    assert derive(f"Какой день недели {text}?", "2000-01-02") is None


MONTH_NAMES = [("январь", 1), ("феврале", 2), ("марта", 3), ("апреля", 4), ("мае", 5), ("мая", 5),
               ("июне", 6), ("июля", 7), ("августе", 8), ("сентября", 9), ("октябрь", 10),
               ("ноябре", 11), ("декабря", 12), ("January", 1), ("Feb", 2), ("Feb.", 2),
               ("March", 3), ("May", 5), ("sept", 9), ("December", 12), ("7", 7)]


@pytest.mark.parametrize(("word", "number"), MONTH_NAMES)
def test_a_month_name_reads_as_its_number(word: str, number: int) -> None:
    question = f"Сколько дней в {word} 2100 года?"
    assert normalise("month", word) == number
    span = derive(question, number)
    assert span is not None and span.value(question) == number


@pytest.mark.parametrize("text", ["13", "0", "маяк", "mayday", "Marchand", "весна"])
def test_what_is_not_a_month(text: str) -> None:
    with pytest.raises(NormaliseError):
        normalise("month", text)


def test_english_may_is_a_month_only_with_its_capital() -> None:
    from workbench.routing._normalise import month_spans

    question = "may I ask how many days May 2031 has?"
    assert [question[s:e] for s, e in month_spans(question)] == ["May"]
    assert month_spans("2 мая 2026 года") == []  # a whole date is a date, not a month


@pytest.mark.parametrize(("question", "args"), [
    ("Сколько дней в феврале 2100 года?", {"year": 2100, "month": 2}),
    ("days in month 2 of 2023", {"year": 2023, "month": 2}),  # the year does not take the 2
])
def test_the_month_binds_before_the_year(question: str, args: dict) -> None:
    from workbench.routing import RuleRouter

    spans = RuleRouter().bind("date.days_in_month", question)
    assert {name: span.value(question) for name, span in spans.items()} == args


# --- enums -------------------------------------------------------------------------------------


def test_gost_names_the_gost_standard() -> None:
    question = "Транслитерируй «Щукин» по ГОСТу"
    (span,) = [s for s in candidate_spans(question)
               if s.normaliser == "enum:text.transliterate.standard"]
    assert span.text(question) == "ГОСТу"
    assert span.value(question) == "gost-7.79-b"


def test_every_enum_value_is_among_the_declared_choices() -> None:
    catalog = load_catalog()
    for name, vocabulary in vocabularies().items():
        if "." not in name:
            continue
        uid, _, arg = name.rpartition(".")
        choices = {str(c) for a in catalog.schemas[uid].arguments if a.name == arg
                   for c in a.choices}
        assert choices, f"{name}: the schema declares no choices"
        assert {value for _, value, _ in vocabulary.words} <= choices, name
    for uid, schema in catalog.schemas.items():
        for arg in schema.arguments:
            if arg.choices:
                assert vocabulary_for(uid, arg.name) == f"{uid}.{arg.name}"


ENUM_WORDS = [(name, word, value, stem) for name, vocabulary in vocabularies().items()
              for word, value, stem in vocabulary.words]


@pytest.mark.parametrize(("name", "word", "value", "stem"), ENUM_WORDS,
                         ids=[f"{n}:{w}" for n, w, _, _ in ENUM_WORDS])
def test_each_synonym_names_its_value_in_a_question(name: str, word: str, value: str,
                                                    stem: bool) -> None:
    written = word.upper() + ("ами" if stem else "")
    question = f"Нужно вот что: {written}, пожалуйста"
    spans = list(vocabularies()[name].spans(question))
    assert (question.index(written), question.index(written) + len(written)) in spans
    assert normalise(f"enum:{name}", written) == value


def test_unknown_normaliser_and_vocabulary() -> None:
    with pytest.raises(NormaliseError, match="known"):
        normalise("guess", "x")
    with pytest.raises(NormaliseError, match="known"):
        normalise("enum:planets", "x")


@FAST
@given(st.text(min_size=1, max_size=40))
def test_an_identifier_is_its_span_when_it_holds_a_digit(text: str) -> None:
    if any(ch.isdigit() for ch in text) and re.search(r"[.,;!?]\s+[^\W\d_]", text):
        with pytest.raises(NormaliseError, match="sentence"):  # «540201001. Проверь форму»
            normalise("code", text)
    elif any(ch.isdigit() for ch in text) and re.search(
            r"(?<!\S)(?=[^\W\d_]*[^\W\d_A-ZА-ЯЁ])[^\W\d_]{2,}(?!\S)", text):
        with pytest.raises(NormaliseError, match="words"):  # "it begins with 77"
            normalise("code", text)
    elif any(ch.isdigit() for ch in text):
        assert normalise("code", text) == text
    else:
        with pytest.raises(NormaliseError, match="no digit"):
            normalise("code", text)


@pytest.mark.parametrize(("question", "digits"), [
    ("Округли 96,4378 до сотых", 2),
    ("Округли 7,5 до целых", 0),
    ("Round 2.71828 to the nearest thousandth", 3),
    ("Round 0.25 to one decimal place", 1),  # a lone "one" is no number word
    ("Round 3.14159 to two decimal places", 2),  # a number word, as before
])
def test_decimal_places_named_by_a_word(question: str, digits: int) -> None:
    spans = RuleRouter().bind("number.round", question)
    assert spans["digits"].value(question) == digits
    assert derive(question, digits, "digits") is not None


@FAST
@given(st.sampled_from([(word, value) for word, value, _ in places_vocabulary().words]),
       st.sampled_from(["Округли 12,3456 {}", "Round 12.3456 {}, please", "{}: 7,777 — округли"]))
def test_a_place_word_reads_back_as_its_count(word_value: tuple[str, str], frame: str) -> None:
    word, value = word_value
    question = frame.format(word)
    span = derive(question, int(value), "digits")
    assert span is not None and span.normaliser == "places"
    assert normalise("places", question[span.start:span.end]) == int(value)


@pytest.mark.parametrize(("question", "utility"), [
    ("Какой ИНН у соседнего магазина «Продукты у дома»?", "id.validate_inn"),
    ("Is the IBAN 'Acme Trading' valid?", "id.validate_iban"),
])
def test_a_name_in_quotes_is_no_identifier(question: str, utility: str) -> None:
    spans = RuleRouter().bind(utility, question)
    assert not spans  # before, the quoted name was the INN, and validating it was a verified answer


def test_a_router_that_keeps_no_spans_cannot_pass_a_name_off_as_an_identifier() -> None:
    question = "Какой ИНН у магазина «Продукты у дома» — 7707083893?"
    # a generative router's value is checked by derivation: the same rule as the binder's
    assert [u.argument for u in underived_arguments(question, {"inn": "Продукты у дома"})] == ["inn"]
    assert underived_arguments(question, {"inn": "7707083893"}) == []
    assert derive(question, "Продукты у дома", "text") is not None  # any other argument may


# --- derivation --------------------------------------------------------------------------------

QUESTION_TEXT = st.text(alphabet=st.sampled_from(list("абвгдеёжзийклмнопрстуфхцчшщьыэюя"
                                                      "abcdefghijklmnopqrstuvwxyz0123456789"
                                                      " .,:-«»\"'`%/")), max_size=80)


@FAST
@given(QUESTION_TEXT)
def test_every_candidate_span_is_its_own_normalisation(question: str) -> None:
    for span in candidate_spans(question):
        assert 0 <= span.start < span.end <= len(question)
        try:
            value = span.value(question)
        except NormaliseError:
            continue
        assert underived_arguments(question, {"x": value}, {"x": span}) == []
        assert derive(question, value) is not None


@FAST
@given(QUESTION_TEXT, st.text(min_size=1, max_size=12))
def test_a_value_absent_from_the_question_does_not_derive(question: str, value: str) -> None:
    if value in question:
        return
    spans_read = set()
    for span in candidate_spans(question):
        try:
            spans_read.add(str(span.value(question)))
        except NormaliseError:
            continue
    if value not in spans_read:
        assert derive(question, value) is None
        assert [u.argument for u in underived_arguments(question, {"text": value})] == ["text"]


def test_a_declared_span_must_read_as_the_value() -> None:
    question = "Посчитай SHA-256 от строки привет"
    at = question.index("привет")
    span = ArgSpan(at, at + len("привет"), "text")
    assert underived_arguments(question, {"text": "привет"}, {"text": span}) == []
    (wrong,) = underived_arguments(question, {"text": "Привет"}, {"text": span})
    assert wrong.argument == "text" and "reads 'привет'" in wrong.reason
    (outside,) = underived_arguments(question, {"text": "x"}, {"text": ArgSpan(0, 999, "text")})
    assert "outside" in outside.reason


# --- the rule router cannot emit a value absent from the question ------------------------------

ROUTER = RuleRouter()
TEMPLATES = ["Посчитай SHA-256 от {}", "Переведи {} в base64", "Сколько дней между {} и {}",
             "Convert {} inches to centimetres", "Округли {} до {} знаков", "Транслитерируй {} по ГОСТ",
             "What weekday was {}?", "Is {} a prime number?", "Сколько слов в тексте: {}",
             "НОД чисел {} и {}", "Переведи {} градусов Цельсия в Фаренгейты", "md5 of the string {}"]


def _assert_every_argument_is_a_span(question: str) -> None:
    decision = ROUTER.route(question)
    if decision.source is not Source.UTILITY:
        return
    assert set(decision.arg_spans) == set(decision.args), question
    for name, value in decision.args.items():
        span = decision.arg_spans[name]
        assert span.value(question) == value and span.text(question) in question
    assert underived_arguments(question, decision.args, decision.arg_spans) == []
    assert underived_arguments(question, decision.args) == []


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEMPLATES), st.lists(QUESTION_TEXT | st.sampled_from(
    ["«привет»", "1 000", "сорок два", "5 марта 2024", "2024-02-29", "3,14", "`abc`", "ГОСТ"]),
    min_size=2, max_size=2))
def test_rule_router_binds_only_spans(template: str, parts: list[str]) -> None:
    _assert_every_argument_is_a_span(template.format(*parts))


def test_rule_router_binds_only_spans_on_every_task_question() -> None:
    for name in ("router_tasks.jsonl", "red_team.jsonl"):
        for item in load_tasks(QUESTIONS / name):
            _assert_every_argument_is_a_span(item.question)


def test_the_sha256_example_binds_the_lower_case_word() -> None:
    question = "Посчитай SHA-256 от строки привет"
    decision = ROUTER.route(question)
    assert decision.utility == "hash.sha256" and dict(decision.args) == {"text": "привет"}
    assert decision.arg_spans["text"] == ArgSpan(27, 33, "text")
    assert decision.to_dict()["arg_spans"] == {"text": {"start": 27, "end": 33, "normaliser": "text"}}


@pytest.mark.parametrize(("question", "utility", "args"), [
    ("Транслитерируй «Щукин» по ГОСТ", "text.transliterate", {"text": "Щукин",
                                                              "standard": "gost-7.79-b"}),
    ("Округли 3,14159 до двух знаков", "number.round", {"value": 3.14159, "digits": 2}),
    ("Convert 1 200 square feet to square metres", "units.area",
     {"value": 1200, "from_unit": "ft2", "to_unit": "m2"}),
])
def test_rule_router_normalises_what_people_write(question: str, utility: str, args: dict) -> None:
    decision = ROUTER.route(question)
    assert decision.utility == utility and dict(decision.args) == args


def test_two_utilities_data_is_refused() -> None:
    decision = ROUTER.route("Посчитай SHA-256 от «abc» и переведи 10 дюймов в сантиметры")
    assert decision.source is Source.REFUSE and decision.refusal is not None
    assert decision.refusal.code == "SEVERAL_REQUESTS"
    assert sorted(decision.refusal.numbers["utilities"]) == ["hash.sha256", "units.length"]


@pytest.mark.parametrize(("text", "base"), [
    ("двоичной", 2), ("восьмеричную", 8), ("десятичной", 10), ("шестнадцатеричное", 16),
    ("hex", 16), ("base 16", 16), ("base-2", 2), ("основанию 36", 36), ("radix 8", 8),
])
def test_a_base_is_read_from_its_word_or_its_number(text: str, base: int) -> None:
    from workbench.routing._normalise import normalise_base

    assert normalise_base(text) == base


@pytest.mark.parametrize("text", ["base 64", "base 1", "sixteen", "16"])
def test_no_base_is_read_outside_two_to_thirty_six_or_from_a_bare_number(text: str) -> None:
    from workbench.routing._normalise import normalise_base

    with pytest.raises(NormaliseError):
        normalise_base(text)


def test_a_base_word_derives_a_number_only_for_a_base_argument() -> None:
    question = "hex of rgb 20"
    assert underived_arguments(question, {"from_base": 16}) == []
    assert [u.argument for u in underived_arguments(question, {"r": 16})] == ["r"]
    assert derive(question, "hexadecimal") is None  # the base words are no enum of any argument
    assert base_spans("Encode it as base64, then base 16") == [(26, 33)]  # base64 is no base


@pytest.mark.parametrize(("question", "args"), [
    ("Переведи число 255 из десятичной системы в двоичную",
     {"value": "255", "from_base": 10, "to_base": 2}),
    ("Convert 1010 from base 2 to base 10", {"value": "1010", "from_base": 2, "to_base": 10}),
    ("шестнадцатеричное 1A2 переведи в десятичную", {"value": "1A2", "from_base": 16, "to_base": 10}),
    ("Запиши 255 по основанию 36 из десятичной", {"value": "255", "from_base": 10, "to_base": 36}),
])
def test_the_bases_of_a_conversion_are_bound_by_from_and_to(question: str, args: dict) -> None:
    decision = RuleRouter().route(question)
    assert (decision.utility, decision.args) == ("number.convert_base", args)
    assert underived_arguments(question, decision.args) == []


def test_a_conversion_that_names_only_its_target_base_misses_the_source() -> None:
    decision = RuleRouter().route("Convert 255 to base 2")
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers == {"utility": "number.convert_base", "missing": "from_base"}


# --- durations ---------------------------------------------------------------------------------

DURATION_WORDS = {  # a written unit, the argument's unit, and how many of it one written unit holds
    "лет": ("months", 12), "года": ("months", 12), "years": ("months", 12), "месяцев": ("months", 1),
    "months": ("months", 1), "недели": ("days", 7), "weeks": ("days", 7), "дней": ("days", 1),
    "days": ("days", 1), "суток": ("hours", 24), "часов": ("hours", 1),
}


@FAST
@given(st.integers(min_value=1, max_value=999), st.sampled_from(sorted(DURATION_WORDS)),
       st.sampled_from(["Платёж по кредиту на {}?", "Add {} to the date", "срок: {}"]))
def test_a_duration_is_the_normalisation_of_its_span(n: int, word: str, frame: str) -> None:
    unit, factor = DURATION_WORDS[word]
    question = frame.format(f"{n} {word}")
    span = derive(question, n * factor, unit)
    assert span is not None and span.value(question) == n * factor
    # the value comes from the number and its unit (the number alone where the units agree)
    assert span.start == question.index(f"{n} {word}")
    if factor != 1:
        assert span.text(question) == f"{n} {word}" and span.normaliser == f"duration-{unit}"


@pytest.mark.parametrize(("text", "unit", "value"), [
    ("5 лет", "months", 60), ("1,5 года", "months", 18), ("2 weeks", "days", 14),
    ("21 день", "days", 21), ("10 years", "years", 10), ("3 суток", "hours", 72),
])
def test_durations_read_in_both_languages(text: str, unit: str, value: int) -> None:
    assert normalise(f"duration-{unit}", text) == value


@pytest.mark.parametrize(("text", "unit"), [("2 месяца", "days"), ("3 hours", "days"), ("5", "months"),
                                            ("5 рублей", "months")])
def test_a_duration_that_does_not_convert_has_no_value(text: str, unit: str) -> None:
    with pytest.raises(NormaliseError):
        normalise(f"duration-{unit}", text)


@pytest.mark.parametrize(("question", "span", "value", "comma"), [
    ("Revenue is now 4.2 million. And before?", "4.2 million", 4_200_000, False),
    ("Договор на 3 млн рублей", "3 млн", 3_000_000, True),
    ("Бюджет 1,5 миллиарда", "1,5 миллиарда", 1_500_000_000, True),
    ("about 12 thousand visitors", "12 thousand", 12_000, False),
    ("Выручка 12 тыс. руб", "12 тыс.", 12_000, True),
])
def test_digits_before_a_scale_word_are_one_number(question: str, span: str, value: int,
                                                   comma: bool) -> None:
    from workbench.routing._normalise import normalise_number, number_spans

    spans = [question[s:e] for s, e in number_spans(question)]
    assert spans == [span]
    assert normalise_number(span, decimal_comma=comma) == value


@pytest.mark.parametrize(("question", "letters"), [
    ("350 F for the oven. What's that in C?", ["F", "C"]),
    ("20°C is 68 °F", ["°C", "°F"]),
    ("5m to ft", ["m"]),
    # a letter that stands in a sentence names no unit: «в» is a preposition, "a" an article;
    # the language C after "in" is offered, and only a unit conversion, once chosen, binds it
    ("Write it in C, then run it in a minute", ["C"]),
    ("Сколько будет 5 в кубе?", []),
    ("Он родился в 1990 г в Казани", ["г"]),
])
def test_one_letter_names_a_unit_only_after_a_number_or_the_word_that_asks_into_one(
        question: str, letters: list[str]) -> None:
    from workbench.routing._normalise import unit_letter_spans

    assert [question[s:e] for s, e in unit_letter_spans(question)] == letters


@pytest.mark.parametrize(("text", "code"), [("F", "F"), ("c", "C"), ("°K", "K"), ("м", "m"),
                                            ("т", "t"), ("B", "B")])
def test_the_unit_letter_normaliser_reads_aliases_case_folded_and_codes_as_written(
        text: str, code: str) -> None:
    from workbench.routing._normalise import normalise

    assert normalise("unit-letter", text) == code


@pytest.mark.parametrize("text", ["a", "°m", "x", "ft", ""])
def test_the_unit_letter_normaliser_refuses_what_names_no_unit(text: str) -> None:
    from workbench.routing._normalise import normalise

    with pytest.raises(NormaliseError):
        normalise("unit-letter", text)


@pytest.mark.parametrize("text", ["it begins with 77 and ends in 93", "ИНН начинается с 77"])
def test_an_identifier_holds_no_word_of_small_letters(text: str) -> None:
    from workbench.routing._normalise import normalise_code

    with pytest.raises(NormaliseError):
        normalise_code(text)
    # an IBAN's groups are capitals, a card's digits
    assert normalise_code("GB82 WEST 1234 5698 7654 32") == "GB82 WEST 1234 5698 7654 32"


@pytest.mark.parametrize(("text", "value"), [
    ("2025-04-08 at 06:30", "2025-04-08T06:30:00"), ("2025-04-08, в 6:30", "2025-04-08T06:30:00"),
])
def test_an_iso_date_with_its_time_after_at(text: str, value: str) -> None:
    assert normalise_date(text) == value
    assert date_spans(f"arrives {text} sharp") == [(8, 8 + len(text))]


@pytest.mark.parametrize(("words", "zone"), [
    ("Warsaw", "Europe/Warsaw"), ("new york", "America/New_York"), ("Novosibirsk", "Asia/Novosibirsk"),
    ("Варшаве", "Europe/Warsaw"), ("Алматы", "Asia/Almaty"),
])
def test_a_city_names_its_zone(words: str, zone: str) -> None:
    assert normalise("enum:timezone", words) == zone


def test_a_city_that_is_an_ordinary_word_names_no_zone() -> None:
    with pytest.raises(NormaliseError):
        normalise("enum:timezone", "phoenix")


def test_a_city_of_two_zones_names_the_first_in_order() -> None:
    # Istanbul is both Europe/Istanbul and Asia/Istanbul; the zones are read in sorted order, so the
    # choice does not hang on the order a set happens to iterate in
    assert normalise("enum:timezone", "Istanbul") == "Asia/Istanbul"
