from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from workbench.cli._router_train import _tokens
from workbench.config import load_settings
from workbench.routing import TaskItem, text_groups, token_table, train_tokenizer
from workbench.routing._transformers import training_text

ITEMS = [
    TaskItem("t1", "Посчитай SHA-256 от строки «привет»", "ru", "test", "utility",
             {"source": "utility", "utility": "hash.sha256", "args": {"text": "привет"}}),
    TaskItem("t2", "Какая ставка НДС действует с 2026 года?", "ru", "test", "quote", {"source": "quote"}),
    TaskItem("t3", "What is the MD5 of `admin`?", "en", "test", "utility",
             {"source": "utility", "utility": "hash.md5", "args": {"text": "admin"}}),
]
CORPUS = [training_text(item.question, item.gold) for item in ITEMS] * 30 + [
    "Сколько дней между датами в високосном году?", "Переведи число в римскую запись",
    "Convert the date to a Unix timestamp",
] * 30


@pytest.fixture(scope="module")
def tokenizers() -> dict[str, object]:
    return {"small": train_tokenizer(CORPUS, 280), "large": train_tokenizer(CORPUS, 900)}


def test_groups_split_prompts_by_language_and_add_the_index_and_decisions() -> None:
    groups = text_groups(ITEMS)
    assert len(groups["prompt ru"]) == 2 and len(groups["prompt en"]) == 1
    assert len(groups["category index"]) == 1 and "hash" in groups["category index"][0]
    assert len(groups["decision"]) == 3


def test_first_tokenizer_is_the_reference_and_a_larger_vocabulary_saves(tokenizers: dict) -> None:
    table = token_table(tokenizers, ITEMS)
    assert set(table["tokenizer"]) == {"small", "large"}
    small = table[table["tokenizer"] == "small"].set_index("group")
    large = table[table["tokenizer"] == "large"].set_index("group")
    assert (small["savings"] == 0).all()
    assert large.loc["prompt ru", "tokens"] < small.loc["prompt ru", "tokens"]
    assert large.loc["prompt ru", "savings"] == pytest.approx(
        1 - large.loc["prompt ru", "tokens"] / small.loc["prompt ru", "tokens"])
    assert large.loc["prompt ru", "tokens_per_text"] == large.loc["prompt ru", "tokens"] / 2


def test_tokens_cli_reads_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, size in (("a", 280), ("b", 900)):
        train_tokenizer(CORPUS, size, out=tmp_path / name)
    taskset = tmp_path / "tasks.jsonl"
    taskset.write_text(
        '{"id": "x", "question": "Посчитай SHA-256 от строки «привет»", "lang": "ru", "split": "test",'
        ' "kind": "quote", "gold": {"source": "quote"}}\n', encoding="utf-8")
    args = argparse.Namespace(folders=[str(tmp_path / "a"), str(tmp_path / "b")], taskset=[str(taskset)])
    assert _tokens(args, load_settings()) == 0
    out = capsys.readouterr().out
    assert "savings against a" in out and "prompt ru" in out and "category index" in out
