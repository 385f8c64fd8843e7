"""Gate 0's settings: stems or lemmas, and how coverage is counted across languages."""

from __future__ import annotations

import dataclasses

import pytest

from workbench.config import ConfigError, Settings
from workbench.corpus import Anchor, Fragment
from workbench.gates import CandidateSet
from workbench.registry import build
from workbench.retrieval import Hit, analyze, analyze_lemmas

ENGLISH_PAGE = ("Specifies the settings for importing and exporting Microsoft Office documents "
                "and VBA macros when files are loaded or saved.")
RUSSIAN_PAGE = "Параметры загрузки и сохранения документов задаются на этой странице."


def _candidates(question: str, texts: list[str], score: float) -> CandidateSet:
    fragments = tuple(Fragment(id=f"f{i}", anchor=Anchor("a.html", 0, len(t), "0" * 64),
                               text=t, lang="en") for i, t in enumerate(texts))
    hits = tuple(Hit(fragment_id=f.id, row=i, lexical=None, dense=None, fused=score,
                     rerank=score) for i, f in enumerate(fragments))
    return CandidateSet(question=question, lang="ru", hits=hits, fragments=fragments,
                        titles=("",) * len(fragments), quote=None, corpus=None,  # type: ignore[arg-type]
                        area="test", mode="bi-encoder")


MIN_COVERAGE = 0.5
"""Gate 0's coverage these cases are written for (3 of 8 terms falls short of it), whatever ships."""


def _gate0(question: str, texts: list[str], score: float = 0.95, **gates: object):
    gates = {"min_lexical_coverage": MIN_COVERAGE, **gates}
    base = Settings()
    settings = dataclasses.replace(base, gates=dataclasses.replace(base.gates, **gates))
    return build("gate", "gate0")(question, _candidates(question, texts, score), settings)


QUESTION = "Как задать параметры импорта документов Microsoft Office с макросами VBA?"


def test_all_terms_refuse_a_russian_question_about_an_english_page() -> None:
    verdict = _gate0(QUESTION, [ENGLISH_PAGE])
    assert not verdict.passed and verdict.numbers["coverage"] < 0.5


def test_script_coverage_judges_the_terms_the_page_can_hold() -> None:
    verdict = _gate0(QUESTION, [ENGLISH_PAGE], gate0_coverage="script")
    assert verdict.passed, verdict.numbers
    assert verdict.numbers["terms"] == 3  # microsoft, offic, vba
    assert verdict.numbers["question_terms"] > 3
    # the same question on a page in its own language is judged on every term, as before
    same = _gate0(QUESTION, [RUSSIAN_PAGE], gate0_coverage="script")
    assert same.numbers["terms"] == same.numbers["question_terms"]


def test_shared_coverage_also_asks_for_a_confident_ranking() -> None:
    assert _gate0(QUESTION, [ENGLISH_PAGE], gate0_coverage="shared").passed
    low = _gate0(QUESTION, [ENGLISH_PAGE], score=0.5, gate0_coverage="shared")
    assert not low.passed and low.numbers["needs_confidence"]
    # nothing left to judge lexically: the confidence alone decides
    plain = "Как загрузить документ?"
    assert _gate0(plain, [ENGLISH_PAGE], gate0_coverage="shared").passed
    assert not _gate0(plain, [ENGLISH_PAGE], gate0_coverage="script").passed
    assert not _gate0(plain, [ENGLISH_PAGE], score=0.5, gate0_coverage="shared").passed


def test_lemmas_join_forms_that_stems_keep_apart() -> None:
    # "шёл" and "идти" are one verb; Snowball cannot know it, the dictionary does
    assert analyze("шёл") != analyze("идти")
    assert analyze_lemmas("шёл") == analyze_lemmas("идти") == ["идти"]
    assert analyze_lemmas("Levels SHA-256") == analyze("Levels SHA-256")
    question = "Куда шли люди?"
    page = "Каждый человек должен идти на север, к морю, до последней станции."
    assert not _gate0(question, [page]).passed
    assert _gate0(question, [page], gate0_terms="lemma").passed


@pytest.mark.parametrize(("key", "value"), [("gate0_terms", "roots"),
                                            ("gate0_coverage", "any")])
def test_unknown_gate0_variant_is_a_config_error(key: str, value: str) -> None:
    with pytest.raises(ConfigError, match=key):
        Settings().with_overrides(gates={key: value})
