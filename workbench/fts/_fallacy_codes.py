"""The closed set of structural fallacy codes, each an algorithm over a parsed specification.

A detected fallacy does not say that the thesis of a specification is untrue. It says that the
specification, as written, does not show its thesis: the thesis goes back to "not shown".
The catalog ``corpus/fallacies.yaml`` maps its mechanically checkable items onto these codes.
"""

from __future__ import annotations

import enum


class FallacyCode(enum.StrEnum):
    """A structural defect found by the detector; ``numbers`` locate it and name the witness."""

    F_CIRCULAR = "F_CIRCULAR"
    """A circle in the foundations: a definition that depends on itself through other
    definitions, or a thesis (``establishes``) that appears among its own premises or among the
    entries its derived premises are composed of."""
    F_CONVERSE = "F_CONVERSE"
    """An implication applied in reverse: a case cites a premise whose conclusion it takes as a
    condition (the premise's ``yields`` name occurs in the guard) to reach one of the premise's
    conditions (the specification's output is among the premise's ``given`` names)."""
    F_UNCOVERED_BRANCH = "F_UNCOVERED_BRANCH"
    """The cases, with no ``otherwise``, leave a point of the input domain without a conclusion;
    the domain is the exact partition induced by the constants the guards compare against."""
    F_BOUNDARY = "F_BOUNDARY"
    """A guard compares an input with a threshold, and no example or ``boundary`` declaration
    puts that input exactly at the threshold, so the behaviour on the boundary is not declared."""
    F_NAME_CONFLATION = "F_NAME_CONFLATION"
    """One name stands for a thing (an enum member, a non-boolean input or output) and for a
    statement about a thing (a boolean input or definition, a premise alias, a property)."""
    F_OVERLAPPING_CASES = "F_OVERLAPPING_CASES"
    """Two cases hold at the same point of the domain and give different conclusions there, so
    the conclusion depends on the order the cases happen to be written in."""
    F_VACUOUS_PROPERTY = "F_VACUOUS_PROPERTY"
    """A declared property shows nothing about the conclusion: its ``implies`` condition holds at
    no point of the domain, or it never mentions the output at all."""
    F_DANGLING_PREMISE = "F_DANGLING_PREMISE"
    """A declared premise supports no case: the certificate would list a foundation that the
    conclusion never rests on."""


FALLACY_ORDER: tuple[FallacyCode, ...] = tuple(FallacyCode)
"""The order in which the detector reports codes (the declaration order above)."""

__all__ = ["FALLACY_ORDER", "FallacyCode"]
