"""A static HTML page of widgets: their own front-end code over their current state, no kernel.

Each widget's ES module and stylesheet are embedded in the page together with its synced trait
values. A few lines of JavaScript stand in for the widget model (``get``, ``set``, ``on``,
``off``, ``save_changes``): ``set`` changes the value in the page and notifies listeners, as in
a notebook, but nothing reaches Python, so the page is a snapshot whose view-only controls
(opening an evidence item) still work. Nothing is fetched: the page works offline.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import anywidget

from workbench.widgets._base import STATIC_FLAG, WidgetError, jsonable

_PAGE_CSS = """
body { font-family: system-ui, -apple-system, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 20px; }
h2 { font-size: 16px; margin-top: 28px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.wb-export-error { color: #a40e26; border: 1px solid #cf222e; background: #ffebe9; padding: 6px; }
"""

# The model stand-in and the loader. Modules are imported from blob URLs, so no file or network
# access is needed; a widget that fails to render shows its error in place and in the console.
_LOADER = r"""
function makeModel(state) {
  const listeners = new Map();
  const fire = (event, ...args) => (listeners.get(event) || []).slice().forEach((cb) => cb(...args));
  return {
    get: (key) => state[key],
    set: (key, value) => {
      const old = state[key];
      state[key] = value;
      if (JSON.stringify(old) !== JSON.stringify(value)) { fire("change:" + key, value); fire("change"); }
    },
    on: (event, cb) => {
      for (const e of event.split(" ")) listeners.set(e, [...(listeners.get(e) || []), cb]);
    },
    off: (event, cb) => {
      for (const e of (event ? event.split(" ") : [...listeners.keys()])) {
        listeners.set(e, cb ? (listeners.get(e) || []).filter((x) => x !== cb) : []);
      }
    },
    save_changes: () => {},
    send: () => {},
    widget_manager: null,
  };
}

async function renderAll() {
  const widgets = JSON.parse(document.getElementById("wb-widgets").textContent);
  const failures = [];
  for (const w of widgets) {
    const el = document.getElementById(w.mount);
    try {
      const url = URL.createObjectURL(new Blob([w.esm], {type: "text/javascript"}));
      const mod = await import(url);
      URL.revokeObjectURL(url);
      let widget = mod.default;
      if (typeof widget === "function") widget = await widget();
      const model = makeModel(w.state);
      if (widget.initialize) await widget.initialize({model});
      await widget.render({model, el});
    } catch (err) {
      failures.push(w.mount);
      console.error(`widget ${w.name} did not render:`, err);
      el.replaceChildren(Object.assign(document.createElement("div"),
        {className: "wb-export-error", textContent: `${w.name} did not render: ${err}`}));
    }
  }
  document.body.dataset.wbRendered = String(widgets.length - failures.length);
  document.body.dataset.wbFailed = String(failures.length);
}

renderAll();
"""


def widget_state(widget: anywidget.AnyWidget) -> dict[str, Any]:
    """The synced trait values a widget's front end reads, as JSON data.

    The traits of the widget base classes (layout, the module names, the ES module itself) are
    left out; what remains is what the subclass declares.
    """
    base = set(anywidget.AnyWidget.class_trait_names(sync=True))
    names = sorted(n for n in widget.trait_names(sync=True)
                   if n not in base and not n.startswith("_"))
    return {name: jsonable(getattr(widget, name)) for name in names}


def _script_json(value: Any) -> str:
    """JSON that can sit inside a ``<script>`` element (no ``</script>``, no HTML comments)."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _entries(widgets: Any) -> list[tuple[str, anywidget.AnyWidget]]:
    if isinstance(widgets, anywidget.AnyWidget):
        items: Iterable[tuple[str, Any]] = [(type(widgets).__name__, widgets)]
    elif isinstance(widgets, Mapping):
        items = [(str(k), v) for k, v in widgets.items()]
    else:
        items = [(type(w).__name__, w) for w in widgets]
    out = []
    for caption, widget in items:
        if not isinstance(widget, anywidget.AnyWidget):
            raise WidgetError(f"only anywidget widgets can be exported; {caption!r} is a "
                              f"{type(widget).__name__}")
        out.append((caption, widget))
    if not out:
        raise WidgetError("nothing to export: give at least one widget")
    return out


def export_page(widgets: anywidget.AnyWidget | Iterable[anywidget.AnyWidget]
                | Mapping[str, anywidget.AnyWidget], *, title: str = "Workbench widgets",
                heading: bool = True) -> str:
    """The text of one self-contained HTML page that renders ``widgets`` with no kernel.

    Args:
        widgets: A widget, a sequence of widgets, or a mapping caption -> widget (the captions
            become section headings; otherwise the class name is used).
        title: The page title and top heading.
        heading: Whether the page shows its title and one heading per widget (a snapshot
            inside a notebook's output shows the widget alone).

    Returns:
        The page as text: the widgets' code and state inline, nothing fetched.
    """
    entries = _entries(widgets)
    payload = []
    styles: dict[str, str] = {}
    sections = []
    for i, (caption, widget) in enumerate(entries):
        mount = f"wb-widget-{i}"
        state = widget_state(widget)
        state[STATIC_FLAG] = True
        payload.append({"name": caption, "mount": mount, "esm": str(widget._esm),
                        "state": state})
        css = str(getattr(widget, "_css", "") or "")
        if css:
            styles.setdefault(css, type(widget).__name__)
        caption_tag = f"<h2>{html.escape(caption)}</h2>" if heading else ""
        sections.append(f'<section class="wb-export" data-widget="{html.escape(type(widget).__name__)}">'
                        f"{caption_tag}<div id=\"{mount}\"></div></section>")
    style_tags = "\n".join(f"<style>{css}</style>" for css in styles)
    top = f"<h1>{html.escape(title)}</h1>" if heading else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_PAGE_CSS}</style>
{style_tags}
</head>
<body>
{top}
{"".join(sections)}
<script type="application/json" id="wb-widgets">{_script_json(payload)}</script>
<script type="module">{_LOADER}</script>
</body>
</html>
"""


def export_html(widgets: anywidget.AnyWidget | Iterable[anywidget.AnyWidget]
                | Mapping[str, anywidget.AnyWidget], path: str | os.PathLike[str], *,
                title: str = "Workbench widgets") -> Path:
    """Write one self-contained HTML page that renders ``widgets`` with no kernel and no network.

    Args:
        widgets: A widget, a sequence of widgets, or a mapping caption -> widget (the captions
            become section headings; otherwise the class name is used).
        path: The file to write (its folder is created).
        title: The page title and top heading.

    Returns:
        The path written.
    """
    page = export_page(widgets, title=title)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(out)
    return out


# Sizes the frame of a snapshot to its content, now and whenever the widget redraws (a srcdoc
# frame shares its parent's origin, so it may set its own element's height).
_FIT_FRAME = """<script>
(() => {
  const fit = () => { if (window.frameElement) {
    window.frameElement.style.height = (document.documentElement.scrollHeight + 4) + "px"; } };
  new ResizeObserver(fit).observe(document.body);
  addEventListener("load", fit);
})();
</script>"""


def snapshot_html(widget: anywidget.AnyWidget, *, height: int = 480) -> str:
    """A widget as it is now, as HTML that a notebook page shows without a kernel.

    The page of :func:`export_page` sits in a ``srcdoc`` frame, so several snapshots on one page
    keep their own element ids and styles; the frame grows to fit what the widget draws. A
    viewer that runs no script shows the frame's text fallback instead.

    Args:
        widget: An anywidget widget.
        height: The frame's height before the widget has drawn (pixels).
    """
    name = type(widget).__name__
    page = export_page(widget, title=name, heading=False).replace("</body>", _FIT_FRAME + "</body>")
    return (f'<iframe class="wb-snapshot" data-widget="{html.escape(name)}" title="{html.escape(name)}'
            f' (a snapshot: its controls need a running kernel)" '
            f'style="width: 100%; height: {height}px; border: 1px solid #d0d7de; border-radius: 4px"'
            f' srcdoc="{html.escape(page, quote=True)}">{html.escape(name)}: a snapshot that needs '
            "scripts to show</iframe>")


__all__ = ["export_html", "export_page", "snapshot_html", "widget_state"]
