"""The closed set of utility refusal codes.

A utility call either returns a result or one of these codes, each carried by a
:class:`workbench.answers.Refusal` whose ``numbers`` name the argument (and, for a limit, the
limit and its numbers) concerned.
"""

from __future__ import annotations

import enum


class UtilityCode(enum.StrEnum):
    """Why a utility call was refused; no other outcome of a call exists besides a result."""

    UNKNOWN_UTILITY = "UNKNOWN_UTILITY"
    """The id names no utility in the catalog; ``numbers`` hold the id and the category's ids."""
    MISSING_ARGUMENT = "MISSING_ARGUMENT"
    """A required argument has no value (or the question holds none for it); no call is made."""
    ARGUMENT_IS_CIRCUMSTANCE = "ARGUMENT_IS_CIRCUMSTANCE"
    """A ``data`` argument is bound to a phrase of the question that names only a circumstance
    (a charset, a time zone, a format, a unit), not to data the question carries."""
    BAD_ARGUMENT = "BAD_ARGUMENT"
    """An argument has the wrong type or a value outside the utility's domain; ``numbers`` say
    which argument and what was expected."""
    AMBIGUOUS_ARGUMENT = "AMBIGUOUS_ARGUMENT"
    """Two candidate values of one argument scored too close for the binder to choose; ``numbers``
    name the argument and both values, so the person asking can say which is meant."""
    LIMIT_EXCEEDED = "LIMIT_EXCEEDED"
    """A declared limit stopped the call: an argument's size (checked before any call), the
    call's time, or a bound of the utility's own (a YAML expansion, a count of matches);
    ``numbers`` name the limit, the value measured and the bound."""


class Role(enum.StrEnum):
    """What an argument is to its utility; the circumstance-versus-data rule reads it."""

    DATA = "data"
    """What the utility computes on: the text to hash, the date to shift."""
    CIRCUMSTANCE = "circumstance"
    """How it computes: the charset, the time zone, the base, the unit."""


__all__ = ["Role", "UtilityCode"]
