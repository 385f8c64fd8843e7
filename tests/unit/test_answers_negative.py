"""The negative control (kinds, counts, determinism), forging one answer, and the answers verbs."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from evidence_helpers import answer_of, quote_evidence, spec_evidence, utility_evidence

from workbench.answers import (
    FORGERS,
    KIND_SOURCE,
    Answer,
    ForgeryError,
    ForgeryKind,
    Invariant,
    Mode,
    Pools,
    UtilityEvidence,
    answer,
    check_answer,
    forge,
    forge_many,
    leaky_answer,
)
from workbench.answers._forgers import change_char, mutate_value
from workbench.cli import build_parser, main
from workbench.config import load_settings
from workbench.errors import WorkbenchError
from workbench.gates import QuoteSource
from workbench.retrieval import KeywordEmbedder
from workbench.routing import ScriptedRouter
from workbench.runs import write_run
from workbench.studies import run_negative_control
from workbench.studies._negative import (
    DEFAULT_PER_KIND,
    VERDICT_COLUMNS,
    build_forgeries,
    make_pools,
    make_world,
)

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


def test_forge_from_pools_is_the_first_forgery_of_a_run(tmp_path) -> None:
    import random

    world = make_world(BASE, tmp_path, random.Random(3))
    pools = make_pools(world, BASE, random.Random(3))
    run = build_forgeries(pools, world, BASE, seed=11, per_kind=2)
    for kind in ForgeryKind:
        first = next(f for f in run if f.kind is kind)
        assert forge(kind, pools, seed=11) == first, kind
        assert forge_many(str(kind), pools, seed=11, count=2) == [f for f in run if f.kind is kind]
    # the downgraded library the run needs was built for it
    assert any(name.startswith("scratch/proposed:") for name in world.contexts)


def test_forge_one_quote_and_the_checker_catches_it(context) -> None:
    genuine = answer_of(quote_evidence(context))
    forged = forge(ForgeryKind.QUOTE_CHAR_CHANGED, genuine, seed=5)
    assert forged.kind is ForgeryKind.QUOTE_CHAR_CHANGED and forged.world == "scratch"
    assert forged.answer != genuine and forged == forge("quote_char_changed", genuine, seed=5)
    assert forge(ForgeryKind.QUOTE_CHAR_CHANGED, genuine, seed=6).answer != forged.answer
    # the digest was recomputed, so only the file and the index can tell
    report = check_answer(forged.answer, context)
    assert report.failed_invariants == [Invariant.QUOTE_AT_ANCHOR, Invariant.QUOTE_IN_INDEX]
    assert check_answer(genuine, context).passed


def test_forge_one_answer_of_each_source(context, certificate) -> None:
    spec = answer_of(spec_evidence(certificate))
    downgraded = forge(ForgeryKind.PREMISE_DOWNGRADED, spec)
    assert downgraded.answer == spec and downgraded.world.startswith("scratch/proposed:")
    utility = answer_of(utility_evidence())
    for kind in ("utility_changed_result", "utility_invented_id", "mode_a_evidence_removed"):
        forged = forge(kind, utility)
        assert not check_answer(forged.answer, context).passed, kind
    moved = forge(ForgeryKind.QUOTE_MOVED_TO_OTHER_FILE,
                  Pools.of([answer_of(quote_evidence(context))], paths=["ru/vat.md"]))
    assert moved.answer.evidence[0].anchor.path == "ru/vat.md"
    assert check_answer(moved.answer, context).first_failure[1] is Invariant.QUOTE_AT_ANCHOR


def _quote(context) -> Answer:
    return answer_of(quote_evidence(context))


# (what the refusal says, kind, genuine answer from the context) — the bad inputs of forge()
FORGE_REFUSALS = [
    ("unknown forgery kind 'quote_typo'", "quote_typo", _quote),
    ("unknown forgery kind ''", "", _quote),
    ("spoils a utility call; the pools hold none", "utility_changed_result", _quote),
    ("spoils a certified conclusion; the pools hold none", "spec_conclusion_changed", _quote),
    ("needs a certified conclusion with premises", "premise_downgraded", _quote),
    ("edited after indexing; the pools hold none", "quote_from_edited_file", _quote),
    ("spoils a quote; the pools hold none", "quote_char_changed",
     lambda context: answer_of(utility_evidence())),
    ("needs a course file other than en/base64.md", "quote_moved_to_other_file", _quote),
    ("needs a utility call with arguments", "utility_dropped_argument",
     lambda context: answer_of(UtilityEvidence("hash.md5", {}, "x", "d"))),
    ("only a mode-A answer with evidence", "quote_char_changed",
     lambda context: Answer(Mode.B, "free text", (), "mode A refused")),
    ("only a mode-A answer with evidence", "mode_a_evidence_removed",
     lambda context: Answer(Mode.A, "no evidence", ())),
]


@pytest.mark.parametrize(("message", "kind", "genuine"), FORGE_REFUSALS,
                         ids=[f"{row[1] or 'empty'}-{i}" for i, row in enumerate(FORGE_REFUSALS)])
def test_forge_refuses_what_its_kind_cannot_spoil(message, kind, genuine, context) -> None:
    with pytest.raises(ForgeryError, match=re.escape(message)) as caught:
        forge(kind, genuine(context))
    assert isinstance(caught.value, WorkbenchError)


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
        '[gates]\nthreshold_bi_encoder_terms = 0.2\n', encoding="utf-8")
    return config


def test_audit_answers_verb(tmp_path, small_index, small_corpus, capsys) -> None:
    settings = dataclasses.replace(
        BASE, paths=dataclasses.replace(BASE.paths, corpus=small_corpus, index=small_index.folder),
        gates=dataclasses.replace(BASE.gates, threshold_bi_encoder_terms=0.2))
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
