"""Hostile input on the newer surfaces: sweeps, the Dask executor, HTML pages, question files,
file names, output paths and interrupts. Each case found by trying them as a hostile user would
is replayed here (tables where they fit), then each surface is fuzzed, derandomized and bounded
in time like the neighbouring fuzzers.

The settings ranges (thresholds, timeouts, workers, retries, ``top_k``, question length) and an
overlay naming itself are replayed in ``test_settings_validation.py``.
"""

from __future__ import annotations

import gc
import http.server
import json
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_sweep import synthetic_rows

from workbench import cli
from workbench.config import ConfigError, Executor, Settings, load_settings
from workbench.corpus._errors import HtmlExtractionError
from workbench.corpus._html import extract_html
from workbench.corpus._questions import QuestionSetError, load_questions
from workbench.index import build_index
from workbench.index._layout import IndexOutError, check_out_file
from workbench.model_catalog import CatalogError, record_numbers
from workbench.report import ReportError, build_report, write_figures
from workbench.report._build import report_scope
from workbench.runs import write_run
from workbench.studies import ExecutorError, SchedulerUnreachableError, executor_settings
from workbench.studies._executor import (
    SchedulerAddressError,
    check_scheduler_address,
    dask_client,
)
from workbench.studies._sweep import (
    CONFIRM_CELLS,
    SweepGridError,
    SweepInterrupted,
    parse_grid,
    run_sweep,
)
from workbench.utilities._protocol import json_text

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))

# --- output paths: only a file the workbench wrote, of the same kind, is replaced -----------

REPORT_HEAD = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>digit-workbench report</title>"
FIGURES = json.dumps({"suite": "demo-1", "version": "0.1", "catalog": {}})
OVERLAY = "# tuned by `workbench gates calibrate` on the dev split of x.jsonl\n[gates]\n"

# (kind, text already at the place, whether it may be replaced)
OUT_FILES = [
    ("report", "# A corpus page\n\nNotes that must survive.\n", False),
    ("report", "<html><title>someone's page</title></html>", False),
    ("report", REPORT_HEAD, True),
    ("figures record", '{"notes": "mine"}', False),
    ("figures record", "not json at all", False),
    ("figures record", FIGURES, True),
    ("gates overlay", "[gates]\nthreshold_bi_encoder = 0.5\n", False),
    ("gates overlay", OVERLAY, True),
]


@pytest.mark.parametrize(("kind", "text", "allowed"), OUT_FILES)
def test_an_output_replaces_only_a_file_of_its_own_kind(tmp_path: Path, kind: str, text: str,
                                                        allowed: bool) -> None:
    target = tmp_path / "out.file"
    target.write_text(text, encoding="utf-8")
    if allowed:
        assert check_out_file(target, kind) == target.resolve()
    else:
        with pytest.raises(IndexOutError, match="not a .* the workbench wrote"):
            check_out_file(target, kind)
    assert target.read_text(encoding="utf-8") == text


def test_an_output_place_that_is_a_folder_under_a_file_or_in_the_corpus(tmp_path: Path) -> None:
    with pytest.raises(IndexOutError, match="is a folder"):
        check_out_file(tmp_path, "report")
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    with pytest.raises(IndexOutError, match="is a file, not a folder"):
        check_out_file(tmp_path / "plain" / "report.html", "report")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    with pytest.raises(IndexOutError, match="inside"):
        check_out_file(corpus / "new.html", "report", protected=[corpus])
    assert check_out_file(tmp_path / "new" / "report.html", "report")


def test_report_out_over_a_corpus_page_is_refused_and_the_page_kept(
        small_corpus: Path, tmp_path: Path, keyword_config, capsys) -> None:
    config = keyword_config(tmp_path, small_corpus)
    page = small_corpus / "en" / "base64.md"
    before = page.read_bytes()
    assert cli.main(["report", "--config", str(config), "--out", str(page)]) == 2
    assert page.read_bytes() == before
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "IndexOutError" in err


def test_report_markdown_refuses_a_figures_path_it_did_not_write(
        small_corpus: Path, tmp_path: Path, keyword_config) -> None:
    config = keyword_config(tmp_path, small_corpus)
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": 1}', encoding="utf-8")
    out = tmp_path / "r.html"
    assert cli.main(["report", "--config", str(config), "--out", str(out), "--markdown",
                     "--figures", str(notes)]) == 2
    assert notes.read_text(encoding="utf-8") == '{"mine": 1}' and not out.exists()


