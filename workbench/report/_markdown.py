"""The README's measured block: rendered from the figures record of one suite, between markers.

``workbench report --markdown`` computes the figures of the report's suite
(:func:`workbench.studies.suite_figures`), writes them to ``docs/figures.json`` and rewrites the
README between :data:`START` and :data:`END` with :func:`render_figures` of that file. The file is
committed, so a clean clone (no ``results/``) can check that the README says what it holds.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError

START = "<!-- figures:start -->"
"""The line before the generated block."""
END = "<!-- figures:end -->"
"""The line after it."""


class FiguresBlockError(WorkbenchError):
    """The README has no measured block between the markers (or a broken one)."""


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def _targets(checks: list[dict[str, Any]]) -> str:
    state = {True: "met", False: "NOT met", None: "not measured"}
    return "; ".join(f"{c['label']} {c['value_text']} (target {c['goal_text']}: {state[c['met']]})"
                     for c in checks if c["key"] != "leakage")


def render_figures(figures: dict[str, Any]) -> str:
    """The measured block (Markdown) of a figures record; the same record gives the same text."""
    lines = [f"Measured by suite `{figures.get('suite') or 'none'}`"
             + (f" at commit `{figures['commit']}`" if figures.get("commit") else "")
             + "; written by `workbench report --markdown` from the run records into "
             "`docs/figures.json` — regenerate, do not edit.", "",
             "| what | figure |", "|---|---|"]
    for mode, quote in (figures.get("quote") or {}).items():
        lines.append(f"| quote source, {mode} mode, test split | {_targets(quote['targets'])} |")
        per_set = ", ".join(f"{k} {v}" for k, v in quote["wrong_per_set"].items())
        strict = quote.get("quote_misses_gold_span")
        lines.append(f"| answered wrong (selection errors), {mode} mode, both splits | "
                     f"{quote['answered_wrong']:,} of {quote['verified']:,} verified answers "
                     f"({per_set})" + (f"; {strict} more answerable ones quote a sentence beside "
                                       "the gold span" if strict is not None else "") + " |")
        leak = next(c for c in quote["targets"] if c["key"] == "leakage")
        lines.append(f"| leakage, {mode} mode | {leak['value_text']} mode-A answers without "
                     f"verifiable evidence (target {leak['goal_text']}) |")
    negative = figures.get("negative_control")
    if negative:
        kinds = ", ".join(negative["expected_to_pass"])
        lines.append(
            f"| negative control | {negative['caught']:,} of {negative['forgeries']:,} forgeries "
            f"caught ({_pct(negative['caught'] / negative['forgeries'])}); without {kinds} "
            f"(expected to pass: {negative['expected_to_pass_caught']} of "
            f"{negative['expected_to_pass_forgeries']} caught) {negative['caught_without']:,} of "
            f"{negative['forgeries_without']:,} "
            f"({_pct(negative['caught_without'] / negative['forgeries_without'])}); genuine "
            f"answers passing {negative['genuine_passed']:,} of {negative['genuine']:,} |")
    routers = figures.get("routers")
    if routers:
        accuracy = ", ".join(f"{name} {r['source_accuracy']:.3f}"
                             for name, r in routers["routers"].items()
                             if r.get("source_accuracy") is not None)
        lines.append(f"| routers, {routers['split'] or 'all'} split: right source | {accuracy} |")
        if routers["mcnemar"]:
            tests = "; ".join(f"{t['a']} vs {t['b']}: b={t['b_count']}, c={t['c_count']}, "
                              f"p={t['p_text']}" for t in routers["mcnemar"])
            lines.append("| routers: exact McNemar on whole decisions, paired items (b: only the "
                         f"first right, c: only the second) | {tests} |")
    return "\n".join(lines) + "\n"


def read_figures(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A figures record written by :func:`write_figures`."""
    figures: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return figures


def readme_block(text: str) -> str:
    """The text between the markers.

    Raises:
        FiguresBlockError: A marker is missing or out of order.
    """
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise FiguresBlockError(f"the README has no block between {START} and {END}")
    return text[start + len(START):end].strip("\n") + "\n"


def write_figures(figures: dict[str, Any], figures_path: str | os.PathLike[str],
                  readme: str | os.PathLike[str] | None = None) -> str:
    """Write the figures record, then the README block rendered from it; returns the block."""
    target = Path(figures_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{target.name}.partial")
    staging.write_text(json.dumps(figures, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                       encoding="utf-8")
    os.replace(staging, target)
    block = render_figures(read_figures(target))
    if readme is not None:
        path = Path(readme)
        text = path.read_text(encoding="utf-8")
        readme_block(text)  # refuse to write into a README without its markers
        head, _, rest = text.partition(START)
        _, _, tail = rest.partition(END)
        path.write_text(f"{head}{START}\n{block}{END}{tail}", encoding="utf-8")
    return block


__all__ = ["END", "START", "FiguresBlockError", "read_figures", "readme_block", "render_figures",
           "write_figures"]
