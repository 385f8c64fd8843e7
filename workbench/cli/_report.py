"""``workbench report``: rebuild the HTML report from the run records."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.config import Settings
from workbench.index._layout import check_out_file
from workbench.report import (
    REPORT_NAME,
    build_report,
    report_scope,
    scope_figures,
    write_figures,
)


def _report(args: argparse.Namespace, settings: Settings) -> int:
    results = Path(args.results) if args.results else Path(settings.paths.results)
    corpus = [Path(settings.paths.corpus)]
    # both places are checked before anything is written: a report or a figures record the
    # workbench wrote may be replaced, any other file is refused
    out = check_out_file(args.out or results / REPORT_NAME, "report", protected=corpus)
    if args.markdown:
        check_out_file(args.figures, "figures record", protected=corpus)
    path = build_report(results, out=out, suite=args.suite, runs=args.runs)
    print(f"report: {path}")
    if args.markdown:
        models = Path(settings.paths.models)
        figures = scope_figures(report_scope(results, suite=args.suite, runs=args.runs), models)
        written = write_figures(figures, args.figures, args.root, models)
        print(f"figures: {args.figures}; rewritten from it: "
              f"{', '.join(str(p) for p in written) or 'nothing (every block already agrees)'}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``report``."""
    report = subparsers.add_parser(
        "report", parents=[common],
        help="write results/report.html from one suite of run records (default: the latest "
             "complete `workbench demo`)")
    report.add_argument("--results", metavar="DIR", help="the run records (default: [paths].results)")
    report.add_argument("--out", metavar="FILE", help="where to write the page (default: DIR/report.html)")
    which = report.add_mutually_exclusive_group()
    which.add_argument("--suite", metavar="ID",
                       help="the runs of this suite (`workbench runs list` shows each run's suite)")
    which.add_argument("--runs", nargs="+", metavar="RUN",
                       help="exactly these run ids (the newest of each kind among them)")
    report.add_argument("--markdown", action="store_true",
                        help="also write the figures record from the same runs, every marked "
                             "block of the README and the model cards, and the catalog's numbers")
    report.add_argument("--figures", default="docs/figures.json", metavar="FILE",
                        help="the figures record (default: docs/figures.json)")
    report.add_argument("--root", default=".", metavar="DIR",
                        help="the checkout whose README and models/cards/*.md blocks between "
                             "figures markers are rewritten (default: .)")
    report.set_defaults(handler=_report)
