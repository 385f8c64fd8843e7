"""The bundled question sets: well formed, anchored, and every refusal over them well worded."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest

from workbench.config import load_settings
from workbench.corpus import Corpus
from workbench.corpus._questions import (
    _TEXTS,
    SETS,
    QuestionSetError,
    load_question_files,
    load_questions,
    load_sets,
)
from workbench.gates import QuoteSource, gate_codes, refusal_from_verdict
from workbench.index import build_index, load_index
from workbench.refusal import falsehood_words
from workbench.retrieval import KeywordEmbedder

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = load_settings(ROOT / "workbench.toml")
MINIMUM = {"in_corpus": 150, "out_of_corpus": 173, "relevance_traps": 60}


@pytest.fixture(scope="module")
def questions():
    return load_sets(SETTINGS.paths.questions, Corpus(SETTINGS.paths.corpus))


def test_sizes_languages_and_splits(questions) -> None:
    by_set = Counter(q.set for q in questions)
    for name, minimum in MINIMUM.items():
        assert by_set[name] >= minimum, name
        langs = Counter(q.lang for q in questions if q.set == name)
        splits = Counter(q.split for q in questions if q.set == name)
        assert langs["ru"] > langs["en"] > 0
        assert min(splits.values()) >= 0.4 * by_set[name]
    assert len({q.id for q in questions}) == len(questions)


def test_gold_spans_resolve_and_are_unique_in_their_file(questions) -> None:
    corpus = Corpus(SETTINGS.paths.corpus)
    for q in questions:
        for gold in q.gold + ((q.near,) if q.near else ()):
            text = corpus.read(gold.path).text
            assert text.count(gold.text) == 1, q.id
            assert text[gold.start:gold.end] == gold.text
            assert "\n\n" not in gold.text


def test_trap_entities_are_absent_from_the_corpus(questions) -> None:
    corpus = Corpus(SETTINGS.paths.corpus)
    files, _ = corpus.list_files()
    everything = "\n".join(corpus.read(f).text for f in files)
    for q in questions:
        if q.set != "relevance_traps":
            continue
        assert q.missing_entity, q.id
        pattern = r"(?<![\w])" + re.escape(q.missing_entity) + r"(?![\w])"
        assert not re.search(pattern, everything, re.IGNORECASE), (q.id, q.missing_entity)


@pytest.mark.parametrize(("line", "message"), [
    ('{"id": "x"}', "missing"),
    ("not json", "not JSON"),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "dev"}',
     "needs gold"),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "train", '
     '"gold": []}', "one of dev, test, heldout"),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "dev", '
     '"gold": [{"path": "a.md", "span": "absent text"}]}', "is not in a.md"),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "dev", '
     '"gold": [{"path": "../a.md", "span": "t"}]}', "refused"),
])
def test_malformed_lines_are_typed_errors(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "c").mkdir()
    (tmp_path / "c/a.md").write_text("some text", encoding="utf-8")
    (tmp_path / "q.jsonl").write_text(line + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=message):
        load_questions(tmp_path / "q.jsonl", tmp_path / "c")


def test_every_refusal_over_every_set_is_well_worded(questions, tmp_path: Path) -> None:
    """All five codes, both languages, with the real numbers of every bundled question."""
    build_index(SETTINGS.paths.corpus, tmp_path / "idx", embedder="keyword",
                cache_root=tmp_path / "cache")
    settings = dataclasses.replace(
        SETTINGS, paths=dataclasses.replace(SETTINGS.paths, index=tmp_path / "idx"),
        reranker=dataclasses.replace(SETTINGS.reranker, mode="bi-encoder"))
    source = QuoteSource(settings, index=load_index(tmp_path / "idx"), embedder=KeywordEmbedder())
    checked = Counter()
    for start in range(0, len(questions), 64):
        batch = questions[start:start + 64]
        for q, result in zip(batch, source.ask_many([q.question for q in batch]), strict=True):
            for verdict in result.trace.verdicts:
                forced = dataclasses.replace(verdict, passed=False,
                                             code=gate_codes()[verdict.gate])
                for lang in ("ru", "en"):
                    refusal = refusal_from_verdict(forced, result.candidates.area, lang)
                    assert falsehood_words(refusal.text) == [], (q.id, refusal.text)
                    assert refusal.code in refusal.text or refusal.numbers
                    checked[(q.set, verdict.gate)] += 1
    assert len(checked) == len(SETS) * len(gate_codes())


GOOD = ('{"id": "ok", "set": "out_of_corpus", "question": "q", "lang": "en", "split": "dev", '
        '"why": "not there"}')
BAD_LINES = [
    # (the second line of a file, what the error says after "q.jsonl:2: ")
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru"}', "missing split"),
    ('{"id": "x", "question": "q", "lang": "ru", "split": "dev"}', "missing set"),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "dev", '
     '"gold": [{"path": "a.md", "span": "absent text"}]}', r"x: span 'absent text' is not in a\.md"),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "dev", '
     '"gold": [{"path": "../outside.md", "span": "t"}]}', r"x: .*refused"),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "dev", '
     '"gold": [{"path": "/etc/hostname", "span": "t"}]}', r"x: "),
    ('{"id": "x", "set": "in_corpus", "question": "q", "lang": "ru", "split": "dev", '
     '"gold": [{"path": "nosuch.md", "span": "t"}]}', r"x: "),
    ('{"id": "x", "set": "relevance_traps", "question": "q", "lang": "ru", "split": "dev", '
     '"near": {"path": "a.md"}}', r"x: a gold entry needs 'path' and 'span'"),
    ('{"id": "x", "set": "mine", "question": "q", "lang": "ru", "split": "dev"}',
     "set 'mine' is not one of"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_an_error_names_the_file_the_line_and_the_question(tmp_path: Path, line: str,
                                                           message: str) -> None:
    (tmp_path / "c").mkdir()
    (tmp_path / "c/a.md").write_text("some text", encoding="utf-8")
    (tmp_path / "outside.md").write_text("t", encoding="utf-8")
    file = tmp_path / "q.jsonl"
    file.write_text(GOOD + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=re.escape(f"{file}:2: ") + message):
        load_questions(file, tmp_path / "c")


def test_question_files_of_ones_own_load_in_order_with_ids_unique_across_them(
        tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    (tmp_path / "c/a.md").write_text("some text here", encoding="utf-8")
    first, second = tmp_path / "mine.jsonl", tmp_path / "other" / "more.jsonl"
    second.parent.mkdir()
    first.write_text(GOOD + "\n", encoding="utf-8")
    second.write_text('{"id": "g", "set": "in_corpus", "question": "q", "lang": "en", '
                      '"split": "test", "gold": [{"path": "a.md", "span": "text"}]}\n',
                      encoding="utf-8")
    loaded = load_question_files([first, second], tmp_path / "c")
    assert [q.id for q in loaded] == ["ok", "g"]
    assert (loaded[1].gold[0].start, loaded[1].gold[0].end) == (5, 9)
    assert [q.id for q in load_question_files([first, second], tmp_path / "c", "test")] == ["g"]
    with pytest.raises(QuestionSetError, match="id ok is also in"):
        load_question_files([first, first], tmp_path / "c")


def test_a_verbatim_copy_of_a_gold_span_in_another_file_is_gold_too(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    paragraph = "Select the cells, then choose Format - Cells."
    (corpus / "a.md").write_text(f"# A\n\n{paragraph}\n", encoding="utf-8")
    (corpus / "b.md").write_text(f"# B\n\nIntro.\n\n{paragraph}\n", encoding="utf-8")
    (corpus / "c.md").write_text("# C\n\nSelect the cells.\n", encoding="utf-8")
    file = tmp_path / "q.jsonl"
    file.write_text('{"id": "g", "set": "in_corpus", "question": "q", "lang": "en", "split": "dev", '
                    f'"gold": [{{"path": "a.md", "span": "{paragraph}"}}]}}\n', encoding="utf-8")
    gold = load_question_files([file], corpus)[0].gold
    assert [(g.path, g.copy) for g in gold] == [("a.md", False), ("b.md", True)]
    assert (corpus / "b.md").read_text(encoding="utf-8")[gold[1].start:gold[1].end] == paragraph
    assert gold[1].overlaps("b.md", gold[1].start, gold[1].end)
    assert [g.path for g in load_question_files([file], corpus, copies=False)[0].gold] == ["a.md"]
    # an edit is seen on the next load: the copy is gone once b.md no longer holds the words
    (corpus / "b.md").write_text("# B\n\nSelect the rows instead.\n", encoding="utf-8")
    assert [g.path for g in load_question_files([file], corpus)[0].gold] == ["a.md"]
    # the edited file's text replaced the one read before: one text a file is kept
    assert sum(key[0] == str(corpus.resolve()) for key in _TEXTS) == 3
