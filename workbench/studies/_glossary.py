"""The terms the tables use, defined once for the report and the notebooks.

The report prints the whole list under its tables; a notebook shows the rows for the terms its
own tables use (``glossary("gate", "would-fire")``). Both read this one tuple, so a definition
cannot drift between the two.
"""

from __future__ import annotations

import pandas as pd

from workbench.errors import WorkbenchError
from workbench.studies._selection import DEFINITION, STRICT_DEFINITION

GLOSSARY: tuple[tuple[str, str], ...] = (
    ("verified answer (mode A)", "An answer shown as verified: its content comes from a quote, a "
     "utility or a specification, with evidence the invariant checker re-checks."),
    ("refusal", "The pipeline declines to answer and says why, with a code and numbers (the gate "
     "that fired, the best score against the threshold, what was missing)."),
    ("leakage", "A verified answer whose evidence does not hold: none, an answer although the "
     "source refused, or an invariant that fails against the files now. Target 0."),
    ("answered wrong (selection error)", DEFINITION),
    ("quote misses the gold span", STRICT_DEFINITION),
    ("gold span", "The passage of a course file, labelled by hand, that answers an answerable "
     "question."),
    ("split", "dev: the questions thresholds and rules are tuned on; test: the questions "
     "reported. Each table says which it counts."),
    ("gate", "One check a quote must pass, in order: gate0 (lexical support), threshold (the "
     "best score), disagreement (two close candidates from different files), relevance (a rule "
     "fired), verbatim (the quote is in the file as it is now)."),
    ("would-fire", "Whether a gate would refuse a question on its own, recorded for every gate "
     "even after an earlier one refused, so any order can be re-attributed."),
    ("drift", "A course file changed after indexing; a fragment no longer at its anchor cannot "
     "be quoted."),
    ("forgery (negative control)", "A genuine answer spoiled on purpose; caught when an "
     "invariant fails."),
    ("source accuracy", "The share of router items whose chosen source (utility, quote, spec or "
     "refuse) is the labelled one."),
    ("incorrect answer (router)", "A router item the router answered (did not refuse) but got "
     "wrong: the source, the utility or an argument differs from the label, or it answered an "
     "item labelled for refusal. The rate counts over every item."),
    ("visible failure (router)", "Every router error except a wrong argument value: an "
     "unparsable output, a wrong source or utility, a missing or extra argument, a refusal of "
     "an answerable item, an answer to an item labelled for refusal. The rate counts over every "
     "item."),
    ("verified wrong answer (router)", "The right utility or spec with a wrong argument value: it "
     "executes and passes every check, so it is counted apart from the visible failures; the "
     "rate counts over the items whose label has arguments."),
    ("conscious refusal / over-refusal (router)", "Conscious refusal: the share of red-team "
     "items the router refused, as it should. Over-refusal: the share of answerable items it "
     "refused."),
    ("McNemar's exact test", "Two routers judged on the same items: b items only the first got "
     "right, c only the second; p is the chance of a split at least as uneven if both were "
     "equally good."),
)
"""Each term a table of the report or a notebook uses, and what it means there."""


class GlossaryError(WorkbenchError):
    """A notebook asked for a term the glossary does not define."""


def glossary(*terms: str) -> pd.DataFrame:
    """The glossary as a table (term, meaning): every term, or those whose name holds a key.

    Args:
        *terms: Keys matched, case-insensitively, against the start of a term's words (``gate``
            gives "gate"; ``router`` gives every router term); none gives the whole glossary.

    Raises:
        GlossaryError: A key matches no term (the message lists the terms).
    """
    rows = list(GLOSSARY)
    if terms:
        chosen: list[tuple[str, str]] = []
        for key in terms:
            hits = [row for row in GLOSSARY if key.lower() in row[0].lower()]
            if not hits:
                known = "; ".join(term for term, _ in GLOSSARY)
                raise GlossaryError(f"no glossary term matches {key!r}; terms: {known}")
            chosen.extend(row for row in hits if row not in chosen)
        rows = chosen
    return pd.DataFrame(rows, columns=["term", "meaning"]).set_index("term")


__all__ = ["GLOSSARY", "GlossaryError", "glossary"]
