"""``workbench runs list`` and ``workbench runs diff A B``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.config import Settings
from workbench.runs._records import LISTED, RunRecordError, scan_runs
from workbench.studies._diff import diff_runs


def _results(args: argparse.Namespace, settings: Settings) -> Path:
    return Path(args.results) if args.results else Path(settings.paths.results)


def _list(args: argparse.Namespace, settings: Settings) -> int:
    root = _results(args, settings)
    listing = scan_runs(root, kind=args.kind)
    # a damaged record is named on stderr and the sound ones are still listed on stdout
    for skipped in listing.skipped:
        print(f"skipped {skipped.folder}: {skipped.reason}", file=sys.stderr)
    frame = listing.runs
    if frame.empty:
        which = f" of kind {args.kind}" if args.kind else ""
        print(f"no run records{which} under {root}")
        return 0
    # what each run ran on, so two runs of a kind can be told apart: digests shortened to 10
    table = frame[["run_id", "kind", "created_at", "rows", *LISTED, "git_commit"]].copy()
    for column in ("corpus", "index", "git_commit"):
        table[column] = table[column].map(lambda c: str(c)[:10] if isinstance(c, str) and c else "-")
    for column in ("suite", "mode", "split", "sets"):
        table[column] = table[column].map(lambda v: str(v) if isinstance(v, str) and v else "-")
    with pd.option_context("display.width", 160, "display.max_rows", 500):
        print(table.tail(args.last).to_string(index=False) if args.last else table.to_string(index=False))
    print(f"{len(frame)} run(s) under {root}")
    return 0


def _where(pairs: list[str] | None) -> dict[str, Any]:
    where: dict[str, Any] = {}
    for pair in pairs or []:
        column, sep, value = pair.partition("=")
        if not sep or not column:
            raise RunRecordError(f"--where takes COLUMN=VALUE, not {pair!r}")
        where[column] = value
    return where


def _diff(args: argparse.Namespace, settings: Settings) -> int:
    result = diff_runs(args.a, args.b, results_dir=_results(args, settings),
                       where=_where(args.where))
    print("\n".join(result.lines(show=args.show)))
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``runs list`` and ``runs diff``."""
    from workbench.cli import verb_group

    runs = verb_group(subparsers, "runs", common, "list and compare run records")
    listing = runs.add_parser("list", help="the run records under [paths].results, oldest first",
                              parents=[common])
    listing.add_argument("--kind", help="only runs of this kind (gates, answers, routers, ...)")
    listing.add_argument("--last", type=int, metavar="N", help="only the newest N")
    listing.add_argument("--results", metavar="DIR", help="default: [paths].results")
    listing.set_defaults(handler=_list)

    diff = runs.add_parser("diff", help="two runs of one kind item by item: flips and McNemar",
                           parents=[common])
    diff.add_argument("a", metavar="A", help="a run id under the results folder, or a run folder")
    diff.add_argument("b", metavar="B", help="the run to compare it with")
    diff.add_argument("--where", action="append", metavar="COLUMN=VALUE",
                      help="only rows with this value (repeatable), e.g. router=rule")
    diff.add_argument("--show", type=int, default=20, metavar="N", help="list at most N flips")
    diff.add_argument("--results", metavar="DIR", help="default: [paths].results")
    diff.set_defaults(handler=_diff)
