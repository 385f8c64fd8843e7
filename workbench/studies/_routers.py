"""Several routers over one task set: per-item rows, a summary per router, and a paired test.

Scoring is :func:`~workbench.routing._score.evaluate_router` and
:func:`~workbench.routing._score.summarise`; this module only runs them per router, adds token
counts and latency, and splits the errors into the two classes the system under study separates:

- a *visible* failure: the wrong source or utility, a refusal where an answer was due, a missing
  or unexpected argument, an unparseable output -- something a check or a reader notices;
- a *verified wrong answer* (``wrong_argument_value``): the right utility or specification with a
  wrong argument value. It executes and passes every invariant, so nothing downstream flags it;
  it gets its own rate.

A ``false_answer`` (an answer where a refusal was due) is counted as visible here: the task set
scores it against a refusal gold and does not execute it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import pandas as pd

from workbench.routing._records import Router, RouterDecision
from workbench.routing._score import ERROR_TYPES, TaskItem, evaluate_router, summarise
from workbench.stats import McNemarResult, mcnemar

FAILURE_CLASSES: dict[str, str] = {
    error: ("verified_wrong_answer" if error == "wrong_argument_value" else "visible")
    for error in ERROR_TYPES
}
"""Error type -> failure class (``visible`` or ``verified_wrong_answer``)."""

ROW_COLUMNS: tuple[str, ...] = (
    "router", "id", "lang", "split", "kind", "question", "gold_source", "source", "correct",
    "error", "failure_class", "detail", "prompt_tokens", "output_tokens", "latency_ms",
    "raw_output", "gold", "decision",
)
"""The columns of :attr:`RouterComparison.items`; ``gold`` and ``decision`` are JSON text."""


@runtime_checkable
class ItemRouter(Protocol):
    """A router that answers a task item by its id (the replay router), not only by its text."""

    def route_item(self, item: TaskItem) -> RouterDecision:
        """Decide for ``item``."""
        ...


class _BoundToItem:
    """Routes exactly one item through ``route_item``, so :func:`evaluate_router` can score it."""

    def __init__(self, router: ItemRouter, item: TaskItem) -> None:
        self.router = router
        self.item = item

    def route(self, question: str) -> RouterDecision:
        return self.router.route_item(self.item)


@dataclass(frozen=True)
class RouterComparison:
    """The outcome of :func:`compare_routers`."""

    items: pd.DataFrame
    """One row per item and router (:data:`ROW_COLUMNS`)."""
    summary: pd.DataFrame
    """One row per router: the :func:`summarise` figures, tokens per request, latency p50."""


def _counted(items: Sequence[TaskItem], name: str,
             on_item: Callable[[str], None] | None) -> Iterator[TaskItem]:
    """``items`` one by one, calling ``on_item(name)`` once each item has been routed."""
    for item in items:
        yield item
        # resumed when the loop asks for the next item, so the previous one is done
        if on_item is not None:
            on_item(name)


def _evaluate(router: Router | ItemRouter, items: Sequence[TaskItem], name: str = "",
              on_item: Callable[[str], None] | None = None) -> pd.DataFrame:
    if isinstance(router, ItemRouter):
        frames = [evaluate_router(_BoundToItem(router, item), [item])
                  for item in _counted(items, name, on_item)]
        frame = (pd.concat(frames, ignore_index=True) if frames
                 else evaluate_router(_BoundToItem(router, TaskItem("", "", "", "", "")), []))
        recorded = getattr(router, "recorded_latency_ms", None)
        if callable(recorded):
            # the latency where the decision was made; none (NaN) for an item the file lacks
            measured = [recorded(item) for item in items]
            frame["latency_s"] = [m / 1000.0 if m is not None else math.nan for m in measured]
        return frame
    return evaluate_router(router, _counted(items, name, on_item))


def _rows(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    def tokens(key: str) -> list[int]:
        return [int(d.get(key, 0)) if d else 0 for d in frame["decision"]]

    rows = pd.DataFrame({
        "router": name,
        "id": frame["id"], "lang": frame["lang"], "split": frame["split"], "kind": frame["kind"],
        "question": frame["question"], "gold_source": frame["gold_source"],
        "source": frame["source"], "correct": frame["correct"].astype(bool),
        "error": frame["error"],
        "failure_class": [FAILURE_CLASSES.get(e) if isinstance(e, str) else None
                          for e in frame["error"]],
        "detail": frame["detail"],
        "prompt_tokens": tokens("prompt_tokens"), "output_tokens": tokens("output_tokens"),
        "latency_ms": frame["latency_s"].astype(float) * 1000.0,
        "raw_output": [str(d.get("raw_output", "")) if d else "" for d in frame["decision"]],
        "gold": [json.dumps(g, ensure_ascii=False, default=str) for g in frame["gold"]],
        "decision": [json.dumps(d, ensure_ascii=False, default=str) if d else None
                     for d in frame["decision"]],
    })
    return rows.reindex(columns=list(ROW_COLUMNS))


def summary_figures(frame: pd.DataFrame, rows: pd.DataFrame) -> dict[str, Any]:
    """The summary figures of one router: :func:`summarise` plus failure classes, tokens, latency."""
    figures = summarise(frame)
    total = len(rows)
    visible = int((rows["failure_class"] == "visible").sum())
    figures["visible_failure_rate"] = visible / total if total else math.nan
    figures["prompt_tokens_per_request"] = float(rows["prompt_tokens"].mean()) if total else math.nan
    figures["output_tokens_per_request"] = float(rows["output_tokens"].mean()) if total else math.nan
    figures["latency_p50_ms"] = float(rows["latency_ms"].median()) if total else math.nan  # skips NaN
    return figures


def compare_routers(routers: Mapping[str, Router | ItemRouter], items: Sequence[TaskItem], *,
                    on_item: Callable[[str], None] | None = None) -> RouterComparison:
    """Score every router on every item.

    Args:
        routers: Display name -> router. A router with ``route_item`` (the replay router) is
            joined to items by id; any other is asked by question text.
        items: The task items (``load_tasks``), e.g. the router tasks and the red-team set.
        on_item: Called with the router's name after each item it routed (a progress bar:
            ``len(routers) * len(items)`` calls in all).

    Returns:
        The per-item rows and the per-router summary.
    """
    items = list(items)
    all_rows = []
    summary: dict[str, dict[str, Any]] = {}
    for name, router in routers.items():
        frame = _evaluate(router, items, name, on_item)
        rows = _rows(name, frame) if len(frame) else pd.DataFrame(columns=list(ROW_COLUMNS))
        all_rows.append(rows)
        summary[name] = summary_figures(frame, rows) if len(frame) else {"items": 0}
    table = (pd.concat(all_rows, ignore_index=True) if all_rows
             else pd.DataFrame(columns=list(ROW_COLUMNS)))
    return RouterComparison(items=table, summary=pd.DataFrame.from_dict(summary, orient="index"))


def paired_outcomes(comparison: RouterComparison | pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Items both routers saw, with columns ``correct_a``/``correct_b`` and each error, by id.

    This is the one place where two routers' outcomes are paired: every McNemar test in the
    workbench (the CLI, the demo, the report, the router panel, the notebooks) reads its pairs
    here, through :func:`compare_pair`. ``comparison`` may also be a router run's rows.
    """
    rows = comparison.items if isinstance(comparison, RouterComparison) else comparison
    keep = [c for c in ("id", "lang", "split", "kind", "question", "correct", "error")
            if c in rows.columns]
    left = rows[rows["router"] == a][keep]
    right = rows[rows["router"] == b][[c for c in ("id", "correct", "error") if c in rows.columns]]
    if left.empty and a not in set(rows["router"]):
        raise KeyError(f"router {a!r} is not in the comparison")
    if right.empty and b not in set(rows["router"]):
        raise KeyError(f"router {b!r} is not in the comparison")
    return left.merge(right, on="id", suffixes=("_a", "_b"))


def disagreements(comparison: RouterComparison | pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """The items where exactly one of routers ``a`` and ``b`` is right (the discordant pairs)."""
    paired = paired_outcomes(comparison, a, b)
    return paired[paired["correct_a"] != paired["correct_b"]].reset_index(drop=True)


def compare_pair(comparison: RouterComparison | pd.DataFrame, a: str, b: str) -> McNemarResult:
    """:func:`mcnemar` on the items routers ``a`` and ``b`` share (see :func:`paired_outcomes`)."""
    paired = paired_outcomes(comparison, a, b)
    return mcnemar(list(paired["correct_a"]), list(paired["correct_b"]))
