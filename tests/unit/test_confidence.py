"""The confidence gate: its features, its JSON model, its verdicts and refusal, its training."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.config import Settings
from workbench.corpus import Anchor, Corpus, Fragment
from workbench.gates import (
    CandidateSet,
    ConfidenceModel,
    ConfidenceModelError,
    GateVerdict,
    Quote,
    confidence_features,
    default_order,
    feature_groups,
    feature_names,
    gate_codes,
    load_confidence_model,
    refusal_from_verdict,
    run_gates,
    search_area,
)
from workbench.refusal import falsehood_words
from workbench.registry import build
from workbench.relevance import quote_rules
from workbench.retrieval import Hit

ROOT = Path(__file__).resolve().parents[2]

BEST = ("# Sizes\n\nHow many bytes does a UTF-8 character take?\n"
        "- one to four bytes per character\n- ASCII stays one byte\n")
RUNNER_UP = "Base64 turns three bytes into four characters."


def _fragment(path: str, text: str, lang: str = "en") -> Fragment:
    return Fragment(id=f"{path}#0-{len(text)}", anchor=Anchor(path, 0, len(text), "0" * 64),
                    text=text, lang=lang)


def _candidates(tmp_path: Path, question: str = "How many bytes does a UTF-8 character take?",
                earlier: dict[str, GateVerdict] | None = None) -> CandidateSet:
    best, second = _fragment("en/utf8.md", BEST), _fragment("en/base64.md", RUNNER_UP)
    hits = (Hit("f0", 0, 7.0, 0.9, 0.03, 0.9, 0.5), Hit("f1", 1, 2.0, 0.8, 0.02, 0.8, 0.25))
    quote = Quote(fragment=best, text=BEST[len("# Sizes\n\n"):], offset=len("# Sizes\n\n"))
    return CandidateSet(question=question, lang="en", hits=hits, fragments=(best, second),
                        titles=("", ""), quote=quote, corpus=Corpus(tmp_path), area="test",
                        mode="bi-encoder-terms", earlier=earlier or {})


def _earlier(coverage: float = 0.75, fired: tuple[str, ...] = ("entities",)) -> dict:
    return {
        "gate0": GateVerdict("gate0", True, None, {"coverage": coverage, "terms": 4,
                                                   "missing_terms": ["tak"],
                                                   "found_translated": []}),
        "relevance": GateVerdict("relevance", True, None,
                                 {"rules": {name: name in fired for name in quote_rules()}}),
    }


def _model(threshold: float = 0.0, **changes) -> ConfidenceModel:
    names = feature_names()
    coef = [0.0] * len(names)
    coef[names.index("score")] = 2.0
    fields = {"features": names, "mean": (0.0,) * len(names), "scale": (1.0,) * len(names),
              "coef": tuple(coef), "intercept": -1.0, "threshold": threshold,
              "card": {"name": "fake", "n": 3}}
    return ConfidenceModel(**{**fields, **changes})


def _settings(model: Path | str = "", threshold: float = 0.0) -> Settings:
    base = Settings()
    return dataclasses.replace(base, gates=dataclasses.replace(
        base.gates, confidence_model=str(model), confidence_threshold=threshold))


# --- features --------------------------------------------------------------------------------

def test_features_read_the_candidates_and_the_earlier_verdicts_exactly(tmp_path: Path) -> None:
    values = confidence_features("How many bytes does a UTF-8 character take?",
                                 _candidates(tmp_path, earlier=_earlier()), Settings())
    assert set(values) == set(feature_names())
    assert values["score"] == 0.9 and values["fused"] == 0.03 and values["dense"] == 0.9
    assert values["lexical"] == pytest.approx(math.log1p(7.0))
    assert values["terms_share"] == 0.5
    assert values["gap"] == pytest.approx(0.1)
    assert values["runner_up_other_file"] == 1.0 and values["runner_up_same_text"] == 0.0
    assert values["gate0_coverage"] == 0.75 and values["gate0_terms"] == 4.0
    assert values["gate0_missing"] == 1.0
    assert values["rule_entities"] == 1.0
    assert all(values[f"rule_{n}"] == 0.0 for n in quote_rules() if n != "entities")
    assert (values["asks_how_many"], values["asks_who"], values["asks_when"]) == (1.0, 0.0, 0.0)
    assert values["answer_kind_found"] == 1.0  # the answer-type rule did not fire
    assert values["overlap_quote"] == values["overlap_fragment"] == 1.0
    assert 0.0 < values["overlap_first"] < values["overlap_last"] <= 1.0
    assert values["log_chars"] == pytest.approx(math.log1p(len(BEST)))
    # five lines: one heading, two list items, no code
    assert values["heading_lines"] == pytest.approx(1 / 4)
    assert values["list_lines"] == pytest.approx(2 / 4) and values["code"] == 0.0
    assert (values["question_ru"], values["fragment_ru"], values["lang_differs"]) == (0, 0, 0)


def test_the_groups_cover_every_feature_once() -> None:
    names = [n for group in feature_groups().values() for n in group]
    assert names == list(feature_names()) and len(set(names)) == len(names)
    assert set(feature_groups()) == {"scores", "margin", "gate0", "rules", "answer_type",
                                     "overlap", "fragment", "lang"}


def test_without_earlier_verdicts_the_gate_evaluates_them_itself(tmp_path: Path) -> None:
    question = "How many bytes does a UTF-8 character take?"
    bare = _candidates(tmp_path, question)
    settings = Settings()
    earlier = {name: build("gate", name)(question, bare, settings)
               for name in ("gate0", "relevance")}
    assert (confidence_features(question, bare, settings)
            == confidence_features(question, _candidates(tmp_path, question, earlier), settings))


def test_the_runner_hands_each_gate_the_verdicts_before_it(tmp_path: Path) -> None:
    trace = run_gates(_candidates(tmp_path), _settings())
    by_gate = {v.gate: v for v in trace.verdicts}
    recorded = by_gate["confidence"].numbers["features"]
    assert recorded["gate0_coverage"] == by_gate["gate0"].numbers["coverage"]


def test_no_candidates_give_zeros_not_an_error(tmp_path: Path) -> None:
    empty = dataclasses.replace(_candidates(tmp_path), hits=(), fragments=(), quote=None)
    values = confidence_features("How many bytes?", empty, Settings())
    assert values["score"] == 0.0 and values["overlap_quote"] == 0.0
    assert all(math.isfinite(v) for v in values.values())


# --- the model on disk -----------------------------------------------------------------------

def test_the_model_round_trips_through_json(tmp_path: Path) -> None:
    model = _model(threshold=0.5)
    path = model.save(tmp_path / "m.json")
    again = load_confidence_model(path, known=feature_names())
    assert again == model
    row = {name: 0.0 for name in feature_names()} | {"score": 0.9}
    expected = 1 / (1 + math.exp(-(-1.0 + 2.0 * 0.9)))
    assert again.predict(row) == pytest.approx(expected)
    assert again.predict_matrix(again.matrix([row]))[0] == pytest.approx(expected)
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == "digit-confidence-logistic/1"


DAMAGED = [
    ("not a readable JSON file", "{\"schema\": "),
    ("expected a JSON object", "[1, 2]"),
    ("schema 'other/1'", json.dumps({"schema": "other/1"})),
    ("missing field\\(s\\) coef, intercept",
     json.dumps({"schema": "digit-confidence-logistic/1", "features": ["score"], "mean": [0],
                 "scale": [1]})),
    ("coef has 2 values for 1 features",
     json.dumps({"schema": "digit-confidence-logistic/1", "features": ["score"], "mean": [0],
                 "scale": [1], "coef": [1, 2], "intercept": 0})),
    ("not a finite number",
     '{"schema": "digit-confidence-logistic/1", "features": ["score"], "mean": [NaN], '
     '"scale": [1], "coef": [1], "intercept": 0}'),
    ("a scale is not positive",
     json.dumps({"schema": "digit-confidence-logistic/1", "features": ["score"], "mean": [0],
                 "scale": [0], "coef": [1], "intercept": 0})),
    ("features must be a list of names",
     json.dumps({"schema": "digit-confidence-logistic/1", "features": "score", "mean": [0],
                 "scale": [1], "coef": [1], "intercept": 0})),
    ("not computed by this version: tea_leaves|feature\\(s\\) tea_leaves",
     json.dumps({"schema": "digit-confidence-logistic/1", "features": ["tea_leaves"],
                 "mean": [0], "scale": [1], "coef": [1], "intercept": 0})),
]


@pytest.mark.parametrize(("message", "text"), DAMAGED)
def test_a_damaged_or_mismatched_file_is_a_typed_error(tmp_path: Path, message: str,
                                                       text: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfidenceModelError, match=message):
        load_confidence_model(path, known=feature_names())


def test_a_missing_model_file_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(ConfidenceModelError, match="cannot read it"):
        load_confidence_model(tmp_path / "absent.json")


# --- verdicts and the refusal ----------------------------------------------------------------

def test_with_no_model_the_gate_passes_and_says_it_is_not_configured(tmp_path: Path) -> None:
    verdict = build("gate", "confidence")("q", _candidates(tmp_path), _settings("", 0.9))
    assert verdict.passed and verdict.code is None
    assert verdict.numbers["configured"] is False and verdict.numbers["confidence"] is None
    assert verdict.detail.startswith("not configured")


def test_with_threshold_zero_the_estimate_is_recorded_not_gated(tmp_path: Path) -> None:
    path = _model().save(tmp_path / "m.json")
    verdict = build("gate", "confidence")("q", _candidates(tmp_path), _settings(path, 0.0))
    assert verdict.passed and verdict.numbers["configured"] is False
    assert verdict.numbers["confidence"] == round(1 / (1 + math.exp(-(-1.0 + 1.8))), 4)
    assert verdict.detail.startswith("not configured")


def test_a_missing_model_file_passes_at_threshold_zero_and_is_an_error_above(tmp_path: Path
                                                                            ) -> None:
    check = build("gate", "confidence")
    absent = tmp_path / "absent.json"
    verdict = check("q", _candidates(tmp_path), _settings(absent, 0.0))
    assert verdict.passed and verdict.numbers["configured"] is False
    assert verdict.detail.startswith("not configured") and "absent.json" in verdict.detail
    with pytest.raises(ConfidenceModelError, match="cannot read it"):
        check("q", _candidates(tmp_path), _settings(absent, 0.5))


def test_under_the_threshold_the_gate_refuses_with_its_code(tmp_path: Path) -> None:
    path = _model().save(tmp_path / "m.json")
    check = build("gate", "confidence")
    estimate = round(1 / (1 + math.exp(-(-1.0 + 1.8))), 4)  # 0.69
    refused = check("q", _candidates(tmp_path), _settings(path, 0.7))
    assert not refused.passed and refused.code == "LOW_CONFIDENCE"
    assert refused.numbers == {**refused.numbers, "confidence": estimate, "threshold": 0.7,
                               "configured": True}
    assert check("q", _candidates(tmp_path), _settings(path, 0.69)).passed


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_refusal_says_only_what_was_checked(lang: str) -> None:
    verdict = GateVerdict("confidence", False, "LOW_CONFIDENCE",
                          {"confidence": 0.41, "threshold": 0.62, "path": "ru/vat.md"})
    area = search_area("course", 42, 598, lang)
    text = refusal_from_verdict(verdict, area, lang).text
    assert "0.41" in text and "0.62" in text and area in text
    assert falsehood_words(text) == []
    lowered = text.lower()
    assert not any(claim in lowered for claim in ("not present", "нет в источнике", "absent",
                                                  "отсутству"))
    other = "[а-яё]" if lang == "en" else "[a-z]{3,}"
    stripped = text.replace(area, "").replace("ru/vat.md", "")
    assert not pd.Series([stripped]).str.contains(other, case=False).any()


# --- registration, order, settings -----------------------------------------------------------

def test_the_gate_is_registered_with_its_code_before_verbatim() -> None:
    assert gate_codes()["confidence"] == "LOW_CONFIDENCE"
    order = default_order()
    assert order.index("confidence") == order.index("verbatim") - 1
    defaults = Settings().gates.order
    assert defaults.index("confidence") == defaults.index("verbatim") - 1


def test_the_shipped_settings_and_the_defaults_agree_on_the_confidence_gate() -> None:
    shipped = tomllib.loads((ROOT / "workbench.toml").read_text(encoding="utf-8"))["gates"]
    defaults = Settings().gates
    assert tuple(shipped["order"]) == defaults.order
    assert shipped["confidence_model"] == defaults.confidence_model
    assert shipped["confidence_threshold"] == defaults.confidence_threshold


def test_the_shipped_model_loads_and_says_what_it_was_trained_on() -> None:
    model = load_confidence_model(ROOT / "models/confidence/course.json", known=feature_names())
    card = model.card
    assert card["split"] == "dev" and card["n"] > 0 and len(card["corpus_digest"]) == 64
    assert [q["file"] for q in card["questions"]] == ["in_corpus.jsonl", "out_of_corpus.jsonl",
                                                       "relevance_traps.jsonl"]
    assert all(len(q["sha256"]) == 64 for q in card["questions"])
    assert 0.0 < model.threshold < 1.0
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}", json.dumps(card))  # date-free


# --- evaluation rows and training ------------------------------------------------------------

def test_an_evaluation_row_carries_the_confidence(tmp_path: Path) -> None:
    from workbench.corpus._questions import Question
    from workbench.gates import QuoteResult
    from workbench.studies import result_row

    path = _model().save(tmp_path / "m.json")
    view = _candidates(tmp_path)
    trace = run_gates(view, _settings(path, 0.0))
    result = QuoteResult(view.question, "en", view, trace, view.quote, None)
    question = Question(id="q1", set="in_corpus", question=view.question, lang="en",
                        split="dev")
    row = result_row(question, result)
    assert row["confidence"] == trace.verdicts[default_order().index("confidence")].numbers[
        "confidence"]
    bare = run_gates(view, _settings("", 0.0))
    assert result_row(question, QuoteResult(view.question, "en", view, bare, view.quote,
                                            None))["confidence"] is None


def _synthetic(n: int = 120, seed: int = 3) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rows where ``score`` alone tells a right answer, and features of pure noise besides."""
    rng = np.random.default_rng(seed)
    right = rng.random(n) < 0.5
    features = pd.DataFrame(rng.normal(size=(n, len(feature_names()))),
                            columns=list(feature_names()))
    features["score"] = np.where(right, 1.0, -1.0) + rng.normal(scale=0.1, size=n)
    rows = pd.DataFrame({"id": [f"q{i}" for i in range(n)], "set": "in_corpus", "split": "dev",
                         "top_is_gold": right, "gold_rank": np.where(right, 1, 2),
                         "top_score": rng.random(n), "n_hits": 10, "label": right})
    for gate in default_order():
        rows[f"wf_{gate}"] = False
    for rule in quote_rules():
        rows[f"rule_{rule}"] = False
    rows.attrs["order"] = list(default_order())
    return rows, features


