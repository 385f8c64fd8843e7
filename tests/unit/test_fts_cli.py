"""The ``workbench spec`` verbs, driven through their own argument parser."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from workbench.cli import _spec as _cli
from workbench.config import load_settings
from workbench.errors import WorkbenchError

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


EVAL_INPUT_ERRORS: list[tuple[str, str, list[str]]] = [
    # (spec file, words the one-line message holds, the --input values given)
    ("vat_amount.fts", "--input tax_base is given twice",
     ["tax_base=10", "tax_base=20", "reduced_goods=false"]),
    ("vat_amount.fts", "--input tax_base is given twice",
     ["tax_base=10", "reduced_goods=false", "tax_base=10"]),  # the same value twice is a slip too
    ("vat_amount.fts", "--input reduced_goods is given twice",
     ["reduced_goods=true", " reduced_goods =false"]),  # spaces do not make the name new
    ("standard_rate_by_date.fts", "--input supply_date is given twice",
     ["supply_date=2026-01-01", "supply_date=2018-12-31"]),
    ("standard_rate_by_date.fts", "--input expects name=value", ["supply_date"]),
    ("standard_rate_by_date.fts", "--input expects name=value", ["=2026-01-01"]),
]


@pytest.mark.parametrize(("spec", "words", "inputs"), EVAL_INPUT_ERRORS)
def test_eval_input_errors_are_one_line(spec, words, inputs, capsys):
    from workbench import cli

    argv = ["spec", "eval", str(SPECS / spec)]
    for value in inputs:
        argv += ["--input", value]
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert captured.err.startswith("workbench: FtsError: ") and words in captured.err
