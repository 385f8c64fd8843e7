"""The outside corpus's question set: its shape, its balance, and its spans when the corpus is here."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from workbench.corpus import detect_lang
from workbench.corpus._questions import load_questions

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "corpus" / "outside" / "questions").glob("*.jsonl"))
CORPUS = ROOT / ".cache" / "outside" / "corpus"


def _rows() -> list[dict]:
    return [json.loads(line) for file in FILES for line in file.read_text("utf-8").splitlines()]


def test_both_parts_are_there() -> None:
    assert [f.name for f in FILES] == ["gimp.jsonl", "libreoffice.jsonl"]


def test_at_least_150_answerable_and_150_to_refuse_in_both_languages_and_splits() -> None:
    rows = _rows()
    kinds = Counter("answerable" if r["set"] == "in_corpus" else "refuse" for r in rows)
    assert kinds["answerable"] >= 150 and kinds["refuse"] >= 150
    assert {r["set"] for r in rows} == {"in_corpus", "out_of_corpus", "relevance_traps"}
    for kind in ("in_corpus", "out_of_corpus", "relevance_traps"):
        cells = Counter((r["lang"], r["split"]) for r in rows if r["set"] == kind)
        assert set(cells) == {("ru", "dev"), ("ru", "test"), ("en", "dev"), ("en", "test")}
        assert max(cells.values()) <= 2 * min(cells.values()), (kind, cells)
    assert len({r["id"] for r in rows}) == len(rows)


def test_every_line_has_what_its_kind_needs() -> None:
    for row in _rows():
        assert row["question"].strip() and row["lang"] in ("ru", "en"), row["id"]
        if row["set"] == "in_corpus":
            assert row["gold"] and all(g["path"].startswith(("libreoffice/", "gimp/"))
                                       for g in row["gold"]), row["id"]
        elif row["set"] == "relevance_traps":
            assert row["near"]["span"] and row["why"], row["id"]
            # the trap names what the documentation lacks
            assert row["missing_entity"].lower() in row["question"].lower(), row["id"]
        else:
            assert row["why"], row["id"]


def test_answers_written_in_the_other_language_are_well_represented() -> None:
    crossed = [r for r in _rows() if r["set"] == "in_corpus"
               and all(detect_lang(g["span"]) != r["lang"] for g in r["gold"])]
    assert len(crossed) >= 25


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the outside corpus is built by `make outside`")
def test_every_span_is_verbatim_in_the_extracted_text() -> None:
    for file in FILES:
        questions = load_questions(file, CORPUS)
        assert len(questions) == len(file.read_text("utf-8").splitlines())
