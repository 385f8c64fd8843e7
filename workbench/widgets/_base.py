"""What every widget shares: JSON-safe state, the error type, and the state-holding base class.

A widget holds its inputs (what the user chose) and one ``state`` dict in synced traits. When an
input trait changes, from Python or from the front end, the widget calls its pure state function
and replaces ``state``; the front end redraws on ``change:state``. A bad input never raises
inside the trait machinery (where nobody would see it): the message goes to the ``error`` trait,
which the front end shows above the last good state.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import PurePath
from typing import Any, ClassVar, TypeVar

import anywidget
import numpy as np
import pandas as pd
import traitlets

from workbench.errors import WorkbenchError

T = TypeVar("T")

CACHE_SIZE = 256
"""A widget remembers at most this many intermediate results (then starts afresh)."""


class WidgetError(WorkbenchError):
    """A widget was given something it cannot show (the message says what it expected)."""


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: NaN and missing values become ``None``, NumPy scalars Python.

    Widget state travels as JSON to the browser, where ``NaN`` is not valid JSON; every state
    function passes its result through here so ``json.dumps(state, allow_nan=False)`` holds.
    """
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, PurePath):
        return value.as_posix()
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if value is pd.NA or value is pd.NaT:
        return None
    return str(value)


def cached(cache: dict[Hashable, Any] | None, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, remembered under ``key`` in ``cache`` (``None``: computed every time).

    A widget passes its own cache so a click recomputes only what the click changed (a new
    gate order does not change which gates would fire); the public state functions pass none.
    Cached values are shared between calls and must not be modified.
    """
    if cache is None:
        return compute()
    if key not in cache:
        if len(cache) >= CACHE_SIZE:
            cache.clear()
        cache[key] = compute()
    value: T = cache[key]
    return value


def records(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The rows of ``frame`` (optionally only ``columns``) as JSON-safe dicts."""
    part = frame if columns is None else frame.loc[:, list(columns)]
    return [jsonable(r) for r in part.to_dict(orient="records")]


def as_gate_run(run: Any) -> Any:
    """The gate run behind ``run``: what the analysis functions of ``workbench.gates`` accept.

    Accepts the ``(rows, from_cache)`` pair that ``evaluate_sets_cached`` returns, the rows
    DataFrame of ``evaluate_sets``, or a run record (with ``rows`` and ``manifest``).
    """
    if (isinstance(run, tuple) and len(run) == 2 and isinstance(run[0], pd.DataFrame)
            and isinstance(run[1], bool)):
        return run[0]
    rows = getattr(run, "rows", run)
    if not isinstance(rows, pd.DataFrame):
        raise WidgetError("expected a gate run: the result of evaluate_sets_cached (rows, cached), "
                          f"its rows DataFrame or a run record; got {type(run).__name__}")
    missing = [c for c in ("id", "set", "n_hits", "top_is_gold") if c not in rows.columns]
    if missing or not any(c.startswith("wf_") for c in rows.columns):
        raise WidgetError("the rows are not a gate run: they lack "
                          f"{', '.join(missing) or 'the wf_<gate> would-fire columns'}")
    return run


UNREAD_COLUMNS = ("verdicts", "refusal_text", "quote")
"""Per-question text a gate run keeps for reading, which no re-slice of it looks at."""


def slim_gate_run(run: Any) -> Any:
    """The gate run without :data:`UNREAD_COLUMNS`, for a widget that slices it on every click.

    The verdicts are a JSON text per question; copying them with every split filter would cost
    more than the whole re-slice. A run record keeps its manifest (order, rules, settings).
    """
    run = as_gate_run(run)
    rows = gate_rows(run)
    slim = rows.drop(columns=[c for c in UNREAD_COLUMNS if c in rows.columns])
    slim.attrs = dict(rows.attrs)
    if slim is rows or not hasattr(run, "rows"):
        return slim
    if dataclasses.is_dataclass(run) and not isinstance(run, type):
        return dataclasses.replace(run, rows=slim)
    return run


def gate_rows(run: Any) -> pd.DataFrame:
    """The rows DataFrame of a gate run accepted by :func:`as_gate_run`."""
    run = as_gate_run(run)
    rows: pd.DataFrame = getattr(run, "rows", run)
    return rows


# Recognised by the front-end code: the static HTML export sets it, a kernel never does, so the
# controls that need Python to recompute are shown disabled in a static page.
STATIC_FLAG = "_static_export"


class StateWidget(anywidget.AnyWidget):  # type: ignore[misc]
    """An anywidget whose ``state`` is recomputed by a pure function when an input trait changes.

    Subclasses name their input traits in ``_inputs`` and define ``_compute`` (no arguments,
    returns the state dict), usually a call of the widget's public state function.
    """

    state = traitlets.Dict().tag(sync=True)
    """What the front end draws: the result of the widget's state function."""
    error = traitlets.Unicode("").tag(sync=True)
    """The message of the last input that could not be applied ('' when none)."""

    _inputs: ClassVar[tuple[str, ...]] = ()
    _compute: Callable[[], dict[str, Any]]

    def __init__(self, **kwargs: Any) -> None:
        if not callable(getattr(self, "_compute", None)):
            raise TypeError(f"{type(self).__name__} defines no _compute(): a widget needs its state function")
        self._cache: dict[Hashable, Any] = {}
        super().__init__(**kwargs)
        self.state = self._compute()
        if self._inputs:
            self.observe(self._on_input, names=list(self._inputs))

    def _on_input(self, change: Mapping[str, Any]) -> None:
        self.recompute()

    def recompute(self) -> None:
        """Recompute ``state`` from the current inputs; a bad input sets ``error`` instead."""
        try:
            state = self._compute()
        except (WorkbenchError, ValueError, KeyError) as exc:
            self.error = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
            return
        self.error = ""
        self.state = state


__all__ = ["CACHE_SIZE", "STATIC_FLAG", "UNREAD_COLUMNS", "StateWidget", "WidgetError", "as_gate_run",
           "cached", "gate_rows", "jsonable", "records", "slim_gate_run"]
