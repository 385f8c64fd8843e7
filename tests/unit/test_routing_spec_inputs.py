"""A specification's inputs bound from the question's words: declared members, never a default."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.routing import RuleRouter, Source
from workbench.routing._spec_inputs import bind_spec_inputs, named_member, spec_types, spec_vocabularies


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
