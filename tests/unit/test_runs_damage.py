"""Damaged run records: one typed error that names the file, and listings that skip and say so.

The table below is the test data: each row spoils one file of a sound run record and says which
words the message must hold. Every loader is driven over every row.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from workbench import cli
from workbench.runs import (
    DamagedRunError,
    DamagedRunWarning,
    RunRecordError,
    latest_run,
    latest_runs,
    load_run,
    resolve_run,
    runs_df,
    scan_runs,
    write_run,
)


def _cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _remove(path: Path) -> None:
    path.unlink()


def _write(text: str | bytes) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return damage


def _edit_manifest(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        change(manifest)
        path.write_text(json.dumps(manifest), encoding="utf-8")
    return damage


DAMAGE: list[tuple[str, str, Callable[[Path], None], str]] = [
    # (case, file spoiled, how, words the message must hold)
    ("rows cut in half", "rows.parquet", _cut_in_half, "is not a readable parquet table, cut short"),
    ("rows empty", "rows.parquet", _empty, "is empty (0 bytes)"),
    ("rows missing", "rows.parquet", _remove, "is missing"),
    ("rows are text", "rows.parquet", _write("id,correct\n1,true\n"), "is not a readable parquet"),
    ("manifest cut in half", "manifest.json", _cut_in_half, "is not JSON"),
    ("manifest empty", "manifest.json", _empty, "is not JSON"),
    ("manifest missing", "manifest.json", _remove, "is missing"),
    ("manifest not UTF-8", "manifest.json", _write(b'{"kind": "\xff\xfe"}'), "is not UTF-8 text"),
    ("manifest an array", "manifest.json", _write("[1, 2]"), "holds an array, not a JSON object"),
    ("manifest a string", "manifest.json", _write('"routers"'), "holds a string, not a JSON object"),
    ("manifest null", "manifest.json", _write("null"), "holds null, not a JSON object"),
    ("manifest without kind", "manifest.json", _edit_manifest(lambda m: m.pop("kind")),
     "lacks the field 'kind'"),
    ("kind a number", "manifest.json", _edit_manifest(lambda m: m.update(kind=3)),
     "has 'kind' as a number, not a string"),
    ("summary an array", "manifest.json", _edit_manifest(lambda m: m.update(summary=[1])),
     "has 'summary' as an array, not an object"),
    ("settings a string", "manifest.json", _edit_manifest(lambda m: m.update(settings="x")),
     "has 'settings' as a string, not an object"),
]
CASES = [pytest.param(file, damage, words, id=case) for case, file, damage, words in DAMAGE]


def _router_run(results: Path, correct: list[bool], created_at: str) -> Path:
    rows = pd.DataFrame({"router": "rule", "id": [f"t-{i}" for i in range(len(correct))],
                         "question": [f"q{i}" for i in range(len(correct))], "correct": correct,
                         "error": [None if c else "wrong_source" for c in correct]})
    folder = write_run("routers", rows, summary={"n": len(correct)}, results_dir=results)
    manifest_file = folder / "manifest.json"
    manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    manifest["created_at"] = created_at  # a fixed order: the damaged run is the newer one
    manifest_file.write_text(json.dumps(manifest), encoding="utf-8")
    return folder


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The results folder, a sound older run and a newer run that the test will damage."""
    results = tmp_path / "results"
    good = _router_run(results, [True, False, True], "2026-01-01T00:00:00.000+00:00")
    bad = _router_run(results, [True, True, True], "2026-01-02T00:00:00.000+00:00")
    return results, good, bad


@pytest.mark.parametrize(("file", "damage", "words"), CASES)
def test_loading_one_damaged_run_is_a_typed_error(runs, file, damage, words) -> None:
    results, _, bad = runs
    damage(bad / file)
    for load in (lambda: load_run(bad), lambda: resolve_run(bad.name, results)):
        with pytest.raises(DamagedRunError) as caught:
            load()
        assert isinstance(caught.value, RunRecordError)
        message = str(caught.value)
        assert str(bad / file) in message and words in message and "\n" not in message
        assert caught.value.path == bad / file


@pytest.mark.parametrize(("file", "damage", "words"), CASES)
def test_listings_skip_a_damaged_run_and_say_why(runs, file, damage, words) -> None:
    results, good, bad = runs
    damage(bad / file)
    listing = scan_runs(results)
    assert list(listing.runs["run_id"]) == [good.name]
    [skipped] = listing.skipped
    assert skipped.folder == bad and skipped.reason.startswith(file) and words in skipped.reason
    with pytest.warns(DamagedRunWarning, match=f"skipped .*{bad.name}: {file}"):
        assert list(runs_df(results)["run_id"]) == [good.name]
    # the report's loaders fall back on the older sound run instead of crashing
    with pytest.warns(DamagedRunWarning):
        assert latest_run("routers", results).folder == good
    with pytest.warns(DamagedRunWarning):
        assert {k: r.folder for k, r in latest_runs("routers", "mode", results).items()} == {
            None: good}


@pytest.mark.parametrize(("file", "damage", "words"), CASES)
def test_cli_runs_list_skips_and_runs_diff_refuses(runs, file, damage, words, capsys) -> None:
    results, good, bad = runs
    damage(bad / file)
    assert cli.main(["runs", "list", "--results", str(results)]) == 0
    captured = capsys.readouterr()
    assert good.name in captured.out and bad.name not in captured.out
    assert "1 run(s)" in captured.out
    assert captured.err.splitlines() == [f"skipped {bad}: {file} {captured.err.split(file, 1)[1].strip()}"]
    assert words in captured.err
    for pair in ([good.name, bad.name], [bad.name, good.name]):
        assert cli.main(["runs", "diff", *pair, "--results", str(results)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("workbench: DamagedRunError: ") and len(err.splitlines()) == 1
        assert str(bad / file) in err and words in err


def test_damaged_pages_under_a_sound_footer(runs) -> None:
    # the listing reads only footers; the pages are read, and found damaged, when rows load
    results, good, bad = runs
    rows = bad / "rows.parquet"
    data = rows.read_bytes()
    rows.write_bytes(data[:10] + b"\0" * 20 + data[30:])
    assert [s.folder for s in scan_runs(results).skipped] == []
    with pytest.raises(DamagedRunError, match="rows.parquet is not a readable parquet table"):
        load_run(bad)
    with pytest.warns(DamagedRunWarning, match=f"skipped .*{bad.name}: rows.parquet"):
        assert latest_run("routers", results).folder == good


def test_sound_and_foreign_folders_are_not_reported(runs) -> None:
    results, good, bad = runs
    (results / "notes").mkdir()  # neither file: not a run record, so not damaged either
    (results / ".routers-x.partial").mkdir()  # a run still being written
    (results / ".routers-x.partial" / "rows.parquet").write_bytes(b"")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        listing = scan_runs(results)
        assert list(runs_df(results)["run_id"]) == [good.name, bad.name]
    assert listing.skipped == ()


def test_a_missing_folder_is_still_a_run_record_error(tmp_path: Path) -> None:
    with pytest.raises(RunRecordError, match="is not a run folder"):
        load_run(tmp_path / "none")
    assert scan_runs(tmp_path / "none").runs.empty
