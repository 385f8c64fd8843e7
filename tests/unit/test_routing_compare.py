"""Replayed routers, the router comparison, the exact McNemar test and the two CLI verbs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from router_items import ITEMS, SHA

from workbench import cli
from workbench.cli._router import catalog_name
from workbench.model_catalog import load_catalog
from workbench.registry import build
from workbench.routing import (
    PARSE_FAILURE_CODE,
    ReplayFileError,
    ReplayRouter,
    RouterDecision,
    RuleRouter,
    ScriptedRouter,
    Source,
    TaskItem,
)
from workbench.runs import load_run
from workbench.stats import _exact_two_sided, mcnemar
from workbench.studies import FAILURE_CLASSES, compare_routers, disagreements


def _refuse() -> dict:
    return {"source": "refuse", "refusal": {"code": "OUT_OF_SCOPE", "area": "test", "numbers": {},
                                            "text": ""}}


def _write_replay(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                    encoding="utf-8")
    return path


# --- McNemar ----------------------------------------------------------------------------------

def test_mcnemar_matches_hand_computed_values() -> None:
    # b=10, c=2: p = 2 * (C(12,0) + C(12,1) + C(12,2)) / 2**12 = 2 * 79 / 4096
    a = [True] * 10 + [False] * 2 + [True] * 5 + [False] * 3
    b = [False] * 10 + [True] * 2 + [True] * 5 + [False] * 3
    b_count, c_count, statistic, p = mcnemar(a, b)
    assert (b_count, c_count, statistic) == (10, 2, 2)
    assert p == pytest.approx(2 * 79 / 4096) and p == pytest.approx(0.0386, abs=1e-4)
    assert _exact_two_sided(2, 12) == pytest.approx(p)


def test_mcnemar_edge_cases() -> None:
    assert mcnemar([True, False], [True, False]) == (0, 0, 0, 1.0)
    assert mcnemar([True, False], [False, True])[3] == pytest.approx(1.0)  # b=c=1: p capped at 1
    # b=5, c=0: p = 2 / 32
    assert mcnemar([True] * 5, [False] * 5)[3] == pytest.approx(0.0625)
    assert _exact_two_sided(0, 5) == pytest.approx(0.0625)
    with pytest.raises(ValueError):
        mcnemar([True], [True, False])


# --- replay -----------------------------------------------------------------------------------

def test_replay_joins_by_id_and_missing_id_is_parse_failure(tmp_path: Path) -> None:
    path = _write_replay(tmp_path / "r.jsonl", [
        {"id": "t-1", "decision": SHA, "raw_output": '{"tool": "hash.sha256"}',
         "prompt_tokens": 120, "output_tokens": 9, "latency_ms": 40.0},
        {"id": "t-2", "decision": _refuse(), "raw_output": "REFUSE", "prompt_tokens": 100,
         "output_tokens": 2, "latency_ms": 30.0},
    ])
    router = build("router", "replay", path=path)
    assert isinstance(router, ReplayRouter)
    decision = router.route_item(ITEMS[0])
    assert decision.utility == "hash.sha256" and dict(decision.args) == {"text": "привет"}
    assert (decision.prompt_tokens, decision.output_tokens) == (120, 9)
    assert decision.raw_output == '{"tool": "hash.sha256"}'
    # joined by id, not by text: the same id with another question still gets its line
    renamed = TaskItem("t-1", "a different wording", "ru", "dev", "utility", SHA)
    assert router.route_item(renamed).utility == "hash.sha256"
    missing = router.route_item(ITEMS[3])
    assert missing.source is Source.REFUSE and missing.refusal is not None
    assert missing.refusal.code == PARSE_FAILURE_CODE
    # by text only through the items it was given
    assert ReplayRouter(path, ITEMS).route(ITEMS[0].question).utility == "hash.sha256"
    assert router.route(ITEMS[0].question).refusal.code == PARSE_FAILURE_CODE  # type: ignore[union-attr]


@pytest.mark.parametrize("text", [
    "not json\n",
    '{"decision": {"source": "quote"}}\n',
    '{"id": "x", "decision": {"source": "nowhere"}}\n',
    '{"id": "x", "decision": {"source": "quote"}, "prompt_tokens": "many"}\n',
    '{"id": "x", "decision": {"source": "quote"}}\n{"id": "x", "decision": {"source": "quote"}}\n',
])
def test_malformed_replay_file_raises_typed_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReplayFileError, match="bad.jsonl"):
        ReplayRouter(path)
    with pytest.raises(ReplayFileError):
        ReplayRouter(tmp_path / "absent.jsonl")


# --- comparison -------------------------------------------------------------------------------

def test_compare_scripted_replay_and_rule(tmp_path: Path) -> None:
    wrong_arg = dict(ITEMS[3].gold, args={"text": "release-2026"})
    scripted = ScriptedRouter({
        ITEMS[0].question: RouterDecision.from_dict(SHA),
        ITEMS[1].question: RouterDecision.from_dict(_refuse()),
        ITEMS[2].question: RouterDecision.from_dict(dict(SHA, args={"text": "пароль"})),
        ITEMS[3].question: RouterDecision.from_dict(wrong_arg),
    })
    replay = ReplayRouter(_write_replay(tmp_path / "r.jsonl", [
        {"id": "t-1", "decision": SHA, "prompt_tokens": 100, "output_tokens": 10, "latency_ms": 50},
        {"id": "t-2", "decision": _refuse(), "prompt_tokens": 80, "output_tokens": 2,
         "latency_ms": 30},
    ]))
    result = compare_routers({"scripted": scripted, "rule": RuleRouter(), "replay": replay}, ITEMS)
    assert len(result.items) == 3 * len(ITEMS)
    assert list(result.summary.index) == ["scripted", "rule", "replay"]
    rows = result.items.set_index(["router", "id"])
    # the two classes stay apart
    assert rows.loc[("scripted", "t-4"), "error"] == "wrong_argument_value"
    assert rows.loc[("scripted", "t-4"), "failure_class"] == "verified_wrong_answer"
    assert rows.loc[("scripted", "t-3"), "failure_class"] == "visible"
    scripted_summary = result.summary.loc["scripted"]
    assert scripted_summary["verified_wrong_answer_rate"] == pytest.approx(1 / 2)  # of 2 arg items
    assert scripted_summary["visible_failure_rate"] == pytest.approx(1 / 4)
    assert scripted_summary["conscious_refusal_rate"] == 0.0
    # missing replay line: parse failure, never a refusal
    assert rows.loc[("replay", "t-3"), "error"] == "parse_failure"
    assert rows.loc[("replay", "t-4"), "error"] == "parse_failure"
    replay_summary = result.summary.loc["replay"]
    assert replay_summary["parse_failure_rate"] == pytest.approx(0.5)
    assert replay_summary["prompt_tokens_per_request"] == pytest.approx(45.0)
    assert replay_summary["latency_p50_ms"] == pytest.approx(40.0)  # recorded 50, 30; missing: none
    # the rule router gets all four of these right
    assert bool(result.items[result.items["router"] == "rule"]["correct"].all())
    pairs = disagreements(result, "rule", "scripted")
    assert sorted(pairs["id"]) == ["t-3", "t-4"]
    assert bool(pairs["correct_a"].all()) and not bool(pairs["correct_b"].any())
    assert set(FAILURE_CLASSES.values()) == {"visible", "verified_wrong_answer"}


# --- CLI --------------------------------------------------------------------------------------

def _write_tasks(tmp_path: Path) -> Path:
    tasks = tmp_path / "q" / "tasks.jsonl"
    tasks.parent.mkdir()
    tasks.write_text("".join(json.dumps({"id": i.id, "question": i.question, "lang": i.lang,
                                         "split": i.split, "kind": i.kind, "gold": dict(i.gold)},
                                        ensure_ascii=False) + "\n" for i in ITEMS),
                     encoding="utf-8")
    return tasks


def _config(tmp_path: Path, tasks: Path) -> str:
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\nquestions = "{tasks.parent}"\nresults = "{tmp_path / "results"}"\n',
                      encoding="utf-8")
    return str(config)


def test_cli_eval_routers_and_route(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = _write_tasks(tmp_path)
    replay = _write_replay(tmp_path / "r.jsonl", [
        {"id": "t-1", "decision": SHA, "raw_output": "hash.sha256", "prompt_tokens": 100,
         "output_tokens": 10, "latency_ms": 50},
    ])
    config = _config(tmp_path, tasks)
    code = cli.main(["eval", "routers", "rule", f"replay:{replay}", "--taskset", str(tasks),
                     "--config", config])
    out = capsys.readouterr().out
    assert code == 0
    assert "2 router(s) on 4 items" in out and "verified-wrong" in out
    assert f"McNemar rule vs replay:{replay}: b=3" in out and "c=0" in out
    # the right router's error reads "ok", never "nan"
    assert "only rule right (ok / " in out and "nan" not in out
    run = load_run(next((tmp_path / "results").iterdir()))
    assert run.manifest["kind"] == "routers" and len(run.rows) == 8
    assert run.manifest["mcnemar"]["b"] == 3
    assert run.manifest["summary"]["rule"]["items"] == 4

    assert cli.main(["eval", "routers", "rule", "--taskset", str(tasks), "--split", "test",
                     "--config", config]) == 0
    assert "on 2 items, split test" in capsys.readouterr().out

    assert cli.main(["route", ITEMS[0].question, "--router", f"replay:{replay}",
                     "--taskset", str(tasks), "--config", config]) == 0
    out = capsys.readouterr().out
    assert '"utility": "hash.sha256"' in out and "raw output: 'hash.sha256'" in out
    assert "tokens: prompt 100, output 10" in out

    assert cli.main(["route", "Посчитай MD5 от строки `abc`", "--config", config]) == 0
    assert "hash.md5" in capsys.readouterr().out

    assert cli.main(["eval", "routers", "nosuch", "--taskset", str(tasks), "--config", config]) == 2
    assert "RouterSpecError" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n", encoding="utf-8")
    assert cli.main(["eval", "routers", f"replay:{bad}", "--taskset", str(tasks),
                     "--config", config]) == 2
    assert "ReplayFileError" in capsys.readouterr().err
    assert math.isfinite(run.manifest["mcnemar"]["p_value"])


def test_cli_write_catalog_records_the_rule_router(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    tasks = _write_tasks(tmp_path)
    models = tmp_path / "models"
    models.mkdir()
    (models / "catalog.yaml").write_text("models:\n- name: rule\n  kind: router\n", encoding="utf-8")
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\nquestions = "{tasks.parent}"\nresults = "{tmp_path / "results"}"\n'
                      f'models = "{models}"\n', encoding="utf-8")
    assert cli.main(["eval", "routers", "rule", "scripted", "--taskset", str(tasks), "--split", "test",
                     "--write-catalog", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "catalog: recorded rule" in out and "scripted has no catalog entry" in out
    entry = load_catalog(models)[0]
    assert entry["numbers"]["test items"] == 2
    assert entry["numbers"]["test utility accuracy"] == 1.0
    assert entry["measured"].startswith("workbench eval routers --write-catalog")


def test_catalog_name_of_router_specs() -> None:
    assert catalog_name("rule") == "rule" and catalog_name("span") == "span"
    assert catalog_name("transformers:models/routers/ru-vocab") == "ru-vocab"
    assert catalog_name("replay:runs/x.jsonl") is None
    assert catalog_name("base-small") == "base-small" and catalog_name("scripted") is None


def test_a_trained_folder_name_builds_a_transformers_router(tmp_path: Path, monkeypatch) -> None:
    from workbench.routing import _build as routing_cli

    built = {}

    def fake_build(kind, name, **params):
        built.update(kind=kind, name=name, **params)
        return object()

    (tmp_path / "routers" / "base").mkdir(parents=True)
    (tmp_path / "routers" / "base" / "workbench_training.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(routing_cli, "build", fake_build)
    routing_cli.build_router("base", models=tmp_path)
    assert built == {"kind": "router", "name": "transformers", "path": str(tmp_path / "routers" / "base")}
    # a registered name wins, and an unfinished folder is not a router
    routing_cli.build_router("rule", models=tmp_path)
    assert built["name"] == "rule"
    (tmp_path / "routers" / "half").mkdir()
    routing_cli.build_router("half", models=tmp_path)
    assert built["name"] == "half"


def test_compare_reports_each_routed_item_for_a_progress_bar(tmp_path: Path) -> None:
    replay = ReplayRouter(_write_replay(tmp_path / "r.jsonl", [
        {"id": "t-1", "decision": SHA, "prompt_tokens": 100, "output_tokens": 10, "latency_ms": 50},
    ]))
    routed: list[str] = []

    class Watching(RuleRouter):
        # what the callback has seen when each item is routed: the items before it, never more
        def route(self, question: str) -> RouterDecision:
            seen.append(len(routed))
            return super().route(question)

    seen: list[int] = []
    compare_routers({"rule": Watching(), "replay": replay}, ITEMS, on_item=routed.append)
    assert routed == ["rule"] * len(ITEMS) + ["replay"] * len(ITEMS)
    assert seen == list(range(len(ITEMS)))


def test_cli_choose_default_scores_held_out_items_only_and_writes_what_ask_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.answers import DEFAULT_ROUTER_FILE, best_router, load_default_router

    tasks = _write_tasks(tmp_path)
    config = _config(tmp_path, tasks)
    replay = _write_replay(tmp_path / "r.jsonl", [
        {"id": "t-1", "decision": SHA, "raw_output": "hash.sha256"}])
    # items of the dev or test split are never a ground for the default
    assert cli.main(["router", "choose-default", f"replay:{replay}", "--taskset", str(tasks),
                     "--config", config]) == 2
    assert "held-out items only" in capsys.readouterr().err
    heldout = tmp_path / "heldout.jsonl"
    heldout.write_text(tasks.read_text(encoding="utf-8").replace('"split": "dev"', '"split": "heldout"')
                       .replace('"split": "test"', '"split": "heldout"'), encoding="utf-8")
    models = tmp_path / "models"
    config_text = Path(config).read_text(encoding="utf-8") + f'models = "{models}"\n'
    Path(config).write_text(config_text, encoding="utf-8")
    assert cli.main(["router", "choose-default", f"replay:{replay}", "--taskset", str(heldout),
                     "--config", config, "--write"]) == 0
    out = capsys.readouterr().out
    assert "2 router(s) on 4 held-out items" in out and "default router: rule" in out
    record = load_default_router(models / DEFAULT_ROUTER_FILE)
    run = load_run(next((tmp_path / "results").iterdir()))
    assert record.router == "rule" and record.run == run.folder.name
    assert run.manifest["default_router"] == "rule" and run.manifest["summary"]["rule"]["items"] == 4
    assert best_router(models).name == "rule" and "4 held-out items" in best_router(models).reason
