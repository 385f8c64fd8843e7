"""``show``: a chart or a widget with a static copy beside it, for pages read without a kernel.

A notebook's saved output is read in three places: JupyterLab with a kernel, JupyterLab or a
repository's viewer without one, and ``jupyter nbconvert --to html``. The live views (plotly's
JSON, a widget's model id) need a running front end or a kernel; without one they show nothing.
``show`` returns one display bundle holding both: the interactive output, which a live front end
prefers, and a static one (an SVG for a chart, a kernel-free snapshot for a widget), which a
viewer that cannot render the first falls back to. Nothing in either is fetched from a network.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

import anywidget
import plotly.graph_objects as go
import plotly.io as pio

from workbench.plots import figure_svg
from workbench.widgets._base import WidgetError
from workbench.widgets._export import snapshot_html

PLOTLY_MIME = "application/vnd.plotly.v1+json"
"""The mimetype of a plotly figure's JSON (drawn by JupyterLab's plotly extension)."""
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
"""The mimetype of a live widget view (drawn only while its kernel holds the model)."""


class Shown:
    """What :func:`show` returns: a figure or a widget and its static copy, in one display bundle."""

    def __init__(self, item: go.Figure | anywidget.AnyWidget) -> None:
        if not isinstance(item, go.Figure | anywidget.AnyWidget):
            raise WidgetError("show() takes a plotly figure or an anywidget widget; got "
                              f"{type(item).__name__}")
        self.item = item
        """The figure or the widget (kept alive as long as the output is)."""

    def _repr_mimebundle_(self, include: Container[str] | None = None,
                          exclude: Container[str] | None = None) -> dict[str, Any]:
        bundle = mimebundle(self.item)
        return {k: v for k, v in bundle.items()
                if (include is None or k in include) and (exclude is None or k not in exclude)}


def mimebundle(item: go.Figure | anywidget.AnyWidget) -> dict[str, Any]:
    """The display bundle of :func:`show`: the interactive output and its static copy.

    A figure gives plotly's JSON (whatever the default renderer, so no page script is asked
    for) and :func:`workbench.plots.figure_svg`; a widget gives its live view and
    :func:`snapshot_html` of its state now.
    """
    if isinstance(item, go.Figure):
        bundle: dict[str, Any] = dict(pio.renderers["plotly_mimetype"].to_mimebundle(item.to_dict()))
        bundle["image/svg+xml"] = figure_svg(item)
        title = item.layout.title.text or "figure"
        bundle["text/plain"] = f"<plotly figure: {title}>"
        return bundle
    live = item._repr_mimebundle_()
    # anywidget answers (data, metadata), ipywidgets the data alone
    data = live[0] if isinstance(live, tuple) else (live or {})
    bundle = {k: v for k, v in data.items() if k in (WIDGET_MIME, "text/plain")}
    bundle["text/html"] = snapshot_html(item)
    return bundle


def show(item: go.Figure | anywidget.AnyWidget) -> Shown:
    """Display ``item`` live where a front end can, and as a static copy everywhere else.

    Make it the last expression of a cell (or pass it to ``display``)::

        show(gate_order_figure(state))
        show(GateOrderExplorer(run))

    Args:
        item: A plotly figure or an anywidget widget.
    """
    return Shown(item)


__all__ = ["PLOTLY_MIME", "WIDGET_MIME", "Shown", "mimebundle", "show"]
