"""The ``workbench spec`` verbs, driven through their own argument parser."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from workbench.config import load_settings
from workbench.errors import WorkbenchError
from workbench.fts import _cli

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"
SPECS = ROOT / "corpus" / "specs"


def run(argv: list[str]) -> int:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", default=None)
    parser = argparse.ArgumentParser(parents=[common])
    _cli.add_commands(parser.add_subparsers(dest="command"), common)
    args = parser.parse_args(argv)
    return args.handler(args, load_settings(ROOT / "workbench.toml"))


def test_check_certified(capsys):
    assert run(["spec", "check", str(SPECS / "standard_rate_by_date.fts")]) == 0
    out = capsys.readouterr().out
    assert "certified" in out and "certificate digest:" in out


def test_check_refused_in_russian(capsys):
    assert run(["spec", "check", str(SPECS / "export_vat_counterexample.fts"), "--lang", "ru"]) == 1
    out = capsys.readouterr().out
    assert "E_PREMISE" in out and "не показано" in out and "line=" in out


def test_check_json(capsys):
    assert run(["spec", "check", str(SPECS / "invoice_deadline.fts"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] and data["certificate"]["digest"] == data["certificate_digest"]


def test_eval_gives_the_conclusion(capsys):
    code = run(["spec", "eval", str(SPECS / "standard_rate_by_date.fts"),
                "--input", "supply_date=2026-01-01"])
    assert code == 0
    assert "rate = 22 %" in capsys.readouterr().out


def test_eval_refuses_a_spec_that_does_not_pass(capsys):
    code = run(["spec", "eval", str(SPECS / "export_vat_counterexample.fts"),
                "--input", "supply_kind=export"])
    assert code == 1
    assert "no conclusion" in capsys.readouterr().out


def test_eval_bad_input_is_a_workbench_error():
    with pytest.raises(WorkbenchError):
        run(["spec", "eval", str(SPECS / "standard_rate_by_date.fts"), "--input", "nope=1"])
    with pytest.raises(WorkbenchError):
        run(["spec", "eval", str(SPECS / "standard_rate_by_date.fts"),
             "--input", "supply_date=yesterday"])


def test_library_verify(capsys):
    assert run(["spec", "library", "--verify"]) == 0
    out = capsys.readouterr().out
    assert "29 entries: 18 verified, 3 derived, 3 proposed, 5 rejected; library digest" in out


def test_library_verify_on_a_tampered_copy(tmp_path, capsys):
    folder = tmp_path / "lib"
    shutil.copytree(LIB, folder)
    (folder / "library.json").write_text('{"digest": "x", "entries": 29}', encoding="utf-8")
    assert run(["spec", "library", "--verify", "--library", str(folder)]) == 1
    assert "E_LIBRARY" in capsys.readouterr().out


def test_check_with_library_option(tmp_path, capsys):
    folder = tmp_path / "lib"
    shutil.copytree(LIB, folder)
    assert run(["spec", "check", str(SPECS / "vat_amount.fts"), "--library", str(folder)]) == 0
