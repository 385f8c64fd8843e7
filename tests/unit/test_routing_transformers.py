"""The transformers router, its output parser, the tokenizer and a tiny training run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from transformers import PreTrainedTokenizerFast

from workbench import registry
from workbench.cli import main
from workbench.routing import (
    PARSE_FAILURE_CODE,
    PROMPT_FORMATS,
    RouterDecision,
    Source,
    TrainingConfigError,
    TransformersRouter,
    TransformersRouterError,
    load_training_config,
    parse_decision,
    train_tokenizer,
)
from workbench.routing._train import parameter_count
from workbench.routing._transformers import (
    TRAINING_RECORD,
    compact_prompt,
    decision_target,
    load_tokenizer,
    training_text,
)

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "models" / "routers"
LINES = [
    "Посчитай SHA-256 от строки «привет»",
    "Сколько дней между 2024-03-01 и 2025-12-31? Ответ: 670.",
    "Съешь же ещё этих мягких французских булок, да выпей чаю",
    'What is the SHA-1 digest of the string "hello world"?',
    "Convert 12.5 km to miles, then round to 3 digits: 7.767",
    "  two  spaces, a tab\tand ёлка 123456789 ",
]
TINY_CONFIG = """
name = "tiny"
refusal_share = 0.238
lines = 300
vocab_size = 512
extra_ru = false
hidden_size = 64
intermediate_size = 192
layers = 2
heads = 2
kv_heads = 1
head_dim = 32
epochs = 1
lr = 0.003
seed = 7
out = "models/routers/tiny"
"""


def _code(decision: RouterDecision) -> str | None:
    return decision.refusal.code if decision.refusal else None


# ---------------------------------------------------------------------------------------------
# The tokenizer


@pytest.mark.parametrize("extra_ru", [False, True])
def test_tokenizer_ids_round_trip(tmp_path: Path, extra_ru: bool) -> None:
    corpus = [training_text(line, {"source": "quote"}) for line in LINES] * 20
    trained = train_tokenizer(corpus, 400, extra_ru=extra_ru, out=tmp_path)
    loaded = load_tokenizer(tmp_path)
    assert isinstance(loaded, PreTrainedTokenizerFast)
    for line in LINES:
        ids = loaded.encode(line, add_special_tokens=False)
        assert ids == trained.backend_tokenizer.encode(line).ids
        assert loaded.decode(ids) == line
    assert loaded.eos_token == "<|endoftext|>" and loaded.pad_token_id is not None


@pytest.mark.parametrize("extra_ru", [False, True])
def test_prompt_ids_are_a_prefix_of_the_training_line(extra_ru: bool) -> None:
    golds = [{"source": "quote"}, {"source": "refuse", "refusal": "OUT_OF_SCOPE"},
             {"source": "utility", "utility": "hash.md5", "args": {"text": "abc"}}]
    corpus = [training_text(line, gold) for line in LINES for gold in golds] * 20
    tok = train_tokenizer(corpus, 400, extra_ru=extra_ru)
    for line in LINES:
        for gold in golds:
            prompt = tok.encode(compact_prompt(line), add_special_tokens=False)
            full = tok.encode(training_text(line, gold), add_special_tokens=False)
            assert full[: len(prompt)] == prompt, (line, gold)


def test_extra_ru_expands_the_vocabulary() -> None:
    corpus = [f"{line} {i}" for i in range(40) for line in LINES]
    base = train_tokenizer(corpus, 300)
    expanded = train_tokenizer(corpus, 300, extra_ru=True)
    assert len(expanded) > len(base)


# ---------------------------------------------------------------------------------------------
# The output parser

GOOD = [
    ('{"source": "utility", "utility": "hash.md5", "args": {"text": "abc"}}', Source.UTILITY, None),
    ('Sure! {"source":"utility","utility":"hash.sha256","args":{"text":"да"}} done.', Source.UTILITY, None),
    ('<think></think>{"source": "refuse", "refusal": "MISSING_ARGUMENT"}', Source.REFUSE, "MISSING_ARGUMENT"),
    ('{"source": "quote"}', Source.QUOTE, None),
    ('{"source": "spec", "spec": "vat.rate_for_supply", "args": {"kind": "export"}}', Source.SPEC, None),
    ('{"note": 1} then {"source": "refuse", "refusal": "OUT_OF_SCOPE"}', Source.REFUSE, "OUT_OF_SCOPE"),
]
BAD = [
    "",
    "hash.md5 please",
    '{"source": "utility", "utility": "hash.md5", "args": {"text": "abc"',
    '{"source": "database", "utility": "hash.md5"}',
    '{"source": "utility", "args": {}}',
    '{"source": "utility", "utility": "hash.md5", "args": ["abc"]}',
    '{"source": "refuse"}',
    '{"source": "refuse", "refusal": "PARSE_FAILURE"}',
]


@pytest.mark.parametrize(("raw", "source", "code"), GOOD)
def test_parser_reads_good_outputs(raw: str, source: Source, code: str | None) -> None:
    decision = parse_decision(raw, prompt_tokens=11, output_tokens=7)
    assert decision.source is source
    assert _code(decision) == code
    assert (decision.raw_output, decision.prompt_tokens, decision.output_tokens) == (raw, 11, 7)


def test_parser_keeps_arguments_and_category() -> None:
    decision = parse_decision('x {"source":"utility","utility":"hash.sha256","args":{"text":"привет"}} y')
    assert decision.utility == "hash.sha256" and dict(decision.args) == {"text": "привет"}
    assert decision.category == "hash"


@pytest.mark.parametrize("raw", BAD)
def test_parser_turns_bad_outputs_into_parse_failures(raw: str) -> None:
    decision = parse_decision(raw, prompt_tokens=3, output_tokens=5)
    assert decision.source is Source.REFUSE and _code(decision) == PARSE_FAILURE_CODE
    assert (decision.raw_output, decision.prompt_tokens, decision.output_tokens) == (raw, 3, 5)


def test_targets_parse_back_to_their_gold() -> None:
    golds: list[dict[str, Any]] = [
        {"source": "utility", "utility": "hash.md5", "args": {"text": "abc"}},
        {"source": "refuse", "refusal": "ARGUMENT_IS_CIRCUMSTANCE", "utility": "hash.md5"},
        {"source": "quote"},
    ]
    for gold in golds:
        decision = parse_decision(decision_target(gold))
        assert str(decision.source) == gold["source"]
        assert decision.utility == (gold["utility"] if gold["source"] == "utility" else None)
        assert _code(decision) == gold.get("refusal")


# ---------------------------------------------------------------------------------------------
# The configs


def test_the_four_configs_parse() -> None:
    configs = {p.stem: load_training_config(p) for p in sorted(CONFIGS.glob("*.toml"))}
    assert set(configs) == {"base", "ru-vocab", "base-small", "base-no-refusals"}
    for stem, config in configs.items():
        assert config.name == stem and config.out == f"models/routers/{stem}"
    base = configs["base"]
    assert configs["ru-vocab"].extra_ru and not base.extra_ru
    assert configs["base-no-refusals"].refusal_share == 0.0 < base.refusal_share
    for variant in ("ru-vocab", "base-no-refusals"):
        differing = {k for k, v in vars(configs[variant]).items() if vars(base)[k] != v}
        assert differing <= {"name", "out", "extra_ru", "refusal_share"}
    ratio = parameter_count(base) / parameter_count(configs["base-small"])
    assert 2.5 < ratio < 3.5


def test_a_bad_config_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(TINY_CONFIG.replace("refusal_share = 0.238", "refusal_share = 1.5"), encoding="utf-8")
    with pytest.raises(TrainingConfigError, match="refusal_share"):
        load_training_config(path)
    path.write_text(TINY_CONFIG + "dropout = 0.1\n", encoding="utf-8")
    with pytest.raises(TrainingConfigError, match="dropout"):
        load_training_config(path)


# ---------------------------------------------------------------------------------------------
# A tiny training run through the CLI, and the router on its output


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiny")
    config = folder / "tiny.toml"
    config.write_text(TINY_CONFIG, encoding="utf-8")
    out = folder / "model"
    assert main(["router", "train", str(config), "--lines", "300", "--epochs", "1", "--out", str(out)]) == 0
    return out


def test_training_writes_a_loadable_folder(tiny_model: Path) -> None:
    record = json.loads((tiny_model / TRAINING_RECORD).read_text(encoding="utf-8"))
    assert record["lines"] == 300 and record["epochs"] == 1 and record["steps"] >= 1
    assert record["parameters"] > 0 and record["final_loss"] > 0 and record["seconds_per_step"] > 0
    assert (tiny_model / "model.safetensors").is_file() and (tiny_model / "tokenizer.json").is_file()
    assert json.loads((tiny_model / "config.json").read_text(encoding="utf-8"))["dtype"] == "float16"


@pytest.mark.parametrize("prompt_format", ["compact", "two-stage"])
def test_the_router_routes_with_the_trained_model(tiny_model: Path, prompt_format: str) -> None:
    router = registry.build("router", "transformers", path=str(tiny_model), prompt_format=prompt_format,
                            max_new_tokens=24)
    assert isinstance(router, TransformersRouter)
    for question in ("Посчитай SHA-256 от строки «привет»", "What is the weather in Oslo tomorrow?"):
        decision = router.route(question)
        assert isinstance(decision, RouterDecision) and isinstance(decision.source, Source)
        assert isinstance(decision.raw_output, str) and decision.raw_output
        assert decision.prompt_tokens > 0 and 0 < decision.output_tokens <= 2 * 24


def test_the_trained_folder_defaults_to_the_compact_format(tiny_model: Path) -> None:
    assert TransformersRouter(tiny_model, max_new_tokens=4).prompt_format == "compact"
    assert set(PROMPT_FORMATS) == {"two-stage", "compact"}


def test_bad_folders_and_formats_are_typed_errors(tiny_model: Path, tmp_path: Path) -> None:
    with pytest.raises(TransformersRouterError, match="no model folder"):
        TransformersRouter(tmp_path / "missing")
    with pytest.raises(TransformersRouterError, match="prompt format"):
        TransformersRouter(tiny_model, prompt_format="three-stage")
