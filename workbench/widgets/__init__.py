"""Widgets for researchers: views over the workbench's results that run in JupyterLab and marimo.

Every widget is an ``anywidget.AnyWidget`` (in marimo, wrap it with ``mo.ui.anywidget(w)``). A
widget keeps what the user chose in synced traits and shows the result of a pure state function
of this package (``gate_order_state`` and the others), which calls the analysis functions of
``workbench.gates``, ``workbench.studies``, ``workbench.answers``, ``workbench.routing``,
``workbench.corpus`` and ``workbench.fts``; tests and the HTML report call the same functions
without a widget.
``export_html`` writes widgets into one static page that works offline; ``show`` displays a
chart or a widget with a static copy beside it, for notebook pages read without a kernel.
"""

from workbench.widgets._base import WidgetError, jsonable
from workbench.widgets._certificate import CertificateView, certificate_state, load_certificate
from workbench.widgets._drift import DriftView, drift_state
from workbench.widgets._export import export_html, export_page, snapshot_html, widget_state
from workbench.widgets._gate_order import (
    GATE_COLORS,
    GateOrderExplorer,
    gate_order_figure,
    gate_order_state,
)
from workbench.widgets._invariant import InvariantChecker, invariant_state
from workbench.widgets._risk import (
    RiskOperatingPoint,
    risk_operating_point_figure,
    risk_operating_point_state,
)
from workbench.widgets._router import RouterComparisonPanel, router_comparison_state
from workbench.widgets._rule_ablation import RuleAblationPanel, rule_ablation_state, rule_catalog
from workbench.widgets._show import PLOTLY_MIME, WIDGET_MIME, Shown, mimebundle, show

__all__ = [
    "GATE_COLORS",
    "PLOTLY_MIME",
    "WIDGET_MIME",
    "CertificateView",
    "DriftView",
    "GateOrderExplorer",
    "InvariantChecker",
    "RiskOperatingPoint",
    "RouterComparisonPanel",
    "RuleAblationPanel",
    "Shown",
    "WidgetError",
    "certificate_state",
    "drift_state",
    "export_html",
    "export_page",
    "gate_order_figure",
    "gate_order_state",
    "invariant_state",
    "jsonable",
    "load_certificate",
    "mimebundle",
    "risk_operating_point_figure",
    "risk_operating_point_state",
    "router_comparison_state",
    "rule_ablation_state",
    "rule_catalog",
    "show",
    "snapshot_html",
    "widget_state",
]
