"""An input left out is allowed only where the conclusion does not depend on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.fts import EvalError, FtsError, check_spec, conclude, evaluate, open_inputs, parse

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "corpus" / "specs"
LIBRARY = ROOT / "corpus" / "morphisms"


def _spec(name: str):
    return parse((SPECS / name).read_text(encoding="utf-8"))


def test_a_closed_input_that_changes_nothing_is_not_open() -> None:
    spec = _spec("rate_for_supply.fts")
    assert open_inputs(spec, {"supply_kind": "domestic", "goods_category": "food"}) == ()
    assert open_inputs(spec, {"supply_kind": "export", "goods_category": "food"}) == ("documents_confirmed",)
    assert open_inputs(spec, {"supply_kind": "domestic"}) == ("documents_confirmed", "goods_category")


def test_the_same_value_from_another_case_still_leaves_the_input_open() -> None:
    # without documents the zero-rate rule gives 22 % either way, but from two cases that cite
    # different premises, so the supply kind stays open
    spec = _spec("export_zero_rate.fts")
    assert open_inputs(spec, {"documents_confirmed": False}) == ("supply_kind",)


def test_an_absent_number_or_date_always_matters() -> None:
    assert open_inputs(_spec("invoice_deadline.fts"), {}) == ("days_after_supply",)
    assert open_inputs(_spec("standard_rate_by_date.fts"), {}) == ("supply_date",)


def test_conclude_answers_without_an_input_that_does_not_matter() -> None:
    verdict = check_spec(SPECS / "rate_for_supply.fts", LIBRARY)
    full = conclude(verdict, {"supply_kind": "domestic", "documents_confirmed": "no",
                              "goods_category": "periodicals"})
    short = conclude(verdict, {"supply_kind": "domestic", "goods_category": "periodicals"})
    assert short == full and short.value == "10 %"
    with pytest.raises(FtsError, match="documents_confirmed"):
        conclude(verdict, {"supply_kind": "export", "goods_category": "periodicals"})


def test_evaluate_names_every_input_left_out_that_matters() -> None:
    spec = _spec("rate_for_supply.fts")
    assert evaluate(spec, {"supply_kind": "domestic", "goods_category": "food"})[0] is not None
    with pytest.raises(EvalError) as caught:
        evaluate(spec, {"supply_kind": "export"})
    assert caught.value.key == "missing_value"
    assert caught.value.params["name"] == "documents_confirmed, goods_category"
