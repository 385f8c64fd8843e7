"""The answer-type rule: question types by lemma, and what an English or numeric answer holds.

Russian names and organisations come from natasha's NER model, tested in
``tests/integration/test_answer_type_ner.py``.
"""

from __future__ import annotations

import pytest

from workbench.registry import build
from workbench.relevance import DocumentScope, missing_answer_kind, question_type
from workbench.relevance._answer_type import KIND_NAMES, QUESTION_TYPES, defines_person

TYPES = [
    ("Кто придумал JSON?", "who"),
    ("Кем был предложен этот формат?", "who"),
    ("Кому принадлежит домен?", "who"),
    ("Когда вышел Unicode 15?", "when"),
    ("В каком году приняли стандарт?", "when"),
    ("В котором году он появился?", "when"),
    ("Сколько байтов занимает символ?", "how_many"),
    ("Who designed JSON?", "who"),
    ("Whose idea was YAML?", "who"),
    ("When did Unicode 15 come out?", "when"),
    ("In what year was UTF-8 designed?", "when"),
    ("How many bits are in a byte?", "how_many"),
    ("How much VAT is charged?", "how_many"),
    ("Что такое JSON?", None),
    ("Какой год високосный?", None),
    ("What is a year in seconds?", None),
    ("Which year did JSON appear?", "when"),
    ("Подскажите, когда вышел Unicode 15?", "when"),
    ("Скажите, кто придумал JSON?", "who"),
    # the first question word decides: a later «when» joins two clauses
    ("What does the bSync parameter do when set to true?", None),
    ("Что произойдёт, когда файл закроется?", None),
    ("How many rows are left when a filter is on?", "how_many"),
]


@pytest.mark.parametrize(("question", "expected"), TYPES)
def test_question_type_from_lemmas(question: str, expected: str | None) -> None:
    assert question_type(question) == expected


KINDS = [
    # (question, fragment, missing kind)
    ("Who designed JSON?", "JSON was specified by Douglas Crockford in 2001.", None),
    ("Who designed JSON?", "it is a text format for data.", "person"),
    ("When was JSON specified?", "JSON was specified in 2001.", None),
    ("When was JSON specified?", "JSON was specified on March 5 by its author.", None),
    ("When was JSON specified?", "JSON was specified by its author.", "date"),
    ("Когда вышел стандарт?", "Стандарт вышел 1 сентября.", None),
    ("Когда вышел стандарт?", "Стандарт вышел 01.09.2020.", None),
    ("Когда вышел стандарт?", "Стандарт вышел в сентябре.", "date"),
    ("Когда вышел стандарт?", "Стандарт ГОСТ 34.11-94 действует.", "date"),
    ("Сколько бит в байте?", "В байте восемь бит.", None),
    ("Сколько бит в байте?", "В байте 8 бит.", None),
    ("Сколько бит в байте?", "Байт состоит из битов.", "number"),
    ("How many bits in a byte?", "A byte has eight bits.", None),
    ("How many bits in a byte?", "A byte is made of bits.", "number"),
    ("Что такое байт?", "Байт состоит из битов.", None),
    # a definition of a person answers "who" though it names no one
    ("Кто такой налоговый агент?", "Налоговый агент — это лицо, на которое возложена "
     "обязанность удержать налог.", None),
    ("Кто такой самозанятый?", "Самозанятый — это человек, который получает доход от личной "
     "деятельности.", None),
    ("Кто подписывает заявление?", "Заявление подписывает тот, кто его подаёт.", None),
    ("Кто получает уведомление?", "Уведомление получают все, кто подал декларацию.", None),
    ("Кто ведёт реестр?", "Реестр ведёт организация, которая отвечает за зону.", None),
    ("Who is a tax agent?", "A tax agent is a person who withholds tax for another.", None),
    ("Who signs the form?", "the form is signed by anyone who files it.", None),
    ("Who runs the registry?", "the registry is run by an organisation that keeps the zone.",
     None),
    ("Who runs the registry?", "it is unclear who keeps the zone file.", "person"),
    ("Who runs the registry?", "the registry is a file that keeps the zone.", "person"),
    # a century answers "when"; a noun that names a number answers "how many"
    ("Когда появилась кириллица?", "Кириллица появилась в IX веке.", None),
    ("Когда появилась кириллица?", "Кириллица появилась в 9-м веке.", None),
    ("When did the alphabet appear?", "It appeared in the 9th century.", None),
    ("When did the alphabet appear?", "It appeared in the ninth century.", None),
    ("When did the alphabet appear?", "It appeared in the ninth chapter.", "date"),
    ("When did the alphabet appear?", "It appeared in the nineteenth century.", None),
    ("Когда появилась кириллица?", "Кириллица появилась давно.", "date"),
    ("Сколько символов в таблице?", "В таблице тысяча символов.", None),
    ("Сколько яиц в коробке?", "В коробке дюжина яиц.", None),
    ("Сколько яиц в коробке?", "В коробке яйца.", "number"),
]


@pytest.mark.parametrize(("question", "fragment", "missing"), KINDS)
def test_the_fragment_holds_the_kind_asked_for(question: str, fragment: str,
                                               missing: str | None) -> None:
    assert missing_answer_kind(question, fragment) == missing


def test_registered_rule_names_the_missing_kind() -> None:
    rule = build("relevance_rule", "answer-type")
    verdict = rule("Сколько бит в байте?", "Байт состоит из битов.", "ru", DocumentScope())
    # the kind's key: each language names it in its own words (KIND_NAMES)
    assert verdict.fired and verdict.missing == ("number",)
    assert not rule("Что такое байт?", "Байт состоит из битов.", "ru", DocumentScope()).fired


DEFINITIONS = [
    # (text, defines a person or an organisation)
    ("Налоговый агент — это лицо, на которое возложена обязанность.", True),
    ("Это человек, который получает доход.", True),
    ("Специалист, которому поручена проверка, подписывает акт.", True),
    ("Подписывает тот, кто подаёт.", True),
    ("Каждый, кто подал заявление, получает ответ.", True),
    ("Реестр ведёт компания, которая отвечает за зону.", True),
    ("Файл, который лежит в папке, читается первым.", False),
    ("Это формат, в котором хранятся данные.", False),
    ("Узнай, кто владелец домена.", False),
    ("Налог, который платят все, удерживается сразу.", False),
    ("A tax agent is a person who withholds tax.", True),
    ("The maintainers who review patches merge them.", True),
    ("Those who file late pay a fine.", True),
    ("The registry is run by a company that keeps the zone.", True),
    ("It is unclear who keeps the zone file.", False),
    ("Who keeps the zone file is not said.", False),
    ("A format that stores data in rows.", False),
]


@pytest.mark.parametrize(("text", "expected"), DEFINITIONS)
def test_a_definition_of_a_person_counts_as_a_person(text: str, expected: bool) -> None:
    assert defines_person(text) is expected


def test_every_kind_is_named_in_both_languages() -> None:
    assert set(KIND_NAMES["ru"]) == set(KIND_NAMES["en"]) == set(QUESTION_TYPES.values())
