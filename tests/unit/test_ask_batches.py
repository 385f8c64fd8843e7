"""``workbench ask --file`` answers a batch at a time, and every answer is the one asked alone.

Questions are screened and routed one by one, the quote source searches a batch's quote
questions together (one dense encoding), and each question then meets its gates and the
checker: the JSON lines of a file are byte for byte those of asking each question by itself,
refusals and screened questions included, in the file's order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import cli
from workbench.answers import ASK_BATCH, answer, answer_many, ask_many
from workbench.config import load_settings
from workbench.retrieval import HybridRetriever
from workbench.routing import RuleRouter

MIXED = [
    "Посчитай SHA-256 от строки привет",  # a utility call
    "Какая кодировка у метки порядка байтов EF BB BF в UTF-8?",  # a quote
    "Какая погода будет завтра?",  # refused
    "Base64 " * 100,  # over the 300-character limit: refused before the router
    "",  # empty: refused before the router
    "What is a byte order mark?",
    "Кто написал «Войну и мир»?",
]


@pytest.fixture
def config(small_index, small_corpus: Path, tmp_path: Path, keyword_config) -> Path:
    """Settings over the small corpus and its keyword index, questions up to 300 characters."""
    return keyword_config(tmp_path, small_corpus, index=small_index.folder,
                          extra="[gates]\nthreshold_bi_encoder_terms = 0.2\n"
                                "[answers]\nmax_question_chars = 300\n")


def _file(tmp_path: Path, questions: list[str]) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps({"question": q}, ensure_ascii=False) + "\n"
                            for q in questions), encoding="utf-8")
    return path


def test_a_file_prints_what_each_question_prints_alone(config: Path, tmp_path: Path,
                                                       capsys) -> None:
    # more than two batches, with the screened questions and the refusals inside them
    asked = (MIXED * (2 * ASK_BATCH // len(MIXED) + 2))[: 2 * ASK_BATCH + 5]
    assert cli.main(["ask", "--json", "--router", "rule", "--config", str(config),
                     "--file", str(_file(tmp_path, asked))]) == 0
    from_file = capsys.readouterr().out.splitlines()
    alone = {}
    for question in MIXED:
        assert cli.main(["ask", "--json", "--router", "rule", "--config", str(config), "--",
                         question]) == 0
        (alone[question],) = capsys.readouterr().out.splitlines()
    assert from_file == [alone[q] for q in asked]
    codes = {json.loads(alone[q])["code"] for q in MIXED}
    decisions = {json.loads(alone[q])["decision"] for q in MIXED}
    assert {"QUESTION_TOO_LONG", "QUESTION_EMPTY"} <= codes and decisions == {"answer",
                                                                              "refusal"}
    assert any(json.loads(alone[q])["verdicts"] for q in MIXED)  # the quote gates ran


def test_a_file_is_searched_a_batch_at_a_time(config: Path, tmp_path: Path, capsys,
                                              monkeypatch) -> None:
    sizes: list[int] = []
    search_many = HybridRetriever.search_many

    def spy(self, questions, top_k=None):
        sizes.append(len(questions))
        return search_many(self, questions, top_k)

    monkeypatch.setattr(HybridRetriever, "search_many", spy)
    asked = [f"Какая кодировка у метки порядка байтов номер {n}?" for n in range(ASK_BATCH + 3)]
    assert cli.main(["ask", "--json", "--source", "quote", "--router", "rule", "--config",
                     str(config), "--file", str(_file(tmp_path, asked))]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(asked)
    assert sizes == [ASK_BATCH, 3]


def test_answer_many_keeps_the_order_and_skips_the_screened(config: Path) -> None:
    settings = load_settings(config)
    router = RuleRouter()
    results = answer_many(MIXED, router, settings)
    assert [r.question for r in results] == MIXED
    for question, result in zip(MIXED, results, strict=True):
        assert result.to_row() == answer(question, router, settings).to_row()
    assert results[3].trace.steps == ("input check: QUESTION_TOO_LONG",)
    assert results[4].trace.steps == ("input check: QUESTION_EMPTY",)


def test_ask_many_streams_a_batch_at_a_time(config: Path) -> None:
    seen: list[str] = []

    class CountingRouter(RuleRouter):
        def route(self, question: str):
            seen.append(question)
            return super().route(question)

    results = ask_many(MIXED[:3] * 3, load_settings(config), router=CountingRouter(), batch=3)
    first = next(results)
    assert first.question == MIXED[0] and len(seen) == 3  # only the first batch was routed
    assert len([first, *results]) == 9 and len(seen) == 9
    with pytest.raises(ValueError, match="at least 1"):
        next(ask_many(MIXED, load_settings(config), router=RuleRouter(), batch=0))
