"""``workbench demo``: the main job, end to end, on the embedded defaults.

Each step prints a header and its result; long steps show progress bars. Everything expensive is
cached by content digest (the index is rebuilt only when the corpus or its settings changed;
embeddings are cached by fragment digest), so a second run with nothing changed is quick.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from workbench.config import Settings
from workbench.corpus import audit_drift, build_index, index_is_current, read_manifest
from workbench.retrieval import make_embedder
from workbench.runs import write_run

Step = Callable[[Settings], None]


def _step_index(settings: Settings) -> None:
    embedder = make_embedder(settings.embedder.name)
    current, why = index_is_current(settings.paths.index, settings.paths.corpus, embedder.id,
                                    settings.fragmenting)
    if current:
        manifest = read_manifest(settings.paths.index)
        print(f"index up to date: {manifest['counts']['fragments']} fragments from "
              f"{manifest['counts']['files']} files ({settings.paths.index})")
        return
    print(f"building the index ({why}); encoding is the slow part on a small CPU", flush=True)
    report = build_index(settings.paths.corpus, settings.paths.index, embedder=embedder,
                         fragmenting=settings.fragmenting, cache_root=settings.paths.cache,
                         progress=True)
    print(report.summary())


def _step_drift(settings: Settings) -> None:
    frame = audit_drift(settings.paths.index, settings.paths.corpus)
    summary = frame.attrs["summary"]
    print(summary.line())
    manifest = read_manifest(settings.paths.index)
    run = write_run("drift", frame, settings=settings,
                    digests={"corpus_at_index": manifest["corpus_digest"]},
                    summary={"total": summary.total, "match": summary.match,
                             "drifted": summary.drifted, "changed": summary.changed,
                             "missing_file": summary.missing_file,
                             "quotable_share": round(summary.quotable_share, 6)})
    print(f"per-fragment table: {run / 'rows.parquet'}")


STEPS: list[tuple[str, Step]] = [
    ("index the course corpus", _step_index),
    ("audit drift between the index and the files", _step_drift),
]


def run_demo(settings: Settings) -> int:
    """Run every step in order; returns the exit status."""
    started = time.perf_counter()
    for number, (title, step) in enumerate(STEPS, start=1):
        print(f"\n[{number}/{len(STEPS)}] {title}", flush=True)
        step_started = time.perf_counter()
        step(settings)
        print(f"    ({time.perf_counter() - step_started:.1f} s)", flush=True)
    print(f"\ndemo finished in {time.perf_counter() - started:.0f} s")
    return 0


def _handler(args: argparse.Namespace, settings: Settings) -> int:
    return run_demo(settings)


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``demo``."""
    demo = subparsers.add_parser("demo", help="the main job, end to end", parents=[common])
    demo.set_defaults(handler=_handler)
