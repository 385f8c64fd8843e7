"""The page around the sections: escaping, tables, figures, and one inlined copy of plotly.js.

The page is a single file that opens from disk with no server and no network. plotly.js goes in
once, gzipped and base64-encoded in an inert ``<script>`` at the end (a third of its size); every
figure is a div and its JSON (floats rounded), and one small loader unpacks plotly.js after the
page has loaded and draws them, so the text and the tables show before any chart is drawn.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

CSS = """
:root { --ink: #1f2933; --muted: #52606d; --line: #d9e2ec; --bg: #f5f7fa; --ok: #2f855a;
        --bad: #c53030; --accent: #2b6cb0; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: var(--ink); background: var(--bg); }
main { max-width: 1120px; margin: 0 auto; padding: 24px 28px 64px; }
header h1 { font-size: 26px; margin: 8px 0 4px; }
header p { margin: 2px 0; color: var(--muted); }
nav { margin: 16px 0 8px; display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 14px; }
nav a { color: var(--accent); text-decoration: none; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px;
          padding: 18px 22px; margin: 18px 0; }
section h2 { font-size: 20px; margin: 0 0 6px; }
section h3 { font-size: 16px; margin: 18px 0 6px; }
p.intro { margin: 4px 0 10px; max-width: 80ch; }
p.source { margin: 4px 0 12px; font-size: 13px; color: var(--muted); }
p.missing { margin: 8px 0; padding: 10px 14px; border-left: 4px solid #d69e2e;
            background: #fffaf0; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
       background: #edf2f7; padding: 1px 4px; border-radius: 3px; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; margin: 8px 0 12px; }
table.data { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { border-bottom: 1px solid var(--line); padding: 4px 10px;
                               white-space: nowrap; }
table.data th { background: #f0f4f8; font-weight: 600; }
table.data .num { text-align: right; } table.data .txt { text-align: left; }
table.data .wrap { white-space: normal; max-width: 42ch; }
.banner { display: flex; align-items: center; gap: 22px; border-radius: 8px; padding: 16px 22px;
          margin: 18px 0; border: 2px solid; }
.banner.ok { border-color: var(--ok); background: #f0fff4; }
.banner.bad { border-color: var(--bad); background: #fff5f5; }
.banner.none { border-color: #a0aec0; background: #f7fafc; }
.banner .big { font-size: 44px; font-weight: 700; line-height: 1; }
.banner.ok .big { color: var(--ok); } .banner.bad .big { color: var(--bad); }
.banner .what { font-size: 15px; }
.banner .what b { font-size: 17px; }
.figure { margin: 8px 0 4px; }
details.trace { border-bottom: 1px solid var(--line); padding: 4px 0; font-size: 14px; }
details.trace summary { cursor: pointer; }
details.trace pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0 6px;
                    font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
                    background: #f7fafc; padding: 6px 8px; border-radius: 4px; }
details.trace dt { font-weight: 600; font-size: 13px; color: var(--muted); }
details.trace dd { margin: 0 0 4px 0; }
dl.glossary dt { font-weight: 600; margin-top: 6px; }
dl.glossary dd { margin: 0 0 4px 18px; max-width: 90ch; }
.pill { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px;
        font-weight: 600; }
.pill.ok { background: #c6f6d5; color: #22543d; } .pill.bad { background: #fed7d7; color: #742a2a; }
"""


def esc(value: Any) -> str:
    """``value`` as HTML text."""
    return html.escape(str(value), quote=True)


def percent(value: Any, digits: int = 1) -> str:
    """A share as ``82.3%``; a missing value as ``–``."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "–"
    return f"{100 * float(value):.{digits}f}%"


def number(value: Any, digits: int = 1) -> str:
    """A figure with ``digits`` decimals; a missing value as ``–``."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "–"
    return f"{float(value):,.{digits}f}"


_NUMERIC = re.compile(r"^(?:[-+]?[\d,]*\.?\d+(?:e[-+]?\d+)?%?|–)$")


def table(frame: pd.DataFrame, formats: Mapping[str, Callable[[Any], str]] | None = None,
          text_columns: Sequence[str] = (), index: bool = False) -> str:
    """An HTML table of ``frame`` (every cell escaped) in a horizontally scrolling box.

    Columns whose cells all read as numbers are right-aligned so their digits line up; any other
    column is left-aligned.

    Args:
        frame: The rows to show.
        formats: Column -> formatter for its cells (others are shown with ``str``).
        text_columns: Columns of prose that may wrap (questions, reasons).
        index: Whether to show the index as the first column.
    """
    data = frame.reset_index() if index else frame
    formats = formats or {}
    cells: dict[str, list[str]] = {}
    for column in data.columns:
        render = formats.get(column)
        cells[column] = [render(v) if render else (
            "–" if v is None or (isinstance(v, float) and pd.isna(v)) else str(v))
            for v in data[column]]
    classes = {}
    for position, column in enumerate(data.columns):
        numeric = position > 0 and all(_NUMERIC.match(text) for text in cells[column])
        wrap = " wrap" if column in text_columns else ""
        classes[column] = f' class="{"num" if numeric else "txt"}{wrap}"'
    head = "".join(f"<th{classes[c]}>{esc(c)}</th>" for c in data.columns)
    body = "".join(
        "<tr>" + "".join(f"<td{classes[c]}>{esc(cells[c][i])}</td>" for c in data.columns) + "</tr>"
        for i in range(len(data)))
    return (f'<div class="table-wrap"><table class="data"><thead><tr>{head}</tr></thead>'
            f'<tbody>{body}</tbody></table></div>')


def _rounded(value: Any, digits: int = 4) -> Any:
    """``value`` with every float rounded to ``digits`` decimals (figure data stays small)."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, list):
        return [_rounded(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v, digits) for k, v in value.items()}
    return value


def figure(fig: go.Figure, div_id: str) -> str:
    """A figure's div and its data (JSON, floats rounded); the page's loader draws it.

    No per-figure script: one loader at the end of the page unpacks plotly.js once and calls
    ``Plotly.newPlot`` for every ``script.wb-figure``.
    """
    spec = _rounded(json.loads(fig.to_json()))
    spec["config"] = {"displaylogo": False, "responsive": True}
    data = json.dumps(spec, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (f'<div class="figure"><div class="plotly-graph-div" id="{esc(div_id)}" '
            f'style="height:100%;width:100%"></div><script type="application/json" '
            f'class="wb-figure" data-target="{esc(div_id)}">{data}</script></div>')


def plotly_js() -> str:
    """The plotly.js bundle shipped with the plotly package (no download)."""
    from plotly.offline import get_plotlyjs

    return str(get_plotlyjs())


def packed_plotly_js() -> str:
    """plotly.js gzipped and base64-encoded: about a third of its size in the page."""
    return base64.b64encode(gzip.compress(plotly_js().encode("utf-8"), compresslevel=9,
                                          mtime=0)).decode("ascii")


LOADER = """
(async () => {
  const packed = document.getElementById("wb-plotly").textContent.trim();
  const bytes = Uint8Array.from(atob(packed), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  (0, eval)(await new Response(stream).text());
  for (const node of document.querySelectorAll("script.wb-figure")) {
    const spec = JSON.parse(node.textContent);
    await Plotly.newPlot(node.dataset.target, spec.data, spec.layout, spec.config);
  }
  document.body.dataset.wbCharts = "drawn";
})().catch(error => { document.body.dataset.wbCharts = "failed"; console.error(error); });
"""
"""Unpacks plotly.js once, after the page has loaded, then draws every figure from its JSON."""


def page(title: str, header: str, nav: str, body: str) -> str:
    """The whole document: text and tables first, plotly.js packed once at the end."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        f"{header}\n{nav}\n{body}\n</main>\n"
        f'<script type="application/octet-stream" id="wb-plotly">{packed_plotly_js()}</script>\n'
        f"<script>{LOADER}</script>\n</body>\n</html>\n")
