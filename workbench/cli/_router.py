"""``workbench eval routers`` and ``workbench route``."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.config import Settings
from workbench.errors import WorkbenchError
from workbench.registry import names
from workbench.routing import CONSTRAINED_SUFFIX, RouterSpecError, build_router, metric_lines
from workbench.routing._doubt import DOUBTED_ROUTER, write_utility_doubt
from workbench.routing._score import DEFAULT_TASKSETS, TaskItem, load_tasks
from workbench.routing._transformers import TRAINING_RECORD
from workbench.stats import format_p
from workbench.studies import CATALOG_FIGURES, catalog_figures, heldout_rounds, record_run
from workbench.studies._routers import (
    RouterComparison,
    compare_pair,
    compare_routers,
    disagreements,
)
from workbench.studies._utility_doubt import BETA, DELTA, calibrate_utility_doubt


class TaskSetError(WorkbenchError, ValueError):
    """A task set that cannot be read, or a split that leaves no items."""


def _load_items(settings: Settings, tasksets: Sequence[str] | None, split: str | None) -> list[TaskItem]:
    paths = [Path(p) for p in tasksets] if tasksets else [
        settings.paths.questions / name for name in DEFAULT_TASKSETS]
    items: list[TaskItem] = []
    for path in paths:
        try:
            items.extend(load_tasks(path))
        except (OSError, ValueError) as exc:
            raise TaskSetError(f"cannot read task set {path}: {exc}") from None
    if split:
        items = [item for item in items if item.split == split]
    if not items:
        raise TaskSetError(f"no task items in {', '.join(map(str, paths))}"
                           f"{' for split ' + split if split else ''}")
    return items


def summary_lines(comparison: RouterComparison) -> list[str]:
    """The summary as an aligned text table, one line per router (``workbench.routing.ROUTER_METRICS``)."""
    return metric_lines(comparison.summary)


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if hasattr(value, "item"):  # numpy scalars
        return _jsonable(value.item())
    return value




def catalog_name(spec: str) -> str | None:
    """The catalog entry a router spec is recorded under: ``rule``, ``span``, or a trained folder's name."""
    if spec.endswith(CONSTRAINED_SUFFIX):
        return None  # the catalog holds a model's own figures, not those under the copy constraint
    name, _, value = spec.partition(":")
    if name in ("rule", "span") and not value:
        return name  # the built-ins with a catalog entry (span: its committed weights)
    if name == "transformers" and value:
        return Path(value).name
    if not value and name not in names("router"):
        return name  # a trained router named by its folder (``base``)
    return None


def _write_catalog(comparison: RouterComparison, routers: dict[str, Any], split: str | None,
                   settings: Settings) -> None:
    from workbench.model_catalog import CatalogError, record_numbers

    for spec, router in routers.items():
        entry = catalog_name(spec)
        if entry is None:
            print(f"catalog: {spec} has no catalog entry; not recorded")
            continue
        row = comparison.summary.loc[spec]
        folder = getattr(router, "path", None)
        training = Path(folder) / TRAINING_RECORD if folder is not None else None
        figures = {key: _jsonable(row.get(key)) for key, _ in CATALOG_FIGURES if key in row}
        figures["training"] = (json.loads(training.read_text(encoding="utf-8"))
                               if training is not None and training.is_file() else None)
        numbers = catalog_figures({"split": split, "routers": {entry: figures}}, None)[entry]
        try:
            record_numbers(settings.paths.models, entry, numbers,
                           "workbench eval routers --write-catalog")
        except CatalogError as exc:
            print(f"catalog: {exc}")
            continue
        print(f"catalog: recorded {entry}")


def _summary_record(comparison: RouterComparison) -> dict[str, dict[str, Any]]:
    """The comparison's summary, one JSON-ready mapping per router, as run records keep it."""
    return {str(name): {k: _jsonable(v) for k, v in row.items()}
            for name, row in comparison.summary.to_dict(orient="index").items()}


