"""``workbench tool``: list, call, serve, examples, coverage, index."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from workbench.errors import WorkbenchError
from workbench.utilities._call import call_utility
from workbench.utilities._catalog import catalog_summary, category_index, load_catalog
from workbench.utilities._coverage import coverage_report
from workbench.utilities._examples import run_examples
from workbench.utilities._protocol import json_text, serve


class ArgsError(WorkbenchError, ValueError):
    """``--args`` is not JSON, or JSON past what the reader takes."""


def _utf8(input_errors: str = "strict") -> None:
    # Results hold Cyrillic; a C locale must not turn them into an encoding error.
    for stream, errors in ((sys.stdin, input_errors), (sys.stdout, "strict")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors=errors)


def _dump(value: Any) -> str:
    # A result or an argument name may hold a lone surrogate; json_text escapes it.
    return json_text(value)


def read_args(text: str) -> Any:
    """The value of ``--args``.

    Raises:
        ArgsError: The text is not JSON, nests deeper than the reader allows, or holds an
            integer above Python's 4300-digit conversion limit.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ArgsError(f"--args is not JSON: {exc}") from None
    except RecursionError:
        raise ArgsError("--args nests JSON deeper than the reader allows") from None
    except ValueError:
        raise ArgsError("--args holds an integer of more than 4300 digits") from None


def cmd_list(args: argparse.Namespace, settings: Any) -> int:
    """Ids grouped by category, with counts."""
    _utf8()
    catalog = load_catalog()
    for category in catalog.categories:
        schemas = catalog.in_category(category.id)
        print(f"{category.id} ({len(schemas)}): {category.en} | {category.ru}")
        for s in schemas:
            print(f"  {s.id:<30} {s.ru if args.lang == 'ru' else s.en}")
    summary = catalog_summary()
    print(
        f"{summary.utilities} utilities in {summary.categories} categories, "
        f"{summary.examples} examples"
    )
    return 0


def cmd_call(args: argparse.Namespace, settings: Any) -> int:
    """One call; exit 0 on a result, 1 on a refusal."""
    _utf8()
    call_args = read_args(args.args)
    outcome = call_utility(args.utility, call_args, question=args.question, lang=args.lang)
    if outcome.ok:
        print(_dump(outcome.result))
        return 0
    assert outcome.refusal is not None  # for the type checker: not ok means a refusal
    print(_dump(outcome.refusal.to_dict()))
    return 1


def cmd_serve(args: argparse.Namespace, settings: Any) -> int:
    """The JSON-lines protocol on stdin/stdout until end of input."""
    # Bytes that are not UTF-8 reach handle_line as lone surrogates and get an error reply
    # there, instead of a decoding error that would end the server.
    _utf8(input_errors="surrogateescape")
    load_catalog()  # pay the import cost before the first request
    serve(iter(sys.stdin.readline, ""), sys.stdout)
    return 0


def cmd_examples(args: argparse.Namespace, settings: Any) -> int:
    """Run every example in-process."""
    _utf8()
    report = run_examples()
    for f in report.failures:
        print(f"FAIL {f.example}: expected {_dump(f.expected)}, got {_dump(f.got)}")
    print(f"{report.total} examples: {report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


def cmd_coverage(args: argparse.Namespace, settings: Any) -> int:
    """Utilities without examples and, with --dataset, without training lines."""
    _utf8()
    print(coverage_report(args.dataset).render())
    return 0


def cmd_index(args: argparse.Namespace, settings: Any) -> int:
    """The compact category index and, with --tokens, its size per offline tokenizer."""
    _utf8()
    print(category_index(args.lang))
    if args.tokens:
        from workbench.utilities._tokens import index_token_report

        for name, size in index_token_report(args.lang).items():
            print(f"tokens[{name}]: {'unavailable' if size is None else size}")
    return 0


def add_commands(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add ``tool`` and its sub-verbs."""
    tool = subparsers.add_parser("tool", parents=[common], help="the utility catalog and its tools")
    verbs = tool.add_subparsers(dest="tool_command", metavar="VERB", required=True)

    p = verbs.add_parser("list", parents=[common], help="utility ids grouped by category")
    p.add_argument("--lang", choices=("en", "ru"), default="en")
    p.set_defaults(handler=cmd_list)

    p = verbs.add_parser("call", parents=[common], help="call one utility")
    p.add_argument("utility", help="the utility id, e.g. hash.sha256")
    p.add_argument("--args", default="{}", help="the arguments as a JSON object")
    p.add_argument("--lang", choices=("en", "ru"), default="en", help="language of a refusal")
    p.add_argument(
        "--question",
        default=None,
        help="the question the arguments came from (enables the circumstance check)",
    )
    p.set_defaults(handler=cmd_call)

    p = verbs.add_parser("serve", parents=[common], help="JSON-lines protocol on stdin/stdout")
    p.set_defaults(handler=cmd_serve)

    p = verbs.add_parser("examples", parents=[common], help="run every example in-process")
    p.set_defaults(handler=cmd_examples)

    p = verbs.add_parser("coverage", parents=[common], help="examples and dataset coverage")
    p.add_argument("--dataset", default=None, metavar="FILE", help="a JSONL router dataset")
    p.set_defaults(handler=cmd_coverage)

    p = verbs.add_parser("index", parents=[common], help="the compact category index")
    p.add_argument("--lang", choices=("en", "ru"), default=None)
    p.add_argument("--tokens", action="store_true", help="measure it with offline tokenizers")
    p.set_defaults(handler=cmd_index)
