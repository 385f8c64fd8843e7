"""The learned binder: candidates, features, decoy lines, the JSON round trip, ambiguity and bad input.

No weights are loaded from the project: the models here are small tables written in the tests.
"""

from __future__ import annotations

import json
import time

import pytest

from workbench.refusal import falsehood_words
from workbench.routing._binder import (
    AMBIGUOUS_ARGUMENT,
    BinderError,
    BinderModel,
    LearnedBinder,
    ambiguity_refusal,
)
from workbench.routing._binder_candidates import (
    MAX_CANDIDATES,
    TooManyCandidates,
    candidates,
    weighed,
)
from workbench.routing._binder_features import pair_features
from workbench.routing._binder_train import dev_lines, generate_decoy_lines
from workbench.routing._normalise import ArgSpan
from workbench.utilities import Argument, Role, UtilitySchema

AMOUNT = Argument("amount", "number", Role.DATA, "the sum", "сумма")
RATE = Argument("rate", "number", Role.CIRCUMSTANCE, "VAT rate in percent", "ставка НДС в процентах")
ISBN = Argument("isbn", "string", Role.DATA, "the ISBN", "ISBN")
TEXT = Argument("text", "string", Role.DATA, "the text", "текст")
VAT = UtilitySchema(id="money.vat_add", category="money", en="Add VAT", ru="Начислить НДС",
                    arguments=(AMOUNT, RATE), result="number")


def _model(weights: dict[str, float], margin: float = 0.0) -> BinderModel:
    return BinderModel(weights=weights, bias=0.0, margin=margin, reference=False)


def test_weighed_arguments_are_numbers_dates_and_codes():
    assert weighed(AMOUNT) and weighed(ISBN)
    assert weighed(Argument("date", "string", Role.DATA, "date", "дата"))
    assert not weighed(TEXT)
    assert not weighed(Argument("from_base", "integer", Role.CIRCUMSTANCE, "base", "основание"))


def test_candidates_are_every_span_of_the_arguments_type():
    question = "Бронь 58213 на сумму 45 600 руб., НДС 20%"
    found = candidates(AMOUNT, question)
    assert [c.value for c in found] == [58213, 45600, 20]
    assert [question[c.span.start:c.span.end] for c in found] == ["58213", "45 600", "20"]
    codes = candidates(ISBN, "Reader card 123456, ISBN 978-5-17-090630-7?")
    assert [c.value for c in codes] == ["123456", "978-5-17-090630-7"]


def test_a_reference_span_joins_the_candidates():
    question = "the sum is forty two"
    plain = candidates(AMOUNT, question)
    joined = candidates(AMOUNT, question, ArgSpan(11, 20, "number"))
    assert isinstance(plain, list) and isinstance(joined, list)
    assert any(c.span == ArgSpan(11, 20, "number") for c in joined)


def test_features_read_the_owner_noun_and_cues():
    question = "Бронь 58213 на сумму 45600 руб."
    found = candidates(AMOUNT, question)
    assert isinstance(found, list)
    decoy = pair_features(question, AMOUNT, [RATE], found[0], 0, 2)
    value = pair_features(question, AMOUNT, [RATE], found[1], 1, 2)
    assert "L1=бронь" in decoy and "owner_noun" in decoy
    assert "L1=сумма" in value and "L1_cue_own" in value and "currency_after" in value
    assert "reference" not in value
    assert "reference" in pair_features(question, AMOUNT, [RATE], found[1], 1, 2, True)


def test_generated_lines_carry_a_decoy_of_the_arguments_shape():
    lines = generate_decoy_lines(200, seed=3)
    assert lines == generate_decoy_lines(200, seed=3)
    assert lines != generate_decoy_lines(200, seed=4)
    with_decoy = 0
    for line in lines:
        question, args = line["question"], line["gold"]["args"]
        for name, value in args.items():
            arg = AMOUNT if isinstance(value, int) else ISBN
            found = candidates(Argument(name, arg.type, Role.DATA, name, name), question)
            assert isinstance(found, list)
            if len(found) >= 2:
                with_decoy += 1
    assert with_decoy >= 200  # every line offers at least one argument a second span of its shape


