"""What the learned binder reads of one (argument, candidate) pair: named features, all of them 0/1.

The words around the span and their lemmas (pymorphy3 for Russian, a lower-cased word with its
plural ``s`` cut for English), the noun that owns the number («брони 58213», "order 4471"),
whether those words are cue words of this argument or of another of the utility's arguments (the
content words of the catalog's argument descriptions, in both languages), the normaliser's kind,
the span's shape (digits, a year, a decimal, a percent or currency sign after it, glued into a
longer code such as «2025-0411-77»), its place among the other candidates, the argument's place
among the utility's arguments of its kind (r before g before b, a start before an end) read
against the candidate's place, whether the span stands next to a value another argument took, and
which (the unit converted from: «340 kg»), and, where asked, whether a reference binding chose it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from workbench.routing._binder_candidates import Candidate, weighed
from workbench.routing._normalise import DATE_ARGS
from workbench.utilities import Argument

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_PERCENT_AFTER = re.compile(r"\s*(?:%|percent|per cent|процент)", re.IGNORECASE)
_CURRENCY_AFTER = re.compile(r"\s*(?:₽|\$|€|руб|р\.|rub|usd|eur|долл|dollar|euro|евро)", re.IGNORECASE)
_NUMERO_BEFORE = re.compile(r"(?:№|#|\bNo\.?|\bн[оo]мер\w*)\s*$", re.IGNORECASE)
_QUOTES = "«»\"'`“”„"
_GLUE = "-/\\"
NEXT_TO = 2
"""The most characters (spaces) between a span and another argument's value for them to stand together."""
WINDOW = 3
"""How many words on each side of a span are read."""
STOP = frozenset({"the", "a", "an", "of", "to", "in", "on", "for", "and", "is", "it", "at", "by", "with",
                  "в", "на", "и", "по", "с", "за", "от", "до", "к", "у", "о", "из", "а", "не", "что"})


@functools.lru_cache(maxsize=1)
def _morph() -> object:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@functools.lru_cache(maxsize=65536)
def lemma(word: str) -> tuple[str, bool]:
    """The word's lemma and whether it reads as a noun (pymorphy3's best parse for Russian)."""
    low = word.lower()
    if _CYRILLIC.search(low):
        parse = _morph().parse(low)[0]  # type: ignore[attr-defined]
        return str(parse.normal_form), parse.tag.POS == "NOUN"
    if len(low) > 3 and low.endswith("s") and not low.endswith("ss"):
        low = low[:-1]
    return low, False


@functools.lru_cache(maxsize=4096)
def cue_words(en: str, ru: str) -> frozenset[str]:
    """The lemmas of an argument description's content words (both languages)."""
    return frozenset(lemma(w)[0] for w in _WORD.findall(f"{en} {ru}")
                     if len(w) > 2 and w.lower() not in STOP)


def _words(question: str, start: int, end: int) -> tuple[list[str], list[str]]:
    """The lemmas of up to :data:`WINDOW` words before ``start`` (nearest first) and after ``end``."""
    left = [m[0] for m in _WORD.finditer(question, max(0, start - 80), start)][-WINDOW:][::-1]
    right = [m[0] for m in _WORD.finditer(question, end, min(len(question), end + 80))][:WINDOW]
    return left, right


class Place(NamedTuple):
    """Where a weighed argument stands among the utility's weighed arguments of its kind."""

    rank: int
    """Its index among them (0 for the first)."""
    of: int
    """How many there are."""


def _family(arg: Argument) -> str:
    return "date" if arg.name in DATE_ARGS else arg.type


def argument_place(arg: Argument, arguments: Sequence[Argument]) -> Place:
    """``arg``'s place among the weighed arguments of ``arguments`` of its kind (dates, numbers, codes)."""
    kin = [a.name for a in arguments if weighed(a) and _family(a) == _family(arg)]
    return Place(kin.index(arg.name) if arg.name in kin else 0, max(len(kin), 1))


def _glued(question: str, start: int, end: int) -> bool:
    before = question[start - 1:start]
    after = question[end:end + 2]
    return bool(before) and (before.isalnum() or before in _GLUE and start > 1
                             and question[start - 2].isalnum()) or (
        len(after) == 2 and after[0] in _GLUE and after[1].isalnum())


