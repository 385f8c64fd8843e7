"""``workbench reranker train``."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.config import Settings
from workbench.index._fragment_index import load_index
from workbench.studies._reranker import RerankerTrainingError, TrainingConfig, train_reranker


def _train(args: argparse.Namespace, settings: Settings) -> int:
    if bool(args.also_index) != bool(args.also_questions):
        raise RerankerTrainingError("--also-index and --also-questions go together")
    output = Path(args.out) if args.out else (
        settings.reranker.path or settings.paths.models / "reranker-minilm-course")
    config = TrainingConfig(epochs=args.epochs, seed=args.seed, max_pairs=args.max_pairs,
                            pseudo_per_corpus=args.pseudo_per_corpus)
    more = [(load_index(args.also_index), args.also_questions)] if args.also_index else []
    print(f"training a cross-encoder from all-MiniLM-L6-v2 -> {output} "
          "(a few minutes on 2 cores)", flush=True)
    report = train_reranker(settings, output, config=config, more=more, progress=not args.quiet)
    print(f"trained on {report.pairs} pairs ({report.positives} positive) in "
          f"{report.seconds:.0f} s, final loss {report.final_loss:.3f} -> {report.output}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``reranker train``."""
    reranker = subparsers.add_parser("reranker", help="train the cross-encoder reranker",
                                     parents=[common])
    verbs = reranker.add_subparsers(dest="reranker_command", metavar="VERB", required=True)
    train = verbs.add_parser("train", help="fine-tune a CrossEncoder on the course",
                             parents=[common])
    train.add_argument("--out", metavar="DIR", help="default: [reranker].path")
    train.add_argument("--epochs", type=int, default=TrainingConfig.epochs)
    train.add_argument("--seed", type=int, default=TrainingConfig.seed)
    train.add_argument("--max-pairs", type=int, default=None, help="cap (for quick runs)")
    train.add_argument("--also-index", metavar="DIR",
                       help="a second corpus's index whose dev questions and pseudo-questions "
                            "join the course's pairs (with --also-questions)")
    train.add_argument("--also-questions", nargs="+", metavar="FILE", default=[],
                       help="the labelled question files of --also-index (only dev is read)")
    train.add_argument("--pseudo-per-corpus", type=int, default=None, metavar="N",
                       help="at most N fragments of each corpus give pseudo-questions "
                            "(a seeded draw; default: all)")
    train.add_argument("--quiet", action="store_true")
    train.set_defaults(handler=_train)
