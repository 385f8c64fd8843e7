"""``workbench eval gates``: labelled question sets through the pipeline with the quote source.

The bundled sets by name (``--sets``), or question files of one's own (``--questions``) on any
index and corpus (``--index``, ``--corpus``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from workbench.cli import settings_for
from workbench.config import Settings
from workbench.corpus._questions import SETS
from workbench.index._fragment_index import load_index
from workbench.retrieval import RERANK_MODES
from workbench.studies import record_run
from workbench.studies._analysis import gate_attribution, headline, report_lines
from workbench.studies._gates import (
    evaluate_sets,
    evaluate_sets_cached,
    question_file_records,
    question_files,
)


def _eval_gates(args: argparse.Namespace, settings: Settings) -> int:
    settings = settings_for(args, settings)
    sets, questions = tuple(args.sets), args.questions
    files = question_files(settings, sets, questions)
    if args.write_catalog and questions is not None:
        print("--write-catalog records the bundled sets' numbers; drop --questions",
              file=sys.stderr)
        return 2
    if args.no_cache:
        rows = evaluate_sets(settings, sets=sets, split=args.split, progress=not args.quiet,
                             questions=questions)
    else:
        rows, cached = evaluate_sets_cached(settings, sets=sets, split=args.split,
                                            progress=not args.quiet, questions=questions)
        if cached:
            print("(verdicts from the cache: nothing they depend on changed; --no-cache re-runs)")
    index = load_index(settings.paths.index, verify=False)
    order = settings.gates.order
    attribution = gate_attribution(rows, order)
    print(f"gate firing, order {' > '.join(order)}, rerank {settings.reranker.mode}"
          f"{', split ' + args.split if args.split else ''}:")
    print("\n".join(report_lines(rows, order, settings.gates.relevance_rules, args.split)))
    summary = {name: {k: int(v) for k, v in attribution.loc[name].items()}
               for name in attribution.index}
    run = record_run("gates", rows, settings=settings,
                    digests={"index": index.digest, "corpus_at_index": index.corpus_digest},
                    summary=summary,
                    extra={"order": list(order), "split": args.split,
                           "sets": sorted(set(rows["set"])) if len(rows) else list(sets),
                           "questions": question_file_records(files),
                           "corpus": str(settings.paths.corpus),
                           "mode": settings.reranker.mode,
                           "embedder": index.embedder_id, "seconds": rows.attrs["seconds"]})
    print(f"run record: {run}")
    if args.write_catalog:
        _record_reranker_numbers(settings, rows)
    return 0


def _record_reranker_numbers(settings: Settings, rows: pd.DataFrame) -> None:
    from workbench.model_catalog import record_numbers

    if settings.reranker.mode != "cross-encoder" or settings.reranker.path is None:
        print("--write-catalog records the cross-encoder's numbers; run with --mode cross-encoder")
        return
    numbers = {f"test {k}": round(v, 4) for k, v in headline(rows, "test").items()}
    gold = rows[rows["set"] == "in_corpus"]
    numbers["top-1 fragment holds the gold span (all in_corpus)"] = round(
        float(gold["top_is_gold"].mean()), 4)
    numbers["threshold (tuned on dev)"] = settings.gates.threshold_cross_encoder
    record_numbers(settings.paths.models, Path(str(settings.reranker.path)).name, numbers,
                   "workbench eval gates --mode cross-encoder --write-catalog")
    print(f"numbers written to {settings.paths.models / 'catalog.yaml'}")


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``eval gates``."""
    from workbench.cli import verb_group

    evals = verb_group(subparsers, "eval", common, "run the labelled evaluations")
    gates = evals.add_parser("gates", help="the question sets through the quote gates",
                             parents=[common])
    gates.add_argument("--split", choices=["dev", "test"], help="only this split")
    chosen = gates.add_mutually_exclusive_group()
    chosen.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS),
                        help="bundled sets by name (default: all three)")
    chosen.add_argument("--questions", nargs="+", metavar="FILE",
                        help="labelled JSONL question files of your own "
                             "(format: corpus/questions/README.md)")
    gates.add_argument("--mode", choices=list(RERANK_MODES),
                       help="rerank mode (default: [reranker].mode)")
    gates.add_argument("--index", metavar="DIR",
                       help="an index built by `workbench index build` (default: [paths].index)")
    gates.add_argument("--corpus", metavar="DIR",
                       help="the corpus gold spans and quotes are read from (default: the one "
                            "--index was built from, else [paths].corpus)")
    gates.add_argument("--quiet", action="store_true")
    gates.add_argument("--no-cache", action="store_true",
                       help="re-run retrieval even when identical verdicts are cached")
    gates.add_argument("--write-catalog", action="store_true",
                       help="record the cross-encoder's test-split numbers in models/catalog.yaml")
    gates.set_defaults(handler=_eval_gates)