def _eval_routers(args: argparse.Namespace, settings: Settings) -> int:
    if len(set(args.names)) != len(args.names):
        raise RouterSpecError(f"a router is named twice: {' '.join(args.names)}")
    items = _load_items(settings, args.taskset, args.split)
    routers = {spec: build_router(spec, items) for spec in args.names}
    comparison = compare_routers(routers, items)
    split = f", split {args.split}" if args.split else ""
    print(f"{len(routers)} router(s) on {len(items)} items{split}:")
    print("\n".join(summary_lines(comparison)))
    summary = _summary_record(comparison)
    extra: dict[str, Any] = {"routers": list(args.names), "split": args.split,
                             "tasksets": list(args.taskset or DEFAULT_TASKSETS)}
    if len(args.names) >= 2:
        a, b = args.names[0], args.names[1]
        b_count, c_count, statistic, p_value = compare_pair(comparison, a, b)
        print(f"McNemar {a} vs {b}: b={b_count} (only {a} right), c={c_count} (only {b} right), "
              f"exact p={format_p(p_value)}")
        extra["mcnemar"] = {"router_a": a, "router_b": b, "b": b_count, "c": c_count, "statistic": statistic,
                            "p_value": p_value}
        disagreeing = disagreements(comparison, a, b)
        for row in disagreeing.head(args.show).itertuples():
            winner = a if row.correct_a else b
            errors = f"{_error_name(row.error_a)} / {_error_name(row.error_b)}"
            print(f"  {row.id}: only {winner} right ({errors})")
        if len(disagreeing) > args.show:
            print(f"  ... {len(disagreeing) - args.show} more in the run record")
    run = record_run("routers", comparison.items, settings=settings, summary=summary, extra=extra)
    print(f"run record: {run}")
    if args.write_catalog:
        _write_catalog(comparison, routers, args.split, settings)
    return 0


def heldout_tasksets(settings: Settings) -> list[Path]:
    """The held-out sets: every ``*.jsonl`` of the ``heldout`` folder of ``[paths].questions``."""
    return sorted((Path(settings.paths.questions) / "heldout").glob("*.jsonl"))


def _choose_default(args: argparse.Namespace, settings: Settings) -> int:
    from workbench.studies import choose_default_router, write_default_router

    if len(set(args.names)) != len(args.names):
        raise RouterSpecError(f"a router is named twice: {' '.join(args.names)}")
    tasksets = [str(p) for p in (args.taskset or heldout_tasksets(settings))]
    items = _load_items(settings, tasksets, None)
    others = [item.split for item in items if item.split != "heldout"]
    if others:
        raise TaskSetError(f"a default router is chosen on held-out items only; {len(others)} "
                           f"items of the task sets are of split {sorted(set(others))}")
    routers = {spec: build_router(spec, items) for spec in dict.fromkeys([args.baseline,
                                                                         *args.names])}
    comparison = compare_routers(routers, items)
    print(f"{len(routers)} router(s) on {len(items)} held-out items:")
    print("\n".join(summary_lines(comparison)))
    choice = choose_default_router(comparison, baseline=args.baseline, level=args.level)
    print("\n".join(choice.lines()))
    run = record_run("routers", comparison.items, settings=settings,
                     summary=_summary_record(comparison),
                     extra={"routers": list(routers), "split": "heldout", "tasksets": tasksets,
                            "default_router": choice.router})
    print(f"run record: {run}")
    if args.write:
        path = write_default_router(choice, settings.paths.models, tasksets, run=run.name)
        print(f"written: {path} (ask takes {choice.router} where no router is named)")
    return 0


def round_names(spec: str, known: Sequence[str]) -> list[str]:
    """The rounds a ``--rounds`` value names: ``1-16``, ``3,5,7`` or a mix, each one of ``known``."""
    chosen: list[str] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        first, _, last = part.partition("-")
        if last and first.isdigit() and last.isdigit():
            chosen += [str(n) for n in range(int(first), int(last) + 1)]
        else:
            chosen.append(part)
    unknown = [r for r in chosen if r not in known]
    if not chosen or unknown:
        named = "no round" if not chosen else "no round " + ", ".join(unknown)
        raise TaskSetError(f"--rounds {spec!r}: {named} among the held-out rounds {', '.join(known)}")
    return list(dict.fromkeys(chosen))


def _calibrate_doubt(args: argparse.Namespace, settings: Settings) -> int:
    rounds = heldout_rounds(settings.paths.questions)
    chosen = round_names(args.rounds, list(rounds))
    tasksets = [str(path) for r in chosen for path in rounds[r]]
    items = _load_items(settings, tasksets, None)
    if args.from_run:  # the decisions a recorded run made on these items, not made again
        from workbench.runs import load_run

        recorded = load_run(Path(settings.paths.results) / args.from_run).rows
        rows = recorded[recorded["router"] == args.router]
        rows = rows[rows["id"].isin({item.id for item in items})]
        if len(rows) != len(items):
            raise TaskSetError(f"run {args.from_run} holds {len(rows)} of the {len(items)} items of rounds "
                               f"{args.rounds} for {args.router}")
        run_name = args.from_run
    else:
        comparison = compare_routers({args.router: build_router(args.router, items)}, items)
        rows = comparison.items
        run_name = record_run("routers", rows, settings=settings, summary=_summary_record(comparison),
                              extra={"routers": [args.router], "split": "heldout", "tasksets": tasksets,
                                     "calibration": f"utility doubt, rounds {args.rounds}"}).name
    split = f"held-out round{'s' if len(chosen) > 1 else ''} {args.rounds}"
    doubt = calibrate_utility_doubt(rows, router=args.router, split=split, tasksets=tasksets,
                                    beta=args.beta, delta=args.delta, run=run_name)
    print("\n".join(doubt.lines()))
    print(f"decisions: run {run_name}")
    if args.write:
        print(f"written: {write_utility_doubt(doubt, settings.paths.models)}")
    return 0