def test_cross_validation_is_seeded_and_the_ablation_finds_the_signal() -> None:
    from workbench.studies import confidence_ablation, cross_validated, risk_coverage

    rows, features = _synthetic()
    first = cross_validated(features, rows["label"], seed=5)
    assert np.array_equal(first, cross_validated(features, rows["label"], seed=5))
    table = confidence_ablation(rows, features, seed=5).set_index("removed")
    assert list(table.index[1:-1]) == list(feature_groups())
    # score separates the labels: the full model reaches the area of a perfect ranking
    best = risk_coverage(rows.assign(confidence=0.0), "confidence").aurc_best
    assert table.loc["—", "aurc"] == pytest.approx(best, abs=0.005)
    assert table.loc["scores", "delta"] > 0.1  # without it only noise is left
    assert table.loc["scores", "features"] == len(feature_names()) - len(
        feature_groups()["scores"])


def test_too_few_of_a_label_is_a_typed_error() -> None:
    from workbench.studies import ConfidenceTrainingError, cross_validated

    rows, features = _synthetic(20)
    labels = [True] * 17 + [False] * 3
    with pytest.raises(ConfidenceTrainingError, match="3 wrong"):
        cross_validated(features, labels)


def test_the_verb_trains_on_the_files_given_and_can_ablate() -> None:
    from workbench.cli import build_parser

    args = build_parser().parse_args(["gates", "train-confidence", "--questions", "a.jsonl",
                                      "b.jsonl", "--out", "m.json", "--ablate", "--seed", "7"])
    assert args.questions == ["a.jsonl", "b.jsonl"] and args.out == "m.json"
    assert args.ablate and args.seed == 7 and args.handler.__name__ == "_train_confidence"
    assert build_parser().parse_args(["gates", "train-confidence"]).ablate is False


