"""The committed routers load offline, keep their token ids, and give parseable decisions.

Under the copy constraint their utility decisions name catalog ids and copy every value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.routing import TransformersRouter, derive, load_tasks
from workbench.routing._transformers import compact_prompt, load_tokenizer, training_text
from workbench.utilities import load_catalog

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = sorted(p.parent for p in (ROOT / "models" / "routers").glob("*/workbench_training.json"))
QUESTIONS = ROOT / "corpus" / "questions"


@pytest.fixture(scope="module")
def items():
    tasks = load_tasks(QUESTIONS / "router_tasks.jsonl") + load_tasks(QUESTIONS / "red_team.jsonl")
    return [item for item in tasks if item.split == "test"][::40]


def test_the_four_routers_are_committed() -> None:
    assert {p.name for p in FOLDERS} == {"base", "ru-vocab", "base-small", "base-no-refusals"}
    for folder in FOLDERS:
        assert (folder / "model.safetensors").stat().st_size <= 10 * 1024 * 1024
        record = json.loads((folder / "workbench_training.json").read_text(encoding="utf-8"))
        assert record["out"] == f"models/routers/{folder.name}" and record["lines"] >= 30_000


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_router_tokens_round_trip_and_prompts_prefix_training_lines(folder: Path, items) -> None:
    tokenizer = load_tokenizer(folder)
    for item in items:
        ids = tokenizer.encode(item.question, add_special_tokens=False)
        assert tokenizer.decode(ids) == item.question
        prompt = tokenizer.encode(compact_prompt(item.question), add_special_tokens=False)
        full = tokenizer.encode(training_text(item.question, item.gold), add_special_tokens=False)
        assert full[: len(prompt)] == prompt


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_router_decisions_parse(folder: Path, items) -> None:
    router = TransformersRouter(folder)
    assert router.prompt_format == "compact"
    decisions = [router.route(item.question) for item in items]
    failures = [d for d in decisions if d.refusal is not None and d.refusal.code == "PARSE_FAILURE"]
    assert len(failures) <= 1, [d.raw_output for d in failures]
    assert all(d.prompt_tokens > 0 and d.output_tokens > 0 for d in decisions)
    # the same question twice gives the same decision (greedy decoding)
    assert router.route(items[0].question).to_dict() == decisions[0].to_dict()


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_constrained_decisions_copy_their_values(folder: Path, items) -> None:
    router = TransformersRouter(folder, constrained=True)
    catalog = load_catalog().schemas
    for item in items:
        decision = router.route(item.question)
        assert decision.refusal is None or decision.refusal.code != "PARSE_FAILURE", decision.raw_output
        assert decision.utility is None or decision.utility in catalog
        if decision.utility is not None:
            for value in decision.args.values():
                assert isinstance(value, bool) or derive(item.question, value) is not None, (
                    item.question, decision.raw_output)
