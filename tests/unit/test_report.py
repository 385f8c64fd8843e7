"""The HTML report, built from small hand-made run records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from plotly.offline import get_plotlyjs

from workbench import cli
from workbench.report import REPORT_NAME, ReportError, build_report, report_sections
from workbench.runs import write_run

GATES = ["gate0", "threshold", "disagreement", "relevance", "verbatim"]
SETTINGS = {"gates": {"relevance_rules": ["entities"]}}


def gate_rows() -> pd.DataFrame:
    """Six questions: two answered correctly, one refused per gate0/threshold/relevance, one leak."""
    plan = [("q1", "in_corpus", "answered", True, "dev"), ("q2", "in_corpus", "answered", True, "test"),
            ("q3", "in_corpus", "threshold", True, "test"),
            ("q4", "out_of_corpus", "gate0", False, "dev"),
            ("q5", "out_of_corpus", "answered", False, "test"),
            ("q6", "relevance_traps", "relevance", False, "dev")]
    rows = []
    for qid, name, fires, gold, split in plan:
        row = {"id": qid, "set": name, "split": split, "lang": "en", "question": f"question {qid}",
               "n_hits": 1, "top_is_gold": gold, "top_score": 0.9, "top_path": "en/a.md",
               "gate0_coverage": 1.0, "top2_gap": 0.1, "top2_same_file": True}
        for gate in GATES:
            row[f"wf_{gate}"] = gate == fires
        for rule in ("entities", "lang-match", "term-coverage"):
            row[f"rule_{rule}"] = fires == "relevance" and rule == "entities"
        rows.append(row)
    return pd.DataFrame.from_records(rows)


def answers_rows(leaks: int) -> pd.DataFrame:
    return pd.DataFrame({
        "id": ["q1", "q2", "q4"], "set": ["in_corpus", "in_corpus", "out_of_corpus"],
        "question": ["a", "b", "c"], "mode": ["A", "A", ""],
        "leak": [i < leaks for i in range(3)],
        "leak_reason": ["mode A without evidence" if i < leaks else "" for i in range(3)]})


def router_run(root: Path) -> Path:
    ids = [f"t{i}" for i in range(6)]
    rows = pd.concat([
        pd.DataFrame({"router": "rule", "id": ids, "correct": [True] * 5 + [False],
                      "error": [None] * 5 + ["wrong_source"]}),
        pd.DataFrame({"router": "base", "id": ids, "correct": [False] * 4 + [True] * 2,
                      "error": ["false_refusal"] * 4 + [None] * 2}),
    ], ignore_index=True)
    summary = {"rule": {"items": 6, "source_accuracy": 5 / 6, "latency_p50_ms": 0.4},
               "base": {"items": 6, "source_accuracy": 2 / 6, "latency_p50_ms": 80.0}}
    return write_run("routers", rows, results_dir=root, summary=summary,
                     extra={"routers": ["rule", "base"], "split": "test",
                            "tasksets": ["router_tasks.jsonl"],
                            "findings": [{"claim": "Training with refusals raises conscious refusal.",
                                          "routers": ["base", "base-no-refusals"], "holds": None,
                                          "verdict": "not measured: base-no-refusals is absent",
                                          "numbers": {}}]})


def e2e_rows() -> pd.DataFrame:
    """Four end-to-end questions, one per source: right, verified wrong, over-refused, refused."""
    plan = [("e2e-u-001", "utility", "answered correctly", "", ""),
            ("e2e-q-001", "quote", "verified wrong", "", ""),
            ("e2e-s-001", "spec", "over-refused", "BAD_SPEC_INPUT", ""),
            ("e2e-r-001", "refuse", "refused correctly", "OUT_OF_SCOPE", "OUT_OF_SCOPE")]
    return pd.DataFrame.from_records([
        {"id": i, "split": "test", "lang": "en", "source": source, "outcome": outcome,
         "route": source, "code": code, "gold_code": gold, "same_code": bool(code) and code == gold,
         "question": f"question <{i}>", "gold": json.dumps({"source": source}),
         "trace": f"question: question {i}\nroute: {source}"}
        for i, source, outcome, code, gold in plan])


def plain(page: str) -> str:
    """The page with the cells' alignment classes dropped, so rows read as ``<td>a</td>...``."""
    return re.sub(r'<td class="[^"]*">', "<td>", page)


