"""A specification's inputs bound from the question's words: declared members, never a default."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.routing import RuleRouter, Source
from workbench.routing._spec_inputs import (
    bind_spec_inputs,
    choose_spec,
    named_member,
    open_spec_inputs,
    spec_evidence,
    spec_types,
    spec_vocabularies,
)


@pytest.mark.parametrize(("spec", "question", "args"), [
    ("vat.rate_for_supply",
     "Какая ставка НДС при экспорте мебели, если все документы для подтверждения собраны?",
     {"supply_kind": "export", "documents_confirmed": "yes", "goods_category": "other"}),
    ("vat.rate_for_supply",
     "We exported bread but the customs documents are still missing. Which VAT rate applies?",
     {"supply_kind": "export", "documents_confirmed": "no", "goods_category": "food"}),
    # the negated words are longer and win over the words they contain
    ("vat.export_zero_rate", "Экспорт станков, документы не подтверждены — нулевая ставка?",
     {"supply_kind": "export", "documents_confirmed": "no"}),
    # «подтверждающие документы» are the confirming documents, gathered or not; a failure to gather
    # them says "no"
    ("vat.export_zero_rate", "Станки вывезли, но подтверждающие документы так и не удалось собрать",
     {"supply_kind": "export", "documents_confirmed": "no"}),
    ("vat.export_zero_rate", "Станки вывезли, подтверждающие документы есть. Ставка 0 %?",
     {"supply_kind": "export"}),
    ("vat.rate_for_supply", "We exported milk and could not gather the documents. Which rate?",
     {"supply_kind": "export", "documents_confirmed": "no", "goods_category": "food"}),
    ("vat.estimated_rate", "Аванс за хлеб получен 3 марта 2026 года. По какой расчётной ставке считать НДС?",
     {"reduced_goods": "yes", "payment_date": "2026-03-03"}),
    ("vat.estimated_rate",
     "Advance payment for office furniture received on 2026-02-10: which estimated rate?",
     {"reduced_goods": "no", "payment_date": "2026-02-10"}),
    ("vat.tax_base_sale_price", "В договоре цена 366 000 ₽ включая НДС. Какая налоговая база?",
     {"price": "366000 rub", "price_includes_vat": "yes"}),
    ("vat.services_exemption", "Are consulting services exempt from VAT under article 149?",
     {"service_kind": "consulting"}),
    ("vat.invoice_deadline", "Счёт-фактуру выставили через 7 дней после отгрузки. Уложились в срок?",
     {"days_after_supply": "7"}),
    # a count of days is written with its word; a bare figure is an amount, not days
    ("vat.invoice_deadline", "The invoice for 8450 went out 3 calendar days after the supply",
     {"days_after_supply": "3"}),
    ("vat.invoice_deadline", "The invoice is 2 400 net", {}),
    ("vat.invoice_deadline", "Is an invoice issued on the day of shipment on time?",
     {"days_after_supply": "0"}),
    ("vat.invoice_deadline", "Счёт-фактуру выставили в день отгрузки — это в срок?",
     {"days_after_supply": "0"}),
    ("vat.export_document_deadline", "Товар вывезли 200 суток назад, документы ещё собираем",
     {"days_since_export": "200"}),
])
def test_inputs_are_read_from_the_question(spec: str, question: str, args: dict[str, str]) -> None:
    assert bind_spec_inputs(spec, question) == args


def test_an_unsettled_input_stays_absent() -> None:
    # nothing names the goods; words for two members leave the input open
    assert bind_spec_inputs("vat.rate_for_supply", "Какая ставка НДС при экспорте товара?") == {
        "supply_kind": "export"}
    assert named_member("goods_category", spec_types()["vat.rate_for_supply"]["goods_category"],
                        "Экспорт хлеба и мебели одной партией") is None


def test_every_declared_word_names_a_member_of_a_spec_input() -> None:
    members: dict[str, set[str]] = {}
    for inputs in spec_types().values():
        for name, types in inputs.items():
            if len(types) > 1:
                members.setdefault(name, set()).update(types)
    assert set(spec_vocabularies()) <= set(members)
    for name, vocabulary in spec_vocabularies().items():
        assert {value for _, value, _ in vocabulary.words} <= members[name], name
    # every closed input of every spec has words for each of its members
    for name, values in members.items():
        assert name in spec_vocabularies(), name
        assert {value for _, value, _ in spec_vocabularies()[name].words} == values, name


WORDS = st.sampled_from(["экспорт", "хлеба", "мебели", "документы не собраны", "все документы",
                         "в России", "missing", "in order", "furniture", "bread", "включая НДС",
                         "без НДС", "consulting", "транспортные", "3 марта 2026 года", "366 000 ₽",
                         "7 дней", "детских", "газет", "не уменьшает цену", "reduces the price"])
PARTS = WORDS | st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщыьэюя abcxyz0123456789,.", max_size=20)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(spec_types())), st.lists(PARTS, min_size=1, max_size=5))
def test_a_bound_value_comes_from_the_question(spec: str, parts: list[str]) -> None:
    question = " ".join(parts)
    types = spec_types()[spec]
    for name, value in bind_spec_inputs(spec, question).items():
        if len(types[name]) > 1:
            # a member of the declared type, named by a declared word that the question holds
            vocabulary = spec_vocabularies()[name]
            assert value in types[name]
            assert any(vocabulary.lookup(question[s:e]) == value for s, e in vocabulary.spans(question))
        else:
            digits = value.removesuffix(" rub")
            assert any(ch.isdigit() for ch in digits) and (
                types[name][0] == "date" or digits.replace(".", "", 1).isdigit())


def test_the_rule_router_binds_spec_inputs() -> None:
    decision = RuleRouter().route(
        "Аванс за мебель получен 10 февраля 2026 года. По какой расчётной ставке считать НДС?")
    assert decision.source is Source.SPEC and decision.spec == "vat.estimated_rate"
    assert decision.args == {"reduced_goods": "no", "payment_date": "2026-02-10"}


def test_a_money_input_takes_the_number_written_with_a_currency() -> None:
    # «три месяца» is a number too, but not the amount
    question = ("Our revenue for three consecutive months was 2,400,000 roubles. "
                "Are we eligible for the article 145 release?")
    assert bind_spec_inputs("vat.turnover_exemption", question) == {"revenue_3_months": "2400000 rub"}
    # with two amounts, the one with a currency goes first and the other still binds
    question = "Закупки на 800 000 ₽, премия 20 000, договор говорит, что она уменьшает цену"
    assert bind_spec_inputs("vat.volume_bonus_base", question) == {
        "purchases": "800000 rub", "bonus_changes_price": "yes", "bonus_amount": "20000 rub"}


def test_a_phrase_with_a_stem_inside_matches_its_inflections() -> None:
    assert bind_spec_inputs("vat.reduced_rate_by_category",
                            "Какая ставка для продуктов питания?") == {"goods_category": "food"}


@pytest.mark.parametrize(("question", "spec"), [
    # three inputs settled outrank the zero-rate rule, which settles two
    ("We exported bread but the customs documents are still missing. Which VAT rate applies?",
     "vat.rate_for_supply"),
    ("Экспорт подтверждён документами — нулевая ставка применяется?", "vat.export_zero_rate"),
    ("Счёт-фактуру выставили через 7 дней после отгрузки. Уложились в срок?", "vat.invoice_deadline"),
    ("Are consulting services exempt from VAT under article 149?", "vat.services_exemption"),
    # equal scores go to the spec that settles more of the question
    ("Какой НДС с налоговой базы 250 000 ₽ по товару не из льготного перечня?", "vat.vat_amount"),
])
def test_choose_spec_reads_cues_and_settled_inputs(question: str, spec: str) -> None:
    chosen = choose_spec(question)
    assert chosen is not None and chosen.spec == spec


@pytest.mark.parametrize("question", [
    "Write 2,350.40 rubles in Russian words for an invoice",  # one word shared by three specs
    "Какая дата будет через 90 дней после 10.01.2026?",  # a count of days is no tax question
    "Почему ставка НДС при экспорте равна 22 %?",  # a reason is not a conclusion
    "Why is the zero rate applied to exports?",
    "Начисли НДС 22% на сумму 150 000 рублей",  # the tax's name alone is no spec
    # a question that states the rate is not asking for one
    "По каким кодам ОКПД2 детские товары облагаются НДС по ставке 10%?",
    "Did the 10% reduced VAT rate for children's goods change in 2026?",
])
def test_choose_spec_leaves_other_questions_alone(question: str) -> None:
    assert choose_spec(question) is None


def test_the_domain_words_count_once_and_shared_words_weigh_less() -> None:
    ranked = {e.spec: e for e in spec_evidence("Какая ставка НДС при экспорте?")}
    # «ставка» is declared by five specs: 1/5 each, plus one for «НДС»
    assert ranked["vat.rate_for_supply"].cues == pytest.approx(1.2)
    assert "vat.invoice_deadline" not in ranked


def test_only_inputs_the_conclusion_depends_on_stay_open() -> None:
    domestic = {"supply_kind": "domestic", "goods_category": "food"}
    assert open_spec_inputs("vat.rate_for_supply", domestic) == ()
    assert open_spec_inputs("vat.rate_for_supply", {"supply_kind": "export", "goods_category": "food"}) == (
        "documents_confirmed",)
    # a number input that is absent always matters
    assert open_spec_inputs("vat.invoice_deadline", {}) == ("days_after_supply",)
    # a value its type does not read settles nothing
    assert open_spec_inputs("vat.rate_for_supply", {"supply_kind": "abroad", "goods_category": "food"}) == (
        "documents_confirmed",)


def test_the_rule_router_refuses_a_spec_with_an_input_left_open() -> None:
    decision = RuleRouter().route("Какая ставка НДС при экспорте мебели?")
    assert decision.source is Source.REFUSE and decision.refusal is not None
    assert decision.refusal.code == "MISSING_ARGUMENT"
    assert decision.refusal.numbers == {"spec": "vat.rate_for_supply", "missing": "documents_confirmed"}
    domestic = RuleRouter().route("Какая ставка НДС для периодических изданий, продаваемых в России?")
    assert domestic.source is Source.SPEC and domestic.args == {
        "supply_kind": "domestic", "goods_category": "periodicals"}


def test_a_percentage_settles_only_a_percent_input() -> None:
    # "VAT at 20%" is no count of days after the supply
    assert bind_spec_inputs("vat.invoice_deadline", "How much of the invoice total is VAT at 20%?") == {}
    assert bind_spec_inputs("vat.invoice_deadline", "The invoice went out 7 days after the supply, "
                            "with VAT at 20%") == {"days_after_supply": "7"}
