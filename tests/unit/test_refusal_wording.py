"""The quote source's refusal wording: a table of cases that is also the test data.

Every case of :data:`workbench.gates._refusal.WORDING` is rendered from each of its example
verdicts in both languages; each text must come from its own row, state only what was checked
(no absence of the thing asked about, no falsehood), speak one language, and name the corpus by
its own name. The bundled questions then check the same over real over-refusals.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import string
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from workbench.answers import answer
from workbench.answers._codes import MESSAGES, SOURCE_NAMES, answer_message
from workbench.cli import build_parser, settings_for
from workbench.config import Settings, load_settings
from workbench.corpus import Corpus
from workbench.corpus._questions import load_sets
from workbench.corpus._quote import QuoteStatus
from workbench.gates import GateVerdict, QuoteGateCode, QuoteSource, gate_codes, search_area
from workbench.gates import refusal_from_verdict as render
from workbench.gates._refusal import (
    HEADS,
    LANGUAGES,
    OTHER_RULE,
    QUOTE_CHECKS,
    RULE_FINDINGS,
    WORDING,
    Wording,
    absence_claims,
)
from workbench.index import build_index, load_index
from workbench.refusal import falsehood_words
from workbench.relevance import quote_rules
from workbench.relevance._answer_type import KIND_NAMES
from workbench.retrieval import KeywordEmbedder
from workbench.routing import ScriptedRouter, screen_question

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("ru", "en")
NAMES = {"ru": "Справка", "en": "Guide"}
"""A corpus name in each script, so that a text's own words can be told from its data."""
_LATIN = re.compile("[A-Za-z]")
NAMES_OF_STANDARDS = ("UTF-8",)
"""Names written alike in both languages' texts."""
_CYRILLIC = re.compile("[А-Яа-яЁё]")


def _cases() -> Iterator[tuple[Wording, Mapping[str, Any], str]]:
    for row in WORDING:
        for example in row.examples:
            for lang in LANGS:
                yield row, example, lang


CASES = list(_cases())


def _id(case: tuple[Wording, Mapping[str, Any], str]) -> str:
    row, example, lang = case
    return f"{row.gate}-{row.case or 'default'}-{lang}-{row.examples.index(example)}"


def _text(row: Wording, numbers: Mapping[str, Any], lang: str) -> str:
    code = gate_codes()[row.gate]
    verdict = GateVerdict(gate=row.gate, passed=False, code=code, numbers=dict(numbers))
    return render(verdict, search_area(NAMES[lang], 42, 598, lang), lang).text


