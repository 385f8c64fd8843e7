"""The front-end code every widget shares: DOM helpers and the stylesheet.

Each widget's ES module is :data:`COMMON_JS` followed by its own drawing code, so a module is
self-contained (JupyterLab, marimo and the static export all load it as one string, with no
network). Text from the corpus or the question sets is always inserted as text nodes, never as
HTML.
"""

from __future__ import annotations

COMMON_JS = r"""
const SVG_NS = "http://www.w3.org/2000/svg";

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.setAttribute("class", value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function fmt(value, digits) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "number" && !Number.isInteger(value)) return value.toFixed(digits ?? 3);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function pct(value) {
  return value === null || value === undefined ? "–" : (100 * value).toFixed(1) + "%";
}

// columns: [{key, label, num, render(row) -> node|string, cls(row) -> class}]
function table(columns, rows, opts) {
  const options = opts || {};
  const head = h("tr", {}, columns.map((c) => h("th", {title: c.title}, c.label ?? c.key)));
  const body = rows.map((row, i) => {
    const tr = h("tr", {
      class: options.rowClass ? options.rowClass(row, i) : null,
      "data-key": options.rowKey ? options.rowKey(row, i) : null,
      onclick: options.onRow ? () => options.onRow(row, i) : null,
    }, columns.map((c) => {
      const content = c.render ? c.render(row, i) : fmt(row[c.key], c.digits);
      const cls = [c.num ? "num" : "", c.cls ? c.cls(row) : ""].join(" ").trim();
      return h("td", {class: cls || null}, content);
    }));
    return tr;
  });
  return h("table", {class: "wb-table" + (options.onRow ? " wb-clickable" : "")},
           h("thead", {}, head), h("tbody", {}, body));
}

function scroll(node) {
  return h("div", {class: "wb-scroll"}, node);
}

function isStatic(model) {
  return model.get("_static_export") === true;
}

function commit(model, changes) {
  for (const [key, value] of Object.entries(changes)) model.set(key, value);
  model.save_changes();
}

function banner(model) {
  const error = model.get("error");
  const nodes = [];
  if (error) nodes.push(h("div", {class: "wb-error", role: "alert"}, error));
  if (isStatic(model)) {
    nodes.push(h("div", {class: "wb-note wb-static"},
      "A static snapshot: controls that recompute in Python are disabled (open the widget in a" +
      " notebook to change them)."));
  }
  return nodes;
}

function select(options, value, onchange, attrs) {
  return h("select", {...(attrs || {}), onchange: (e) => onchange(e.target.value)},
    options.map(([v, label]) => h("option", {value: v, selected: v === value}, label)));
}

function checkbox(label, checked, onchange, attrs) {
  return h("label", {class: "wb-check"},
    h("input", {type: "checkbox", checked, ...(attrs || {}),
                onchange: (e) => onchange(e.target.checked)}), " ", label);
}

function mount(model, el, draw, keys) {
  const root = h("div", {class: "wb-root"});
  el.replaceChildren(root);
  const redraw = () => root.replaceChildren(...[draw(model)].flat(Infinity).filter(Boolean));
  redraw();
  const events = keys.map((k) => "change:" + k);
  events.forEach((e) => model.on(e, redraw));
  return () => events.forEach((e) => model.off(e, redraw));
}
"""

COMMON_CSS = """
.wb-root { font-family: var(--jp-ui-font-family, system-ui, -apple-system, sans-serif);
  font-size: 13px; line-height: 1.45; color: #1f2328; background: #ffffff; padding: 6px; }
.wb-root h3 { font-size: 14px; margin: 12px 0 6px; }
.wb-root h4 { font-size: 13px; margin: 10px 0 4px; }
.wb-table { border-collapse: collapse; margin: 4px 0 10px; }
.wb-table th, .wb-table td { border: 1px solid #d0d7de; padding: 2px 6px; text-align: left;
  vertical-align: top; }
.wb-table th { background: #f6f8fa; font-weight: 600; }
.wb-table td.num { text-align: right; font-variant-numeric: tabular-nums; }
.wb-clickable tbody tr { cursor: pointer; }
.wb-clickable tbody tr:hover { background: #f6f8fa; }
.wb-pass { background: #dafbe1; color: #116329; }
.wb-fail { background: #ffebe9; color: #a40e26; }
.wb-na { color: #8c959f; }
.wb-badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-weight: 600; }
.wb-error { border: 1px solid #cf222e; background: #ffebe9; color: #a40e26; padding: 4px 8px;
  margin: 4px 0; }
.wb-note { color: #57606a; font-size: 12px; }
.wb-reason { display: block; font-size: 11px; color: #57606a; }
.wb-anchor { background: #fff8c5; outline: 1px solid #d4a72c; color: inherit; }
.wb-context { white-space: pre-wrap; font-family: var(--jp-code-font-family, ui-monospace, monospace);
  border: 1px solid #d0d7de; background: #fbfbfb; padding: 6px; max-height: 320px; overflow: auto; }
.wb-selected { outline: 2px solid #0969da; outline-offset: -2px; }
.wb-current { background: #ddf4ff; }
.wb-off { opacity: 0.5; }
.wb-flex { display: flex; gap: 18px; flex-wrap: wrap; align-items: flex-start; }
.wb-controls { display: flex; gap: 12px; flex-wrap: wrap; align-items: center; margin: 4px 0 8px; }
.wb-root button { font: inherit; padding: 0 6px; margin: 0 1px; cursor: pointer; }
.wb-root button:disabled, .wb-root input:disabled, .wb-root select:disabled { cursor: not-allowed; }
.wb-swatch { display: inline-block; width: 10px; height: 10px; margin-right: 5px; border-radius: 2px; }
.wb-check { white-space: nowrap; }
.wb-legend { display: flex; gap: 12px; flex-wrap: wrap; font-size: 12px; margin: 2px 0 8px; }
.wb-scroll { max-height: 420px; overflow: auto; display: inline-block; max-width: 100%; }
.wb-mono { font-family: var(--jp-code-font-family, ui-monospace, monospace); font-size: 12px;
  word-break: break-all; }
.wb-kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0; }
.wb-kv > :nth-child(odd) { color: #57606a; }
"""


def esm(body: str) -> str:
    """A widget's ES module: the shared helpers, then its own code (which exports ``render``)."""
    return COMMON_JS + "\n" + body


__all__ = ["COMMON_CSS", "COMMON_JS", "esm"]