def _bucket(n: int) -> str:
    return str(n) if n < 5 else "5-9" if n < 10 else "10+"


def pair_features(question: str, arg: Argument, others: Sequence[Argument], candidate: Candidate,
                  position: int, count: int, reference: bool | None = None, *,
                  place: Place | None = None, given: Mapping[str, tuple[int, int]] | None = None
                  ) -> list[str]:
    """The names of the features that hold for ``candidate`` as ``arg`` (each worth 1).

    ``others`` are the utility's other arguments; ``position`` and ``count`` place the candidate
    among the argument's candidates; ``reference`` says whether a reference binding chose it
    (``None`` leaves that feature out); ``place`` is the argument's :func:`argument_place`;
    ``given`` are the spans other arguments the binder does not weigh were bound to, by argument.
    """
    span = candidate.span
    text = question[span.start:span.end]
    kind = span.normaliser.split("-")[0]
    out = [f"kind={kind}", f"arg={arg.name}", f"arg={arg.name}|kind={kind}"]
    left, right = _words(question, span.start, span.end)
    own = cue_words(arg.en, arg.ru)
    other = frozenset().union(*(cue_words(o.en, o.ru) for o in others)) - own if others else frozenset()
    for side, words in (("L", left), ("R", right)):
        for i, word in enumerate(words):
            lem, noun = lemma(word)
            if i == 0:
                out += [f"{side}1={lem}", f"arg={arg.name}|{side}1={lem}"]
                if side == "L" and noun:
                    out += ["owner_noun", f"arg={arg.name}|owner_noun"]
            if lem in own:
                out.append(f"{side}{i + 1}_cue_own")
            elif i == 0 and len(lem) > 2 and lem not in STOP and lem not in other:
                out += [f"{side}1_plain", f"arg={arg.name}|{side}1_plain"]
            if lem in other:
                out.append(f"{side}{i + 1}_cue_other")
        if not words:
            out.append(f"{side}_edge")
    digits = sum(ch.isdigit() for ch in text)
    out.append(f"digits={_bucket(digits)}")
    if kind == "code":  # an identifier's length is its own: nine digits for a BIK, twenty for an account
        out.append(f"arg={arg.name}|digits={min(digits, 30)}")
    value = candidate.value
    if isinstance(value, int | float) and not isinstance(value, bool):
        if float(value).is_integer() and 1900 <= value <= 2100:
            out += ["year_like", f"arg={arg.name}|year_like"]
        if not float(value).is_integer():
            out.append("decimal")
    if _PERCENT_AFTER.match(question, span.end):
        out += ["percent_after", f"arg={arg.name}|percent_after"]
    if _CURRENCY_AFTER.match(question, span.end):
        out += ["currency_after", f"arg={arg.name}|currency_after"]
    if _NUMERO_BEFORE.search(question[max(0, span.start - 12):span.start]):
        out.append("numero_before")
    before = question[max(0, span.start - 1):span.start]
    if before and before in _QUOTES:
        out.append("quoted")
    if _glued(question, span.start, span.end):
        out += ["glued", f"arg={arg.name}|glued"]
    out.append("only" if count == 1 else "first" if position == 0 else
               "last" if position == count - 1 else "middle")
    out.append(f"count={_bucket(count)}")
    if place is not None and place.of > 1 and count > 1:
        slot = f"rank={place.rank}/{place.of}"
        out += [f"{slot}|pos={min(position, 3)}", f"{slot}|from_end={min(count - 1 - position, 3)}"]
    for name, (start, end) in (given or {}).items():
        gap = question[span.end:start] if start >= span.end else question[end:span.start]
        if len(gap) <= NEXT_TO and not gap.strip():  # whose value it stands by: from_unit, not to_unit
            out += [f"next_to={name}", f"arg={arg.name}|next_to={name}"]
    if reference is not None and reference:
        out.append("reference")
    return out


__all__ = ["WINDOW", "Place", "argument_place", "cue_words", "lemma", "pair_features"]
