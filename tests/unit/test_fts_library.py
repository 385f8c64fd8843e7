"""The morphism library: counts, review fields, digests and typed composition."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from workbench.fts import (
    LibraryError,
    Signature,
    compose,
    copy_with_status,
    load_library,
    seal,
    verify,
    verify_library,
)

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"


def lib_copy(tmp_path: Path) -> Path:
    target = tmp_path / "morphisms"
    shutil.copytree(LIB, target)
    return target


def edit(folder: Path, entry_id: str, change) -> None:
    path = folder / f"{entry_id}.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(raw)
    path.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_shipped_library_counts_and_is_intact():
    report = verify_library(LIB)
    assert report.entries == 29
    assert dict(report.counts) == {"verified": 18, "derived": 3, "proposed": 3, "rejected": 5}
    assert report.intact and not report.problems
    assert report.summary().startswith("29 entries: 18 verified, 3 derived, 3 proposed, 5 rejected")


def test_verified_entries_cite_the_tax_code_and_a_reviewer():
    library = load_library(LIB)
    for entry in library.entries.values():
        assert entry.statement["ru"] and entry.statement["en"]
        if entry.status == "verified":
            assert "НК РФ" in entry.raw["source"]
            assert entry.raw["review"]["reviewer"] and entry.raw["review"]["date"]


def test_export_at_standard_rate_is_rejected_by_a_person():
    entry = load_library(LIB).entries["vat.export.standard_rate"]
    assert entry.status == "rejected"
    assert entry.raw["review"]["reviewer"] and entry.raw["review"]["verdict"] == "rejected"


def test_derived_entries_name_verified_parts():
    library = load_library(LIB)
    derived = [e for e in library.entries.values() if e.status == "derived"]
    assert len(derived) == 3
    for entry in derived:
        assert all(library.entries[p].status == "verified" for p in entry.composed_of)


def test_stored_digests_match_content_and_manifest():
    library = load_library(LIB)
    assert all(e.stored_digest == e.computed_digest for e in library.entries.values())
    manifest = json.loads((LIB / "library.json").read_text(encoding="utf-8"))
    assert manifest["digest"] == library.digest and manifest["entries"] == 29


def test_tampered_digest_is_found(tmp_path):
    folder = lib_copy(tmp_path)
    edit(folder, "vat.rate.reduced_10", lambda raw: raw.update(digest="f" * 64))
    keys = [p.key for p in verify(load_library(folder))]
    assert "library_entry_digest" in keys


def test_tampered_statement_is_found(tmp_path):
    folder = lib_copy(tmp_path)
    edit(folder, "vat.rate.reduced_10", lambda raw: raw["statement"].update(ru="20 %"))
    problems = verify(load_library(folder))
    assert [p.params.get("entry") for p in problems if p.key == "library_entry_digest"] == [
        "vat.rate.reduced_10"]
    assert "library_digest" in [p.key for p in problems]


def test_derived_entry_whose_composition_does_not_type_check(tmp_path):
    folder = lib_copy(tmp_path)
    edit(folder, "vat.rate.export_confirmed",
         lambda raw: raw["signature"]["given"].update(documents_confirmed="number"))
    seal(folder)
    problems = verify(load_library(folder))
    assert [p.key for p in problems] == ["library_composition"]
    assert "declares" in problems[0].params["reason"]


def test_derived_entry_built_from_a_proposed_part(tmp_path):
    folder = lib_copy(tmp_path)
    edit(folder, "vat.rate.by_goods_category",
         lambda raw: raw.update(composed_of=["vat.goods.reduced_list", "vat.rate.hotel_zero"]))
    seal(folder)
    problems = verify(load_library(folder))
    assert problems[0].key == "library_composition"
    assert "proposed" in problems[0].params["reason"]


def test_compose_checks_types_of_the_shared_facts():
    f = Signature({"a": "bool"}, {"b": "money"})
    g = Signature({"b": "money", "c": "date"}, {"d": "percent"})
    result, reason = compose([f, g])
    assert reason == "" and dict(result.given) == {"a": "bool", "c": "date"}
    assert dict(result.yields) == {"d": "percent"}
    assert compose([f, Signature({"b": "number"}, {"d": "percent"})])[0] is None
    assert compose([f, Signature({"x": "money"}, {"d": "percent"})])[0] is None


def test_copy_with_status_reseals_only_the_copy(tmp_path):
    before = (LIB / "library.json").read_text(encoding="utf-8")
    copy = copy_with_status(LIB, tmp_path / "scratch", "vat.export.standard_rate", "verified")
    assert copy.entries["vat.export.standard_rate"].status == "verified"
    assert not verify(copy)
    assert (LIB / "library.json").read_text(encoding="utf-8") == before
    assert load_library(LIB).entries["vat.export.standard_rate"].status == "rejected"


def test_copy_onto_itself_is_refused():
    with pytest.raises(LibraryError):
        copy_with_status(LIB, LIB, "vat.export.standard_rate", "verified")


def test_missing_folder_and_bad_entry_raise_library_error(tmp_path):
    with pytest.raises(LibraryError):
        load_library(tmp_path / "none")
    (tmp_path / "x.yaml").write_text("id: a\n", encoding="utf-8")
    with pytest.raises(LibraryError, match="missing field"):
        load_library(tmp_path)
