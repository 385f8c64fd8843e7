"""The replay router: decisions produced elsewhere (a real model on another machine), read back here.

A replay file is JSON Lines, one object a line::

    {"id": "rt-u-001", "decision": {...RouterDecision.to_dict()...}, "raw_output": "...",
     "prompt_tokens": 812, "output_tokens": 23, "latency_ms": 140.5}

Decisions are joined to task items by ``id``. A task item with no line in the file gets a
``parse_failure`` decision (the router said nothing usable about it), never a refusal, so a
missing line can never pass for a careful refusal. An optional ``question`` field lets
:meth:`ReplayRouter.route` find a line by question text when no task item is at hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError
from workbench.refusal import Refusal
from workbench.registry import router
from workbench.routing._records import RouterDecision, RouterDecisionError, Source
from workbench.routing._score import PARSE_FAILURE_CODE, TaskItem


class ReplayFileError(WorkbenchError, ValueError):
    """A replay file that cannot be read: bad JSON, a missing field, a bad decision, a repeated id."""


@dataclass(frozen=True)
class ReplayRecord:
    """One line of a replay file."""

    id: str
    """The task item id the decision answers."""
    decision: RouterDecision
    """The decision, with the raw output and token counts of the line folded in."""
    latency_ms: float | None = None
    """The latency measured where the decision was produced, if recorded."""
    question: str | None = None
    """The question text, if the file carries it (used by :meth:`ReplayRouter.route`)."""


def _number(row: Mapping[str, Any], key: str, where: str) -> float | None:
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ReplayFileError(f"{where}: {key!r} must be a number, got {value!r}")
    return float(value)


def _parse_line(row: Any, where: str) -> ReplayRecord:
    if not isinstance(row, dict):
        raise ReplayFileError(f"{where}: expected a JSON object")
    for key in ("id", "decision"):
        if key not in row:
            raise ReplayFileError(f"{where}: missing field {key!r}")
    data = row["decision"]
    if not isinstance(data, dict):
        raise ReplayFileError(f"{where}: 'decision' must be an object")
    prompt = _number(row, "prompt_tokens", where)
    output = _number(row, "output_tokens", where)
    merged = dict(data)
    if row.get("raw_output") is not None:
        merged["raw_output"] = str(row["raw_output"])
    if prompt is not None:
        merged["prompt_tokens"] = int(prompt)
    if output is not None:
        merged["output_tokens"] = int(output)
    try:
        decision = RouterDecision.from_dict(merged)
    except (RouterDecisionError, KeyError, TypeError, ValueError) as exc:
        raise ReplayFileError(f"{where}: bad decision: {exc}") from None
    question = row.get("question")
    return ReplayRecord(id=str(row["id"]), decision=decision,
                        latency_ms=_number(row, "latency_ms", where),
                        question=str(question) if question is not None else None)


def load_replay(path: str | Path) -> dict[str, ReplayRecord]:
    """Read a replay file into ``id -> record``; any bad line raises :class:`ReplayFileError`."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReplayFileError(f"cannot read replay file {file}: {exc.strerror or exc}") from None
    records: dict[str, ReplayRecord] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{file}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayFileError(f"{where}: not JSON ({exc.msg})") from None
        record = _parse_line(row, where)
        if record.id in records:
            raise ReplayFileError(f"{where}: id {record.id!r} appears twice")
        records[record.id] = record
    return records


def parse_failure_decision(why: str) -> RouterDecision:
    """The decision recorded when a router gave nothing usable (scored ``parse_failure``)."""
    refusal = Refusal(code=PARSE_FAILURE_CODE, area="replay file", text=why)
    return RouterDecision(source=Source.REFUSE, refusal=refusal)


class ReplayRouter:
    """Replays decisions from a replay file, joined to task items by id.

    Args:
        path: The replay file (JSON Lines, see the module docstring).
        items: Task items whose question text lets :meth:`route` find a line by text when the
            file itself carries no ``question`` field.
    """

    def __init__(self, path: str | Path, items: Iterable[TaskItem] = ()) -> None:
        self.path = Path(path)
        self.records = load_replay(self.path)
        self._by_question: dict[str, str] = {}
        for item in items:
            self._by_question.setdefault(item.question, item.id)
        for record in self.records.values():
            if record.question is not None:
                self._by_question.setdefault(record.question, record.id)

    def record_for(self, item_id: str) -> ReplayRecord | None:
        """The replay line for ``item_id``, or ``None`` when the file has none."""
        return self.records.get(item_id)

    def route_item(self, item: TaskItem) -> RouterDecision:
        """The replayed decision for ``item`` (by id), or a ``parse_failure`` when it is missing."""
        record = self.records.get(item.id)
        if record is None:
            return parse_failure_decision(f"no line for id {item.id!r} in {self.path.name}")
        return record.decision

    def recorded_latency_ms(self, item: TaskItem) -> float | None:
        """The latency recorded for ``item`` where the decision was produced, if any."""
        record = self.records.get(item.id)
        return record.latency_ms if record is not None else None

    def route(self, question: str) -> RouterDecision:
        """The replayed decision for ``question``, found by its text (a fallback to ids)."""
        item_id = self._by_question.get(question)
        record = self.records.get(item_id) if item_id is not None else None
        if record is None:
            return parse_failure_decision(f"no line for this question in {self.path.name}")
        return record.decision


@router("replay")
def replay_router(path: str | Path, items: Iterable[TaskItem] = ()) -> ReplayRouter:
    """Build a :class:`ReplayRouter` over the replay file at ``path``."""
    return ReplayRouter(path, items)
