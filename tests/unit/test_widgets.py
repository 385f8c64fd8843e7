"""The widgets over cached runs: gate order, rule ablation, router comparison, drift, export.

Each widget is driven the way its front end drives it (setting the synced input traits) and its
state is read back; the exact runs are written by hand so every count is known.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import pytest
from router_items import ITEMS, SHA

from workbench.config import Settings
from workbench.corpus._questions import GoldSpan, Question
from workbench.gates import QuoteSource, default_order
from workbench.index import audit_drift
from workbench.retrieval import KeywordEmbedder
from workbench.routing import RouterDecision, RuleRouter, ScriptedRouter
from workbench.stats import mcnemar
from workbench.studies import compare_routers, gate_attribution, result_row
from workbench.widgets import (
    DriftView,
    GateOrderExplorer,
    RouterComparisonPanel,
    RuleAblationPanel,
    WidgetError,
    drift_state,
    export_html,
    gate_order_figure,
    gate_order_state,
    router_comparison_state,
    rule_ablation_state,
    widget_state,
)

RULES = ("entities", "lang-match", "term-coverage")


def _row(qid: str, set_name: str, fires: tuple[str, ...] = (), rules: tuple[str, ...] = (),
         gold: bool = True, split: str = "dev") -> dict:
    row = {"id": qid, "set": set_name, "lang": "ru", "split": split, "question": f"question {qid}",
           "top_path": "a.md", "n_hits": 10, "top_score": 0.9, "top_is_gold": gold,
           "gate0_coverage": 1.0, "top2_gap": 0.5, "top2_same_file": True}
    for gate in default_order():
        row[f"wf_{gate}"] = gate in fires
    for rule in RULES:
        row[f"rule_{rule}"] = rule in rules
    # the relevance gate of the run fired exactly when the configured rule (entities) did
    row["wf_relevance"] = row["wf_relevance"] or "entities" in rules
    return row


@pytest.fixture
def run() -> tuple[pd.DataFrame, bool]:
    """A gate run with known flags, shaped as ``evaluate_sets_cached`` returns it."""
    rows = pd.DataFrame([
        _row("q1", "in_corpus", fires=("gate0", "threshold")),
        _row("q2", "in_corpus"),
        _row("q3", "out_of_corpus", fires=("threshold",)),
        _row("q4", "out_of_corpus", rules=("lang-match",)),          # a false answer lang-match stops
        _row("q5", "relevance_traps", rules=("entities",)),
        _row("q6", "in_corpus", rules=("term-coverage",)),           # a correct answer it breaks
        _row("q7", "in_corpus", fires=("verbatim",), split="test"),
    ])
    rows.attrs["order"] = list(default_order())
    return rows, True


def _all(state: dict) -> dict:
    return next(r for r in state["attribution"] if r["set"] == "all")


def _first(state: dict, set_name: str) -> dict:
    return next(r for r in state["attribution"] if r["set"] == set_name)


# --- gate order -------------------------------------------------------------------------------

def test_moving_a_gate_changes_which_gate_is_credited_first(run) -> None:
    widget = GateOrderExplorer(run)
    assert widget.order == list(default_order())
    assert _first(widget.state, "in_corpus")["gate0"] == 1
    assert _first(widget.state, "in_corpus")["threshold"] == 0
    widget.order = ["threshold", "gate0", "disagreement", "relevance", "verbatim"]  # the ↑ button
    assert _first(widget.state, "in_corpus")["threshold"] == 1
    assert _first(widget.state, "in_corpus")["gate0"] == 0
    assert widget.state["active_order"][0] == "threshold"
    # the order moves blame, never outcomes
    assert _all(widget.state)["answered"] == 3


def test_move_and_toggle_helpers_follow_the_arrows_and_check_boxes(run) -> None:
    widget = GateOrderExplorer(run)
    widget.move("verbatim", -5)  # from last of six gates to first
    assert widget.order[0] == "verbatim"
    widget.move("verbatim", +1)
    assert widget.order[:2] == ["gate0", "verbatim"]
    widget.toggle("gate0")
    assert "gate0" not in widget.enabled and "gate0" not in widget.state["columns"]
    # gate0 off: q1 is now stopped by threshold, and nobody answers more questions
    assert _first(widget.state, "in_corpus")["threshold"] == 1
    widget.toggle("threshold", on=False)
    assert _first(widget.state, "in_corpus")["answered"] == 3  # q1 slips through
    with pytest.raises(WidgetError, match="unknown gate 'nope'"):
        widget.toggle("nope")


def test_gate_order_state_is_the_cached_attribution(run) -> None:
    rows, _ = run
    order = ("relevance", "verbatim", "gate0")
    state = gate_order_state(run, order, enabled=order)
    expected = gate_attribution(rows, order)
    for record in state["attribution"]:
        for column in (*order, "answered", "answered_correct", "false_answers"):
            assert record[column] == expected.loc[record["set"], column]
    assert state["order"] == [*order, "threshold", "disagreement", "confidence"]
    assert state["active_order"] == list(order)
    json.dumps(state, allow_nan=False)


def test_overlaps_follow_the_chosen_set(run) -> None:
    widget = GateOrderExplorer(run)
    gates = widget.state["overlaps"]["gates"]
    matrix = widget.state["overlaps"]["matrix"]
    i, j = gates.index("gate0"), gates.index("threshold")
    assert matrix[i][j] == 1 and matrix[j][j] == 2
    widget.overlap_set = "out_of_corpus"
    matrix = widget.state["overlaps"]["matrix"]
    assert matrix[i][j] == 0 and matrix[j][j] == 1


def test_a_bad_input_from_the_front_end_keeps_the_last_state(run) -> None:
    widget = GateOrderExplorer(run)
    before = widget.state
    widget.order = ["gate0", "gate0", "threshold", "relevance", "verbatim"]
    assert "twice" in widget.error and widget.state == before
    widget.order = list(default_order())
    assert widget.error == ""


def test_figure_is_a_stacked_bar_per_set(run) -> None:
    widget = GateOrderExplorer(run)
    widget.toggle("disagreement", on=False)
    figure = widget.figure()
    assert isinstance(figure, go.Figure)
    names = [trace.name for trace in figure.data]
    # the shared chart of workbench.plots: the active gates, then the answers split right/wrong
    assert names == ["gate0", "threshold", "relevance", "confidence", "verbatim", "answered, correct",
                     "answered, wrong"]
    gate0 = figure.data[0]
    assert dict(zip(gate0.y, gate0.x, strict=True))["in_corpus"] == 1
    assert figure.layout.barmode == "stack"
    assert gate_order_figure(widget.state).to_dict() == figure.to_dict()


def test_a_real_keyword_run_reslices_without_retrieval(small_index, small_corpus: Path) -> None:
    base = Settings()
    settings = dataclasses.replace(
        base, paths=dataclasses.replace(base.paths, corpus=small_corpus, index=small_index.folder),
        gates=dataclasses.replace(base.gates, threshold_bi_encoder_terms=0.2))
    source = QuoteSource(settings, index=small_index, embedder=KeywordEmbedder())
    questions = [
        Question("a1", "in_corpus", "Сколько байтов занимает метка порядка байтов в UTF-8?", "ru",
                 "dev", gold=(GoldSpan("ru/utf8.md", 0, 10 ** 6, ""),)),
        Question("o1", "out_of_corpus", "Какая погода завтра в Париже?", "ru", "dev"),
        Question("t1", "relevance_traps", "What does Base64 do with Kazakhstan invoices?", "en",
                 "test"),
    ]
    rows = pd.DataFrame([result_row(q, source.ask(q.question, lang=q.lang)) for q in questions])
    widget = GateOrderExplorer((rows, False))
    total = _all(widget.state)
    assert total["n"] == 3
    assert sum(total[g] for g in widget.state["active_order"]) + total["answered"] == 3
    widget.order = list(reversed(default_order()))
    assert _all(widget.state)["answered"] == total["answered"]


def test_a_run_that_is_not_a_gate_run_is_refused() -> None:
    with pytest.raises(WidgetError, match="not a gate run"):
        GateOrderExplorer(pd.DataFrame({"id": ["x"]}))
    with pytest.raises(WidgetError, match="expected a gate run"):
        GateOrderExplorer([1, 2])


# --- rule ablation ----------------------------------------------------------------------------

def test_toggling_a_rule_eliminates_false_answers_and_breaks_correct_ones(run) -> None:
    panel = RuleAblationPanel(run)
    assert panel.rules == ["entities"]  # what the run was configured with
    assert panel.state["current"] == "entities"
    panel.rules = ["entities", "lang-match"]  # the check box
    row = panel.state["current_row"]
    assert row["rules"] == "entities+lang-match"
    assert row["eliminated"] == 2 and row["broken"] == 0  # q5 (entities) and q4 (lang-match)
    flipped = {f["id"]: (f["before"], f["after"]) for f in panel.state["flips"]}
    assert flipped == {"q4": ("answered", "relevance"), "q5": ("answered", "relevance")}
    panel.toggle("term-coverage")
    assert panel.state["current_row"]["broken"] == 1
    assert "q6" in {f["id"] for f in panel.state["flips"]}
    marked = [r["rules"] for r in panel.state["ablation"] if r["current"]]
    assert marked == ["entities+lang-match+term-coverage"]


def test_flips_against_the_configured_rules_and_one_split(run) -> None:
    panel = RuleAblationPanel(run, rules=["entities", "lang-match"])
    panel.against = ["entities"]
    assert [f["id"] for f in panel.state["flips"]] == ["q4"]
    assert panel.state["against"] == "entities"
    panel.split = "test"
    assert panel.state["n"] == 1 and panel.state["n_flips"] == 0
    state = rule_ablation_state(run, ["entities"], split="dev")
    assert state["n"] == 6 and {r["rules"] for r in state["ablation"]} >= {"(none)", "entities"}


def test_the_circumstance_rule_is_listed_but_cannot_be_switched(run) -> None:
    panel = RuleAblationPanel(run)
    catalog = {r["name"]: r for r in panel.state["rules"]}
    assert [r["name"] for r in panel.state["rules"]][:3] == list(RULES)
    assert catalog["circumstance"]["available"] is False
    assert "utility" in catalog["circumstance"]["note"]
    with pytest.raises(WidgetError, match="cannot be switched"):
        panel.toggle("circumstance")
    panel.rules = ["circumstance"]
    assert "cannot be switched" in panel.error


# --- router comparison ------------------------------------------------------------------------



@pytest.fixture(scope="module")
def comparison():
    refuse = {"source": "refuse", "refusal": {"code": "OUT_OF_SCOPE", "area": "t", "numbers": {},
                                              "text": ""}}
    scripted = ScriptedRouter({
        ITEMS[0].question: RouterDecision.from_dict(SHA),
        ITEMS[1].question: RouterDecision.from_dict(refuse),
        ITEMS[2].question: RouterDecision.from_dict(dict(SHA, args={"text": "пароль"})),
        ITEMS[3].question: RouterDecision.from_dict(dict(ITEMS[3].gold, args={"text": "x"})),
    })
    return compare_routers({"rule": RuleRouter(), "scripted": scripted}, ITEMS)


def test_router_panel_reslices_the_summary_and_pairs(comparison) -> None:
    panel = RouterComparisonPanel(comparison)
    summary = {r["router"]: r for r in panel.state["summary"]}
    for name in ("rule", "scripted"):  # over every item: the comparison's own figures
        for column in ("items", "source_accuracy", "visible_failure_rate",
                       "verified_wrong_answer_rate"):
            assert summary[name][column] == pytest.approx(comparison.summary.loc[name, column])
    pair = panel.state["pair"]
    assert (pair["a"], pair["b"]) == ("rule", "scripted")
    assert sorted(d["id"] for d in pair["disagreements"]) == ["t-3", "t-4"]
    assert (pair["b_count"], pair["c_count"]) == (2, 0)
    assert pair["p_value"] == pytest.approx(mcnemar([1, 1], [0, 0])[3])
    panel.kinds = ["utility"]  # the task-kind check boxes
    summary = {r["router"]: r for r in panel.state["summary"]}
    assert summary["scripted"]["items"] == 2
    assert summary["scripted"]["verified_wrong_answer_rate"] == pytest.approx(0.5)
    assert [d["id"] for d in panel.state["pair"]["disagreements"]] == ["t-4"]
    panel.split = "dev"
    assert panel.state["n_items"] == 1 and panel.state["pair"]["disagreements"] == []


def test_router_panel_tokens_and_router_choice(comparison) -> None:
    panel = RouterComparisonPanel(comparison)
    tokens = {t["router"]: t for t in panel.state["tokens"]}
    rows = comparison.items
    assert tokens["rule"]["requests"] == 4
    assert tokens["rule"]["prompt_total"] == int(rows[rows["router"] == "rule"]["prompt_tokens"].sum())
    panel.routers = ["scripted"]
    assert [r["router"] for r in panel.state["summary"]] == ["scripted"]
    assert panel.state["pair"] is None  # one router: nothing to pair
    panel.routers = ["rule", "scripted"]
    panel.pair = ["scripted", "rule"]
    assert (panel.state["pair"]["b_count"], panel.state["pair"]["c_count"]) == (0, 2)
    with pytest.raises(WidgetError, match="unknown router 'nope'"):
        router_comparison_state(comparison, routers=["nope"])


# --- drift ------------------------------------------------------------------------------------

@pytest.fixture
def drift_frame(small_index, small_corpus: Path) -> pd.DataFrame:
    path = small_corpus / "en" / "base64.md"
    path.write_text("Inserted line.\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    (small_corpus / "ru" / "vat.md").unlink()
    return audit_drift(small_index, small_corpus)


def test_drift_view_counts_files_and_filters(drift_frame: pd.DataFrame) -> None:
    view = DriftView(drift_frame)
    summary = drift_frame.attrs["summary"]
    counts = {s["status"]: s["count"] for s in view.state["statuses"]}
    assert counts == {"match": summary.match, "drifted": summary.drifted,
                      "changed": summary.changed, "missing_file": summary.missing_file}
    assert counts["drifted"] > 0 and counts["missing_file"] > 0
    files = {f["path"]: f for f in view.state["files"]}
    assert files["ru/vat.md"]["missing_file"] == files["ru/vat.md"]["total"]
    assert view.state["files"][0]["not_at_anchor"] > 0  # files that moved come first
    view.statuses = ["drifted"]  # the status check boxes
    assert {r["status"] for r in view.state["rows"]} == {"drifted"}
    assert view.state["n_rows"] == counts["drifted"]
    assert all(r["current_start"] is not None for r in view.state["rows"])
    view.statuses = ["match", "drifted", "changed", "missing_file"]
    view.path = "ru/utf8.md"  # a click on a file row
    assert {r["path"] for r in view.state["rows"]} == {"ru/utf8.md"}
    view.statuses = []
    assert view.state["n_rows"] == 0
    view.statuses = ["match"]
    assert view.state == drift_state(drift_frame, ["match"], "ru/utf8.md")  # nothing stale


def test_drift_state_limits_rows_and_refuses_bad_filters(drift_frame: pd.DataFrame) -> None:
    state = drift_state(drift_frame, limit=2)
    assert len(state["rows"]) == 2 and state["n_rows"] == len(drift_frame)
    with pytest.raises(WidgetError, match="unknown status 'moved'"):
        drift_state(drift_frame, ["moved"])
    with pytest.raises(WidgetError, match="not a drift audit table"):
        DriftView(pd.DataFrame({"x": [1]}))


# --- what a widget remembers between clicks never changes an answer ---------------------------

def test_after_many_clicks_each_state_equals_a_fresh_computation(run, comparison) -> None:
    explorer = GateOrderExplorer(run)
    for gate, steps in (("verbatim", -2), ("gate0", 3), ("relevance", -1)):
        explorer.move(gate, steps)
        explorer.toggle("threshold")
        explorer.overlap_set = "in_corpus" if explorer.overlap_set == "" else ""
        assert explorer.state == gate_order_state(run, explorer.order, explorer.enabled,
                                                  explorer.overlap_set or None)
    panel = RuleAblationPanel(run)
    for rule, split in (("lang-match", "dev"), ("entities", ""), ("lang-match", "test"),
                        ("term-coverage", "dev")):
        panel.toggle(rule)
        panel.split = split
        panel.against = [] if panel.against else ["entities"]
        assert panel.state == rule_ablation_state(run, panel.rules, panel.against,
                                                  panel.split or None)
    routers = RouterComparisonPanel(comparison)
    for kinds, split, pair in ((["utility"], "", ["scripted", "rule"]),
                               (["utility", "red_team"], "test", ["rule", "scripted"]),
                               (["utility"], "", ["rule", "scripted"])):
        routers.kinds, routers.split, routers.pair = kinds, split, pair
        assert routers.state == router_comparison_state(comparison, routers.routers, kinds,
                                                        split or None, pair)


# --- export and notebooks ---------------------------------------------------------------------

def test_export_embeds_code_state_and_escapes_text(run, tmp_path: Path) -> None:
    rows, _ = run
    rows = rows.copy()
    rows.loc[3, "question"] = "</script><script>alert(1)</script>"  # q4 is among the flips
    panel = RuleAblationPanel(rows, rules=["entities", "lang-match", "term-coverage"])
    page = export_html({"rules": panel, "gates": GateOrderExplorer(run)}, tmp_path / "out" / "w.html",
                       title="A <b>title</b>")
    text = page.read_text(encoding="utf-8")
    assert text.count("</script>") == 2  # the two script elements; the question is escaped
    assert "<title>A &lt;b&gt;title&lt;/b&gt;</title>" in text
    payload = text.split('<script type="application/json" id="wb-widgets">')[1].split("</script>")[0]
    widgets = json.loads(payload)
    assert [w["name"] for w in widgets] == ["rules", "gates"]
    assert widgets[0]["state"]["_static_export"] is True
    assert widgets[0]["state"]["state"] == json.loads(json.dumps(panel.state))
    assert "</script><script>alert(1)</script>" in {f["question"] for f in panel.state["flips"]}
    assert "export default" in widgets[0]["esm"]
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text
    with pytest.raises(WidgetError, match="only anywidget widgets"):
        export_html([object()], tmp_path / "x.html")


def test_widget_state_holds_only_the_widgets_own_traits(run) -> None:
    state = widget_state(GateOrderExplorer(run))
    assert set(state) == {"order", "enabled", "overlap_set", "state", "error"}


def test_marimo_wraps_every_widget(run, comparison) -> None:
    import marimo as mo

    for widget in (GateOrderExplorer(run), RuleAblationPanel(run), RouterComparisonPanel(comparison)):
        wrapped = mo.ui.anywidget(widget)
        assert wrapped.value["state"] == widget.state


def test_a_widget_without_a_state_function_fails_when_built() -> None:
    from workbench.widgets._base import StateWidget

    class Empty(StateWidget):
        pass

    with pytest.raises(TypeError, match="Empty defines no _compute"):
        Empty()
