"""Parsing FTS text into the AST of :mod:`workbench.fts._ast`.

The grammar is ``spec.lark`` (package data), parsed with Lark's LALR parser; positions are
propagated so every node knows its line and column. Parsing never raises on bad text: it returns
either a :class:`~workbench.fts._ast.Spec` or an ``E_SYNTAX`` :class:`Problem`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedToken,
    VisitError,
)

from workbench.fts._ast import (
    Binary,
    Case,
    Compare,
    Define,
    Example,
    Input,
    Literal,
    MemberOf,
    Output,
    Premise,
    Property,
    Spec,
    TypeDecl,
    Unary,
    Var,
)
from workbench.fts._codes import GateCode
from workbench.fts._problems import Problem

LANGUAGE = "fts/1"
"""The language version recorded in certificates."""


def grammar_text() -> str:
    """The text of ``spec.lark`` as shipped with the package."""
    return resources.files("workbench.fts").joinpath("spec.lark").read_text(encoding="utf-8")


@cache
def _parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)


def normalise_text(text: str) -> str:
    """The text every digest is computed over: BOM removed, CRLF and lone CR turned into LF."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


class _BadLiteral(Exception):
    def __init__(self, token: Token, what: str) -> None:
        super().__init__(what)
        self.token = token
        self.what = what


