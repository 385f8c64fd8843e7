"""Every measured figure outside the run records: rendered from one figures record, between markers.

``workbench report --markdown`` computes the figures of the report's suite
(:func:`workbench.studies.suite_figures`), writes them to ``docs/figures.json``, rewrites every
marked block of the files in :data:`MARKED_FILES` (the README and the model cards) with the
renderer of :data:`BLOCKS` that the block names, and records the catalog's numbers
(``models/catalog.yaml``) from the same file. A block is the text between
``<!-- figures:start NAME -->`` and ``<!-- figures:end NAME -->``; the file is committed, so a clean
clone (no ``results/``) can check that every block says what it holds.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError
from workbench.index._layout import check_out_file
from workbench.model_catalog import load_catalog, record_numbers
from workbench.routing import HEADLINE_METRICS, ROUTER_METRIC
from workbench.studies import OUTCOME_DEFINITIONS, OUTCOMES

MARKED_FILES: tuple[str, ...] = ("README.md", "models/cards/*.md")
"""The files (globs under the checkout's root) whose marked blocks are generated."""

_MARKER = re.compile(r"<!-- figures:(start|end)(?: ([a-z0-9-]+))? -->")


def start_marker(name: str) -> str:
    """The line before the block ``name``."""
    return f"<!-- figures:start {name} -->"


def end_marker(name: str) -> str:
    """The line after the block ``name``."""
    return f"<!-- figures:end {name} -->"


class FiguresBlockError(WorkbenchError):
    """A marked block that cannot be filled: no such block, an unknown name, an unclosed marker."""


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def _num(value: Any, digits: int = 3) -> str:
    return "–" if value is None else f"{float(value):.{digits}f}"


def _source_line(what: str, figures: dict[str, Any], run: str | None) -> str:
    return (f"{what} run `{run or 'none'}` of suite `{figures.get('suite') or 'none'}`; written by "
            "`workbench report --markdown` from `docs/figures.json` — regenerate, do not edit.")


def _targets(checks: list[dict[str, Any]]) -> str:
    state = {True: "met", False: "NOT met", None: "not measured"}
    return "; ".join(f"{c['label']} {c['value_text']} (target {c['goal_text']}: {state[c['met']]})"
                     for c in checks if c["key"] != "leakage")


def _row(cells: list[Any]) -> str:
    """One Markdown table row."""
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _head(columns: list[str]) -> list[str]:
    """A Markdown table's header row and its rule."""
    return [_row(columns), "|" + "---|" * len(columns)]


def _e2e_cells(e2e: dict[str, Any], source: str) -> str:
    counts = e2e["per_source"][source]
    return ", ".join(f"{o} {counts[o]}" for o in OUTCOMES)


def _e2e_wrong(e2e: dict[str, Any]) -> str:
    """How many questions were answered verified-wrong, their share and its exact 95% interval."""
    wrong, items = len(e2e["verified_wrong"]), e2e["per_source"]["all"]["items"]
    low, high = e2e["verified_wrong_interval"]
    return (f"{wrong} of {items} ({_pct(wrong / items if items else 0.0)}; exact 95% interval "
            f"{_pct(low)} to {_pct(high)})")


def render_figures(figures: dict[str, Any]) -> str:
    """The README's measured block (Markdown); the same record gives the same text."""
    lines = [f"Measured by suite `{figures.get('suite') or 'none'}`"
             + (f" at commit `{figures['commit']}`" if figures.get("commit") else "")
             + "; written by `workbench report --markdown` from the run records into "
             "`docs/figures.json` — regenerate, do not edit.", "", *_head(["what", "figure"])]
    for mode, quote in (figures.get("quote") or {}).items():
        lines.append(f"| quote source, {mode} mode, test split | {_targets(quote['targets'])} |")
        per_set = ", ".join(f"{k} {v}" for k, v in quote["wrong_per_set"].items())
        strict = quote.get("quote_misses_gold_span")
        lines.append(f"| answered wrong (selection errors), {mode} mode, both splits | "
                     f"{quote['answered_wrong']:,} of {quote['verified']:,} verified answers "
                     f"({per_set})" + (f"; {strict} more answerable ones quote a part of the "
                                       "fragment beside the gold span" if strict is not None
                                       else "") + " |")
        leak = next(c for c in quote["targets"] if c["key"] == "leakage")
        lines.append(f"| leakage, {mode} mode | {leak['value_text']} mode-A answers without "
                     f"verifiable evidence (target {leak['goal_text']}) |")
    e2e = figures.get("e2e")
    if e2e:
        for source in e2e["per_source"]:
            if source == "all":
                continue
            lines.append(f"| end to end, {source} questions ({e2e['per_source'][source]['items']}"
                         f", router {e2e['router']}) | {_e2e_cells(e2e, source)} |")
        if "verified_wrong_interval" in e2e:
            lines.append(f"| end to end, verified wrong | {_e2e_wrong(e2e)} |")
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


_TOKEN_METRICS = (ROUTER_METRIC["prompt_tokens_per_request"], ROUTER_METRIC["output_tokens_per_request"])
"""Token figures of the Markdown router table, shown only where a router counts tokens."""


def render_routers(figures: dict[str, Any]) -> str:
    """Each router's figures on the comparison's split, one table row a router."""
    routers = figures.get("routers")
    if not routers:
        return "No router comparison in the suite.\n"
    items = {r.get("items") for r in routers["routers"].values()}
    lines = [_source_line("Router comparison", figures, routers["run"]),
             f"{'/'.join(str(i) for i in sorted(i for i in items if i is not None))} "
             f"{routers['split'] or 'all'}-split items of {' + '.join(routers['tasksets'])}.", "",
             *_head(["router", "parameters", *(m.name for m in HEADLINE_METRICS),
                     *(m.name for m in _TOKEN_METRICS)])]
    for name, r in routers["routers"].items():
        params = (r.get("training") or {}).get("parameters")
        tokens = r.get("prompt_tokens_per_request")
        lines.append(_row([name, "–" if params is None else f"{params:,}",
                           *(_num(r.get(m.key)) for m in HEADLINE_METRICS),
                           *("–" if not tokens else _num(r.get(m.key), 1) for m in _TOKEN_METRICS)]))
    return "\n".join(lines) + "\n"


def render_router_tests(figures: dict[str, Any]) -> str:
    """The paired tests against the rule router and the verdict on each finding."""
    routers = figures.get("routers")
    if not routers:
        return "No router comparison in the suite.\n"
    lines = [_source_line("Router comparison", figures, routers["run"]), ""]
    lines += [f"- **{t['a']} against {t['b']}** (exact McNemar on whole decisions): {t['b_count']} "
              f"items only {t['a']} gets right, {t['c_count']} only {t['b']}, p = {t['p_text']}."
              for t in routers["mcnemar"]]
    lines.append("")
    for number, finding in enumerate(routers.get("findings") or [], start=1):
        state = {True: "holds", False: "does not hold", None: "not measured"}[finding["holds"]]
        lines.append(f"{number}. *{finding['claim']}* — {state}: {finding['verdict']}")
    return "\n".join(lines) + "\n"


def render_router_training(figures: dict[str, Any]) -> str:
    """What each trained router's training record says: size, data, steps, time, loss."""
    routers = figures.get("routers")
    trained = {n: r["training"] for n, r in ((routers or {}).get("routers") or {}).items()
               if r.get("training")}
    if not trained:
        return "No trained router in the suite's comparison.\n"
    lines = ["From each router folder's `workbench_training.json` (the routers of run "
             f"`{routers['run'] if routers else 'none'}`); written by `workbench report --markdown`"
             " — regenerate, do not edit.", "",
             *_head(["router", "parameters", "vocabulary", "lines", "refusal share",
                     "training tokens", "steps", "time (2 cores)", "final loss"])]
    for name, t in trained.items():
        lines.append(_row([name, f"{t.get('parameters', 0):,}", f"{t.get('vocab_size', 0):,}",
                           f"{t.get('lines', 0):,}", _num(t.get("refusal_share")),
                           f"{t.get('tokens', 0):,}", f"{t.get('steps', 0):,}",
                           f"{float(t.get('seconds', 0)) / 60:.1f} min",
                           _num(t.get("final_loss"))]))
    return "\n".join(lines) + "\n"


def render_reranker(figures: dict[str, Any]) -> str:
    """The cross-encoder's test figures from its gate run, and its training record."""
    reranker = figures.get("reranker")
    if not reranker:
        return "No cross-encoder gate run in the suite.\n"
    shares = "; ".join(f"{k} {_pct(v)}" for k, v in reranker["shares_test"].items())
    lines = [_source_line("Cross-encoder gate", figures, reranker["run"]), "",
             f"- test split: {shares};",
             f"- the top fragment holds the gold span for {_pct(reranker['top_is_gold_in_corpus'])}"
             " of the answerable questions (both splits);",
             f"- threshold (tuned on dev): {reranker['threshold']}."]
    training = reranker.get("training")
    if training:
        lines.append(f"- training: {training.get('pairs', 0):,} pairs, "
                     f"{training.get('positives', 0):,} of them positive; "
                     f"{float(training.get('seconds', 0)) / 60:.1f} min; final training loss "
                     f"{_num(training.get('final_loss'), 2)}.")
    return "\n".join(lines) + "\n"


def render_e2e(figures: dict[str, Any]) -> str:
    """The end-to-end run: each outcome class per gold source, with what each class counts."""
    e2e = figures.get("e2e")
    if not e2e:
        return "No end-to-end run in the suite.\n"
    lines = [_source_line("End-to-end", figures, e2e["run"]),
             f"Router {e2e['router']} ({e2e['router_reason']}); split {e2e['split']}.", "",
             *_head(["source", "items", *OUTCOMES])]
    for source, counts in e2e["per_source"].items():
        lines.append(_row([source, counts["items"], *(counts[o] for o in OUTCOMES)]))
    lines.append("")
    if "verified_wrong_interval" in e2e:
        lines += [f"Verified wrong: {_e2e_wrong(e2e)}.", ""]
    lines += [f"- *{outcome}*: {OUTCOME_DEFINITIONS[outcome]}." for outcome in OUTCOMES]
    return "\n".join(lines) + "\n"


BLOCKS: dict[str, Callable[[dict[str, Any]], str]] = {
    "measured": render_figures,
    "routers": render_routers,
    "router-tests": render_router_tests,
    "router-training": render_router_training,
    "reranker": render_reranker,
    "e2e": render_e2e,
}
"""Block name -> its renderer; a block of another name is refused."""


def read_figures(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A figures record written by :func:`write_figures`."""
    figures: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return figures


def _spans(text: str, where: str) -> list[tuple[str, int, int]]:
    """``(name, body start, body end)`` of every block, in order.

    Raises:
        FiguresBlockError: An unnamed or unknown block, a start without its end, a stray end.
    """
    spans, open_at = [], None
    for match in _MARKER.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        kind, name = match.group(1), match.group(2)
        if name is None or name not in BLOCKS:
            raise FiguresBlockError(f"{where}:{line}: block {name or '(unnamed)'} is none of "
                                    f"{', '.join(BLOCKS)}")
        if kind == "start":
            if open_at is not None:
                raise FiguresBlockError(f"{where}:{line}: block {name} starts inside block "
                                        f"{open_at[0]}")
            open_at = (name, match.end())
        else:
            if open_at is None or open_at[0] != name:
                raise FiguresBlockError(f"{where}:{line}: end of block {name} without its start")
            spans.append((name, open_at[1], match.start()))
            open_at = None
    if open_at is not None:
        raise FiguresBlockError(f"{where}: block {open_at[0]} is never ended "
                                f"({end_marker(open_at[0])})")
    return spans


def marked_blocks(text: str, where: str = "<text>") -> list[tuple[str, str]]:
    """``(name, text)`` of every marked block of a file's text (the text without its markers)."""
    return [(name, text[start:end].strip("\n") + "\n") for name, start, end in _spans(text, where)]


def fill_blocks(text: str, figures: dict[str, Any], where: str = "<text>") -> str:
    """``text`` with every marked block rendered from ``figures``."""
    out, last = [], 0
    for name, start, end in _spans(text, where):
        out += [text[last:start], "\n", BLOCKS[name](figures)]
        last = end
    return "".join(out) + text[last:]


def marked_files(root: str | os.PathLike[str] = ".") -> list[Path]:
    """The files of :data:`MARKED_FILES` under ``root`` that exist."""
    base = Path(root)
    return sorted({path for pattern in MARKED_FILES for path in base.glob(pattern)
                   if path.is_file()})


def stale_blocks(figures: dict[str, Any], root: str | os.PathLike[str] = ".") -> list[str]:
    """``file:NAME`` of every marked block that is not the rendering of ``figures``."""
    stale = []
    for path in marked_files(root):
        text = path.read_text(encoding="utf-8")
        for name, body in marked_blocks(text, str(path)):
            if body != BLOCKS[name](figures):
                stale.append(f"{path.relative_to(root)}:{name}")
    return stale


def _measured_on(suite: str | None) -> str | None:
    found = re.search(r"(\d{4})(\d{2})(\d{2})T", suite or "")
    return "-".join(found.groups()) if found else None


def catalog_mismatches(figures: dict[str, Any], models_dir: str | os.PathLike[str]) -> list[str]:
    """``entry: label`` of every catalog number that differs from the figures record's."""
    entries = {e["name"]: e.get("numbers") or {} for e in load_catalog(models_dir)}
    wrong = []
    for name, numbers in (figures.get("catalog") or {}).items():
        recorded = entries.get(name)
        if recorded is None:
            wrong.append(f"{name}: no catalog entry")
            continue
        wrong += [f"{name}: {label}" for label, value in numbers.items()
                  if recorded.get(label) != value]
    return wrong


def write_figures(figures: dict[str, Any], figures_path: str | os.PathLike[str],
                  root: str | os.PathLike[str] | None = None,
                  models_dir: str | os.PathLike[str] | None = None) -> list[Path]:
    """Write the figures record, then every marked block and the catalog's numbers from it.

    Args:
        figures: The figures record (:func:`workbench.studies.suite_figures`).
        figures_path: Where the record goes (``docs/figures.json``).
        root: The checkout whose :data:`MARKED_FILES` are rewritten (none if omitted).
        models_dir: The folder of ``catalog.yaml`` whose numbers are recorded (none if omitted).

    Returns:
        The files rewritten (each marked file, then the catalog).

    Raises:
        FiguresBlockError: A marked file has a broken block; nothing is written to it.
    """
    target = check_out_file(figures_path, "figures record")  # never another file
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{target.name}.partial")
    staging.write_text(json.dumps(figures, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                       encoding="utf-8")
    os.replace(staging, target)
    record = read_figures(target)
    written = []
    if root is not None:
        for path in marked_files(root):
            text = path.read_text(encoding="utf-8")
            filled = fill_blocks(text, record, str(path))
            if filled != text:
                path.write_text(filled, encoding="utf-8")
                written.append(path)
    if models_dir is not None and record.get("catalog"):
        measured_by = f"workbench report --markdown, suite {record.get('suite') or 'none'}"
        for name, numbers in record["catalog"].items():
            order = list((figures.get("catalog") or {}).get(name) or numbers)
            numbers = {label: numbers[label] for label in order if label in numbers}
            record_numbers(models_dir, name, numbers, measured_by,
                           when=_measured_on(record.get("suite")))
        written.append(Path(models_dir) / "catalog.yaml")
    return written


__all__ = ["BLOCKS", "MARKED_FILES", "FiguresBlockError", "catalog_mismatches", "end_marker",
           "fill_blocks", "marked_blocks", "marked_files", "read_figures", "render_e2e",
           "render_figures", "render_reranker", "render_router_tests", "render_router_training",
           "render_routers", "stale_blocks", "start_marker", "write_figures"]