def test_training_reader_takes_dev_lines_only(tmp_path):
    rows = [{"id": "a", "question": "q1", "split": "dev", "gold": {"source": "utility", "utility": "x",
                                                                    "args": {"n": 1}}},
            {"id": "b", "question": "q2", "split": "test", "gold": {"source": "utility", "utility": "x",
                                                                     "args": {"n": 2}}},
            {"id": "c", "question": "q3", "split": "heldout", "gold": {"source": "utility", "utility": "x",
                                                                       "args": {"n": 3}}}]
    (tmp_path / "router_a.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    (tmp_path / "heldout").mkdir()
    (tmp_path / "heldout" / "router_h.jsonl").write_text(json.dumps({**rows[0], "id": "h"}), encoding="utf-8")
    (tmp_path / "router_styles.jsonl").write_text(json.dumps({**rows[0], "id": "s"}), encoding="utf-8")
    assert [r["id"] for r in dev_lines(tmp_path)] == ["a"]


def test_json_round_trip(tmp_path):
    model = BinderModel({"L1=сумма": 2.5, "owner_noun": -1.0}, -0.5, 0.75, True, 7,
                        {"dev": 3}, {"alpha": 0.02})
    assert BinderModel.load(model.save(tmp_path / "b.json")) == model


@pytest.mark.parametrize("content", ["not json", '{"format": 99}', "[]",
                                     '{"format": 1, "weights": {"a": "x"}, "bias": 0}',
                                     '{"format": 1, "weights": {"a": NaN}, "bias": 0}'])
def test_damaged_weights_are_a_typed_error(tmp_path, content):
    path = tmp_path / "b.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BinderError):
        BinderModel.load(path)


def test_the_model_picks_the_cued_value_over_the_owned_decoy():
    binder = LearnedBinder(_model({"L1_cue_own": 3.0, "owner_noun": -3.0, "percent_after": -4.0,
                                   "arg=rate|percent_after": 8.0}))
    question = "Бронь 58213 на сумму 45600 руб., НДС 20%. Начисли НДС."
    bound = binder.bind(VAT, question)
    assert bound.refusal is None
    assert bound.spans["amount"].value(question) == 45600
    assert bound.spans["rate"].value(question) == 20


def test_close_candidates_are_refused_naming_both_values():
    binder = LearnedBinder(_model({"kind=number": 1.0}, margin=0.5))
    question = "Начисли НДС к 100 или 200"
    bound = binder.bind(VAT, question)
    assert bound.refusal is not None and bound.refusal.code == AMBIGUOUS_ARGUMENT
    assert "100" in bound.refusal.text and "200" in bound.refusal.text
    assert bound.refusal.numbers["values"] == [100, 200]
    assert "amount" not in bound.spans
    assert LearnedBinder(_model({"kind=number": 1.0}, margin=0.0)).bind(VAT, question).refusal is None


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_ambiguity_text_names_both_values_without_judging(lang):
    refusal = ambiguity_refusal("money.vat_add", "amount", 58213, 45600.5, 0.1, 0.34, lang)
    assert "58213" in refusal.text and "45600.5" in refusal.text and "amount" in refusal.text
    assert falsehood_words(refusal.text) == []
    assert falsehood_words(refusal.area) == []
    assert any("а" <= ch <= "я" for ch in refusal.text.lower()) is (lang == "ru")


@pytest.mark.parametrize("question", [
    "Add VAT to " + " ".join(str(100 + i) for i in range(50)),
    "Add VAT to " + "7" * 10_000,
])
def test_too_many_or_too_long_spans_are_a_typed_refusal_in_time(question):
    binder = LearnedBinder(_model({"kind=number": 1.0}))
    start = time.perf_counter()
    bound = binder.bind(VAT, question)
    assert time.perf_counter() - start < 0.015 * 10  # the decision bound, with room for a loaded machine
    assert bound.refusal is not None and bound.refusal.code == "BAD_ARGUMENT"
    assert bound.refusal.numbers["found"] > bound.refusal.numbers["limit"]
    assert falsehood_words(bound.refusal.text) == []


def test_too_many_candidates_is_counted():
    found = candidates(AMOUNT, " ".join(str(10 + i) for i in range(MAX_CANDIDATES + 1)))
    assert isinstance(found, TooManyCandidates) and found.found == MAX_CANDIDATES + 1


class _Zero:
    """An encoder that reads nothing (the class is given to the router directly here)."""

    def query(self, text: str):
        import numpy as np

        return np.zeros(4, dtype=np.float32)

    passage = query


def test_the_span_router_binds_through_the_binder_it_is_given():
    import numpy as np

    from workbench.routing._span import SpanRouter, SpanRouterConfig

    config = SpanRouterConfig(classes=("money.vat_add", "quote"), embedder="zero", embedding_dims=4,
                              ngram_dims=0, threshold=0.0, seed=1, generated_lines=0, train_items=0,
                              train_seconds=0.0)
    router = SpanRouter(config, np.zeros((4, 2), dtype=np.float32), np.zeros(2, dtype=np.float32), _Zero())
    question = "Начисли НДС 20% к 100 или 200"
    assert router._decide("money.vat_add", question, 1.0).source.value == "utility"  # the rule binding
    router.binder = LearnedBinder(_model({"kind=number": 1.0}, margin=0.5),
                                  lambda schema, q: router.rule._bind(schema.id, q))
    decision = router._decide("money.vat_add", question, 1.0)
    assert decision.refusal is not None and decision.refusal.code == AMBIGUOUS_ARGUMENT