def write_all(root: Path, leaks: int = 0) -> dict[str, Path]:
    runs = {
        "gates": write_run("gates", gate_rows(), results_dir=root,
                           extra={"order": GATES, "mode": "bi-encoder", "settings": SETTINGS}),
        "answers": write_run("answers", answers_rows(leaks), results_dir=root,
                             extra={"mode": "bi-encoder"}),
        "routers": router_run(root),
        "e2e": write_run("e2e", e2e_rows(), results_dir=root, summary={"split": "all"},
                         extra={"router": "rule", "router_reason": "named by the caller"}),
        "drift": write_run("drift", pd.DataFrame({
            "fragment_id": ["f1", "f2", "f3"], "path": ["a.md", "a.md", "b.md"],
            "status": ["match", "drifted", "missing_file"]}), results_dir=root),
        "fts": write_run("fts", pd.DataFrame({
            "spec_id": ["vat.rate", "vat.export"], "path": ["a.fts", "b.fts"], "passed": [True, False],
            "code": ["", "E_PREMISE"], "fallacies": ["", ""], "certificate_digest": ["c" * 64, ""]}),
            results_dir=root, extra={"library": {"entries": 5, "counts": {"verified": 4, "rejected": 1},
                                                 "digest": "d" * 64, "intact": True, "problems": []}}),
        "negative_control": write_run("negative_control", pd.DataFrame({
            "kind": ["quote_char_changed"] * 3 + ["utility_invented_id"] * 2,
            "source": ["quote"] * 3 + ["utility"] * 2, "number": [0, 1, 2, 0, 1],
            "caught": [True, True, False, True, True],
            "invariant": ["quote_verbatim", "quote_verbatim", "", "utility_known", "utility_known"]}),
            results_dir=root, summary={"genuine": 7, "genuine_passed": 7}),
        "heldout": write_run("heldout", pd.DataFrame({"router": ["rule", "span"], "id": ["h-1", "h-1"],
                                                      "round": ["1", "1"]}), results_dir=root,
                             summary={"1": {"tasksets": ["pharmacy.jsonl"], "routers": {
                                 name: {"items": 40, "utility_accuracy": u, "argument_exact_match": 0.5,
                                        "verified_wrong_answer_rate": w, "conscious_refusal_rate": 0.9,
                                        "over_refusal_rate": 0.1}
                                 for name, u, w in (("rule", 0.7, 0.125), ("span", 0.8, 0.05))}}},
                             extra={"split": "heldout", "rounds": ["1"]}),
        "sweep": write_run("sweep", pd.DataFrame({
            "cell": [0, 1, 2], "status": ["ok", "ok", "failed"], "error": ["", "", "boom"],
            "reranker.mode": ["none", "none", "bi-encoder"], "gates.threshold": [0.1, 0.2, None],
            "hasans_correct_share": [0.8, 0.6, None], "noans_refused_share": [0.3, 0.7, None]}),
            results_dir=root, summary={"cells": 3, "failed": 1}, extra={"sweep": "t", "grid": {
                "reranker.mode": ["none", "bi-encoder"]}}),
    }
    return runs


def test_every_section_from_its_run(tmp_path: Path) -> None:
    runs = write_all(tmp_path)
    path = build_report(tmp_path)
    assert path == tmp_path / REPORT_NAME
    page = plain(path.read_text(encoding="utf-8"))
    for key in ("leakage", "heldout", "gates", "ablation", "routers", "drift", "fts", "negative",
                "sweep"):
        assert f'<section id="{key}">' in page
    for folder in runs.values():
        assert folder.name in page  # each section names the run it came from
    assert "No <b>" not in page
    # numbers recomputed from the rows: attribution, ablation, McNemar, drift, catch rate
    assert '<div class="banner ok" id="banner-leakage"><div class="big">0</div>' in page
    assert "Leakage: 0 of 2 mode-A answers" in page
    assert "<td>in_corpus</td><td>3</td><td>0</td><td>1</td>" in page  # n, gate0, threshold
    assert "b (only A right)" in page and "<td>rule</td><td>base</td><td>6</td><td>4</td><td>1</td>" in page
    assert "quotable now <b>33.3%</b>" in page
    assert "<b>4 of 5</b> forgeries caught" in page and "80.0%" in page
    assert "genuine answers passing: <b>7 of 7</b>" in page
    assert "Specifications: 1 of 2 certified" in page and "E_PREMISE" in page
    assert "<b>3</b> cells, 1 failed" in page and "boom" in page
    assert "<td>entities</td><td>yes</td>" in page  # the rule set in use is marked
    # the held-out round first, its verified-wrong share beside each router's accuracy
    assert "Round 1: pharmacy.jsonl" in page and "<td>span</td><td>40</td><td>80.0%</td>" in page
    assert "12.5%" in page and page.index('id="heldout"') < page.index('id="routers"')


