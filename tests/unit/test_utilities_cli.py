"""The `workbench tool` verbs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.utilities import catalog_summary

ROOT = Path(__file__).resolve().parents[2]


def run(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr().out


def test_list(capsys):
    code, out = run(["tool", "list"], capsys)
    s = catalog_summary()
    assert code == 0
    assert out.strip().splitlines()[-1] == (
        f"{s.utilities} utilities in 14 categories, {s.examples} examples")
    assert "hash (" in out and "  hash.sha256" in out


def test_call_result_and_refusal(capsys):
    code, out = run(["tool", "call", "hash.sha256", "--args", '{"text": "abc"}'], capsys)
    assert code == 0
    assert json.loads(out) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    code, out = run(["tool", "call", "hash.sha256", "--args", "{}", "--lang", "ru"], capsys)
    assert code == 1
    refusal = json.loads(out)
    assert refusal["code"] == "MISSING_ARGUMENT" and "аргумент" in refusal["text"]
    code, out = run(["tool", "call", "text.stats", "--args", '{"text": "windows-1251"}',
                     "--question", "statistics of the text in windows-1251"], capsys)
    assert code == 1 and json.loads(out)["code"] == "ARGUMENT_IS_CIRCUMSTANCE"


def test_call_with_bad_json_is_a_clean_error(capsys):
    assert main(["tool", "call", "hash.sha256", "--args", "{oops"]) == 2
    assert "ArgsError" in capsys.readouterr().err


def test_examples_verb(capsys):
    code, out = run(["tool", "examples"], capsys)
    s = catalog_summary()
    assert code == 0
    assert out.strip().splitlines()[-1] == f"{s.examples} examples: {s.examples} passed, 0 failed"


def test_coverage_verb(tmp_path, capsys):
    path = tmp_path / "d.jsonl"
    path.write_text('{"utility": "hash.md5"}\n{"gold": {"utility": "zzz.unknown"}}\n',
                    encoding="utf-8")
    code, out = run(["tool", "coverage", "--dataset", str(path)], capsys)
    assert code == 0
    assert "dataset 1 utilities" in out and "unknown id in dataset: zzz.unknown" in out


def test_index_verb(capsys):
    code, out = run(["tool", "index", "--lang", "en"], capsys)
    assert code == 0 and len(out.strip().splitlines()) == 14


@pytest.mark.slow
def test_installed_command_exit_codes():
    exe = Path(sys.executable).with_name("workbench")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "workbench.cli"]
    ok = subprocess.run([*cmd, "tool", "call", "number.to_roman", "--args", '{"n": 1994}'],
                        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert ok.returncode == 0 and json.loads(ok.stdout) == "MCMXCIV"
    bad = subprocess.run([*cmd, "tool", "call", "number.to_roman", "--args", '{"n": 0}'],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 1 and json.loads(bad.stdout)["code"] == "BAD_ARGUMENT"


DEEP = "[" * 50_000
# (argv after "tool call", exit status, what stdout holds: a result, a refusal code, or for
# exit 2 the error type on the one stderr line)
HOSTILE_CALLS = [
    (["text.reverse", "--args", '{"text": "\\ud800x"}'], 0, "x\ud800"),
    (["text.reverse", "--args", '{"\\ud800": 1}'], 1, "BAD_ARGUMENT"),
    (["\ud800", "--args", "{}"], 1, "UNKNOWN_UTILITY"),
    (["number.to_roman", "--args", '{"n": ' + "9" * 5000 + "}"], 2, "ArgsError"),
    (["number.to_roman", "--args", '{"n": ' + "9" * 100 + "}"], 1, "LIMIT_EXCEEDED"),
    (["number.to_roman", "--args", '{"n": NaN}'], 1, "BAD_ARGUMENT"),
    (["text.reverse", "--args", DEEP], 2, "ArgsError"),
    (["text.reverse", "--args", DEEP + "]" * 50_000], 2, "ArgsError"),
    (["text.reverse", "--args", '{"text": ' + DEEP[:500] + "]" * 500 + "}"], 1, "BAD_ARGUMENT"),
    (["text.reverse", "--args", '{"text": "' + "a" * 200_001 + '"}'], 1, "LIMIT_EXCEEDED"),
]


@pytest.mark.parametrize(("argv", "status", "expected"), HOSTILE_CALLS,
                         ids=[f"{i}-{r[2]}" for i, r in enumerate(HOSTILE_CALLS)])
def test_hostile_call_gets_a_typed_answer(capsys, argv, status, expected):
    code = main(["tool", "call", *argv])
    captured = capsys.readouterr()
    assert code == status
    assert "Traceback" not in captured.err
    if status == 2:
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
        assert expected in captured.err
        return
    captured.out.encode("utf-8")  # a lone surrogate went out escaped
    payload = json.loads(captured.out)
    assert payload == expected if status == 0 else payload["code"] == expected


def test_catastrophic_pattern_call_is_refused(capsys, monkeypatch):
    import dataclasses

    from workbench.utilities import load_catalog

    catalog = load_catalog()
    monkeypatch.setitem(catalog.schemas, "regex.match",
                        dataclasses.replace(catalog.schemas["regex.match"], call_seconds=0.2))
    code = main(["tool", "call", "regex.match", "--args",
                 json.dumps({"pattern": "(a|aa)+$", "text": "a" * 34 + "b"})])
    refusal = json.loads(capsys.readouterr().out)
    assert code == 1 and refusal["code"] == "LIMIT_EXCEEDED"
    assert refusal["numbers"]["limit"] == "call_seconds"
