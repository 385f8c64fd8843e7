"""The circumstance-versus-data rule: a table of bindings that are data and that are not."""

from __future__ import annotations

import pytest

from workbench import registry
from workbench.relevance import check_binding, circumstance_kind, first_colon, question_literals
from workbench.utilities import UtilityCode, call_utility

TEXT = {"text": "data"}
# (question, binding, roles, expected reason); reasons: data/quoted pass, circumstance and
# placeholder fail.
CASES = [
    # --- bound to a circumstance: Russian
    ("Посчитай статистику текста в кодировке windows-1251", {"text": "windows-1251"}, TEXT,
     "circumstance"),
    ("Посчитай статистику текста в кодировке windows-1251",
     {"text": "текста в кодировке windows-1251"}, TEXT, "circumstance"),
    ("Переведи текст в KOI8-R", {"text": "KOI8-R"}, TEXT, "circumstance"),
    ("Сколько байт займёт строка в UTF-8?", {"text": "UTF-8"}, TEXT, "circumstance"),
    ("Сколько сейчас времени в Europe/Moscow", {"text": "Europe/Moscow"}, TEXT, "circumstance"),
    ("Преобразуй данные в формате JSON", {"data": "JSON"}, {"data": "data"}, "circumstance"),
    ("Посчитай хеш sha256 текста", {"text": "sha256"}, TEXT, "circumstance"),
    ("Переведи в римские цифры год из кодировки windows-1251", {"n": 1251}, {"n": "data"},
     "circumstance"),
    ("Переведи 5 миль в километры", {"value": "км"}, {"value": "data"}, "circumstance"),
    ("Нормализуй строку в NFKC", {"text": "в NFKC"}, TEXT, "circumstance"),
    # --- bound to a circumstance: English
    ("compute the statistics of the text in windows-1251", {"text": "windows-1251"}, TEXT,
     "circumstance"),
    ("compute the statistics of the text in windows-1251", {"text": "the text in windows-1251"},
     TEXT, "circumstance"),
    ("how many bytes does the text take in utf-8", {"text": "utf-8"}, TEXT, "circumstance"),
    ("convert the time to America/New_York", {"datetime": "America/New_York"},
     {"datetime": "data"}, "circumstance"),
    ("base64 of the string in cp1251 encoding", {"text": "cp1251 encoding"}, TEXT,
     "circumstance"),
    ("what is the md5 of the text in latin-1", {"text": "md5"}, TEXT, "circumstance"),
    ("to roman numerals: the number in utf-8", {"n": 8}, {"n": "data"}, "circumstance"),
    ("convert the yaml to json", {"data": "yaml"}, {"data": "data"}, "circumstance"),
    # --- placeholders that only point at data the question lacks
    ("Посчитай статистику текста", {"text": "текста"}, TEXT, "placeholder"),
    ("hash the text with sha256", {"text": "the text"}, TEXT, "placeholder"),
    ("hash the text with sha256", {"text": ""}, TEXT, "placeholder"),
    # --- data: Russian
    ('хеш md5 строки "привет"', {"text": "привет"}, TEXT, "quoted"),
    ("Посчитай хеш sha256 строки «Привет, мир»", {"text": "Привет, мир"}, TEXT, "quoted"),
    ("Статистика текста в кодировке windows-1251: Привет, мир!", {"text": "Привет, мир!"}, TEXT,
     "quoted"),
    ("Сколько слов в тексте `windows-1251 и koi8-r`", {"text": "windows-1251 и koi8-r"}, TEXT,
     "quoted"),
    ("Переведи 1251 в римские цифры", {"n": 1251}, {"n": "data"}, "data"),
    ("Проверь ИНН 7707083893", {"inn": "7707083893"}, {"inn": "data"}, "data"),
    ("Какой день недели был 9 августа 2024 года?", {"date": "2024-08-09"}, {"date": "data"},
     "data"),
    ("Байты слова Привет в кодировке windows-1251",
     {"text": "Привет", "charset": "windows-1251"}, {"text": "data", "charset": "circumstance"},
     "data"),
    # --- data: English
    ("the sha256 of `hello`", {"text": "hello"}, TEXT, "quoted"),
    ("the sha256 of hello", {"text": "hello"}, TEXT, "data"),
    ("what is the sha256 of the word 'utf-8'", {"text": "utf-8"}, TEXT, "quoted"),
    ("hash of the empty string \"\"", {"text": ""}, TEXT, "quoted"),
    ("convert 2024-03-10T12:00 from America/New_York to Europe/London",
     {"datetime": "2024-03-10T12:00", "from_tz": "America/New_York", "to_tz": "Europe/London"},
     {"datetime": "data", "from_tz": "circumstance", "to_tz": "circumstance"}, "data"),
    ("is 4111111111111111 a valid card number", {"number": "4111111111111111"},
     {"number": "data"}, "data"),
    ("count the words in the text in windows-1251 is fine",
     {"text": "the text in windows-1251 is fine"}, TEXT, "data"),
    ("convert 8 to binary", {"value": 8}, {"value": "data"}, "data"),
]
FAILING = {"circumstance", "placeholder"}