def test_plotly_is_inlined_once_and_nothing_is_fetched(tmp_path: Path) -> None:
    import base64
    import gzip

    write_all(tmp_path)
    page = build_report(tmp_path, out=tmp_path / "elsewhere" / "r.html").read_text(encoding="utf-8")
    packed = re.findall(r'<script type="application/octet-stream" id="wb-plotly">([^<]*)</script>',
                        page)
    assert len(packed) == 1  # plotly.js once, packed, not once per figure
    assert gzip.decompress(base64.b64decode(packed[0])).decode("utf-8") == get_plotlyjs()
    assert page.count("Plotly.newPlot(") == 1  # one loader draws every figure
    assert page.count('class="wb-figure"') >= 4  # gates, routers, drift, negative control
    assert len(page) < 0.5 * len(get_plotlyjs())
    assert "The three router findings" in page and "not measured: base-no-refusals is absent" in page
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert not re.search(r"<link[^>]*\bhref=[\"']?https?:", page)
    assert not (tmp_path / REPORT_NAME).exists()


def test_figure_data_is_compact() -> None:
    import plotly.graph_objects as go

    from workbench.report._html import figure

    html_text = figure(go.Figure(go.Scatter(x=[0.123456789, 1 / 3], y=[2 / 3, 1.0])), "f")
    assert "0.1235" in html_text and "0.123456789" not in html_text
    assert "0.3333" in html_text and "0.33333" not in html_text
    assert "<script>" not in html_text and "newPlot" not in html_text


def test_missing_runs_are_said_not_invented(tmp_path: Path) -> None:
    write_run("drift", pd.DataFrame({"fragment_id": ["f1"], "path": ["a.md"], "status": ["match"]}),
              results_dir=tmp_path)
    sections = {s.key: s for s in report_sections(tmp_path)}
    assert not sections["drift"].missing
    for key in ("leakage", "selection", "e2e", "heldout", "gates", "ablation", "routers", "fts",
                "negative", "sweep"):
        assert sections[key].missing and "run record yet" in sections[key].body
    page = build_report(tmp_path).read_text(encoding="utf-8")
    assert "No <b>routers</b> run record yet" in page
    assert "Leakage: not measured yet" in page and "Every fragment is at its anchor" in page
    empty = build_report(tmp_path / "none").read_text(encoding="utf-8")
    assert empty.count("run record yet") == 11  # every section that needs a run, drift included


def test_wrong_answers_and_targets_on_the_front_page(tmp_path: Path) -> None:
    write_all(tmp_path)
    page = plain(build_report(tmp_path).read_text(encoding="utf-8"))
    # beside the green leakage zero: the one verified answer to an out-of-corpus question
    assert '<div class="banner bad" id="banner-selection"><div class="big">1</div>' in page
    assert "Answered wrong: 1 of 3 verified answers" in page
    assert page.index("Answered wrong:") < page.index('<section id="leakage">')
    assert "A selection error is a verified answer" in page  # the definition is on the page
    assert "<td>out_of_corpus</td><td>2</td><td>1</td><td>0</td><td>1</td><td>100.0%</td>" in page
    # the targets, each with its goal and whether it is met
    assert ("out-of-corpus questions refused</td><td>test</td><td>0.0% (0/1)</td><td>≥ 97%</td>"
            "<td>NOT met") in page
    assert "leakage)</td><td>every question</td><td>0 of 2</td><td>= 0</td><td>met" in page
    # the wrong answer is one click from its trace, and linkable
    assert '<details class="trace" id="trace-bi-encoder-q5">' in page
    assert "gate verdicts" in page and "it must be refused" in page


