"""The HTML report: one self-contained page built from one suite of run records.

``build_report`` writes ``results/report.html`` (plotly.js inlined once, no server, no network)
from the latest complete ``workbench demo`` suite, a named suite, or named runs
(``report_scope``); ``report_sections`` gives the same sections as data for notebooks and tests.
"""

from workbench.report._build import (
    REPORT_NAME,
    SECTIONS,
    ReportError,
    ReportScope,
    Section,
    build_report,
    report_scope,
    report_sections,
    scope_figures,
)
from workbench.report._markdown import (
    BLOCKS,
    MARKED_FILES,
    FiguresBlockError,
    catalog_mismatches,
    end_marker,
    fill_blocks,
    marked_blocks,
    marked_files,
    read_figures,
    render_figures,
    stale_blocks,
    start_marker,
    write_figures,
)

__all__ = ["BLOCKS", "MARKED_FILES", "REPORT_NAME", "SECTIONS", "FiguresBlockError", "ReportError",
           "ReportScope", "Section", "build_report", "catalog_mismatches", "end_marker",
           "fill_blocks", "marked_blocks", "marked_files", "read_figures", "render_figures",
           "report_scope", "report_sections", "scope_figures", "stale_blocks", "start_marker",
           "write_figures"]
