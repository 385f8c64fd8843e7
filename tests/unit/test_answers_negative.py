"""The negative control (kinds, counts, determinism) and the answers verbs of the CLI."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pandas as pd
import pytest

from workbench.answers import (
    FORGERS,
    KIND_SOURCE,
    Answer,
    ForgeryKind,
    Mode,
    answer,
    leaky_answer,
    run_negative_control,
)
from workbench.answers._negative import DEFAULT_PER_KIND, VERDICT_COLUMNS, change_char, mutate_value
from workbench.cli import build_parser, main
from workbench.config import load_settings
from workbench.gates import QuoteSource
from workbench.retrieval import KeywordEmbedder
from workbench.routing import ScriptedRouter
from workbench.runs import write_run

BASE = load_settings()
PER_KIND = 6


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    out = tmp_path_factory.mktemp("nc")
    return run_negative_control(BASE, per_kind=PER_KIND, out_dir=out), out


def test_kinds_span_three_sources_and_the_default_size() -> None:
    assert len(ForgeryKind) >= 10 and set(FORGERS) == set(ForgeryKind) == set(KIND_SOURCE)
    assert {"quote", "utility", "spec"} <= set(KIND_SOURCE.values())
    assert len(ForgeryKind) * DEFAULT_PER_KIND >= 4400


def test_counts_verdicts_and_the_published_file(first) -> None:
    report, out = first
    verdicts = report.verdicts
    assert len(verdicts) == PER_KIND * len(ForgeryKind)
    assert verdicts.groupby("kind").size().eq(PER_KIND).all()
    assert report.genuine > 0 and report.genuine_passed == report.genuine
    stored = pd.read_parquet(out / "verdicts.parquet")
    assert list(stored.columns) == VERDICT_COLUMNS and len(stored) == len(verdicts)
    # anyone can recompute the rates from the file alone
    assert stored["caught"].mean() == pytest.approx(report.overall)
    assert json.loads((out / "summary.json").read_text())["forgeries"] == len(verdicts)
    caught = stored[stored["caught"]]
    assert (caught["invariant"] != "").all() and (stored["verdict"].isin(["caught", "passed"])).all()
    for text in stored["answer"].head(20):
        Answer.from_dict(json.loads(text))
    rates = report.per_kind.set_index("kind")["catch_rate"]
    assert rates["valid_evidence_other_question"] == 0.0  # origin is checked, not relevance
    for kind in ("quote_char_changed", "quote_from_edited_file", "utility_invented_id",
                 "certificate_tampered_digest", "premise_downgraded", "mode_a_evidence_removed"):
        assert rates[kind] == 1.0, kind


def test_same_seed_same_verdicts(first) -> None:
    report, _ = first
    again = run_negative_control(BASE, per_kind=PER_KIND, write=False)
    pd.testing.assert_frame_equal(report.verdicts, again.verdicts)
    other = run_negative_control(BASE, per_kind=PER_KIND, write=False, seed=7)
    assert not report.verdicts["answer"].equals(other.verdicts["answer"])


def test_mutations_always_change_the_value() -> None:
    import random

    rng = random.Random(0)
    for value in ["abc", "Привет", "12", "", True, 3, 2.5, [1], [], {"a": 1}, {}, None]:
        assert mutate_value(value, rng) != value
    assert change_char("x-y", rng) != "x-y"


def test_negative_control_verb(tmp_path, capsys) -> None:
    assert main(["negative-control", "--per-kind", "2", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "overall catch rate" in printed and "premise_downgraded" in printed
    assert (tmp_path / "verdicts.parquet").is_file()


def _config(tmp_path: Path, corpus: Path, index: Path) -> Path:
    config = tmp_path / "workbench.toml"
    config.write_text(
        f'[paths]\ncorpus = "{corpus}"\nindex = "{index}"\nspecs = "{BASE.paths.specs}"\n'
        f'morphisms = "{BASE.paths.morphisms}"\nresults = "{tmp_path / "results"}"\n'
        '[gates]\nthreshold_bi_encoder = 0.2\n', encoding="utf-8")
    return config


def test_audit_answers_verb(tmp_path, small_index, small_corpus, capsys) -> None:
    settings = dataclasses.replace(
        BASE, paths=dataclasses.replace(BASE.paths, corpus=small_corpus, index=small_index.folder),
        gates=dataclasses.replace(BASE.gates, threshold_bi_encoder=0.2))
    source = QuoteSource(settings, index=small_index, embedder=KeywordEmbedder())
    router = ScriptedRouter({
        "Какая ставка НДС применяется при экспорте товаров?": {"source": "quote"},
        "Какая ставка НДС применяется к экспорту в Казахстане?": {"source": "quote"},
        "md5 of abc": {"source": "utility", "utility": "hash.md5", "args": {"text": "abc"}},
    })
    real = [answer(q, router, settings, quote_source=source).to_row() for q in router.decisions]
    config = _config(tmp_path, small_corpus, small_index.folder)
    good = write_run("answers", pd.DataFrame(real), results_dir=tmp_path / "results")
    assert main(["audit", "answers", good.name, "--config", str(config)]) == 0
    assert "leaks 0" in capsys.readouterr().out
    leaky = [leaky_answer(q, router, settings, quote_source=source).to_row()
             for q in router.decisions]
    bad = write_run("answers", pd.DataFrame(leaky), results_dir=tmp_path / "results")
    assert main(["audit", "answers", str(bad), "--config", str(config)]) == 1
    assert "leaks 1" in capsys.readouterr().out
    forged = dict(real[2], answer_json=Answer(Mode.A, "d41d8cd98f00b204e9800998ecf8427e").to_json())
    worse = write_run("answers", pd.DataFrame([forged]), results_dir=tmp_path / "results")
    assert main(["audit", "answers", str(worse), "--config", str(config), "--quiet"]) == 1
    assert main(["audit", "answers", str(tmp_path / "nowhere"), "--config", str(config)]) == 2


def test_audit_group_keeps_drift() -> None:
    args = build_parser().parse_args(["audit", "drift", "--no-record"])
    assert args.handler.__name__ == "_audit_drift"