def test_end_to_end_outcomes_per_source_on_the_front_page(tmp_path: Path) -> None:
    write_all(tmp_path)
    page = plain(build_report(tmp_path).read_text(encoding="utf-8"))
    front = page[:page.index('<section id="leakage">')]
    assert '<div class="banner bad" id="banner-e2e"><div class="big">1</div>' in front
    assert "End to end: 1 of 4 questions answered verified-wrong</b> (router rule" in front
    # one of four says little: the share's exact 95% interval is printed beside it
    assert "exact 95% interval of the share 0.6% to 80.6%)" in front
    # per source: answered correctly, refused correctly, verified wrong, over-refused
    assert "<td>utility</td><td>1</td><td>1</td><td>0</td><td>0</td><td>0</td>" in front
    assert "<td>quote</td><td>1</td><td>0</td><td>0</td><td>1</td><td>0</td>" in front
    assert "<td>spec</td><td>1</td><td>0</td><td>0</td><td>0</td><td>1</td>" in front
    assert "<td>refuse</td><td>1</td><td>0</td><td>1</td><td>0</td><td>0</td>" in front
    assert "<b>over-refused</b>: a refusal where the gold is an answer." in front
    # the wrong answer is one click from its trace
    assert '<a href="#e2e-e2e-q-001">e2e-q-001</a>' in front
    assert '<details class="trace" id="e2e-e2e-q-001">' in page
    assert "question &lt;e2e-q-001&gt;" in page and "route: quote" in page
    assert '<details class="trace" id="e2e-e2e-u-001">' not in page  # right answers stay out
    assert page.index("e2e-e2e-q-001\">") < page.index("e2e-e2e-s-001\">")  # wrong first


def test_without_an_e2e_run_the_section_says_how_to_make_one(tmp_path: Path) -> None:
    runs = write_all(tmp_path)
    build_report(tmp_path, runs=[r.name for k, r in runs.items() if k != "e2e"])
    page = (tmp_path / REPORT_NAME).read_text(encoding="utf-8")
    assert 'id="banner-e2e"' not in page and "No <b>e2e</b> run record yet" in page


def test_a_leak_turns_the_banner_red(tmp_path: Path) -> None:
    write_all(tmp_path, leaks=1)
    page = plain(build_report(tmp_path).read_text(encoding="utf-8"))
    assert '<div class="banner bad" id="banner-leakage"><div class="big">1</div>' in page
    assert "<td>in_corpus</td><td>2</td><td>2</td><td>1</td>" in page


def test_numbers_align_right_and_words_left(tmp_path: Path) -> None:
    write_all(tmp_path)
    page = build_report(tmp_path).read_text(encoding="utf-8")
    assert '<td class="txt">quote_char_changed</td><td class="txt">quote</td><td class="num">3</td>' in page
    assert '<th class="num">catch rate</th><th class="txt">caught most often by</th>' in page


def test_text_from_the_records_is_escaped(tmp_path: Path) -> None:
    rows = pd.DataFrame({"fragment_id": ["f1"], "path": ["<script>alert(1)</script>.md"],
                         "status": ["changed"]})
    write_run("drift", rows, results_dir=tmp_path)
    page = build_report(tmp_path).read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)" in page


def test_cli_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results"
    write_all(results)
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\nresults = "{results}"\n', encoding="utf-8")
    assert cli.main(["report", "--config", str(config)]) == 0
    assert str(results / REPORT_NAME) in capsys.readouterr().out
    assert cli.main(["report", "--results", str(results), "--out", str(tmp_path / "x.html"),
                     "--config", str(config)]) == 0
    assert (tmp_path / "x.html").is_file()
    (tmp_path / "file").write_text("", encoding="utf-8")
    with pytest.raises(ReportError):
        build_report(tmp_path / "file")


def test_each_table_says_what_it_counts_and_the_terms_are_defined(tmp_path: Path) -> None:
    write_all(tmp_path)
    write_run("negative_control", pd.DataFrame({
        "kind": ["quote_char_changed"] * 2 + ["valid_evidence_other_question"] * 2,
        "source": ["quote"] * 4, "number": [0, 1, 0, 1], "caught": [True, True, False, False],
        "invariant": ["quote_verbatim", "quote_verbatim", "", ""]}), results_dir=tmp_path,
        summary={"genuine": 2, "genuine_passed": 2})
    page = build_report(tmp_path).read_text(encoding="utf-8")
    assert "The verbatim gate reads 0 while the course files match the index" in page
    assert "<b>Counts: every question of the run, both splits" in page
    assert "<b>Shares: test split only</b>" in page and "<b>Counts: dev split only</b>" in page
    assert "Incorrect answers: items where the router chose a source" in page
    assert "Visible failures: items whose error a reader sees" in page
    assert "<b>2 of 4</b> forgeries caught" in page  # with the kind expected to pass
    assert "Without the kind expected to pass (valid_evidence_other_question: 0 of 2 caught)" in page
    assert "<b>2 of 2</b>, catch rate <b>100.0%</b>" in page
    assert '<section id="glossary">' in page and "<dt>answered wrong (selection error)</dt>" in page


