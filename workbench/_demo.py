"""``workbench demo``: the main job, end to end, on the embedded defaults.

Each step prints a header and its result; long steps show progress bars. Everything expensive is
cached by content digest: the index is rebuilt only when the corpus or its settings changed,
embeddings are cached by fragment digest, the reranker is trained only when it is missing, and a
gate evaluation is reused when nothing it depends on changed. A second run is therefore quick.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

from workbench.answers import CheckContext, answers_from_gate_rows, leakage
from workbench.config import Settings
from workbench.corpus import (
    Corpus,
    audit_drift,
    build_index,
    index_is_current,
    load_index,
    read_manifest,
)
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


def _step_utilities(settings: Settings) -> None:
    from workbench.utilities import catalog_summary, run_examples

    summary = catalog_summary()
    report = run_examples()
    print(f"utility catalog: {summary.utilities} utilities in {summary.categories} categories, "
          f"digest {summary.digest[:12]}")
    print(f"examples executed: {report.total}, passed {report.passed}, failed {report.failed}")
    for failure in report.failures[:5]:
        print(f"  failed: {failure}")


def _step_specs(settings: Settings) -> None:
    from workbench.fts import check_all_specs, export_vat_counterexample, verify_library

    library = verify_library(settings.paths.morphisms)
    counts = ", ".join(f"{n} {status}" for status, n in library.counts.items())
    print(f"morphism library: {sum(library.counts.values())} entries ({counts}); "
          f"{'intact' if library.intact else 'NOT intact'}, digest {library.digest[:12]}")
    verdicts = check_all_specs(settings.paths.specs, settings.paths.morphisms)
    certified = [v for v in verdicts if v.passed]
    print(f"specs: {len(certified)} of {len(verdicts)} certified")
    for verdict in verdicts:
        if not verdict.passed:
            print(f"  {verdict.spec_id}: {verdict.code}")
    limit = export_vat_counterexample(settings.paths.specs, settings.paths.morphisms)
    print(f"the limit: the export-VAT spec stops at {limit.shipped.code} with the shipped library;"
          f" with «{limit.entry}» flipped to verified it is "
          f"{'certified' if limit.flipped.passed else 'refused'} and concludes {limit.conclusion}")


def _step_reranker(settings: Settings) -> None:
    if settings.reranker.path is None:
        print("no [reranker].path: cross-encoder mode is skipped")
        return
    path = Path(str(settings.reranker.path))
    if (path / "workbench_training.json").is_file():
        print(f"cross-encoder present: {path}")
        return
    from workbench.retrieval._train_reranker import train_reranker

    print("training the cross-encoder from all-MiniLM-L6-v2 once (about ten minutes on 2 cores;"
          " later runs reuse it)", flush=True)
    report = train_reranker(settings, path)
    print(f"trained on {report.pairs} pairs in {report.seconds:.0f} s -> {path}")


def _modes(settings: Settings) -> list[Settings]:
    """The configured rerank mode first, then cross-encoder mode when a model is there."""
    modes = [settings]
    path = settings.reranker.path
    if settings.reranker.mode != "cross-encoder" and path is not None and (
            Path(path) / "workbench_training.json").is_file():
        modes.append(dataclasses.replace(settings, reranker=dataclasses.replace(
            settings.reranker, mode="cross-encoder")))
    return modes


def _step_gates(settings: Settings) -> None:
    for mode_settings in _modes(settings):
        _gates_in_mode(mode_settings)


def _gates_in_mode(settings: Settings) -> None:
    from workbench.gates import report_lines
    from workbench.gates._eval import cached_evaluation_path, evaluate_sets_cached

    if settings.reranker.mode == "cross-encoder" and not cached_evaluation_path(settings).is_file():
        print("cross-encoder mode reads every (question, fragment) pair: a few minutes the first"
              " time, cached afterwards", flush=True)
    rows, cached = evaluate_sets_cached(settings, progress=True)
    order = settings.gates.order
    print(f"gate firing ({settings.reranker.mode}, order {' > '.join(order)})"
          f"{' [cached verdicts]' if cached else ''}:")
    print("\n".join(report_lines(rows, order, settings.gates.relevance_rules)))
    index = load_index(settings.paths.index)
    answers = answers_from_gate_rows(rows, index)
    context = CheckContext.from_index(index, Corpus(settings.paths.corpus),
                                      specs_dir=settings.paths.specs,
                                      library_dir=settings.paths.morphisms)
    report = leakage(answers, context)
    per_set = []
    for name, part in answers.groupby("set", sort=False):
        part_report = leakage(part, context)
        per_set.append(f"{name} {part_report.leaks}/{part_report.mode_a}")
    print(f"leakage: {report.leaks} of {report.mode_a} mode-A answers lack verifiable evidence "
          f"({', '.join(per_set)}; every invariant re-checked against the files now)")
    digests = {"index": index.digest, "corpus_at_index": index.corpus_digest}
    extra = {"order": list(order), "mode": settings.reranker.mode}
    gates_run = write_run("gates", rows, settings=settings, digests=digests, extra=extra,
                          summary={"leakage": report.leaks, "answered": report.mode_a})
    answers_run = write_run("answers", answers, settings=settings, digests=digests, extra=extra,
                            summary={"leakage": report.leaks, "mode_a": report.mode_a})
    print(f"run records: {gates_run.name} (verdicts), {answers_run.name} "
          f"(answers; re-check with `workbench audit answers {answers_run.name}`)")


def _step_negative_control(settings: Settings) -> None:
    from workbench.answers import run_negative_control

    report = run_negative_control(settings)
    worst = report.per_kind.sort_values("catch_rate").iloc[0]
    print(f"{len(report.verdicts)} spoiled answers of {len(report.per_kind)} kinds: "
          f"{int(report.verdicts['caught'].sum())} caught ({100 * report.overall:.1f}%); "
          f"genuine answers passing: {report.genuine_passed}/{report.genuine}; lowest kind "
          f"{worst['kind']} at {100 * worst['catch_rate']:.1f}%")
    if report.path is not None:
        print(f"verdicts: {report.path}")


STEPS: list[tuple[str, Step]] = [
    ("index the course corpus", _step_index),
    ("audit drift between the index and the files", _step_drift),
    ("source one: the utility catalog and its examples", _step_utilities),
    ("source three: the morphism library, the specs and the limit", _step_specs),
    ("the cross-encoder reranker", _step_reranker),
    ("source two: the question sets through the gates", _step_gates),
    ("the negative control: spoiled answers through the invariant checker",
     _step_negative_control),
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