def _error_name(error: Any) -> str:
    """An item's error type, or ``ok`` for a right item (whose error cell is empty or NaN)."""
    return error if isinstance(error, str) and error else "ok"


def _route(args: argparse.Namespace, settings: Settings) -> int:
    items: list[TaskItem] = []
    if args.router.startswith("replay:"):
        items = _load_items(settings, args.taskset, None)
    router = build_router(args.router, items)
    decision = router.route(args.question)
    data = decision.to_dict()
    raw = data.pop("raw_output")
    prompt, output = data.pop("prompt_tokens"), data.pop("output_tokens")
    print(f"router: {args.router}")
    print(f"decision: {json.dumps(data, ensure_ascii=False, default=str)}")
    print(f"raw output: {raw!r}")
    print(f"tokens: prompt {prompt}, output {output}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``eval routers`` and ``route``."""
    from workbench.cli import verb_group

    evals = verb_group(subparsers, "eval", common, "run the labelled evaluations")
    routers = evals.add_parser("routers", help="compare routers on a task set, item by item",
                               parents=[common])
    routers.add_argument("names", nargs="+", metavar="NAME",
                         help="rule, replay:PATH, transformers:DIR, or a trained router's name (base); "
                              "+constrained after a generative one decodes under the copy constraint")
    routers.add_argument("--taskset", action="append", metavar="FILE",
                         help="a task set (repeatable; default: the router tasks and the red team)")
    routers.add_argument("--split", choices=["dev", "test"], help="only this split")
    routers.add_argument("--show", type=int, default=10, metavar="N",
                         help="list at most N disagreeing items of the first two routers")
    routers.add_argument("--write-catalog", action="store_true",
                         help="record each router's figures in models/catalog.yaml")
    routers.set_defaults(handler=_eval_routers)

    choose = verb_group(subparsers, "router", common, "train and choose routers").add_parser(
        "choose-default", parents=[common],
        help="score routers on the held-out sets and choose ask's default with paired tests: "
             "the fewest verified-wrong answers first, then a significant gain over the baseline")
    choose.add_argument("names", nargs="+", metavar="NAME",
                        help="the candidates (registered routers or trained folders' names)")
    choose.add_argument("--baseline", default="rule",
                        help="the router kept unless another is shown better (default: rule)")
    choose.add_argument("--taskset", action="append", metavar="FILE",
                        help="a held-out set (repeatable; default: every set of "
                             "[paths].questions/heldout)")
    choose.add_argument("--level", type=float, default=0.05,
                        help="the level of the paired tests (default: 0.05)")
    choose.add_argument("--write", action="store_true",
                        help="record the choice where ask reads it (models/routers/default.json)")
    choose.set_defaults(handler=_choose_default)

    doubt = verb_group(subparsers, "router", common, "train and choose routers").add_parser(
        "calibrate-doubt", parents=[common],
        help="choose the class probability under which span-binder-noref-doubt calls no utility: "
             "the loosest at which at most --beta of the calls refused would have been right, by "
             "Learn-then-Test on held-out rounds taken as a calibration split")
    doubt.add_argument("--router", default=DOUBTED_ROUTER,
                       help=f"the router whose utility calls are labelled (default: {DOUBTED_ROUTER})")
    doubt.add_argument("--rounds", required=True, metavar="ROUNDS",
                       help="the held-out rounds of the calibration split (1-16, or 3,5,7); the "
                            "rounds left out measure the doubt")
    doubt.add_argument("--beta", type=float, default=BETA,
                       help=f"the promised most share of right calls among the calls refused "
                            f"(default: {BETA})")
    doubt.add_argument("--delta", type=float, default=DELTA,
                       help=f"the probability the promise may fail (default: {DELTA})")
    doubt.add_argument("--from-run", metavar="RUN",
                       help="read the router's decisions from this run record of [paths].results "
                            "instead of routing the items again")
    doubt.add_argument("--write", action="store_true",
                       help="record the doubt where span-binder-noref-doubt reads it "
                            "(models/binder/utility-doubt.json)")
    doubt.set_defaults(handler=_calibrate_doubt)

    route = subparsers.add_parser("route", help="show one router decision for a question",
                                  parents=[common])
    route.add_argument("question", help="the question")
    route.add_argument("--router", default="rule", metavar="NAME",
                       help="rule, replay:PATH, transformers:DIR or a trained router's name (default: rule); "
                            "+constrained after a generative one decodes under the copy constraint")
    route.add_argument("--taskset", action="append", metavar="FILE",
                       help="task sets whose ids join a replay file to question text")
    route.set_defaults(handler=_route)
