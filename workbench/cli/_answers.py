"""``workbench ask``, ``eval e2e``, ``negative-control`` and ``audit answers RUN``.

``ask`` runs :func:`workbench.answers.ask`, the path every face shares: the router (named, or
the best by the catalog's measurement), the source, the evidence, the invariant checker.
``eval e2e`` asks the end-to-end question set the same way (:func:`workbench.studies.run_e2e`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import pandas as pd

from workbench.answers import (
    ASK_BATCH,
    AnswerResult,
    CheckContext,
    ask_many,
    default_router,
    resolve_router,
)
from workbench.answers._evidence import Answer, EvidenceFormatError, Mode
from workbench.answers._invariants import check_answer
from workbench.cli import settings_for, verb_group
from workbench.config import Settings
from workbench.display import inert
from workbench.errors import WorkbenchError
from workbench.gates import QuoteSource
from workbench.retrieval import RERANK_MODES
from workbench.routing import Source
from workbench.runs import RunRecordError, load_run
from workbench.studies import OUTCOMES, run_e2e
from workbench.studies._leakage import leakage
from workbench.studies._negative import DEFAULT_PER_KIND, DEFAULT_SEED, run_negative_control
from workbench.utilities._protocol import json_text


def _answer_json(result: AnswerResult) -> dict:
    """One JSON line for ``ask --json``: the decision, the code, the numbers, the evidence."""
    trace = result.trace
    refusal = result.refusal
    gates = trace.gates
    report = trace.report
    answer = result.answer
    return {
        "question": result.question,
        "route": trace.decision.to_dict(),
        "decision": "answer" if answer is not None else "refusal",
        "mode": result.mode or None,
        "code": refusal.code if refusal else None,
        "text": refusal.text if refusal else (answer.text if answer is not None else ""),
        "area": refusal.area if refusal else None,
        "numbers": dict(refusal.numbers) if refusal else {},
        "rerank_mode": gates.mode if gates is not None else None,
        "evidence": [e.to_dict() for e in answer.evidence] if answer is not None else [],
        "invariants": report.to_frame().to_dict(orient="records") if report is not None else [],
        "verdicts": [v.to_dict() for v in gates.verdicts] if gates is not None else [],
    }


class QuestionFileError(WorkbenchError):
    """A question file of ``ask --file`` that cannot be read; the message names file and line."""


def _question_of(line: str, where: str) -> str:
    """The question of one line: the line itself, or the ``question`` of a JSON object."""
    if not line.lstrip().startswith("{"):
        return line.strip()
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise QuestionFileError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})"
                                ) from None
    if not isinstance(item, dict) or "question" not in item:
        raise QuestionFileError(f"{where}: a JSON line needs a \"question\" field")
    question = item["question"]
    if not isinstance(question, str):
        # str() would ask null as the text "None" and a number as its digits
        shown = json.dumps(question, ensure_ascii=False)[:40]
        raise QuestionFileError(f"{where}: \"question\" must be a string, got {shown}")
    return question


def _read_questions(path: Path) -> list[str]:
    """One question a line, or JSONL objects with a ``question`` field; blank lines skipped.

    Raises:
        QuestionFileError: The file is missing or unreadable, a line is not UTF-8, not valid
            JSON, has no ``question``, or its ``question`` is not a string.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise QuestionFileError(f"{path}: no such question file") from None
    except OSError as exc:
        raise QuestionFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    questions = []
    # split on bytes first, so a decoding error can be reported with its line
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise QuestionFileError(f"{path}:{number}: not UTF-8 text (byte "
                                    f"0x{raw[exc.start]:02x} at column {exc.start + 1})") from None
        if line.strip():
            questions.append(_question_of(line, f"{path}:{number}"))
    return questions


def _ask(args: argparse.Namespace, settings: Settings) -> int:
    settings = settings_for(args, settings)
    questions = list(args.question or [])
    if args.file:
        questions.extend(_read_questions(Path(args.file)))
    if not questions:
        print("workbench ask: give a question or --file", file=sys.stderr)
        return 2
    router = resolve_router(args.router, settings, args.source)
    if not args.json and args.router is None:
        choice = default_router(settings, args.source)
        print(inert(f"router: {choice.name} ({choice.reason})"))
    source: QuoteSource | None = None
    context: CheckContext | None = None
    if args.source in (None, "quote"):  # a utility or spec run does without the dense encoder
        try:
            source = QuoteSource(settings)
            context = CheckContext.for_index(source.index, source.corpus, settings)
        except WorkbenchError:
            if args.source == "quote":
                raise
            # utility and spec questions are still answered; a quote decision is refused
            # (QUOTE_SOURCE_UNAVAILABLE) by the pipeline, with the index path in its text
    # a batch at a time (one dense encoding per batch), printed as each batch is done
    progress = sys.stderr.isatty() and len(questions) > ASK_BATCH
    results = ask_many(questions, settings, router=router, allow_mode_b=args.allow_mode_b,
                       quote_source=source, context=context)
    for done, result in enumerate(results, start=1):
        if progress and (done % ASK_BATCH == 0 or done == len(questions)):
            print(f"\rasked {done}/{len(questions)}", end="\n" if done == len(questions) else "",
                  file=sys.stderr, flush=True)
        if args.json:
            # a lone surrogate in a question is written as a \udXXX escape, never a crash
            print(json_text(_answer_json(result), default=str, allow_nan=True), flush=True)
            continue
        # The question, the quote and the refusal text come from a user or a corpus file: every
        # control character is shown as an escape, and the question keeps to its one line.
        if result.refusal is not None:
            print(inert(f"REFUSAL {result.refusal.code}"))
        gates = result.trace.gates
        shown = dataclasses.replace(result, question=inert(result.question))
        print(inert(shown.describe(), keep="\n\t"))
        if gates is not None:
            marks = " ".join(f"{v.gate}:{'pass' if v.passed else 'FIRE'}" for v in gates.verdicts)
            print(inert(f"gates ({gates.mode}): {marks}"))
        print(flush=True)
    return 0


