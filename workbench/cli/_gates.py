"""``workbench eval gates`` and ``workbench gates calibrate``: labelled questions through the gates.

The bundled sets by name (``--sets``), or question files of one's own (``--questions``) on any
index and corpus (``--index``, ``--corpus``). ``eval gates`` reports how the gates fire;
``gates calibrate`` chooses their numbers on the dev split and writes them as a settings overlay.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.cli import settings_for
from workbench.config import ConfigError, Settings
from workbench.corpus._questions import SETS, QuestionSetError
from workbench.index._fragment_index import load_index
from workbench.index._layout import check_out_file
from workbench.retrieval import RERANK_MODES
from workbench.stats import NoPromise, format_p
from workbench.studies import gold_spans, record_run, run_outcomes
from workbench.studies._analysis import gate_attribution, headline, report_lines
from workbench.studies._calibration import (
    MIN_PER_KIND,
    MIN_PROMISE_ANSWERS,
    Calibration,
    calibrate,
)
from workbench.studies._confidence import SEED as CONFIDENCE_SEED
from workbench.studies._confidence import (
    TrainingCorpus,
    confidence_ablation,
    train_confidence,
    write_model,
)
from workbench.studies._gates import (
    evaluate_sets_cached,
    question_file_records,
    question_files,
)
from workbench.studies._risk import (
    SCORE_GATES,
    RiskCoverageError,
    promise_check,
    risk_coverage,
)


def _eval_gates(args: argparse.Namespace, settings: Settings) -> int:
    settings = settings_for(args, settings)
    sets, questions = tuple(args.sets), args.questions
    files = question_files(settings, sets, questions)
    if args.write_catalog and questions is not None:
        print("--write-catalog records the bundled sets' numbers; drop --questions",
              file=sys.stderr)
        return 2
    rows, cached = evaluate_sets_cached(settings, sets=sets, split=args.split,
                                        progress=not args.quiet, questions=questions,
                                        cache=not args.no_cache)
    if cached:
        print("(verdicts from the cache: nothing they depend on changed; --no-cache re-runs)")
    elif rows.attrs.get("uncached_reason") and not args.no_cache:
        print(f"(verdicts computed, not cached: {rows.attrs['uncached_reason']})")
    if rows.empty:
        raise QuestionSetError(f"no question{' of the ' + args.split + ' split' if args.split else ''}"
                               f" in {', '.join(str(f) for f in files)}")
    if questions is not None:
        print(f"questions: {', '.join(str(f) for f in files)} ({len(rows)} questions; "
              f"corpus {settings.paths.corpus})")
    index = load_index(settings.paths.index, verify=False)
    order = settings.gates.order
    attribution = gate_attribution(rows, order)
    print(f"gate firing, order {' > '.join(order)}, rerank {settings.reranker.mode}"
          f"{', split ' + args.split if args.split else ''}:")
    print("\n".join(report_lines(rows, order, settings.gates.relevance_rules, args.split)))
    summary: dict[str, Any] = {name: {k: int(v) for k, v in attribution.loc[name].items()}
                               for name in attribution.index}
    # every verified answer re-checked (leakage) and held against the gold labels (selection)
    outcomes = run_outcomes(rows, settings, index, gold_spans(files, settings.paths.corpus))
    print("\n".join(outcomes.lines()))
    summary.update(leakage=outcomes.leakage.leaks, answered=outcomes.leakage.mode_a,
                   answered_wrong=outcomes.selection.answered_wrong,
                   targets=[c.to_dict() for c in outcomes.selection.targets])
    summary.update(_risk_lines(rows, settings, index.corpus_digest, files, args.split))
    run = record_run("gates", rows, settings=settings,
                    digests={"index": index.digest, "corpus_at_index": index.corpus_digest},
                    summary=summary,
                    extra={"order": list(order), "split": args.split,
                           "sets": list(dict.fromkeys(rows["set"])),
                           "questions": question_file_records(files),
                           "corpus_root": str(settings.paths.corpus),
                           "mode": settings.reranker.mode,
                           "embedder": index.embedder_id, "seconds": rows.attrs["seconds"]})
    print(f"run record: {run}")
    if args.write_catalog:
        _record_reranker_numbers(settings, rows)
    return 0


def _risk_lines(rows: pd.DataFrame, settings: Settings, corpus: str, files: tuple[Path, ...],
                split: str | None) -> dict[str, Any]:
    """Print the risk–coverage summary per split (and the promise's check); what the record keeps."""
    kept: dict[str, Any] = {"risk_coverage": {}}
    for name in [split] if split else [s for s in ("dev", "test") if s in set(rows["split"])]:
        try:
            curve = risk_coverage(rows, split=name)
        except RiskCoverageError as exc:
            print(f"risk and coverage, {name} split: {exc}")
            continue
        print("\n".join(curve.lines()))
        kept["risk_coverage"][name] = curve.to_dict()
        if curve.score != "top_score":  # the shipped gates' order, which a learned score must beat
            baseline = risk_coverage(rows, "top_score", split=name)
            print(curve.baseline_line(baseline))
            kept.setdefault("risk_coverage_top_score", {})[name] = baseline.to_dict()
    if settings.promise.alpha > 0:
        check = promise_check(rows, settings, corpus=corpus, files=files)
        print("\n".join(check.lines()))
        kept["promise"] = check.to_dict()
    return kept


def _promise_lines(result: Calibration) -> list[str]:
    """What calibrate says of the promise asked for."""
    bound = result.bound
    if bound is None:
        return []
    if isinstance(bound, NoPromise):
        return [f"no promise: risk at most {bound.alpha:g} with probability {1 - bound.delta:g} "
                f"holds at no threshold ({bound.reason}); nothing written"]
    assert result.promise is not None
    p = result.promise
    return [f"promise: risk at most {p.alpha:g} with probability {1 - p.delta:g} where {p.score} "
            f"reaches {p.threshold!r} ({p.answers} answers of the {p.split} split, {p.wrong} "
            f"wrong, p {format_p(bound.p_value)}; {bound.tested} thresholds tested); coverage "
            f"there {100 * (result.promise_coverage or 0.0):.1f}% (the figures above are the "
            "[gates] cell's before the promise's threshold unless it is the threshold gate's)"]


def _calibrate(args: argparse.Namespace, settings: Settings) -> int:
    settings = settings_for(args, settings)
    # checked before the calibration runs: an overlay it wrote may be replaced, nothing else
    out = (check_out_file(args.out, "gates overlay", protected=[Path(settings.paths.corpus)])
           if args.out else None)
    result = calibrate(settings, split=args.split, sets=tuple(args.sets),
                       questions=args.questions, progress=not args.quiet, risk=args.risk,
                       delta=args.delta, score=args.score, allow_off=args.allow_gates_off,
                       min_per_kind=args.min_per_kind, min_answers=args.min_answers,
                       cache=not args.no_cache)
    if result.cached:
        print("(verdicts from the cache: nothing they depend on changed)")
    if result.declined:
        print(f"(the grid's best cell switches off {', '.join(result.declined)}; the best cell "
              "that keeps every gate on is chosen: --allow-gates-off allows it)")
    shipped = {key: getattr(settings.gates, key) for key in result.gates}
    print(f"gates tuned on the {args.split} split, rerank {result.mode}, "
          f"{result.n_questions} questions:")
    for key, value in result.gates.items():
        same = "same as" if value == shipped[key] else "settings have"
        print(f"  {key} = {value!r}  ({same} {shipped[key]!r})")
    print(f"  answerable answered from gold {result.hasans_correct:.4f}, unanswerable refused "
          f"{result.noans_refused:.4f}, false answers {result.false_answers}")
    print("\n".join(_promise_lines(result)))
    index = load_index(settings.paths.index, verify=False)
    best = result.table.head(args.top).copy()
    promise = ({k: v for k, v in dataclasses.asdict(result.promise).items() if k != "scores"}
               if result.promise is not None else None)
    run = record_run("gates-calibrate", result.table, settings=settings,
                     digests={"index": index.digest, "corpus_at_index": index.corpus_digest},
                     summary={"gates": result.gates, "hasans_correct": result.hasans_correct,
                              "noans_refused": result.noans_refused,
                              "false_answers": result.false_answers,
                              "declined": list(result.declined), "promise": promise,
                              "bound": dataclasses.asdict(result.bound) if result.bound
                              else None},
                     extra={"split": args.split, "mode": result.mode,
                            "order": list(settings.gates.order),
                            "questions": question_file_records(result.files),
                            "corpus_root": str(settings.paths.corpus),
                            "n_questions": result.n_questions, "fragment": result.to_toml()})
    if isinstance(result.bound, NoPromise):
        print(best.to_string(index=False))
        print(f"run record: {run}")
        return 1
    fragment = result.write(out or run / "gates.toml")
    print(best.to_string(index=False))
    print(f"settings overlay: {fragment} (use: --config workbench.toml --config {fragment})")
    print(f"run record: {run}")
    return 0


def _training_corpus(settings: Settings, group: Sequence[str]) -> TrainingCorpus:
    """``--also INDEX FILE…``: another corpus's index (its corpus from the manifest) and files."""
    if len(group) < 2:
        raise ConfigError(f"--also takes an index folder and at least one question file, got "
                          f"{' '.join(group) or 'nothing'}")
    namespace = argparse.Namespace(index=group[0], corpus=None, mode=None)
    return TrainingCorpus(settings_for(namespace, settings), tuple(Path(f) for f in group[1:]))


def _train_confidence(args: argparse.Namespace, settings: Settings) -> int:
    settings = settings_for(args, settings)
    name = Path(args.out).stem if args.out else Path(settings.paths.corpus).name
    also = [_training_corpus(settings, group) for group in args.also or ()]
    training = train_confidence(settings, sets=tuple(args.sets), questions=args.questions,
                                name=name, seed=args.seed, progress=not args.quiet, also=also)
    out = Path(args.out) if args.out else settings.paths.models / "confidence" / f"{name}.json"
    card = training.model.card
    print(f"confidence model trained on the dev split: {card['n']} questions, {card['right']} "
          f"whose quote holds the gold span; {len(training.model.features)} features")
    print(f"  cross-validated AURC {training.cv_aurc:.4f} (best reranked score alone "
          f"{training.top_score_aurc:.4f}); threshold ({card['threshold_rule']}): "
          f"{training.model.threshold:.4f}")
    if args.ablate:
        table = confidence_ablation(training.rows, training.features, seed=args.seed)
        print("ablation (each signal group removed, retrained, cross-validated AURC; delta > 0: "
              "the group helped):")
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(f"model: {write_model(training, out)} (use: [gates] confidence_model = \"{out}\", "
          f"confidence_threshold = {training.model.threshold})")
    return 0


def _run_rows(run: Any) -> pd.DataFrame:
    """A gate run's rows with the gate order its record names (the rows alone do not keep it)."""
    from workbench.studies._analysis import run_order

    rows = run.rows.copy()
    rows.attrs["order"] = list(run_order(run))
    return rows


def _transfer(args: argparse.Namespace, settings: Settings) -> int:
    from workbench.runs import resolve_run
    from workbench.studies import promise_transfer

    results = settings.paths.results
    calibration = [resolve_run(run, results) for run in args.calibrate]
    target = resolve_run(args.apply, results)
    if args.names and len(args.names) != len(calibration) + 1:
        raise ConfigError(f"--names takes one name per calibration run and one for the target "
                          f"({len(calibration) + 1}), got {len(args.names)}")
    rows = [_run_rows(run) for run in calibration]
    pooled = pd.concat(rows, ignore_index=True)
    pooled.attrs["order"] = rows[0].attrs["order"]
    name = " + ".join(args.names[:-1] if args.names else [run.run_id for run in calibration])
    applied = args.names[-1] if args.names else target.run_id
    transfer = promise_transfer(pooled, _run_rows(target), alpha=args.risk, delta=args.delta,
                                score=args.score, calibrated_on=name, applied_to=applied,
                                min_answers=args.min_answers)
    print(transfer.line())
    if transfer.shift is not None:
        for line in transfer.shift.lines():
            print(f"  {line}")
    if args.json:
        import json

        print(json.dumps(transfer.to_dict(), ensure_ascii=False, allow_nan=False, default=str))
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


def _data_arguments(parser: argparse.ArgumentParser, mode_help: str) -> None:
    """What both verbs evaluate: bundled sets or question files, the rerank mode, index, corpus."""
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS),
                        help="bundled sets by name (default: all three)")
    chosen.add_argument("--questions", nargs="+", metavar="FILE",
                        help="labelled JSONL question files of your own "
                             "(format: corpus/questions/README.md)")
    parser.add_argument("--mode", choices=list(RERANK_MODES), help=mode_help)
    parser.add_argument("--index", metavar="DIR",
                        help="an index built by `workbench index build` (default: [paths].index)")
    parser.add_argument("--corpus", metavar="DIR",
                        help="the corpus gold spans and quotes are read from (default: the one "
                             "--index was built from, else [paths].corpus)")


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``eval gates``."""
    from workbench.cli import verb_group

    evals = verb_group(subparsers, "eval", common, "run the labelled evaluations")
    gates = evals.add_parser("gates", help="the question sets through the quote gates",
                             parents=[common])
    gates.add_argument("--split", choices=["dev", "test"], help="only this split")
    _data_arguments(gates, "rerank mode (default: [reranker].mode)")
    gates.add_argument("--quiet", action="store_true")
    gates.add_argument("--no-cache", action="store_true",
                       help="re-run retrieval even when identical verdicts are cached (the new "
                       "verdicts replace the cached ones)")
    gates.add_argument("--write-catalog", action="store_true",
                       help="record the cross-encoder's test-split numbers in models/catalog.yaml")
    gates.set_defaults(handler=_eval_gates)

    tune = verb_group(subparsers, "gates", common, "tune the quote gates").add_parser(
        "calibrate", parents=[common],
        help="choose gate 0's coverage, the score threshold and the disagreement margin on the "
             "dev split; write them as a settings overlay")
    tune.add_argument("--split", choices=["dev", "test"], default="dev",
                      help="the split to tune on (default: dev)")
    _data_arguments(tune, "rerank mode whose threshold is tuned (default: [reranker].mode)")
    tune.add_argument("--out", metavar="FRAGMENT.toml",
                      help="where to write the settings overlay (default: gates.toml in the run "
                           "record's folder)")
    tune.add_argument("--top", type=int, default=5, help="grid cells to print (default: 5)")
    tune.add_argument("--risk", type=float, metavar="ALPHA",
                      help="promise at most this share of wrong answers: the score threshold "
                           "is chosen by Learn-then-Test and the promise written as [promise]")
    tune.add_argument("--delta", type=float, default=0.1,
                      help="the probability the promise may fail (default: 0.1)")
    tune.add_argument("--score", choices=list(SCORE_GATES),
                      help="the score the promise's threshold applies to (default: confidence "
                           "when the rows carry it, else top_score)")
    tune.add_argument("--allow-gates-off", action="store_true",
                      help="let calibrate write a value that switches a gate off (a threshold, "
                           "a margin or a coverage of 0)")
    tune.add_argument("--min-per-kind", type=int, default=MIN_PER_KIND,
                      help="the fewest answerable and must-refuse questions the split must "
                           f"hold (default: {MIN_PER_KIND})")
    tune.add_argument("--min-answers", type=int, default=MIN_PROMISE_ANSWERS,
                      help="the fewest answered questions a promise is searched over "
                           f"(default: {MIN_PROMISE_ANSWERS})")
    tune.add_argument("--quiet", action="store_true")
    tune.add_argument("--no-cache", action="store_true",
                      help="re-run retrieval even when identical verdicts are cached (the new "
                      "verdicts replace the cached ones)")
    tune.set_defaults(handler=_calibrate)

    train = verb_group(subparsers, "gates", common, "tune the quote gates").add_parser(
        "train-confidence", parents=[common],
        help="fit the confidence gate's model on the dev split (JSON weights with a card of what "
             "it was trained on); --ablate prints what each signal group adds")
    _data_arguments(train, "rerank mode the model's scores come from (default: [reranker].mode)")
    train.add_argument("--out", metavar="MODEL.json",
                       help="where to write the model (default: models/confidence/<corpus "
                            "folder's name>.json under [paths].models)")
    train.add_argument("--also", nargs="+", action="append", metavar="INDEX_OR_FILE",
                       help="another corpus to train on: its index folder, then its question "
                            "files (repeat for more corpora); the model serves all of them")
    train.add_argument("--seed", type=int, default=CONFIDENCE_SEED,
                       help=f"the seed of the cross-validation folds (default: {CONFIDENCE_SEED})")
    train.add_argument("--ablate", action="store_true",
                       help="also retrain without each signal group in turn and print the "
                            "cross-validated AURC of each")
    train.add_argument("--quiet", action="store_true")
    train.set_defaults(handler=_train_confidence)

    transfer = verb_group(subparsers, "gates", common, "tune the quote gates").add_parser(
        "transfer", parents=[common],
        help="learn a risk promise's threshold on the dev split of one or more gate runs and "
             "hold it against the test split of another: promised and realised risk and "
             "coverage, and the label-free shift check")
    transfer.add_argument("--calibrate", nargs="+", required=True, metavar="RUN",
                          help="gate runs (ids under [paths].results, or folders) to learn on; "
                               "several are pooled")
    transfer.add_argument("--apply", required=True, metavar="RUN",
                          help="the gate run whose test split the threshold is applied to")
    transfer.add_argument("--risk", type=float, required=True, metavar="ALPHA",
                          help="the share of wrong answers promised, in (0, 1)")
    transfer.add_argument("--delta", type=float, default=0.1,
                          help="the probability the promise may fail (default: 0.1)")
    transfer.add_argument("--score", choices=list(SCORE_GATES), default="confidence",
                          help="the score the threshold applies to (default: confidence)")
    transfer.add_argument("--min-answers", type=int, default=MIN_PROMISE_ANSWERS,
                          help="the fewest answered calibration questions a promise is searched "
                               f"over (default: {MIN_PROMISE_ANSWERS})")
    transfer.add_argument("--names", nargs="+", metavar="NAME",
                          help="names for the calibration runs and, last, the target (default: "
                               "their run ids)")
    transfer.add_argument("--json", action="store_true", help="also print the result as JSON")
    transfer.set_defaults(handler=_transfer)