def _pos(node: Any) -> tuple[int, int]:
    meta = getattr(node, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        return meta.line, meta.column
    line = getattr(node, "line", None)
    if line is not None:
        return int(line), int(node.column)
    return 0, 0


def _number(token: Token) -> Decimal:
    return Decimal(str(token).replace("_", ""))


def _label(token: Any) -> str:
    return str(token)[1:-1]


def _binary(op: str) -> Callable[[Any, Any, list[Any]], Binary]:
    """A transformer method building a :class:`Binary` with the operator ``op``."""

    def method(self: Any, meta: Any, children: list[Any]) -> Binary:
        return Binary(op, children[0], children[1], meta.line, meta.column)

    return method


@v_args(meta=True)
class _ToAst(Transformer):
    """Builds AST nodes bottom-up; lists of items are sorted into the spec's fields at the end."""

    # --- literals -------------------------------------------------------------------------
    def date_lit(self, meta, children):
        token = children[0]
        try:
            value = dt.date.fromisoformat(str(token))
        except ValueError:
            raise _BadLiteral(token, "date") from None
        return Literal("date", value, token.line, token.column)

    def percent_lit(self, meta, children):
        return Literal("percent", _number(children[0]), children[0].line, children[0].column)

    def money_lit(self, meta, children):
        return Literal("money", _number(children[0]), children[0].line, children[0].column)

    def number_lit(self, meta, children):
        return Literal("number", _number(children[0]), children[0].line, children[0].column)

    def yes_lit(self, meta, children):
        return Literal("bool", True, meta.line, meta.column)

    def no_lit(self, meta, children):
        return Literal("bool", False, meta.line, meta.column)

    def member(self, meta, children):
        return Literal("member", str(children[0]), children[0].line, children[0].column)

    def neg_percent(self, meta, children):
        return Literal("percent", -_number(children[0]), meta.line, meta.column)

    def neg_money(self, meta, children):
        return Literal("money", -_number(children[0]), meta.line, meta.column)

    def neg_number(self, meta, children):
        return Literal("number", -_number(children[0]), meta.line, meta.column)

    # --- expressions ----------------------------------------------------------------------
    def var(self, meta, children):
        return Var(str(children[0]), children[0].line, children[0].column)

    add = _binary("+")
    sub = _binary("-")
    mul = _binary("*")
    div = _binary("/")
    and_ = _binary("and")
    or_ = _binary("or")
    implies = _binary("implies")

    def neg(self, meta, children):
        return Unary("neg", children[0], meta.line, meta.column)

    def not_(self, meta, children):
        return Unary("not", children[0], meta.line, meta.column)

    def cmp_op(self, meta, children):
        return str(children[0])

    def compare(self, meta, children):
        left, op, right = children
        return Compare(op, left, right, meta.line, meta.column)

    def set(self, meta, children):
        return tuple(str(c) for c in children)

    def member_of(self, meta, children):
        return MemberOf(children[0], children[1], False, meta.line, meta.column)

    def not_member_of(self, meta, children):
        return MemberOf(children[0], children[1], True, meta.line, meta.column)

    # --- declarations ---------------------------------------------------------------------
    def qualified(self, meta, children):
        return ".".join(str(c) for c in children)

    def title(self, meta, children):
        return ("title", _label(children[0]))

    def version(self, meta, children):
        return ("version", int(children[0]))

    def establishes(self, meta, children):
        return ("establishes", children[0])

    def header(self, meta: Any, children: list[Any]) -> tuple[str, dict[str, Any]]:
        fields: dict[str, Any] = {"id": children[0]}
        for key, value in children[1:]:
            fields[key] = value
        return ("header", fields)

    def premise_version(self, meta, children):
        return int(children[0])

    def premise(self, meta, children):
        version = children[2] if len(children) > 2 else None
        return Premise(str(children[0]), children[1], version, meta.line, meta.column)

    def type_decl(self, meta, children):
        members = tuple(str(c) for c in children[1:])
        return TypeDecl(str(children[0]), members, meta.line, meta.column)

    def input_decl(self, meta, children):
        return Input(str(children[0]), str(children[1]), meta.line, meta.column)

    def define(self, meta, children):
        return Define(str(children[0]), str(children[1]), children[2], meta.line, meta.column)

    def because(self, meta, children):
        return tuple(str(c) for c in children)

    def when_case(self, meta, children):
        because = children[2] if len(children) > 2 else ()
        return ("case", children[0], children[1], because, meta.line, meta.column)

    def otherwise_case(self, meta, children):
        because = children[1] if len(children) > 1 else ()
        return ("case", None, children[0], because, meta.line, meta.column)

    def output(self, meta, children):
        cases = tuple(
            Case(i, guard, result, because, line, column)
            for i, (_, guard, result, because, line, column) in enumerate(children[2:], start=1)
        )
        return Output(str(children[0]), str(children[1]), cases, meta.line, meta.column)

    def binding(self, meta, children):
        return (str(children[0]), children[1])

    def bindings(self, meta, children):
        return tuple(children)

    def _example(self, meta, children, boundary: bool):
        label = _label(children[0]) if isinstance(children[0], Token) else ""
        rest = children[1:] if label or isinstance(children[0], Token) else children
        return Example(label, rest[0], rest[1], boundary, meta.line, meta.column)

    def example(self, meta, children):
        return self._example(meta, children, False)

    def boundary(self, meta, children):
        return self._example(meta, children, True)

    def property(self, meta, children):
        if isinstance(children[0], Token):
            return Property(_label(children[0]), children[1], meta.line, meta.column)
        return Property("", children[0], meta.line, meta.column)

    def start(self, meta, children):
        header = children[0][1]
        items = children[1:]

        def of(kind):
            return tuple(item for item in items if isinstance(item, kind))

        examples = []
        counts = {True: 0, False: 0}
        for ex in of(Example):
            counts[ex.boundary] += 1
            if not ex.label:
                word = "boundary" if ex.boundary else "example"
                ex = Example(f"{word} {counts[ex.boundary]}", ex.bindings, ex.expected,
                             ex.boundary, ex.line, ex.column)
            examples.append(ex)
        properties = tuple(
            p if p.label else Property(f"property {i}", p.expr, p.line, p.column)
            for i, p in enumerate(of(Property), start=1)
        )
        return Spec(
            id=header["id"],
            title=header.get("title", ""),
            version=header.get("version", 1),
            establishes=header.get("establishes"),
            premises=of(Premise),
            types=of(TypeDecl),
            inputs=of(Input),
            defines=of(Define),
            outputs=of(Output),
            examples=tuple(examples),
            properties=properties,
        )


def _expected(exc: LarkError) -> list[str]:
    expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or []
    return sorted(str(e) for e in expected)[:12]


def _char_at(text: str, exc: UnexpectedCharacters) -> str:
    """The character the lexer stopped at, or ``""`` past the end of ``text``."""
    pos: object = exc.pos_in_stream  # Lark declares it ``None``; the lexer sets the offset
    if not isinstance(pos, int):
        raise TypeError(f"the lexer error carries no offset: {pos!r}")
    return text[pos] if pos < len(text) else ""


def parse_tree(text: str) -> Tree:
    """The raw Lark tree of ``text`` (raises Lark's exceptions); the re-checker starts here."""
    return _parser().parse(normalise_text(text))


def parse(text: str) -> Spec | Problem:
    """Parse ``text`` into a :class:`Spec`, or return the ``E_SYNTAX`` problem that stops it."""
    text = normalise_text(text)
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as exc:
        return Problem(GateCode.E_SYNTAX, "unexpected_character",
                       {"char": _char_at(text, exc), "expected": _expected(exc)}, exc.line, exc.column)
    except UnexpectedEOF as exc:
        lines = text.split("\n")
        return Problem(GateCode.E_SYNTAX, "unexpected_end", {"expected": _expected(exc)},
                       len(lines), len(lines[-1]) + 1)
    except UnexpectedToken as exc:
        if exc.token.type == "$END":
            lines = text.split("\n")
            return Problem(GateCode.E_SYNTAX, "unexpected_end", {"expected": _expected(exc)},
                           len(lines), len(lines[-1]) + 1)
        return Problem(GateCode.E_SYNTAX, "unexpected_token",
                       {"token": str(exc.token), "expected": _expected(exc)},
                       exc.line, exc.column)
    except LarkError as exc:  # any other grammar-level failure still is a syntax verdict
        return Problem(GateCode.E_SYNTAX, "unexpected_token",
                       {"token": type(exc).__name__, "expected": []}, 0, 0)
    try:
        return _ToAst().transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, _BadLiteral):
            line, column = _pos(inner.token)
            return Problem(GateCode.E_SYNTAX, "bad_date", {"text": str(inner.token)}, line, column)
        raise


__all__ = ["LANGUAGE", "grammar_text", "normalise_text", "parse", "parse_tree"]
