"""Certificates and the independent re-checker."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from workbench.fts import Certificate, _gate, _recheck, canonical_json, digest_of, recheck, run_gate

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"
SPEC = ROOT / "corpus" / "specs" / "rate_for_supply.fts"
TEXT = SPEC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def cert() -> dict:
    result = run_gate(TEXT, LIB)
    assert result.passed
    return result.certificate.to_dict()


def test_certificate_holds_what_it_should(cert):
    assert cert["spec_id"] == "vat.rate_for_supply" and len(cert["spec_digest"]) == 64
    assert {p["id"] for p in cert["premises"]} >= {"vat.rate.export_confirmed"}
    assert all(len(p["digest"]) == 64 and p["version"] == 1 for p in cert["premises"])
    assert len(cert["library_digest"]) == 64
    assert cert["examples"] and cert["properties"]
    assert all(p["held"] and p["points"] == p["domain_size"] for p in cert["properties"])


def test_digest_is_over_canonical_body_without_clock(cert):
    body = {k: v for k, v in cert.items() if k not in ("digest", "created_at")}
    assert cert["digest"] == digest_of(body)
    stamped = Certificate.from_dict({**cert, "created_at": "2026-11-30T10:00:00Z"})
    assert stamped.digest == cert["digest"]
    assert not recheck(stamped.to_dict(), TEXT, LIB)


def test_canonical_json_is_sorted_and_compact():
    assert canonical_json({"b": 1, "a": "ё"}) == '{"a":"ё","b":1}'


def test_certificate_round_trips_through_json(cert):
    again = Certificate.from_json(json.dumps(cert))
    assert again.to_dict() == cert


def test_recheck_agrees_with_a_fresh_certificate(cert):
    assert recheck(cert, TEXT, LIB) == []


def test_recheck_is_separate_code():
    source = Path(_recheck.__file__).read_text(encoding="utf-8")
    for module in ("_eval", "_static", "_ast", "_parser", "_library", "_canonical", "_values"):
        assert f"workbench.fts.{module}" not in source


TAMPER = {
    "format": "fts-certificate/0",
    "language": "fts/0",
    "spec_id": "vat.other",
    "spec_version": 2,
    "spec_digest": "0" * 64,
    "library_digest": "1" * 64,
    "checks": ["E_SYNTAX"],
    "digest": "2" * 64,
}


def _mutations(cert: dict):
    for key, value in TAMPER.items():
        yield key, {**cert, key: value}
    for field in ("alias", "id", "version", "digest", "status"):
        bad = copy.deepcopy(cert)
        p = bad["premises"][0]
        p[field] = p[field] + 1 if isinstance(p[field], int) else p[field] + "x"
        yield f"premises.{field}", bad
    for field in ("label", "expected", "actual", "case", "boundary", "inputs"):
        bad = copy.deepcopy(cert)
        e = bad["examples"][0]
        e[field] = {"case": 99, "boundary": not e["boundary"], "inputs": []}.get(field, "x")
        yield f"examples.{field}", bad
    for field in ("label", "points", "domain_size", "domain_digest", "sampled", "seed", "held"):
        bad = copy.deepcopy(cert)
        p = bad["properties"][0]
        p[field] = {"points": 1, "domain_size": 1, "sampled": True, "seed": 7,
                    "held": False}.get(field, "x")
        yield f"properties.{field}", bad
    bad = copy.deepcopy(cert)
    bad["premises"].pop()
    yield "premises.dropped", bad
    bad = copy.deepcopy(cert)
    bad["examples"].pop()
    yield "examples.dropped", bad


@pytest.mark.parametrize("redigest", [False, True], ids=["as-is", "redigested"])
def test_tampering_with_any_field_is_caught(cert, redigest):
    for name, bad in _mutations(cert):
        if redigest and name != "digest":
            body = {k: v for k, v in bad.items() if k not in ("digest", "created_at")}
            bad = {**bad, "digest": digest_of(body)}
        problems = recheck(bad, TEXT, LIB)
        assert problems and problems[0].code == "E_RECHECK", name


def test_recheck_catches_a_changed_spec_text(cert):
    problems = recheck(cert, TEXT.replace("=> 22 %", "=> 22 %  "), LIB)
    assert problems[0].params["field"] == "spec_digest"


def test_recheck_catches_a_changed_library(cert, tmp_path):
    import shutil

    folder = tmp_path / "lib"
    shutil.copytree(LIB, folder)
    entry = folder / "vat.rate.standard_2026.yaml"
    entry.write_text(entry.read_text(encoding="utf-8").replace("22 %", "23 %"), encoding="utf-8")
    problems = recheck(cert, TEXT, folder)
    assert problems[0].params["field"] == "premises"


def test_recheck_malformed_certificate_is_a_disagreement():
    problems = recheck({"nothing": 1}, TEXT, LIB)
    assert problems and problems[0].code == "E_RECHECK"


def test_gate_and_recheck_agree_on_every_shipped_spec():
    for path in sorted((ROOT / "corpus" / "specs").glob("*.fts")):
        result = _gate.run_gate(path.read_text(encoding="utf-8"), LIB)
        if result.certificate is not None:
            text = path.read_text(encoding="utf-8")
            assert recheck(result.certificate.to_dict(), text, LIB) == []
