"""``workbench negative-control`` and ``workbench audit answers RUN``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from workbench.answers._evidence import Answer, EvidenceFormatError, Mode
from workbench.answers._invariants import CheckContext, check_answer
from workbench.cli import verb_group
from workbench.config import Settings
from workbench.runs import RunRecordError, load_run
from workbench.studies._leakage import leakage
from workbench.studies._negative import DEFAULT_PER_KIND, DEFAULT_SEED, run_negative_control


def _negative_control(args: argparse.Namespace, settings: Settings) -> int:
    report = run_negative_control(settings, seed=args.seed, per_kind=args.per_kind,
                                  write=not args.no_write, out_dir=args.out)
    table = report.per_kind.copy()
    table["catch_rate"] = table["catch_rate"].map(lambda r: f"{100 * r:.1f}%")
    with pd.option_context("display.width", 140, "display.max_rows", 100):
        print(table.to_string(index=False))
    print(f"\n{len(report.verdicts)} spoiled answers, {len(report.per_kind)} kinds: "
          f"{int(report.verdicts['caught'].sum())} caught, overall catch rate "
          f"{100 * report.overall:.1f}%")
    print(f"genuine controls: {report.genuine_passed}/{report.genuine} passed the checker")
    print(f"built in {report.seconds_build:.1f} s, checked in {report.seconds_check:.1f} s")
    if report.path is not None:
        print(f"verdicts: {report.path}")
    return 0


def _run_folder(run: str, settings: Settings) -> Path:
    path = Path(run)
    if not path.is_dir():
        path = Path(settings.paths.results) / run
    return path


def _audit_answers(args: argparse.Namespace, settings: Settings) -> int:
    record = load_run(_run_folder(args.run, settings))
    if "answer_json" not in record.rows.columns:
        raise RunRecordError(f"{record.folder} holds no answers (no answer_json column)")
    context = CheckContext.from_settings(settings)
    lines = []
    for number, row in enumerate(record.rows.to_dict(orient="records")):
        text = row.get("answer_json") or ""
        if not text:
            lines.append({"row": number, "mode": "", "verdict": "refused", "invariant": ""})
            continue
        try:
            answer = Answer.from_dict(json.loads(text))
        except (ValueError, EvidenceFormatError):
            lines.append({"row": number, "mode": "?", "verdict": "unreadable", "invariant": ""})
            continue
        if answer.mode is not Mode.A:
            lines.append({"row": number, "mode": "B", "verdict": "advisory", "invariant": ""})
            continue
        report = check_answer(answer, context)
        failure = report.first_failure
        lines.append({"row": number, "mode": "A", "verdict": "holds" if report.passed else "fails",
                      "invariant": str(failure[1]) if failure else ""})
    table = pd.DataFrame(lines, columns=["row", "mode", "verdict", "invariant"])
    if not args.quiet:
        print(table.to_string(index=False))
    leaks = leakage(record, context)
    counts = table["verdict"].value_counts().to_dict()
    print(f"{record.run_id}: {len(table)} rows; " + ", ".join(f"{k} {v}" for k, v in counts.items())
          + f"; leaks {leaks.leaks}")
    return 0 if leaks.leaks == 0 and counts.get("fails", 0) == 0 else 1


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``negative-control`` and ``audit answers``."""
    negative = subparsers.add_parser(
        "negative-control", parents=[common],
        help="spoil genuine answers in many ways and count how many the invariant checker catches")
    negative.add_argument("--seed", type=int, default=DEFAULT_SEED)
    negative.add_argument("--per-kind", type=int, default=DEFAULT_PER_KIND,
                          help=f"spoiled answers per kind (default {DEFAULT_PER_KIND})")
    negative.add_argument("--out", metavar="DIR",
                          help="where verdicts.parquet goes (default [paths].results/negative_control)")
    negative.add_argument("--no-write", action="store_true", help="print only; write no files")
    negative.set_defaults(handler=_negative_control)

    audit = verb_group(subparsers, "audit", common, help="audit an index or a run record")
    answers = audit.add_parser("answers", parents=[common],
                               help="re-check every answer of a run record against the files now")
    answers.add_argument("run", metavar="RUN", help="a run folder, or a run id under [paths].results")
    answers.add_argument("--quiet", action="store_true", help="print the totals only")
    answers.set_defaults(handler=_audit_answers)
