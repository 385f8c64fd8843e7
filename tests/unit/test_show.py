"""``show``: a chart or a widget in one display bundle with a static copy that needs no kernel."""

from __future__ import annotations

import html
import re

import anywidget
import pandas as pd
import pytest
import traitlets

from workbench.lab import Glossary, setup
from workbench.plots import figure_svg, gate_firing_figure, router_figure, sweep_curve_figure
from workbench.studies import GLOSSARY, GlossaryError, glossary
from workbench.widgets import PLOTLY_MIME, WIDGET_MIME, WidgetError, mimebundle, show, snapshot_html


class Tiny(anywidget.AnyWidget):  # type: ignore[misc]
    _esm = "export default { render({ model, el }) { el.textContent = model.get('value'); } };"
    value = traitlets.Unicode("tiny").tag(sync=True)


def _attribution() -> pd.DataFrame:
    return pd.DataFrame({"gate0": [3, 1], "threshold": [2, 0], "answered_correct": [10, 2],
                         "false_answers": [1, 0]}, index=["in_corpus", "out_of_corpus"])


def test_figure_svg_draws_every_nonzero_bar_with_its_label_and_axes() -> None:
    fig = gate_firing_figure(_attribution(), ["gate0", "threshold"], "First firing gate")
    svg = figure_svg(fig)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    bars = re.findall(r'<rect [^>]*><title>([^<]*)</title>', svg)
    assert len(bars) == 6  # 8 values, two of them zero-width
    assert "gate0: 3 (in_corpus)" in bars
    for text in ("First firing gate", "question set", "answered, wrong", "in_corpus", ">10<"):
        assert text in svg
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_figure_svg_draws_grouped_columns_and_lines_in_percent() -> None:
    summary = pd.DataFrame({"source_accuracy": [0.5, 0.9]}, index=["rule", "base"])
    svg = figure_svg(router_figure(summary, [("source_accuracy", "source")], "Routers"))
    assert ">90%<" in svg and ">100%<" in svg and svg.count("<title>") == 2
    cells = pd.DataFrame({"status": ["ok", "ok"], "reranker.mode": ["none", "none"],
                          "gates.threshold": [0.1, 0.2], "noans_refused_share": [0.4, 0.6],
                          "hasans_correct_share": [0.9, 0.8], "cell": [0, 1]})
    svg = figure_svg(sweep_curve_figure(cells, "reranker.mode", "Sweep"))
    assert "<polyline" in svg and svg.count("<circle") == 2


def test_a_figure_bundle_holds_plotly_json_and_the_svg() -> None:
    fig = gate_firing_figure(_attribution(), ["gate0", "threshold"], "First firing gate")
    bundle = show(fig)._repr_mimebundle_()
    assert set(bundle) == {PLOTLY_MIME, "image/svg+xml", "text/plain"}
    assert bundle[PLOTLY_MIME]["data"][0]["type"] == "bar"
    assert show(fig)._repr_mimebundle_(include={"image/svg+xml"}).keys() == {"image/svg+xml"}


def test_a_widget_bundle_holds_the_live_view_and_a_snapshot_of_its_state() -> None:
    widget = Tiny(value="state now")
    bundle = mimebundle(widget)
    assert bundle[WIDGET_MIME]["model_id"] == widget.model_id
    snapshot = bundle["text/html"]
    assert snapshot.startswith('<iframe class="wb-snapshot"')
    page = html.unescape(re.search(r'srcdoc="([^"]*)"', snapshot).group(1))
    assert "state now" in page and "frameElement" in page
    assert not re.search(r'(src|href)="https?://', page)
    assert snapshot_html(widget) == snapshot


def test_show_takes_only_figures_and_widgets() -> None:
    with pytest.raises(WidgetError, match="plotly figure or an anywidget"):
        show(pd.DataFrame())


def test_the_glossary_is_one_table_for_the_report_and_the_notebooks() -> None:
    from workbench.report._build import glossary_section

    section = glossary_section(None)  # type: ignore[arg-type]
    for term, _ in GLOSSARY:
        assert f"<dt>{html.escape(term)}</dt>" in section.body
    table = glossary("router")
    assert list(table.index) == [t for t, _ in GLOSSARY if "router" in t]
    with pytest.raises(GlossaryError, match="no glossary term matches 'nonsense'"):
        glossary("nonsense")


def test_the_lab_shows_glossary_rows_whole() -> None:
    lab = setup(index=False)
    shown = lab.glossary("visible failure")
    assert isinstance(shown, Glossary) and len(shown.rows) == 1
    meaning = dict(GLOSSARY)["visible failure (router)"]
    assert repr(shown) == f"visible failure (router): {meaning}"
    assert html.escape(meaning) in shown._repr_html_()


def test_wrapped_text_breaks_long_lines_and_escapes() -> None:
    from workbench.lab import wrapped

    block = wrapped('{"quote": "<b>" ' + "x" * 400 + "}")
    assert block.startswith('<pre class="wb-wrapped"') and "white-space: pre-wrap" in block
    assert "overflow-wrap: anywhere" in block and "&lt;b&gt;" in block
