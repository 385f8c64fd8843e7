"""Gate evaluation runs the user's pipeline: every outcome comes from answer(), once per search."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pandas as pd
import pytest

from workbench.answers import CheckContext
from workbench.config import Settings
from workbench.corpus import Corpus
from workbench.gates import QuoteSource
from workbench.retrieval import KeywordEmbedder
from workbench.studies import _gates as gates_study
from workbench.studies import answers_frame, evaluate_sets, leakage

QUESTIONS = {
    "in_corpus": [
        {"id": "ic-1", "question": "Из скольких байтов состоит метка порядка байтов в UTF-8?",
         "lang": "ru", "split": "dev", "topic": "utf8",
         "gold": [{"path": "ru/utf8.md", "span": "состоит из трёх байтов EF BB BF"}]},
        {"id": "ic-2", "question": "How does Base64 pad the output?", "lang": "en",
         "split": "test", "topic": "base64",
         "gold": [{"path": "en/base64.md", "span": "pads the output with one or two equals signs"}]},
    ],
    "out_of_corpus": [
        {"id": "oc-1", "question": "Какая ставка НДС в Казахстане?", "lang": "ru", "split": "dev",
         "topic": "vat", "why": "only Russia's rates are in the corpus"},
    ],
}


@pytest.fixture
def settings(small_index, small_corpus: Path, tmp_path: Path) -> Settings:
    folder = tmp_path / "questions"
    folder.mkdir()
    for name, items in QUESTIONS.items():
        lines = [json.dumps({**item, "set": name}, ensure_ascii=False) for item in items]
        (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    base = Settings()
    return dataclasses.replace(
        base, paths=dataclasses.replace(base.paths, corpus=small_corpus, index=small_index.folder,
                                        questions=folder),
        gates=dataclasses.replace(base.gates, threshold_bi_encoder_terms=0.2))


def _source(settings: Settings, small_index) -> QuoteSource:
    return QuoteSource(settings, index=small_index, embedder=KeywordEmbedder())


def test_every_question_goes_through_answer_once_and_searches_once(settings, small_index,
                                                                   monkeypatch) -> None:
    source = _source(settings, small_index)
    asked: list[str] = []
    real_answer, real_ask_many = gates_study.answer, source.ask_many

    def spy_answer(question, *args, **kwargs):
        asked.append(question)
        return real_answer(question, *args, **kwargs)

    searches: list[int] = []

    def spy_ask_many(questions, *args, **kwargs):
        searches.append(len(questions))
        return real_ask_many(questions, *args, **kwargs)

    monkeypatch.setattr(gates_study, "answer", spy_answer)
    monkeypatch.setattr(source, "ask_many", spy_ask_many)
    rows = evaluate_sets(settings, sets=("in_corpus", "out_of_corpus"), source=source)
    assert sorted(asked) == sorted(rows["question"])
    assert sum(searches) == len(rows)  # the pipeline reused the batch's searches


def test_the_answers_run_is_the_pipelines_outcome(settings, small_index) -> None:
    rows = evaluate_sets(settings, sets=("in_corpus", "out_of_corpus"),
                         source=_source(settings, small_index))
    answers = answers_frame(rows)
    assert list(answers["id"]) == list(rows["id"])
    for row, out in zip(rows.to_dict(orient="records"), answers.to_dict(orient="records"),
                        strict=True):
        if out["mode"] == "A":
            evidence = json.loads(out["answer_json"])["evidence"][0]
            assert row["answered"] and evidence["text"] == row["quote"]
        else:
            assert out["refused"] and out["answer_json"] == ""
    assert (answers.loc[answers["set"] == "out_of_corpus", "mode"] != "A").all()
    context = CheckContext.from_index(small_index, Corpus(settings.paths.corpus))
    assert leakage(answers, context).leaks == 0


def test_a_leaky_outcome_is_counted(settings, small_index) -> None:
    rows = evaluate_sets(settings, sets=("in_corpus",), source=_source(settings, small_index))
    answers = answers_frame(rows)
    answered = answers.index[answers["mode"] == "A"]
    assert len(answered) > 0
    forged = answers.copy()
    payload = json.loads(forged.loc[answered[0], "answer_json"])
    payload["evidence"][0]["text"] = payload["evidence"][0]["text"] + " (edited)"
    forged.loc[answered[0], "answer_json"] = json.dumps(payload, ensure_ascii=False)
    context = CheckContext.from_index(small_index, Corpus(settings.paths.corpus))
    assert leakage(forged, context).leaks == 1


def test_a_cut_cache_entry_is_recomputed_not_trusted(settings, small_index, tmp_path,
                                                     monkeypatch) -> None:
    settings = dataclasses.replace(settings, paths=dataclasses.replace(settings.paths,
                                                                       cache=tmp_path / "cache"))
    monkeypatch.setattr(gates_study, "QuoteSource",
                        lambda s: QuoteSource(s, index=small_index, embedder=KeywordEmbedder()))
    rows, cached = gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))
    assert not cached
    path = gates_study.cached_evaluation_path(settings, ("in_corpus",))
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    again, cached = gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))
    assert not cached
    pd.testing.assert_frame_equal(again.drop(columns=["verdicts"]), rows.drop(columns=["verdicts"]))
    assert gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))[1]


def test_a_stage_registered_outside_the_package_changes_the_evaluation_key(settings) -> None:
    from workbench import registry
    from workbench.studies._gates import evaluation_key

    before = evaluation_key(settings, ["in_corpus"], None)
    with registry.restoring():

        @registry.relevance_rule("always-quiet", applies_to="quote")
        def always_quiet():  # noqa: ANN202 - a rule factory as a researcher would write it
            return lambda question, text, lang, scope: None

        assert evaluation_key(settings, ["in_corpus"], None) != before
    assert evaluation_key(settings, ["in_corpus"], None) == before


def _own_file(folder: Path, settings: Settings) -> Path:
    """The bundled-format sets of ``settings`` as one file of one's own, in another folder."""
    folder.mkdir(parents=True, exist_ok=True)
    own = folder / "my questions.jsonl"
    own.write_text("".join((Path(settings.paths.questions) / f"{name}.jsonl").read_text(
        encoding="utf-8") for name in QUESTIONS), encoding="utf-8")
    return own