def test_the_report_writers_themselves_refuse_a_foreign_file(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n", encoding="utf-8")
    with pytest.raises(IndexOutError, match="not a report"):
        build_report(tmp_path / "results", out=notes)
    with pytest.raises(IndexOutError, match="not a figures record"):
        write_figures({"suite": "s", "version": "v"}, notes)
    assert notes.read_text(encoding="utf-8") == "# Notes\n"


def test_write_catalog_touches_only_a_catalog(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("# my notes\n\nnot a catalog\n", encoding="utf-8")
    with pytest.raises(CatalogError):
        record_numbers(tmp_path, "base", {"x": 1}, "test")
    assert (tmp_path / "catalog.yaml").read_text(encoding="utf-8") == "# my notes\n\nnot a catalog\n"


# --- the scheduler: every address gets a typed error within the deadline --------------------

@pytest.fixture
def silent_socket() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for conn in held:
        conn.close()


@pytest.fixture
def http_server() -> Iterator[int]:
    """An HTTP server on 127.0.0.1: it answers, but not as a Dask scheduler."""

    class Quiet(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


@pytest.mark.parametrize("peer", ["silent_socket", "http_server"])
def test_a_peer_that_is_no_scheduler_is_an_error_within_the_deadline(peer: str, request) -> None:
    port = request.getfixturevalue(peer)
    started = time.perf_counter()
    with pytest.raises(SchedulerUnreachableError, match=f"127.0.0.1:{port}"):
        with dask_client(Executor(scheduler=f"tcp://127.0.0.1:{port}", connect_timeout=2.0)):
            pass
    assert time.perf_counter() - started < 8  # the deadline is 2 s; well under 15 s


BAD_ADDRESSES = ["ucx://127.0.0.1:8786", "tls://127.0.0.1:8786", "wss://127.0.0.1:8786",
                 "inproc://x", "foo://127.0.0.1:1", "tcp://", "tcp://127.0.0.1", "tcp://:8786",
                 "tcp://127.0.0.1:0", "tcp://127.0.0.1:99999", "tcp://h:port", ""]


@pytest.mark.parametrize("address", BAD_ADDRESSES)
def test_an_address_the_workbench_cannot_join_is_refused_at_once(address: str, capsys, monkeypatch) -> None:
    import distributed  # noqa: F401  (imported first: the refusal is checked, not the import's time)

    def no_connection(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a connection was tried for {address!r}")

    monkeypatch.setattr(socket.socket, "connect", no_connection)
    monkeypatch.setattr(socket, "create_connection", no_connection)
    started = time.perf_counter()
    with pytest.raises(SchedulerAddressError):
        with dask_client(Executor(scheduler=address or "tcp://", connect_timeout=2.0)):
            pass
    with pytest.raises(SchedulerAddressError):
        executor_settings(Settings(), scheduler=address or ":")
    gc.collect()
    assert time.perf_counter() - started < 2  # nothing waited for the 2 s connect timeout
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_bad_scheduler_in_a_settings_file_names_the_file(tmp_path: Path) -> None:
    config = tmp_path / "cluster.toml"
    config.write_text('[executor]\nscheduler = "ucx://10.0.0.1:8786"\n', encoding="utf-8")
    with pytest.raises(SchedulerAddressError, match=rf"^{tmp_path}.*cluster\.toml: \[executor\] "
                                                     "scheduler address 'ucx://"):
        executor_settings(load_settings(config))


@pytest.mark.parametrize("workers", [-1, 65, 1000, 10**9])
def test_workers_past_the_range_are_refused(workers: int) -> None:
    with pytest.raises(ExecutorError, match=f"--workers {workers}: expected a number between 0"):
        executor_settings(Settings(), workers=workers)


# --- sweeps ----------------------------------------------------------------------------------

# (grid, a fragment of its error)
BAD_GRIDS = [
    ({"sweep": {"threshold_points": 10**9}}, "sweep.threshold_points = 1000000000"),
    ({"sweep": {"threshold_points": 2**63 - 1}}, "expected a number between 0 and 10000"),
    ({"sweep": {"threshold_points": 1e9}}, "expected a whole number"),
    ({"sweep": {"threshold_points": -1}}, "sweep.threshold_points = -1"),
    ({"sweep": {"split": "nosuchsplit"}, "grid": {"gates.threshold": [0.5]}},
     "sweep.split = 'nosuchsplit'"),
    ({"sweep": {"split": 5}, "grid": {"gates.threshold": [0.5]}}, "sweep.split = '5'"),
    ({"sweep": {"sets": ["nosuchset"]}, "grid": {"gates.threshold": [0.5]}},
     "sweep.sets names 'nosuchset'"),
    ({"sweep": {"name": ""}, "grid": {"gates.threshold": [0.5]}}, "sweep.name"),
    ({"grid": {"gates.threshold": list(range(1000)),
               "gates.disagreement_margin": list(range(1000))}}, "the grid has 1,000,000 cells"),
    ({"sweep": {"threshold_points": 10_000}, "grid": {"gates.disagreement_margin": [0, 1] * 6}},
     "the grid has 120,000 cells"),
]


@pytest.mark.parametrize(("raw", "fragment"), BAD_GRIDS)
def test_bad_grids_are_refused_before_anything_runs(raw: dict, fragment: str) -> None:
    with pytest.raises(SweepGridError, match="grid: ") as caught:
        parse_grid(raw)
    assert fragment in str(caught.value)


def _settings(tmp_path: Path, results: Path | None = None) -> Settings:
    return load_settings().with_overrides(paths={
        "results": str(results or tmp_path / "results"), "cache": str(tmp_path / "cache")})


def test_a_large_grid_asks_for_yes(tmp_path: Path) -> None:
    grid = parse_grid({"grid": {"gates.threshold": [x / 2000 for x in range(CONFIRM_CELLS + 1)]}})
    assert grid.cells == CONFIRM_CELLS + 1
    with pytest.raises(SweepGridError, match="runs only with --yes"):
        run_sweep(_settings(tmp_path), grid, Executor(),
                  evaluate=lambda *a: pytest.fail("nothing may run"))
    grid.check_size(yes=True)


def test_a_results_place_that_is_a_file_is_refused_before_any_cell(tmp_path: Path) -> None:
    (tmp_path / "results").write_text("a file", encoding="utf-8")
    settings = _settings(tmp_path)
    with pytest.raises(SweepGridError, match="is a file, not a folder"):
        run_sweep(settings, parse_grid({"grid": {"gates.threshold": [0.5]}}), Executor(),
                  evaluate=lambda *a: pytest.fail("nothing may run"))


def test_an_interrupted_sweep_writes_the_table_of_its_finished_cells(tmp_path: Path) -> None:
    calls = []

    def evaluate_then_stop(settings: Settings, sets: tuple[str, ...],
                           split: str | None) -> pd.DataFrame:
        calls.append(settings.reranker.mode)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return synthetic_rows(settings, sets, split)

    grid = parse_grid({"sweep": {"split": "dev"},
                       "grid": {"reranker.mode": ["bi-encoder", "none"],
                                "gates.threshold": [0.2, 0.8]}})
    settings = _settings(tmp_path)
    with pytest.raises(SweepInterrupted, match="stopped after 0 of 4 cells"):
        run_sweep(settings, grid, Executor(), evaluate=evaluate_then_stop,
                  results_dir=tmp_path / "results")
    from workbench.runs import runs_df

    sweeps = runs_df(tmp_path / "results", kind="sweep")
    assert sweeps["summary.interrupted"].tolist() == [True]
    assert sweeps["summary.cells_planned"].tolist() == [4]


def test_ctrl_c_in_a_verb_prints_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text('[grid]\n"gates.threshold" = [0.5]\n', encoding="utf-8")

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("workbench.cli._sweep.run_sweep", interrupted)
    assert cli.main(["sweep", str(grid), "--quiet"]) == 130
    assert capsys.readouterr().err == "workbench: interrupted\n"


def test_sigterm_in_a_verb_is_the_same_interrupt(tmp_path: Path, monkeypatch, capsys) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text('[grid]\n"gates.threshold" = [0.5]\n', encoding="utf-8")

    def terminated(*args: object, **kwargs: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
        pytest.fail("SIGTERM did not stop the verb")

    monkeypatch.setattr("workbench.cli._sweep.run_sweep", terminated)
    assert cli.main(["sweep", str(grid), "--quiet"]) == 130
    assert capsys.readouterr().err == "workbench: interrupted\n"
    assert signal.getsignal(signal.SIGTERM) is not None  # the previous handler is back


def test_a_sweep_on_a_silent_scheduler_stops_within_the_deadline(tmp_path: Path,
                                                                 silent_socket: int) -> None:
    started = time.perf_counter()
    with pytest.raises(SchedulerUnreachableError):
        run_sweep(_settings(tmp_path), parse_grid({"grid": {"reranker.mode": ["none"]}}),
                  Executor(scheduler=f"tcp://127.0.0.1:{silent_socket}", connect_timeout=2.0),
                  evaluate=synthetic_rows)
    assert time.perf_counter() - started < 8


def test_ctrl_c_in_index_build_keeps_the_previous_index_and_prints_one_line(
        small_corpus: Path, tmp_path: Path, keyword_config, monkeypatch, capsys) -> None:
    config = keyword_config(tmp_path, small_corpus)
    assert cli.main(["index", "build", "--config", str(config)]) == 0
    index = tmp_path / "idx"
    before = (index / "manifest.json").read_bytes()
    capsys.readouterr()

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("workbench.index._fragment_index.write_fragments", interrupted)
    (small_corpus / "en" / "new.md").write_text("# New\n\na new page of text\n",
                                                encoding="utf-8")
    assert cli.main(["index", "build", "--config", str(config)]) == 130
    err = capsys.readouterr().err  # after the progress bars: one line, no traceback
    assert err.endswith("\nworkbench: interrupted\n") and "Traceback" not in err
    assert (index / "manifest.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("idx")) == ["idx"]


# --- files that cannot be indexed are skipped with their reason ------------------------------

DEEP = "<html><body><p>top</p>" + "<div>" * 300 + "deep text" + "</div>" * 300 + "</body></html>"
VERY_DEEP = "<html><body>" + "<div>" * 10_000 + "deep" + "</div>" * 10_000 + "</body></html>"


@pytest.mark.parametrize("markup", [DEEP, VERY_DEEP])
def test_a_page_past_the_parsers_depth_is_refused_not_cut(markup: str) -> None:
    with pytest.raises(HtmlExtractionError, match="nested deeper than the parser's limit"):
        extract_html("deep.html", markup)


# (markup, text that must be in the extraction)
TAIL_KEPT = [
    ("<html><body><p>before</p></body></html></html><<<>>><p>after text</p>", "after text"),
    ("<html><body><p>before</p></body></html><p>after text</p>", "after text"),
    ("<p>before</p></HTML >\n<p>after text</p>", "after text"),
    ("<html><body><p>before</p></body><body><p>after text</p></body></html>", "after text"),
]


@pytest.mark.parametrize(("markup", "kept"), TAIL_KEPT)
def test_text_after_a_stray_end_tag_is_kept(markup: str, kept: str) -> None:
    text = extract_html("page.html", markup)
    assert "before" in text and kept in text


def test_unindexable_file_names_are_skipped_with_a_reason(small_corpus: Path,
                                                          tmp_path: Path) -> None:
    root = os.fsencode(small_corpus / "en")
    with open(os.path.join(root, b"bad\xffname.html"), "wb") as handle:
        handle.write(b"<html><body><p>text of a page</p></body></html>")
    (small_corpus / "en" / "two\nlines.md").write_text("# Fake\n\nfake lines\n", encoding="utf-8")
    (small_corpus / "en" / "right\u202eleft.md").write_text("# Bidi\n\nkept page\n",
                                                           encoding="utf-8")
    (small_corpus / "en" / "deep.html").write_text(DEEP, encoding="utf-8")
    report = build_index(small_corpus, tmp_path / "index", embedder="keyword",
                         cache_root=tmp_path / "cache")
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["en/bad\\udcffname.html"] == "file name is not UTF-8; rename it to index it"
    assert "control character or a line break" in reasons["en/two\\nlines.md"]
    assert "nested deeper" in reasons["en/deep.html"]
    assert report.files == 4  # the three pages and the bidi-named one, which prints escaped
    manifest = json.loads((tmp_path / "index" / "manifest.json").read_text(encoding="utf-8"))
    assert {s["path"] for s in manifest["skipped"]} == set(reasons)


# --- question files --------------------------------------------------------------------------

LINE = {"id": "q1", "set": "out_of_corpus", "question": "What is it?", "lang": "en",
        "split": "dev"}

# (fields that replace the line's, a fragment of the error)
BAD_QUESTION_LINES = [
    ({"question": 12345}, "'question' is a string, not 12345"),
    ({"question": None}, "'question' is a string, not None"),
    ({"question": ["a"]}, "'question' is a string"),
    ({"question": "   "}, "'question' is empty"),
    ({"question": "x" * 50_000_000}, "'question' has 50,000,000 characters; the limit is 2,000"),
    ({"question": "x" * 2001}, "the limit is 2,000"),
    ({"question": "bad \ud800 text"}, "lone surrogate"),
    ({"lang": "xx"}, "lang 'xx' is not one of ru, en"),
    ({"lang": 7}, "'lang' is a string"),
    ({"split": None}, "'split' is a string"),
    ({"set": ["in_corpus"]}, "'set' is a string"),
    ({"id": None}, "'id' is a non-empty string"),
    ({"id": True}, "'id' is a non-empty string"),
    ({"id": ""}, "'id' is a non-empty string"),
    ({"topic": 3}, "'topic' is a string"),
    ({"why": {}}, "'why' is a string"),
    ({"missing_entity": 3}, "'missing_entity' is a string or null"),
    ({"near": "a.md"}, "'near' is a {path, span} object or null"),
]


@pytest.mark.parametrize(("fields", "fragment"), BAD_QUESTION_LINES)
def test_question_lines_are_type_checked_with_their_line(small_corpus: Path, tmp_path: Path,
                                                         fields: dict, fragment: str) -> None:
    path = tmp_path / "q.jsonl"
    line = json.dumps({**LINE, **fields})
    path.write_text(json.dumps({**LINE, "id": "q0"}) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=f"{path}:2: ") as caught:
        load_questions(path, small_corpus)
    assert fragment in str(caught.value)


def test_the_question_limit_follows_the_settings(small_corpus: Path, tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({**LINE, "question": "x" * 3000}) + "\n", encoding="utf-8")
    assert load_questions(path, small_corpus, max_chars=5000)[0].question == "x" * 3000


def test_a_lone_surrogate_is_escaped_in_ask_json_lines() -> None:
    text = json_text({"question": "bad \ud800", "score": float("nan")}, default=str,
                     allow_nan=True)
    text.encode("utf-8")
    assert json.loads(text)["question"] == "bad \ud800"


def test_ask_json_answers_every_line_after_a_lone_surrogate(
        small_corpus: Path, tmp_path: Path, keyword_config, capsys) -> None:
    config = keyword_config(tmp_path, small_corpus)
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "bad \\ud800 line"}\n{"question": "What is Base64?"}\n',
                         encoding="utf-8")
    assert cli.main(["ask", "--config", str(config), "--json", "--router", "rule", "--file",
                     str(questions)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["question"] for line in lines] == ["bad \ud800 line",
                                                                "What is Base64?"]


# --- run records -----------------------------------------------------------------------------

def test_report_runs_names_a_damaged_run_as_damaged(tmp_path: Path) -> None:
    run = write_run("gates", pd.DataFrame({"a": [1]}), results_dir=tmp_path)
    (run / "manifest.json").write_text("{broken", encoding="utf-8")
    with pytest.raises(ReportError, match=f"run {run.name} is damaged"):
        report_scope(tmp_path, runs=[run.name])


# --- fuzzers ---------------------------------------------------------------------------------

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10)
_GRID_KEYS = st.sampled_from(["gates.threshold", "gates.order", "gates.relevance_rules",
                              "reranker.mode", "retrieval.top_k", "gates.disagreement_margin",
                              "nope"])


@FUZZ
@given(sweep=st.dictionaries(st.sampled_from(["name", "sets", "split", "threshold_points",
                                              "other"]), _VALUES, max_size=4),
       grid=st.dictionaries(_GRID_KEYS, _VALUES, max_size=3))
def test_fuzz_grid_files(sweep: dict, grid: dict) -> None:
    try:
        parsed = parse_grid({"sweep": sweep, "grid": grid})
    except SweepGridError:
        return
    assert 1 <= parsed.cells <= 100_000


_SECTIONS = {
    "gates": ["threshold_bi_encoder", "threshold_none", "disagreement_margin",
              "relevance_rules", "order", "min_lexical_coverage"],
    "retrieval": ["top_k", "rerank_pool", "lexical_k", "fusion", "lexical_weight"],
    "executor": ["workers", "connect_timeout", "retries", "scheduler"],
    "answers": ["max_question_chars"],
}
_TOML_VALUES = (st.integers(min_value=-(2**63), max_value=2**63 - 1)
                | st.floats(allow_nan=True, allow_infinity=True)
                | st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
                | st.lists(st.sampled_from(["entities", "entities", "gate0", "x"]), max_size=4))


def _toml(value: object) -> str:
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), repr(value))
    return json.dumps(value)


@FUZZ
@given(section=st.sampled_from(sorted(_SECTIONS)), data=st.data())
def test_fuzz_settings_overlays(tmp_path_factory, section: str, data) -> None:
    keys = data.draw(st.lists(st.sampled_from(_SECTIONS[section]), min_size=1, max_size=3,
                              unique=True))
    body = "".join(f"{key} = {_toml(data.draw(_TOML_VALUES))}\n" for key in keys)
    overlay = tmp_path_factory.mktemp("overlay") / "over.toml"
    overlay.write_text(f"[{section}]\n{body}", encoding="utf-8")
    try:
        load_settings([Path(__file__).parents[2] / "workbench.toml", overlay])
    except ConfigError as exc:
        assert str(exc).startswith(str(overlay))


@FUZZ
@given(fields=st.dictionaries(st.sampled_from(["id", "set", "question", "lang", "split", "gold",
                                               "near", "topic", "why", "missing_entity"]),
                              _VALUES, max_size=10))
def test_fuzz_question_files(tmp_path_factory, fields: dict) -> None:
    folder = tmp_path_factory.mktemp("questions")
    path = folder / "q.jsonl"
    path.write_text(json_text({**LINE, **fields}, allow_nan=True) + "\n", encoding="utf-8")
    try:
        load_questions(path, folder)
    except QuestionSetError as exc:
        assert f"{path}:1" in str(exc) or str(path) in str(exc)


_TAGS = st.sampled_from(["<div>", "</div>", "<p>", "</p>", "</html>", "</body>", "<html>",
                         "<body>", "<<<", ">>>", "<script>", "</script>", "<!--", "-->",
                         "<nav>", "</nav>", "&amp;", "&#0;", "<![CDATA[", "]]>", "<?xml?>"])


@FUZZ
@given(parts=st.lists(_TAGS | st.text(max_size=8), max_size=40),
       depth=st.integers(min_value=0, max_value=400))
def test_fuzz_html_pages(parts: list[str], depth: int) -> None:
    markup = "<div>" * depth + "".join(parts) + "</div>" * depth
    try:
        text = extract_html("fuzz.html", markup)
    except HtmlExtractionError:
        return
    assert text.endswith("\n") and text.strip()


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(name=st.text(alphabet=st.characters(blacklist_characters="/\x00",
                                           blacklist_categories=("Cs",)),
                    min_size=1, max_size=12),
       raw=st.binary(min_size=1, max_size=4))
def test_fuzz_file_names(tmp_path_factory, name: str, raw: bytes) -> None:
    corpus = tmp_path_factory.mktemp("corpus")
    # one name as text, one with raw bytes that may not be UTF-8
    (corpus / f"a{name}.md").write_text("# Page\n\nsome text of a page\n", encoding="utf-8")
    with open(os.path.join(os.fsencode(corpus), b"b" + raw.replace(b"/", b"_").replace(
            b"\x00", b"_") + b".md"), "wb") as handle:
        handle.write(b"# Other\n\nother text\n")
    out = tmp_path_factory.mktemp("out")
    report = build_index(corpus, out / "index", embedder="keyword", cache_root=out / "cache")
    assert report.files + len(report.skipped) == 2
    json.loads((out / "index" / "manifest.json").read_text(encoding="utf-8"))


@FUZZ
@given(address=st.text(max_size=30) | st.builds(
    lambda scheme, host, port: f"{scheme}://{host}:{port}",
    st.sampled_from(["tcp", "tls", "ucx", "ws", "wss", "inproc", "TCP", ""]),
    st.text(max_size=8), st.text(alphabet="0123456789x-", max_size=6)))
def test_fuzz_scheduler_addresses(address: str) -> None:
    try:
        checked = check_scheduler_address(address)
    except SchedulerAddressError:
        return
    assert checked.startswith("tcp://") and 0 < int(checked.rpartition(":")[2]) < 65536
