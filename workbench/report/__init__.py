"""The HTML report: one self-contained page built from the latest run record of each kind.

``build_report`` writes ``results/report.html`` (plotly.js inlined once, no server, no network);
``report_sections`` gives the same sections as data for notebooks and tests.
"""

from workbench.report._build import (
    REPORT_NAME,
    SECTIONS,
    ReportError,
    Section,
    build_report,
    report_sections,
)

__all__ = ["REPORT_NAME", "SECTIONS", "ReportError", "Section", "build_report", "report_sections"]
