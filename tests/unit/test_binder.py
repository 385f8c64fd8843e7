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
    named_fit,
    weighed,
)
from workbench.routing._binder_features import Place, argument_place, pair_features
from workbench.routing._binder_train import (
    absent_lines,
    dev_lines,
    generate_decoy_lines,
    line_pairs,
    set_folds,
)
from workbench.routing._normalise import ArgSpan
from workbench.utilities import Argument, Role, UtilitySchema, load_catalog

AMOUNT = Argument("amount", "number", Role.DATA, "the sum", "сумма")
RATE = Argument("rate", "number", Role.CIRCUMSTANCE, "VAT rate in percent", "ставка НДС в процентах")
ISBN = Argument("isbn", "string", Role.DATA, "the ISBN", "ISBN")
TEXT = Argument("text", "string", Role.DATA, "the text", "текст")
VAT = UtilitySchema(id="money.vat_add", category="money", en="Add VAT", ru="Начислить НДС",
                    arguments=(AMOUNT, RATE), result="number")


def _model(weights: dict[str, float], margin: float = 0.0) -> BinderModel:
    return BinderModel(weights=weights, bias=0.0, margin=margin, reference=False)


def _binding_tail(name: str, at: int) -> LearnedBinder:
    """A binder whose reference binds argument ``name`` to the question from ``at`` to its end."""
    return LearnedBinder(_model({}), lambda schema, q: {name: ArgSpan(at, len(q), "text")})


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


def _arg(name: str, kind: str = "integer") -> Argument:
    return Argument(name, kind, Role.DATA, name, name)


R, G, B = _arg("r"), _arg("g"), _arg("b")
RGB = UtilitySchema(id="color.rgb_to_hex", category="color", en="RGB to hex", ru="RGB в hex",
                    arguments=(R, G, B), result="string")


def test_an_argument_is_placed_among_its_kin_and_read_against_the_candidates_place():
    assert argument_place(G, RGB.arguments) == Place(1, 3)
    assert argument_place(AMOUNT, VAT.arguments) == Place(0, 2)
    question = "rgb(0, 128, 255)"
    found = candidates(G, question)
    assert isinstance(found, list) and len(found) == 3
    second = pair_features(question, G, [R, B], found[1], 1, 3, place=Place(1, 3))
    assert "rank=1/3|pos=1" in second and "rank=1/3|from_end=1" in second
    assert not any(f.startswith("rank=") for f in pair_features(question, G, [R, B], found[1], 1, 3))


def test_a_weighed_arguments_taken_span_is_scored_in_place_as_in_training(tmp_path):
    # g's candidates keep their places (128 second) though r took the first: scored as trained
    weights = {"rank=0/3|pos=0": 3.0, "rank=1/3|pos=0": -3.0, "rank=1/3|pos=1": 3.0, "rank=2/3|pos=2": 3.0,
               "first": 0.5}
    question = "Hex for rgb(0, 128, 255)?"
    bound = LearnedBinder(_model(weights)).bind(RGB, question)
    assert bound.refusal is None
    assert {name: span.value(question) for name, span in bound.spans.items()} == {"r": 0, "g": 128, "b": 255}
    # weights of the first format were trained with a taken span left out first: ranked so still
    path = tmp_path / "v1.json"
    path.write_text(json.dumps({"format": 1, "weights": {"first": 1.0, "last": -1.0}, "bias": 0.0,
                                "margin": 0.0, "reference": False}), encoding="utf-8")
    legacy = BinderModel.load(path)
    assert legacy.features == 1
    bound = LearnedBinder(legacy).bind(RGB, question)
    assert [bound.spans[n].value(question) for n in "rgb"] == [0, 128, 255]  # each takes the first left
    in_place = LearnedBinder(BinderModel(legacy.weights, 0.0, reference=False)).bind(RGB, question)
    assert "b" not in in_place.spans  # in place, 255 is never "first": its logit is -1, below one half


@pytest.mark.parametrize(("question", "text", "glued"), [
    ("application 2025-0411-77, principal 411 000", "0411", True),
    ("application 2025-0411-77, principal 411 000", "411 000", False),
    ("contract No. 17/25", "17", True),
])
def test_a_number_glued_into_a_longer_code_is_marked(question, text, glued):
    found = candidates(AMOUNT, question)
    assert isinstance(found, list)
    cand = next(c for c in found if question[c.span.start:c.span.end] == text)
    assert ("glued" in pair_features(question, AMOUNT, [], cand, 0, len(found))) is glued


