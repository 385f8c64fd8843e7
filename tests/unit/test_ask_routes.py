"""``workbench ask`` end to end: the router, the source, the checker, one path for every face.

The CLI, ``Lab.ask`` and ``workbench.answers.ask`` take the same path: the router named or the
best one by the catalog's measurement, optionally held to one source. A value the router did not
read from the question never reaches a utility, and bad input is a typed refusal, never a crash.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import cli
from workbench.answers import (
    DEFAULT_ROUTER_FILE,
    FALLBACK_ROUTER,
    DefaultRouterFileError,
    ForcedSource,
    ask,
    best_router,
    load_default_router,
    resolve_router,
)
from workbench.config import load_settings
from workbench.lab import Lab
from workbench.refusal import falsehood_words
from workbench.routing import RuleRouter, ScriptedRouter, Source, scripted_router

ROOT = Path(__file__).resolve().parents[2]
SHA_QUESTION = "Посчитай SHA-256 от строки привет"


@pytest.fixture
def config(small_index, small_corpus: Path, tmp_path: Path, keyword_config) -> Path:
    """Settings over the small corpus and its keyword index, with the real specs and models.

    The small corpus is a part of the course, at another path: ``[answers] router = "rule"``
    routes it as the course is routed (left empty, a corpus other than the bundled course is
    answered from the quote source alone).
    """
    return keyword_config(tmp_path, small_corpus, index=small_index.folder,
                          extra='[gates]\nthreshold_bi_encoder_terms = 0.2\n'
                                '[answers]\nrouter = "rule"\n')


def _ask_json(capsys, *argv: str) -> list[dict]:
    assert cli.main(["ask", "--json", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_sha256_question_is_a_utility_call_on_the_lower_case_word(config: Path,
                                                                      capsys) -> None:
    (line,) = _ask_json(capsys, "--config", str(config), SHA_QUESTION)
    assert line["route"]["source"] == "utility" and line["decision"] == "answer"
    (evidence,) = line["evidence"]
    assert evidence["kind"] == "utility" and evidence["utility"] == "hash.sha256"
    assert evidence["args"] == {"text": "привет"}
    assert line["route"]["arg_spans"] == {"text": {"start": 27, "end": 33, "normaliser": "text"}}
    assert all(row.get("passed", True) is not False for row in line["invariants"])


def test_a_value_the_router_wrote_itself_never_reaches_the_utility(config: Path) -> None:
    # «Привет» with a capital letter is a different hash: the value is not the user's word
    router = scripted_router({SHA_QUESTION: {"source": "utility", "utility": "hash.sha256",
                                             "args": {"text": "Привет"}}})
    result = ask(SHA_QUESTION, load_settings(config), router=router)
    assert result.answer is None and result.refusal is not None
    assert result.refusal.code == "ARGUMENT_NOT_IN_QUESTION"
    assert result.refusal.numbers["argument"] == "text"
    assert not falsehood_words(result.refusal.text)
    assert result.trace.steps[-1] == "utility hash.sha256: ARGUMENT_NOT_IN_QUESTION"


def test_the_cli_and_the_lab_take_the_same_path(config: Path, capsys) -> None:
    questions = [SHA_QUESTION, "Какая кодировка у метки порядка байтов EF BB BF в UTF-8?",
                 "Какая погода будет завтра?"]
    lines = _ask_json(capsys, "--config", str(config), *questions)
    lab = Lab(load_settings(config))
    for question, line in zip(questions, lines, strict=True):
        result = lab.ask(question)
        assert result.trace.decision.to_dict() == line["route"]
        assert (result.refusal.code if result.refusal else None) == line["code"]


# --- the default router comes from the catalog's measurement ---------------------------------


def _choice(models: Path, router: str, rows: list[tuple[str, str, bool, str]] | None = None,
            tasksets: list[str] | None = None) -> Path:
    """A held-out comparison whose choice is written where ask reads it."""
    import pandas as pd

    from workbench.studies import choose_default_router, write_default_router

    frame = pd.DataFrame(rows or [], columns=["router", "id", "correct", "error"])
    choice = choose_default_router(frame)
    assert choice.router == router, choice.lines()
    return write_default_router(choice, models, tasksets or ["heldout/x.jsonl"], run="routers-x")


def _items(router: str, right: int, wrong_value: int, n: int = 60) -> list:
    out = []
    for i in range(n):
        if i < right:
            out.append((router, f"q{i}", True, ""))
        elif i < right + wrong_value:
            out.append((router, f"q{i}", False, "wrong_argument_value"))
        else:
            out.append((router, f"q{i}", False, "refused_answerable"))
    return out


def test_the_default_router_changes_only_on_a_significant_held_out_gain(tmp_path: Path) -> None:
    models = tmp_path / "m"
    # one item better is no reason: the baseline stays
    _choice(models, "rule", _items("rule", 30, 2) + _items("scripted", 31, 2))
    choice = best_router(models)
    assert choice.name == "rule" and "60 held-out items" in choice.reason
    # far more items right and no more verified-wrong answers: the candidate
    _choice(models, "scripted", _items("rule", 20, 2) + _items("scripted", 50, 2))
    assert best_router(models).name == "scripted"
    # far more right, but far more verified-wrong answers too: out at the safety step
    _choice(models, "rule", _items("rule", 20, 0) + _items("scripted", 45, 15))
    record = load_default_router(models / DEFAULT_ROUTER_FILE)
    assert record.run == "routers-x" and any(t["outcome"] == "wrong_answer" for t in record.tests)


def test_a_wrong_utility_or_an_answer_where_a_refusal_was_due_is_a_wrong_answer_at_the_safety_step(
        tmp_path: Path) -> None:
    """Not only a wrong value: every answer that is not right counts, a refusal does not."""
    def calls(router: str, wrong_error: str) -> list:
        return [(router, f"q{i}", i < 30, "" if i < 30 else wrong_error if i < 45 else "false_refusal")
                for i in range(60)]

    # the same wrong values, but one router calls the wrong utility 15 times where the other refuses
    for error in ("wrong_utility", "false_answer", "wrong_source"):
        frame = calls("rule", "false_refusal") + calls("scripted", error)
        _choice(tmp_path / error, "rule", frame)
        record = load_default_router(tmp_path / error / DEFAULT_ROUTER_FILE)
        test = next(t for t in record.tests if t["outcome"] == "wrong_answer")
        assert (test["router"], test["router_count"], test["against_count"]) == ("scripted", 15, 0)


def test_without_a_readable_choice_or_a_buildable_router_the_rule_router(tmp_path: Path) -> None:
    models = tmp_path / "m"
    assert best_router(models).name == FALLBACK_ROUTER == "rule"
    path = models / DEFAULT_ROUTER_FILE
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    choice = best_router(models)
    assert choice.name == "rule" and "not a default-router record" in choice.reason
    with pytest.raises(DefaultRouterFileError, match="default.json"):
        load_default_router(path)
    _choice(models, "scripted", _items("rule", 20, 2) + _items("scripted", 50, 2))
    text = path.read_text(encoding="utf-8").replace('"scripted"', '"gone"')
    path.write_text(text, encoding="utf-8")
    assert best_router(models).name == "rule" and "cannot be built" in best_router(models).reason


def test_a_choice_needs_the_baseline_and_the_same_items() -> None:
    import pandas as pd

    from workbench.studies import DefaultRouterError, choose_default_router

    frame = pd.DataFrame(_items("span", 10, 1), columns=["router", "id", "correct", "error"])
    with pytest.raises(DefaultRouterError, match="baseline 'rule'"):
        choose_default_router(frame)
    both = pd.DataFrame(_items("rule", 10, 1) + _items("span", 10, 1, n=50),
                        columns=["router", "id", "correct", "error"])
    with pytest.raises(DefaultRouterError, match="same items"):
        choose_default_router(both)
    with pytest.raises(DefaultRouterError, match="level"):
        choose_default_router(both, level=1.5)


def test_the_reason_names_the_record_inside_the_checkout_by_its_relative_path() -> None:
    choice = best_router(ROOT / "corpus")  # a folder of the checkout that holds no record
    assert choice.name == "rule" and f"in {Path('corpus') / DEFAULT_ROUTER_FILE}" in choice.reason
    assert str(ROOT) not in choice.reason


def test_the_shipped_record_names_held_out_sets_by_relative_path(tmp_path: Path) -> None:
    record = json.loads((ROOT / "models" / DEFAULT_ROUTER_FILE).read_text(encoding="utf-8"))
    assert record["tasksets"] and all(not Path(t).is_absolute() and (ROOT / t).is_file()
                                      and "heldout" in t for t in record["tasksets"])
    assert best_router(ROOT / "models").name == record["router"]
    written = _choice(tmp_path, "rule", _items("rule", 30, 2) + _items("scripted", 31, 2),
                      tasksets=[str(ROOT / "corpus" / "questions" / "heldout" / "notary.jsonl")])
    again = json.loads(Path(written).read_text(encoding="utf-8"))
    assert again["tasksets"] == ["corpus/questions/heldout/notary.jsonl"]


def test_the_project_catalog_names_a_router_ask_can_build() -> None:
    choice = best_router(ROOT / "models")
    settings = load_settings(ROOT / "workbench.toml")
    assert resolve_router(choice.name, settings) is not None


# --- --source holds the router to one source; it still binds the arguments -------------------


def test_forced_sources_with_the_rule_router() -> None:
    rule = RuleRouter()
    quote = ForcedSource(rule, Source.QUOTE).route(SHA_QUESTION)
    assert quote.source is Source.QUOTE
    spec = ForcedSource(rule, Source.SPEC).route(SHA_QUESTION)
    assert spec.source is Source.REFUSE and spec.refusal.code == "NO_SPEC_FOUND"  # type: ignore[union-attr]
    # a question the rule router sends to the corpus, held to the utility source
    utility = ForcedSource(rule, Source.UTILITY).route("Сколько байт в UTF-8 у строки «ёж»?")
    assert utility.source is Source.UTILITY and utility.utility == "charset.byte_length"
    assert dict(utility.args) == {"text": "ёж", "charset": "utf-8"}
    assert utility.arg_spans["charset"].text("Сколько байт в UTF-8 у строки «ёж»?") == "UTF-8"


def test_a_router_without_route_within_is_never_given_an_invented_id() -> None:
    router = ScriptedRouter({"q": {"source": "quote"}})
    held = ForcedSource(router, Source.UTILITY).route("q")
    assert held.source is Source.REFUSE and held.refusal is not None
    assert held.refusal.code == "SOURCE_NOT_CHOSEN" and held.refusal.numbers == {
        "forced": "utility", "chosen": "quote"}
    assert ForcedSource(router, Source.QUOTE).route("q").source is Source.QUOTE


def test_cli_source_utility_needs_no_index(config: Path, tmp_path: Path, capsys) -> None:
    text = config.read_text(encoding="utf-8").replace("index = ", 'index = "/nonexistent" #')
    bare = tmp_path / "bare.toml"
    bare.write_text(text, encoding="utf-8")
    (line,) = _ask_json(capsys, "--config", str(bare), "--source", "utility", "--router", "rule",
                        SHA_QUESTION)
    assert line["decision"] == "answer" and line["evidence"][0]["kind"] == "utility"


def test_cli_allow_mode_b_without_a_generator_says_so(config: Path, capsys) -> None:
    (line,) = _ask_json(capsys, "--config", str(config), "--router", "rule", "--allow-mode-b",
                        "--source", "spec", SHA_QUESTION)
    assert line["code"] == "MODE_B_UNAVAILABLE"
    assert line["numbers"]["mode_a_code"] == "NO_SPEC_FOUND"


def test_cli_unknown_router_is_one_typed_line(config: Path, capsys) -> None:
    assert cli.main(["ask", "--config", str(config), "--router", "nosuch", "q"]) == 2
    assert "RouterSpecError" in capsys.readouterr().err


# --- bad input: a typed refusal, never a crash ------------------------------------------------

BAD_INPUT: list[tuple[str, str, str]] = [
    # (case, question, code)
    ("empty", "", "QUESTION_EMPTY"),
    ("whitespace", " \t ", "QUESTION_EMPTY"),
    ("100 KB", "Посчитай SHA-256 от " + "я" * 100_000, "QUESTION_TOO_LONG"),
    ("Chinese", "请计算字符串你好的SHA-256哈希值", "QUESTION_SCRIPT"),
    ("Japanese and Arabic", "これは何ですか？ ما هذا؟", "QUESTION_SCRIPT"),
    ("two utilities", "Посчитай SHA-256 от «abc» и переведи 10 дюймов в сантиметры",
     "SEVERAL_REQUESTS"),
    ("two utilities, English", "Give the MD5 of `hello` and convert 5 pounds to kilograms",
     "SEVERAL_REQUESTS"),
]


@pytest.mark.parametrize(("case", "question", "code"), BAD_INPUT, ids=[c for c, _, _ in BAD_INPUT])
def test_bad_input_is_a_typed_refusal(config: Path, capsys, case: str, question: str,
                                      code: str) -> None:
    (line,) = _ask_json(capsys, "--config", str(config), "--router", "rule", question)
    assert line["decision"] == "refusal" and line["code"] == code
    assert line["evidence"] == [] and not falsehood_words(line["text"])


def test_chinese_data_inside_quotes_is_not_refused_for_its_script(config: Path, capsys) -> None:
    (line,) = _ask_json(capsys, "--config", str(config), "Сколько байт в UTF-8 у строки «你好»?")
    assert line["code"] != "QUESTION_SCRIPT"
    assert line["evidence"][0]["result"] == 6


def test_cli_index_without_corpus_checks_quotes_against_the_index_corpus(
        small_index, small_corpus: Path, tmp_path: Path, keyword_config, capsys) -> None:
    # settings whose corpus is another folder: the quote must be checked in the index's own files
    other = tmp_path / "other"
    (other / "corpus").mkdir(parents=True)
    (other / "corpus" / "note.md").write_text("Nothing about encodings here.\n", encoding="utf-8")
    config = keyword_config(other, other / "corpus", index=other / "no-index",
                            extra='[gates]\nthreshold_bi_encoder_terms = 0.2\n')
    question = "Из скольких байтов состоит метка порядка байтов в UTF-8?"
    argv = ["--config", str(config), "--index", str(small_index.folder), "--source", "quote",
            "--router", "rule", question]
    (line,) = _ask_json(capsys, *argv)
    assert line["decision"] == "answer", line
    assert line["evidence"][0]["kind"] == "quote"
    assert all(row.get("passed", True) is not False for row in line["invariants"])
    (told,) = _ask_json(capsys, *argv[:4], "--corpus", str(other / "corpus"), *argv[4:])
    assert told["decision"] != "answer"
