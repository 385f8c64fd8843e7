"""Refusal codes, their structured numbers, and the wording rule in both languages."""

from __future__ import annotations

import enum

import pytest

from workbench.refusal import Refusal, falsehood_words
from workbench.utilities import MESSAGES, UtilityCode, call_utility, load_catalog
from workbench.utilities._call import refuse

# (code, utility, args, question, the argument the refusal must name)
REFUSALS = [
    (UtilityCode.UNKNOWN_UTILITY, "hash.sha999", {"text": "abc"}, None, None),
    (UtilityCode.UNKNOWN_UTILITY, "nonsense", {}, None, None),
    (UtilityCode.MISSING_ARGUMENT, "hash.sha256", {}, None, "text"),
    (UtilityCode.MISSING_ARGUMENT, "hash.hmac_sha256", {"text": "x"}, None, "key"),
    (UtilityCode.MISSING_ARGUMENT, "date.to_unix", {"datetime": "2024-01-01T00:00"}, None, "tz"),
    (UtilityCode.MISSING_ARGUMENT, "text.stats", {"text": None}, None, "text"),
    (UtilityCode.ARGUMENT_IS_CIRCUMSTANCE, "text.stats", {"text": "windows-1251"},
     "compute the statistics of the text in windows-1251", "text"),
    (UtilityCode.BAD_ARGUMENT, "hash.sha256", {"text": ["a"]}, None, "text"),
    (UtilityCode.BAD_ARGUMENT, "hash.sha256", {"text": "abc", "extra": 1}, None, "extra"),
    (UtilityCode.BAD_ARGUMENT, "number.to_roman", {"n": 4000}, None, "n"),
    (UtilityCode.BAD_ARGUMENT, "charset.encode", {"text": "Привет", "charset": "ascii"}, None,
     "text"),
    (UtilityCode.BAD_ARGUMENT, "charset.encode", {"text": "a", "charset": "no-such"}, None,
     "charset"),
    (UtilityCode.BAD_ARGUMENT, "date.add_days", {"date": "2024-02-30", "days": 1}, None, "date"),
    (UtilityCode.BAD_ARGUMENT, "money.percent_change", {"old": 0, "new": 5}, None, "old"),
    (UtilityCode.BAD_ARGUMENT, "regex.match", {"pattern": "(", "text": "x"}, None, "pattern"),
    (UtilityCode.BAD_ARGUMENT, "units.temperature",
     {"value": -500, "from_unit": "C", "to_unit": "K"}, None, "value"),
    (UtilityCode.BAD_ARGUMENT, "hash.sha256", "not an object", None, "args"),
]


def test_codes_are_a_closed_documented_strenum():
    assert issubclass(UtilityCode, enum.StrEnum)
    assert {c.value for c in UtilityCode} == {
        "UNKNOWN_UTILITY", "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE", "BAD_ARGUMENT",
        "AMBIGUOUS_ARGUMENT", "LIMIT_EXCEEDED"}
    assert set(MESSAGES) == set(UtilityCode)


@pytest.mark.parametrize(("code", "uid", "args", "question", "argument"), REFUSALS,
                         ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(REFUSALS)])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_refusal(code, uid, args, question, argument, lang):
    outcome = call_utility(uid, args, question=question, lang=lang)
    assert not outcome.ok and outcome.result is None
    refusal = outcome.refusal
    assert isinstance(refusal, Refusal)
    assert refusal.code == code
    assert falsehood_words(refusal.text) == []
    assert refusal.numbers["catalog_utilities"] == len(load_catalog().schemas)
    assert str(len(load_catalog().schemas)) in refusal.area
    if argument is not None:
        assert refusal.numbers["argument"] == argument
        assert argument in refusal.text
    if code == UtilityCode.BAD_ARGUMENT:
        assert refusal.numbers["expected"]
    is_cyrillic = any("а" <= ch <= "я" for ch in refusal.text.lower())
    assert is_cyrillic is (lang == "ru")


def test_bad_type_names_the_expected_type():
    refusal = call_utility("hash.sha256", {"text": 3.5}).refusal
    assert (refusal.numbers["argument"], refusal.numbers["expected"]) == ("text", "string")


@pytest.mark.parametrize("code", list(UtilityCode))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_wording_table_never_asserts_falsehood(code, lang):
    filled = refuse(code, lang, utility="hash.sha256", argument="text", expected="string",
                    value="windows-1251", kind="charset", reason="placeholder", category="hash")
    assert filled.text and falsehood_words(filled.text) == []
    assert falsehood_words(MESSAGES[code][lang]) == []
    assert falsehood_words(filled.area) == []


def test_no_call_is_made_on_missing_argument(monkeypatch):
    catalog = load_catalog()
    called = []
    monkeypatch.setitem(catalog.functions, "hash.sha256", lambda **kw: called.append(kw))
    outcome = call_utility("hash.sha256", {})
    assert outcome.refusal.code == UtilityCode.MISSING_ARGUMENT and called == []


def test_refusal_serialises():
    d = call_utility("hash.sha999", {}).to_dict()
    assert d["ok"] is False and d["refusal"]["code"] == "UNKNOWN_UTILITY"
    assert d["refusal"]["numbers"]["in_category"] == len(load_catalog().in_category("hash"))
