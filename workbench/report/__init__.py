"""The HTML report: one self-contained page built from one suite of run records.

``build_report`` writes ``results/report.html`` (plotly.js inlined once, no server, no network)
from the latest complete ``workbench demo`` suite, a named suite, named runs, or on a project
without a demo suite the latest run of each study on the same index and question files
(``report_scope``); ``report_sections`` gives the same sections as data for notebooks and tests.
"""

from workbench.report._build import (
    REPORT_NAME,
    SECTIONS,
    Section,
    build_report,
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
from workbench.report._scope import (
    ReportError,
    ReportScope,
    RunData,
    report_scope,
    same_data_scope,
    split_label,
)
from workbench.report._traces import ANSWERED_ELSEWHERE, OVER_REFUSED, gate_misses

__all__ = ["ANSWERED_ELSEWHERE", "BLOCKS", "MARKED_FILES", "OVER_REFUSED", "REPORT_NAME", "SECTIONS",
           "FiguresBlockError", "ReportError", "ReportScope", "RunData", "Section", "build_report",
           "catalog_mismatches", "end_marker", "fill_blocks", "gate_misses", "marked_blocks",
           "marked_files", "read_figures", "render_figures", "report_scope", "report_sections",
           "same_data_scope", "scope_figures", "split_label", "stale_blocks", "start_marker",
           "write_figures"]
