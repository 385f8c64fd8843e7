"""The FTS gate: every code, passing and failing, with where and why."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from workbench.fts import (
    GATE_ORDER,
    MESSAGES,
    STEPS,
    CertificateError,
    GateCode,
    check_spec,
    run_gate,
    seal,
)
from workbench.fts import _gate as gate_module

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"
SPECS = ROOT / "corpus" / "specs"
SHIPPED = sorted(p for p in SPECS.glob("*.fts") if p.name != "export_vat_counterexample.fts")

GOOD = """spec t.rate
premise p26 = vat.rate.standard_2026
premise p19 = vat.rate.standard_2019
input d : date
output rate : percent
  when d >= 2026-01-01 -> 22 % because p26
  otherwise -> 20 % because p19
boundary: d = 2026-01-01 => 22 %
example: d = 2025-12-31 => 20 %
property: d >= 2026-01-01 implies rate = 22 %
"""

GATE_ROWS = [
    pytest.param(row.key, row.code, text, id=f"{row.key}-{i}")
    for row in MESSAGES.values() if row.code.startswith("E_")
    for i, text in enumerate(row.bad_inputs)
]


def lib_copy(tmp_path: Path) -> Path:
    target = tmp_path / "morphisms"
    shutil.copytree(LIB, target)
    return target


def edit_entry(folder: Path, entry_id: str, change) -> Path:
    path = folder / f"{entry_id}.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(raw)
    path.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_there_are_enough_table_driven_gate_cases():
    assert len(GATE_ROWS) >= 45


@pytest.mark.parametrize(("key", "code", "text"), GATE_ROWS)
def test_message_table_rows_stop_with_their_code_and_key(key, code, text):
    result = run_gate(text, LIB)
    assert not result.passed
    assert str(result.code) == code
    assert result.problem is not None and result.problem.key == key
    refusal = result.refusal("en")
    assert refusal is not None and refusal.code == code
    assert refusal.numbers["message"] == key
    assert refusal.numbers["why"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_spec_passes_the_gate_and_the_detector(path):
    verdict = check_spec(path, LIB)
    assert verdict.gate.passed, verdict.refusal and verdict.refusal.text
    assert verdict.passed and verdict.code is None and not verdict.fallacies
    assert verdict.certificate_digest and len(verdict.certificate_digest) == 64


def test_at_least_twelve_vat_specs_are_shipped():
    assert len(SHIPPED) >= 12
    assert (SPECS / "export_vat_counterexample.fts").is_file()


def test_good_spec_passes_all_eight_checks():
    result = run_gate(GOOD, LIB)
    assert result.passed and result.code is None and result.problem is None
    cert = result.certificate
    assert cert is not None
    assert cert.checks == ("E_SYNTAX", "E_STATIC", "E_PREMISE", "E_EXAMPLE")
    assert [e.label for e in cert.examples] == ["boundary 1", "example 1"]
    assert cert.properties[0].held and cert.properties[0].points > 0


def test_gate_order_is_the_documented_order():
    assert [str(c) for c in GATE_ORDER] == [
        "E_SYNTAX", "E_STATIC", "E_PREMISE", "E_EXAMPLE", "E_CERTIFICATE", "E_RECHECK",
        "E_LIBRARY", "E_UNFORESEEN"]
    assert set(STEPS) == set(GATE_ORDER) - {GateCode.E_UNFORESEEN}


def test_syntax_where_has_line_and_column_and_expected_tokens():
    result = run_gate("spec t\ninput d : date\noutput r : percent\n  when d >= -> 1 %\n", LIB)
    assert result.code == GateCode.E_SYNTAX
    where = result.refusal().numbers["where"]
    assert where["line"] == 4 and where["column"] > 1
    assert result.problem.params["expected"]


def test_static_error_names_the_case():
    text = GOOD.replace("-> 22 % because p26", "-> 22 rub because p26")
    result = run_gate(text, LIB)
    assert result.code == GateCode.E_STATIC
    numbers = result.refusal().numbers
    assert numbers["where"]["case"] == 1 and numbers["where"]["line"] == 6
    assert "money (rub)" in numbers["why"] and "percent (%)" in numbers["why"]


def test_static_reports_how_many_problems_it_found():
    text = GOOD.replace("d >= 2026-01-01 ->", "x >= 2026-01-01 ->").replace(
        "because p19", "because p18")
    result = run_gate(text, LIB)
    assert result.code == GateCode.E_STATIC and len(result.problems) >= 2
    assert result.refusal().numbers["problems"] == len(result.problems)


def test_earlier_check_wins_over_later_one():
    text = GOOD.replace("vat.rate.standard_2019", "vat.rate.by_contract_date").replace(
        "=> 20 %", "=> 21 %").replace("x", "x")
    text = text.replace("when d >= 2026-01-01", "when e >= 2026-01-01")
    assert run_gate(text, LIB).code == GateCode.E_STATIC


def test_premise_refusal_names_the_premise_and_its_reviewer():
    text = GOOD.replace("vat.rate.standard_2019", "vat.export.standard_rate")
    result = run_gate(text, LIB)
    assert result.code == GateCode.E_PREMISE
    numbers = result.refusal().numbers
    assert numbers["where"]["premise"] == "p19"
    assert numbers["params"]["status"] == "rejected" and numbers["params"]["reviewer"] != "(none)"


@pytest.mark.parametrize("entry", ["vat.rate.hotel_zero", "vat.base.advance_payment",
                                   "vat.export.transport_services_zero"])
def test_proposed_entries_may_not_be_premises(entry):
    text = GOOD.replace("premise p19 = vat.rate.standard_2019",
                        f"premise p19 = vat.rate.standard_2019\npremise q = {entry}")
    result = run_gate(text, LIB)
    assert result.code == GateCode.E_PREMISE and result.problem.params["status"] == "proposed"


def test_derived_entries_may_be_premises():
    text = ("spec t.d\ntype goods_category = {food, other}\n"
            "premise c = vat.rate.by_goods_category\n"
            "input goods_category : goods_category\noutput rate : percent\n"
            "  when goods_category = food -> 10 % because c\n  otherwise -> 22 % because c\n"
            "example: goods_category = food => 10 %\n")
    assert run_gate(text, LIB).passed


def test_example_refusal_shows_expected_and_actual():
    result = run_gate(GOOD.replace("d = 2025-12-31 => 20 %", "d = 2025-12-31 => 22 %"), LIB)
    assert result.code == GateCode.E_EXAMPLE
    params = result.problem.params
    assert params["expected"] == "22 %" and params["actual"] == "20 %" and params["case"] == 2
    assert result.refusal().numbers["where"]["example"] == "example 1"


def test_property_refusal_names_the_witness_point():
    result = run_gate(GOOD + "property \"p\": rate = 22 %\n", LIB)
    assert result.code == GateCode.E_EXAMPLE
    assert result.problem.params["point"].startswith("d=")
    assert result.refusal().numbers["where"]["property"] == "p"


def test_certificate_failure_is_e_certificate(monkeypatch):
    def broken(run):
        raise CertificateError("the body holds a value JSON cannot carry")

    monkeypatch.setattr(gate_module, "build_certificate", broken)
    result = run_gate(GOOD, LIB)
    assert result.code == GateCode.E_CERTIFICATE
    assert "JSON" in result.problem.params["reason"]


def test_recheck_disagreement_is_e_recheck(monkeypatch):
    real = gate_module.build_certificate

    def tampered(run):
        cert = real(run)
        return type(cert)(**{**cert.__dict__, "library_digest": "0" * 64})

    monkeypatch.setattr(gate_module, "build_certificate", tampered)
    result = run_gate(GOOD, LIB)
    assert result.code == GateCode.E_RECHECK
    assert result.problem.params["field"] == "library_digest"


def test_tampered_entry_is_e_library(tmp_path):
    folder = lib_copy(tmp_path)
    edit_entry(folder, "vat.rate.standard_2026", lambda raw: raw["statement"].update(en="changed"))
    result = run_gate(GOOD, folder)
    assert result.code == GateCode.E_LIBRARY
    assert result.problem.key == "library_entry_digest"
    assert result.problem.params["entry"] == "vat.rate.standard_2026"


def test_tampered_manifest_is_e_library(tmp_path):
    folder = lib_copy(tmp_path)
    (folder / "library.json").write_text('{"format": "fts-library/1", "entries": 29, '
                                         '"digest": "00"}', encoding="utf-8")
    result = run_gate(GOOD, folder)
    assert result.code == GateCode.E_LIBRARY and result.problem.key == "library_digest"


def test_derived_entry_that_does_not_compose_is_e_library(tmp_path):
    folder = lib_copy(tmp_path)
    edit_entry(folder, "vat.rate.by_goods_category",
               lambda raw: raw.update(
                   composed_of=["vat.rate.reduced_10", "vat.goods.reduced_list"]))
    seal(folder)
    result = run_gate(GOOD, folder)
    assert result.code == GateCode.E_LIBRARY and result.problem.key == "library_composition"


def test_verified_entry_without_reviewer_is_e_library(tmp_path):
    folder = lib_copy(tmp_path)
    edit_entry(folder, "vat.rate.standard_2019", lambda raw: raw["review"].pop("reviewer"))
    seal(folder)
    result = run_gate(GOOD, folder)
    assert result.code == GateCode.E_LIBRARY and result.problem.key == "library_review_missing"


def test_unreadable_library_is_e_library(tmp_path):
    folder = lib_copy(tmp_path)
    (folder / "broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    result = run_gate(GOOD, folder)
    assert result.code == GateCode.E_LIBRARY and result.problem.key == "library_unreadable"


def test_missing_library_folder_is_e_library(tmp_path):
    result = run_gate(GOOD, tmp_path / "nowhere")
    assert result.code == GateCode.E_LIBRARY


def test_unexpected_exception_is_e_unforeseen(monkeypatch):
    def explode(run):
        raise RuntimeError("disk went away")

    monkeypatch.setitem(gate_module.STEPS, GateCode.E_STATIC, explode)
    result = run_gate(GOOD, LIB)
    assert result.code == GateCode.E_UNFORESEEN
    assert result.problem.params["step"] == "E_STATIC"
    assert "RuntimeError" in result.problem.params["reason"]


@pytest.mark.parametrize("text", ["", "\x00\x01", "spec", "spec t\n" * 3, "#только комментарий",
                                  GOOD.replace("\n", "\r\n"), "\ufeff" + GOOD])
def test_gate_never_raises(text):
    result = run_gate(text, LIB)
    assert result.passed or result.code in set(GATE_ORDER)


def test_crlf_and_bom_give_the_same_certificate():
    a = run_gate(GOOD, LIB).certificate
    b = run_gate("\ufeff" + GOOD.replace("\n", "\r\n"), LIB).certificate
    assert a is not None and b is not None and a.digest == b.digest
