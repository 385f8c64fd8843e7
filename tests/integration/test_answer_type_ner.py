"""The answer-type rule on Russian text: persons and organisations from natasha's NER model."""

from __future__ import annotations

import pytest

from workbench.relevance import missing_answer_kind

CASES = [
    ("Кто придумал JSON?", "Формат JSON предложил Дуглас Крокфорд.", None),
    ("Кто выпускает стандарт?", "Стандарт выпускает Госстандарт России.", None),
    ("Кто придумал JSON?", "Формат JSON удобен для обмена данными.", "person"),
]


@pytest.mark.parametrize(("question", "fragment", "missing"), CASES)
def test_a_who_question_needs_a_person_or_an_organisation(question: str, fragment: str,
                                                         missing: str | None) -> None:
    assert missing_answer_kind(question, fragment) == missing