def test_a_value_beside_another_arguments_unit_is_marked_with_that_arguments_name():
    question = "The file is 350 MiB, the limit 400 MB: how many MB is it?"
    found = candidates(AMOUNT, question)
    assert isinstance(found, list)
    units = {"from_unit": (question.index("MiB"), question.index("MiB") + 3),
             "to_unit": (question.index("MB"), question.index("MB") + 2)}
    near = [[f for f in pair_features(question, AMOUNT, [], c, i, len(found), given=units)
             if f.startswith("next_to")] for i, c in enumerate(found)]
    assert near == [["next_to=from_unit"], ["next_to=to_unit"]]


def test_an_identifiers_length_is_its_own_feature():
    bik = Argument("bik", "string", Role.DATA, "the BIK", "БИК")
    question = "БИК 040349602, счёт 40702810830000012345"
    found = candidates(bik, question)
    assert isinstance(found, list)
    assert [f for c in found for f in pair_features(question, bik, [], c, 0, 2) if "|digits=" in f] == [
        "arg=bik|digits=9", "arg=bik|digits=20"]


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


def test_generated_decoys_stand_before_and_after_the_values_asked():
    # a decoy always before the value asked teaches that the later value is meant
    sides = {"before": 0, "after": 0}
    for line in generate_decoy_lines(800, seed=5):
        question, args = line["question"], line["gold"]["args"]
        if line["gold"]["utility"] != "date.weekday":
            continue
        y, m, d = args["date"].split("-")
        asked = question.index(f"{d}.{m}.{y}")
        others = [c.span.start for c in candidates(Argument("date", "string", Role.DATA, "date", "дата"),
                                                   question) if c.value != args["date"]]
        sides["before" if any(o < asked for o in others) else "after"] += 1
    assert sides["before"] >= 10 and sides["after"] >= 10


def test_generated_decoys_include_values_set_aside_in_words():
    lines = generate_decoy_lines(900, seed=5)
    test_card = [line for line in lines if line["gold"]["utility"] == "id.luhn_check"
                 and "4111 1111 1111 1111" in line["question"]]
    assert test_card and all(line["gold"]["args"]["number"] != "4111 1111 1111 1111"
                             for line in test_card)
    corrected = [line for line in lines
                 if any(w in line["question"] for w in ("sorry", "ой, нет", "(not ", "(не "))]
    totals = [line for line in lines
              if any(w in line["question"] for w in ("in total", "итого", "the total of"))]
    assert corrected and totals
    for line in corrected + totals:  # the value asked is the later, corrected one, or the total
        amount = line["gold"]["args"]["amount"]
        assert str(amount) in line["question"]


def test_calibration_folds_keep_each_set_whole():
    lines = [{"set": name, "question": str(i)} for i, name in enumerate("aabbbcdd")]
    folds = set_folds(lines, 2)
    assert folds == [0, 0, 1, 1, 1, 0, 1, 1]
    by_set: dict[str, set[int]] = {}
    for line, fold in zip(lines, folds, strict=True):
        by_set.setdefault(line["set"], set()).add(fold)
    assert all(len(f) == 1 for f in by_set.values()) and set(folds) == {0, 1}


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
    assert [(r["id"], r["set"]) for r in dev_lines(tmp_path)] == [("a", "router_a")]


def test_json_round_trip(tmp_path):
    model = BinderModel({"L1=сумма": 2.5, "owner_noun": -1.0}, -0.5, 0.75, True, 7,
                        {"dev": 3}, {"alpha": 0.02})
    assert BinderModel.load(model.save(tmp_path / "b.json")) == model
    assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))["format"] == 2


@pytest.mark.parametrize("content", ["not json", '{"format": 99}', "[]",
                                     '{"format": 1, "weights": {"a": "x"}, "bias": 0}',
                                     '{"format": 1, "weights": {"a": NaN}, "bias": 0}',
                                     '{"format": 2, "weights": {}, "bias": 0, "features": 7}'])
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
                                  lambda schema, q: router.reference.bind(schema.id, q))
    decision = router._decide("money.vat_add", question, 1.0)
    assert decision.refusal is not None and decision.refusal.code == AMBIGUOUS_ARGUMENT


