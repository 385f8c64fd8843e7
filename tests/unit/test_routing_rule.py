"""The rule router and the per-item scoring of router decisions."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from workbench import registry
from workbench.fts import Library
from workbench.fts._library import Entry, Signature
from workbench.refusal import Refusal
from workbench.routing import (
    ERROR_TYPES,
    PARSE_FAILURE_CODE,
    RouterDecision,
    RuleRouter,
    ScriptedRouter,
    Source,
    evaluate_router,
    load_tasks,
    score_decision,
    summarise,
)
from workbench.routing._asks import (
    ELSEWHERE_WORDS,
    asks_world_fact,
    held_vat_rates,
    names_charset_of_data,
    orders_computation,
    points_at_data_elsewhere,
    unheld_premise,
    vat_rates_held,
)
from workbench.routing._normalise import NormaliseError, normalise_code
from workbench.routing._values import DATA_ALPHABETS, _numbered, describes_data, holds_shape
from workbench.utilities import load_catalog, unit_codes

QUESTIONS = Path(__file__).resolve().parents[2] / "corpus" / "questions"
UTIL_GOLD = {"source": "utility", "utility": "hash.md5", "args": {"text": "abc"}}
REFUSE_GOLD = {"source": "refuse", "refusal": "OUT_OF_SCOPE"}


def _refuse(code: str = "OUT_OF_SCOPE") -> RouterDecision:
    return RouterDecision(source=Source.REFUSE, refusal=Refusal(code=code, area="test"))


def _util(uid: str = "hash.md5", **args: object) -> RouterDecision:
    return RouterDecision(source=Source.UTILITY, utility=uid, args=args)


@pytest.mark.parametrize(("gold", "decision", "error"), [
    (UTIL_GOLD, _util(text="abc"), None),
    (UTIL_GOLD, None, "parse_failure"),
    (UTIL_GOLD, _refuse(PARSE_FAILURE_CODE), "parse_failure"),
    (UTIL_GOLD, RouterDecision(source=Source.QUOTE), "wrong_source"),
    (UTIL_GOLD, _util("hash.sha1", text="abc"), "wrong_utility"),
    (UTIL_GOLD, _util(), "missing_argument"),
    (UTIL_GOLD, _util(text="abc", charset="cp866"), "unexpected_argument"),
    (UTIL_GOLD, _util(text="abd"), "wrong_argument_value"),
    (UTIL_GOLD, _refuse("MISSING_ARGUMENT"), "false_refusal"),
    (REFUSE_GOLD, _util(text="abc"), "false_answer"),
    (REFUSE_GOLD, _refuse("MISSING_ARGUMENT"), None),
    ({"source": "quote"}, RouterDecision(source=Source.QUOTE), None),
    ({"source": "spec", "spec": "vat.invoice_deadline", "args": {"days_after_supply": "7"}},
     RouterDecision(source=Source.SPEC, spec="vat.invoice_deadline", args={"days_after_supply": "8"}),
     "wrong_argument_value"),
    ({"source": "utility", "utility": "number.gcd", "args": {"a": 4, "b": 6}},
     _util("number.gcd", a=4.0, b=6), None),
])
def test_scoring_table(gold: dict, decision: RouterDecision | None, error: str | None) -> None:
    score = score_decision(gold, decision)
    assert score.error == error
    assert score.correct is (error is None)
    assert error is None or error in ERROR_TYPES


def test_every_error_type_is_covered_by_the_table() -> None:
    assert set(ERROR_TYPES) == {
        "parse_failure", "wrong_source", "wrong_utility", "missing_argument", "unexpected_argument",
        "wrong_argument_value", "false_refusal", "false_answer"}


def test_rule_router_is_registered() -> None:
    assert isinstance(registry.lookup("router", "rule").obj(), RuleRouter)


@pytest.fixture(scope="module")
def rule() -> RuleRouter:
    return RuleRouter()


@pytest.mark.parametrize(("question", "utility", "args"), [
    ("Посчитай SHA-256 от строки «привет»", "hash.sha256", {"text": "привет"}),
    ("What is the SHA-1 digest of the string \"hello world\"?", "hash.sha1", {"text": "hello world"}),
    ("Проверь ИНН 7707083893", "id.validate_inn", {"inn": "7707083893"}),
    ("Greatest common divisor of 462 and 1071?", "number.gcd", {"a": 462, "b": 1071}),
    ("Сколько дней между 1 марта 2026 и 15 июня 2026?", "date.diff_days",
     {"start": "2026-03-01", "end": "2026-06-15"}),
    ("Начисли НДС 22% на сумму 150 000 рублей", "money.vat_add", {"amount": 150000, "rate": 22}),
    # a value with spaces inside is one span: hex bytes, a SNILS
    ("Decode the bytes 48 65 6C 6C 6F as utf-8", "charset.decode",
     {"data": "48 65 6C 6C 6F", "charset": "utf-8"}),
    ("Is SNILS 112-233-445 95 valid?", "id.validate_snils", {"snils": "112-233-445 95"}),
    # the literal after «в строке» / "in the string" is the text searched, whatever its place
    ("How many times does \"ab\" occur in the string \"abcabcab\"?", "text.count_substring",
     {"text": "abcabcab", "substring": "ab"}),
    ("Сколько раз встречается «ан» в «банан ананас»?", "text.count_substring",
     {"text": "банан ананас", "substring": "ан"}),
    # "percent" and «процентов» mark the percent as «%» does
    ("What is 12 percent of 250?", "number.percent_of", {"value": 250, "percent": 12}),
    ("Сколько будет 15 процентов от 2000?", "number.percent_of", {"value": 2000, "percent": 15}),
    # the unit or zone written right after the value is the one the value is in
    ("Сколько килограммов в 12 фунтах?", "units.mass", {"value": 12, "from_unit": "lb", "to_unit": "kg"}),
    ("Convert 100 °F to Celsius", "units.temperature", {"value": 100, "from_unit": "F", "to_unit": "C"}),
    # a regular expression between backticks is the pattern; the text follows «в строке» or the colon
    ("Find all words with `[A-Z]\\w+` in: Alice met Bob", "regex.find_all",
     {"pattern": "[A-Z]\\w+", "text": "Alice met Bob"}),
    ("Найди без учёта регистра все вхождения `кот` в строке «Кот и КОТ»", "regex.find_all",
     {"pattern": "кот", "text": "Кот и КОТ", "flags": "i"}),
    # an IPv6 address and a Roman numeral are one span each
    ("Разверни IPv6 fe80::1 в полную форму", "net.ipv6_expand", {"ip": "fe80::1"}),
    ("What number is MCMXCIV?", "number.from_roman", {"roman": "MCMXCIV"}),
    # a tail that only wraps a quote is the quote; a tail around a quote and more text is the data
    ("Посчитай статистику текста: «Мы пришли. Мы ушли!»", "text.stats", {"text": "Мы пришли. Мы ушли!"}),
    ("Escape for HTML: a < b && \"c\"", "encoding.html_escape", {"text": 'a < b && "c"'}),
    ("Переведи JSON в YAML: {\"a\": \"b\", \"c\": 1}", "format.json_to_yaml", {"data": '{"a": "b", "c": 1}'}),
    # ... unless the tail ends in a question mark: then it asks about the quote
    ("quick one: md5 of \"letmein\"?", "hash.md5", {"text": "letmein"}),
    # a JSON block is one value, whatever quotes it holds and wherever it stands
    ("The parser chokes on {\"a\": 1,} — is that valid JSON?", "format.json_validate", {"data": '{"a": 1,}'}),
    # a card number in groups of four, and area units in Russian words
    ("Пройдёт ли номер карты 4111 1111 1111 1111 проверку Луна?", "id.luhn_check",
     {"number": "4111 1111 1111 1111"}),
    ("Участок 12 соток — это сколько квадратных метров?", "units.area",
     {"value": 12, "from_unit": "a", "to_unit": "m2"}),
    ("Переведи 5 миль в километры", "units.length", {"value": 5, "from_unit": "mi", "to_unit": "km"}),
    ("Сколько будет в Новосибирске (Asia/Novosibirsk), когда в Москве 2026-03-10 09:00 (Europe/Moscow)?",
     "date.convert_timezone",
     {"datetime": "2026-03-10T09:00:00", "from_tz": "Europe/Moscow", "to_tz": "Asia/Novosibirsk"}),
    # number words count only where the digits run out: "two" counts the numbers here
    ("My two favourite numbers are 84 and 126; what is their greatest common divisor?",
     "number.gcd", {"a": 84, "b": 126}),
    # a two-letter unit code names its unit where it stands as a word
    ("How many pounds is 3 kg?", "units.mass", {"value": 3, "from_unit": "kg", "to_unit": "lb"}),
    # a decoding verb anywhere turns the encoder's words to its decoder; "=" padding is data
    ("Decode the Base64 value aGVsbG8= for me", "encoding.base64_decode", {"data": "aGVsbG8="}),
    ("Раскодируй, пожалуйста, строку Base32 NBSWY3DP", "encoding.base32_decode", {"data": "NBSWY3DP"}),
    # asking what a string holds asks to decode it
    ("Мне переслали 0L/RgNC40LLQtdGC как base64 — что в нём закодировано?", "encoding.base64_decode",
     {"data": "0L/RgNC40LLQtdGC"}),
    ("What is encoded in the base64 string SGk=?", "encoding.base64_decode", {"data": "SGk="}),
    ("what’s encoded in this base64: SGVsbG8?", "encoding.base64_decode", {"data": "SGVsbG8"}),
    # a UUID's namespace is a word of its vocabulary; the name is the word after "name"
    ("Сделай UUID5 для имени пример.рф в пространстве имён DNS", "id.uuid5",
     {"namespace": "dns", "name": "пример.рф"}),
    ("UUID v3 for the name build-7 in the URL namespace, please", "id.uuid3",
     {"namespace": "url", "name": "build-7"}),
    # every IANA zone names itself
    ("When it is 2026-03-10 09:00 in Moscow (Europe/Moscow), what time is it in Lima (America/Lima)?",
     "date.convert_timezone",
     {"datetime": "2026-03-10T09:00:00", "from_tz": "Europe/Moscow", "to_tz": "America/Lima"}),
    # a domain is a word with a dot, with or without a digit in it
    ("Переведи в punycode домен пример.рф", "encoding.punycode_encode", {"domain": "пример.рф"}),
    # a number after «№» names a thing and is no amount
    ("По счёту № 118 напиши прописью сумму 1 250 рублей", "money.amount_in_words_ru", {"amount": 1250}),
    # Base32 pads with up to six "="; a token glued into a query string is a piece of it, and the
    # run after "token" is the value
    ("Раскодируй base32 MZXW6===", "encoding.base32_decode", {"data": "MZXW6==="}),
    ("Base64url of the token id=7&next=/home", "encoding.base64url_encode", {"text": "id=7&next=/home"}),
    # the word after "name" is the name even inside the words after a colon
    ("Need a UUID v5: namespace DNS, name docs.example.net", "id.uuid5",
     {"namespace": "dns", "name": "docs.example.net"}),
])
def test_rule_router_utilities(rule: RuleRouter, question: str, utility: str, args: dict) -> None:
    decision = rule.route(question)
    assert decision.source is Source.UTILITY
    assert decision.utility == utility
    assert dict(decision.args) == args


def test_a_tail_that_asks_about_a_quote_binds_the_quote(rule: RuleRouter) -> None:
    # the binding every router shares, whichever utility a router chose
    question = "Поле ограничено байтами: сколько UTF-8 байт займёт «Щука»?"
    spans = rule.bind("charset.utf8_length", question)
    assert spans["text"].value(question) == "Щука"


@pytest.mark.parametrize(("uid", "question", "text"), [
    # the one run of Cyrillic words in an English question is what it works on
    ("text.transliterate", "Transliterate Жуков the way a passport does", "Жуков"),
    ("text.transliterate", "Transliterate Юлия Жукова into Latin letters using the GOST standard",
     "Юлия Жукова"),
    # a phrase, a sentence or a text named as such is the rest of the question
    ("hash.md5", "Посчитай MD5 от фразы добрый вечер", "добрый вечер"),
    ("hash.md5", "What's the MD5 of the phrase good morning?", "good morning"),
    ("encoding.base64_encode", "Base64 для текста Привет, мир!", "Привет, мир!"),
    # one word after a cue, a polite word or a dashed second clause after it left out
    ("encoding.rot13", "ROT13 для слова secret, пожалуйста", "secret"),
    ("hash.sha256", "SHA-256 of the word banana, please", "banana"),
    # one word after the utility's own name and "of" / «от»
    ("hash.md5", "MD5 от admin — какой он?", "admin"),
    ("hash.blake2b", "What's the blake2b digest of hello?", "hello"),
    # the words between an opening order and "into"/«в» before the utility's name or enum word
    ("encoding.base32_encode", "Turn Hello into Base32", "Hello"),
    ("text.transliterate", "Переведи Щербаков в латиницу", "Щербаков"),
    # the rest of a request that opens with the utility's own name
    ("encoding.html_escape", "HTML-escape <b>bold</b> & more", "<b>bold</b> & more"),
    ("hash.md5", "md5 hello world", "hello world"),
])
def test_unquoted_data_binds(rule: RuleRouter, uid: str, question: str,
                                                      text: str) -> None:
    spans = rule.bind(uid, question)
    assert spans["text"].value(question) == text


@pytest.mark.parametrize(("uid", "question"), [
    # a phrase that points at data instead of being it, or begins with a preposition
    ("hash.md5", "Посчитай MD5 от фразы выше"),
    ("hash.md5", "Посчитай MD5 для текста из письма"),
    ("text.word_count", "Count the words in the text below"),
    # where a circumstance stands in the phrase, the data's end is not guessed
    ("hash.md5", "MD5 от фразы привет в кодировке UTF-8"),
    # a word that points is no value, nor is a circumstance after a naming word
    ("hash.sha256", "SHA-256 of this, please"),
    ("text.reverse", "Reverse the string UTF-8"),
    ("encoding.base64_encode", "Convert it to base64"),
    ("encoding.base64_encode", "Convert the text to base64"),
    # "to" that no name of the utility follows ends no value
    ("encoding.base64_encode", "Convert Hello to something else for base64"),
    # ... not when it asks, names the utility's enum word again, or holds a quoted literal
    ("hash.md5", "md5 hello world?"),
    ("regex.find_all", "Find all matches of `\\d{3}`"),
    # Cyrillic words are the data of an English question only where they are one run and the
    # English words outnumber them
    ("text.transliterate", "Transliterate Жуков, then Петров, the way a passport does"),
    ("hash.sha256", "Какую длину ключа рекомендуют выбирать для HMAC-SHA256?"),
    # a genitive after the cue says whose string it is; a conjunction goes on with the sentence
    ("hash.md5", "Посчитай MD5 строки браузера"),
    ("text.is_palindrome", "Is the contrast between our button text and its background good enough?"),
])
def test_unquoted_words_that_may_not_be_data_stay_unbound(
        rule: RuleRouter, uid: str, question: str) -> None:
    assert "text" not in rule.bind(uid, question)


def test_the_literal_in_the_word_is_the_text_and_the_other_the_substring(rule: RuleRouter) -> None:
    decision = rule.route("Сколько раз подстрока «ан» встречается в слове «банан»?")
    assert decision.utility == "text.count_substring"
    assert dict(decision.args) == {"text": "банан", "substring": "ан"}


def test_rule_router_refusals_quote_and_spec(rule: RuleRouter) -> None:
    missing = rule.route("Base64-encode it for me")
    assert missing.source is Source.REFUSE and missing.refusal is not None
    assert missing.refusal.code == "MISSING_ARGUMENT"
    assert missing.refusal.numbers["utility"] == "encoding.base64_encode"
    out = rule.route("Какая погода будет в Казани на выходных?")
    assert out.source is Source.REFUSE and out.refusal is not None
    assert out.refusal.code == "OUT_OF_SCOPE"
    assert out.refusal.numbers == {"out_of_scope_word": "погод"}  # why: a scope word, not silence
    # a judgement of a course of action, the twin of «стоит», also among the course's words
    worth = rule.route("Turnover will be about 88,000. Would it be worth registering for VAT?")
    assert worth.refusal is not None and worth.refusal.numbers == {"out_of_scope_word": "worth"}
    unknown = rule.route("Сколько зёрен в мешке риса?")
    assert unknown.refusal is not None and unknown.refusal.numbers == {"keywords_matched": 0}
    assert rule.route("Which bytes are never valid anywhere in a UTF-8 stream?").source is Source.QUOTE
    spec = rule.route("Аванс за мебель получен 10 февраля 2026 года. По какой расчётной ставке считать НДС?")
    assert spec.source is Source.SPEC and spec.spec == "vat.estimated_rate"


def test_rule_router_over_the_dev_split(rule: RuleRouter) -> None:
    items = [item for name in ("router_tasks.jsonl", "red_team.jsonl")
             for item in load_tasks(QUESTIONS / name) if item.split == "dev"]
    frame = evaluate_router(rule, items)
    assert len(frame) == len(items) > 0
    assert frame["correct"].notna().all()
    assert set(frame.loc[~frame["correct"], "error"]) <= set(ERROR_TYPES)
    assert frame.loc[frame["correct"], "error"].isna().all()
    summary = summarise(frame)
    print(summary)
    for key, value in summary.items():
        if key.endswith(("_rate", "_accuracy", "_match")):
            assert not math.isnan(value) and 0.0 <= value <= 1.0, key
    assert summary["items"] == len(items)


def test_evaluate_router_records_a_crash_as_parse_failure() -> None:
    class Broken(ScriptedRouter):
        def route(self, question: str) -> RouterDecision:
            raise RuntimeError("boom")

    items = load_tasks(QUESTIONS / "red_team.jsonl")[:2]
    frame = evaluate_router(Broken(), items)
    assert list(frame["error"]) == ["parse_failure", "parse_failure"]
    assert summarise(frame)["conscious_refusal_rate"] == 0.0


def test_a_spec_input_the_conclusion_does_not_depend_on_may_stay_unbound() -> None:
    gold = {"source": "spec", "spec": "vat.rate_for_supply",
            "args": {"supply_kind": "domestic", "documents_confirmed": "no", "goods_category": "food"}}
    bound = {"supply_kind": "domestic", "goods_category": "food"}
    decision = RouterDecision(source=Source.SPEC, spec="vat.rate_for_supply", args=bound)
    assert score_decision(gold, decision).correct
    # for an export the documents decide the rate: leaving them out is a missing argument
    export = {"source": "spec", "spec": "vat.rate_for_supply",
              "args": {"supply_kind": "export", "documents_confirmed": "no", "goods_category": "food"}}
    unbound = RouterDecision(source=Source.SPEC, spec="vat.rate_for_supply",
                             args={"supply_kind": "export", "goods_category": "food"})
    assert score_decision(export, unbound).error == "missing_argument"
    # a wrong value that leaves the rest unsettled is still a missing argument, never correct
    wrong = RouterDecision(source=Source.SPEC, spec="vat.rate_for_supply",
                           args={"supply_kind": "export", "goods_category": "other"})
    assert not score_decision(gold, wrong).correct


@pytest.mark.parametrize(("question", "utility", "args"), [
    # the units utility's own names bind the units, with their endings
    ("Convert 12 miles to kilometers", "units.length", {"value": 12, "from_unit": "mi", "to_unit": "km"}),
    ("Сколько мебибайт в 3 гигабайтах?", "units.data_size",
     {"value": 3, "from_unit": "GB", "to_unit": "MiB"}),
    # a trigger that begins with «%» follows a digit, so it cannot ask for a word boundary
    ("What is 15% of 2,400?", "number.percent_of", {"value": 2400, "percent": 15}),
    # «match» is both the id and a synonym of regex.match; it counts once, so «find all» wins
    ("Find all numbers matching `\\d+` in: order 12 shipped 3 boxes", "regex.find_all",
     {"pattern": "\\d+", "text": "order 12 shipped 3 boxes"}),
])
def test_rule_router_reads_unit_names_and_symbol_triggers(question: str, utility: str, args: dict) -> None:
    decision = RuleRouter().route(question)
    assert decision.source is Source.UTILITY and decision.utility == utility
    assert decision.args == args


def test_each_trigger_is_counted_once() -> None:
    router = RuleRouter()
    assert all(len(set(words)) == len(words) for words in router.triggers.values())


def test_a_unit_name_that_is_a_stopword_names_no_unit() -> None:
    # "are" is the unit of area (100 m²) and the verb of the question; only the verb is meant
    decision = RuleRouter().route("How many square feet are in 20 m²?")
    assert decision.utility == "units.area"
    assert decision.args == {"value": 20, "from_unit": "m2", "to_unit": "ft2"}


@pytest.mark.parametrize(("question", "url"), [
    # the query string is part of the URL; the full stop that ends the sentence is not
    ("Разбери URL https://example.com:8080/path?q=1 на части", "https://example.com:8080/path?q=1"),
    ("Parse the URL https://ya.ru/search?text=a&lr=2.", "https://ya.ru/search?text=a&lr=2"),
])
def test_a_url_is_bound_whole(question: str, url: str) -> None:
    decision = RuleRouter().route(question)
    assert decision.utility == "net.parse_url" and decision.args == {"url": url}


@pytest.mark.parametrize(("question", "utility", "args"), [
    ("Под портретом подпись MDCCCXII — это какой год?", "number.from_roman", {"roman": "MDCCCXII"}),
    ("Chapter XIV starts here; which chapter number is that?", "number.from_roman",
     {"roman": "XIV"}),
    ("В логах сервера встретился xn--d1acpjx3f.xn--p1ai, как он читается?",
     "encoding.punycode_decode", {"domain": "xn--d1acpjx3f.xn--p1ai"}),
    ("The link ends in /search?q=%D0%BC%D0%B8%D1%80 and I want the word back",
     "encoding.url_decode", {"data": "/search?q=%D0%BC%D0%B8%D1%80"}),
    ("Вместо «привет» на экране «РїСЂРёРІРµС‚», почините, пожалуйста",
     "charset.fix_mojibake", {"text": "РїСЂРёРІРµС‚"}),
    ("В макете указан цвет hsl(120, 50, 25) — какой это цвет в RGB?", "color.hsl_to_rgb",
     {"h": 120, "s": 50, "l": 25}),
    ("На наклейке роутера написано 00-1A-2B-3C-4D-5E, приведи к виду для учёта",
     "net.mac_normalize", {"mac": "00-1A-2B-3C-4D-5E"}),
    ("The switch lists 001a.2b3c.4d5e; put it in the usual form.", "net.mac_normalize",
     {"mac": "001a.2b3c.4d5e"}),
    # padded Base64 of both cases, with no word about Base64 around it
    ("aGVsbG8gd29ybGQ= — what does this say?", "encoding.base64_decode",
     {"data": "aGVsbG8gd29ybGQ="}),
    # two time zones by their IANA names: a conversion from one to the other
    ("The call is at 2026-02-03T16:00 Europe/Paris. And in Asia/Tokyo?", "date.convert_timezone",
     {"datetime": "2026-02-03T16:00:00", "from_tz": "Europe/Paris", "to_tz": "Asia/Tokyo"}),
    # two colours, whatever the words around them: a foreground on a background
    ("Does #333 sit well on #fafafa in the footer?", "color.contrast_ratio",
     {"foreground": "#333", "background": "#fafafa"}),
])
def test_data_of_one_shape_names_its_utility(question: str, utility: str, args: dict) -> None:
    decision = RuleRouter().route(question)
    assert (decision.utility, decision.args) == (utility, args)


@pytest.mark.parametrize("question", [
    "Mix the colours, did it work?",  # Roman letters in an ordinary lower-case word
    "I LIVE IN MOSCOW",  # capitals that are not a numeral: LIVE is not Roman
    "РОССИЯ и СССР — это страны",  # Russian capitals, not mojibake
    "A 5% discount and a 10% tax",  # percent signs, not percent-encoding
    "Expand fe80::1:2:3:4:5 in full",  # IPv6 groups, not a MAC address
    "Issue #123 and issue #456 both mention it",  # issue numbers, not colours
    "Set ENABLE_CACHE=1 and LOG_LEVEL==debug",  # a setting, not Base64
    "The Base32 string NBSWY3DPEB3W64TMMQ== is padded too",  # capitals only: Base32
    "Convert 2026-02-03T16:00 from Europe/Paris",  # one zone
])
def test_ordinary_text_has_no_data_shape(question: str) -> None:
    from workbench.routing._values import DATA_SHAPES

    assert not [uid for uid, shape in DATA_SHAPES.items() if shape.search(question)]


@pytest.mark.parametrize(("question", "source"), [
    ("Из скольких знаков состоит СНИЛС?", Source.QUOTE),  # «состоит» holds «стоит»
    ("Как CRC защищает транзакции от помех?", Source.QUOTE),  # «транзакции» holds «акци»
    ("How many digits make up a Russian company's OGRN?", Source.QUOTE),
    ("Сколько стоит биткоин сегодня?", Source.REFUSE),
    ("Will the VAT rate go up again next year?", Source.REFUSE),
])
def test_scope_words_count_where_a_word_begins(question: str, source: Source) -> None:
    assert RuleRouter().route(question).source is source


@pytest.mark.parametrize(("question", "utility"), [
    ("Turn this list into YAML: [1, 2, 3]", "format.json_to_yaml"),
    ("Переведи в YAML: {\"a\": 1}", "format.json_to_yaml"),
    ("Convert this YAML to JSON: a: 1", "format.yaml_to_json"),
    # a conversion whose source the question names too: its target after "to"/«в» decides
    ("What is rgb(10, 20, 30) as HSL?", "color.rgb_to_hsl"),
    ("Цвет rgb(10, 20, 30) переведи в HSL", "color.rgb_to_hsl"),
    ("Convert rgb(0, 128, 255) to hex", "color.rgb_to_hex"),
    # ... and only then: here "hex" is no colour's target
    ("Переведи в hex байты строки «Ёж»", "encoding.hex_encode"),
])
def test_the_named_target_format_sets_the_direction(question: str, utility: str) -> None:
    assert RuleRouter().route(question).utility == utility


@pytest.mark.parametrize(("question", "code"), [
    ("Is the INN on my payslip valid?", "MISSING_ARGUMENT"),  # names an INN it does not give
    ("Наш ИНН правильный?", "MISSING_ARGUMENT"),
    ("How many digits does an INN have?", None),  # about INNs in general: a quote
    ("Is the INN 7707083893 on our invoice valid?", None),  # the INN is given: a call
])
def test_a_possessive_points_at_data_the_question_does_not_give(question: str, code) -> None:
    decision = RuleRouter().route(question)
    assert (decision.refusal.code if decision.refusal else None) == code


@pytest.mark.parametrize(("question", "about"), [
    ("How many digits does an INN have?", True),
    ("Сколько цифр в ИНН?", True),
    ("Is our INN valid?", False),  # the asker's own INN, not given
    ("Проверь ИНН", False),  # a request, not a question
    ("Which ISO week is it in?", False),  # "it": a date in front of the asker
    ("Сколько мне лет по ИНН?", False),  # «мне»: about the asker
    ("Is the INN `7707083893` valid?", False),  # a literal: data, not a topic
])
def test_a_question_about_a_topic_is_told_from_a_request_missing_its_data(question: str,
                                                                          about: bool) -> None:
    from workbench.routing._asks import asks_about_topic

    router = RuleRouter()
    missing = [a for a in router.schemas["id.validate_inn"].arguments if a.required]
    assert asks_about_topic(question, missing) is about


def test_a_text_argument_does_not_take_the_span_of_another() -> None:
    question = "What's 7f in decimal, going from base 16 to base 10?"
    spans = RuleRouter().bind("number.convert_base", question)
    assert spans["from_base"].value(question) == 16
    # the 16 is the base; "7f", written right before "in decimal", is the value
    assert spans["value"].value(question) == "7f"
    decision = RuleRouter().route(question)
    assert decision.args.get("value") == "7f"


@pytest.mark.parametrize(("uid", "question"), [
    ("encoding.base32_decode", "Раскодируй base32 слово радуга"),
    ("encoding.base64_decode", "Decode the base64 of «привет мир»"),
    ("encoding.hex_decode", "Decode hex: zz-top"),
    ("encoding.punycode_encode", "Какой ИНН у магазина «Продукты у дома» в punycode?"),
    ("encoding.punycode_decode", "Decode the punycode domain почта.рф"),
])
def test_data_outside_the_utilitys_alphabet_is_not_its_data(uid: str, question: str) -> None:
    assert "data" not in RuleRouter().bind(uid, question) and "domain" not in RuleRouter().bind(
        uid, question)


def test_every_catalog_example_is_written_in_its_utilitys_alphabet() -> None:
    schemas = load_catalog().schemas
    for uid, alphabet in DATA_ALPHABETS.items():
        name = schemas[uid].arguments[0].name
        for example in schemas[uid].examples:
            assert alphabet.fullmatch(example.args[name]), (uid, example.args[name])


def test_two_letter_unit_codes_bind_as_words() -> None:
    question = "Convert 250 mm to cm"
    spans = RuleRouter().bind("units.length", question)
    assert {name: span.value(question) for name, span in spans.items()} == {
        "value": 250, "from_unit": "mm", "to_unit": "cm"}
    other = "Convert 250 in to km"  # "in" stays a word: only km names a unit
    spans = RuleRouter().bind("units.length", other)
    assert [span.value(other) for name, span in spans.items() if name != "value"] == ["km"]


@pytest.mark.parametrize(("uid", "argument", "question"), [
    # a count of the data's parts gives its size, not the data
    ("hash.sha256", "text", "Посчитай SHA-256 моего пароля из 12 символов"),
    ("id.validate_inn", "inn", "Проверь ИНН моей компании, он из 10 цифр"),
    ("id.validate_inn", "inn", "Validate a 10-digit INN"),  # a count joined by a hyphen too
    ("id.validate_inn", "inn", "Проверь 12-значный ИНН"),
    ("hash.sha256", "text", "SHA-256 of a 16-character key"),
    # a file's name is no file's content
    ("hash.md5", "text", "Посчитай MD5 от содержимого файла report2024.pdf"),
    ("hash.crc32", "text", "CRC32 of backup-2025.zip, please"),
    # a possessive after «имя» names no name; the name of another utility is no data either
    ("id.uuid5", "name", "Сгенерируй UUID5 для имени нашего сервиса в пространстве DNS"),
    ("id.uuid3", "name", "Сгенерируй UUID5 для имени нашего сервиса в пространстве DNS"),
])
def test_a_size_a_file_name_or_a_utility_name_is_no_data(uid: str, argument: str, question: str) -> None:
    assert argument not in RuleRouter().bind(uid, question)


def test_a_part_of_a_date_is_no_identifier_and_the_whole_one_binds() -> None:
    question = "I was born on 12 May 1990 — is my INN 7707083893 valid?"
    assert RuleRouter().bind("id.validate_inn", question)["inn"].value(question) == "7707083893"


def test_the_day_before_a_months_name_is_no_year() -> None:
    router = RuleRouter()
    question = "Сколько дней между 1 мая и моим днём рождения?"
    assert "year" not in router.bind("date.days_in_month", question)
    question = "Сколько дней в мае 2024 года?"  # the year after the month still binds
    assert router.bind("date.days_in_month", question)["year"].value(question) == 2024


@pytest.mark.parametrize("question", ["Is his INN valid?", "Their IBAN, is it valid?"])
def test_a_third_persons_possessive_points_at_data_too(question: str) -> None:
    decision = RuleRouter().route(question)
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"


@pytest.mark.parametrize(("question", "args"), [
    # an unquoted expression written right after its name is the pattern, the quoted text the text
    ('Найди все числа в строке "abc 12 def 345" по регулярке \\d+',
     {"pattern": "\\d+", "text": "abc 12 def 345"}),
    ('Run a regex replace on "Due 2025-03-03": pattern (\\d+)-(\\d+)-(\\d+), replacement \\3.\\2.\\1',
     {"pattern": "(\\d+)-(\\d+)-(\\d+)", "replacement": "\\3.\\2.\\1", "text": "Due 2025-03-03"}),
])
def test_a_pattern_and_a_replacement_bind_after_their_names(question: str, args: dict) -> None:
    decision = RuleRouter().route(question)
    assert dict(decision.args) == args


def test_words_after_pattern_without_a_mark_of_an_expression_are_no_pattern() -> None:
    from workbench.routing._rule_offer import P, _cued_value

    question = "Escape the pattern my colleague sent you so it is safe in a regex."
    assert _cued_value(question, P.pattern_cue, P.regex_mark) == []


@pytest.mark.parametrize(("question", "text"), [
    ("Транслитерируй фамилию Щербаков по ГОСТ", "Щербаков"),
    ("Transliterate the surname Жуков by ICAO", "Жуков"),
    ("Посчитай SHA-1 слова кот в UTF-8", "кот"),
])
def test_one_word_before_a_named_circumstance_is_the_text(question: str, text: str) -> None:
    decision = RuleRouter().route(question)
    assert decision.args["text"] == text


@pytest.mark.parametrize(("uid", "question", "args"), [
    # a count of time in another unit is read in the argument's unit where it converts exactly
    ("money.loan_payment", "Ежемесячный платёж по кредиту 1 000 000 рублей на 5 лет под 12% годовых",
     {"principal": 1000000, "annual_rate": 12, "months": 60}),
    ("date.add_days", "Add 2 weeks to 2026-02-10", {"date": "2026-02-10", "days": 14}),
    ("date.add_months", "Прибавь 36 месяцев к 2026-01-31", {"date": "2026-01-31", "months": 36}),
])
def test_a_duration_binds_in_the_unit_of_its_argument(uid: str, question: str, args: dict) -> None:
    spans = RuleRouter().bind(uid, question)
    assert {name: span.value(question) for name, span in spans.items()} == args


def test_a_duration_that_does_not_convert_exactly_is_no_value() -> None:
    # months hold no whole number of days, and an age in years is no count of days
    assert "days" not in RuleRouter().bind("date.add_days", "Прибавь 2 месяца к 2026-01-31")
    assert "days" not in RuleRouter().bind(
        "date.add_days", "Сколько дней до 1 января 2027, если в этот день мне исполнится 30 лет?")


def test_an_iban_written_in_groups_of_four_binds_whole() -> None:
    question = "Проверь IBAN GB82 WEST 1234 5698 7654 32"
    assert RuleRouter().bind("id.validate_iban", question)["iban"].value(question) == (
        "GB82 WEST 1234 5698 7654 32")


def test_a_literal_not_named_as_the_replacement_is_no_replacement() -> None:
    question = "Pull every number out of 'rooms 12, 14 and 301' with the pattern `\\d+`"
    spans = RuleRouter().bind("regex.replace", question)
    assert "replacement" not in spans and spans["text"].value(question) == "rooms 12, 14 and 301"
    named = "Замени по регулярке `\\s+` на `_` в строке «отчёт за май»"
    assert RuleRouter().bind("regex.replace", named)["replacement"].value(named) == "_"


def test_data_sizes_written_with_cyrillic_abbreviations_bind() -> None:
    question = "Для отчёта нужно перевести 1536 МиБ в ГБ"
    spans = RuleRouter().bind("units.data_size", question)
    assert {name: span.value(question) for name, span in spans.items()} == {
        "value": 1536, "from_unit": "MiB", "to_unit": "GB"}


@pytest.mark.parametrize(("uid", "question", "direction"), [
    ("color.hsl_to_rgb", "Convert rgb(255, 99, 71) to HSL", -1),  # asked the other way round
    ("color.rgb_to_hsl", "Convert rgb(255, 99, 71) to HSL", 1),
    ("color.hsl_to_rgb", "hsl(120, 100%, 50%) — what colour is it?", 0),  # no target named
    ("hash.md5", "MD5 to hex", 0),  # converts nothing
])
def test_the_direction_a_question_reads_a_conversion(uid: str, question: str, direction: int) -> None:
    from workbench.routing._asks import conversion_direction, conversion_targets

    assert conversion_direction(uid, conversion_targets(question)) == direction


@pytest.mark.parametrize(("question", "order"), [
    ("Раскодируй ссылку из адресной строки браузера", True),
    ("Пожалуйста, посчитай MD5 от слова кот", True),
    ("Decrypt this AES ciphertext without the key", True),
    ("Please convert 5 km to miles", True),
    ("Пропарси этот лог", True),  # a verb of the trade no dictionary holds
    ("Сриншот экрана прилагаю", False),  # a word no dictionary holds, not ending as an order
    # verbs of telling ask what the course says; a question is no order
    ("Объясни, почему в UTF-8 у кириллицы два байта", False),
    ("Назови стандарт транслитерации для загранпаспорта", False),
    ("Explain why a BOM is written", False),
    ("Сколько байт занимает буква ё в UTF-8?", False),
    ("Who owns the IP address 8.8.8.8?", False),
])
def test_an_order_to_compute_is_told_from_a_question(question: str, order: bool) -> None:
    assert orders_computation(question) is order


def test_an_order_on_the_course_subject_is_not_sent_to_the_course(rule: RuleRouter) -> None:
    # «строки», «кодировке» name the course's subject, but the order asks for a computation
    decision = rule.route("Посчитай длину строки в байтах в кодировке UTF-16")
    assert decision.source is Source.REFUSE
    assert rule.route("Почему длина строки в байтах в UTF-16 бывает нечётной?").source is not Source.REFUSE


@pytest.mark.parametrize(("word", "owner"), [
    ("мою", True), ("нашу", True), ("вашу", True), ("твою", True), ("моем", True), ("моего", True),
    ("наш", True), ("мойка", False), ("моряк", False), ("нашествие", False),
])
def test_every_case_of_a_possessive_is_one(word: str, owner: bool) -> None:
    from workbench.routing._asks import OWNER_WORDS

    assert (OWNER_WORDS.fullmatch(word) is not None) is owner


def test_a_request_about_my_surname_points_at_data_it_does_not_give(rule: RuleRouter) -> None:
    # «правок» names the edit distance; «мою фамилию» is the asker's own, not written
    decision = rule.route("Сколько правок отделяет мою фамилию от фамилии жены?")
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers["utility"] == "text.levenshtein"
    edit = rule.route("What's the edit distance between 'kitten' and 'sitting'?")
    assert edit.utility == "text.levenshtein"


@pytest.mark.parametrize(("question", "args"), [
    ("What is 12.5% of 640?", {"value": 640, "percent": 12.5}),
    ("Сколько это — 15% от 3 400?", {"value": 3400, "percent": 15}),
])
def test_a_percent_of_a_number_is_its_own_shape(rule: RuleRouter, question: str, args: dict) -> None:
    from workbench.routing._values import DATA_SHAPES

    assert DATA_SHAPES["number.percent_of"].search(question)
    decision = rule.route(question)
    assert (decision.utility, decision.args) == ("number.percent_of", args)
    assert not DATA_SHAPES["number.percent_of"].search("Add 20% VAT to 2 400")


@pytest.mark.parametrize(("question", "args"), [
    ("Convert ff from base 16 to base 2", {"value": "ff", "from_base": 16, "to_base": 2}),
    ("Переведи face из шестнадцатеричной системы в десятичную",
     {"value": "face", "from_base": 16, "to_base": 10}),
    ("Convert it from base 16 to base 2", None),  # "it" points, and is no digits of base 16
])
def test_digits_without_a_decimal_digit_bind_before_their_base(rule: RuleRouter, question: str,
                                                               args: dict | None) -> None:
    decision = rule.route(question)
    if args is None:
        assert decision.source is Source.REFUSE
    else:
        assert (decision.utility, decision.args) == ("number.convert_base", args)


@pytest.mark.parametrize(("question", "text"), [
    ("Escape the regex special characters in a.b*c", "a.b*c"),
    ("Escape [abc].* so I can use it literally in a regex", "[abc].*"),
    ("Экранируй для регулярного выражения строку a+b (c)", "a+b (c)"),
])
def test_an_unquoted_run_with_marks_of_an_expression_is_the_text_to_escape(
        rule: RuleRouter, question: str, text: str) -> None:
    decision = rule.route(question)
    assert (decision.utility, decision.args) == ("regex.escape", {"text": text})


def test_marks_after_a_word_of_the_data_itself_are_not_the_whole_text() -> None:
    from workbench.routing._rule_offer import _marked_runs

    # the text begins at "price"; the run after it is a piece of it, not the data
    assert _marked_runs("Escape the literal text price (USD) + tax", ("escape",)) == []


@pytest.mark.parametrize(("question", "args"), [
    ("Count the occurrences of na in the word banana", {"text": "banana", "substring": "na"}),
    ("Сколько вхождений ан в слове банан?", {"text": "банан", "substring": "ан"}),
])
def test_a_substring_binds_after_the_word_occurrences(rule: RuleRouter, question: str, args: dict) -> None:
    decision = rule.route(question)
    assert (decision.utility, decision.args) == ("text.count_substring", args)


@pytest.mark.parametrize(("question", "uid"), [
    ("Can black text #222222 sit on #eeeeee and pass WCAG?", "color.contrast_ratio"),
    ("Сожми повторяющиеся пробелы: раз  два   три", "text.collapse_whitespace"),
    # everyday names: a barcode, an integer
    ("The barcode on this box reads 4607001771234. Is its check digit right?", "id.validate_ean13"),
    ("The server's IP is 10.20.30.40; turn it into an integer.", "net.ip_to_int"),
    ("Сделай слаг из темы письма «Отчёт за третий квартал»", "text.slugify"),
    ("Сколько символов в тексте «Мы выходим на связь в девять»?", "text.stats"),
    ("Убери повторы строк:\nмолоко\nхлеб\nмолоко", "text.dedupe_lines"),
])
def test_the_name_of_a_standard_or_of_what_is_removed_names_the_utility(
        rule: RuleRouter, question: str, uid: str) -> None:
    assert rule.route(question).utility == uid


def test_an_address_beside_a_network_is_a_membership_test_and_no_iban(rule: RuleRouter) -> None:
    question = "Does 172.16.40.2 sit inside 172.16.0.0/20, or is it outside our VPN range?"
    decision = rule.route(question)
    assert (decision.utility, decision.args) == (
        "net.ip_in_network", {"ip": "172.16.40.2", "cidr": "172.16.0.0/20"})
    # an IBAN opens with two letters and two digits: an address is none
    assert "iban" not in rule.bind("id.validate_iban", question)
    assert rule.bind("id.validate_iban", "Проверь IBAN GB82 WEST 1234 5698 7654 32")["iban"]


def test_a_cue_noun_inside_a_word_names_no_data(rule: RuleRouter) -> None:
    # "ciphertext" holds "text", which is no noun of its own here
    assert "text" not in rule.bind("encoding.base64_encode", "Decrypt this AES ciphertext without the key")


def test_a_word_its_noun_names_comes_before_a_bare_number(rule: RuleRouter) -> None:
    decision = rule.route("Сколько байт в UTF-8 будет у слова электрификация, если поле принимает 32?")
    assert decision.args.get("text") == "электрификация"  # the 32 is a limit, not the word
    assert rule.route("Посчитай MD5 от 12345").args == {"text": "12345"}  # a number alone stays data


def test_the_noun_before_an_orders_data_is_no_part_of_it(rule: RuleRouter) -> None:
    decision = rule.route("Переведи фамилию Щука в латиницу по ГОСТ")
    assert decision.args == {"text": "Щука", "standard": "gost-7.79-b"}


def test_the_words_of_a_gcd_and_of_days_gone_by_name_their_utilities(rule: RuleRouter) -> None:
    gcd = rule.route("Какой наибольший общий делитель у 84 и 126?")
    assert (gcd.utility, gcd.args) == ("number.gcd", {"a": 84, "b": 126})
    since = rule.route("Сколько дней прошло с 5 марта 2024 года?")  # the end date is not given
    assert since.refusal is not None and since.refusal.code == "MISSING_ARGUMENT"
    assert since.refusal.numbers["utility"] == "date.diff_days"


@pytest.mark.parametrize("question", [
    "Вот КПП из накладной поставщика: 540201001. Проверь форму",
    "Here is the INN: 7707083893. Is it valid?",
    "КПП поставщика: 540201001, проверь форму",
])
def test_an_identifier_ends_where_its_sentence_ends(rule: RuleRouter, question: str) -> None:
    decision = rule.route(question)
    assert list(decision.args.values()) in (["540201001"], ["7707083893"])
    with pytest.raises(NormaliseError):
        normalise_code("540201001. Проверь форму")
    assert normalise_code("112-233-445 95") == "112-233-445 95"  # spaces inside one identifier


@pytest.mark.parametrize(("question", "stated", "held"), [
    ("Why does a SNILS have 13 digits?", 13, [11]),
    ("Почему в СНИЛС 9 цифр?", 9, [11]),
    ("Почему ОГРН состоит из 12 цифр?", 12, [13, 15]),
    ("Why is the reduced VAT rate on children's goods 5 percent?", 5, [0, 10, 18, 20, 22]),
])
def test_a_why_question_on_a_figure_no_source_holds_is_refused(
        rule: RuleRouter, question: str, stated: float, held: list[float]) -> None:
    premise = unheld_premise(question)
    assert premise is not None and (premise["stated"], premise["held"]) == (stated, held)
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "OUT_OF_SCOPE"
    assert decision.refusal.numbers["stated"] == stated
    assert str(stated) in decision.refusal.text


@pytest.mark.parametrize("question", [
    "Почему в ОГРН 13 цифр, а в ОГРНИП 15?",  # both held
    "Почему ИНН из двенадцати цифр?",  # a person's INN has 12
    "Почему ставка НДС с 2026 года 22 %?",  # held; whether export is taxed so is no figure's length
    "How many digits does a SNILS have, 13?",  # no why
    'Apply ROT13 to "Why does a SNILS have 13 digits?"',  # the why is the data
])
def test_a_figure_a_source_holds_or_a_question_without_why_is_left_to_the_routers(question: str) -> None:
    assert unheld_premise(question) is None


def _rate_entry(entry_id: str, status: str, statement: str) -> Entry:
    return Entry(id=entry_id, version=1, status=status,
                 signature=Signature({"supply_date": "date"}, {"rate": "percent"}),
                 statement={"ru": statement, "en": statement}, stored_digest="", computed_digest="",
                 raw={}, path=f"{entry_id}.yaml")


def test_only_premise_entries_hold_a_vat_rate() -> None:
    entries = {e.id: e for e in (_rate_entry("a", "verified", "taxed at 22 % or 10 %"),
                                 _rate_entry("b", "rejected", "taxed at 25 %"),
                                 _rate_entry("c", "proposed", "taxed at 7 %"),
                                 _rate_entry("d", "derived", "taxed at 0 %"))}
    assert vat_rates_held(Library(root="x", entries=entries, manifest=None, digest="")) == {22, 10, 0}
    assert {0, 10, 20, 22} <= held_vat_rates()  # the project's library: 2019's 20 % and today's


def test_a_why_question_that_names_a_utility_goes_to_the_course(rule: RuleRouter) -> None:
    question = "Why does a person's INN have 12 digits while an organisation's has 10?"
    assert rule.route(question).source is Source.QUOTE  # no INN "10" is checked
    assert rule.route("Проверь ИНН 7707083893").utility == "id.validate_inn"


def test_data_placed_elsewhere_is_missing(rule: RuleRouter) -> None:
    decision = rule.route("Is the JSON in the ticket above well-formed?")
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers["utility"] == "format.json_validate"
    # without the word that places it, the question asks about well-formed JSON in general
    assert rule.route("Is the JSON in a ticket well-formed?").source is Source.QUOTE


def test_a_percentage_is_written_as_one(rule: RuleRouter) -> None:
    # two bare amounts are no percentage of each other
    assert "percent" not in rule.bind("number.percent_of", "The bill went from 3,200 to 4,100")
    assert rule.bind("number.percent_of", "Сколько будет 15% от 2400?")
    change = rule.route("Our bill went from 3,200 to 4,100 roubles. By what percent did it grow?")
    assert (change.utility, change.args) == ("money.percent_change", {"old": 3200, "new": 4100})


def test_a_question_about_barcodes_is_a_course_question(rule: RuleRouter) -> None:
    assert rule.route("Какой префикс штрихкода EAN-13 принадлежит России?").source is Source.QUOTE


@pytest.mark.parametrize("question", ["How many days are left until my daughter's birthday?",
                                      "Сколько дней осталось до моего отпуска?"])
def test_days_left_until_a_day_of_ones_own_name_the_difference_and_miss_its_date(
        rule: RuleRouter, question: str) -> None:
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers["utility"] == "date.diff_days"


def test_a_key_after_a_literal_that_holds_a_colon_is_the_second_literal(rule: RuleRouter) -> None:
    question = 'Give me the HMAC-SHA256 of `{"user":42}` signed with the key `webhook-key-7`'
    spans = rule.bind("hash.hmac_sha256", question)
    assert {name: question[s.start:s.end] for name, s in spans.items()} == {
        "text": '{"user":42}', "key": "webhook-key-7"}


def test_a_roman_numeral_inside_a_quoted_title_is_a_word_of_the_title(rule: RuleRouter) -> None:
    question = 'Generate a URL slug for our blog post, titled "Ten Tips for Faster CI Pipelines"'
    assert not holds_shape("number.from_roman", question)
    decision = rule.route(question)
    assert (decision.utility, decision.args) == ("text.slugify", {"text": "Ten Tips for Faster CI Pipelines"})
    # a numeral written on its own, or quoted alone, still has the shape
    assert holds_shape("number.from_roman", "What number is MCMXCIV?")
    assert holds_shape("number.from_roman", "What number is «MCMXCIV»?")


def test_utf8_cyrillic_read_as_latin_1_is_mojibake(rule: RuleRouter) -> None:
    question = ('After the import the client\'s name shows up as "Ð¡ÐµÑ€Ð³ÐµÐ¹ Ð˜Ð²Ð°Ð½Ð¾Ð²". '
                "Can you recover it?")
    assert holds_shape("charset.fix_mojibake", question)
    assert rule.route(question).args == {"text": "Ð¡ÐµÑ€Ð³ÐµÐ¹ Ð˜Ð²Ð°Ð½Ð¾Ð²"}
    assert not holds_shape("charset.fix_mojibake", "Ðoes this look odd?")


def test_a_value_with_a_shape_of_its_own_is_bound_by_its_shape(rule: RuleRouter) -> None:
    question = ("Ticket #4471: the printer needs a DHCP reservation. MAC from the sticker is "
                "A4-5E-60-C2-1F-9B; give it in lowercase colon form")
    assert question[slice(*_span(rule, "net.mac_normalize", question, "mac"))] == "A4-5E-60-C2-1F-9B"
    colours = "Design review: grey text #767676 on a #ffffff background. Contrast ratio?"
    spans = rule.bind("color.contrast_ratio", colours)
    assert {n: colours[s.start:s.end] for n, s in spans.items()} == {
        "foreground": "#767676", "background": "#ffffff"}


def _span(rule: RuleRouter, uid: str, question: str, name: str) -> tuple[int, int]:
    span = rule.bind(uid, question)[name]
    return span.start, span.end


def test_a_json_block_after_the_colon_ends_where_it_closes(rule: RuleRouter) -> None:
    question = ('Someone pasted this blob: {"retry":3,"backoff":{"base":2,"max":30}} — can you '
                'turn it into YAML?')
    data = question[slice(*_span(rule, "format.json_to_yaml", question, "data"))]
    assert data == '{"retry":3,"backoff":{"base":2,"max":30}}'
    # a bracket inside a JSON string does not close it; an unclosed block stays whole
    odd = 'Pretty-print: {"a":"}","b":[1]} then send it back'
    assert odd[slice(*_span(rule, "format.json_pretty", odd, "data"))] == '{"a":"}","b":[1]}'
    open_block = 'Validate: {"a": [1, 2'
    assert open_block[slice(*_span(rule, "format.json_validate", open_block, "data"))] == '{"a": [1, 2'


def test_two_words_compared_at_the_end_are_the_pair(rule: RuleRouter) -> None:
    decision = rule.route("whats the edit distance between recieve and receive")
    assert decision.args == {"a": "recieve", "b": "receive"}
    ru = rule.route("Расстояние Левенштейна между кот и кит")
    assert ru.args == {"a": "кот", "b": "кит"}
    # words that point at data are no pair
    assert rule.route("Edit distance between this and that").source is Source.REFUSE


def test_a_unit_of_another_quantity_is_not_bound(rule: RuleRouter) -> None:
    assert {"from_unit", "to_unit"} <= set(rule.bind("units.mass", "how many kg is 185 lb"))
    assert not {"from_unit", "to_unit"} & set(rule.bind("units.data_size", "how many kg is 185 lb"))
    # the units a conversion accepts are the utility's own tables
    assert "lb" in unit_codes()["units.mass"] and "lb" not in unit_codes()["units.data_size"]


@pytest.mark.parametrize("question", [
    "How many words are in the essay I attached? The limit is 500 and I'm worried I'm over.",
    "Какой по счёту день в году — дата, указанная в приказе?",
    "приведи к нормальному виду мак адрес роутера который я скидывал в чат",
    "Count the words of the abstract I pasted, it must stay under 250",
    "Could you count the words of the essay I put on the shared drive? The limit is 650.",
    "В реквизитах, которые пришли в PDF, указан БИК банка. Он правильного формата?",
    "Please add VAT of 20% to the net total in the spreadsheet I mentioned earlier.",
    "Переведи в base64 номер счёта из прошлого письма",
    "Hash the coupon code from my previous message with SHA-1"])
def test_data_a_sender_placed_elsewhere_is_missing(rule: RuleRouter, question: str) -> None:
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT", decision


@pytest.mark.parametrize("question", ["Who owns the IP address 93.184.216.34? I need it as an integer",
                                      "Узнай, кому принадлежит домен yandex.ru",
                                      "Question: who registered example.org?"])
def test_who_owns_a_thing_is_out_of_scope(rule: RuleRouter, question: str) -> None:
    assert asks_world_fact(question)
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "OUT_OF_SCOPE"
    assert decision.refusal.numbers["out_of_scope_word"] == asks_world_fact(question).lower()


@pytest.mark.parametrize(("question", "word"), [
    ("сколько идет посылка Почтой России из Москвы в 680000? клиент спрашивает", "сколько идет посылка"),
    ("How long does shipping to 94107 usually take?", "How long does shipping to 94107 usually take"),
    ("клиент пишет: «Оплатил картой, деньги списались». что ему ответить?", "что ему ответить"),
    ("Customer says order 5521 never came. What should I reply", "What should I reply")])
def test_a_carriers_times_and_a_reply_to_write_are_out_of_scope(
        rule: RuleRouter, question: str, word: str) -> None:
    assert asks_world_fact(question) == word
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "OUT_OF_SCOPE"


def test_a_word_out_of_scope_inside_a_quoted_message_is_data(rule: RuleRouter) -> None:
    # «стоит» (costs) asks a price outside the quotes; inside them it is the customer's word
    question = ("клиент пишет: «Отправляла возврат из 197341, а в накладной у вас стоит 197374, "
                "это вообще куда?» выдерни индексы из сообщения")
    decision = rule.route(question)
    assert decision.utility == "address.extract_postcode"
    # the quote that opens the colon's text is the data where an order follows its closing mark
    assert decision.args == {"text": "Отправляла возврат из 197341, а в накладной у вас стоит 197374, "
                                     "это вообще куда?"}


def test_ownership_words_inside_a_quoted_literal_are_data(rule: RuleRouter) -> None:
    assert asks_world_fact('SHA-256 of "who owns it"') is None
    assert rule.route('SHA-256 of "who owns it"').args == {"text": "who owns it"}
    assert asks_world_fact("Какой префикс штрихкода EAN-13 принадлежит России?") is None


@pytest.mark.parametrize(("question", "uid"), [
    ("мд5 от qwerty123 плиз", "hash.md5"),
    ("Base64-decode dGhhbmtz please", "encoding.base64_decode"),
    ("Какая маска подсети у префикса /27?", "net.prefix_to_netmask"),
    ("Using the pattern `#\\w+` list every hashtag in: #sunset at #Malibu", "regex.find_all"),
    ("Какой по счёту день в году 12 марта 2025?", "date.day_of_year"),
    ("Приведи мак адрес A4-5E-60-C2-1F-9B к нормальному виду", "net.mac_normalize")])
def test_names_people_write_pick_their_utility(rule: RuleRouter, question: str, uid: str) -> None:
    assert rule._pick_utility(question) == uid


@pytest.mark.parametrize(("question", "bound"), [
    # the value is the number its unit measures
    ('Forwarded: "Pallet 4 of 6 - gross weight 1,850 lb, dims 48x40x52 in." What is that in kg?',
     {"value": 1850, "from_unit": "lb", "to_unit": "kg"}),
    # the target is the unit asked into
    ("The scales said 83.4 kg but I only understand stones and pounds. What is that in pounds?",
     {"value": 83.4, "from_unit": "kg", "to_unit": "lb"})])
def test_a_conversion_reads_its_value_and_units_where_they_are_written(
        rule: RuleRouter, question: str, bound: dict[str, object]) -> None:
    spans = rule.bind("units.mass", question)
    assert {name: span.value(question) for name, span in spans.items()} == bound


@pytest.mark.parametrize(("uid", "question", "bound"), [
    # a unit by one letter, right after its number and after the word that asks into a unit
    ("units.temperature", "Recipe from a US blog says 350 F for the oven. What's that in C?",
     {"value": 350, "from_unit": "F", "to_unit": "C"}),
    ("units.temperature", "в духовке 180 °C, сколько это в F?",
     {"value": 180, "from_unit": "C", "to_unit": "F"}),
    # the letter asked into is the target even where it comes first; a named unit and a letter
    # keep the question's order
    ("units.temperature", "in C, what is -40 F?", {"value": -40, "from_unit": "F", "to_unit": "C"}),
    ("units.length", "5 m in ft", {"value": 5, "from_unit": "m", "to_unit": "ft"}),
    ("units.mass", "Сколько это в кг: 3 т?", {"value": 3, "from_unit": "t", "to_unit": "kg"})])
def test_a_unit_named_by_one_letter_is_bound_where_it_stands_as_a_unit(
        rule: RuleRouter, uid: str, question: str, bound: dict[str, object]) -> None:
    spans = rule.bind(uid, question)
    assert {name: span.value(question) for name, span in spans.items()} == bound


def test_a_letter_and_the_unit_asked_into_are_the_temperature_conversions_shape(rule: RuleRouter) -> None:
    question = "Recipe from a US blog says 350 F for the oven. What's that in C?"
    assert rule._pick_utility(question) == "units.temperature"
    assert rule.route(question).args == {"value": 350, "from_unit": "F", "to_unit": "C"}
    # a letter after a number is no temperature without a unit asked into
    assert rule._pick_utility("We raised 100 K to cover costs") is None


@pytest.mark.parametrize(("question", "uid", "argument"), [
    ("проверь инн, он 12-значный, это ип из Казани, начинается на 16", "id.validate_inn", "inn"),
    ("Validate the customer's INN: it begins with 77 and ends in 93", "id.validate_inn", "inn"),
    ("Посчитай SHA-256 моего пароля из 12 символов", "hash.sha256", "text")])
def test_a_value_described_by_its_parts_without_the_value_is_a_circumstance(
        rule: RuleRouter, question: str, uid: str, argument: str) -> None:
    # what a value starts with, or how many digits it has, is no span of it
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE"
    assert decision.refusal.numbers == {"utility": uid, "argument": argument}


def test_the_number_of_a_standard_is_no_data(rule: RuleRouter) -> None:
    # «7.79» names the standard with «ГОСТ»; the name it asks to transliterate is not there
    question = "транслитерируй ФИО получателя по ГОСТ 7.79 (система Б) — там три слова, кириллица"
    assert rule.route(question).refusal is not None
    assert "text" not in rule.bind("text.transliterate", question)
    assert rule.route("Транслитерируй «Щукин» по ГОСТ 7.79").args == {"text": "Щукин",
                                                                      "standard": "gost-7.79-b"}


def test_what_a_value_starts_with_is_no_value_where_the_value_is_given(rule: RuleRouter) -> None:
    assert rule.route("Проверь ИНН 7707083893, он начинается на 77").args == {"inn": "7707083893"}
    assert not describes_data("Проверь ИНН 7707083893") and describes_data("ИНН, начинается с 77")


def test_a_closing_question_after_lines_of_data_is_the_request(rule: RuleRouter) -> None:
    question = ("Here it is:\nWeekly quizzes help retention.\nStudents scored higher.\n"
                "How many words is that?")
    assert rule.route(question).args == {"text": "Weekly quizzes help retention.\nStudents scored higher."}
    # a last line of data stays: it asks nothing
    lines = "Sort these lines:\nbanana\napple\ncherry"
    assert rule.bind("text.sort_lines", lines)["text"].text(lines) == "banana\napple\ncherry"


def test_a_quote_that_opens_the_tail_is_the_data_before_the_next_sentence(rule: RuleRouter) -> None:
    question = ("Пересылаю кусок письма: «Склад в Подольске, 142100, магазин в Туле, 300041». "
                "Выпишите все почтовые индексы из этого текста.")
    text = rule.bind("address.extract_postcode", question)["text"].text(question)
    assert text == "Склад в Подольске, 142100, магазин в Туле, 300041"


def test_unquoted_mojibake_is_the_text_to_repair(rule: RuleRouter) -> None:
    question = "Her name shows up in the helpdesk as Р•Р»РµРЅР° РЎРѕРєРѕР»РѕРІР°. Can you get it back?"
    assert rule.route(question).args == {"text": "Р•Р»РµРЅР° РЎРѕРєРѕР»РѕРІР°"}
    # a short word of pairs («Р·Р°», «за») between two runs is a word of the same text
    question = "Our emails show up as РЎРїР°СЃРёР±Рѕ Р·Р° Р·Р°РєР°Р· in some clients. Can you recover them?"
    assert rule.route(question).args == {"text": "РЎРїР°СЃРёР±Рѕ Р·Р° Р·Р°РєР°Р·"}
    question = "В теме письма «РЎС‡РµС‚ РІ СЂСѓР±Р»СЏС…» вместо текста, почини"
    assert rule.route(question).args == {"text": "РЎС‡РµС‚ РІ СЂСѓР±Р»СЏС…"}


@pytest.mark.parametrize(("question", "year"), [
    ("Переведи 72 градуса по Фаренгейту в Цельсий и заодно скажи, високосный ли 2032 год.", None),
    ("Convert 12 km to miles, and is 2100 a leap year?", None),
    ("Високосный ли 2032 год?", 2032),
    ("Was 1900 a leap year? It was 30 °C that summer.", 1900)])
def test_a_measure_is_no_year(rule: RuleRouter, question: str, year: int | None) -> None:
    # «72 градуса» is a temperature: the year is 2032, and the temperature's conversion is a
    # second request beside it
    if year is None:
        assert rule.bind("date.is_leap_year", question)["year"].value(question) > 2000
        decision = rule.route(question)
        assert decision.refusal is not None and decision.refusal.code == "SEVERAL_REQUESTS"
    else:
        assert rule.route(question).args == {"year": year}


@pytest.mark.parametrize("question", [
    "Какой SHA-256 получается у файла, выгруженного из 1С в кодировке windows-1251?",
    "Какой Base64 получится у кириллического текста в windows-1251?",
    "Compute the SHA-1 of the text in windows-1251."])
def test_a_charset_without_its_text_is_a_circumstance(rule: RuleRouter, question: str) -> None:
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE"
    # a charset named of no text asks about the charset: the course's question
    assert rule.route("Какая кодировка у метки порядка байтов EF BB BF в UTF-8?").source is Source.QUOTE
    # the charset family reads the charset as what it works on
    assert not names_charset_of_data("How many bytes does Ё take in UTF-16?",
                                     load_catalog().schemas["charset.byte_length"])


@pytest.mark.parametrize(("question", "word"), [
    ("Кто сейчас генеральный директор компании с ИНН 7707083893?", "кто сейчас генеральный директор"),
    ("Who runs the company with INN 7707083893?", "who runs")])
def test_who_runs_a_company_is_out_of_scope(rule: RuleRouter, question: str, word: str) -> None:
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.numbers["out_of_scope_word"] == word


def test_the_name_of_sha_3_is_no_data(rule: RuleRouter) -> None:
    assert "text" not in rule.bind("hash.sha1", "When was SHA-3 standardised?")


@pytest.mark.parametrize(("question", "word"), [
    ("Which country is 185.199.108.153 hosted in?", "Which country is"),
    ("What IP address does api.github.com resolve to these days?", "resolve to"),
    ("Which bank issued the card 5312 6604 1187 2290?", "Which bank issued"),
    ("Can you reverse this MD5 back to the original password? 9f582312ce4e5f29", "reverse this MD5"),
    ("Deploy build 4.12.3 to staging and tell me when it's up", "Deploy"),
    ("Email the converted CSV to the analytics list", "Email"),
    ("Отправь платёжку на 15 000 рублей поставщику", "Отправь"),
    ("Is 2026-01-07 a public holiday in Russia?", "public holiday"),
    ("Which INN does Rosneft have?", "Which INN does Rosneft"),
    ("Найди ИНН фирмы по её названию «Василёк»", "Найди ИНН фирмы по её названию"),
    ("Which is better for a designer, a Dell or an HP?", "Which is better"),
    ("Should I buy the blue one or the red one?", "Should I buy the blue one or"),
    ("Что лучше для дачи: бензопила или электропила?", "Что лучше"),
    ("Who does the number +7 913 000-11-22 belong to?", "Who does the number +7 913 000-11-22 belong to"),
    ("Which company is registered under INN 7707083893?", "Which company is registered"),
    ("Is 'qwerty2024' a strong password?", "Is '          ' a strong password"),
    ("Here is an MD5: 5f4dcc3b5aa765d61d8327deb882cf99. What was the original password?",
     "What was the original password"),
    ("Какой БИК у Тинькофф банка?", "Какой БИК у Тинькофф"),
    ("What is the zip code for Springfield, Oregon?", "What is the zip code for Springfield")])
def test_a_fact_of_the_world_or_an_action_is_out_of_scope(rule: RuleRouter, question: str,
                                                          word: str) -> None:
    assert asks_world_fact(question) == word
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "OUT_OF_SCOPE"


@pytest.mark.parametrize("question", ["Send me the MD5 of abc", "Reverse the string abc",
                                      'SHA-256 of "deploy now"',
                                      # the address is given: its postcode is read from it
                                      "Какой индекс у адреса «125009, Москва, Тверская, 7»?",
                                      "What is the IP address of the server?",
                                      # a judgement in the course's words is left to the course
                                      "Which is better for storing a Unicode text, NFC or NFD?"])
def test_an_order_to_compute_is_no_action_in_the_world(question: str) -> None:
    assert asks_world_fact(question) is None


def test_the_width_of_a_representation_is_no_value(rule: RuleRouter) -> None:
    assert "n" not in rule.bind("net.int_to_ip", "What's our staging IP as a 32-bit integer?")
    assert "n" not in rule.bind("net.int_to_ip", "Turn a 32-bit integer into an IP")
    assert rule.bind("net.int_to_ip", "Turn 3232235777 into an IP")["n"].value(
        "Turn 3232235777 into an IP") == 3232235777


def test_someone_elses_data_named_by_a_possessive_is_missing(rule: RuleRouter) -> None:
    decision = rule.route("Is the supplier's IBAN on the new invoice valid?")
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    given = rule.route("What's the IBAN DE89 3704 0044 0532 0130 00 like, valid?")
    assert given.utility == "id.validate_iban"



def test_a_pointer_to_data_elsewhere_is_missing_data_whatever_follows_the_colon(rule: RuleRouter) -> None:
    # two words before the possessive, and a question after a colon that is no data
    decision = rule.route("The INN from the new client's contract: is it right?")
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers["utility"] == "id.validate_inn"


def test_a_bare_number_is_no_text_to_count_words_in(rule: RuleRouter) -> None:
    question = "How many words is the release announcement draft? Marketing capped it at 250."
    assert "text" not in rule.bind("text.word_count", question)
    assert rule.bind("text.word_count", "Count the words in «раз два три»")["text"].text(
        "Count the words in «раз два три»") == "раз два три"


def test_an_address_with_an_at_sign_is_one_token(rule: RuleRouter) -> None:
    assert rule.route("sha1 of deploy-bot@ci-runner-07 pls").args == {"text": "deploy-bot@ci-runner-07"}


def test_a_question_after_a_colon_is_no_data(rule: RuleRouter) -> None:
    question = "chmod question: what does octal 755 look like in binary?"
    spans = rule.bind("number.convert_base", question)
    assert spans["value"].text(question) == "755"


def test_every_match_of_an_unquoted_pattern(rule: RuleRouter) -> None:
    question = "Give me every match of [A-Z]+-\\d+ in this commit message: fixed PAY-1182 and OPS-77"
    decision = rule.route(question)
    assert (decision.utility, decision.args) == ("regex.find_all", {
        "pattern": "[A-Z]+-\\d+", "text": "fixed PAY-1182 and OPS-77"})
    # replacing every match is still a replacement
    assert rule._pick_utility("Using `colou?r`, replace every match with `shade` in: the colour") == (
        "regex.replace")


def test_a_pair_named_before_its_measure(rule: RuleRouter) -> None:
    decision = rule.route("How far apart are recieve_payment and receive_payment in Levenshtein distance?")
    assert decision.args == {"a": "recieve_payment", "b": "receive_payment"}


def test_form_encoded_pairs_are_one_value(rule: RuleRouter) -> None:
    question = "I need the HMAC-SHA256 of the payload amount=4500&order=A-1187 signed with the key k3y"
    spans = rule.bind("hash.hmac_sha256", question)
    assert {name: span.text(question) for name, span in spans.items()} == {
        "text": "amount=4500&order=A-1187", "key": "k3y"}


def test_the_questions_own_mark_set_apart_is_no_part_of_the_data(rule: RuleRouter) -> None:
    question = "Что зашифровано в параметре ссылки: %D0%B1%D0%B8%20%D0%9A ?"
    assert rule.route(question).args == {"data": "%D0%B1%D0%B8%20%D0%9A"}


def test_with_the_data_kept_elsewhere_unquoted_words_describe_it(rule: RuleRouter) -> None:
    question = "Коллега прислал письмо, а там вместо текста одни кракозябры. Можешь восстановить?"
    assert "text" not in rule.bind("charset.fix_mojibake", question)


def test_a_file_name_is_data_only_where_a_noun_names_it_a_string(rule: RuleRouter) -> None:
    assert rule.route("Посчитай CRC-32 для строки отчёт_март_2025.xlsx").args == {
        "text": "отчёт_март_2025.xlsx"}
    content = rule.route("MD5 файла report2024.pdf")  # the file's content is not in the question
    assert content.refusal is not None and content.refusal.code == "MISSING_ARGUMENT"


def test_a_bare_number_is_no_hex_colour(rule: RuleRouter) -> None:
    question = "Convert hue 45, saturation 100%, lightness 50% to RGB"
    assert "hex" not in rule.bind("color.hex_to_rgb", question)
    assert rule.bind("color.hex_to_rgb", "What is 0f0 in RGB?")["hex"].text("What is 0f0 in RGB?") == "0f0"


def test_a_mac_is_six_bytes_of_hex(rule: RuleRouter) -> None:
    assert "mac" not in rule.bind("net.mac_normalize", "Write the IPv6 address of my router in full")
    assert rule.bind("net.mac_normalize", "Normalise MAC a4b5c6d7e8f9")["mac"].text(
        "Normalise MAC a4b5c6d7e8f9") == "a4b5c6d7e8f9"


@pytest.mark.parametrize(("question", "word"), [
    ("Whose mobile is 07700 900461? They've rung me four times.", "Whose mobile"),
    ("Can you look up where my parcel is? The tracking number is JX482915306GB.", "look up where"),
    ("Check the VAT rate of Germany online for me", "Check the VAT rate of Germany online"),
    ("Найди в интернете индекс улицы Баумана", "Найди в интернете")])
def test_whose_number_and_lookups_online_are_out_of_scope(question: str, word: str) -> None:
    assert asks_world_fact(question) == word


@pytest.mark.parametrize(("question", "utility", "args"), [
    # the count asked about the two dates just given
    ("We signed on 3 March 2025 and closed on 19 May 2025. How many days is that?",
     "date.diff_days", {"start": "2025-03-03", "end": "2025-05-19"}),
    ("Заехали 1 июня 2024, выехали 15 августа 2024 — сколько это дней?",
     "date.diff_days", {"start": "2024-06-01", "end": "2024-08-15"}),
    # the three channels named one by one
    ("The brand sheet says #1f6feb; give me red, green and blue separately", "color.hex_to_rgb",
     {"hex": "#1f6feb"}),
    ("Для цвета #c0ffee нужны R, G и B по отдельности", "color.hex_to_rgb", {"hex": "#c0ffee"}),
    # a weekday asked for in Russian words is named in Russian
    ("Какой день недели будет 7 ноября 2026 года?", "date.weekday",
     {"date": "2026-11-07", "lang": "ru"}),
    ("What day of the week is 7 November 2026?", "date.weekday", {"date": "2026-11-07"}),
    # the words of a few more requests
    ("The bill is 3600 with 20% VAT included. How much of that is VAT?", "money.vat_extract",
     {"amount": 3600, "rate": 20}),
    ("HMAC-SHA256 of `ping` with the key `k1`", "hash.hmac_sha256", {"text": "ping", "key": "k1"}),
    ("Shorten this IPv6: 2001:0db8:0000:0000:0000:0000:0000:0001", "net.ipv6_compress",
     {"ip": "2001:0db8:0000:0000:0000:0000:0000:0001"}),
    ("Convert 12 lb to kg", "units.mass", {"value": 12, "from_unit": "lb", "to_unit": "kg"}),
    ('Сожми этот JSON: {"a": [1, 2]}', "format.json_minify", {"data": '{"a": [1, 2]}'}),
    ("How many hours are there between 2026-03-28 08:00 and 2026-03-29 08:00 in Europe/Paris?",
     "date.diff_hours", {"start": "2026-03-28T08:00:00", "end": "2026-03-29T08:00:00",
                         "tz": "Europe/Paris"}),
    ("Напиши прописью число 317", "number.to_words_ru", {"n": 317}),
    ("The word limit matters here: Brevity is the soul of wit", "text.word_count",
     {"text": "Brevity is the soul of wit"}),
    ("The net is 1200 and VAT is 20%. What's the gross?", "money.vat_add", {"amount": 1200, "rate": 20}),
    ("Quoted 900 net, with 20% VAT on top please", "money.vat_add", {"amount": 900, "rate": 20}),
    ("Pull every word out of 'a1 b2 c3' with the pattern `[a-z]\\d`", "regex.find_all",
     {"pattern": "[a-z]\\d", "text": "a1 b2 c3"}),
    ("Напиши наоборот: кот ушёл", "text.reverse", {"text": "кот ушёл"}),
    ("Какими байтами записывается «ёж» в koi8-r?", "charset.encode", {"text": "ёж", "charset": "koi8-r"}),
    # an English verb of size after the word its noun names
    ("How many bytes does the word déjà take in UTF-8?", "charset.byte_length",
     {"text": "déjà", "charset": "utf-8"}),
])
def test_request_words_of_a_later_writer(question: str, utility: str, args: dict) -> None:
    decision = RuleRouter().route(question)
    assert (decision.source, decision.utility, decision.args) == (Source.UTILITY, utility, args)


@pytest.mark.parametrize(("question", "args"), [
    ('Pretty-print with a 4-space indent: {"a":[1,2]}', {"data": '{"a":[1,2]}', "indent": 4}),
    ('Отформатируй JSON с отступом 3: {"a":1}', {"data": '{"a":1}', "indent": 3}),
    ('Pretty-print {"indent": 8}', {"data": '{"indent": 8}'}),  # a key of the data is no indent
])
def test_an_indent_is_bound_from_its_width(question: str, args: dict) -> None:
    decision = RuleRouter().route(question)
    assert (decision.utility, decision.args) == ("format.json_pretty", args)


@pytest.mark.parametrize(("question", "periods"), [
    ("Сколько будет на вкладе 50 000 под 9% годовых через 3 года с ежеквартальной капитализацией?", 4),
    ("How much is 2000 at 5% over 4 years, compounded monthly?", 12),
])
def test_the_compounding_is_bound_from_its_words(question: str, periods: int) -> None:
    decision = RuleRouter().route(question)
    assert decision.utility == "money.compound_interest"
    assert decision.args.get("periods_per_year") == periods


def test_a_yearly_rate_names_no_compounding() -> None:
    from workbench.routing._normalise import ArgSpan, derive, normalise_periods, period_spans

    assert period_spans("под 9% ежегодно, 8% annual rate") == []
    question = "100 000 под 9% годовых с ежедневной капитализацией"
    (start, end), = period_spans(question)
    assert normalise_periods(question[start:end]) == 365
    # a bound count of periods is the normalisation of a span of the question
    assert derive(question, 365, "periods_per_year") == ArgSpan(start, end, "periods")


@pytest.mark.parametrize("question", [
    "What's the SHA-256 of my draft? It's roughly 120 words.",
    "Convert my CSV to JSON, it has 300 rows and a header",
    "Сколько байт займёт моё имя в UTF-8? Там около 12 символов",
    "How many bytes will my title take in UTF-16? About 40 Cyrillic characters.",
    "What's the MD5 of my essay? It is approximately 1500.",  # approximate, and nothing counted
    "My title has 40 Cyrillic characters; how many bytes in UTF-16?",  # counted, not approximate
])
def test_a_figure_about_the_data_is_not_the_data(rule: RuleRouter, question: str) -> None:
    decision = rule.route(question)
    assert decision.source is Source.REFUSE, decision


@pytest.mark.parametrize(("question", "args"), [
    ("Посчитай SHA-256 от 300", {"text": "300"}),  # a number with nothing about it is the text
    ("SHA-256 of 40, please", {"text": "40"}),
    ("Give me the SHA-256 of R2D2 characters", {"text": "R2D2"}),  # no bare number: a name
])
def test_a_bare_number_with_nothing_about_it_is_still_the_text(rule: RuleRouter, question: str,
                                                                args: dict) -> None:
    assert rule.route(question).args == args


def test_an_address_is_no_network_and_a_network_no_address(rule: RuleRouter) -> None:
    decision = rule.route("Is 172.16.40.9 inside our office subnet?")
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    given = rule.route("Is 172.16.40.9 inside 172.16.0.0/16?")
    assert given.args == {"ip": "172.16.40.9", "cidr": "172.16.0.0/16"}
    info = rule.route("Tell me about the network 10.1.0.0/22")
    assert info.utility == "net.cidr_info" and info.args == {"cidr": "10.1.0.0/22"}


@pytest.mark.parametrize(("question", "utility", "args"), [
    ("I'm not asking who owns it, only how xn--80ak6aa92e.com reads in letters",
     "encoding.punycode_decode", {"domain": "xn--80ak6aa92e.com"}),
    ("Not asking you to reverse anything, just the MD5 of this: blue-sky-7", "hash.md5",
     {"text": "blue-sky-7"}),
])
def test_a_request_set_aside_is_no_request(rule: RuleRouter, question: str, utility: str,
                                           args: dict) -> None:
    assert asks_world_fact(question) is None
    decision = rule.route(question)
    assert (decision.utility, decision.args) == (utility, args)
    # the same words asked are asked
    assert asks_world_fact("Who owns xn--80ak6aa92e.com?") is not None


def test_one_word_after_the_colon_then_a_sentence_is_the_data(rule: RuleRouter) -> None:
    question = "Here's the word from the sign: Ёлка. What is its MD5?"
    assert rule.bind("hash.md5", question)["text"].text(question) == "Ёлка"
    # a tail of several words stays whole
    longer = "Count the words: Short texts hide long arguments. Truly."
    assert rule.bind("text.word_count", longer)["text"].text(longer) == (
        "Short texts hide long arguments. Truly.")



@pytest.mark.parametrize(("question", "stated"), [
    ("Given that VAT in Russia is 25%, how much tax is due on 10,000 roubles?", 25),
    ("Раз НДС в России 25%, сколько налога с 10 000 рублей?", 25),
])
def test_a_figure_taken_as_given_that_no_source_holds_is_refused(rule: RuleRouter, question: str,
                                                                 stated: float) -> None:
    from workbench.routing._asks import unheld_premise

    premise = unheld_premise(question)
    assert premise is not None and premise["stated"] == stated
    assert rule.route(question).refusal.code == "OUT_OF_SCOPE"
    # a rate that is held leaves the question to the routers
    assert unheld_premise(question.replace("25%", "20%")) is None


MISSING, CIRCUMSTANCE = "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE"


def _without(utility: str, argument: str, code: str = MISSING) -> tuple[str, dict[str, str]]:
    """The refusal a request without its value gets: its code and its numbers."""
    return code, {"utility": utility, "missing" if code == MISSING else "argument": argument}


@pytest.mark.parametrize(("question", "utility", "argument", "code"), [
    ("Pretty-print the error body with 2-space indents — it's in the Jira ticket Anna opened.",
     "format.json_pretty", "data", MISSING),
    ("Decode the base64 piece of the customer's link; it's sitting in ticket #812.",
     "encoding.base64_decode", "data", MISSING),
    ("A refund link is garbled. Support copied the base64 part into case #77 — turn it back into text.",
     "encoding.base64_decode", "data", MISSING),
    ("Нужно выделить НДС 22% из итога акта — итог возьми из самого акта.", "money.vat_extract", "amount",
     MISSING),
    ("Сверь контрольную цифру штрихкода на коробке, цифры я не переписал.", "id.validate_ean13", "code",
     MISSING),
    ("Does the IP from the access log fall within 10.8.0.0/16? I'll dig it out later.",
     "net.ip_in_network", "ip", MISSING),
    ("Count the days from her first order up to 2025-04-01; the order date is somewhere in the CRM.",
     "date.diff_days", "start", MISSING),
    # parts and descriptions of a value leave it a circumstance
    ("У новенькой СНИЛС из 11 цифр, последние две — 37. Проверь контрольное число.", "id.validate_snils",
     "snils", CIRCUMSTANCE),
    ("Her INN has 12 digits and the last two digits are 45. Is it valid?", "id.validate_inn", "inn",
     CIRCUMSTANCE),
    ("Переведи латиницей по ГОСТ 7.79 фамилию нового слесаря: в ней 7 букв, начинается на «Ж».",
     "text.transliterate", "text", CIRCUMSTANCE),
])
def test_a_request_without_its_value_is_refused_naming_the_argument(
        rule: RuleRouter, question: str, utility: str, argument: str, code: str) -> None:
    # words that put the data elsewhere leave it missing
    decision = rule.route(question)
    assert decision.refusal is not None, decision
    assert (decision.refusal.code, decision.refusal.numbers) == _without(utility, argument, code)


@pytest.mark.parametrize(("question", "utility", "args"), [
    ("Does 10.8.3.4 fall within 10.8.0.0/16?", "net.ip_in_network",
     {"ip": "10.8.3.4", "cidr": "10.8.0.0/16"}),
    ("Count the days from 2025-01-10 to 2025-04-01.", "date.diff_days",
     {"start": "2025-01-10", "end": "2025-04-01"}),
    ("Выделить НДС 20% из суммы 36 000 ₽", "money.vat_extract", {"amount": 36000, "rate": 20}),
])
def test_the_same_requests_with_their_data_are_called(rule: RuleRouter, question: str, utility: str,
                                                      args: dict) -> None:
    decision = rule.route(question)
    assert (decision.utility, decision.args) == (utility, args)


def test_a_record_number_after_its_noun_is_no_data(rule: RuleRouter) -> None:
    question = "Base64-encode the text from ticket #5521"
    assert "text" not in rule.bind("encoding.base64_encode", question)
    # a «#» with no record before it is written as data
    assert rule.bind("encoding.base64_encode", "Base64-encode #5521").get("text") is not None


@pytest.mark.parametrize("question", [
    # rates, another country's VAT, days off, the postcode that serves a place
    "По чём ЦБ установил доллар на сегодня?",
    "What is the euro exchange rate today?",
    "Какой курс евро на завтра?",
    "What VAT rate does Kazakhstan charge on clothes?",
    "Какая ставка НДС в Казахстане на одежду?",
    "Is 2025-06-12 an official non-working day in Russia?",
    "Which postal code serves Lenina street 5 in Omsk?",
    "Какой индекс у дома 12 на улице Мира в Омске?",
    # a firm's reliability, labour law, a person's pay
    "Is ООО «Вектор», ИНН 7707083893, a reliable contractor for our canteen?",
    "ООО «Вектор» с ИНН 7707083893 — надёжный ли это партнёр?",
    "Можно ли уволить кладовщика, пока он в отпуске с 01.08.2025?",
    "Can we legally fire an employee who is on sick leave since 2025-10-02?",
    "какой оклад у начальника смены Крылова? табельный 00417",
    "What does Maria Lindqvist earn per month?",
    # duties, whereabouts, another country's holidays, a question put to a colleague
    "какая ставка ввозной пошлины для ноутбуков из Китая по коду 8471 30 000 0?",
    "What is the import duty on HS 8471 laptops?",
    "Where is truck WGM 48213 right now? It left Brest on 2025-03-14 at 10:20.",
    "где сейчас наша фура А123ВС, вышла 14.03.2025?",
    "на сколько встанет граница из-за праздников в Китае на следующей неделе?",
    "Марина, ты оригиналы инвойсов № 2025/117 в Забайкальск отправила?",
    "Oleg, did you send the CMR for truck 48213?",
    # a host's state now, a program's defaults, registries, fees, rates, legal advice
    "пингуется ли 10.0.0.5 сейчас?",
    "is there an outage at the Frankfurt data centre?",
    "what port does postgres listen on by default?",
    "зачем в Омске перевели часы в 2016 году?",
    "Кадастровая стоимость участка 50:21:010101:17?",
    "Есть ли обременения на доме 4?",
    "Какая госпошлина за смену фамилии?",
    "Сколько НДФЛ заплатит продавец дачи?",
    "What's the Central Bank key rate?",
    "What's the EUR to RUB rate today?",
    "what's the dirham rate today?",
    "что поменялось в законе об аренде с марта?",
    "Нужно ли нотариальное согласие супруги на продажу гаража?",
    "Is the passport office open on Saturday?",
    # a dose, a diagnosis, which doctor to see
    "What is the maximum dose of paracetamol for an adult?",
    "Какая дозировка амоксициллина ребёнку 15 кг?",
    "Her fasting glucose is 7.9, is that hyperglycemia?",
    "He asks whether to start metformin now",
    "К кардиологу или к неврологу записать пациента с головокружением?",
    "Какой диагноз поставить при таких анализах: 5.1 и 140?",
    # a market's price, a partner's reliability, an opinion
    "What's the current market price for sunflower seeds in Novorossiysk?",
    "Как думаешь, брать с них предоплату?",
    "Is the Egyptian importer Nile Grain reliable?",
    "Do you think we should extend them 60 days of credit?",
    # what the law allows, a visa, a mark
    "Можно ли по закону не аттестовать ученика за четверть?",
    "Do pupils from Finland need a visa for a 10-day exchange?",
    "Would you give this essay a 4 or a 5?",
    "Какую оценку поставить за такой ответ?",
    # a right in law, who pays, a tariff, the cheapest bank, today's rate, a letter's mark
    "Имеет ли право УК отключить воду должнику?",
    "Кто платит за ремонт потолка, если протекло сверху?",
    "Какой будет тариф на ГВС в Самаре с 01.07.2026?",
    "Which bank charges the lowest commission for paying bills online?",
    "What's today's RUB to EGP rate?",
    "Can you rate this motivation letter out of 10?",
    # whether a claim is true, who said a quote, a text put into another language
    "Правда ли, что мэр заявил о закрытии моста?",
    "Is it true that the bridge closes in 2026?",
    "Кто на самом деле автор цитаты «Город — карман России»?",
    "Who actually said 'the pocket of Russia'?",
    "Translate this lead into Russian: 'Flood waters receded on Monday.'",
    "Переведи заголовок на английский: «Мост закроют»",
    # whether a thing is genuine, what is wrong with a car, a maker's figure, a reply, a summary,
    # what the law allows, who wrote a letter, which supplier to take
    "Is this Bosch pad set genuine or a fake?",
    "Янтарная брошь — подлинная или новодел?",
    "Брошь из зала 5 — новодел?",
    "Grinding noise at 40 km/h when braking. What's wrong with it?",
    "What's the torque spec for the wheel bolts on a 2019 Tiguan?",
    "Напиши ответ клиенту с плохим отзывом про задержку",
    "Summarise 'Königsberg: Geschichte einer Stadt' for our newsletter",
    "Can we legally put scans of the 1920s letters online?",
    "Кто мог написать анонимное письмо 1923 года?",
    "Honestly, should we switch to the Chinese supplier? Their price is 18% lower.",
    # a figure of a year to come
    "What will the Russian VAT rate be in 2035?",
    "Какой будет НДС в 2030 году?",
])
def test_facts_of_the_world_judgements_and_legal_advice_are_out_of_scope(rule: RuleRouter,
                                                                          question: str) -> None:
    assert asks_world_fact(question) is not None
    assert rule.route(question).refusal.code == "OUT_OF_SCOPE"


@pytest.mark.parametrize("question", [
    "Какая ставка НДС при экспорте в Казахстан?",  # where goods go: the course's export rate
    "What is the VAT rate on exports to Kazakhstan?",
    "Проверь индекс 644099",
    "is this hyperlink 10.0.0.1 or a name?",  # no condition of a body named
])
def test_an_export_destination_and_a_given_postcode_are_no_world_facts(question: str) -> None:
    assert asks_world_fact(question) is None


@pytest.mark.parametrize("question", [
    "Отгружаем сыр покупателю в Казахстан на экспорт, таможенная декларация собрана. Какая ставка НДС?",
    "We export cheese to France with the customs declaration in hand. Which VAT rate applies?",
])
def test_a_country_goods_are_exported_to_leaves_the_question_in_scope(rule: RuleRouter,
                                                                      question: str) -> None:
    # the country is where the goods go; only another country's own VAT is out of scope
    decision = rule.route(question)
    assert decision.source is not Source.REFUSE, decision


def test_an_iban_by_its_shape_and_the_mod_97_check(rule: RuleRouter) -> None:
    assert holds_shape("id.validate_iban", "Is DE89 3704 0044 0532 0130 00 right?")
    assert not holds_shape("id.validate_iban", "Order AB12 arrived")
    decision = rule.route("Before we wire the refund to DE89 3704 0044 0532 0130 00, does it pass mod-97?")
    assert (decision.utility, decision.args) == ("id.validate_iban", {"iban": "DE89 3704 0044 0532 0130 00"})


def test_cities_name_their_time_zones_and_a_zone_named_twice_is_one(rule: RuleRouter) -> None:
    decision = rule.route("The supplier's call is at 2025-03-10 09:00 Moscow time. What is that on the "
                          "local clock in Vladivostok?")
    assert decision.utility == "date.convert_timezone"
    assert decision.args == {"datetime": "2025-03-10T09:00:00", "from_tz": "Europe/Moscow",
                             "to_tz": "Asia/Vladivostok"}
    twice = rule.route("When it is 2026-05-01 12:00 in Omsk (Asia/Omsk), what time is it in Tokyo "
                       "(Asia/Tokyo)?")
    assert twice.args["from_tz"] == "Asia/Omsk" and twice.args["to_tz"] == "Asia/Tokyo"


def test_round_half_to_even_written_with_hyphens(rule: RuleRouter) -> None:
    decision = rule.route("Round 2.675 to 2 decimals with round-half-to-even")
    assert decision.args == {"value": 2.675, "digits": 2, "mode": "half_even"}


def test_a_number_inside_a_quoted_name_is_no_quantity(rule: RuleRouter) -> None:
    decision = rule.route("Снижаем цену куртки «Норд 3» с 4 200 ₽ на 15 процентов — какая будет цена?")
    assert (decision.utility, decision.args) == ("money.discount", {"price": 4200, "percent": 15})


def test_a_spec_needs_more_than_two_shared_words_without_the_tax(rule: RuleRouter) -> None:
    from workbench.routing._spec_inputs import choose_spec

    counted = "Поставщик ждёт оплату 45 календарных дней от 03.02.2025. Какое число будет крайним сроком?"
    assert choose_spec(counted) is None
    decision = rule.route(counted)
    assert (decision.utility, decision.args) == ("date.add_days", {"date": "2025-02-03", "days": 45})
    # the tax's name makes the same words a spec's
    assert choose_spec("Экспорт по НДС: прошло 200 дней, успеваем ли мы в срок?") is not None


def test_an_amount_for_a_payment_order_in_words_is_the_money_utility(rule: RuleRouter) -> None:
    decision = rule.route("Сумму 48 300,50 ₽ для платёжного поручения напиши словами")
    assert (decision.utility, decision.args) == ("money.amount_in_words_ru", {"amount": 48300.5})


def test_an_address_split_into_fields(rule: RuleRouter) -> None:
    question = "Курьер просит адрес по отдельным полям: 644099, г. Омск, ул. Ленина, д. 5"
    decision = rule.route(question)
    assert (decision.utility, decision.args) == ("address.parse_ru",
                                                 {"address": "644099, г. Омск, ул. Ленина, д. 5"})


@pytest.mark.parametrize("question", [
    "клиент пишет: «адрес тот же, что в прошлом заказе». разбей его на поля",  # a pointer, quoted
    "адрес из письма: одна строка, символов 120, без индекса. разбей на поля",  # a description
    "Разбери по полям адрес прописки Зуева: он в Самаре, с корпусом, без индекса.",  # one more
])
def test_a_quoted_pointer_or_a_description_is_no_address(rule: RuleRouter, question: str) -> None:
    decision = rule.route(question)
    assert decision.source is Source.REFUSE, decision
    assert decision.refusal.numbers.get("utility") == "address.parse_ru"


def test_a_count_noun_before_its_number_counts_parts() -> None:
    assert describes_data("адрес: одна строка, символов 80")
    assert not describes_data("адрес: ул. Цифровая, 80")


@pytest.mark.parametrize(("question", "where"), [
    ("Pretty-print the response — it's in the Sentry event.", "it's in the"),
    ("Decode the token; it is sitting in ticket #4.", "it is sitting in ticket"),
    ("The brand colour hex is somewhere in the style guide.", "somewhere in the"),
    ("Check the IP; I'll dig it out of the log later.", "dig it out"),
    ("I don't have it handy, but is the order date a weekday?", "don't have it handy"),
    ("Validate the EAN printed on the pallet label.", "printed on the"),
    ("Проверь штрихкод, напечатанный на коробке.", "напечатанный на"),
    ("Выдели НДС из итога — итог возьми из накладной.", "возьми из"),
    ("Сверь контрольную цифру, цифры я не переписал.", "не переписал"),
    ("Посчитай дни до отгрузки, даты нет под рукой.", "нет под рукой"),
    ("Хеш акта посчитай, акт лежит на сетевом диске.", "лежит на"),
    ("Проверь КПП арендатора, он в скане устава.", "в скане"),
    ("Проверь СНИЛС, Ринат продиктует после обеда.", "продиктует"),
    ("Count the words of the memo, I'll paste it after the call.", "I'll paste"),
])
def test_words_that_say_where_the_data_sits(question: str, where: str) -> None:
    found = ELSEWHERE_WORDS.search(question)
    assert found is not None and found[0].lower() == where.lower()


@pytest.mark.parametrize("question", [
    "Is 2024 in the list of leap years?", "Найди в строке «a1b2» все цифры", "What is printed in bold?",
])
def test_words_that_keep_the_data_in_the_question(question: str) -> None:
    assert ELSEWHERE_WORDS.search(question) is None


@pytest.mark.parametrize(("question", "utility"), [
    ("Since 2025 is a leap year, which ISO week holds its February 29?", "date.is_leap_year"),
    ("Раз 2026 год високосный, сколько дней в феврале 2026?", "date.is_leap_year"),
    ("Given that 2025-03-10 is a Sunday, how many business days are left in that week?", "date.weekday"),
    ("Поскольку 12.06.2025 — пятница, какой будет дата через 3 дня?", "date.weekday"),
])
def test_a_calendar_premise_the_date_utilities_compute_otherwise_is_refused(
        rule: RuleRouter, question: str, utility: str) -> None:
    from workbench.refusal import falsehood_words
    from workbench.routing._asks import premise_text

    premise = unheld_premise(question)
    assert premise is not None and premise["utility"] == utility
    decision = rule.route(question)
    assert decision.refusal is not None and decision.refusal.code == "OUT_OF_SCOPE"
    text = premise_text(premise, question)
    assert falsehood_words(text) == [] and text == decision.refusal.text
    assert bool(re.search("[а-яё]", text)) == bool(re.search("[а-яё]", question))  # the question's language


@pytest.mark.parametrize("question", [
    "Since 2024 is a leap year, how many days does its February have?",
    "Поскольку 10.03.2025 — понедельник, какой будет дата через 3 дня?",
    "Given that 2025-06-12 is a Thursday, what date is 7 days later?",
])
def test_a_calendar_premise_that_holds_leaves_the_question(question: str) -> None:
    assert unheld_premise(question) is None


@pytest.mark.parametrize(("question", "utility", "text"), [
    ("ФИО в приказе набрано капсом: ЕГОРОВА АННА ПАВЛОВНА. Сделай каждое слово с заглавной буквы (title).",
     "text.change_case", "ЕГОРОВА АННА ПАВЛОВНА"),
    ("переведи латиницей по ГОСТ 7.79-2000 система Б: Орлов Илья Петрович — это для визовой анкеты",
     "text.transliterate", "Орлов Илья Петрович"),
    ("Transliterate for the visa form, ICAO: Сергей Воронцов — it's for the embassy letter",
     "text.transliterate", "Сергей Воронцов"),
])
def test_an_order_or_a_purpose_after_the_colons_text_is_no_part_of_it(rule: RuleRouter, question: str,
                                                                      utility: str, text: str) -> None:
    decision = rule.route(question)
    assert decision.utility == utility and decision.args["text"] == text
    # a sentence that is no order, and a dash that gives no purpose, stay in the text
    kept = "Посчитай слова: Москва — столица. Город большой."
    assert rule.bind("text.word_count", kept)["text"].text(kept) == "Москва — столица. Город большой."


def test_a_description_opening_with_a_pronoun_is_still_free_text(rule: RuleRouter) -> None:
    question = "Посчитай слова: он пришёл домой поздно"
    assert rule.bind("text.word_count", question)["text"].text(question) == "он пришёл домой поздно"
    quoted = 'Give me the MD5 of "they said yes"'
    assert rule.route(quoted).args == {"text": "they said yes"}


def test_an_own_name_is_a_whole_word_and_a_mode_named_by_the_data_is_no_data(rule: RuleRouter) -> None:
    assert "date.age" not in rule.keyword_scores("Send it to the Antalya agency")  # "age" of "agency"
    # «регистр» of «регистрации»
    assert "text.change_case" not in rule.keyword_scores("Для регистрации гостя")
    decision = rule.route("camelCase to snake_case for the var — it's 4 words, starts with 'enable'")
    assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE", decision


def test_a_word_inside_a_zones_name_is_no_out_of_scope_word(rule: RuleRouter) -> None:
    question = "How many hours from 2025-03-29 22:00 to 2025-03-30 08:00 in Europe/Stockholm?"
    decision = rule.route(question)
    assert decision.utility == "date.diff_hours", decision
    assert decision.args == {"start": "2025-03-29T22:00:00", "end": "2025-03-30T08:00:00",
                             "tz": "Europe/Stockholm"}


def test_a_whole_date_is_never_an_identifier(rule: RuleRouter) -> None:
    assert "isbn" not in rule.bind("id.validate_isbn", "Check the ISBN of the book out on 2025-01-31")
    assert rule.bind("id.validate_isbn", "Check ISBN 978-5-17-118366-0")["isbn"].value(
        "Check ISBN 978-5-17-118366-0") == "978-5-17-118366-0"


@pytest.mark.parametrize(("question", "utility", "args"), [
    ("контейнер TGHU 7730415 встал на СВХ 17.03.2025, хранение 10 дней — какое число будет через 10 дней?",
     "date.add_days", {"date": "2025-03-17", "days": 10}),
    ("из двух выгрузок список с повторами, оставь по одному:\nMSKU1234565\nMSKU1234565\nTGHU7730415",
     "text.dedupe_lines", {"text": "MSKU1234565\nMSKU1234565\nTGHU7730415"}),
    ("Gate-in at Khorgos logged 1741852800. What is that as local time in Asia/Almaty?", "date.from_unix",
     {"timestamp": 1741852800, "tz": "Asia/Almaty"}),
    ("приведи адрес для ТТН в стандартный вид: новосибирск, станционная улица 30а, 630108",
     "address.normalize_ru", {"address": "новосибирск, станционная улица 30а, 630108"}),
    ("в акте итого 186 000 ₽ включая НДС 20%. сколько там самого НДС?", "money.vat_extract",
     {"amount": 186000, "rate": 20}),
    ("Truck arrives 2025-04-08 at 06:30 Warsaw time. What time is that in Novosibirsk?",
     "date.convert_timezone", {"datetime": "2025-04-08T06:30:00", "from_tz": "Europe/Warsaw",
                               "to_tz": "Asia/Novosibirsk"}),
    ("водитель Шарафутдинов Рустем Ильдарович, в пропуск нужно латиницей по ICAO", "text.transliterate",
     {"text": "Шарафутдинов Рустем Ильдарович", "standard": "icao"}),
])
def test_the_forwarders_requests_are_bound(rule: RuleRouter, question: str, utility: str,
                                           args: dict) -> None:
    decision = rule.route(question)
    assert (decision.utility, decision.args) == (utility, args)


def test_capitals_before_a_long_number_make_it_an_identifier_but_a_currency_does_not(
        rule: RuleRouter) -> None:
    question = "Round TGHU 7730415 to 2 digits"
    assert 7730415 not in [span.value(question) for span in rule.bind("number.round", question).values()]
    assert rule.bind("number.round", "Round USD 12500.456 to 2 digits")["value"].value(
        "Round USD 12500.456 to 2 digits") == 12500.456


def test_a_year_a_count_starts_from_is_no_quantity(rule: RuleRouter) -> None:
    question = "Turn the timestamp into London time please — it's seconds since 1970, from my watch's log."
    assert "timestamp" not in rule.bind("date.from_unix", question)
    assert rule.route(question).source is Source.REFUSE
    year = "Is the year we have had the office since 2024 a leap year?"  # a year is still a year
    assert rule.bind("date.is_leap_year", year)["year"].value(year) == 2024


@pytest.mark.parametrize(("question", "utility", "argument"), [
    ("How many UTF-8 bytes is the consignee's name? It's 38 characters, Cyrillic and Latin.",
     "charset.utf8_length", "text"),
    ("топливная карта водителя — 16 цифр, начинается с 2200, кончается на 4417. по Луну проходит?",
     "id.luhn_check", "number"),
    ("тема письма пришла кракозябрами: UTF-8 прочитали как cp1251, строка символов на сорок. почини",
     "charset.fix_mojibake", "text"),
    ("поле пришло в hex, кодировка GB2312, 24 байта. раскодируй", "encoding.hex_decode", "data"),
])
def test_sizes_and_parts_without_the_value_are_circumstances(rule: RuleRouter, question: str,
                                                             utility: str, argument: str) -> None:
    decision = rule.route(question)
    assert decision.refusal is not None, decision
    assert (decision.refusal.code, decision.refusal.numbers) == _without(utility, argument, CIRCUMSTANCE)


def test_a_garbled_text_is_one_the_repair_changes(rule: RuleRouter) -> None:
    question = "Почини кракозябры: РЎРїР°СЃРёР±Рѕ"
    assert rule.route(question).args == {"text": "РЎРїР°СЃРёР±Рѕ"}
    plain = "Почини кракозябры: Спасибо"  # correct Russian: no misreading gives it back
    assert "text" not in rule.bind("charset.fix_mojibake", plain)


@pytest.mark.parametrize("question", [
    "Please, can you compute the MD5 of hello?",  # a polite opening is no colleague's name
    "Коллеги, какой день недели 03.03.2025?",
])
def test_an_opening_address_without_a_question_to_the_person_is_no_world_fact(question: str) -> None:
    assert asks_world_fact(question) is None


def test_a_charset_a_size_and_a_rough_count_name_no_data(rule: RuleRouter) -> None:
    assert "text" not in rule.bind("encoding.hex_encode", "Закодируй в hex, кодировка GB2312")
    assert describes_data("The payload is about 3 KB of JSON. Is it valid?")
    assert not describes_data("The payload weighs 3 kg. Is that heavy?")
    question = "Сколько байт в UTF-8: строка символов на сорок"
    assert "text" not in rule.bind("charset.utf8_length", question)


@pytest.mark.parametrize(("question", "utility", "argument"), [
    ("Проверь ИНН поставщика — Олег прислал его в 16:45", "id.validate_inn", "inn"),  # a time of day
    ("url-decode the string Pavel posted in #ops at 04:10", "encoding.url_decode", "data"),
    ("Разбери по полям адрес из заявки, тикет 5120", "address.parse_ru", "address"),  # a record's number
    ("Сумму из договора с Ивановыми (кв. 17) напиши прописью", "money.amount_in_words_ru", "amount"),
    ("Проверь СНИЛС сотрудника, кадровик ответит минут через 15", "id.validate_snils", "snils"),  # time
    ("напиши прописью сумму для расписки от 14.05", "money.amount_in_words_ru", "amount"),  # a short date
    ("what's the sha256 of the sshd config on db-msk-02?", "hash.sha256", "text"),  # a host
    ("Хеш выписки № 77/24 от 02.04.2025 посчитай, она лежит в папке «Архив»", "hash.sha256", "text"),
    ("Посчитай SHA-256 договора № 112/25", "hash.sha256", "text"),  # the number of a document
    ("какая маска у подсети клиента? прислали письмом в 23:40", "net.prefix_to_netmask", "prefix"),
    ("сумма задатка пятизначная, начинается на 42, напиши прописью", "money.amount_in_words_ru", "amount"),
    ("url-encode имя файла: латиница, два слова, длина 15 символов", "encoding.url_encode", "text"),
])
def test_a_time_a_records_number_a_short_date_and_a_host_give_no_value(
        rule: RuleRouter, question: str, utility: str, argument: str) -> None:
    assert argument not in rule.bind(utility, question)


def test_the_values_beside_those_names_are_still_bound(rule: RuleRouter) -> None:
    assert _numbered("Составь адрес: Казань, кв. 48", 27, place=True)
    assert not _numbered("Составь адрес: Казань, кв. 48", 27, place=False)  # a flat to an address
    factor = "Округли на 1.5 до целых"  # a date after «на» has two digits for its day and month
    assert rule.bind("number.round", factor)["value"].value(factor) == 1.5
    year = "Напиши 2025 год прописью"  # a year of the calendar counts no time
    assert rule.bind("number.to_words_ru", year)["n"].value(year) == 2025
    question = "Прописью для договора: продаём через 2 года за 5 000 000"
    assert rule.bind("money.amount_in_words_ru", question)["amount"].value(question) == 5000000
    host = "sha256 of «db-msk-02» please"
    assert rule.bind("hash.sha256", host)["text"].value(host) == "db-msk-02"


@pytest.mark.parametrize(("question", "utility", "argument"), [
    ("md5 of a 10-char token that starts with 'abc' — what is it?", "hash.md5", "text"),
    ("фамилия из 9 букв, заканчивается на «-ова», переведи латиницей по ГОСТ", "text.transliterate", "text"),
    ("expand our IPv6 address: it begins with 2001 and ends with ::8", "net.ipv6_expand", "ip"),
    ("url-encode the file name: Cyrillic, two words, 19 characters", "encoding.url_encode", "text"),
    ("Сколько слов в отчёте? там 5 страниц, строк по 30", "text.word_count", "text"),
    ("decode the hex: 40 hex chars from the modem's serial field", "encoding.hex_decode", "data"),
])
def test_a_value_described_by_its_parts_gives_no_span(rule: RuleRouter, question: str, utility: str,
                                                       argument: str) -> None:
    assert argument not in rule.bind(utility, question)
    assert rule.route(question).source is Source.REFUSE


def test_a_size_in_one_word_describes_the_data() -> None:
    assert describes_data("сумма пятизначная, прописью")
    assert describes_data("ИНН двенадцатизначный, проверь")
    assert not describes_data("сумма 52 000, прописью")
    assert describes_data("the serial is 32 hex chars")
    assert describes_data("в договоре 3 страницы")
    assert describes_data("строк по 40 на странице")


def test_a_tax_named_beside_a_computation_is_no_world_fact() -> None:
    assert asks_world_fact("13% от 48 000 — сколько это? хочу прикинуть НДФЛ") is None


@pytest.mark.parametrize(("question", "utility", "args"), [
    ("count lines and words in this:\nup 3\ndown 1", "text.stats", {"text": "up 3\ndown 1"}),
    ("dedupe these pls:\nx1.local\ny2.local\nx1.local", "text.dedupe_lines",
     {"text": "x1.local\ny2.local\nx1.local"}),
    ("need 10.0.0.1 as an integer for the table", "net.ip_to_int", {"ip": "10.0.0.1"}),
    ("в таблице IP хранится числом 167772161, какой это адрес?", "net.int_to_ip", {"n": 167772161}),
    ("unix ts for 2025-01-01T00:00:00 UTC please", "date.to_unix",
     {"datetime": "2025-01-01T00:00:00", "tz": "UTC"}),
    ("таймстамп 1700000000 — это сколько по Новосибу?", "date.from_unix",
     {"timestamp": 1700000000, "tz": "Asia/Novosibirsk"}),
    ("convert 2025-03-01T10:00:00 Berlin time to Novosibirsk", "date.convert_timezone",
     {"datetime": "2025-03-01T10:00:00", "from_tz": "Europe/Berlin", "to_tz": "Asia/Novosibirsk"}),
    ("the flat is 55 m2, what is it in sq ft?", "units.area",
     {"value": 55, "from_unit": "m2", "to_unit": "ft2"}),
    ("15 sotok (ares) — how many acres?", "units.area", {"value": 15, "from_unit": "a", "to_unit": "acre"}),
    ("приведи адрес к нормальному виду: москва тверская 7", "address.normalize_ru",
     {"address": "москва тверская 7"}),
    ("Приведи MAC 00-1A-2B-3C-4D-5F к нормальному виду", "net.mac_normalize", {"mac": "00-1A-2B-3C-4D-5F"}),
    ("Ипотека 3 000 000, ставка 8% годовых, срок 120 месяцев. Ежемесячный платёж?", "money.loan_payment",
     {"principal": 3000000, "annual_rate": 8, "months": 120}),
    ("make userAccountId kebab-case", "text.change_case", {"text": "userAccountId", "mode": "kebab"}),
    ("Займ 900 000 на 36 месяцев под 12% годовых — ежемесячный платёж?", "money.loan_payment",
     {"principal": 900000, "annual_rate": 12, "months": 36}),
    ("md5 от строки db-01:/srv/x нужен", "hash.md5", {"text": "db-01:/srv/x"}),
    ("md5 of this line exactly: foo bar\nthat's what the cron printed", "hash.md5", {"text": "foo bar"}),
    ("почини, выгрузилось так: РђРєС‚ РїСЂРёС‘РјР°-РїРµСЂРµРґР°С‡Рё РєРІР°СЂС‚РёСЂС‹ — срочно",
     "charset.fix_mojibake",
     {"text": "РђРєС‚ РїСЂРёС‘РјР°-РїРµСЂРµРґР°С‡Рё РєРІР°СЂС‚РёСЂС‹"}),
    # a clinic
    ("The webinar starts at 09:45 Moscow time on 02.12.2025. What time is that in Tokyo?",
     "date.convert_timezone",
     {"datetime": "2025-12-02T09:45:00", "from_tz": "Europe/Moscow", "to_tz": "Asia/Tokyo"}),
    ("Приём в 16:20 по Екб, 05.11.2025 — сколько будет по московскому?", "date.convert_timezone",
     {"datetime": "2025-11-05T16:20:00", "from_tz": "Asia/Yekaterinburg", "to_tz": "Europe/Moscow"}),
    ("sha1 от записи ID-7;2024-01-02;A для сверки", "hash.sha1", {"text": "ID-7;2024-01-02;A"}),
    ("md5 от A-17; потом скажу ещё", "hash.md5", {"text": "A-17"}),
    ("из лаборатории пришло: РђРЅР°Р»РёР· РєСЂРѕРІРё 5 РіРѕС‚РѕРІ — исправь, пожалуйста",
     "charset.fix_mojibake",
     {"text": "РђРЅР°Р»РёР· РєСЂРѕРІРё 5 РіРѕС‚РѕРІ"}),
    ("Total 12 000 RUB incl. VAT 20% — what is the net?", "money.vat_extract",
     {"amount": 12000, "rate": 20}),
    # a grain farm
    ("Ячмень 2 кл.: 1 500 000 руб без НДС, ставка 20%, посчитай сумму с НДС", "money.vat_add",
     {"amount": 1500000, "rate": 20}),
    ("Shop 12's revenue went from 400 to 520 — percent change?", "money.percent_change",
     {"old": 400, "new": 520}),
    ("Бухгалтерия: посчитай MD5 для строки из выгрузки: INV-77;2025-01-02", "hash.md5",
     {"text": "INV-77;2025-01-02"}),
    ('Convert to CSV: [{"a": 1}]', "format.json_to_csv", {"data": '[{"a": 1}]'}),
    ("Переведи CSV в JSON, разделитель точка с запятой:\nа;б\n1;2", "format.csv_to_json",
     {"data": "а;б\n1;2", "delimiter": ";"}),
    ("Lab has to finish between 3 November 2025 and 21 November 2025. how many weekdays is that?",
     "date.business_days", {"start": "2025-11-03", "end": "2025-11-21"}),
    ("find the postcode in this address: 350000, Краснодар, ул. Красная, д. 1", "address.extract_postcode",
     {"text": "350000, Краснодар, ул. Красная, д. 1"}),
    ("Call with the supplier is at 2025-03-03 10:00 Moscow time, what time is that in Dubai?",
     "date.convert_timezone", {"datetime": "2025-03-03T10:00:00", "from_tz": "Europe/Moscow",
                               "to_tz": "Asia/Dubai"}),
    # a school
    ("Латиницей по ИКАО для загранпаспорта: Хайруллина Айгуль Ильдаровна, 9В. Папа заберёт в 15:00.",
     "text.transliterate", {"text": "Хайруллина Айгуль Ильдаровна", "standard": "icao"}),
    ("Самостоятельная, вариант 2: перевести 110011 из двоичной системы в десятичную", "number.convert_base",
     {"value": "110011", "from_base": 2, "to_base": 10}),
    ("Посчитай символы и слова: Завтра уроков нет.", "text.stats", {"text": "Завтра уроков нет."}),
    ("Мясо выставили на 30 000 руб. без НДС. Сколько будет с НДС 20%?", "money.vat_add",
     {"amount": 30000, "rate": 20}),
    ("The group lands on 2 May 2025 and leaves on 9 May 2025. How many days are there between them?",
     "date.diff_days", {"start": "2025-05-02", "end": "2025-05-09"}),
    ("The lesson is at 2025-03-12 09:00 Kazan time, what time is that in Finland?", "date.convert_timezone",
     {"datetime": "2025-03-12T09:00:00", "from_tz": "Europe/Moscow", "to_tz": "Europe/Helsinki"}),
    # a booking's number, a count of guests, a guest's room, Sochi's time, square feet in Russian
    ("Luhn check for booking 71904: the card is 4276 3800 1234 5678", "id.luhn_check",
     {"number": "4276 3800 1234 5678"}),
    ("Ресторан: банкет на 35 персон, сумма без НДС 142 000 ₽. Начисли НДС 5%.", "money.vat_add",
     {"amount": 142000, "rate": 5}),
    ("гость в 507 продиктовал карту 4276 3800 1234 5678, проверь по Луну", "id.luhn_check",
     {"number": "4276 3800 1234 5678"}),
    ("Гость заехал 2025-07-20 в 03:15, выехал 2025-07-21 в 12:00, время сочинское. Сколько часов прожил?",
     "date.diff_hours",
     {"start": "2025-07-20T03:15:00", "end": "2025-07-21T12:00:00", "tz": "Europe/Moscow"}),
    ("Зал 240 м², агентство просит в квадратных футах. Переведи.", "units.area",
     {"value": 240, "from_unit": "m2", "to_unit": "ft2"}),
    # the words of a hotel and a newsroom for nights, a discount, a commission, a contract's end, a
    # list without repeats, a link's parameters, VAT inside a bill, a tax held, a correspondent's time
    ("Гость живёт с 14.07.2025 по 23.07.2025. Сколько это ночей?", "date.diff_days",
     {"start": "2025-07-14", "end": "2025-07-23"}),
    ("Rack rate is 14500, the agency gets 12% off. Net rate?", "money.discount",
     {"price": 14500, "percent": 12}),
    ("The agency earns 10% commission on 238000. How much do we owe?", "number.percent_of",
     {"value": 238000, "percent": 10}),
    ("The contract was signed 2025-01-31 and is valid for 6 months. When does it expire?", "date.add_months",
     {"date": "2025-01-31", "months": 6}),
    ("Убери повторы из списка:\n305\n412\n305", "text.dedupe_lines", {"text": "305\n412\n305"}),
    ("I need the query params: https://example.ru/a?b=1&c=2", "net.parse_url",
     {"url": "https://example.ru/a?b=1&c=2"}),
    ("Счёт на 48 000 руб. с НДС 20% — сколько в нём НДС?", "money.vat_extract",
     {"amount": 48000, "rate": 20}),
    ("Надо удержать 13% с гонорара 18 500 руб.", "number.percent_of", {"value": 18500, "percent": 13}),
    ("Лимит 60 знаков с пробелами. Сколько знаков в заголовке «Мост откроют в 2027 году»?", "text.stats",
     {"text": "Мост откроют в 2027 году"}),
    ("The presser is on 14 March 2025 at 09:30 Hanoi time. What is that in Moscow time?",
     "date.convert_timezone", {"datetime": "2025-03-14T09:30:00", "from_tz": "Asia/Ho_Chi_Minh",
                               "to_tz": "Europe/Moscow"}),
    # a record joined by bars, a value before a question or a remark, a name or a title before the
    # sentences about the booking or the page, a why said in passing, the mode named last, a table
    # by its lines, an address after its noun
    ("SHA-256 of the string booking58213|2025-07-14|412 as a test signature", "hash.sha256",
     {"text": "booking58213|2025-07-14|412"}),
    ("pasted into the tag field: %D0%9A%D1%81%D1%82 what does it say?", "encoding.url_decode",
     {"data": "%D0%9A%D1%81%D1%82"}),
    ("Сколько слов в описании: «Уютный номер с балконом»? Там лимит вроде 20.", "text.word_count",
     {"text": "Уютный номер с балконом"}),
    ("the guest name, room 114: Müller-Lüdenscheid, Jörg — url-encode it please", "encoding.url_encode",
     {"text": "Müller-Lüdenscheid, Jörg"}),
    ("Для регистрации латиницей (ICAO): Жанибеков Ерлан Сейтжанович. Номер 305, заезд в 14:00.",
     "text.transliterate", {"text": "Жанибеков Ерлан Сейтжанович", "standard": "icao"}),
    ("Сделай slug: Кремль закроют на реставрацию. Материал id 40877, публикация в 07:00", "text.slugify",
     {"text": "Кремль закроют на реставрацию"}),
    ("Passport-style (ICAO) spelling for the byline: Святослав Жмуркин. It runs on page 5.",
     "text.transliterate", {"text": "Святослав Жмуркин", "standard": "icao"}),
    ("no idea why it's encoded: 0JLRgdGC0YDQtdGH0LA= — can you decode it?", "encoding.base64_decode",
     {"data": "0JLRgdGC0YDQtdGH0LA="}),
    ("came in all lowercase, give me title case: serbian farmers block highway", "text.change_case",
     {"text": "serbian farmers block highway", "mode": "title"}),
    ("Округли 4,45 до одного знака, пятёрка округляется вверх (half up)", "number.round",
     {"value": 4.45, "digits": 1, "mode": "half_up"}),
    ("Convert this rooming list to JSON for the agency (arrival 14:00):\nname,room\nYilmaz,412",
     "format.csv_to_json", {"data": "name,room\nYilmaz,412"}),
    ("Письмо для рубрики «Обратная связь». Разбери адрес на части: 603005, г. Нижний Новгород, д. 10",
     "address.parse_ru", {"address": "603005, г. Нижний Новгород, д. 10"}),
    ("Письмо для «Обратной связи». Разбери адрес регистрации жильца: 443099, г. Самара, д. 5",
     "address.parse_ru", {"address": "443099, г. Самара, д. 5"}),
    # words of a car service and a library for working days, a warranty's last day, a passport's
    # spelling and a page's address; a quoted abstract, a remark in brackets, years of a change, a hall
    ("Lead time runs from June 2 to June 20, 2025. How many working days Mon–Fri is that?",
     "date.business_days", {"start": "2025-06-02", "end": "2025-06-20"}),
    ("Гарантия 30 дней с даты выдачи авто 14.03.2025. До какого числа действует?", "date.add_days",
     {"date": "2025-03-14", "days": 30}),
    ("I need our director's name spelled as in a passport (ICAO): Воробьёва Ксения Олеговна",
     "text.transliterate", {"text": "Воробьёва Ксения Олеговна", "standard": "icao"}),
    ("Сделай адрес для страницы события: «Янтарь и бумага»", "text.slugify", {"text": "Янтарь и бумага"}),
    ('Under 1500 characters. Give me the stats: "We hold 214 letters. Most came in 1990."', "text.stats",
     {"text": "We hold 214 letters. Most came in 1990."}),
    ("Сделай slug для страницы: Замена ремня ГРМ (цену 6 500 в адрес не надо).", "text.slugify",
     {"text": "Замена ремня ГРМ"}),
    ("закодируй для URL имя: Письма_Бессель_1834.pdf (скан 36 стр.)", "encoding.url_encode",
     {"text": "Письма_Бессель_1834.pdf"}),
    ('Generate a URL slug for the post titled "Faster CI Pipelines (2025 Edition)"', "text.slugify",
     {"text": "Faster CI Pipelines (2025 Edition)"}),
    ("Visitors were 18 420 in 2023 and 21 305 in 2024. What's the percent change?", "money.percent_change",
     {"old": 18420, "new": 21305}),
    ("Для витрины зала 3 нужен век римскими цифрами: 18 век.", "number.to_roman", {"n": 18}),
    ("Our company was founded in 1994; write that year in Roman numerals.", "number.to_roman", {"n": 1994}),
    ("We agreed with the Vilnius museum on a call at 14:00 Kaliningrad time on 15 October 2024. "
     "What time is that for them in Vilnius?", "date.convert_timezone",
     {"datetime": "2024-10-15T14:00:00", "from_tz": "Europe/Kaliningrad", "to_tz": "Europe/Vilnius"}),
    # a spec that leaves an input open gives way to a utility whose every argument is given
    ("Счёт по брони 58213 на 184 800 руб., НДС 20% уже внутри. Выдели сумму НДС", "money.vat_extract",
     {"amount": 184800, "rate": 20}),
    # words of a housing company and an admissions office; two words compared before a question mark
    # and a remark; a quote before a dash and a sentence; degrees written as a word
    ("Долг висит с 10.11.2024. Сколько дней пройдёт до 25.06.2025?", "date.diff_days",
     {"start": "2024-11-10", "end": "2025-06-25"}),
    ("Надбавка 15% к стипендии 3 140 руб. — это сколько в рублях?", "number.percent_of",
     {"value": 3140, "percent": 15}),
    ("претензию вручили 14.03.2025, даём 30 дней. какое число будет крайним?", "date.add_days",
     {"date": "2025-03-14", "days": 30}),
    ("Счёт на 128 400,00 руб., сумма с НДС 20%. Выделите НДС, пожалуйста.", "money.vat_extract",
     {"amount": 128400, "rate": 20}),
    ("Разберите адрес по полям: 443099, г. Самара, ул. Молодогвардейская, д. 151", "address.parse_ru",
     {"address": "443099, г. Самара, ул. Молодогвардейская, д. 151"}),
    ("What's the edit distance between Nguyen and Nguen? Need it for a form.", "text.levenshtein",
     {"a": "Nguyen", "b": "Nguen"}),
    ('Every match of \\d{5} in this line: "Received: 20931, 21004" — I only want the numbers.',
     "regex.find_all", {"pattern": "\\d{5}", "text": "Received: 20931, 21004"}),
    ("thermometer says 17 degrees C, whats that in F?", "units.temperature",
     {"value": 17, "from_unit": "C", "to_unit": "F"}),
    # "will" of a time to convert and of a remark: no question about the future
    ("The call is at 14:30 Kazan time on 12 March 2025. What time will it be in Finland?",
     "date.convert_timezone", {"datetime": "2025-03-12T14:30:00", "from_tz": "Europe/Moscow",
                               "to_tz": "Europe/Helsinki"}),
    ("The fee went up from 450 to 520 euros. What's the percent increase? Parents will ask.",
     "money.percent_change", {"old": 450, "new": 520}),
    ('проверь, валидный ли JSON: {"a": 1}', "format.json_validate", {"data": '{"a": 1}'}),
    ("Turn this CSV into JSON: a,b\n1,2", "format.csv_to_json", {"data": "a,b\n1,2"}),
    # «подсеть» names a network as «сети» does; edits apart is an edit distance; an IPv6 address
    # written out in full asks for nothing but its short form
    ("Сколько адресов в подсети 172.16.0.0/20?", "net.cidr_info", {"cidr": "172.16.0.0/20"}),
    ("How many edits apart are Tver and Tvere?", "text.levenshtein", {"a": "Tver", "b": "Tvere"}),
    ("what's the canonical way to write 2001:0db8:0000:0000:0000:ff00:0042:8329?", "net.ipv6_compress",
     {"ip": "2001:0db8:0000:0000:0000:ff00:0042:8329"}),
])
def test_requests_typed_in_their_situations_are_bound(
        rule: RuleRouter, question: str, utility: str, args: dict[str, object]) -> None:
    decision = rule.route(question)
    assert (decision.utility, decision.args) == (utility, args), decision


@pytest.mark.parametrize(("question", "utility", "argument"), [
    ("netmask for it? the MAC is 12 hex digits", "net.prefix_to_netmask", "prefix"),  # parts counted
    ("the plot is somewhere under 90 square metres, in sq ft?", "units.area", "value"),  # a bound
    ("Переведи таймстамп из лога, строка 5120, в московское время", "date.from_unix", "timestamp"),
    ("camelCase to snake_case for the var, it starts with 'get'", "text.change_case", "text"),
    # a policy's, a patient card's number, a phone, a day before a time, a room
    ("Проверь СНИЛС пациентки, полис 7712-44-001, карта 5521", "id.validate_snils", "snils"),
    ("check the INN on the insurance policy 0045-12-990", "id.validate_inn", "inn"),
    ("проверь ОГРН клиники, Тел. +7 343 200-15-15", "id.validate_ogrn", "ogrn"),  # a phone
    ("ИНН принесут к приёму 14.10 в 10:30", "id.validate_inn", "inn"),  # a day before a time
    ("проверь СНИЛС, пациент ждёт в каб. 305", "id.validate_snils", "snils"),  # a room
    # a plate, a document's number, a silo, a described token, a count
    ("ИНН перевозчика 12 цифр, машина А 123 ВС 77 на весовой", "id.validate_inn", "inn"),  # a plate
    ("truck K 455 BM 123 is at the gate, check the carrier's OGRN", "id.validate_ogrn", "ogrn"),
    ("Прописью сумму по договору 15/2024, сумма будет позже", "money.amount_in_words_ru", "amount"),
    ("silo 4 reads hot, convert the reading to C", "units.temperature", "value"),
    ("SHA-256 of our token, starting with ab12, I don't want to paste it here", "hash.sha256", "text"),
    ("convert today's CSV to JSON, we had 43 trucks", "format.csv_to_json", "data"),
    # a class, a room, a phone, a described value, data to be forwarded
    ("Урок в 10Б, сравним MD5", "hash.md5", "text"),  # a class
    ("md5 для 11А", "hash.md5", "text"),
    ("Hash with MD5 for the lesson with 10A", "hash.md5", "text"),
    ("Проверь ИНН поставщика, он в договоре. Телефон 8 (843) 200-11-22", "id.validate_inn", "inn"),
    ("Переведи в десятичную двоичное число с доски в 215 кабинете", "number.convert_base", "value"),
    ("Is the ISBN valid? 13 digits beginning 978-5-7, on the back cover", "id.validate_isbn", "isbn"),
    ("Transliterate a surname for the visa by ICAO, it begins with Хайр", "text.transliterate", "text"),
    ("Convert the slot of our call into Helsinki time, I'll forward the email", "date.convert_timezone",
     "datetime"),
    # a booking, a guest's room, a count of guests, a card's expiry, an article's id, a wire item
    ("Luhn check on the guarantee card for booking 71904", "id.luhn_check", "number"),
    ("Выдели НДС 20% из счёта по брони 58213", "money.vat_extract", "amount"),
    ("Выдели НДС 20% из счёта гостя из 415", "money.vat_extract", "amount"),
    ("Проверь по Луну карту, гость в 507 ждёт", "id.luhn_check", "number"),
    ("Начисли НДС 5% на банкет на 35 персон", "money.vat_add", "amount"),
    ("What's 10% of the group booking, 14 pax and 7 rooms?", "number.percent_of", "value"),
    ("Card is 16 digits, expiry 09/27. Does it pass Luhn?", "id.luhn_check", "number"),
    ("Посчитай знаки в заголовке материала id 40512", "text.stats", "text"),
    ("Convert the briefing's start to Moscow time, it's in item 2231", "date.convert_timezone", "datetime"),
    # a work order, an order, a reader, a shelf, a PO, a hall, a bay, the first and last digits,
    # check digits and a start without "with"
    ("Сумму прописью по наряду 1204", "money.amount_in_words_ru", "amount"),
    ("Проверь ИНН контрагента, заказ 880", "id.validate_inn", "inn"),
    ("Check the ISBN for reader 004512", "id.validate_isbn", "isbn"),
    ("Книга с полки 12-Б, проверь ISBN", "id.validate_isbn", "isbn"),
    ("PO 20931: convert the weight to lb", "units.mass", "value"),
    ("Римскими цифрами номер витрины для зала 3", "number.to_roman", "n"),
    ("Выдели НДС 20%, мастер в боксе 3", "money.vat_extract", "amount"),
    ("Проверь по Луну: первые 4276, последние 5678", "id.luhn_check", "number"),
    ("Check the BIK: starts 04 like all of them", "id.validate_bik", "bik"),
    ("Проверь СНИЛС: контрольное число 45", "id.validate_snils", "snils"),
    ("Check the BIK: nine digits, ends in 674. Invoice for 96 000 rub.", "id.validate_bik", "bik"),
    ("Проверь ISBN, шифр 63.3, полка 12", "id.validate_isbn", "isbn"),
    # a personal account, an applicant, a block, a room, an application, a group, the end of a value,
    # a room beside a postcode to check
    ("ИНН собственника, лицевой 1003381", "id.validate_inn", "inn"),
    ("Сумму прописью для ЛС 1004519", "money.amount_in_words_ru", "amount"),
    ("Write the total in English words, account 1002345", "number.to_words_en", "n"),
    ("СНИЛС у абитуриента 21003, проверь", "id.validate_snils", "snils"),
    ("Сумму прописью, блок 2, комн. 118", "money.amount_in_words_ru", "amount"),
    ("Транслитерируй ФИО, скан приложен к заявлению 20744", "text.transliterate", "text"),
    ("Сумму прописью по заявлению 20744", "money.amount_in_words_ru", "amount"),
    ("Проверь БИК: начинается на 04, в конце 728", "id.validate_bik", "bik"),
    ("Проверь индекс: начинается на 636, комната 305", "address.validate_postcode_ru", "postcode"),
])
def test_counted_parts_bounds_and_line_numbers_give_no_value(rule: RuleRouter, question: str, utility: str,
                                                            argument: str) -> None:
    assert argument not in rule.bind(utility, question)


def test_a_string_after_its_noun_is_still_the_string(rule: RuleRouter) -> None:
    question = "md5 строки 12345"
    assert rule.bind("hash.md5", question)["text"].value(question) == "12345"
    assert describes_data("a two-digit number of square metres")
    assert "text" not in rule.bind("text.change_case", "convert camelCase to snake_case please")



def test_a_bank_cards_number_after_the_word_card_is_still_the_data(rule: RuleRouter) -> None:
    decision = rule.route("Проверь по Луну, карта 5500000000000004")
    assert (decision.utility, decision.args) == ("id.luhn_check", {"number": "5500000000000004"})



@pytest.mark.parametrize(("question", "utility"), [
    ("How many characters is the reminder text? It is two lines, in Cyrillic", "text.stats"),
    ("сколько слов в тексте договора аренды? он на английском", "text.word_count"),
    ("сколько слов в памятке пациенту, она примерно на полстраницы", "text.word_count"),
    ("Fix the garbled subject line from the old mail server", "charset.fix_mojibake"),
])
def test_a_text_described_and_not_written_is_refused(rule: RuleRouter, question: str, utility: str) -> None:
    decision = rule.route(question)
    assert decision.source is Source.REFUSE
    assert decision.refusal.numbers.get("utility") == utility, decision


@pytest.mark.parametrize("question", [
    "How many characters is the reminder? It is two lines, in Cyrillic",
    "сколько слов в памятке, она примерно на полстраницы",
    "word count of the consent form, about a page long",
    "в письме три строки, сколько в нём символов?",
])
def test_lines_and_pages_counted_in_words_describe_the_data(question: str) -> None:
    assert describes_data(question)





@pytest.mark.parametrize("question", [
    "ИНН на фото накладной, проверь его", "скан счёта у меня в почте", "the reading is in the logbook",
    "I don't want to paste it here", "сумма будет после сверки", "I don't remember the amount",
    "сумму сама не помню", "I'll forward the email with the slot",
    "сумму скажу позже", "the card on file", "the start time is on the wire",
    "the card details are in the PMS", "он уже в CMS",
    "сумма в самом наряде", "он в карточке в 1С", "оно записано в описи", "ФИО записано у хранителя",
    "сумму кассир скинет после обеда",
    "он на обороте квитанции", "сумма в выписке по счёту", "указал в анкете", "he entered it on the portal",
    "the receipt is still in the mailbox downstairs", "скан паспорта приложен к заявлению",
])
def test_a_photo_a_mailbox_a_logbook_and_a_sum_to_come_hold_the_data_elsewhere(question: str) -> None:
    assert points_at_data_elsewhere(question)


def test_trigger_words_are_read_from_the_synonyms_table() -> None:
    from workbench.routing._asks import SYNONYMS
    from workbench.routing._tables import triggers

    assert SYNONYMS is triggers()
    assert SYNONYMS["hash.md5"] == ("md5", "мд5")
    assert RuleRouter().triggers["hash.md5"] == ("md5", "мд5")  # the id's own name is one of them


@pytest.mark.parametrize(("table", "message"), [
    ({"vocabularies": {}}, "no 'triggers' section"),
    ({"triggers": {"hash.nope": ["x"]}}, "triggers of 'hash.nope': no such utility"),
    ({"triggers": {"hash.md5": "md5"}}, "triggers of 'hash.md5': expected a list"),
    ({"triggers": {"hash.md5": ["MD5"]}}, "lower case and each is written once"),
    ({"triggers": {"hash.md5": ["md5", "md5"]}}, "lower case and each is written once"),
])
def test_a_malformed_trigger_table_names_its_file_and_entry(table, message) -> None:
    from workbench.routing._tables import RuleDataError, check_triggers

    with pytest.raises(RuleDataError, match=re.escape(message)) as info:
        check_triggers(table, "t.yaml", frozenset({"hash.md5"}))
    assert str(info.value).startswith("t.yaml: ")


PATTERN_ERRORS = [
    ("unknown keys ['patern']", {"x": {"patern": "a"}}),
    ("give exactly one of 'pattern' and 'any_of'", {"x": {"pattern": "a", "any_of": ["b"]}}),
    ("give exactly one of 'pattern' and 'any_of'", {"x": {"doc": "nothing to find"}}),
    ("'before' and 'after' go with 'any_of' only", {"x": {"pattern": "a", "after": "b"}}),
    ("a pattern is a string", {"x": {"any_of": "a|b"}}),
    ("the pattern does not compile", {"x": {"pattern": "(?:a"}}),
    ("flags must be a list of", {"x": {"pattern": "a", "flags": ["VERBOSE"]}}),
    ("unknown reference {{nope}}", {"x": {"pattern": "a{{nope}}"}}),
    ("circular reference", {"x": {"pattern": "{{y}}"}, "y": {"pattern": "{{x}}"}}),
    ("expected a mapping", {"x": "a|b"}),
]
"""Each malformed pattern file and what its error says (after the file's and the entry's names)."""


@pytest.mark.parametrize(("message", "data"), PATTERN_ERRORS)
def test_a_malformed_pattern_file_names_its_file_and_entry(message, data) -> None:
    from workbench.routing._tables import RuleDataError, compile_patterns

    with pytest.raises(RuleDataError, match=re.escape(message)) as info:
        compile_patterns(data, "p.yaml")
    assert str(info.value).startswith("p.yaml: entry 'x'")


def test_a_pattern_entry_joins_its_alternatives_and_references() -> None:
    from workbench.routing._tables import compile_patterns

    entries = compile_patterns({
        "word": {"before": r"(?<!\w)(?:", "any_of": ["kg", "{{unit}}"], "after": r")(?!\w)",
                 "flags": ["IGNORECASE"]},
        "unit": {"pattern": "lbs?"}}, "p.yaml")
    assert entries["word"].regex.pattern == r"(?<!\w)(?:kg|lbs?)(?!\w)"
    assert entries["word"].regex.search("5 LB").group() == "LB"
    assert entries["word"].regex.search("kgs") is None


@pytest.mark.parametrize(("entry", "message"), [
    ({"pattern": "a", "role": "owner"}, "unknown role 'owner'"),
    ({"pattern": "a", "role": "names_a_thing"}, "needs a window"),
    ({"pattern": "a", "role": "names_a_thing", "window": 24, "scope": "room"}, "scope is 'place'"),
    ({"pattern": "a", "role": "names_a_thing", "window": 24, "unless_value": "card"}, "names no entry"),
    ({"pattern": "a", "role": "unnamed", "window": 24}, "go with role names_a_thing only"),
])
def test_a_malformed_not_a_value_entry_names_its_file_and_entry(entry, message) -> None:
    from workbench.routing._tables import (
        NOT_A_VALUE_KEYS,
        RuleDataError,
        check_not_a_value,
        compile_patterns,
    )

    with pytest.raises(RuleDataError, match=re.escape(message)) as info:
        check_not_a_value(compile_patterns({"x": entry}, "n.yaml", extra_keys=NOT_A_VALUE_KEYS), "n.yaml")
    assert str(info.value).startswith("n.yaml: entry 'x'")


def test_the_shipped_data_files_load_and_are_read_by_name() -> None:
    from workbench.routing._tables import not_a_value, rule_patterns

    patterns, contexts = rule_patterns(), not_a_value()
    assert len(patterns.entries) > 100 and len(contexts.entries) > 30
    assert contexts.clock.search("в 14:20") is not None
    with pytest.raises(AttributeError, match="no pattern named 'nope'"):
        _ = patterns.nope
    # each "shape <utility>" and "alphabet <utility>" entry names a utility of the catalog
    catalog = load_catalog().schemas
    assert set(patterns.prefixed("shape ")) <= set(catalog)
    assert set(patterns.prefixed("alphabet ")) <= set(catalog)


@pytest.mark.parametrize(("question", "start_text", "place", "named"), [
    ("Читатель 004512 сдаёт книгу", "004512", True, True),          # a record's noun
    ("счёт № 118 на сумму", "118", True, True),                     # a numbering sign
    ("карта 7781, давление", "7781", True, True),                   # a patient's card
    ("карта 4111 1111 1111 1111 — проверь", "4111", True, False),   # a bank card's number is data
    ("строка 12044, столбец 3", "12044", True, True),               # a line's number, closed by a comma
    ("хеш строки 12345", "12345", True, False),                     # the string itself
    ("кв. 48, индекс", "48", True, True),                           # a place, for most utilities
    ("кв. 48, индекс", "48", False, False),                         # a part of an address
])
def test_the_not_a_value_interpreter_reads_the_contexts_before_a_value(question, start_text, place,
                                                                       named) -> None:
    assert _numbered(question, question.index(start_text), place) is named


def test_unnamed_spans_are_times_phones_and_plates() -> None:
    from workbench.routing._values import unnamed_spans

    question = "Машина А 347 КХ 123 приехала в 14:20, тел. +7 343 200-15-15"
    found = {question[s:e] for s, e in unnamed_spans(question)}
    assert {"А 347 КХ 123", "14:20", "+7 343 200-15-15"} <= found


def test_a_moment_written_with_or_without_seconds_is_one_value() -> None:
    gold = {"source": "utility", "utility": "date.diff_hours",
            "args": {"start": "2025-10-24T16:00", "end": "2025-10-27T10:00", "tz": "Europe/Berlin"}}
    bound = RouterDecision(source=Source.UTILITY, utility="date.diff_hours", args={
        "start": "2025-10-24T16:00:00", "end": "2025-10-27T10:00:00", "tz": "Europe/Berlin"})
    assert score_decision(gold, bound).correct
    later = RouterDecision(source=Source.UTILITY, utility="date.diff_hours", args={
        "start": "2025-10-24T16:00:01", "end": "2025-10-27T10:00:00", "tz": "Europe/Berlin"})
    assert score_decision(gold, later).error == "wrong_argument_value"
    # a text is compared as written, whatever it looks like
    text = {"source": "utility", "utility": "hash.md5", "args": {"text": "2025-10-24T16:00"}}
    seconds = RouterDecision(source=Source.UTILITY, utility="hash.md5", args={"text": "2025-10-24T16:00:00"})
    assert score_decision(text, seconds).error == "wrong_argument_value"


def test_a_questions_keyword_scores_and_bindings_are_read_once_and_handed_out_as_copies(monkeypatch) -> None:
    router = RuleRouter()
    calls = []
    real = router._keyword_scores
    monkeypatch.setattr(router, "_keyword_scores", lambda q: calls.append(q) or real(q))
    question = "Посчитай sha256 от строки «абв»"
    decided = router.route(question)
    assert router.keyword_scores(question) == real(question) and calls == [question]
    scores = router.keyword_scores(question)
    scores["hash.md5"] = 99
    assert "hash.md5" not in router.keyword_scores(question)
    spans = router.bind("hash.sha256", question)
    spans.pop("text")
    assert "text" in router.bind("hash.sha256", question)
    router.route("Посчитай md5 от строки «где»")
    assert calls[-1] == "Посчитай md5 от строки «где»" and router.route(question) == decided


@pytest.mark.parametrize(("data", "message"), [
    ({"OUT_OF_SCOPE": {"en": "a", "ru": "б"}}, "'*' among them"),
    (["*"], "'*' among them"),
    ({"*": {"en": "a"}}, "entry '*': expected a text in each of ('en', 'ru')"),
    ({"*": {"en": "a", "ru": ""}}, "entry '*': expected a text in each of ('en', 'ru')"),
    ({"*": {"en": "a", "ru": "б", "de": "c"}}, "entry '*': expected a text in each of ('en', 'ru')"),
])
def test_a_malformed_refusal_text_file_names_its_file_and_entry(data, message) -> None:
    from workbench.routing._tables import RuleDataError, check_refusal_texts

    with pytest.raises(RuleDataError, match=re.escape(message)) as info:
        check_refusal_texts(data, "r.yaml")
    assert str(info.value).startswith("r.yaml: ")


def test_the_shipped_refusal_texts_are_in_both_languages_and_judge_nothing() -> None:
    from workbench.refusal import falsehood_words
    from workbench.routing._tables import refusal_texts

    texts = refusal_texts()
    assert "*" in texts and "MISSING_ARGUMENT:utility" in texts
    for key, by_lang in texts.items():
        assert not re.search("[А-Яа-яЁё]", by_lang["en"]), key
        assert not re.search("[A-Za-z]", re.sub(r"\{\w+(?:\[\d+\])?\}", "", by_lang["ru"])), key
        assert all(falsehood_words(t) == [] for t in by_lang.values()), key
