"""The abstract syntax of FTS: frozen dataclasses built from the parse tree of ``spec.lark``.

Every node keeps the line and column where it starts, so each refusal can say where. Values of
literals are already typed: ``datetime.date`` for dates, ``Decimal`` for numbers, money and
percent (a percent keeps its number: ``22 %`` is ``Decimal(22)``), ``bool`` for ``yes``/``no``
and ``str`` for an enum member, whose type is resolved by the static check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BUILTIN_TYPES: tuple[str, ...] = ("bool", "date", "money", "number", "percent")
"""The types every specification may use; enum types are declared with ``type``."""

UNITS: dict[str, str] = {"money": "rub", "percent": "%", "number": "", "date": "", "bool": ""}
"""The unit each built-in type is written with; two values compare only in the same unit."""


@dataclass(frozen=True)
class Literal:
    """A literal value: a date, a number, an amount of money, a percent, yes/no or a member."""

    kind: str
    """``date``, ``number``, ``money``, ``percent``, ``bool`` or ``member``."""
    value: Any
    """The typed value (see the module docstring)."""
    line: int = 0
    """Line of the first character (1-based)."""
    column: int = 0
    """Column of the first character (1-based)."""


@dataclass(frozen=True)
class Var:
    """A reference to an input, a definition or (in properties) the output."""

    name: str
    """The referenced name."""
    line: int = 0
    """Line of the name."""
    column: int = 0
    """Column of the name."""


@dataclass(frozen=True)
class Unary:
    """``not x`` or ``-x``."""

    op: str
    """``not`` or ``neg``."""
    operand: Expr
    """The operand."""
    line: int = 0
    """Line of the operator."""
    column: int = 0
    """Column of the operator."""


@dataclass(frozen=True)
class Binary:
    """An arithmetic or logical operation of two operands."""

    op: str
    """``+``, ``-``, ``*``, ``/``, ``and``, ``or`` or ``implies``."""
    left: Expr
    """The left operand."""
    right: Expr
    """The right operand."""
    line: int = 0
    """Line of the left operand."""
    column: int = 0
    """Column of the left operand."""


@dataclass(frozen=True)
class Compare:
    """A comparison ``left op right``; a threshold when one side is a literal."""

    op: str
    """``=``, ``!=``, ``<``, ``<=``, ``>`` or ``>=``."""
    left: Expr
    """The left side."""
    right: Expr
    """The right side."""
    line: int = 0
    """Line of the left side."""
    column: int = 0
    """Column of the left side."""


@dataclass(frozen=True)
class MemberOf:
    """``x in {a, b}`` or ``x not in {a, b}`` over an enum."""

    operand: Expr
    """The tested value, of an enum type."""
    members: tuple[str, ...]
    """The listed members."""
    negated: bool
    """``True`` for ``not in``."""
    line: int = 0
    """Line of the operand."""
    column: int = 0
    """Column of the operand."""


Expr = Literal | Var | Unary | Binary | Compare | MemberOf
"""Any expression node."""


@dataclass(frozen=True)
class Premise:
    """``premise alias = library.id [@ version]``: a named reference into the morphism library."""

    alias: str
    """The short name cases cite after ``because``."""
    ref: str
    """The library entry id."""
    version: int | None
    """The version the author relied on; ``None`` accepts the library's current one."""
    line: int = 0
    """Line of the declaration."""
    column: int = 0
    """Column of the declaration."""


@dataclass(frozen=True)
class TypeDecl:
    """``type name = {a, b, c}``: an enumeration."""

    name: str
    """The type name (the library's signatures use the same names)."""
    members: tuple[str, ...]
    """The members in written order."""
    line: int = 0
    """Line of the declaration."""
    column: int = 0
    """Column of the declaration."""


@dataclass(frozen=True)
class Input:
    """``input name : type``: a fact the caller supplies."""

    name: str
    """The input's name."""
    type_name: str
    """A built-in type or a declared enum."""
    line: int = 0
    """Line of the declaration."""
    column: int = 0
    """Column of the declaration."""


