"""``workbench ask`` and ``workbench eval gates``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from workbench.config import Settings
from workbench.corpus._questions import SETS
from workbench.display import inert
from workbench.errors import WorkbenchError
from workbench.gates._quote_source import QuoteSource
from workbench.index._fragment_index import load_index
from workbench.retrieval import RERANK_MODES
from workbench.studies import record_run
from workbench.studies._analysis import gate_attribution, headline, report_lines
from workbench.studies._gates import evaluate_sets, evaluate_sets_cached

if TYPE_CHECKING:  # the answers package imports every source; load it only when asking
    from workbench.answers import AnswerResult


def _settings_for(args: argparse.Namespace, settings: Settings) -> Settings:
    paths = settings.paths
    if getattr(args, "index", None):
        paths = dataclasses.replace(paths, index=Path(args.index).resolve())
    if getattr(args, "corpus", None):
        paths = dataclasses.replace(paths, corpus=Path(args.corpus).resolve())
    reranker = settings.reranker
    if getattr(args, "mode", None):
        reranker = dataclasses.replace(reranker, mode=args.mode)
    return dataclasses.replace(settings, paths=paths, reranker=reranker)


def _answer_json(result: AnswerResult) -> dict:
    """One JSON line for ``ask --json``: the decision, the code, the numbers, the evidence."""
    trace = result.trace
    refusal = result.refusal
    gates = trace.gates
    report = trace.report
    answer = result.answer
    return {
        "question": result.question,
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
    from workbench.answers import CheckContext, answer
    from workbench.routing import RouterDecision, ScriptedRouter, Source

    settings = _settings_for(args, settings)
    questions = list(args.question or [])
    if args.file:
        questions.extend(_read_questions(Path(args.file)))
    if not questions:
        print("workbench ask: give a question or --file", file=sys.stderr)
        return 2
    source = QuoteSource(settings)
    # Without a trained router every question goes to the quote source.
    router = ScriptedRouter({q: RouterDecision(source=Source.QUOTE) for q in questions})
    context = CheckContext.for_index(source.index, source.corpus, settings)
    for question in questions:
        result = answer(question, router, settings, quote_source=source, context=context)
        if args.json:
            print(json.dumps(_answer_json(result), ensure_ascii=False, default=str), flush=True)
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
        print()
    return 0


def _eval_gates(args: argparse.Namespace, settings: Settings) -> int:
    settings = _settings_for(args, settings)
    if args.no_cache:
        rows = evaluate_sets(settings, sets=tuple(args.sets), split=args.split,
                             progress=not args.quiet)
    else:
        rows, cached = evaluate_sets_cached(settings, sets=tuple(args.sets), split=args.split,
                                            progress=not args.quiet)
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
                    extra={"order": list(order), "split": args.split, "sets": list(args.sets),
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
    """Add ``ask`` and ``eval gates``."""
    from workbench.cli import verb_group

    ask = subparsers.add_parser("ask", help="answer from the corpus with a quote, or refuse",
                                parents=[common])
    ask.add_argument("question", nargs="*", help="the question(s)")
    ask.add_argument("--file", metavar="FILE",
                     help="one question a line, or JSONL with a 'question' field")
    ask.add_argument("--json", action="store_true", help="one JSON object a line")
    ask.add_argument("--index", metavar="DIR", help="an index built by `workbench index build`")
    ask.add_argument("--corpus", metavar="DIR", help="the corpus that index was built from")
    ask.add_argument("--mode", choices=list(RERANK_MODES),
                     help="rerank mode (default: [reranker].mode)")
    ask.set_defaults(handler=_ask)

    evals = verb_group(subparsers, "eval", common, "run the labelled evaluations")
    gates = evals.add_parser("gates", help="the question sets through the quote gates",
                             parents=[common])
    gates.add_argument("--split", choices=["dev", "test"], help="only this split")
    gates.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    gates.add_argument("--mode", choices=list(RERANK_MODES),
                       help="rerank mode (default: [reranker].mode)")
    gates.add_argument("--index", metavar="DIR")
    gates.add_argument("--corpus", metavar="DIR")
    gates.add_argument("--quiet", action="store_true")
    gates.add_argument("--no-cache", action="store_true",
                       help="re-run retrieval even when identical verdicts are cached")
    gates.add_argument("--write-catalog", action="store_true",
                       help="record the cross-encoder's test-split numbers in models/catalog.yaml")
    gates.set_defaults(handler=_eval_gates)
