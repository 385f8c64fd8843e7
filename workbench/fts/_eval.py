"""Evaluation of a statically checked specification, and its finite input domain.

The conclusion is the result of the first case whose guard holds (``otherwise`` always holds).
Properties are checked over the *input domain*: for every boolean and enum input all values, and
for every date or numeric input the constants it is compared with, one step either side of each,
and a midpoint between neighbouring constants. Because guards only compare an input with
constants, these points meet every region the guards can tell apart. When the product of the
per-input values exceeds :data:`DOMAIN_CAP`, a seeded sample of that size is taken instead and
the seed is recorded in the certificate.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, DivisionByZero, InvalidOperation
from typing import Any

from workbench.fts._ast import Binary, Compare, Expr, Literal, MemberOf, Spec, Unary, Var, walk
from workbench.fts._values import ARITHMETIC, NUMERIC, Num, from_literal

DOMAIN_CAP = 4096
"""The most points a property or coverage check evaluates; above it a seeded sample is used."""
DOMAIN_SEED = 20260101
"""The seed of the sample (recorded in every certificate that used one)."""

_STEP = {"money": Decimal("0.01"), "number": Decimal(1), "percent": Decimal(1)}
_DEFAULTS: dict[str, tuple[Any, ...]] = {
    "date": (dt.date(2025, 6, 30), dt.date(2026, 6, 30)),
    "money": (Decimal(0), Decimal(1000), Decimal("123456.78")),
    "number": (Decimal(0), Decimal(1), Decimal(10)),
    "percent": (Decimal(0), Decimal(10), Decimal(22)),
}


class EvalError(Exception):
    """Evaluation could not finish; ``key`` names the message, ``params`` fill it."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Evaluator:
    """Evaluates one specification for one assignment of its inputs."""

    def __init__(self, spec: Spec, inputs: Mapping[str, Any]) -> None:
        self.spec = spec
        self.inputs = dict(inputs)
        self.defines = {d.name: d for d in spec.defines}
        self.enums = {t.name: t.members for t in spec.types}
        self.members = {m for t in spec.types for m in t.members}
        self.cache: dict[str, Any] = {}
        self.output: Any = None
        self.output_ready = False

    def lookup(self, name: str) -> Any:
        """The value of a variable (input, definition or, in properties, the output)."""
        if name in self.inputs:
            return self.inputs[name]
        if name in self.defines:
            if name not in self.cache:
                define = self.defines[name]
                self.cache[name] = self.result(define.expr, define.type_name)
            return self.cache[name]
        if self.output_ready and name == self.spec.output.name:
            return self.output
        if name in self.members:
            return name
        raise EvalError("missing_value", name=name)

    def value(self, expr: Expr) -> Any:
        """The value of ``expr``."""
        if isinstance(expr, Literal):
            return from_literal(expr.kind, expr.value)
        if isinstance(expr, Var):
            return self.lookup(expr.name)
        if isinstance(expr, Unary):
            inner = self.value(expr.operand)
            return (not inner) if expr.op == "not" else Num(inner.kind, -inner.value)
        if isinstance(expr, Binary):
            if expr.op == "and":
                return bool(self.value(expr.left)) and bool(self.value(expr.right))
            if expr.op == "or":
                return bool(self.value(expr.left)) or bool(self.value(expr.right))
            if expr.op == "implies":
                return (not self.value(expr.left)) or bool(self.value(expr.right))
            left, right = self.value(expr.left), self.value(expr.right)
            kind, fn = ARITHMETIC[(expr.op, left.kind, right.kind)]
            try:
                return Num(kind, fn(left.value, right.value))
            except (DivisionByZero, InvalidOperation, ZeroDivisionError):
                raise EvalError("division_by_zero", line=expr.line) from None
        if isinstance(expr, Compare):
            left = self._side(expr.left, expr.right)
            return _compare(expr.op, left, self._side(expr.right, expr.left))
        if isinstance(expr, MemberOf):
            inside = self.value(expr.operand) in expr.members
            return not inside if expr.negated else inside
        raise EvalError("unknown_node")  # pragma: no cover

    def _side(self, expr: Expr, other: Expr) -> Any:
        # A bare name compared with an enum-typed side is a member, even if a variable shares it.
        if isinstance(expr, Var) and expr.name in self.members:
            if expr.name not in self.inputs and expr.name not in self.defines:
                return expr.name
            if isinstance(other, Var) and self._enum_of(other.name) is not None:
                if expr.name in (self.enums.get(self._enum_of(other.name) or "", ())):
                    return expr.name
        return self.value(expr)

    def _enum_of(self, name: str) -> str | None:
        for i in self.spec.inputs:
            if i.name == name and i.type_name in self.enums:
                return i.type_name
        for d in self.spec.defines:
            if d.name == name and d.type_name in self.enums:
                return d.type_name
        return None

    def result(self, expr: Expr, type_name: str) -> Any:
        """The value of a case result or definition of ``type_name``; a listed member wins."""
        if isinstance(expr, Var) and expr.name in self.enums.get(type_name, ()):
            return expr.name
        return self.value(expr)

    def conclude(self) -> tuple[Any, int]:
        """The conclusion and the index of the case that gave it."""
        for case in self.spec.output.cases:
            if case.guard is None or self.value(case.guard):
                return self.result(case.result, self.spec.output.type_name), case.index
        raise EvalError("no_case_applies")

    def holds(self, expr: Expr) -> bool:
        """Whether a property holds for these inputs (the output is evaluated first)."""
        if not self.output_ready:
            self.output, _ = self.conclude()
            self.output_ready = True
        return bool(self.value(expr))