# --- a project of one's own: which runs, which splits, which commands ----------------------------

def own_gate_run(root: Path, *, index: str = "i" * 64, files: tuple[str, ...] = ("/p/mine.jsonl",),
                 split: str | None = None, rows: pd.DataFrame | None = None,
                 summary: dict | None = None) -> Path:
    """A gate run as ``eval gates --questions`` records it: index digest, question files, split."""
    frame = gate_rows() if rows is None else rows
    if split:
        frame = frame[frame["split"] == split]
    return write_run("gates", frame, results_dir=root, digests={"index": index},
                     summary=summary if summary is not None else {"leakage": 0, "answered": 14},
                     extra={"order": GATES, "mode": "bi-encoder", "split": split,
                            "questions": [{"path": f, "sha256": "s" + f} for f in files]})


def test_without_a_suite_the_latest_run_of_each_study_on_the_same_data(tmp_path: Path) -> None:
    from workbench.report import report_scope

    other = own_gate_run(tmp_path, files=("/p/other.jsonl",))
    drift_elsewhere = write_run("drift", pd.DataFrame({"fragment_id": ["f"], "path": ["a.md"],
                                                       "status": ["match"]}),
                                results_dir=tmp_path, digests={"index": "x" * 64})
    drift = write_run("drift", pd.DataFrame({"fragment_id": ["f"], "path": ["a.md"],
                                             "status": ["match"]}),
                      results_dir=tmp_path, digests={"index": "i" * 64})
    mine = own_gate_run(tmp_path)
    scope = report_scope(tmp_path)
    assert scope.suite is None and scope.anchor == mine.name
    assert scope.among == {mine.name, drift.name}  # not the other files' run, nor the other index
    assert other.name not in scope.among and drift_elsewhere.name not in scope.among
    assert scope.run("gates").run_id == mine.name
    assert "the latest run of each study on the data of run" in scope.describe()
    assert "<code>mine.jsonl</code>" in scope.describe()


def test_a_complete_demo_suite_still_wins(tmp_path: Path) -> None:
    from workbench.report import report_scope
    from workbench.runs import mark_suite_complete, suite

    with suite("demo-1"):
        write_all(tmp_path)
    mark_suite_complete("demo-1", tmp_path)
    own_gate_run(tmp_path)
    scope = report_scope(tmp_path)
    assert scope.suite == "demo-1" and scope.command("gates") == "workbench demo"


def test_split_labels_come_from_the_run(tmp_path: Path) -> None:
    from workbench.report import split_label
    from workbench.runs import load_run

    assert split_label(load_run(own_gate_run(tmp_path / "a", split="test"))) == "test split"
    assert split_label(load_run(own_gate_run(tmp_path / "b"))) == "both splits"
    dev_rows = gate_rows()[gate_rows()["split"] == "dev"]
    assert split_label(load_run(write_run("gates", dev_rows, results_dir=tmp_path / "c"))) == "dev split"


def test_a_test_only_run_is_labelled_test_and_the_ablation_is_not_computed_on_it(
        tmp_path: Path) -> None:
    own_gate_run(tmp_path, split="test")
    page = build_report(tmp_path).read_text(encoding="utf-8")
    assert "both splits" not in page
    assert "every rerank mode, test split" in page
    ablation = page[page.index('<section id="ablation">'):page.index('<section id="routers">')]
    assert "holds no dev question (test split)" in ablation
    assert "<code>workbench eval gates --questions /p/mine.jsonl --split dev</code>" in ablation
    assert "<table" not in ablation  # no rule table computed on the test split


def test_the_ablation_takes_an_earlier_run_of_the_same_data_that_holds_dev(tmp_path: Path) -> None:
    full = own_gate_run(tmp_path)
    test_only = own_gate_run(tmp_path, split="test")
    page = build_report(tmp_path).read_text(encoding="utf-8")
    ablation = page[page.index('<section id="ablation">'):page.index('<section id="routers">')]
    assert full.name in ablation and test_only.name not in ablation
    assert "dev split, 3 questions" in ablation


