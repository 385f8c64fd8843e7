"""Run records, the corpus CLI verbs, and the conda file against pyproject."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pandas as pd
import pytest
import yaml

from workbench import cli
from workbench.runs import RunRecordError, load_run, runs_df, write_run

ROOT = Path(__file__).resolve().parents[2]


def test_run_record_round_trip(tmp_path: Path) -> None:
    rows = pd.DataFrame({"question": ["a", "b"], "code": ["BELOW_THRESHOLD", None]})
    folder = write_run("unit", rows, summary={"n": 2}, results_dir=tmp_path)
    record = load_run(folder)
    assert record.manifest["kind"] == "unit" and record.manifest["summary"] == {"n": 2}
    assert "workbench" in record.manifest["versions"]
    pd.testing.assert_frame_equal(record.rows, rows)
    frame = runs_df(tmp_path)
    assert list(frame["run_id"]) == [folder.name]
    assert not list(tmp_path.glob(".*partial"))


def test_failed_write_leaves_nothing(tmp_path: Path) -> None:
    bad = pd.DataFrame({"x": [object()]})  # not serialisable to parquet
    with pytest.raises(Exception):  # noqa: B017 - pyarrow's error type varies by version
        write_run("unit", bad, results_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_incomplete_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r").mkdir()
    with pytest.raises(RunRecordError):
        load_run(tmp_path / "r")


def test_cli_index_and_audit(small_corpus: Path, tmp_path: Path, keyword_config, capsys) -> None:
    config = str(keyword_config(tmp_path, small_corpus))
    assert cli.main(["index", "build", "--config", config, "--quiet"]) == 0
    assert "fragments from 3 files" in capsys.readouterr().out
    assert cli.main(["index", "info", "--config", config, "--verify"]) == 0
    assert "verified" in capsys.readouterr().out
    (small_corpus / "en/base64.md").unlink()
    assert cli.main(["audit", "drift", "--config", config]) == 0
    out = capsys.readouterr().out
    assert "missing_file 2 (1 files)" in out and "quotable" in out
    runs = runs_df(tmp_path / "results")
    assert list(runs["kind"]) == ["drift"]


def test_cli_index_at_any_folder(small_corpus: Path, tmp_path: Path, keyword_config, capsys) -> None:
    out_dir = tmp_path / "elsewhere"
    code = cli.main(["index", "build", "--corpus", str(small_corpus), "--out", str(out_dir),
                     "--embedder", "keyword", "--quiet", "--config",
                     str(keyword_config(tmp_path, small_corpus))])
    assert code == 0 and (out_dir / "manifest.json").is_file()
    assert cli.main(["audit", "drift", "--index", str(out_dir), "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "drifted 0, changed 0, missing_file 0" in out and "(100.0%)" in out


def test_cli_turns_typed_errors_into_one_line(tmp_path: Path, capsys) -> None:
    code = cli.main(["audit", "drift", "--index", str(tmp_path / "none"), "--no-record"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("workbench: IndexMissingError:") and "workbench index build" in err


def test_every_verb_accepts_config() -> None:
    parser = cli.build_parser()
    actions = [a for a in parser._actions if a.dest == "command"]
    for name, sub in actions[0].choices.items():
        assert any("--config" in a.option_strings for a in sub._actions), name


def test_environment_yml_matches_pyproject() -> None:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    deps = env["dependencies"]
    assert "python=3.11" in deps
    pip_block = next(d["pip"] for d in deps if isinstance(d, dict))
    assert pip_block == ["torch==2.13.0", "-e .[dev]"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "dev" in project["project"]["optional-dependencies"]
    assert project["project"]["scripts"]["workbench"] == "workbench.cli:main"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet torch==2.13.0" in makefile
    assert makefile.index("torch==2.13.0") < makefile.index("-e '.[dev]'")


def test_each_parser_gets_its_own_verb_groups() -> None:
    import gc

    for _ in range(20):  # freed parsers' ids are reused; a group must never carry over
        parser = cli.build_parser()
        assert parser.parse_args(["audit", "drift"]).audit_command == "drift"
        del parser
        gc.collect()
