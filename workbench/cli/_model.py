"""``workbench model --catalog``: every model the workbench knows, with its measured numbers."""

from __future__ import annotations

import argparse

from workbench.config import Settings
from workbench.model_catalog import format_catalog, load_catalog


def _handler(args: argparse.Namespace, settings: Settings) -> int:
    print(format_catalog(load_catalog(settings.paths.models)), end="")
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``model --catalog``."""
    model = subparsers.add_parser("model", help="the models the workbench knows",
                                  parents=[common])
    model.add_argument("--catalog", action="store_true", default=True,
                       help="print every model: what it covers, its numbers, its limits")
    model.set_defaults(handler=_handler)
