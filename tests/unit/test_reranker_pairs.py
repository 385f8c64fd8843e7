"""The cross-encoder's training pairs: the course's, and another corpus's joined to them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from workbench.config import load_settings
from workbench.index import build_index, load_index
from workbench.studies._reranker import TrainingConfig, build_pairs

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = load_settings(ROOT / "workbench.toml")
HELP = [f"# Page {i}\n\nTo open the dialog number {i}, choose Tools - Options - Page {i}. "
        f"The dialog sets the margins of page style {i} and its borders.\n" for i in range(12)]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("course")
    build_index(SETTINGS.paths.corpus, folder / "idx", embedder="keyword", cache_root=folder / "c")
    settings = dataclasses.replace(SETTINGS, paths=dataclasses.replace(SETTINGS.paths,
                                                                       index=folder / "idx"))
    return settings, load_index(folder / "idx")


@pytest.fixture(scope="module")
def other(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("other")
    (folder / "corpus").mkdir()
    for i, text in enumerate(HELP):
        (folder / "corpus" / f"page{i}.md").write_text(text, encoding="utf-8")
    lines = [{"id": "o-1", "set": "in_corpus", "question": "How do I reach dialog number 3?",
              "lang": "en", "split": "dev",
              "gold": [{"path": "page3.md", "span": "choose Tools - Options - Page 3"}]},
             {"id": "o-2", "set": "in_corpus", "question": "What sets the margins of page style 5?",
              "lang": "en", "split": "test",
              "gold": [{"path": "page5.md", "span": "The dialog sets the margins of page style 5"}]},
             {"id": "o-3", "set": "out_of_corpus", "question": "Which printer prints the dialog borders?",
              "lang": "en", "split": "dev", "why": "no page on labels"}]
    questions = folder / "q.jsonl"
    questions.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    build_index(folder / "corpus", folder / "idx", embedder="keyword", cache_root=folder / "c")
    return load_index(folder / "idx"), questions


def test_another_corpus_adds_its_dev_pairs_and_a_capped_draw_of_pseudo_questions(course, other):
    settings, index = course
    other_index, questions = other
    config = TrainingConfig(negatives=2)
    alone = build_pairs(index, settings, config)
    joined = build_pairs(index, settings, config, more=[(other_index, [questions])])
    added = [p for p in joined if p not in alone]
    asked = {q for q, _, _ in added}
    assert "How do I reach dialog number 3?" in asked and "Which printer prints the dialog borders?" in asked
    assert "What sets the margins of page style 5?" not in asked  # test questions are never read
    gold = [(t, label) for q, t, label in added if q == "How do I reach dialog number 3?"]
    assert [label for t, label in gold if "Page 3." in t] == [1.0]
    assert all(label == 0.0 for q, _, label in added if q == "Which printer prints the dialog borders?")
    pseudo = {q for q, _, label in added if label == 1.0 and q.startswith("To open")}
    assert len(pseudo) == len(HELP)  # every page gives one without a cap
    capped = build_pairs(index, settings, dataclasses.replace(config, pseudo_per_corpus=4),
                         more=[(other_index, [questions])])
    capped_pseudo = {q for q, _, label in capped if label == 1.0 and q.startswith("To open")}
    assert len(capped_pseudo) == 4
    assert capped == build_pairs(index, settings, dataclasses.replace(config, pseudo_per_corpus=4),
                                 more=[(other_index, [questions])])  # a seeded draw
    # the course's own pairs do not depend on the cap while the course is smaller than it
    assert build_pairs(index, settings, dataclasses.replace(config, pseudo_per_corpus=10_000)) == alone


def test_a_second_index_without_its_questions_is_a_typed_error(other, capsys) -> None:
    from workbench import cli

    other_index, _ = other
    assert cli.main(["reranker", "train", "--also-index", str(other_index.folder), "--quiet"]) == 2
    assert "--also-index and --also-questions go together" in capsys.readouterr().err
