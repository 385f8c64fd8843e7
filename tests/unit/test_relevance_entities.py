"""The entity rule: what counts as an entity and how it is matched (table-driven)."""

from __future__ import annotations

import pytest

from workbench.registry import build
from workbench.relevance import DocumentScope, extract_entities, missing_entities

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
    ("Когда переполнится 32-битный time_t?", [("32-битный", "number"), ("time", "latin")]),
    # options and flags are whole entities; a single letter or a bare punctuation literal is not
    ("Что делает ключ -v у команды?", [("-v", "option")]),
    ("What does --recursive do with -R?", [("--recursive", "option"), ("-R", "option")]),
    ("Что значит ключ /S в xcopy?", [("/S", "option"), ("xcopy", "latin")]),
    ("Как задать `--no-color`?", [("--no-color", "option")]),
    ("Что делает `*` в шаблоне по оси X?", []),
    ("Какой IPv6-адрес и HTML-ссылка - это?", [("IPv6", "identifier"), ("HTML", "abbreviation")]),
]

LEGACY_EXTRACTION = [
    ("Когда переполнится 32-битный time_t?", [("32-битный", "number"), ("time", "latin"),
                                              ("t", "latin")]),
    ("Что делает ключ -v у команды?", [("v", "latin")]),
    ("Что делает `*` в шаблоне по оси X?", [("*", "literal"), ("X", "latin")]),
]


@pytest.mark.parametrize(("question", "expected"), LEGACY_EXTRACTION)
def test_extraction_without_options_keeps_every_token(
        question: str, expected: list[tuple[str, str]]) -> None:
    assert [(e.text, e.kind) for e in extract_entities(question, options=False)] == expected


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
    # an option only in its full spelling, case included
    ("Что делает ключ -v?", "ключ -v выводит подробности", []),
    ("Что делает ключ -v?", "ключ -verbose выводит подробности", ["-v"]),
    ("Что делает ключ -v?", "ключ -V выводит версию", ["-v"]),
    ("Что делает ключ -v?", "v: подробный вывод", ["-v"]),
    ("What does --recursive do?", "With --recursive, folders are copied", []),
    ("What does --recursive do?", "With --recursive-links, links are kept", ["--recursive"]),
    ("Что значит /S в xcopy?", "xcopy /S копирует подкаталоги", []),
    ("Что значит /S в xcopy?", "xcopy /s копирует подкаталоги", ["/S"]),
]


@pytest.mark.parametrize(("question", "fragment", "missing"), MATCHING)
def test_matching_at_word_boundaries(question: str, fragment: str, missing: list[str]) -> None:
    assert missing_entities(question, fragment) == missing


NO_SCOPE = DocumentScope()


def test_registered_rules_give_verdicts() -> None:
    rule = build("relevance_rule", "entities")
    verdict = rule("Длина SHA-384?", "SHA-256 даёт 256 бит", "ru", NO_SCOPE)
    assert verdict.fired and verdict.missing == ("SHA-384",)
    lang = build("relevance_rule", "lang-match")
    assert lang("Что такое JSON?", "JSON is a text format", "ru", NO_SCOPE).fired
    assert not lang("Что такое JSON?", "JSON — текстовый формат", "ru", NO_SCOPE).fired
    coverage = build("relevance_rule", "term-coverage", min_share=0.5)
    assert coverage("ставка налога на экспорт", "ставка налога", "ru",
                    NO_SCOPE).missing == ("экспорт",)
    assert not coverage("ставка налога на экспорт", "ставка налога", "ru", NO_SCOPE).fired
    assert coverage("ставка налога на экспорт товаров", "ставка", "ru", NO_SCOPE).fired
    # the title still scopes the fragment for the coverage rule
    assert not coverage("ставка налога на экспорт товаров", "ставка",
                        "ru", DocumentScope("a.md", "Экспорт товаров")).fired


SCOPED = [
    # (question, fragment, scope, missing with the scope, missing without it)
    ("Что делает диалог Levels в GIMP?", "Этот диалог меняет яркость.",
     DocumentScope("gimp/gimp-tool-levels.html", "Уровни"), [], ["Levels", "GIMP"]),
    ("Как открыть Параметры загрузки в LibreOffice?", "Выберите Сервис - Параметры.",
     DocumentScope("libreoffice/text/shared/optionen/01020000.html",
                   "Параметры загрузки/сохранения"), [], ["LibreOffice"]),
    ("Что делает диалог Curves в GIMP?", "Этот диалог меняет яркость.",
     DocumentScope("gimp/gimp-tool-levels.html", "Уровни"), ["Curves"], ["Curves", "GIMP"]),
    # a middle folder names only a capitalised name of four letters or more inside it
    ("Что такое shared в Impress?", "Слайд.",
     DocumentScope("libreoffice/text/shared/x.html", ""), ["shared", "Impress"],
     ["shared", "Impress"]),
    ("Какое имя получает новый раздел в Writer?", "Имя раздела можно изменить.",
     DocumentScope("libreoffice/text/swriter/01/04020100.html", "Вставить раздел"), [],
     ["Writer"]),
    ("Что возвращает функция Shell в Basic?", "Возвращает номер задачи.",
     DocumentScope("libreoffice/text/sbasic/shared/03130500.html", "Функция Shell"), [],
     ["Shell", "Basic"]),
    ("Что делает Git в Impress?", "Слайд.",
     DocumentScope("libreoffice/text/sgit/simpress/x.html", ""), ["Git"], ["Git", "Impress"]),
]


@pytest.mark.parametrize(("question", "fragment", "scope", "with_scope", "without"), SCOPED)
def test_an_entity_naming_the_document_is_satisfied_by_its_scope(
        question: str, fragment: str, scope: DocumentScope, with_scope: list[str],
        without: list[str]) -> None:
    assert missing_entities(question, fragment, scope=scope) == with_scope
    assert missing_entities(question, fragment) == without
    scoped = build("relevance_rule", "entities")
    assert list(scoped(question, fragment, "ru", scope).missing) == with_scope
    title_only = build("relevance_rule", "entities", document_scope=False)
    assert list(title_only(question, fragment, "ru", scope).missing) == [
        e for e in without if e not in scope.title]
