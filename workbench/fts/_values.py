"""Runtime values of FTS and the one arithmetic table both the type checker and evaluator read.

A numeric value carries its unit (``number``, ``money``, ``percent``) so that ``money * percent``
can divide by one hundred; dates are ``datetime.date``, booleans ``bool``, enum members ``str``.
Rendering is canonical: it is what examples compare and what certificates store.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, NamedTuple

from workbench.fts._problems import FtsError


class Num(NamedTuple):
    """A number with its unit."""

    kind: str
    """``number``, ``money`` or ``percent``."""
    value: Decimal
    """The magnitude; a percent keeps its number (``22 %`` is ``22``)."""


NUMERIC: tuple[str, ...] = ("number", "money", "percent")
"""The types that carry a unit and take arithmetic."""
ORDERED: tuple[str, ...] = ("date", "number", "money", "percent")
"""The types that ``<``, ``<=``, ``>``, ``>=`` apply to."""

_HUNDRED = Decimal(100)

ARITHMETIC: dict[tuple[str, str, str], tuple[str, Callable[[Decimal, Decimal], Decimal]]] = {
    ("+", "number", "number"): ("number", lambda a, b: a + b),
    ("+", "money", "money"): ("money", lambda a, b: a + b),
    ("+", "percent", "percent"): ("percent", lambda a, b: a + b),
    ("-", "number", "number"): ("number", lambda a, b: a - b),
    ("-", "money", "money"): ("money", lambda a, b: a - b),
    ("-", "percent", "percent"): ("percent", lambda a, b: a - b),
    ("*", "number", "number"): ("number", lambda a, b: a * b),
    ("*", "money", "number"): ("money", lambda a, b: a * b),
    ("*", "number", "money"): ("money", lambda a, b: a * b),
    ("*", "money", "percent"): ("money", lambda a, b: a * b / _HUNDRED),
    ("*", "percent", "money"): ("money", lambda a, b: a * b / _HUNDRED),
    ("*", "percent", "number"): ("percent", lambda a, b: a * b),
    ("*", "number", "percent"): ("percent", lambda a, b: a * b),
    ("/", "number", "number"): ("number", lambda a, b: a / b),
    ("/", "money", "number"): ("money", lambda a, b: a / b),
    ("/", "money", "money"): ("number", lambda a, b: a / b),
    ("/", "percent", "number"): ("percent", lambda a, b: a / b),
    ("/", "percent", "percent"): ("number", lambda a, b: a / b),
}
"""``(operator, left unit, right unit) -> (result unit, function)``; a pair not listed is a unit
error. A percent is a share of one hundred when it multiplies money."""

_QUANTUM = {"money": Decimal("0.01"), "percent": Decimal("0.01"), "number": Decimal("0.000001")}


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text


def render(type_name: str, value: Any) -> str:
    """The canonical text of a value of ``type_name`` (an enum renders as its member)."""
    if isinstance(value, Num):
        try:
            q = value.value.quantize(_QUANTUM[value.kind], rounding=ROUND_HALF_UP)
        except InvalidOperation:
            return "overflow"
        if value.kind == "money":
            return f"{'0.00' if q == 0 else format(q, 'f')} rub"
        if value.kind == "percent":
            return f"{_plain(q)} %"
        return _plain(q)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def from_literal(kind: str, value: Any) -> Any:
    """The runtime value of an AST literal of ``kind``."""
    if kind in NUMERIC:
        return Num(kind, value)
    return value


def parse_value(type_name: str, text: str, members: tuple[str, ...] = ()) -> Any:
    """Read a command-line value (``2026-01-01``, ``yes``, ``100000``, ``22%``) of a type."""
    raw = text.strip()
    try:
        if type_name == "date":
            return dt.date.fromisoformat(raw)
        if type_name == "bool":
            if raw.lower() in ("yes", "да", "1", "true"):
                return True
            if raw.lower() in ("no", "нет", "0"):
                return False
            raise ValueError(raw)
        if type_name in NUMERIC:
            for suffix in ("rub", "₽", "%"):
                raw = raw.removesuffix(suffix).strip()
            return Num(type_name, Decimal(raw.replace("_", "").replace(" ", "")))
    except (ValueError, InvalidOperation):
        raise FtsError(f"{text!r} is not a value of type {type_name}") from None
    if raw in members:
        return raw
    raise FtsError(f"{text!r} is not a member of {type_name}; members: {', '.join(members)}")


__all__ = ["ARITHMETIC", "NUMERIC", "ORDERED", "Num", "from_literal", "parse_value", "render"]