def test_train_binder_verb_writes_weights_that_load(tmp_path, capsys):
    from workbench.cli import main

    out = tmp_path / "b.json"
    assert main(["router", "train-binder", "--no-reference", "--generated", "60", "--out", str(out)]) == 0
    model = BinderModel.load(out)
    assert model.reference is False and model.trained_on["generated"] == 60
    assert model.trained_on["absent"] == 600
    assert model.calibration["alpha"] == 0.02 and model.calibration["calls"] > 0
    printed = capsys.readouterr().out
    assert f"margin {model.margin:g}" in printed and str(out) in printed


def test_a_binder_router_name_with_a_json_file_routes_through_those_weights(monkeypatch):
    import workbench.routing._span_variants as span_module
    from workbench.routing import build_router

    seen = {}
    monkeypatch.setattr(span_module, "load_span_router", lambda folder=None: ("span", folder))
    monkeypatch.setattr(span_module, "with_learned_binder",
                        lambda span, weights=None: seen.setdefault("built", (span, weights)))
    build_router("span-binder-noref:elsewhere/retrained.json")
    assert seen.pop("built") == (("span", None), "elsewhere/retrained.json")
    build_router("span-binder:models/routers/span-minilm")
    assert seen.pop("built") == (("span", "models/routers/span-minilm"), None)
    build_router("span-binder-noref")
    assert str(seen.pop("built")[1]).endswith("models/binder/binder-noref.json")


@pytest.mark.parametrize(("question", "bound", "literal"), [
    ("СМС: «Ваш велосипед ждёт» — сколько байт в UTF-8?", "«Ваш велосипед ждёт» — сколько байт в UTF-8?",
     "Ваш велосипед ждёт"),
    ("SHA-256 of `ivanova@mail.ru` (donor 2291) please", "`ivanova@mail.ru` (donor 2291) please",
     "ivanova@mail.ru"),
    ('Validate {"db": "shop", "port": 5432}', '{"db": "shop", "port": 5432}', None),  # JSON's own quotes
    ("MD5 of «Ф. 12» — 45", "«Ф. 12» — 45", None),  # nothing but a number beside it
    ("Slug for `Раф лавандовый`", "Раф лавандовый", None),  # the literal alone
    ('bio: "Daria has taught jazz for nine years." how many words is that?',
     '"Daria has taught jazz for nine years." how many words is that?',
     "Daria has taught jazz for nine years."),  # a plain quote mark opening the run, words inside
    ('Validate "db": "shop house", please', '"db": "shop house", please', None),  # a JSON key opens it
    ('Count words: Daria said "we won the cup" after it', 'Daria said "we won the cup" after it',
     None),  # a plain mark inside the run is the data's own
])
def test_a_text_span_holding_a_quoted_literal_among_words_is_read_two_ways(question, bound, literal):
    from workbench.routing._binder_candidates import quoted_within

    start = question.index(bound)
    inner = quoted_within(question, ArgSpan(start, start + len(bound), "text"))
    assert (question[inner[0]:inner[1]] if inner else None) == literal


def test_a_text_bound_with_words_beside_its_quoted_literal_is_refused_naming_both():
    schema = UtilitySchema(id="hash.sha256", category="hash", en="SHA-256", ru="SHA-256",
                           arguments=(TEXT,), result="string")
    question = "Посчитай SHA-256 от `RSF-25-v3` (v2 уже отклонили)."
    start = question.index("`")
    binder = LearnedBinder(_model({}), lambda s, q: {"text": ArgSpan(start, len(question) - 1, "text")})
    bound = binder.bind(schema, question)
    assert bound.refusal is not None and bound.refusal.code == AMBIGUOUS_ARGUMENT
    assert bound.refusal.numbers["values"] == ["RSF-25-v3", "`RSF-25-v3` (v2 уже отклонили)"]
    assert falsehood_words(bound.refusal.text) == []
    plain = LearnedBinder(_model({}), lambda s, q: {"text": ArgSpan(start + 1, start + 10, "text")})
    assert plain.bind(schema, question).refusal is None  # the literal alone binds


# --- lines that give no value -------------------------------------------------------------

def test_lines_that_give_no_value_teach_only_negatives():
    lines = absent_lines(40, seed=3)
    assert lines == absent_lines(40, seed=3) and len({line["question"] for line in lines}) > 30
    from workbench.utilities import load_catalog

    schemas = load_catalog().schemas
    for line in lines:
        gold = line["gold"]
        assert gold["args"] == {} and gold["missing"] in {a.name for a in schemas[gold["utility"]].arguments}
        pairs = line_pairs(line, schemas[gold["utility"]], None, False)
        assert pairs and all(label == 0 for _, label in pairs), line["question"]



