"""The end-to-end study: questions as users ask them, through ``ask``'s own path, judged by outcome.

``corpus/questions/e2e.jsonl`` holds questions for all three sources and for refusals, in Russian
and English (and a few in other scripts), each with its gold: the utility and its arguments, the
quote's file and span, the specification and its inputs, or the refusal code. Every question goes
through :func:`workbench.answers.ask` with one router, exactly as ``workbench ask`` would send it,
and each outcome falls in one of four classes:

- *answered correctly*: a mode-A answer whose evidence is the gold's (the same utility with the
  gold call's result, a quote overlapping the gold span in its file or a word-for-word copy of it
  in another, the gold specification
  with the conclusion its gold inputs give);
- *refused correctly*: a refusal where the gold is a refusal (whether the code agrees is counted
  apart, in ``same code``);
- *verified wrong*: a mode-A answer that is not the gold's, or any answer where a refusal was due;
- *over-refused*: a refusal where the gold is an answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.answers import (
    AnswerResult,
    CheckContext,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    ask,
    best_router,
    resolve_router,
)
from workbench.config import Settings
from workbench.corpus import CorpusError
from workbench.errors import WorkbenchError
from workbench.fts import Conclusion, evaluate_spec
from workbench.gates import QuoteSource
from workbench.routing import Router
from workbench.stats import exact_interval
from workbench.studies._records import record_run
from workbench.utilities import call_utility, results_equal

E2E_SET = "e2e.jsonl"
"""The end-to-end question set's file name under ``[paths].questions``."""

OUTCOMES: tuple[str, ...] = ("answered correctly", "refused correctly", "verified wrong",
                             "over-refused")
"""The four outcome classes, in table order."""

OUTCOME_DEFINITIONS: dict[str, str] = {
    "answered correctly": "a mode-A answer whose evidence is the gold's: the same utility with "
                          "the gold call's result, a quote overlapping the gold span in its file "
                          "or a word-for-word copy of it in another, or the gold specification "
                          "with the conclusion its gold inputs give",
    "refused correctly": "a refusal where the gold is a refusal (whether the code agrees is "
                         "counted apart, as same code)",
    "verified wrong": "a mode-A answer that is not the gold's, or any answer where a refusal was "
                      "due: shown as verified, and wrong",
    "over-refused": "a refusal where the gold is an answer",
}
"""What each outcome class counts; the report, the demo and the README quote these."""

SOURCES: tuple[str, ...] = ("utility", "quote", "spec", "refuse")
"""The gold sources, in table order."""


E2E_COLUMNS: tuple[str, ...] = ("id", "split", "lang", "source", "outcome", "route", "code",
                                "gold_code", "same_code", "question", "gold", "trace")
"""The columns of an ``e2e`` run record; ``gold`` is the item's gold as JSON, ``trace`` what
``workbench ask`` prints for the question (route, answer or refusal, evidence, invariants)."""


class E2ESetError(WorkbenchError):
    """A line of the end-to-end set that cannot be read; the message names file and line."""


@dataclass(frozen=True)
class E2EItem:
    """One question of the end-to-end set."""

    id: str
    """Unique in the set: ``e2e-u-NNN`` utility, ``-q-`` quote, ``-s-`` spec, ``-r-`` refusal."""
    question: str
    """The question as a user would type it."""
    lang: str
    """``ru``, ``en``, or the code of another language for the refusal items."""
    split: str
    """``dev`` (may be tuned on) or ``test`` (reported)."""
    gold: Mapping[str, Any] = field(default_factory=dict)
    """``source`` and, by source: ``utility`` + ``args`` (and optionally ``equivalent``, other
    calls that answer the same question); ``gold`` (a list of ``path`` and ``span``); ``spec`` +
    ``args``; ``refusal`` (a code)."""

    @property
    def source(self) -> str:
        """The gold source: utility, quote, spec or refuse."""
        return str(self.gold["source"])


_NEEDS = {"utility": ("utility", "args"), "quote": ("gold",), "spec": ("spec", "args"),
          "refuse": ("refusal",)}


