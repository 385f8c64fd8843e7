"""``workbench sweep GRID.toml``: a grid of settings on the executor, one table of cells."""

from __future__ import annotations

import argparse

from workbench.cli._corpus import add_executor_arguments
from workbench.config import Settings
from workbench.studies import describe, executor_settings, load_grid, run_sweep
from workbench.studies._sweep import CONFIRM_CELLS

SHOWN = ("cell", "status", "evaluated_on", "hasans_correct_share", "noans_refused_share",
         "false_answers")


def _sweep(args: argparse.Namespace, settings: Settings) -> int:
    grid = load_grid(args.grid)
    grid.check_size(args.yes)
    executor = executor_settings(settings, args.workers, args.scheduler)
    print(f"sweep {grid.name}: axes {', '.join(grid.keys)}; evaluations needing retrieval run "
          f"in {describe(executor)}", flush=True)
    result = run_sweep(settings, grid, executor, progress=not args.quiet, yes=args.yes)
    columns = [c for c in (*grid.keys, *SHOWN) if c in result.table.columns]
    print(result.table[columns].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    for _, row in result.table[result.table["status"] == "failed"].iterrows():
        print(f"cell {row['cell']} failed: {row['error']}")
    print(result.summary())
    return 1 if result.failed else 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``sweep`` to the ``workbench`` command."""
    sweep = subparsers.add_parser("sweep", parents=[common],
                                  help="run a grid of settings (a TOML file) as Dask tasks")
    sweep.add_argument("grid", metavar="GRID.toml", help="the grid: [sweep] and [grid] tables")
    sweep.add_argument("--quiet", action="store_true", help="no progress bar")
    sweep.add_argument("--yes", action="store_true",
                       help=f"run a grid of more than {CONFIRM_CELLS:,} cells (each writes a run "
                            "record)")
    add_executor_arguments(sweep)
    sweep.set_defaults(handler=_sweep)