def _eval_e2e(args: argparse.Namespace, settings: Settings) -> int:
    report = run_e2e(settings, router=args.router, split=args.split, write=not args.no_write)
    print(f"router: {report.router} ({report.router_reason}); split {report.split or 'dev+test'}")
    with pd.option_context("display.width", 140):
        print(report.table.to_string(index=False))
    low, high = report.verified_wrong_interval
    print(f"verified-wrong answers: {100 * report.verified_wrong_share:.1f}% of "
          f"{len(report.rows)} questions (exact 95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
    if args.show:
        missed = report.rows[report.rows["outcome"].isin([o for o in OUTCOMES
                                                          if o not in ("answered correctly",
                                                                       "refused correctly")])]
        for row in missed.head(args.show).to_dict(orient="records"):
            print(inert(f"  {row['id']} {row['outcome']}: route {row['route']} "
                        f"{row['code']} | {row['question'][:90]}"))
    if report.path is not None:
        print(f"run record: {report.path}")
    return 0


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
    """Add ``ask``, ``eval e2e``, ``negative-control`` and ``audit answers``."""
    ask = subparsers.add_parser(
        "ask", parents=[common],
        help="route a question, answer it from a utility, a quote or a spec, or refuse")
    ask.add_argument("question", nargs="*", help="the question(s)")
    ask.add_argument("--file", metavar="FILE",
                     help="one question a line, or JSONL with a 'question' field")
    ask.add_argument("--json", action="store_true", help="one JSON object a line")
    ask.add_argument("--router", metavar="NAME",
                     help="rule, a trained router (base, ...), transformers:DIR, replay:FILE or "
                          "quote-only (default: [answers] router; unset, the best router by "
                          "measurement in models/catalog.yaml on the bundled course, quote-only "
                          "on a corpus of one's own)")
    ask.add_argument("--source", choices=[str(s) for s in Source if s is not Source.REFUSE],
                     help="hold the router to one source; it still binds the arguments")
    ask.add_argument("--allow-mode-b", action="store_true",
                     help="let a mode-A refusal become an explicit mode-B answer from the "
                          "configured generator ([generator].path)")
    ask.add_argument("--index", metavar="DIR", help="an index built by `workbench index build`")
    ask.add_argument("--corpus", metavar="DIR",
                     help="the corpus quotes are checked against (default: the one --index was "
                          "built from, else [paths].corpus)")
    ask.add_argument("--mode", choices=list(RERANK_MODES),
                     help="rerank mode (default: [reranker].mode)")
    ask.set_defaults(handler=_ask)

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

    evals = verb_group(subparsers, "eval", common, "run the labelled evaluations")
    e2e = evals.add_parser("e2e", parents=[common],
                           help="ask the end-to-end question set as `workbench ask` does and "
                                "count, per source, correct answers and refusals, verified-wrong "
                                "answers and over-refusals")
    e2e.add_argument("--router", metavar="NAME",
                     help="the router (default: the best by measurement in models/catalog.yaml)")
    e2e.add_argument("--split", choices=["dev", "test"], help="only this split (tune on dev)")
    e2e.add_argument("--show", type=int, default=0, metavar="N",
                     help="list up to N questions that were answered wrong or over-refused")
    e2e.add_argument("--no-write", action="store_true", help="print only; write no run record")
    e2e.set_defaults(handler=_eval_e2e)

    audit = verb_group(subparsers, "audit", common, help="audit an index or a run record")
    answers = audit.add_parser("answers", parents=[common],
                               help="re-check every answer of a run record against the files now")
    answers.add_argument("run", metavar="RUN", help="a run folder, or a run id under [paths].results")
    answers.add_argument("--quiet", action="store_true", help="print the totals only")
    answers.set_defaults(handler=_audit_answers)
