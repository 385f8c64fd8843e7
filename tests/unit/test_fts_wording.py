"""Refusal wording: never an assertion of falsehood, in English and Russian."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.fts import (
    MESSAGES,
    TITLES,
    FallacyCode,
    GateCode,
    Problem,
    load_library,
    make_refusal,
    render_message,
)
from workbench.refusal import falsehood_words

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = load_library(ROOT / "corpus" / "morphisms")
ALL_CODES = [*map(str, GateCode), *map(str, FallacyCode)]


def _params(key: str) -> dict:
    fields = {"char", "expected", "token", "text", "name", "type", "member", "members", "known",
              "left", "right", "op", "found", "case", "alias", "example", "inputs", "premise",
              "entry", "status", "reviewer", "date", "wanted", "library_type", "spec_type",
              "actual", "reason", "property", "point", "points", "field", "certified",
              "recomputed", "stored", "computed", "entries", "step", "cycle", "chain",
              "conclusion", "condition", "cases", "threshold", "thing", "statement",
              "other_case", "first", "second", "count"}
    return {f: "x1" for f in fields}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_no_message_asserts_falsehood(key, lang):
    row = MESSAGES[key]
    problem = Problem(row.code, key, _params(key), 3, 7)
    refusal = make_refusal(problem, "vat.demo", LIBRARY, lang=lang)
    assert falsehood_words(refusal.text) == []
    assert falsehood_words(render_message(key, _params(key), lang)) == []
    assert "x1" in refusal.text or "{" not in render_message(key, {}, lang)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("code", ALL_CODES)
def test_every_code_has_a_title_and_a_not_shown_refusal(code, lang):
    key = next(k for k, row in MESSAGES.items() if row.code == code)
    refusal = make_refusal(Problem(code, key, _params(key)), "vat.demo", LIBRARY, lang=lang)
    assert refusal.code == code and code in TITLES
    assert ("не показано" if lang == "ru" else "not shown") in refusal.text
    assert "29" in refusal.area and LIBRARY.digest[:12] in refusal.area
    assert falsehood_words(refusal.text) == []


def test_russian_text_is_russian():
    problem = Problem("F_BOUNDARY", "boundary", _params("boundary"), 4, 2)
    text = make_refusal(problem, "vat.demo", LIBRARY, lang="ru").text
    assert "строка 4" in text and "порог" in text


def test_every_code_has_at_least_one_message():
    assert {row.code for row in MESSAGES.values()} == set(ALL_CODES)