def test_missing_studies_give_the_projects_commands_not_the_demo(tmp_path: Path) -> None:
    own_gate_run(tmp_path)
    sections = {s.key: s for s in report_sections(tmp_path)}
    assert "workbench demo</code>" not in sections["drift"].body
    assert "<code>workbench audit drift</code>" in sections["drift"].body
    assert "<code>workbench eval e2e</code>" in sections["e2e"].body
    assert "<code>workbench negative-control</code>" in sections["negative"].body
    assert "<code>workbench eval routers rule span</code>" in sections["routers"].body
    assert "workbench sweep GRID.toml" in sections["sweep"].body


def test_leakage_is_read_from_the_gate_run_that_measured_it(tmp_path: Path) -> None:
    run = own_gate_run(tmp_path, summary={"leakage": 0, "answered": 14})
    page = plain(build_report(tmp_path).read_text(encoding="utf-8"))
    assert '<div class="banner ok" id="banner-leakage"><div class="big">0</div>' in page
    assert "Leakage: 0 of 14 mode-A answers" in page and "no answers run" not in page
    assert "bi-encoder: gates run, both splits" in page
    leakage = page[page.index('<section id="leakage">'):page.index('<section id="selection">')]
    assert run.name in leakage and "re-checked each of its 14 verified answers" in leakage
    own_gate_run(tmp_path / "leak", summary={"leakage": 2, "answered": 14})
    red = build_report(tmp_path / "leak").read_text(encoding="utf-8")
    assert '<div class="banner bad" id="banner-leakage"><div class="big">2</div>' in red


def test_every_over_refusal_is_one_click_from_its_trace(tmp_path: Path) -> None:
    rows = gate_rows()
    rows["answered"] = [True, True, False, False, True, False]
    rows["code"] = [None, None, "BELOW_THRESHOLD", "GATE0_NO_LEXICAL_SUPPORT", None, "IRRELEVANT"]
    rows["gold_rank"] = [1, 1, 1, None, None, None]  # q3 refused although gold ranked first
    rows["refusal_text"] = ["", "", "the best of 10 fragments reached 0.81 against 0.87", "", "", ""]
    rows["quote"] = ["x" * 5000, "b", "c", "", "e", ""]
    own_gate_run(tmp_path, rows=rows)
    page = build_report(tmp_path).read_text(encoding="utf-8")
    assert '<a href="#over-refused">1 answerable questions over-refused</a>' in page
    assert '<details class="trace" id="over-bi-encoder-q3">' in page
    assert '<a href="#over-bi-encoder-q3">' in page and "gold ranked first" in page
    assert "reached 0.81 against 0.87" in page
    assert '<details class="trace" id="over-bi-encoder-q4">' not in page  # must-refuse: right
    assert "x" * 601 not in page  # a trace block shows a clipped quote


def test_gate_misses_list_every_over_refusal_first_rank_included() -> None:
    from workbench.report import ANSWERED_ELSEWHERE, OVER_REFUSED, gate_misses

    rows = gate_rows()
    rows["answered"] = [True, True, False, False, True, False]
    rows["code"] = [None, None, "BELOW_THRESHOLD", "GATE0_NO_LEXICAL_SUPPORT", None, "IRRELEVANT"]
    rows["gold_rank"] = [1, 1, 1, None, None, None]
    rows.loc[rows["id"] == "q2", "top_is_gold"] = False
    misses = gate_misses(rows)
    assert list(misses["id"]) == ["q3", "q2"]  # over-refusals first
    assert list(misses["miss"]) == [OVER_REFUSED, ANSWERED_ELSEWHERE]
    assert misses.loc[0, "gold_rank"] == 1 and misses.loc[0, "code"] == "BELOW_THRESHOLD"


def test_the_risk_coverage_curve_and_its_operating_point(tmp_path: Path) -> None:
    curve = {"score": "top_score", "aurc": 0.0512345,
             "points": [{"threshold": 0.9, "risk": 0.0, "coverage": 0.5},
                        {"threshold": 0.8, "risk": 0.25, "coverage": 1.0}],
             "run": {"answers": 4, "wrong": 1, "risk": 0.25, "coverage": 1.0}}
    run = own_gate_run(tmp_path, summary={"leakage": 0, "answered": 4,
                                          "risk_coverage": {"test": curve}})
    section = {s.key: s for s in report_sections(tmp_path)}["risk"]
    assert section.runs == (run.name,)
    assert 'data-target="fig-risk-coverage"' in section.body
    assert "<td>test</td>" in plain(section.body) and "25.0%" in section.body
    assert "0.0512" in section.body
    empty = {s.key: s for s in report_sections(tmp_path / "none")}["risk"]
    assert empty.missing and "workbench eval gates" in empty.body