@dataclass(frozen=True)
class Define:
    """``define name : type = expr``: a named intermediate fact computed from inputs."""

    name: str
    """The definition's name."""
    type_name: str
    """Its declared type."""
    expr: Expr
    """How it is computed."""
    line: int = 0
    """Line of the declaration."""
    column: int = 0
    """Column of the declaration."""


@dataclass(frozen=True)
class Case:
    """One case of the conclusion: ``when guard -> result because p, q`` or ``otherwise``."""

    index: int
    """Position among the output's cases, from 1."""
    guard: Expr | None
    """The condition; ``None`` for ``otherwise``."""
    result: Expr
    """The conclusion in this case."""
    because: tuple[str, ...]
    """Premise aliases this case rests on."""
    line: int = 0
    """Line of ``when`` or ``otherwise``."""
    column: int = 0
    """Column of ``when`` or ``otherwise``."""


@dataclass(frozen=True)
class Output:
    """``output name : type`` followed by its cases."""

    name: str
    """The concluded fact."""
    type_name: str
    """Its type."""
    cases: tuple[Case, ...]
    """The cases in written order; the first that holds gives the conclusion."""
    line: int = 0
    """Line of the declaration."""
    column: int = 0
    """Column of the declaration."""


@dataclass(frozen=True)
class Example:
    """An author's example (``example``) or a declared boundary behaviour (``boundary``)."""

    label: str
    """The author's label, or ``example N`` / ``boundary N``."""
    bindings: tuple[tuple[str, Literal], ...]
    """Input name and literal value, in written order."""
    expected: Literal
    """The conclusion the author expects."""
    boundary: bool
    """``True`` when written as ``boundary``."""
    line: int = 0
    """Line of the keyword."""
    column: int = 0
    """Column of the keyword."""


@dataclass(frozen=True)
class Property:
    """``property "label": expr``: a statement that must hold over the whole input domain."""

    label: str
    """The author's label, or ``property N``."""
    expr: Expr
    """A boolean expression over inputs, definitions and the output."""
    line: int = 0
    """Line of the keyword."""
    column: int = 0
    """Column of the keyword."""


@dataclass(frozen=True)
class Spec:
    """A parsed specification."""

    id: str
    """The dotted id after ``spec``."""
    title: str
    """The quoted title (may be empty)."""
    version: int
    """``version N`` (1 when absent)."""
    establishes: str | None
    """The library id this specification argues for, if it names one."""
    premises: tuple[Premise, ...]
    """Premise declarations."""
    types: tuple[TypeDecl, ...]
    """Enum declarations."""
    inputs: tuple[Input, ...]
    """Input declarations."""
    defines: tuple[Define, ...]
    """Definitions."""
    outputs: tuple[Output, ...]
    """Output declarations (the static check requires exactly one)."""
    examples: tuple[Example, ...]
    """Examples and boundary declarations in written order."""
    properties: tuple[Property, ...]
    """Declared properties."""

    @property
    def output(self) -> Output:
        """The single output (call only after the static check has passed)."""
        return self.outputs[0]


def walk(expr: Expr):  # noqa: ANN201 - a generator of nodes
    """Every node of ``expr``, the root first."""
    yield expr
    if isinstance(expr, Unary):
        yield from walk(expr.operand)
    elif isinstance(expr, Binary | Compare):
        yield from walk(expr.left)
        yield from walk(expr.right)
    elif isinstance(expr, MemberOf):
        yield from walk(expr.operand)


def names_in(expr: Expr) -> set[str]:
    """The variable names ``expr`` refers to."""
    return {node.name for node in walk(expr) if isinstance(node, Var)}


__all__ = [
    "BUILTIN_TYPES",
    "UNITS",
    "Binary",
    "Case",
    "Compare",
    "Define",
    "Example",
    "Expr",
    "Input",
    "Literal",
    "MemberOf",
    "Output",
    "Premise",
    "Property",
    "Spec",
    "TypeDecl",
    "Unary",
    "Var",
    "names_in",
    "walk",
]