def _compare(op: str, left: Any, right: Any) -> bool:
    if isinstance(left, Num):
        left, right = left.value, right.value
    if op == "=":
        return left == right
    if op == "!=":
        return left != right
    if op == "<":
        return left < right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    return left >= right


def evaluate(spec: Spec, inputs: Mapping[str, Any]) -> tuple[Any, int]:
    """The conclusion of ``spec`` for ``inputs`` and the index of the case that gave it.

    An input left out of ``inputs`` is allowed when its type is closed (``bool`` or an enum) and
    the conclusion is the same value from the same case for every member of it
    (:func:`open_inputs`): a domestic sale's rate does not depend on export documents. Otherwise
    ``EvalError("missing_value")`` names the inputs left out.
    """
    found = _settled(spec, inputs)
    if found is None or len(found) != 1:
        raise EvalError("missing_value", name=", ".join(i.name for i in spec.inputs if i.name not in inputs))
    return found[0]


def open_inputs(spec: Spec, inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """The inputs absent from ``inputs`` that the conclusion depends on, in declaration order.

    Empty when every absent input is of a closed type and each assignment of the absent ones
    gives the same value from the same case, so the conclusion and its cited premises are settled
    by ``inputs`` alone. A number or date input that is absent always matters.
    """
    found = _settled(spec, inputs)
    return () if found is not None and len(found) == 1 else tuple(
        i.name for i in spec.inputs if i.name not in inputs)


def _settled(spec: Spec, inputs: Mapping[str, Any]) -> list[tuple[Any, int]] | None:
    """The distinct (conclusion, case) over every member of each absent input.

    None when an absent input is not of a closed type (a number, a date): its values cannot all be
    tried.
    """
    enums = {t.name: t.members for t in spec.types}
    absent = [i for i in spec.inputs if i.name not in inputs]
    if any(i.type_name != "bool" and i.type_name not in enums for i in absent):
        return None
    members = [(False, True) if i.type_name == "bool" else enums[i.type_name] for i in absent]
    found: list[tuple[Any, int]] = []
    for combo in itertools.product(*members):
        filled = {i.name: value for i, value in zip(absent, combo, strict=True)}
        got = Evaluator(spec, {**inputs, **filled}).conclude()
        if got not in found:
            found.append(got)
    return found


def thresholds(
    spec: Spec, *, include_properties: bool = True
) -> dict[str, list[tuple[Any, Compare]]]:
    """Input name -> the literal constants it is directly compared with, and where."""
    inputs = {i.name for i in spec.inputs}
    exprs: list[Expr] = [d.expr for d in spec.defines]
    exprs += [c.guard for o in spec.outputs for c in o.cases if c.guard is not None]
    if include_properties:
        exprs += [p.expr for p in spec.properties]
    found: dict[str, list[tuple[Any, Compare]]] = {}
    for expr in exprs:
        for node in walk(expr):
            if not isinstance(node, Compare):
                continue
            for a, b in ((node.left, node.right), (node.right, node.left)):
                if isinstance(a, Var) and a.name in inputs and isinstance(b, Literal):
                    if b.kind in ("date", *NUMERIC):
                        found.setdefault(a.name, []).append((b.value, node))
    return found


@dataclass(frozen=True)
class Domain:
    """The finite input domain of a specification (or a seeded sample of it)."""

    names: tuple[str, ...]
    """Input names in declaration order."""
    values: tuple[tuple[Any, ...], ...]
    """For each input, its candidate values in a fixed order."""
    size: int
    """The size of the full product."""
    sampled: bool
    """Whether :meth:`points` yields a sample instead of the full product."""
    seed: int | None
    """The sample's seed (``None`` when the full product is used)."""

    def points(self) -> list[dict[str, Any]]:
        """The assignments to evaluate, in a fixed order."""
        if not self.sampled:
            return [dict(zip(self.names, combo, strict=True))
                    for combo in itertools.product(*self.values)]
        rng = random.Random(self.seed)
        out = []
        for index in sorted(rng.sample(range(self.size), DOMAIN_CAP)):
            combo = []
            for vals in reversed(self.values):
                index, pos = divmod(index, len(vals))
                combo.append(vals[pos])
            out.append(dict(zip(self.names, reversed(combo), strict=True)))
        return out


def _around(type_name: str, constants: list[Any]) -> tuple[Any, ...]:
    if type_name == "date":
        step: Any = dt.timedelta(days=1)
    else:
        step = _STEP[type_name]
    points = set()
    ordered = sorted(set(constants))
    for c in ordered:
        for p in (c - step, c, c + step):
            points.add(p)
    for a, b in itertools.pairwise(ordered):
        if type_name == "date":
            points.add(a + (b - a) // 2)
        else:
            points.add((a + b) / 2)
    return tuple(sorted(points))


def domain(spec: Spec) -> Domain:
    """The input domain of ``spec`` (see the module docstring)."""
    enums = {t.name: t.members for t in spec.types}
    consts = thresholds(spec)
    for ex in spec.examples:
        for name, lit in ex.bindings:
            if lit.kind in ("date", *NUMERIC):
                consts.setdefault(name, []).append((lit.value, None))  # type: ignore[arg-type]
    names, values = [], []
    for i in spec.inputs:
        names.append(i.name)
        if i.type_name == "bool":
            vals: tuple[Any, ...] = (False, True)
        elif i.type_name in enums:
            vals = enums[i.type_name]
        else:
            cs = [c for c, _ in consts.get(i.name, [])]
            raw = _around(i.type_name, cs) if cs else _DEFAULTS[i.type_name]
            vals = raw if i.type_name == "date" else tuple(Num(i.type_name, v) for v in raw)
        values.append(vals)
    size = 1
    for vals in values:
        size *= len(vals)
    sampled = size > DOMAIN_CAP
    return Domain(tuple(names), tuple(values), size, sampled, DOMAIN_SEED if sampled else None)


__all__ = ["DOMAIN_CAP", "DOMAIN_SEED", "Domain", "EvalError", "Evaluator", "domain", "evaluate",
           "thresholds"]
