"""The ``workbench`` command.

Each subpackage that offers verbs keeps them in its own ``_cli.py`` with one function,
``add_commands(subparsers, common)``, which adds its verbs with ``parents=[common]`` (so every
verb accepts ``--config``) and sets ``handler=fn(args, settings) -> int`` on each. This module only
collects them, loads the settings and turns typed errors into one readable line.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from workbench import __version__
from workbench.config import Settings, load_settings
from workbench.display import inert
from workbench.errors import WorkbenchError

COMMAND_MODULES: tuple[str, ...] = (
    "workbench.cli._init",
    "workbench.cli._corpus",
    "workbench.cli._tool",
    "workbench.cli._spec",
    "workbench.cli._gates",
    "workbench.cli._retrieval",
    "workbench.cli._model",
    "workbench._demo",
    "workbench.cli._answers",
    "workbench.cli._router",
    "workbench.cli._router_train",
    "workbench.cli._runs",
    "workbench.cli._report",
    "workbench.cli._sweep",
    "workbench.cli._compare",
)


def verb_group(subparsers: argparse._SubParsersAction, name: str,
               common: argparse.ArgumentParser, help: str) -> argparse._SubParsersAction:
    """The sub-verbs of ``workbench NAME``, shared by every module that adds one (e.g. ``eval``).

    The groups are kept on the parser's own subparsers action: a table keyed by ``id()`` would
    hand a new parser the group of an old one whose id was reused after it was freed.
    """
    groups: dict[str, argparse._SubParsersAction] = subparsers.__dict__.setdefault(
        "_workbench_groups", {})
    if name not in groups:
        parser = subparsers.add_parser(name, help=help, parents=[common])
        groups[name] = parser.add_subparsers(dest=f"{name}_command", metavar="VERB",
                                             required=True)
    return groups[name]


def settings_for(args: argparse.Namespace, settings: Settings) -> Settings:
    """The settings with a verb's ``--index``, ``--corpus`` and ``--mode`` applied.

    ``--index`` without ``--corpus`` means the corpus that index was built from (its manifest's
    ``corpus_root``): quotes are then found and checked in the files they came from.
    """
    from workbench.index import FragmentIndexError, index_corpus_root

    paths = settings.paths
    if getattr(args, "index", None) or getattr(args, "corpus", None):
        # the settings' corpus name names their own corpus, not the one given here
        paths = dataclasses.replace(paths, corpus_name="")
    if getattr(args, "index", None):
        paths = dataclasses.replace(paths, index=Path(args.index).resolve())
    if getattr(args, "corpus", None):
        paths = dataclasses.replace(paths, corpus=Path(args.corpus).resolve())
    elif getattr(args, "index", None):
        try:
            paths = dataclasses.replace(paths, corpus=index_corpus_root(paths.index))
        except FragmentIndexError:
            pass  # loading the index says what is wrong with it, where the verb needs it
    reranker = settings.reranker
    if getattr(args, "mode", None):
        reranker = dataclasses.replace(reranker, mode=args.mode)
    return dataclasses.replace(settings, paths=paths, reranker=reranker)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every verb of every subpackage."""
    common = argparse.ArgumentParser(add_help=False)
    # Every level (``workbench``, a verb, a sub-verb) accepts --config. Each subparser copies its
    # own values over the namespace, so a default there would erase a --config given before the
    # verb; with SUPPRESS a level that did not see the option leaves it alone, and the one given
    # last (nearest the verb) wins.
    # Given twice or more at one level, each later file is laid over the earlier ones
    # (e.g. --config workbench.toml --config gates.toml, a fragment `gates calibrate` wrote).
    common.add_argument(
        "--config",
        metavar="FILE",
        action="append",
        default=argparse.SUPPRESS,
        help="settings file (default: $WORKBENCH_CONFIG or the nearest workbench.toml); "
             "a second --config is laid over the first",
    )
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Instruments for a verifiable-answers assistant.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        module = importlib.import_module(module_name)
        module.add_commands(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    # SIGTERM stops a verb as Ctrl-C does: the same clean-up runs (a build's staging folder
    # removed, a sweep's table of finished cells written), so either leaves the same on disk
    previous = (signal.signal(signal.SIGTERM, _interrupt)
                if threading.current_thread() is threading.main_thread() else None)
    try:
        settings = load_settings(getattr(args, "config", None))
        return int(handler(args, settings) or 0)
    except WorkbenchError as exc:
        # messages may quote a file name or a line of input: print them inert
        print(inert(f"workbench: {type(exc).__name__}: {exc}", keep="\n\t"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    except KeyboardInterrupt:
        print("workbench: interrupted", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