def _data(value: Any) -> Iterator[str]:
    """Every string a verdict carries: the data a text may echo in another script."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _data(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _data(item)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_case_renders_from_its_own_row(case) -> None:
    row, example, lang = case
    text = _text(row, example, lang)
    literals = [lit.strip(" .;:,()") for lit, *_ in string.Formatter().parse(getattr(row, lang))]
    at = 0
    for literal in (lit for lit in literals if len(lit) > 3):
        found = text.find(literal, at)
        assert found >= 0, (literal, text)
        at = found + len(literal)
    assert "{" not in text and "—" not in text.replace(" — ", ""), text


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_case_states_only_what_was_checked(case) -> None:
    row, example, lang = case
    text = _text(row, example, lang)
    assert falsehood_words(text) == [], text
    assert absence_claims(text) == [], text
    assert text.startswith(HEADS[lang].format(area=search_area(NAMES[lang], 42, 598, lang)))
    if row.words_absent:  # gate 0 may say words are absent, and then speaks of the words
        assert ("слов" if lang == "ru" else "words") in text


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_case_speaks_the_questions_language(case) -> None:
    row, example, lang = case
    text = _text(row, example, lang)
    for data in sorted([*_data(example), *NAMES_OF_STANDARDS], key=len, reverse=True):
        text = text.replace(data, "")
    other = _LATIN if lang == "ru" else _CYRILLIC
    assert not other.search(text), (lang, text)
    assert not re.search(r"\b(?:курс\w*|course\w*)\b", text, re.IGNORECASE), text


def test_every_gate_and_reason_has_a_row() -> None:
    worded = {QuoteGateCode.GATE0_NO_LEXICAL_SUPPORT, QuoteGateCode.BELOW_THRESHOLD,
              QuoteGateCode.CANDIDATE_DISAGREEMENT, QuoteGateCode.IRRELEVANT,
              QuoteGateCode.NOT_VERBATIM}
    builtin = {name for name, code in gate_codes().items() if code in worded}
    assert len(builtin) == len(worded)
    defaults = {row.gate for row in WORDING if not row.case}
    assert builtin <= defaults
    keys = Counter((row.gate, row.case) for row in WORDING)
    assert max(keys.values()) == 1
    assert all(row.examples for row in WORDING)


def test_every_finding_and_check_is_worded_in_both_languages() -> None:
    assert set(RULE_FINDINGS) == set(quote_rules())
    assert set(QUOTE_CHECKS) == {s.value for s in QuoteStatus} - {"verbatim"} | {"no_quote"}
    tables = [*RULE_FINDINGS.values(), *QUOTE_CHECKS.values(), OTHER_RULE, HEADS]
    for table in tables:
        assert set(table) == set(LANGS)
        own = re.sub(r"\{\w+\}|" + "|".join(NAMES_OF_STANDARDS), "", table["ru"])
        assert not _LATIN.search(own), table["ru"]
        assert not _CYRILLIC.search(table["en"]), table["en"]
        assert all(falsehood_words(t) == [] and absence_claims(t) == [] for t in table.values())
    for lang in LANGS:
        assert set(LANGUAGES[lang]) == set(LANGS) and set(KIND_NAMES[lang]) == set(KIND_NAMES["en"])


@pytest.mark.parametrize("text", [
    "Этого нет в источнике: материалы курса «course»: 42 файла, 598 фрагментов.",
    "This is not present in the «course» course materials: 42 files, 598 fragments.",
    "В корпусе отсутствует информация об этом.", "The corpus does not cover this."])
def test_the_absence_check_can_fail(text: str) -> None:
    assert absence_claims(text)


def test_a_record_written_before_the_gap_was_unsigned_shows_its_size() -> None:
    older = {"checked": 10, "first": "a.md", "second": "b.md", "scores": [0.9012, 0.9221],
             "gap": -0.0209, "margin": 0.01}
    row = next(r for r in WORDING if r.gate == "disagreement")
    text = _text(row, older, "ru")
    assert "0.9012 и 0.9221" in text and "разница 0.0209" in text


# --- the pipeline's own refusals -------------------------------------------------------------

FIELDS = {"spec": "vat.nothing", "folder": "corpus/specs", "inputs": "amount", "index": "idx",
          "error": "missing input amount", "forced": "utility", "chosen": "quote"}


@pytest.mark.parametrize("key", list(MESSAGES))
@pytest.mark.parametrize("lang", LANGS)
def test_every_pipeline_refusal_is_worded_in_the_questions_language(key: str, lang: str) -> None:
    text = answer_message(key, lang, **FIELDS)
    assert falsehood_words(text) == [] and absence_claims(text) == [], text
    if lang == "ru":  # the error detail is English and stays in the numbers
        assert "missing input" not in text
    for data in sorted(FIELDS.values(), key=len, reverse=True):
        text = text.replace(data, "")
    assert not (_LATIN if lang == "ru" else _CYRILLIC).search(text), text
    assert set(SOURCE_NAMES[lang]) == set(SOURCE_NAMES["en"])


@pytest.mark.parametrize(("lang", "words"), [("ru", "Маршрутизатор не выбрал"),
                                              ("en", "The router chose no source")])
def test_the_pipeline_refuses_in_the_questions_language(small_index, small_corpus, tmp_path,
                                                        lang: str, words: str) -> None:
    base = Settings()
    settings = dataclasses.replace(base, paths=dataclasses.replace(
        base.paths, corpus=small_corpus, index=small_index.folder))
    question = "Что выбрать?" if lang == "ru" else "What to choose?"
    router = ScriptedRouter({question: {"source": "refuse"}, "q2": {"source": "quote"}})
    assert words in answer(question, router, settings).refusal.text
    missing = dataclasses.replace(settings, paths=dataclasses.replace(settings.paths,
                                                                      index=tmp_path / "none"))
    unavailable = answer(question, ScriptedRouter({question: {"source": "quote"}}), missing)
    assert (_CYRILLIC if lang == "ru" else _LATIN).search(unavailable.refusal.text[:12])
    assert str(tmp_path / "none") in unavailable.refusal.text


# --- the corpus is named by its own name ----------------------------------------------------

def test_the_corpus_is_named_by_the_settings_else_its_folder(small_index, small_corpus) -> None:
    base = Settings()
    paths = dataclasses.replace(base.paths, corpus=small_corpus, index=small_index.folder)
    question = "Who painted the ceiling of the Sistine Chapel?"
    folder = QuoteSource(dataclasses.replace(base, paths=paths), index=small_index,
                         embedder=KeywordEmbedder()).ask(question)
    assert f"“{small_corpus.name}”" in folder.refusal.text
    named = dataclasses.replace(base, paths=dataclasses.replace(paths,
                                                                corpus_name="Debian Reference"))
    result = QuoteSource(named, index=small_index, embedder=KeywordEmbedder()).ask(question)
    assert "the corpus “Debian Reference”" in result.refusal.text
    assert "“Debian Reference”" in result.refusal.area and "course" not in result.refusal.text


def test_the_script_refusal_calls_the_corpus_no_course() -> None:
    refusal = screen_question("这是一个用中文写的问题吗", 2000)
    assert refusal is not None and "corpus" in refusal.text
    assert not re.search(r"\b(?:курс\w*|course\w*)\b", refusal.text, re.IGNORECASE)


def test_a_corpus_given_to_a_verb_clears_the_settings_name(tmp_path: Path) -> None:
    settings = dataclasses.replace(Settings(), paths=dataclasses.replace(
        Settings().paths, corpus_name="Debian Reference"))
    parser = build_parser()
    kept = settings_for(parser.parse_args(["eval", "gates"]), settings)
    assert kept.paths.corpus_name == "Debian Reference"
    for flags in (["--corpus", str(tmp_path)], ["--index", str(tmp_path)]):
        given = settings_for(parser.parse_args(["eval", "gates", *flags]), settings)
        assert given.paths.corpus_name == "", flags


# --- real over-refusals of the bundled questions ---------------------------------------------

def test_no_over_refusal_with_gold_among_the_candidates_claims_absence(tmp_path: Path) -> None:
    """Every answerable bundled question refused while its gold fragment was a candidate.

    The index is the course under the exact keyword encoder, read with the bi-encoder's
    threshold (many answerable questions fall under it with gold among the candidates) and with
    none (the later gates decide): each such text must say what was found and why it was not
    enough, never that the thing is absent.
    """
    settings = load_settings(ROOT / "workbench.toml")
    build_index(settings.paths.corpus, tmp_path / "idx", embedder="keyword",
                cache_root=tmp_path / "cache")
    settings = dataclasses.replace(
        settings, paths=dataclasses.replace(settings.paths, index=tmp_path / "idx"),
        reranker=dataclasses.replace(settings.reranker, mode="bi-encoder"))
    source = QuoteSource(settings, index=load_index(tmp_path / "idx"), embedder=KeywordEmbedder())
    answerable = [q for q in load_sets(settings.paths.questions, Corpus(settings.paths.corpus))
                  if q.gold]
    no_threshold = dataclasses.replace(settings, gates=dataclasses.replace(
        settings.gates, threshold_bi_encoder=0.0))
    seen: Counter[str] = Counter()
    for start, read in itertools.product(range(0, len(answerable), 64),
                                         (settings, no_threshold)):
        batch = answerable[start:start + 64]
        results = source.ask_many([q.question for q in batch], [q.lang for q in batch], read)
        for q, result in zip(batch, results, strict=True):
            gold_seen = any(g.overlaps(f.anchor.path, f.anchor.start, f.anchor.end)
                            for f in result.candidates.fragments for g in q.gold)
            if result.refusal is None or not gold_seen:
                continue
            seen[result.refusal.code] += 1
            text = result.refusal.text
            assert absence_claims(text) == [] and falsehood_words(text) == [], (q.id, text)
            assert text.startswith(HEADS[q.lang].format(area=result.candidates.area)), text
    # the test reads real refusals of the gates that judge found fragments, not an empty list
    assert {"GATE0_NO_LEXICAL_SUPPORT", "BELOW_THRESHOLD", "CANDIDATE_DISAGREEMENT",
            "IRRELEVANT"} <= set(seen), seen