def test_the_reader_takes_dev_refusals_that_name_a_missing_argument_only_when_asked(tmp_path):
    rows = [{"id": "a", "question": "q1", "split": "dev", "gold": {"source": "utility", "utility": "x",
                                                                    "args": {"n": 1}}},
            {"id": "m", "question": "q2", "split": "dev",
             "gold": {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "x", "missing": "n"}},
            {"id": "t", "question": "q3", "split": "test",
             "gold": {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "x", "missing": "n"}},
            {"id": "o", "question": "q4", "split": "dev",
             "gold": {"source": "refuse", "refusal": "OUT_OF_SCOPE"}}]
    (tmp_path / "router_a.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert [r["id"] for r in dev_lines(tmp_path)] == ["a"]
    taken = dev_lines(tmp_path, absent=True)
    assert [r["id"] for r in taken] == ["a", "m"]
    assert taken[1]["gold"] == {"utility": "x", "args": {}, "missing": "n"}


def test_a_negative_count_of_absent_lines_is_refused_by_the_verb(capsys):
    from workbench.cli import main

    with pytest.raises(SystemExit):
        main(["router", "train-binder", "--absent", "-1", "--out", "x.json"])
    assert "not a count" in capsys.readouterr().err


INN_CHECK = load_catalog().schemas["id.validate_inn"]


@pytest.mark.parametrize(("question", "text", "fits"), [
    ("Проверь ИНН клиента по заказу 209", "209", False),  # another noun's number
    ("проверь ИНН 12345", "12345", True),  # given as the ИНН: its check says it fails
    ("ИНН: 7707083893, заказ 209", "7707083893", True),  # of the form
    ("Check the INN — order 209", "209", False),
    ("check INN #209 for me", "209", True),
])
def test_an_identifier_candidate_of_another_form_fits_only_right_after_its_name(question, text, fits):
    at = question.index(text)
    arg = INN_CHECK.arguments[0]
    assert named_fit(INN_CHECK.id, arg, question, ArgSpan(at, at + len(text), "code")) is fits


def test_a_candidate_of_another_form_is_set_aside_and_named():
    binder = LearnedBinder(_model({"kind=code": 1.0}, margin=0.5))
    alone = binder.bind(INN_CHECK, "Проверь ИНН клиента по заказу 209, он звонил")
    assert "inn" not in alone.spans and alone.set_aside == {"inn": ("209",)} and alone.refusal is None
    # scored alike, the decoy first and the ИНН second: the decoy is no rival, so no ambiguity
    question = "Заказ 209, ИНН клиента 7707083893 — проверь"
    both = binder.bind(INN_CHECK, question)
    assert both.refusal is None and both.spans["inn"].value(question) == "7707083893"
    assert [s.candidate.value for s in both.choices[0].ranked] == ["7707083893"]
    named = binder.bind(INN_CHECK, "проверь ИНН 12345")
    assert named.spans["inn"].value("проверь ИНН 12345") == "12345" and named.set_aside == {}


def test_the_span_router_refusal_names_the_spans_set_aside_and_the_form():
    import numpy as np

    from workbench.routing._span import SpanRouter, SpanRouterConfig

    config = SpanRouterConfig(classes=("id.validate_inn", "quote"), embedder="zero", embedding_dims=4,
                              ngram_dims=0, threshold=0.0, seed=1, generated_lines=0, train_items=0,
                              train_seconds=0.0)
    router = SpanRouter(config, np.zeros((4, 2), dtype=np.float32), np.zeros(2, dtype=np.float32), _Zero())
    router.binder = LearnedBinder(_model({"kind=code": 1.0}),
                                  lambda schema, q: router.reference.bind(schema.id, q))
    decision = router._decide("id.validate_inn", "Проверь ИНН клиента по заказу 209, он звонил", 1.0)
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers["set_aside"] == ["209"]
    assert decision.refusal.numbers["shape"] == INN_CHECK.arguments[0].shape
    assert "209" in decision.refusal.text and falsehood_words(decision.refusal.text) == []


def test_a_text_without_its_declared_form_gives_way_to_a_whole_value_of_it_or_is_set_aside():
    schemas = load_catalog().schemas
    table, translit = schemas["format.csv_to_markdown"], schemas["text.transliterate"]
    question = "Turn this into a table for the post, sale 44:\nlot,hammer\n12,85000\n13,210000"
    cell = question.index("44")
    binder = LearnedBinder(_model({}), lambda schema, q: {"data": ArgSpan(cell, cell + 2, "text")})
    bound = binder.bind(table, question)
    assert bound.spans["data"].value(question) == "lot,hammer\n12,85000\n13,210000"
    assert bound.set_aside == {"data": ("44",)}
    question = "Переведи в латиницу по ГОСТу ФИО из заявки 2025-0412"
    run = question.index("2025-0412")
    gost = question.index("ГОСТ")
    binder = LearnedBinder(_model({}), lambda schema, q: {
        "text": ArgSpan(run, run + 9, "text"), "standard": ArgSpan(gost, gost + 4, "enum")})
    bound = binder.bind(translit, question)
    assert "text" not in bound.spans and bound.set_aside == {"text": ("2025-0412",)}


def test_an_address_is_cut_after_its_last_part_and_never_extended():
    parse = load_catalog().schemas["address.parse_ru"]
    question = ("Разберите адрес по полям: 443099, Самарская обл., г. Самара, ул. Молодогвардейская, "
                "д. 151, кв. 45. Заявитель сидит у окна №2, ждёт.")
    start = question.index("443099")
    binder = _binding_tail("address", start)
    bound = binder.bind(parse, question)
    assert bound.spans["address"].value(question) == (
        "443099, Самарская обл., г. Самара, ул. Молодогвардейская, д. 151, кв. 45")
    assert bound.set_aside == {"address": (question[start:],)}
    # the reference's span cut short stays as it is: the form only cuts, it never reaches beyond it
    street = question.index("г. Самара")
    short = LearnedBinder(_model({}), lambda schema, q: {"address": ArgSpan(street, street + 35, "text")})
    assert short.bind(parse, question).spans["address"] == ArgSpan(street, street + 35, "text")
    # a text in which the parser reads fewer than two parts of an address is none
    flat = "Разбери по полям адрес регистрации собственника кв. 56. Он в выписке из ЕГРН."
    at = flat.index("56")
    alone = LearnedBinder(_model({}), lambda schema, q: {"address": ArgSpan(at, at + 2, "text")})
    bound = alone.bind(parse, flat)
    assert "address" not in bound.spans and bound.set_aside == {"address": ("56",)}

def test_a_whole_value_cut_by_the_reference_is_taken_whole():
    schemas = load_catalog().schemas
    question = "Почини кодировку: «Р’Р°С€Р° Р±СЂРѕРЅСЊ РіРѕС‚РѕРІР°, РєРѕРґ РІС‹РґР°С‡Рё» — это из СМС"
    cut = question.index("Р’Р°С€Р°")
    binder = LearnedBinder(_model({}), lambda schema, q: {"text": ArgSpan(cut, cut + 4, "text")})
    bound = binder.bind(schemas["charset.fix_mojibake"], question)
    assert bound.spans["text"].value(question) == "Р’Р°С€Р° Р±СЂРѕРЅСЊ РіРѕС‚РѕРІР°, РєРѕРґ РІС‹РґР°С‡Рё"
    assert bound.set_aside == {"text": ("Р’Р°",)}
    table = "Make a table:\nanimal,kg\nlion,7\ntiger,6"
    first = table.index("animal")
    row = table.index("\ntiger")
    binder = LearnedBinder(_model({}), lambda schema, q: {"data": ArgSpan(first, row, "text")})
    assert binder.bind(schemas["format.csv_to_markdown"], table).spans["data"].value(table) == (
        "animal,kg\nlion,7\ntiger,6")


def test_a_base64_string_cut_at_its_plus_is_taken_whole_and_the_form_binds_nothing_of_its_own():
    decode = load_catalog().schemas["encoding.base64_decode"]
    question = "что тут написано? 0JzQsNGCINCyINGC0YDQuCDRhdC+0LTQsA== (пост #771)"
    start = question.index("0JzQ")
    cut = LearnedBinder(_model({}), lambda schema, q: {"data": ArgSpan(start, question.index("+"), "text")})
    bound = cut.bind(decode, question)
    assert bound.spans["data"].value(question) == "0JzQsNGCINCyINGC0YDQuCDRhdC+0LTQsA=="
    # where the reference binds nothing, the form does not pick a word of the message in its place
    asked = "Base64-decode the field from the turnstile log, CVE-2024-5535 aside"
    nothing = LearnedBinder(_model({}), lambda schema, q: {})
    assert "data" not in nothing.bind(decode, asked).spans


def test_a_link_is_cut_at_the_space_after_it_never_extended():
    parse = load_catalog().schemas["net.parse_url"]
    question = "break down this link: https://example.ru/trial?promo=FIRST10#signup — not the old /promo page"
    start = question.index("https")
    binder = _binding_tail("url", start)
    bound = binder.bind(parse, question)
    assert bound.spans["url"].value(question) == "https://example.ru/trial?promo=FIRST10#signup"
    assert bound.set_aside == {"url": (question[start:],)}


def test_a_phrase_bound_with_a_remark_after_it_is_asked_about_not_cut():
    schemas = load_catalog().schemas
    escape = schemas["encoding.html_escape"]
    question = "escape this headline for the site: Smith & Sons <Autumn> Cup. The old one was fine"
    start = question.index("Smith")
    binder = _binding_tail("text", start)
    bound = binder.bind(escape, question)
    assert bound.refusal is not None and bound.refusal.code == "AMBIGUOUS_ARGUMENT"
    assert bound.refusal.numbers["values"] == ["Smith & Sons <Autumn> Cup", question[start:]]
    assert falsehood_words(bound.refusal.text) == []
    # a phrase set in quote marks is whole, its dash included
    quoted = "url-encode «Сплин – Романс» for the search link"
    inner = quoted.index("Сплин")
    whole = LearnedBinder(_model({}), lambda schema, q: {
        "text": ArgSpan(inner, quoted.index("»"), "text")})
    bound = whole.bind(schemas["encoding.url_encode"], quoted)
    assert bound.refusal is None and bound.spans["text"].value(quoted) == "Сплин – Романс"
    # a phrase that opens with a bracket is one reading, not the same value named twice
    opening = "escape for the menu: (new) Spring Menu"
    at = opening.index("(")
    one = _binding_tail("text", at)
    bound = one.bind(escape, opening)
    assert bound.refusal is None and bound.spans["text"].value(opening) == "(new) Spring Menu"
    # a passage (a word count) is no phrase: its sentences are the data
    count = "how many words: It rained. We stayed in."
    at = count.index("It")
    passage = _binding_tail("text", at)
    assert passage.bind(schemas["text.word_count"], count).refusal is None


@pytest.mark.parametrize(("block", "kept"), [
    ("KW1\nSC1\nUL050\n(qty to follow)", "KW1\nSC1\nUL050"),  # a bracketed remark
    ("Иванов А.\nKim J.\nLaine M.\nоплатили пока 3 человека", "Иванов А.\nKim J.\nLaine M."),
    ("Шампунь 1 л\nКондиционер 500 мл\nЗаказ №77 на 16 500 руб.", "Шампунь 1 л\nКондиционер 500 мл"),
    ("event: Cup\nraces: 6\n(the 2025 config had 5 races)\n", "event: Cup\nraces: 6"),
    ("apple\nbanana\ncherry", None),  # every line opens in lower case
    ("Wash the cups.\nDry them.\nPut them away.", None),  # every line ends a sentence
    ("(a)\n(b)\n(c)", None),  # every line bracketed
    ("Anna\nbob\nCarl\ndave", None),  # the lines above do not agree
    ("KW1\n(qty to follow)", None),  # two lines: no block to set a line apart from
    ("сорт,цена\nпломбир,120\nфисташка,180", None),
    ("a: 15000\nb: 9000\n\nЦены в рублях", "a: 15000\nb: 9000"),  # a blank line before it
    ("shipping:\n  free: 3000\ncurrency: RUB\nconvert pls", "shipping:\n  free: 3000\ncurrency: RUB"),
    ("a: 1\nb: 2\nitems:\n  - x", None),  # a value indented under its key
])
def test_a_blocks_last_line_set_apart_gives_the_block_without_it(block, kept):
    from workbench.routing._binder_candidates import last_line_apart

    question = "убери повторы:\n" + block
    start = question.index("\n") + 1
    found = last_line_apart(question, ArgSpan(start, len(question), "text"))
    assert (question[found[0]:found[1]] if found else None) == kept


@pytest.mark.parametrize(("question", "bound", "kept"), [
    ("Вытащите времена регуляркой \\d{2}:\\d{2}: Пн 07:30 хатха", "\\d{2}:\\d{2}:", "\\d{2}:\\d{2}"),
    ("find all with the pattern x[a-h][1-8]: 12. Nxe5", "x[a-h][1-8]:", "x[a-h][1-8]"),
    ("find all with `\\w+:` in: a: b", "\\w+:", None),  # set in quote marks: whole
    ("the labels end like Total: and nothing after", "Total", None),  # no colon at its end
    ("what does this end with: Total:", "Total:", None),  # the message ends with it
])
def test_a_span_ending_with_the_colon_that_leads_in_the_rest_is_read_two_ways(question, bound, kept):
    from workbench.routing._binder_candidates import lead_in_colon

    start = question.index(bound)
    found = lead_in_colon(question, ArgSpan(start, start + len(bound), "text"))
    assert (question[found[0]:found[1]] if found else None) == kept


def test_a_pattern_bound_with_its_lead_in_colon_is_asked_about():
    find_all = load_catalog().schemas["regex.find_all"]
    question = "Вытащите времена регуляркой \\d{2}:\\d{2}: Пн 07:30 хатха, Ср 19:00 инь"
    at, text = question.index("\\d"), question.index("Пн")
    binder = LearnedBinder(_model({}), lambda schema, q: {
        "pattern": ArgSpan(at, text - 1, "text"), "text": ArgSpan(text, len(question), "text")})
    bound = binder.bind(find_all, question)
    assert bound.refusal is not None and bound.refusal.numbers["reading"] == "lead_in"
    assert bound.refusal.numbers["values"] == ["\\d{2}:\\d{2}", "\\d{2}:\\d{2}:"]


def test_a_list_bound_with_a_remark_on_its_last_line_is_asked_about_not_cut():
    dedupe = load_catalog().schemas["text.dedupe_lines"]
    question = ("Уберите повторы из заказа:\nШампунь 1 л\nКондиционер 500 мл\nШампунь 1 л\n"
                "Заказ №77 на 16 500 руб.")
    start = question.index("Шампунь")
    binder = _binding_tail("text", start)
    bound = binder.bind(dedupe, question)
    assert bound.refusal is not None and bound.refusal.code == AMBIGUOUS_ARGUMENT
    assert bound.refusal.numbers["reading"] == "last_line"
    assert bound.refusal.numbers["values"] == ["Шампунь 1 л\nКондиционер 500 мл\nШампунь 1 л",
                                               question[start:]]
    assert falsehood_words(bound.refusal.text) == []
    listed = question[:question.rindex("\n")]
    whole = _binding_tail("text", start)
    assert whole.bind(dedupe, listed).refusal is None  # the list alone binds


def test_one_span_of_the_message_is_not_two_arguments():
    find_all = load_catalog().schemas["regex.find_all"]
    question = "Вытащи все номера вида BG-\\d+ из строки: BG-1021 Ficus, BG-1188 Hoya"
    line = question.index("BG-1021")
    binder = LearnedBinder(_model({}), lambda schema, q: {
        "pattern": ArgSpan(line, len(question), "text"), "text": ArgSpan(line, line + 7, "text")})
    bound = binder.bind(find_all, question)
    assert bound.refusal is not None and bound.refusal.code == "AMBIGUOUS_ARGUMENT"
    assert bound.refusal.numbers["values"] == ["BG-1021", question[line:]]
    assert bound.refusal.numbers["reading"] == "nested"
    assert bound.refusal.numbers["held_by"] == "pattern"
    assert "читается в вопросе двумя способами" in bound.refusal.text
    assert falsehood_words(bound.refusal.text) == []
    apart = LearnedBinder(_model({}), lambda schema, q: {
        "pattern": ArgSpan(question.index("BG-\\d+"), question.index("BG-\\d+") + 6, "text"),
        "text": ArgSpan(line, len(question), "text")})
    assert apart.bind(find_all, question).refusal is None


def test_every_reading_refusal_text_names_both_readings_without_a_falsehood_word():
    from workbench.routing._binder import READINGS, READINGS_TEXT, reading_refusal

    for lang in READINGS_TEXT:
        for reading in READINGS:
            refusal = reading_refusal("hash.md5", "text", "A", "A (b)", reading, lang)
            assert "“A”" in refusal.text or "«A»" in refusal.text
            assert falsehood_words(refusal.text) == [] and refusal.numbers["reading"] == reading
