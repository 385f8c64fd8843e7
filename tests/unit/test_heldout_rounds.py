"""The held-out rounds: named in one file, scored round by round, and the report's first section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import _demo
from workbench.config import load_settings
from workbench.runs import latest_run
from workbench.studies import ROUNDS_FILE, HeldOutError, heldout_rounds

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = load_settings(ROOT / "workbench.toml").paths.questions


def test_every_held_out_set_is_in_exactly_one_round() -> None:
    rounds = heldout_rounds(QUESTIONS)
    named = [path.name for files in rounds.values() for path in files]
    assert sorted(named) == sorted(p.name for p in (Path(QUESTIONS) / "heldout").glob("*.jsonl"))
    assert len(named) == len(set(named)) and list(rounds) == [str(n) for n in range(1, 22)]


@pytest.mark.parametrize(("text", "match"), [
    (None, "no held-out rounds"),
    ("{not json", "not a JSON object"),
    ('{"1": []}', "at least one set"),
    ('["a"]', "at least one set"),
    ('{"1": ["nowhere"]}', "not there: nowhere.jsonl"),
])
def test_a_bad_rounds_file_is_a_typed_error(tmp_path: Path, text: str | None, match: str) -> None:
    (tmp_path / "heldout").mkdir()
    if text is not None:
        (tmp_path / ROUNDS_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(HeldOutError, match=match):
        heldout_rounds(tmp_path)


LINES = [
    {"id": "ho-xyz-001", "question": "Compute SHA-256 of `release-7`", "lang": "en", "split": "heldout",
     "kind": "utility", "gold": {"source": "utility", "utility": "hash.sha256",
                                 "args": {"text": "release-7"}}},
    {"id": "ho-xyz-002", "question": "What will the weather be tomorrow in Omsk?", "lang": "en",
     "split": "heldout", "kind": "red_team", "gold": {"source": "refuse", "refusal": "OUT_OF_SCOPE"}},
]


def _settings(tmp_path: Path):
    held = tmp_path / "questions" / "heldout"
    held.mkdir(parents=True)
    for name, lines in (("one", LINES[:1]), ("two", LINES[1:])):
        (held / f"{name}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    (held / "rounds.json").write_text('{"1": ["one"], "2": ["two"]}', encoding="utf-8")
    for name, line in (("router_tasks", LINES[0]), ("red_team", LINES[1])):  # the test split's sets
        (held.parent / f"{name}.jsonl").write_text(json.dumps({**line, "split": "test"}) + "\n",
                                                   encoding="utf-8")
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\nquestions = "{tmp_path / "questions"}"\nmodels = "{tmp_path / "models"}"\n'
                      f'results = "{tmp_path / "results"}"\ncache = "{tmp_path / "cache"}"\n'
                      f'corpus = "{tmp_path / "none"}"\nindex = "{tmp_path / "none"}"\n', encoding="utf-8")
    return load_settings(config)


def test_the_demo_scores_each_round_apart_and_the_report_leads_with_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.report import build_report

    settings = _settings(tmp_path)
    _demo._step_heldout(settings)
    out = capsys.readouterr().out
    assert "round 1: 1 held-out items of one" in out and "round 2: 1 held-out items of two" in out
    run = latest_run("heldout", settings.paths.results)
    assert run is not None and run.manifest["rounds"] == ["1", "2"]
    summary = run.manifest["summary"]
    assert summary["1"]["tasksets"] == ["one.jsonl"] and summary["1"]["routers"]["rule"]["items"] == 1
    assert summary["2"]["routers"]["rule"]["conscious_refusal_rate"] == 1.0
    assert set(run.rows["round"]) == {"1", "2"} and set(run.rows["id"]) == {"ho-xyz-001", "ho-xyz-002"}
    _demo._step_routers(settings)
    page = build_report(settings.paths.results, runs=[run.run_id, latest_run(
        "routers", settings.paths.results).run_id]).read_text(encoding="utf-8")  # type: ignore[union-attr]
    assert "Round 1: one.jsonl" in page and "Round 2: two.jsonl" in page
    assert page.index('id="heldout"') < page.index('id="routers"')
    assert page.index('href="#heldout"') < page.index('href="#routers"')


def test_a_project_without_rounds_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = _settings(tmp_path)
    (Path(settings.paths.questions) / ROUNDS_FILE).unlink()
    _demo._step_heldout(settings)
    assert "no held-out rounds" in capsys.readouterr().out
    assert latest_run("heldout", settings.paths.results) is None
