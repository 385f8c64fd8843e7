"""``workbench compare BASELINE VARIANT`` and ``workbench trace RUN ID``.

``compare`` runs :func:`workbench.studies.compare` and prints its paired table, the exact McNemar
test, the verdict and every flipped question with the command that prints its traces;
``trace`` prints one question's traces from the comparison's run record.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from workbench.cli import settings_for
from workbench.config import Settings
from workbench.corpus._questions import SETS
from workbench.display import inert
from workbench.studies._compare import CURRENT, SIDES, compare, compare_trace


def _compare(args: argparse.Namespace, settings: Settings) -> int:
    settings = settings_for(args, settings)
    result = compare(args.baseline, args.variant, settings=settings, sets=tuple(args.sets),
                     questions=args.questions, split=args.split, cache=not args.no_cache)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, default=str))
        return 0
    # questions and labels come from files of one's own: control characters shown as escapes
    for line in result.lines(show=args.show):
        print(inert(line))
    return 0


def _trace(args: argparse.Namespace, settings: Settings) -> int:
    traces = compare_trace(args.run, args.id, args.side, results_dir=Path(settings.paths.results))
    for trace in traces:
        for line in trace.lines():
            print(inert(line))
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``compare`` and ``trace``."""
    parser = subparsers.add_parser(
        "compare", parents=[common],
        help="a variant against a baseline on the same questions: paired table, McNemar, flips")
    for name, what in (("baseline", "the baseline"), ("variant", "the variant, laid over it")):
        parser.add_argument(
            name, metavar=name.upper(),
            help=f"{what}: '{CURRENT}' (the settings as loaded), a settings file, a gate or "
                 "relevance rule's name (switched on or off in the baseline's copy), or a "
                 "router (rule, span:DIR, replay:FILE, a trained router's name)")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS),
                        help="bundled question sets (default: all three)")
    chosen.add_argument("--questions", nargs="+", metavar="FILE",
                        help="labelled JSONL question files of your own, or task-set files "
                             "for two routers")
    parser.add_argument("--split", choices=["dev", "test"],
                        help="only this split (routers: test unless given)")
    parser.add_argument("--index", metavar="DIR", help="an index built by `workbench index build`")
    parser.add_argument("--corpus", metavar="DIR", help="the corpus gold spans are read from")
    parser.add_argument("--no-cache", action="store_true",
                        help="evaluate both sides again whatever the cache holds")
    parser.add_argument("--show", type=int, default=20, metavar="N",
                        help="list at most N flipped questions")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(handler=_compare)

    trace = subparsers.add_parser(
        "trace", parents=[common],
        help="one question's traces (every gate's verdict, or the router's decision) from a "
             "`workbench compare` run record")
    trace.add_argument("run", metavar="RUN", help="a run id under [paths].results, or a folder")
    trace.add_argument("id", metavar="ID", help="the question's id")
    trace.add_argument("--side", choices=list(SIDES), help="one side only (default: both)")
    trace.set_defaults(handler=_trace)
