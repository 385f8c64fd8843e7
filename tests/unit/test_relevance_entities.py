"""The entity rule: what counts as an entity and how it is matched (table-driven)."""

from __future__ import annotations

import pytest

from workbench.registry import build
from workbench.relevance import extract_entities, missing_entities

EXTRACTION = [
    ("Сколько байтов занимает буква кириллицы в UTF-8?", [("UTF-8", "identifier")]),
    ("Какая ставка НДС была в 2019 году?", [("2019 году", "number"), ("НДС", "abbreviation")]),
    ("What is the VAT rate on exports from Russia?",
     [("VAT", "abbreviation"), ("Russia", "proper_noun")]),
    ("Зачем Крокфорд убрал комментарии из JSON?",
     [("Крокфорд", "proper_noun"), ("JSON", "abbreviation")]),
    ("How long is a SHA-384 digest?", [("SHA-384", "identifier")]),
    ("Что делает `b64encode` в Python?", [("b64encode", "literal"), ("Python", "latin")]),
    ("Какой длины ИНН у физлица, 12 цифр?", [("12 цифр", "number"), ("ИНН", "abbreviation")]),
    ("How many UUIDs fit?", [("UUIDs", "abbreviation")]),
    ("Как работает padding в Base64?", [("padding", "latin"), ("Base64", "identifier")]),
    ("Why is 10% charged on food?", [("10%", "number")]),
    ("How many hosts fit in a /24 network?", []),
    ("Что такое кодировка?", []),
    ("Как записать букву числовой HTML-ссылкой?", [("HTML", "abbreviation")]),
    ("Как сократить IPv6-адрес?", [("IPv6", "identifier")]),
    ("Какой длины хеш ГОСТ Р 34.11-94?", [("ГОСТ", "abbreviation"), ("34.11-94", "identifier")]),
    ("Does encodeURIComponent encode a plus?", [("encodeURIComponent", "identifier")]),
    ("Сколько адресов в 198.18.0.0/15?", [("198.18.0.0/15", "identifier")]),
    ("Когда переполнится 32-битный time_t?", [("32-битный", "number"), ("time", "latin"),
                                              ("t", "latin")]),
]


@pytest.mark.parametrize(("question", "expected"), EXTRACTION)
def test_extraction(question: str, expected: list[tuple[str, str]]) -> None:
    assert [(e.text, e.kind) for e in extract_entities(question)] == expected


MATCHING = [
    # (question, fragment, missing)
    ("Что такое UTF-8?", "Кодировка utf8 хранит символы", []),
    ("Что такое UTF-8?", "Кодировка UTF-16 хранит символы", ["UTF-8"]),
    ("Длина SHA-384?", "SHA-3 и SHA-256 дают 256 бит", ["SHA-384"]),
    ("Ставка НДС на экспорт?", "НДС-а при экспорте нет", []),
    ("Ставка НДС на экспорт?", "ндс при экспорте", ["НДС"]),
    ("Зачем Крокфорд убрал комментарии?", "Дуглас Крокфорда объяснял", []),
    ("Зачем Крокфорд убрал комментарии?", "Автор формата объяснял", ["Крокфорд"]),
    ("What did Norway change?", "The Norway problem in YAML", []),
    ("What did Norway change?", "Norwegian booleans", ["Norway"]),
    ("Сколько стоит 22% НДС?", "ставка НДС 22 % с 2026 года", []),
    ("Сколько стоит 22% НДС?", "ставка НДС 122 процента", ["22%"]),
    ("Какой BOM у UTF-8 в `EF BB BF`?", "метка EF BB BF в UTF-8, BOM", []),
    ("Какой BOM у UTF-8 в `EF BB BF`?", "метка ef bb bf в UTF-8, BOM", ["EF BB BF"]),
    ("Why JSONs break?", "JSON texts", []),
    ("Что значит KOI8-R?", "koi8r — это", []),
    ("Что значит KOI8-R?", "KOI8-RU — это", ["KOI8-R"]),
    ("Что такое U+1F600?", "эмодзи U+1F600 лежит вне BMP", []),
    ("Почему Etc/GMT-3 это UTC+3?", "зона Etc/GMT-3 равна UTC+3", []),
    ("Почему Etc/GMT-3 это UTC+3?", "зона Etc/GMT+3 равна UTC-3", ["Etc/GMT-3", "UTC+3"]),
    ("What is the VAT rate in Russia?", "the Russian VAT rate", []),
    ("Что делает cmd.exe?", "консоль cmd.exe", []),
    ("Какой длины хеш ГОСТ Р 34.11-94?", "ГОСТ Р 34.11-2012 «Стрибог»", ["34.11-94"]),
    ("How many characters in Unicode 14.0?", "Unicode 15.0 defines 149,186", ["14.0"]),
]


@pytest.mark.parametrize(("question", "fragment", "missing"), MATCHING)
def test_matching_at_word_boundaries(question: str, fragment: str, missing: list[str]) -> None:
    assert missing_entities(question, fragment) == missing


def test_registered_rules_give_verdicts() -> None:
    rule = build("relevance_rule", "entities")
    verdict = rule("Длина SHA-384?", "SHA-256 даёт 256 бит", "ru")
    assert verdict.fired and verdict.missing == ("SHA-384",)
    lang = build("relevance_rule", "lang-match")
    assert lang("Что такое JSON?", "JSON is a text format", "ru").fired
    assert not lang("Что такое JSON?", "JSON — текстовый формат", "ru").fired
    coverage = build("relevance_rule", "term-coverage", min_share=0.5)
    assert coverage("ставка налога на экспорт", "ставка налога", "ru").missing == ("экспорт",)
    assert not coverage("ставка налога на экспорт", "ставка налога", "ru").fired
    assert coverage("ставка налога на экспорт товаров", "ставка", "ru").fired