def load_e2e(path: Path) -> list[E2EItem]:
    """The items of an end-to-end set file.

    Raises:
        E2ESetError: The file is missing, or a line is not JSON or lacks what its source needs.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise E2ESetError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    items = []
    for number, line in enumerate(lines, start=1):
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
            gold = data["gold"]
            needs = _NEEDS[gold["source"]]
            missing = [key for key in needs if key not in gold]
            if missing:
                raise E2ESetError(f"{where}: gold {gold['source']} needs {', '.join(missing)}")
            items.append(E2EItem(id=str(data["id"]), question=str(data["question"]),
                                 lang=str(data["lang"]), split=str(data["split"]), gold=gold))
        except json.JSONDecodeError as exc:
            raise E2ESetError(f"{where}: not valid JSON ({exc.msg})") from None
        except (KeyError, TypeError) as exc:
            raise E2ESetError(f"{where}: missing or malformed field {exc}") from None
    return items


@dataclass
class _Judge:
    """What the gold of each source is compared with, computed once per item (private)."""

    context: CheckContext

    def utility(self, item: E2EItem, evidence: UtilityEvidence) -> bool:
        for gold in [item.gold, *item.gold.get("equivalent", ())]:
            if evidence.utility != gold["utility"]:
                continue
            expected = call_utility(gold["utility"], dict(gold["args"]))
            if expected.refusal is None and results_equal(evidence.result, expected.result):
                return True
        return False

    def quote(self, item: E2EItem, evidence: QuoteEvidence) -> bool:
        anchor = evidence.anchor
        try:
            text = self.context.read(anchor.path)
        except CorpusError:  # the quoted file is gone: no gold span can be in it
            return False
        for gold in item.gold["gold"]:
            # in the gold file, or in a file holding a verbatim copy of the span (as a labelled
            # question set's gold, :func:`workbench.corpus._questions.with_copies`)
            start = text.find(gold["span"])
            if start >= 0 and anchor.start < start + len(gold["span"]) and start < anchor.end:
                return True
        return False

    def spec(self, item: E2EItem, evidence: SpecEvidence) -> bool:
        gold = item.gold
        path = self.context.spec_file(str(gold["spec"]))
        if evidence.spec_id != gold["spec"] or path is None or self.context.library_dir is None:
            return False
        expected = evaluate_spec(path, {k: str(v) for k, v in gold["args"].items()},
                                 self.context.library_dir)
        return isinstance(expected, Conclusion) and str(expected.value) == str(evidence.conclusion)


def judge(item: E2EItem, result: AnswerResult, context: CheckContext) -> str:
    """The outcome class of ``result`` for ``item`` (one of :data:`OUTCOMES`)."""
    answered = result.answer is not None
    if item.source == "refuse":
        return "verified wrong" if answered else "refused correctly"
    if not answered:
        return "over-refused"
    checks = _Judge(context)
    evidence = result.answer.evidence if result.answer is not None else ()
    for item_evidence in evidence:
        if item.source == "utility" and isinstance(item_evidence, UtilityEvidence):
            ok = checks.utility(item, item_evidence)
        elif item.source == "quote" and isinstance(item_evidence, QuoteEvidence):
            ok = checks.quote(item, item_evidence)
        elif item.source == "spec" and isinstance(item_evidence, SpecEvidence):
            ok = checks.spec(item, item_evidence)
        else:
            ok = False
        if ok:
            return "answered correctly"
    return "verified wrong"


@dataclass(frozen=True)
class E2EReport:
    """The end-to-end study's outcome: one row per question and the table per gold source."""

    router: str
    """The router's name, as ``ask --router`` takes it."""
    router_reason: str
    """Why that router (named by the caller, or chosen from the catalog)."""
    split: str | None
    """The split run, or None for both."""
    rows: pd.DataFrame
    """One row per question: id, split, lang, source, outcome, route, code, same_code."""
    path: Path | None = None
    """The run record's folder, when one was written."""

    @property
    def table(self) -> pd.DataFrame:
        """Per gold source (and all together): items and the count of each outcome class."""
        return outcome_table(self.rows)

    @property
    def verified_wrong_share(self) -> float:
        """The share of all questions answered verified-wrong."""
        return float((self.rows["outcome"] == "verified wrong").mean()) if len(self.rows) else 0.0

    @property
    def verified_wrong_interval(self) -> tuple[float, float]:
        """The exact 95% interval of that share (:func:`workbench.stats.exact_interval`)."""
        return verified_wrong_interval(self.rows)


