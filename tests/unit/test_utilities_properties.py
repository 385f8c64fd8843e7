"""Property tests: any JSON-typed arguments give a result or a structured refusal, never an
exception, and the same input always gives the same output."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.refusal import falsehood_words
from workbench.utilities import UtilityCode, call_utility, load_catalog
from workbench.utilities._charset import _MISREAD_AS

CATALOG = load_catalog()
ODD_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=(), min_codepoint=0, max_codepoint=0x10FFFF),
    max_size=40,
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308, -1e308, 5e-324, 0.0, -0.0, 2**53 + 1.0]),
    ODD_TEXT,
    st.sampled_from(["", " ", "0", "-1", "1e5", "2024-02-29", "Europe/Moscow", "windows-1251",
                     "#fff", "10.0.0.0/8", "Привет", "ЁЖ\u0301", "\ud800", "\x00", "a" * 300]),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.text(max_size=5), children, max_size=4)),
    max_leaves=8,
)
TYPED = {
    "string": ODD_TEXT,
    "integer": st.integers(min_value=-(10**12), max_value=10**12),
    "number": st.one_of(st.integers(min_value=-(10**9), max_value=10**9),
                        st.floats(min_value=-1e12, max_value=1e12)),
    "boolean": st.booleans(),
    "array": st.lists(SCALARS, max_size=3),
    "object": st.dictionaries(st.text(max_size=4), SCALARS, max_size=3),
}


def args_for(uid: str):
    schema = CATALOG.schemas[uid]
    optional = {
        a.name: st.one_of(TYPED[a.type], TYPED[a.type], JSON_VALUES) for a in schema.arguments
    }
    return st.fixed_dictionaries({}, optional=optional)


def check(uid, args, question=None):
    first = call_utility(uid, args, question=question)
    second = call_utility(uid, args, question=question)
    a = json.dumps(first.to_dict(), ensure_ascii=False, allow_nan=False, sort_keys=True)
    b = json.dumps(second.to_dict(), ensure_ascii=False, allow_nan=False, sort_keys=True)
    assert a == b
    if first.ok:
        assert first.refusal is None
    else:
        assert first.refusal.code in set(UtilityCode)
        assert first.refusal.text and falsehood_words(first.refusal.text) == []


@pytest.mark.parametrize("uid", sorted(CATALOG.schemas))
def test_any_json_arguments(uid):
    @settings(max_examples=25, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(args=args_for(uid))
    def inner(args):
        check(uid, args)

    inner()


@settings(max_examples=60, deadline=None, derandomize=True)
@given(uid=st.one_of(st.sampled_from(sorted(CATALOG.schemas)), ODD_TEXT, JSON_VALUES),
       args=JSON_VALUES, question=st.one_of(st.none(), ODD_TEXT))
def test_any_id_any_args_any_question(uid, args, question):
    check(uid, args, question)


RUSSIAN = st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ ,.",
                  min_size=1, max_size=40).filter(lambda t: any(c.isalpha() for c in t))


def _misreads_another_text(text: str) -> bool:
    """Whether ``text`` is itself a misreading: «пё» is what KOI8-R makes of «У»'s UTF-8 bytes."""
    for codec in _MISREAD_AS:
        try:
            if text.encode(codec).decode("utf-8") != text:
                return True
        except UnicodeError:
            continue
    return False


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=RUSSIAN, misread_as=st.sampled_from(["cp1251", "latin-1", "cp1252"]))
def test_mojibake_of_any_russian_text_is_repaired_and_a_correct_one_is_kept(
        text: str, misread_as: str) -> None:
    # «Смирнова» read as windows-1251 is «РЎРјРёСЂРЅРѕРІР°», all Cyrillic letters itself
    try:
        garbled = text.encode("utf-8").decode(misread_as)
    except UnicodeDecodeError:
        return  # latin-1 reads every byte; cp1252 leaves five undefined
    assert call_utility("charset.fix_mojibake", {"text": garbled}).result == text
    # a correct text is kept, unless it is the misreading of another text too: then the two
    # readings cannot be told apart and the shorter one wins
    if not _misreads_another_text(text):
        assert call_utility("charset.fix_mojibake", {"text": text}).result == text


def test_a_correct_text_that_is_also_a_misreading_is_taken_for_one() -> None:
    assert _misreads_another_text("пё") and not _misreads_another_text("Привет")
    assert call_utility("charset.fix_mojibake", {"text": "пё"}).result == "У"


def test_misread_latin_text_is_repaired() -> None:
    assert call_utility("charset.fix_mojibake", {"text": "cafÃ©"}).result == "café"
