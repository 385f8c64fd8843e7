"""Fragmenting respects paragraphs and sentences and every fragment is an exact slice."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.corpus import detect_lang, fragment_spans, fragment_text


def test_heading_joins_its_paragraph() -> None:
    text = "# Заголовок\n\n" + "Абзац о кодировках, который достаточно длинный. " * 4
    fragments = fragment_text("a.md", text, max_chars=400, min_chars=60)
    assert len(fragments) == 1
    assert fragments[0].text.startswith("# Заголовок")


def test_paragraphs_become_separate_fragments() -> None:
    p1 = "First paragraph about hashing and checksums, long enough to stand alone here."
    p2 = "Second paragraph about Base64 encoding, also long enough to stand alone here."
    fragments = fragment_text("a.md", f"{p1}\n\n{p2}\n", max_chars=200, min_chars=40)
    assert [f.text for f in fragments] == [p1, p2]


def test_long_paragraph_splits_at_sentences() -> None:
    sentence = "This sentence is about time zones and calendars in Russia. "
    text = sentence * 20
    fragments = fragment_text("a.md", text, max_chars=200, min_chars=40)
    assert len(fragments) > 1
    for f in fragments:
        assert len(f.text) <= 200
        assert f.text.endswith(".")


def test_ids_anchors_and_digests() -> None:
    text = "Первый абзац про ИНН и его контрольные цифры, длиной больше порога.\n\nSecond."
    for f in fragment_text("ru/id.md", text, max_chars=300, min_chars=10):
        assert f.id == f"ru/id.md#{f.anchor.start}-{f.anchor.end}"
        assert f.anchor.sha256 == hashlib.sha256(f.text.encode()).hexdigest()
        assert text[f.anchor.start:f.anchor.end] == f.text


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Ставка НДС составляет 22%", "ru"), ("The VAT rate is 22%", "en"),
     ("Кодировки UTF-8 и windows-1251", "ru"), ("", "en")],
)
def test_detect_lang(text: str, lang: str) -> None:
    assert detect_lang(text) == lang


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="max_chars"):
        fragment_spans("text", max_chars=10, min_chars=5)


_pieces = st.sampled_from(["Слово", "word", "UTF-8.", "НДС!", "a?", " ", "\n", "\n\n", "\n \n",
                           "1251", "«цитата».", "— тире", "x" * 30])


@settings(max_examples=200, deadline=None)
@given(st.lists(_pieces, max_size=120), st.integers(min_value=20, max_value=300),
       st.integers(min_value=0, max_value=20))
def test_fragments_are_exact_ordered_slices(parts: list[str], max_chars: int, min_chars: int) -> None:
    text = "".join(parts)
    spans = fragment_spans(text, max_chars=max_chars, min_chars=min(min_chars, max_chars))
    previous_end = 0
    for start, end in spans:
        assert previous_end <= start < end <= len(text)
        assert not text[start].isspace() and not text[end - 1].isspace()
        previous_end = end
    # nothing but whitespace is lost between fragments
    covered = "".join(text[s:e] for s, e in spans)
    assert "".join(covered.split()) == "".join(text.split())
