"""The closed set of FTS gate codes, in the order the gate applies them.

A specification either passes all eight checks and receives a certificate, or it stops at the
first check that fails; the failure carries one of these codes together with where (line and
column, case, premise, example) and why.
"""

from __future__ import annotations

import enum


class GateCode(enum.StrEnum):
    """Why the FTS gate stopped a specification; the member order is the firing order."""

    E_SYNTAX = "E_SYNTAX"
    """The text does not parse under ``spec.lark``; ``numbers`` hold the line, the column and the
    tokens the grammar expected there."""
    E_STATIC = "E_STATIC"
    """Static semantics: an undeclared or duplicate name, a type or unit that does not agree, a
    case that cites no premise, an example that does not bind the declared inputs, a cycle among
    definitions."""
    E_PREMISE = "E_PREMISE"
    """A premise is absent from the library, has another version, may not serve as a premise
    (its status is ``proposed`` or ``rejected``), or its signature types a name differently from
    the specification."""
    E_EXAMPLE = "E_EXAMPLE"
    """An author's example gives another value than the one written, cannot be evaluated, or a
    declared property does not hold at some point of the input domain (the point is named)."""
    E_CERTIFICATE = "E_CERTIFICATE"
    """The certificate could not be generated: its record does not serialise canonically or does
    not read back to the same digest."""
    E_RECHECK = "E_RECHECK"
    """The independent re-checker, which parses, evaluates and digests everything anew, does not
    agree with the certificate; ``numbers`` name the first field that differs."""
    E_LIBRARY = "E_LIBRARY"
    """The morphism library failed its integrity check: an entry's stored digest, the library
    digest, a required review field, or a derived entry whose composition does not type-check."""
    E_UNFORESEEN = "E_UNFORESEEN"
    """Anything the other seven do not describe; the gate turns every unexpected exception into
    this code instead of raising."""


GATE_ORDER: tuple[GateCode, ...] = tuple(GateCode)
"""The firing order of the gate (the declaration order above)."""

__all__ = ["GATE_ORDER", "GateCode"]