def verified_wrong_interval(rows: pd.DataFrame) -> tuple[float, float]:
    """The exact 95% interval of the share of ``rows`` answered verified-wrong ((0, 1) for none)."""
    if not len(rows):
        return 0.0, 1.0
    return exact_interval(int((rows["outcome"] == "verified wrong").sum()), len(rows))


def outcome_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Counts of each outcome per gold source, a total row, and the refusal codes that agree."""
    lines = []
    for source in [*SOURCES, "all"]:
        chosen = rows if source == "all" else rows[rows["source"] == source]
        line: dict[str, Any] = {"source": source, "items": len(chosen)}
        for outcome in OUTCOMES:
            line[outcome] = int((chosen["outcome"] == outcome).sum())
        refused = chosen[chosen["outcome"] == "refused correctly"]
        line["same code"] = int(refused["same_code"].sum())
        lines.append(line)
    return pd.DataFrame(lines, columns=["source", "items", *OUTCOMES, "same code"])


def run_e2e(settings: Settings, *, router: Router | str | None = None, split: str | None = None,
            items: Sequence[E2EItem] | None = None, write: bool = True) -> E2EReport:
    """Ask every question of the end-to-end set the way ``workbench ask`` does, and judge it.

    Args:
        settings: The settings (the quote index, specs and models they name).
        router: The router or its name; the best router by the catalog's measurement if omitted.
        split: ``dev`` or ``test`` to run one split (tune on dev only).
        items: The items (default: :data:`E2E_SET` under ``[paths].questions``).
        write: Whether to write a run record (kind ``e2e``).
    """
    chosen_items = list(items) if items is not None else load_e2e(
        Path(settings.paths.questions) / E2E_SET)
    if split is not None:
        chosen_items = [item for item in chosen_items if item.split == split]
    if router is None:
        choice = best_router(Path(settings.paths.models))
        name, reason = choice.name, choice.reason
    elif isinstance(router, str):
        name, reason = router, "named by the caller"
    else:
        name, reason = type(router).__name__, "given by the caller"
    built = resolve_router(name, settings) if not isinstance(router, Router) else router
    quote_source: QuoteSource | None
    try:
        quote_source = QuoteSource(settings)
        context = CheckContext.for_index(quote_source.index, quote_source.corpus, settings)
    except WorkbenchError:
        # utility and spec questions are still judged; quote decisions are refused by the
        # pipeline (QUOTE_SOURCE_UNAVAILABLE) and counted as over-refusals
        quote_source, context = None, CheckContext.from_settings(settings)
    rows = []
    for item in chosen_items:
        result = ask(item.question, settings, router=built, quote_source=quote_source,
                     context=context)
        code = result.refusal.code if result.refusal is not None else ""
        rows.append({
            "id": item.id, "split": item.split, "lang": item.lang, "source": item.source,
            "outcome": judge(item, result, context), "route": str(result.trace.decision.source),
            "code": code, "gold_code": str(item.gold.get("refusal", "")),
            "same_code": bool(code) and code == item.gold.get("refusal"),
            "question": item.question,
            "gold": json.dumps(dict(item.gold), ensure_ascii=False, sort_keys=True),
            "trace": result.describe(),
        })
    frame = pd.DataFrame(rows, columns=list(E2E_COLUMNS))
    report = E2EReport(router=name, router_reason=reason, split=split, rows=frame)
    if not write:
        return report
    summary = {"router": name, "split": split or "all", "items": len(frame),
               "verified_wrong_share": round(report.verified_wrong_share, 4),
               "verified_wrong_interval": [round(x, 4) for x in report.verified_wrong_interval],
               **{outcome: int((frame["outcome"] == outcome).sum()) for outcome in OUTCOMES}}
    path = record_run("e2e", frame, settings=settings, summary=summary,
                      extra={"router": name, "router_reason": reason})
    return E2EReport(router=name, router_reason=reason, split=split, rows=frame, path=path)
