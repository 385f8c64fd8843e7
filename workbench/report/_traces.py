"""The questions a gate run got wrong, and the compact trace block each one links to.

A *miss* is an answerable question the gates did not answer from a gold fragment: an
**over-refusal** (refused, wherever its gold fragment ranked, first included) or an answer quoted
from another place. The report and notebook 09 list the same misses (:func:`gate_misses`); the
report gives each one a trace block with an anchor (:func:`trace_block`), so every wrong answer and
every over-refusal is one click from its trace.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from workbench.report._html import esc
from workbench.studies import answer_labels

OVER_REFUSED = "over-refused"
"""An answerable question that the gates refused."""
ANSWERED_ELSEWHERE = "answered from another place"
"""An answerable question answered with a quote whose fragment does not hold the gold span."""

TRACE_CHARS = 600
"""The most characters of a quote or a verdict's detail a trace block shows."""


def gate_misses(rows: pd.DataFrame) -> pd.DataFrame:
    """Every answerable question of a gate run not answered from a gold fragment.

    Args:
        rows: A gate run's rows (:func:`workbench.studies.evaluate_sets`).

    Returns:
        One row per miss, over-refusals first: ``id``, ``set``, ``split``, ``question``,
        ``miss`` (:data:`OVER_REFUSED` or :data:`ANSWERED_ELSEWHERE`), ``code`` (the refusal
        code, empty for an answer) and ``gold_rank`` (the gold fragment's rank among the
        candidates, missing when it was not among them). An over-refusal whose gold fragment
        ranked first is a miss like any other.
    """
    if rows.empty:
        return pd.DataFrame(columns=["id", "set", "split", "question", "miss", "code", "gold_rank"])
    answerable, gold_first = answer_labels(rows)
    if "answered" in rows.columns:
        answered = rows["answered"].fillna(False).astype(bool).to_numpy()
    else:  # a row without a refusal code was answered
        answered = rows["code"].isna().to_numpy() if "code" in rows.columns else ~answerable
    over = answerable & ~answered
    elsewhere = answerable & answered & ~gold_first
    picked = rows[over | elsewhere].copy()
    picked["miss"] = [OVER_REFUSED if o else ANSWERED_ELSEWHERE for o in over[over | elsewhere]]
    picked["code"] = picked["code"].fillna("") if "code" in picked.columns else ""
    for column in ("split", "question", "gold_rank"):
        if column not in picked.columns:
            picked[column] = None
    picked["_order"] = picked["miss"].ne(OVER_REFUSED)
    picked = picked.sort_values(["_order", "id"], kind="stable")
    return picked[["id", "set", "split", "question", "miss", "code", "gold_rank"]].reset_index(
        drop=True)


def clip(text: Any, limit: int = TRACE_CHARS) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (a missing value reads ``–``)."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return "–"
    value = str(text)
    return value if len(value) <= limit else value[:limit].rstrip() + " …"


def verdict_lines(verdicts: Any) -> str:
    """A row's gate verdicts (its JSON ``verdicts``), one short line each: gate, outcome, numbers.

    Numbers are rounded to 3 decimals and long details clipped, so a trace block stays small.
    """
    try:
        items = json.loads(verdicts) if isinstance(verdicts, str) else []
    except ValueError:
        return ""
    lines = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, Mapping):
            continue
        numbers = item.get("numbers") or {}
        shown = ", ".join(f"{k}={round(v, 3) if isinstance(v, float) else v}"
                          for k, v in numbers.items()
                          if isinstance(v, int | float | str) and not isinstance(v, bool))
        outcome = "passed" if item.get("passed") else f"fired {item.get('code')}"
        lines.append(f"{item.get('gate')}: {outcome}" + (f" ({clip(shown, 160)})" if shown else ""))
    return "\n".join(lines)


def trace_block(key: str, summary: str, fields: Sequence[tuple[str, str]]) -> str:
    """One question's trace, collapsed to ``summary`` (HTML), with the anchor ``key``.

    Args:
        key: The element id a link points at (``#key``).
        summary: The line shown closed (HTML, already escaped).
        fields: ``(label, text)`` shown when opened; each text escaped and clipped.
    """
    body = "".join(f"<dt>{esc(label)}</dt><dd><pre>{esc(clip(text))}</pre></dd>"
                   for label, text in fields)
    return (f'<details class="trace" id="{esc(key)}"><summary><a href="#{esc(key)}">#</a> '
            f"{summary}</summary><dl>{body}</dl></details>")


def trace_key(prefix: str, mode: Any, item_id: Any) -> str:
    """The anchor of one question's trace block (``prefix-mode-id``)."""
    return f"{prefix}-{mode}-{item_id}"


def over_refusal_traces(mode: Any, rows: pd.DataFrame,
                        gold: Mapping[str, Sequence[Any]] | None = None) -> tuple[int, str]:
    """Each over-refusal of a gate run as a trace block: how many, and the blocks (HTML).

    Args:
        mode: The rerank mode (part of each anchor).
        rows: The gate run's rows.
        gold: Gold spans by question id (``path [start:end] text`` is shown when given).
    """
    misses = gate_misses(rows)
    over = misses[misses["miss"] == OVER_REFUSED]
    if over.empty:
        return 0, ""
    by_id = rows.drop_duplicates("id").set_index("id")
    blocks = []
    for item in over.itertuples():
        row = by_id.loc[item.id]
        rank = item.gold_rank
        at = ("gold ranked first" if rank == 1 else
              f"gold at rank {int(rank)}" if isinstance(rank, int | float) and rank == rank else
              "gold not among the candidates")
        spans = "\n".join(f"{g.path} [{g.start}:{g.end}] {g.text}"
                          for g in (gold or {}).get(str(item.id), ()))
        summary = (f"<code>{esc(item.id)}</code> {esc(item.set)} · {esc(item.split)} · "
                   f"<b>{esc(item.code or 'refused')}</b> · {esc(at)} — {esc(clip(item.question, 160))}")
        blocks.append(trace_block(trace_key("over", mode, item.id), summary, [
            ("refusal", row.get("refusal_text")),
            (f"best fragment ({row.get('top_path')}, score {_score(row.get('top_score'))})",
             row.get("quote")),
            ("gold span", spans or "–"),
            ("gate verdicts", verdict_lines(row.get("verdicts")))]))
    return len(over), "".join(blocks)


def _score(value: Any) -> str:
    try:
        return f"{float(value):.3f}"
    except (TypeError, ValueError):
        return "–"


__all__ = ["ANSWERED_ELSEWHERE", "OVER_REFUSED", "TRACE_CHARS", "clip", "gate_misses",
           "over_refusal_traces", "trace_block", "trace_key", "verdict_lines"]