@pytest.mark.parametrize(("question", "binding", "roles", "reason"), CASES,
                         ids=[f"{i:02d}-{c[3]}" for i, c in enumerate(CASES)])
def test_rule_table(question, binding, roles, reason):
    verdict = check_binding(question, binding, roles)
    assert verdict.passed is (reason not in FAILING), verdict
    if reason in FAILING:
        assert verdict.reason == reason
        assert verdict.argument in binding
    else:
        assert verdict.reason == "data"


def test_table_is_large_and_bilingual():
    assert len(CASES) >= 30
    cyrillic = [c for c in CASES if any("а" <= ch <= "я" for ch in c[0].lower())]
    assert 10 <= len(cyrillic) <= len(CASES) - 10


def test_no_question_passes():
    assert check_binding(None, {"text": "windows-1251"}, TEXT).reason == "no_question"
    assert check_binding("", {"text": "windows-1251"}, TEXT).passed


def test_circumstance_arguments_are_not_judged():
    verdict = check_binding("text in windows-1251", {"charset": "windows-1251"},
                            {"charset": "circumstance"})
    assert verdict.passed


def test_kinds_and_literals():
    assert circumstance_kind("windows-1251") == "charset"
    assert circumstance_kind("Europe/Moscow") == "time zone"
    assert circumstance_kind("hello") is None
    assert question_literals('a "b" «c» `d`: e') == ["b", "c", "d", "e"]
    assert question_literals("at 12:30 today") == []


def test_an_apostrophe_is_no_quote_mark():
    # "What's" would otherwise open a literal that the first real quote closes
    assert question_literals("What's the Levenshtein distance from 'flaw' to 'lawn'?") == ["flaw", "lawn"]
    assert question_literals("Don't hash 'x', hash 'y'") == ["x", "y"]
    # an apostrophe between two letters inside a quote is a part of it, not its end
    assert question_literals("Is 'Madam, I'm Adam' a palindrome?") == ["Madam, I'm Adam"]
    assert question_literals("the users' list") == []


def test_a_colon_inside_a_literal_introduces_no_data():
    question = 'HMAC-SHA256 of `{"user":42}` signed with the key `webhook-key-7`'
    assert question_literals(question) == ['{"user":42}', "webhook-key-7"]
    assert first_colon(question) == -1
    assert first_colon('JSON: {"a": 1}') == 4  # the colon before the data, not the one inside it
    assert first_colon("в 14:20 прислали, хеш: abc") == 21  # a colon inside a word joins its parts
    assert first_colon("md5 of host-01:/srv/x") == -1


def test_registered_as_relevance_rule():
    rule = registry.build("relevance_rule", "circumstance")
    assert rule("compute stats of the text in windows-1251", {"text": "windows-1251"},
                TEXT).passed is False


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_checker_refuses_with_argument_is_circumstance(lang):
    outcome = call_utility("text.stats", {"text": "windows-1251"},
                           question="Посчитай статистику текста в кодировке windows-1251",
                           lang=lang)
    assert not outcome.ok
    assert outcome.refusal.code == UtilityCode.ARGUMENT_IS_CIRCUMSTANCE
    assert outcome.refusal.numbers["argument"] == "text"
    assert outcome.refusal.numbers["kind"] == "charset"


def test_checker_placeholder_is_a_missing_argument():
    outcome = call_utility("hash.sha256", {"text": "the text"}, question="hash the text")
    assert outcome.refusal.code == UtilityCode.MISSING_ARGUMENT
    assert outcome.refusal.numbers["reason"] == "placeholder"


def test_checker_accepts_data():
    outcome = call_utility("hash.md5", {"text": "привет"}, question='хеш md5 строки "привет"')
    assert outcome.ok and outcome.result == "608333adc72f545078ede3aad71bfe74"
