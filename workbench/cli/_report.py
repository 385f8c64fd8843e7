"""``workbench report``: rebuild the HTML report from the run records."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.config import Settings
from workbench.report._build import build_report


def _report(args: argparse.Namespace, settings: Settings) -> int:
    results = Path(args.results) if args.results else Path(settings.paths.results)
    path = build_report(results, out=args.out)
    print(f"report: {path}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``report``."""
    report = subparsers.add_parser(
        "report", parents=[common],
        help="write results/report.html from the latest run record of each kind")
    report.add_argument("--results", metavar="DIR", help="the run records (default: [paths].results)")
    report.add_argument("--out", metavar="FILE", help="where to write the page (default: DIR/report.html)")
    report.set_defaults(handler=_report)
