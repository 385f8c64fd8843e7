"""The answer-type rule: question types by lemma, and what an English or numeric answer holds.

Russian names and organisations come from natasha's NER model, tested in
``tests/integration/test_answer_type_ner.py``.
"""

from __future__ import annotations

import pytest

from workbench.registry import build
from workbench.relevance import DocumentScope, missing_answer_kind, question_type

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
]


@pytest.mark.parametrize(("question", "fragment", "missing"), KINDS)
def test_the_fragment_holds_the_kind_asked_for(question: str, fragment: str,
                                               missing: str | None) -> None:
    assert missing_answer_kind(question, fragment) == missing


def test_registered_rule_names_the_missing_kind() -> None:
    rule = build("relevance_rule", "answer-type")
    verdict = rule("Сколько бит в байте?", "Байт состоит из битов.", "ru", DocumentScope())
    assert verdict.fired and verdict.missing == ("a number",)
    assert not rule("Что такое байт?", "Байт состоит из битов.", "ru", DocumentScope()).fired
