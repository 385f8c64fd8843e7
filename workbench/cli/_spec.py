"""The ``workbench spec`` verbs: ``check``, ``eval`` and ``library``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from workbench.config import Settings
from workbench.fts._api import Conclusion, check_spec, evaluate_spec, verify_library
from workbench.fts._messages import render_message
from workbench.fts._problems import FtsError


def _library_dir(args: argparse.Namespace, settings: Settings) -> Path:
    return Path(args.library) if args.library else settings.paths.morphisms


def _check(args: argparse.Namespace, settings: Settings) -> int:
    verdict = check_spec(args.file, _library_dir(args, settings), lang=args.lang)
    if args.json:
        out: dict[str, Any] = verdict.to_dict()
        if verdict.certificate is not None:
            out["certificate"] = verdict.certificate.to_dict()
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0 if verdict.passed else 1
    if verdict.passed:
        word = "сертифицировано" if args.lang == "ru" else "certified"
        print(f"{verdict.spec_id}: {word}")
        print(f"certificate digest: {verdict.certificate_digest}")
        return 0
    assert verdict.refusal is not None  # noqa: S101 - a refused verdict carries its refusal
    print(f"{verdict.spec_id or args.file}: {verdict.code}")
    print(verdict.refusal.text)
    where = verdict.refusal.numbers.get("where") or {}
    if where:
        print("where: " + ", ".join(f"{k}={v}" for k, v in where.items()))
    print("why: " + str(verdict.refusal.numbers.get("why")))
    if verdict.fallacies:
        print("fallacies: " + ", ".join(verdict.fallacies))
    return 1


def _parse_inputs(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise FtsError(f"--input expects name=value, got {pair!r}")
        name = name.strip()
        if name in out:
            # the last one silently winning would certify a conclusion for a value nobody checked
            raise FtsError(f"--input {name} is given twice ({name}={out[name]!r} and "
                           f"{name}={value!r}); give each input once")
        out[name] = value
    return out


def _eval(args: argparse.Namespace, settings: Settings) -> int:
    outcome = evaluate_spec(args.file, _parse_inputs(args.input or []),
                            _library_dir(args, settings))
    if isinstance(outcome, Conclusion):
        print(f"{outcome.output} = {outcome.value}")
        print(f"case {outcome.case}; premises: {', '.join(outcome.premises)}")
        print(f"certificate digest: {outcome.certificate_digest}")
        return 0
    print(f"{outcome.spec_id or args.file}: {outcome.code}; no conclusion is given")
    if outcome.refusal is not None:
        print(outcome.refusal.text)
    return 1


def _library(args: argparse.Namespace, settings: Settings) -> int:
    report = verify_library(_library_dir(args, settings))
    print(report.summary())
    if not args.verify:
        return 0
    if report.intact:
        print("integrity: intact (entry digests, library digest, reviews, derived compositions)")
        return 0
    for problem in report.problems:
        print(f"{problem.code}: {render_message(problem.key, problem.params)}")
    return 1


def add_commands(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add ``spec check``, ``spec eval`` and ``spec library``."""
    spec = subparsers.add_parser("spec", parents=[common],
                                 help="executable specifications (FTS): check, eval, library")
    verbs = spec.add_subparsers(dest="spec_command", metavar="VERB")

    def library_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--library", metavar="DIR", default=None,
                       help="morphism library folder (default: paths.morphisms)")

    check = verbs.add_parser(
        "check", parents=[common],
        help="gate and fallacy detector; exit 0 when certified, 1 when refused")
    check.add_argument("file", metavar="FILE")
    check.add_argument("--lang", choices=("ru", "en"), default="en")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    library_option(check)
    check.set_defaults(handler=_check)

    ev = verbs.add_parser("eval", parents=[common],
                          help="the conclusion for given inputs (only for a certified spec)")
    ev.add_argument("file", metavar="FILE")
    ev.add_argument("--input", action="append", metavar="NAME=VALUE", help="repeat per input")
    library_option(ev)
    ev.set_defaults(handler=_eval)

    lib = verbs.add_parser("library", parents=[common], help="status counts and integrity")
    lib.add_argument("--verify", action="store_true", help="check digests and compositions")
    library_option(lib)
    lib.set_defaults(handler=_library)

    def _help(args: argparse.Namespace, settings: Settings) -> int:
        spec.print_help()
        return 2

    spec.set_defaults(handler=_help)


__all__ = ["add_commands"]