def test_a_question_file_of_ones_own_takes_the_bundled_path(settings, small_index,
                                                            tmp_path) -> None:
    own = _own_file(tmp_path / "mine", settings)
    source = _source(settings, small_index)
    bundled = evaluate_sets(settings, sets=tuple(QUESTIONS), source=source)
    mine = evaluate_sets(settings, questions=[own], source=source)
    pd.testing.assert_frame_equal(mine.drop(columns=["verdicts"]),
                                  bundled.drop(columns=["verdicts"]))
    dev = evaluate_sets(settings, questions=[own], split="dev", source=source)
    assert list(dev["id"]) == ["ic-1", "oc-1"]


def test_the_cache_key_covers_each_question_file_and_the_corpus(settings, tmp_path) -> None:
    from workbench.studies._gates import evaluation_key

    own = _own_file(tmp_path / "mine", settings)
    key = evaluation_key(settings, (), None, [own])
    assert key == evaluation_key(settings, (), None, [str(own)])
    assert key != evaluation_key(settings, tuple(QUESTIONS), None)
    own.write_text(own.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert evaluation_key(settings, (), None, [own]) != key
    key = evaluation_key(settings, (), None, [own])
    corpus_file = Path(settings.paths.corpus) / "en" / "base64.md"
    corpus_file.write_text(corpus_file.read_text(encoding="utf-8") + "\nMore.\n",
                           encoding="utf-8")
    assert evaluation_key(settings, (), None, [own]) != key


def test_cli_eval_gates_on_question_files_records_them(small_index, small_corpus, tmp_path,
                                                       keyword_config, capsys) -> None:
    from workbench import cli
    from workbench.digests import sha256_file
    from workbench.runs import load_run

    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "no-corpus").mkdir(parents=True)
    config = keyword_config(elsewhere, elsewhere / "no-corpus", index=elsewhere / "no-index",
                            extra="[gates]\nthreshold_bi_encoder_terms = 0.2\n")
    mine = tmp_path / "mine"
    mine.mkdir()
    files = []
    for name, items in QUESTIONS.items():
        files.append(mine / f"{name}-mine.jsonl")
        files[-1].write_text("".join(json.dumps({**item, "set": name}, ensure_ascii=False) + "\n"
                                     for item in items), encoding="utf-8")
    # --index alone: the corpus is the folder the index was built from
    argv = ["eval", "gates", "--config", str(config), "--index", str(small_index.folder),
            "--mode", "bi-encoder", "--quiet", "--questions", *map(str, files)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "in_corpus" in out and "run record:" in out
    # every verified answer re-checked and held against the gold of these files, targets shown
    assert "leakage: 0 of" in out and "answered wrong (selection errors):" in out
    assert "targets:" in out and "relevance traps refused" in out
    run = load_run(out.split("run record:")[1].strip())
    assert run.manifest["summary"]["leakage"] == 0
    assert {t["key"] for t in run.manifest["summary"]["targets"]} >= {"in_corpus", "leakage"}
    assert run.manifest["questions"] == [{"path": str(f), "sha256": sha256_file(f)}
                                         for f in files]
    assert run.manifest["corpus_root"] == str(small_corpus.resolve())
    assert sorted(run.rows["id"]) == ["ic-1", "ic-2", "oc-1"]
    assert cli.main(argv) == 0
    assert "from the cache" in capsys.readouterr().out
    # the selection report finds the gold of the files the run names, and only while unchanged
    from workbench.studies._selection import gold_for_run

    gold = gold_for_run(run)
    assert gold is not None and sorted(gold) == ["ic-1", "ic-2"]
    files[0].write_text(files[0].read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert gold_for_run(run) is None


def test_cli_eval_gates_names_the_bad_line_of_a_question_file(small_index, tmp_path,
                                                              keyword_config, capsys) -> None:
    from workbench import cli

    (tmp_path / "none").mkdir()
    config = keyword_config(tmp_path, tmp_path / "none", index=tmp_path / "none-index")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "b1", "set": "in_corpus", "question": "q", "lang": "en", '
                   '"split": "dev", "gold": [{"path": "en/base64.md", "span": "not there"}]}\n',
                   encoding="utf-8")
    assert cli.main(["eval", "gates", "--config", str(config), "--index",
                     str(small_index.folder), "--quiet", "--questions", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"QuestionSetError: {bad}:1: b1: span 'not there' is not in en/base64.md" in err


def test_cli_gates_calibrate_writes_an_overlay_the_settings_loader_reads(
        small_index, tmp_path, keyword_config, capsys) -> None:
    from workbench import cli
    from workbench.config import load_settings, overlay_settings
    from workbench.runs import load_run

    config = keyword_config(tmp_path, Path(small_index.manifest["corpus_root"]),
                            index=small_index.folder)
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps({**item, "set": name}, ensure_ascii=False) + "\n"
                           for name, items in QUESTIONS.items() for item in items)
                   + json.dumps({"id": "oc-2", "set": "out_of_corpus", "lang": "en",
                                 "split": "dev", "question": "Who won the 1998 World Cup?"})
                   + "\n", encoding="utf-8")
    fragment = tmp_path / "tuned" / "gates.toml"
    # three questions are below calibrate's minimum per kind, and on so few the grid's best cell
    # may switch a gate off: both are allowed here in so many words
    assert cli.main(["gates", "calibrate", "--config", str(config), "--mode", "bi-encoder",
                     "--questions", str(own), "--out", str(fragment), "--quiet",
                     "--min-per-kind", "1", "--allow-gates-off"]) == 0
    out = capsys.readouterr().out
    assert "gates tuned on the dev split, rerank bi-encoder, 3 questions" in out
    text = fragment.read_text(encoding="utf-8")
    assert "[gates]" in text and "threshold_bi_encoder = " in text
    base = load_settings(config)
    tuned = overlay_settings(base, fragment)
    assert tuned == load_settings([config, fragment])
    assert tuned.paths == base.paths and tuned.gates.order == base.gates.order
    run = load_run(out.split("run record:")[1].strip())
    assert run.manifest["kind"] == "gates-calibrate"
    assert run.manifest["fragment"] == text
    assert run.manifest["summary"]["gates"] == {
        "threshold_bi_encoder": tuned.gates.threshold_bi_encoder,
        "min_lexical_coverage": tuned.gates.min_lexical_coverage,
        "disagreement_margin": tuned.gates.disagreement_margin}
    assert run.manifest["questions"][0]["path"] == str(own)
    # the chosen cell is the grid's best: answerable answered from gold, unanswerable refused
    best = run.rows.iloc[0]
    assert best["threshold"] == tuned.gates.threshold_bi_encoder
    assert best["score"] == run.rows["score"].max()
    # a second --config on the command line is the same overlay
    assert cli.main(["eval", "gates", "--config", str(config), "--config", str(fragment),
                     "--mode", "bi-encoder", "--questions", str(own), "--quiet"]) == 0
    record = load_run(capsys.readouterr().out.split("run record:")[1].strip())
    assert record.manifest["settings"]["gates"]["threshold_bi_encoder"] == \
        tuned.gates.threshold_bi_encoder


def test_calibrate_without_a_question_of_the_split_says_so(settings, small_index, tmp_path,
                                                          monkeypatch) -> None:
    from workbench.corpus._questions import QuestionSetError
    from workbench.studies import calibrate

    monkeypatch.setattr(gates_study, "QuoteSource",
                        lambda s: QuoteSource(s, index=small_index, embedder=KeywordEmbedder()))
    only_test = tmp_path / "test-only.jsonl"
    only_test.write_text(json.dumps({**QUESTIONS["in_corpus"][1], "set": "in_corpus"},
                                    ensure_ascii=False) + "\n", encoding="utf-8")
    settings = dataclasses.replace(settings, paths=dataclasses.replace(
        settings.paths, cache=tmp_path / "cache"))
    with pytest.raises(QuestionSetError, match="no question of the dev split"):
        calibrate(settings, questions=[only_test])


def test_cli_eval_gates_with_no_question_of_the_split_is_a_typed_error(
        small_index, tmp_path, keyword_config, capsys) -> None:
    from workbench import cli

    config = keyword_config(tmp_path, Path(small_index.manifest["corpus_root"]),
                            index=small_index.folder)
    dev_only = tmp_path / "dev-only.jsonl"
    dev_only.write_text(json.dumps({**QUESTIONS["out_of_corpus"][0], "set": "out_of_corpus"},
                                   ensure_ascii=False) + "\n", encoding="utf-8")
    assert cli.main(["eval", "gates", "--config", str(config), "--questions", str(dev_only),
                     "--split", "test", "--quiet"]) == 2
    assert "QuestionSetError: no question of the test split in" in capsys.readouterr().err
