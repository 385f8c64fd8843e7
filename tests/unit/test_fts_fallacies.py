"""The structural fallacy detector: each code on a spec that has it and on one that does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.fts import (
    DETECTORS,
    FALLACY_ORDER,
    MESSAGES,
    FallacyCode,
    check_text,
    detect_fallacies,
    load_library,
    parse,
)

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"
LIBRARY = load_library(LIB)

CLEAN = """spec t.rate
premise p26 = vat.rate.standard_2026
premise p19 = vat.rate.standard_2019
input d : date
output rate : percent
  when d >= 2026-01-01 -> 22 % because p26
  when d < 2026-01-01 -> 20 % because p19
boundary: d = 2026-01-01 => 22 %
property: d >= 2026-01-01 implies rate = 22 %
"""

HAS = {
    FallacyCode.F_CIRCULAR: CLEAN + "define a : bool = b\ndefine b : bool = a\n",
    FallacyCode.F_CONVERSE: MESSAGES["converse"].bad_inputs[0],
    FallacyCode.F_UNCOVERED_BRANCH: CLEAN.replace("when d < 2026-01-01", "when d < 2025-01-01")
    + "example: d = 2025-01-01 => 22 %\n",
    FallacyCode.F_BOUNDARY: CLEAN.replace("boundary: d = 2026-01-01", "example: d = 2026-05-01"),
    FallacyCode.F_NAME_CONFLATION: MESSAGES["name_conflation"].bad_inputs[0],
    FallacyCode.F_OVERLAPPING_CASES: CLEAN.replace("when d < 2026-01-01", "when d < 2026-02-01"),
    FallacyCode.F_VACUOUS_PROPERTY: CLEAN + "property: d > 2030-01-01 and d < 2020-01-01 "
                                            "implies rate = 18 %\n",
    FallacyCode.F_DANGLING_PREMISE: CLEAN.replace(
        "premise p19", "premise extra = vat.rate.reduced_10\npremise p19"),
}

HAS_NOT = {
    FallacyCode.F_CIRCULAR: CLEAN + "define a : bool = d >= 2026-01-01\ndefine b : bool = a\n",
    FallacyCode.F_CONVERSE: MESSAGES["converse"].bad_inputs[0].replace(
        "input rate : percent", "input zero_rate_confirmed : bool").replace(
        "output zero_rate_confirmed : bool", "output rate : percent").replace(
        "when rate = 0 % -> yes", "when zero_rate_confirmed -> 0 %").replace(
        "otherwise -> no", "otherwise -> 22 %").replace("rate = 0 % => yes",
                                                      "zero_rate_confirmed = yes => 0 %"),
    FallacyCode.F_UNCOVERED_BRANCH: CLEAN,
    FallacyCode.F_BOUNDARY: CLEAN,
    FallacyCode.F_NAME_CONFLATION: CLEAN,
    FallacyCode.F_OVERLAPPING_CASES: CLEAN,
    FallacyCode.F_VACUOUS_PROPERTY: CLEAN,
    FallacyCode.F_DANGLING_PREMISE: CLEAN,
}


def codes(text: str) -> list[str]:
    spec = parse(text)
    assert not hasattr(spec, "key"), spec
    return [str(p.code) for p in detect_fallacies(spec, LIBRARY)]


def test_eight_codes_each_with_an_algorithm():
    assert len(FALLACY_ORDER) == 8 and set(DETECTORS) == set(FALLACY_ORDER)


@pytest.mark.parametrize("code", list(FallacyCode), ids=str)
def test_spec_with_the_fallacy_is_found(code):
    assert str(code) in codes(HAS[code])


@pytest.mark.parametrize("code", list(FallacyCode), ids=str)
def test_spec_without_the_fallacy_is_not_flagged(code):
    assert str(code) not in codes(HAS_NOT[code])


def test_clean_spec_has_no_fallacy_and_passes():
    assert codes(CLEAN) == []
    assert check_text(CLEAN, LIB).passed


FALLACY_ROWS = [
    pytest.param(row.key, row.code, text, id=f"{row.key}-{i}")
    for row in MESSAGES.values() if row.code.startswith("F_")
    for i, text in enumerate(row.bad_inputs)
]


@pytest.mark.parametrize(("key", "code", "text"), FALLACY_ROWS)
def test_fallacy_table_rows_show_their_message(key, code, text):
    found = detect_fallacies(parse(text), LIBRARY)
    assert key in [p.key for p in found]


def test_circular_thesis_follows_derived_compositions():
    found = detect_fallacies(parse(MESSAGES["circular_thesis"].bad_inputs[0]), LIBRARY)
    problem = next(p for p in found if p.key == "circular_thesis")
    assert "vat.rate.by_goods_category" in problem.params["chain"]


def test_uncovered_branch_names_a_witness_point():
    found = detect_fallacies(parse(HAS[FallacyCode.F_UNCOVERED_BRANCH]), LIBRARY)
    problem = next(p for p in found if p.code == FallacyCode.F_UNCOVERED_BRANCH)
    assert problem.params["point"].startswith("d=2025")


def test_a_gate_passing_spec_with_a_fallacy_is_refused_with_the_fallacy_code():
    verdict = check_text(HAS[FallacyCode.F_OVERLAPPING_CASES]
                         + "example: d = 2026-02-01 => 22 %\n", LIB)
    assert verdict.gate.passed and not verdict.passed
    assert verdict.fallacies == ("F_OVERLAPPING_CASES",)
    assert verdict.code == "F_OVERLAPPING_CASES"
    assert verdict.refusal is not None and verdict.refusal.code == "F_OVERLAPPING_CASES"


def test_detector_without_library_skips_library_checks():
    spec = parse(MESSAGES["converse"].bad_inputs[0])
    assert "F_CONVERSE" not in [str(p.code) for p in detect_fallacies(spec, None)]


def test_catalog_has_67_items_and_12_map_onto_the_eight_codes():
    import yaml

    text = (ROOT / "corpus" / "fallacies.yaml").read_text(encoding="utf-8")
    items = yaml.safe_load(text)["items"]
    assert len(items) == 67 and len({i["id"] for i in items}) == 67
    mechanical = [i for i in items if i["mechanical"]]
    assert len(mechanical) == 12
    assert {i["code"] for i in mechanical} == {str(c) for c in FallacyCode}
    for item in items:
        assert item["name"] and item["description"]
        if not item["mechanical"]:
            assert item["code"] is None and item["why_not_mechanical"]
