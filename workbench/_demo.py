"""``workbench demo``: the main job, end to end, on the embedded defaults.

Each step prints a header and its result; long steps show progress bars. Everything expensive is
cached by content digest: the index is rebuilt only when the corpus or its settings changed,
embeddings are cached by fragment digest, the reranker is trained only when it is missing, and a
gate evaluation is reused when nothing it depends on changed. A second run is therefore quick.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from workbench.config import Settings, project_root
from workbench.digests import folder_digest
from workbench.index import audit_drift, ensure_index, load_index, read_manifest
from workbench.runs import current_suite, mark_suite_complete, new_suite_id, suite
from workbench.stats import format_p
from workbench.studies import (
    DEFINITION,
    gold_spans,
    question_files,
    record_run,
    run_outcomes,
)

if TYPE_CHECKING:
    pass

Step = Callable[[Settings], None]


def _step_index(settings: Settings) -> None:
    print(ensure_index(settings))


def _step_drift(settings: Settings) -> None:
    frame = audit_drift(settings.paths.index, settings.paths.corpus)
    summary = frame.attrs["summary"]
    print(summary.line())
    manifest = read_manifest(settings.paths.index)
    run = record_run("drift", frame, settings=settings,
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
    failures = pd.DataFrame.from_records(
        [{"example": f.example, "expected": json.dumps(f.expected, ensure_ascii=False, default=str),
          "got": json.dumps(f.got, ensure_ascii=False, default=str)} for f in report.failures],
        columns=["example", "expected", "got"])
    record_run("utilities", failures, settings=settings,
              summary={**summary.to_dict(), "examples_run": report.total, "passed": report.passed,
                       "failed": report.failed})


def _step_specs(settings: Settings) -> None:
    from workbench.fts import check_all_specs, export_vat_counterexample, render_message, verify_library

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
    rows = pd.DataFrame.from_records(
        [{"spec_id": v.spec_id, "path": Path(v.path).name, "passed": v.passed, "code": v.code or "",
          "fallacies": ",".join(v.fallacies), "certificate_digest": v.certificate_digest or ""}
         for v in verdicts],
        columns=["spec_id", "path", "passed", "code", "fallacies", "certificate_digest"])
    record_run("fts", rows, settings=settings,
              summary={"specs": len(verdicts), "certified": len(certified),
                       "library_intact": library.intact},
              extra={"library": {"entries": library.entries, "counts": dict(library.counts),
                                 "digest": library.digest, "intact": library.intact,
                                 "problems": [f"{p.code}: {render_message(p.key, p.params)}"
                                              for p in library.problems]},
                     "counterexample": {"entry": limit.entry, "shipped_code": limit.shipped.code,
                                        "flipped_passed": limit.flipped.passed,
                                        "conclusion": limit.conclusion,
                                        "demonstrates_limit": limit.demonstrates_limit}})


def _step_reranker(settings: Settings) -> None:
    if settings.reranker.path is None:
        print("no [reranker].path: cross-encoder mode is skipped")
        return
    path = Path(str(settings.reranker.path))
    if (path / "workbench_training.json").is_file():
        print(f"cross-encoder present: {path}")
        return
    from workbench.studies._reranker import train_reranker

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
    from workbench.studies import report_lines
    from workbench.studies._gates import evaluate_sets_cached, evaluation_is_cached

    if settings.reranker.mode == "cross-encoder" and not evaluation_is_cached(settings):
        print("cross-encoder mode reads every (question, fragment) pair: a few minutes the first"
              " time, cached afterwards", flush=True)
    rows, cached = evaluate_sets_cached(settings, progress=True)
    order = settings.gates.order
    print(f"gate firing ({settings.reranker.mode}, order {' > '.join(order)})"
          f"{' [cached verdicts]' if cached else ''}:")
    print("\n".join(report_lines(rows, order, settings.gates.relevance_rules)))
    index = load_index(settings.paths.index)
    # The answers are the pipeline's own outcomes (answer() ran on every question during the
    # evaluation); leakage re-checks each mode-A answer against the files as they are now, and
    # what construction cannot close, the verified answer from the wrong place, is counted.
    outcomes = run_outcomes(rows, settings, index,
                            gold_spans(question_files(settings), settings.paths.corpus))
    report, selection, answers = outcomes.leakage, outcomes.selection, outcomes.answers
    per_set = outcomes.per_set()
    print("\n".join(outcomes.lines()))
    print(f"  ({DEFINITION} `workbench report` opens each wrong answer's trace.)")
    digests = {"index": index.digest, "corpus_at_index": index.corpus_digest}
    extra = {"order": list(order), "mode": settings.reranker.mode, "split": None,
             "sets": sorted(set(rows["set"]))}
    gates_run = record_run("gates", rows, settings=settings, digests=digests, extra=extra,
                          summary={"leakage": report.leaks, "answered": report.mode_a,
                                   "answered_wrong": selection.answered_wrong,
                                   "targets": [c.to_dict() for c in selection.targets]})
    answers_run = record_run("answers", answers, settings=settings, digests=digests, extra=extra,
                            summary={"leakage": report.leaks, "mode_a": report.mode_a,
                                     "per_set": per_set})
    print(f"run records: {gates_run.name} (verdicts), {answers_run.name} "
          f"(answers; re-check with `workbench audit answers {answers_run.name}`)")


def _step_negative_control(settings: Settings) -> None:
    from workbench.studies import run_negative_control
    from workbench.studies._negative import DEFAULT_PER_KIND, DEFAULT_SEED

    report = run_negative_control(settings)
    worst = report.per_kind.sort_values("catch_rate").iloc[0]
    print(f"{len(report.verdicts)} spoiled answers of {len(report.per_kind)} kinds: "
          f"{int(report.verdicts['caught'].sum())} caught ({100 * report.overall:.1f}%); "
          f"genuine answers passing: {report.genuine_passed}/{report.genuine}; lowest kind "
          f"{worst['kind']} at {100 * worst['catch_rate']:.1f}%")
    if report.path is not None:
        print(f"verdicts: {report.path}")
    run = record_run("negative_control", report.verdicts, settings=settings,
                    summary={"seed": DEFAULT_SEED, "per_kind": DEFAULT_PER_KIND,
                             "forgeries": len(report.verdicts), "kinds": len(report.per_kind),
                             "caught": int(report.verdicts["caught"].sum()),
                             "overall_catch_rate": round(report.overall, 6),
                             "genuine": report.genuine, "genuine_passed": report.genuine_passed})
    print(f"run record: {run.name}")


LEARNED_BINDERS = ("span-binder", "span-binder-noref", "span-binder-noref-doubt")
"""The span router binding through the learned binder, with and without the rule binding's choice
as a feature, and the latter calling no utility under its calibrated doubt: compared on the test
split beside the others (the held-out figures that chose ``ask``'s default come from
``workbench router choose-default``)."""


def _learned_binders(settings: Settings) -> tuple[str, ...]:
    """:data:`LEARNED_BINDERS`, where ``[paths].models`` is the project's own folder.

    The registered names build the span router and the binder weights of the project's
    ``models/``, so another models folder (a project of one's own) compares none of them.
    """
    own = Path(settings.paths.models).resolve() == (project_root() / "models").resolve()
    return LEARNED_BINDERS if own else ()


def _span_folders(settings: Settings, names: tuple[str, ...]) -> list[Path]:
    """The span routers of ``names`` (``models/routers/<name>``) that hold a trained router."""
    folders = [Path(settings.paths.models) / "routers" / name for name in names]
    return [folder for folder in folders if (folder / "config.json").is_file()]


def _step_routers(settings: Settings) -> None:
    from workbench.routing import metric_lines, trained_routers
    from workbench.studies import finding_lines, study_routers

    folders = list(trained_routers(settings.paths.models).values())
    if not folders:
        print(f"no trained router under {Path(settings.paths.models) / 'routers'} (a folder "
              "holding workbench_training.json); train one with `workbench router train "
              "models/routers/base.toml` (10–20 min on 2 cores). The rule baseline runs alone.")
    else:
        print(f"trained routers: {', '.join(f.name for f in folders)}", flush=True)
    from workbench.studies._findings import SPAN_NAMES

    spans = _span_folders(settings, SPAN_NAMES)
    if spans:
        print(f"span routers: {', '.join(f.name for f in spans)}", flush=True)
    study = study_routers(settings, folders, progress=lambda line: print(f"  {line}"), span_folders=spans,
                          candidates=_learned_binders(settings))
    comparison = study.comparison
    items = int(comparison.summary["items"].iloc[0]) if len(comparison.summary) else 0
    print(f"{len(comparison.summary)} router(s) on {items} {study.split}-split items of "
          f"{' + '.join(p.name for p in study.tasksets)}"
          f"{' [cached comparison]' if study.cached else ''}:")
    print("\n".join(metric_lines(comparison.summary)))
    for test in study.tests:
        print(f"McNemar {test.router_a} vs {test.router_b}: b={test.b} (only {test.router_a} "
              f"right), c={test.c} (only {test.router_b} right), exact p={format_p(test.p_value)}")
    print("\n".join(finding_lines(list(study.findings))))
    tests = [t.to_dict() for t in study.tests]
    summary = json.loads(comparison.summary.to_json(orient="index"))
    run = record_run("routers", comparison.items, settings=settings, summary=summary,
                     extra={"routers": study.routers, "split": study.split,
                            "tasksets": [p.name for p in study.tasksets],
                            "mcnemar": tests[0] if tests else None, "mcnemar_all": tests,
                            "findings": [f.to_dict() for f in study.findings],
                            "cached": study.cached},
                     models={f"router:{f.name}": {"path": str(f), "digest": folder_digest(f)}
                             for f in (*study.folders, *study.span_folders)})
    print(f"run record: {run.name}")


def e2e_lines(table: pd.DataFrame) -> list[str]:
    """The end-to-end summary: each outcome class per gold source, then what each class counts."""
    from workbench.studies import OUTCOME_DEFINITIONS, OUTCOMES

    with pd.option_context("display.width", 140):
        lines = table.to_string(index=False).splitlines()
    return lines + [f"  {outcome}: {OUTCOME_DEFINITIONS[outcome]}" for outcome in OUTCOMES]


def _step_heldout(settings: Settings) -> None:
    from workbench.routing import metric_lines
    from workbench.studies import HeldOutError, study_heldout
    from workbench.studies._findings import SPAN_NAMES

    # the span family but the variant trained on no refusal line (a finding's control, no candidate)
    spans = _span_folders(settings, tuple(n for n in SPAN_NAMES if n != "span-no-refusals"))
    try:
        study = study_heldout(settings, span_folders=spans, candidates=_learned_binders(settings),
                              progress=lambda line: print(f"  {line}"))
    except HeldOutError as exc:
        print(f"no held-out rounds: {exc}")
        return
    for name, round_study in study.rounds.items():
        items = int(round_study.comparison.summary["items"].iloc[0])
        print(f"round {name}: {items} held-out items of {', '.join(p.stem for p in round_study.tasksets)}"
              f"{' [cached comparison]' if round_study.cached else ''}:")
        print("\n".join(metric_lines(round_study.comparison.summary)))
    run = record_run("heldout", study.items, settings=settings, summary=study.summary(),
                     extra={"split": "heldout", "rounds": list(study.rounds)})
    print(f"run record: {run.name}")


def _step_e2e(settings: Settings) -> None:
    from workbench.studies import run_e2e

    report = run_e2e(settings)
    print(f"router {report.router} ({report.router_reason}); {len(report.rows)} questions, "
          "both splits, each asked the way `workbench ask` does:")
    print("\n".join(e2e_lines(report.table)))
    if report.path is not None:
        print(f"run record: {report.path.name} (`workbench report` opens each verified-wrong "
              "answer's trace)")


def _step_report(settings: Settings) -> None:
    from workbench.report import build_report

    # this demo's own runs, even before its suite is marked complete
    path = build_report(settings.paths.results, suite=current_suite())
    print(f"report: {path}")


STEPS: list[tuple[str, Step]] = [
    ("index the course corpus", _step_index),
    ("audit drift between the index and the files", _step_drift),
    ("source one: the utility catalog and its examples", _step_utilities),
    ("source three: the morphism library, the specs and the limit", _step_specs),
    ("the cross-encoder reranker", _step_reranker),
    ("source two: the question sets through the gates", _step_gates),
    ("the negative control: spoiled answers through the invariant checker",
     _step_negative_control),
    ("routers: the rule baseline against the trained routers", _step_routers),
    ("held-out: the routers on the sets nobody tuned on, round by round", _step_heldout),
    ("end to end: every source and refusals through `ask`, judged by outcome", _step_e2e),
    ("the report", _step_report),
]


def run_demo(settings: Settings, steps: list[tuple[str, Step]] | None = None) -> int:
    """Run every step in order as one suite; returns the exit status.

    Every run record the steps write names the suite, and the suite's marker is written only
    once the last step is through, so ``workbench report`` never mixes runs of two demos nor
    takes a demo stopped halfway for a complete one.
    """
    steps = STEPS if steps is None else steps
    started = time.perf_counter()
    with suite(new_suite_id("demo")) as suite_id:
        print(f"suite {suite_id}: every run record below names it")
        for number, (title, step) in enumerate(steps, start=1):
            print(f"\n[{number}/{len(steps)}] {title}", flush=True)
            step_started = time.perf_counter()
            step(settings)
            print(f"    ({time.perf_counter() - step_started:.1f} s)", flush=True)
        marker = mark_suite_complete(suite_id, settings.paths.results)
    print(f"\ndemo finished in {time.perf_counter() - started:.0f} s; suite complete: {marker}")
    return 0


def _handler(args: argparse.Namespace, settings: Settings) -> int:
    return run_demo(settings)


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``demo``."""
    demo = subparsers.add_parser("demo", help="the main job, end to end", parents=[common])
    demo.set_defaults(handler=_handler)
