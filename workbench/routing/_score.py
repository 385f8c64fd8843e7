"""Per-item scoring of router decisions against gold decisions, and the summary over a task set.

Each item is either correct or carries exactly one error type from the closed list
(:data:`ERROR_TYPES`). A refusal where an answer was due is ``false_refusal``; an answer where a
refusal was due is ``false_answer``; the right utility (or specification) with a wrong argument
value is ``wrong_argument_value`` -- the *verified wrong answer*: it executes and passes every
check, so it is counted apart from the visible failures.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.routing._normalise import TIME_ARGS
from workbench.routing._records import Router, RouterDecision, Source
from workbench.routing._spec_inputs import open_spec_inputs

ERROR_TYPES: tuple[str, ...] = (
    "parse_failure", "wrong_source", "wrong_utility", "missing_argument", "unexpected_argument",
    "wrong_argument_value", "false_refusal", "false_answer",
)
"""The closed set of per-item router errors (ARCHITECTURE.md)."""
ANSWER_ERRORS: frozenset[str] = frozenset(ERROR_TYPES) - {"parse_failure", "false_refusal"}
"""The errors of an item that was answered: a wrong answer, which returns a result as surely as a
right one (the wrong source, the wrong utility, a wrong, missing or unexpected value, an answer where
a refusal was due)."""

PARSE_FAILURE_CODE = "PARSE_FAILURE"
"""The refusal code a router uses to record an unparseable output (never scored as a refusal)."""


DEFAULT_TASKSETS: tuple[str, ...] = ("router_tasks.jsonl", "red_team.jsonl")
"""The task sets under ``[paths].questions`` used when no task set is named."""


@dataclass(frozen=True)
class TaskItem:
    """One line of a router task set (``router_tasks.jsonl`` or ``red_team.jsonl``)."""

    id: str
    question: str
    lang: str
    split: str
    kind: str
    gold: Mapping[str, Any] = field(default_factory=dict)


def load_tasks(path: str | Path) -> list[TaskItem]:
    """Read a task set; a line without the required fields raises ``ValueError`` naming it."""
    items: list[TaskItem] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        try:
            items.append(TaskItem(id=str(row["id"]), question=str(row["question"]),
                                  lang=str(row["lang"]), split=str(row["split"]),
                                  kind=str(row["kind"]), gold=dict(row["gold"])))
        except KeyError as exc:
            raise ValueError(f"{path}:{number}: missing field {exc}") from None
    return items


@dataclass(frozen=True)
class ItemScore:
    """The verdict on one decision: correct, or one error type."""

    correct: bool
    error: str | None = None
    detail: str = ""


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?)?")


def _moment(value: Any) -> dt.datetime | None:
    if not isinstance(value, str) or not _ISO.fullmatch(value):
        return None
    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        return None


def _same_value(gold: Any, got: Any, name: str = "") -> bool:
    """Whether a bound value is the gold one.

    A date or a moment (:data:`TIME_ARGS`) is compared as a moment, so a gold ``2025-10-24T16:00``
    and a bound ``2025-10-24T16:00:00`` are one value (the utility reads both).
    """
    if name in TIME_ARGS:
        moments = _moment(gold), _moment(got)
        if None not in moments:
            return moments[0] == moments[1]
    if isinstance(gold, bool) or isinstance(got, bool):
        return gold is got if isinstance(gold, bool) and isinstance(got, bool) else gold == got
    if isinstance(gold, int | float) and isinstance(got, int | float):
        return math.isclose(float(gold), float(got), rel_tol=1e-9, abs_tol=1e-12)
    return bool(gold == got)


def _is_parse_failure(decision: RouterDecision | None) -> bool:
    return decision is None or (
        decision.source is Source.REFUSE and decision.refusal is not None
        and decision.refusal.code == PARSE_FAILURE_CODE)


def score_decision(gold: Mapping[str, Any], decision: RouterDecision | None) -> ItemScore:
    """Score ``decision`` against the gold decision of one task item."""
    if _is_parse_failure(decision):
        return ItemScore(False, "parse_failure")
    assert decision is not None
    gold_source = Source(gold["source"])
    if gold_source is Source.REFUSE:
        if decision.source is Source.REFUSE:
            return ItemScore(True)
        return ItemScore(False, "false_answer", f"answered via {decision.source}")
    if decision.source is Source.REFUSE:
        code = decision.refusal.code if decision.refusal else ""
        return ItemScore(False, "false_refusal", code)
    if decision.source is not gold_source:
        return ItemScore(False, "wrong_source", f"{decision.source} instead of {gold_source}")
    if gold_source is Source.QUOTE:
        return ItemScore(True)
    gold_id = gold.get("utility") if gold_source is Source.UTILITY else gold.get("spec")
    got_id = decision.utility if gold_source is Source.UTILITY else decision.spec
    if got_id != gold_id:
        return ItemScore(False, "wrong_utility", f"{got_id} instead of {gold_id}")
    gold_args = dict(gold.get("args") or {})
    got_args = dict(decision.args)
    missing = sorted(set(gold_args) - set(got_args))
    if missing and gold_source is Source.SPEC and not open_spec_inputs(
            str(gold_id), {k: str(v) for k, v in got_args.items() if k in gold_args}):
        missing = []  # left unbound, but the conclusion does not depend on them (fts.open_inputs)
    if missing:
        return ItemScore(False, "missing_argument", ", ".join(missing))
    extra = sorted(set(got_args) - set(gold_args))
    if extra:
        return ItemScore(False, "unexpected_argument", ", ".join(extra))
    wrong = sorted(k for k in gold_args if k in got_args and not _same_value(gold_args[k], got_args[k], k))
    if wrong:
        return ItemScore(False, "wrong_argument_value", ", ".join(wrong))
    return ItemScore(True)


def evaluate_router(router: Router, items: Iterable[TaskItem]) -> pd.DataFrame:
    """Route every item and score it: one row per item."""
    rows = []
    for item in items:
        start = time.perf_counter()
        decision: RouterDecision | None
        try:
            decision = router.route(item.question)
        except Exception:  # a router that crashes on an item: recorded, never a refusal
            decision = None
        latency = time.perf_counter() - start
        score = score_decision(item.gold, decision)
        rows.append({
            "id": item.id, "lang": item.lang, "split": item.split, "kind": item.kind,
            "question": item.question, "gold": dict(item.gold),
            "decision": decision.to_dict() if decision else None,
            "gold_source": item.gold["source"],
            "source": str(decision.source) if decision else None,
            "correct": score.correct, "error": score.error, "detail": score.detail,
            "latency_s": latency,
        })
    return pd.DataFrame(rows)


def _rate(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


def summarise(frame: pd.DataFrame) -> dict[str, Any]:
    """The headline rates of an :func:`evaluate_router` frame (NaN where a rate has no items)."""
    total = len(frame)
    gold_answer = frame[frame["gold_source"] != "refuse"]
    gold_utility = frame[frame["gold_source"] == "utility"]
    gold_args = frame[frame["gold_source"].isin(["utility", "spec"])]
    gold_spec = frame[frame["gold_source"] == "spec"]
    red = frame[frame["kind"] == "red_team"]

    def decided_utility(row: Any) -> bool:
        return bool(row["decision"] and row["decision"].get("source") == "utility"
                    and row["decision"].get("utility") == row["gold"].get("utility"))

    errors = frame["error"].value_counts().to_dict()
    return {
        "items": total,
        "source_accuracy": _rate(int((frame["source"] == frame["gold_source"]).sum()), total),
        "utility_accuracy": _rate(int(sum(decided_utility(r) for _, r in gold_utility.iterrows())),
                                  len(gold_utility)),
        "argument_exact_match": _rate(int(gold_args["correct"].sum()), len(gold_args)),
        "spec_inputs_exact": _rate(int(gold_spec["correct"].sum()), len(gold_spec)),
        "over_refusal_rate": _rate(int((gold_answer["error"] == "false_refusal").sum()),
                                   len(gold_answer)),
        "incorrect_answer_rate": _rate(int(frame["error"].isin(ANSWER_ERRORS).sum()), total),
        "verified_wrong_answer_rate": _rate(int((frame["error"] == "wrong_argument_value").sum()),
                                            len(gold_args)),
        "parse_failure_rate": _rate(int((frame["error"] == "parse_failure").sum()), total),
        "conscious_refusal_rate": _rate(int((red["source"] == "refuse").sum()), len(red)),
        "errors": {str(k): int(v) for k, v in errors.items()},
    }