def test_one_model_trains_on_the_dev_split_of_several_corpora(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    from workbench.studies import _confidence as training

    first, second = tmp_path / "first", tmp_path / "second"
    for folder in (first, second):
        folder.mkdir()
        (folder / "page.md").write_text("# A page\n\nSome text of the page.\n", encoding="utf-8")
    read: list[str] = []

    def fake_rows(settings: Settings, **_: object) -> tuple[pd.DataFrame, pd.DataFrame, tuple]:
        name = Path(settings.paths.corpus).name
        read.append(name)
        rows, features = _synthetic(60, seed=len(read))
        return rows.assign(id=[f"{name}-{i}" for i in range(60)]), features, (
            tmp_path / f"{name}.jsonl",)

    monkeypatch.setattr(training, "confidence_rows", fake_rows)
    monkeypatch.setattr(training, "sha256_file", lambda path: "0" * 64)
    base = Settings().with_overrides(paths={"corpus": str(first)})
    other = training.TrainingCorpus(base.with_overrides(paths={"corpus": str(second)}),
                                    (tmp_path / "second.jsonl",))
    result = training.train_confidence(base, also=[other])
    assert read == ["first", "second"]
    assert len(result.rows) == 120 and set(result.rows["corpus"]) == {"first", "second"}
    assert [(c["name"], c["n"]) for c in result.model.card["corpora"]] == [("first", 60),
                                                                           ("second", 60)]
    assert result.model.card["n"] == 120


def test_also_names_an_index_and_its_question_files() -> None:
    from workbench.cli import build_parser
    from workbench.cli._gates import _training_corpus
    from workbench.config import ConfigError

    args = build_parser().parse_args(["gates", "train-confidence", "--also", "idx", "a.jsonl",
                                      "b.jsonl", "--also", "idx2", "c.jsonl"])
    assert args.also == [["idx", "a.jsonl", "b.jsonl"], ["idx2", "c.jsonl"]]
    with pytest.raises(ConfigError, match="at least one question file"):
        _training_corpus(Settings(), ["idx"])
