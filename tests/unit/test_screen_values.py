"""A question crowded with figures, or one too long, is refused before any router reads it.

A message of fifty figures leaves a router to guess which is the amount (the span router once
took the first of them for the VAT sum); the screen refuses it with a typed code, naming the count
and the limit, and lets data in quotes through as one value.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.answers import AnswerCode, answer
from workbench.config import Settings
from workbench.refusal import falsehood_words
from workbench.relevance import blank_literals
from workbench.routing import RouterDecision, Source
from workbench.routing._normalise import percent_spans
from workbench.routing._rule import RuleRouter
from workbench.routing._screen import MAX_VALUES, screen_question, screened, unquoted_values

ROOT = Path(__file__).resolve().parents[2]
FIFTY = " ".join(str(10_000 + 37 * i) for i in range(50))


def test_values_outside_quotes_are_counted() -> None:
    assert unquoted_values("Add 20% VAT to 1 200 for order 58213") == 4
    assert unquoted_values('CRC32 of "1 2 3 4 5 6"') == 1  # the 32 of CRC32; the quote is one text
    assert unquoted_values("SHA-256 of `10 20 30`") == 1
    assert unquoted_values("НДС 20% с суммы: 100 200 300") == 4  # a colon's tail offers each


@given(st.text(alphabet=st.sampled_from("ab7٣ \t\n«»\"`:%-"), max_size=60))
def test_the_count_is_that_of_words_holding_a_digit(question: str) -> None:
    """Counted by a split, as the pattern «\\S*\\d\\S*» counts them (without its quadratic search)."""
    assert unquoted_values(question) == len(re.findall(r"\S*\d\S*",
                                                       blank_literals(question, colon_tail=False)))


@pytest.mark.parametrize(("question", "lang"), [
    (f"Add 20% VAT to the amount {FIFTY}", "en"),
    (f"Посчитай НДС 20% с суммы: {FIFTY}", "ru"),
])
def test_a_crowded_question_is_refused_in_its_language(question: str, lang: str) -> None:
    refusal = screen_question(question, 2000)
    assert refusal is not None and refusal.code == "QUESTION_TOO_MANY_VALUES"
    assert refusal.numbers == {"values": 51, "limit": MAX_VALUES}
    assert "51" in refusal.text and str(MAX_VALUES) in refusal.text
    assert any("а" <= ch <= "я" for ch in refusal.text.lower()) is (lang == "ru")
    assert falsehood_words(refusal.text) == [] and falsehood_words(refusal.area) == []


def test_the_limit_itself_passes_and_quoted_figures_pass() -> None:
    at_limit = "Sum " + " ".join(str(i) for i in range(MAX_VALUES))
    assert unquoted_values(at_limit) == MAX_VALUES and screen_question(at_limit, 2000) is None
    assert screen_question(f'CRC32 of "{FIFTY}"', 2000) is None


def test_no_bundled_question_is_crowded() -> None:
    """The screen changes no decision on any set the project ships (at most 13 values today)."""
    files = subprocess.run(["git", "ls-files", "*.jsonl"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    questions = [json.loads(line).get("question") for name in files
                 for line in (ROOT / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    counts = [unquoted_values(q) for q in questions if isinstance(q, str)]
    assert len(counts) > 3000 and max(counts) <= MAX_VALUES // 2


@pytest.mark.parametrize(("question", "code"), [
    (f"Add 20% VAT to the amount {FIFTY}", "QUESTION_TOO_MANY_VALUES"),
    ("1" * 10_000, "QUESTION_TOO_LONG"),
    ("Посчитай CRC32 для " + "7" * 10_000, "QUESTION_TOO_LONG"),
])
def test_the_rule_router_screens_as_the_pipeline_does(question: str, code: str) -> None:
    decision = RuleRouter().route(question)
    assert decision.source is Source.REFUSE and decision.refusal is not None
    assert decision.refusal.code == code == screened(question).refusal.code  # type: ignore[union-attr]


class _NoRouter:
    """A router that must not be asked."""

    def route(self, question: str) -> RouterDecision:
        raise AssertionError("the router was called")


def test_the_pipeline_refuses_a_crowded_question_before_routing() -> None:
    result = answer(f"Add 20% VAT to the amount {FIFTY}", _NoRouter(), Settings())
    assert result.refusal is not None and result.refusal.code == AnswerCode.QUESTION_TOO_MANY_VALUES
    assert result.trace.steps == ("input check: QUESTION_TOO_MANY_VALUES",)


def test_a_percentage_starts_where_its_number_starts() -> None:
    # the pattern may not start inside a run of digits (which also kept it from trying every
    # start of a long run, quadratic in the run's length)
    run = "7" * 3000
    assert percent_spans(f"{run}5%") == [(0, 3001)]
    assert percent_spans(f"{run} and 12,5% of it") == [(3005, 3009)]
    assert percent_spans("ставка 1,5,20% годовых") == [(9, 13)]
