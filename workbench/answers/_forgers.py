"""The forgers: one small function per way of spoiling a genuine mode-A answer.

Each :class:`ForgeryKind` has a forger in :data:`FORGERS` that draws a genuine answer from
:class:`Pools` and spoils it, deterministically from a random generator. The negative control
(``_negative.py``) runs them by the thousand; :func:`forge` spoils one answer, for a notebook or a
test that wants to watch the checker catch a single forgery.

A forger returns the world the forgery must be checked in: :data:`SCRATCH` for most kinds, or
``scratch/proposed:<entry>`` (:func:`proposed_world`) when the spoiling is a premise of the
morphism library set back to ``proposed`` rather than a change to the answer. Building that world
is the caller's business; the forgers never touch a file.
"""

from __future__ import annotations

import enum
import hashlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from workbench.answers._evidence import (
    Answer,
    Mode,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    render_evidence,
)
from workbench.errors import WorkbenchError
from workbench.fts import digest_of
from workbench.utilities import load_catalog

DEFAULT_SEED = 20260101
DOWNGRADED_ENTRIES = 3


class ForgeryKind(enum.StrEnum):
    """How a genuine answer was spoiled; a closed set spanning the three sources."""

    QUOTE_CHAR_CHANGED = "quote_char_changed"
    """One letter or digit inside the quote replaced (the anchor digest recomputed to match)."""
    QUOTE_MOVED_TO_OTHER_FILE = "quote_moved_to_other_file"
    """The quote's anchor points at the same offsets of another course file."""
    QUOTE_OFFSETS_SHIFTED = "quote_offsets_shifted"
    """The anchor's offsets shifted by 1 to 20 code points, the text kept."""
    QUOTE_FROM_EDITED_FILE = "quote_from_edited_file"
    """A quote that was verbatim when the index was taken, from a file edited since."""
    QUOTE_INVENTED_TEXT = "quote_invented_text"
    """The quote's words shuffled into a sentence no file holds, anchored in a real file."""
    QUOTE_STALE_INDEX = "quote_stale_index"
    """The quote names an index other than the one loaded."""
    QUOTE_PATH_OUTSIDE = "quote_path_outside"
    """The anchor's path leaves the corpus root or names a file that does not exist."""
    UTILITY_INVENTED_ID = "utility_invented_id"
    """A utility id that the catalog does not hold."""
    UTILITY_DROPPED_ARGUMENT = "utility_dropped_argument"
    """One argument of the call removed, the result kept."""
    UTILITY_CHANGED_RESULT = "utility_changed_result"
    """The result changed, the call kept."""
    UTILITY_CHANGED_ARGUMENT = "utility_changed_argument"
    """One argument's value changed, the result kept."""
    UTILITY_STALE_CATALOG = "utility_stale_catalog"
    """The call names a catalog digest other than the loaded catalog's."""
    CERTIFICATE_TAMPERED_DIGEST = "certificate_tampered_digest"
    """The certificate digest replaced (in the evidence, the certificate, or both)."""
    CERTIFICATE_EDITED_RESEALED = "certificate_edited_resealed"
    """A certified field changed and the digest recomputed, so the seal itself holds."""
    PREMISE_DOWNGRADED = "premise_downgraded"
    """A premise of the certified specification set back to ``proposed`` in the library."""
    SPEC_CONCLUSION_CHANGED = "spec_conclusion_changed"
    """The stated conclusion changed, the certificate kept."""
    MODE_A_EVIDENCE_REMOVED = "mode_a_evidence_removed"
    """A mode-A answer with its evidence removed and its text kept."""
    ANSWER_TEXT_ALTERED = "answer_text_altered"
    """The evidence kept, the answer's text changed so it says more than the evidence."""
    VALID_EVIDENCE_OTHER_QUESTION = "valid_evidence_other_question"
    """Another question's genuine evidence, itself valid: the checker tests origin, not relevance,
    so this kind is expected to pass."""


KIND_SOURCE: dict[ForgeryKind, str] = {
    **{k: "quote" for k in ForgeryKind if k.value.startswith("quote_")},
    **{k: "utility" for k in ForgeryKind if k.value.startswith("utility_")},
    ForgeryKind.CERTIFICATE_TAMPERED_DIGEST: "spec",
    ForgeryKind.CERTIFICATE_EDITED_RESEALED: "spec",
    ForgeryKind.PREMISE_DOWNGRADED: "spec",
    ForgeryKind.SPEC_CONCLUSION_CHANGED: "spec",
    ForgeryKind.MODE_A_EVIDENCE_REMOVED: "answer",
    ForgeryKind.ANSWER_TEXT_ALTERED: "answer",
    ForgeryKind.VALID_EVIDENCE_OTHER_QUESTION: "answer",
}
"""The source each kind spoils (``answer`` kinds draw from all three)."""

SCRATCH = "scratch"
"""The world most kinds are checked in: the edited course copy and the shipped library."""

PROPOSED_PREFIX = f"{SCRATCH}/proposed:"
"""The name of a world whose library has one entry set back to ``proposed``, before the entry."""


def proposed_world(entry: str) -> str:
    """The name of the world whose library has ``entry`` set back to ``proposed``."""
    return PROPOSED_PREFIX + entry


class ForgeryError(WorkbenchError, ValueError):
    """A forgery was asked of an unknown kind, or of answers its kind cannot spoil."""


@dataclass(frozen=True)
class Forgery:
    """One spoiled answer and the world it is checked in."""

    kind: ForgeryKind
    """How it was spoiled."""
    number: int
    """Its position within its kind, from 0."""
    answer: Answer
    """The spoiled answer."""
    world: str = SCRATCH
    """``scratch``, or ``scratch/proposed:<entry>`` for a library with one entry downgraded."""
    detail: str = ""
    """What was changed, in a few words."""


@dataclass(frozen=True)
class Pools:
    """The genuine answers the forgeries are made from (each passes the checker)."""

    quotes: tuple[Answer, ...]
    """Quotes from files that were not edited."""
    edited_quotes: tuple[Answer, ...]
    """Quotes, verbatim at indexing time, from after the edit in the edited files."""
    utilities: tuple[Answer, ...]
    """Catalog examples."""
    specs: tuple[Answer, ...]
    """Conclusions of certified specifications for their examples."""
    paths: tuple[str, ...]
    """Every course file (a moved quote is anchored in another one)."""

    @classmethod
    def of(cls, answers: Iterable[Answer], paths: Iterable[str] = ()) -> Pools:
        """Pools of genuine mode-A answers, each sorted by the kind of its first evidence item.

        Args:
            answers: Genuine mode-A answers; none is taken for a quote of an edited file.
            paths: Course files a quote may be moved to, besides those the quotes name.

        Raises:
            ForgeryError: An answer is not in mode A or carries no evidence.
        """
        slots: dict[str, list[Answer]] = {"quote": [], "utility": [], "spec": []}
        for answer in answers:
            if answer.mode is not Mode.A or not answer.evidence:
                raise ForgeryError(f"only a mode-A answer with evidence can be spoiled; got a "
                                   f"mode-{answer.mode} answer with {len(answer.evidence)} item(s)")
            kind = getattr(answer.evidence[0], "kind", "")
            if kind not in slots:
                raise ForgeryError(f"evidence of unknown kind {kind!r} cannot be spoiled")
            slots[kind].append(answer)
        named = {e.anchor.path for a in slots["quote"] for e in a.evidence
                 if isinstance(e, QuoteEvidence)}
        return cls(tuple(slots["quote"]), (), tuple(slots["utility"]), tuple(slots["spec"]),
                   tuple(sorted(named | set(paths))))


class Spoiled(NamedTuple):
    """What one forger call returns."""

    answer: Answer
    """The spoiled answer."""
    world: str
    """The world to check it in."""
    detail: str
    """What was changed, in a few words."""


Forger = Callable[[random.Random, Pools], Spoiled]


# --- small deterministic mutations --------------------------------------------------------------

_LATIN = "abcdefghijklmnopqrstuvwxyz"
_CYRILLIC = "абвгдежзиклмнопрстуфхцчшщыэюя"


def change_char(text: str, rng: random.Random) -> str:
    """``text`` with one letter or digit replaced by another of the same script."""
    positions = [i for i, ch in enumerate(text) if ch.isalnum()]
    if not positions:
        return text + "x"
    i = rng.choice(positions)
    ch = text[i]
    pool = ("0123456789" if ch.isdigit() else _CYRILLIC if ch.lower() in _CYRILLIC
            else _LATIN)
    new = rng.choice([c for c in pool if c != ch.lower()])
    new = new.upper() if ch.isupper() else new
    return text[:i] + new + text[i + 1:]


def mutate_value(value: Any, rng: random.Random) -> Any:
    """A different JSON value of the same shape."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-7, -1, 1, 2, 10])
    if isinstance(value, float):
        return value + rng.choice([-1.5, 0.25, 1.0, 100.0])
    if isinstance(value, str):
        return change_char(value, rng) if value else "x"
    if isinstance(value, list):
        return value[:-1] if value else [0]
    if isinstance(value, dict):
        if not value:
            return {"x": 0}
        key = rng.choice(sorted(value))
        return {**value, key: mutate_value(value[key], rng)}
    return "x"


def sha256_text(text: str) -> str:
    """The hex sha256 of ``text`` as UTF-8 (what an anchor's digest holds)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def mode_a(*evidence: Any) -> Answer:
    """The mode-A answer whose text is the rendering of ``evidence``."""
    return Answer(Mode.A, render_evidence(evidence), tuple(evidence))


def _draw(rng: random.Random, pool: Sequence[Answer], kind: ForgeryKind, what: str) -> Answer:
    if not pool:
        raise ForgeryError(f"{kind} spoils {what}; the pools hold none")
    return rng.choice(pool)


def _one(answer: Answer) -> Any:
    return answer.evidence[0]


# --- quotes -------------------------------------------------------------------------------------

def _quote(rng: random.Random, pools: Pools, kind: ForgeryKind) -> QuoteEvidence:
    return _one(_draw(rng, pools.quotes, kind, "a quote"))


def _forge_quote_char(rng: random.Random, pools: Pools) -> Spoiled:
    q = _quote(rng, pools, ForgeryKind.QUOTE_CHAR_CHANGED)
    text = change_char(q.text, rng)
    forged = replace(q, text=text, anchor=replace(q.anchor, sha256=sha256_text(text)))
    return Spoiled(mode_a(forged), SCRATCH, "one character changed, anchor digest recomputed")


def _forge_quote_moved(rng: random.Random, pools: Pools) -> Spoiled:
    q = _quote(rng, pools, ForgeryKind.QUOTE_MOVED_TO_OTHER_FILE)
    others = [p for p in pools.paths if p != q.anchor.path]
    if not others:
        raise ForgeryError(f"{ForgeryKind.QUOTE_MOVED_TO_OTHER_FILE} needs a course file other "
                           f"than {q.anchor.path}; give the pools the course's paths")
    other = rng.choice(others)
    return Spoiled(mode_a(replace(q, anchor=replace(q.anchor, path=other))), SCRATCH,
                   f"anchor moved to {other}")


def _forge_quote_shifted(rng: random.Random, pools: Pools) -> Spoiled:
    q = _quote(rng, pools, ForgeryKind.QUOTE_OFFSETS_SHIFTED)
    k = rng.choice([k for k in range(-20, 21) if k and q.anchor.start + k >= 0])
    anchor = replace(q.anchor, start=q.anchor.start + k, end=q.anchor.end + k)
    return Spoiled(mode_a(replace(q, anchor=anchor)), SCRATCH, f"offsets shifted by {k}")


def _forge_quote_edited(rng: random.Random, pools: Pools) -> Spoiled:
    # the answer is left as it was: the file changed under it
    answer = _draw(rng, pools.edited_quotes, ForgeryKind.QUOTE_FROM_EDITED_FILE,
                   "a quote from a file edited after indexing")
    return Spoiled(answer, SCRATCH, f"{_one(answer).anchor.path} edited after indexing")


def _forge_quote_invented(rng: random.Random, pools: Pools) -> Spoiled:
    q = _quote(rng, pools, ForgeryKind.QUOTE_INVENTED_TEXT)
    words = q.text.split()
    shuffled = words[:]
    rng.shuffle(shuffled)
    if shuffled == words:
        shuffled.reverse()
    text = " ".join(shuffled)
    if text == q.text:
        text = change_char(text, rng)
    anchor = replace(q.anchor, end=q.anchor.start + len(text), sha256=sha256_text(text))
    return Spoiled(mode_a(QuoteEvidence(anchor, text, q.index_digest)), SCRATCH, "words shuffled")


def _forge_quote_stale_index(rng: random.Random, pools: Pools) -> Spoiled:
    q = _quote(rng, pools, ForgeryKind.QUOTE_STALE_INDEX)
    stale = sha256_text(f"another index {rng.random()}")
    return Spoiled(mode_a(replace(q, index_digest=stale)), SCRATCH, "index digest of another index")


def _forge_quote_outside(rng: random.Random, pools: Pools) -> Spoiled:
    q = _quote(rng, pools, ForgeryKind.QUOTE_PATH_OUTSIDE)
    path = rng.choice([f"../{q.anchor.path}", f"../../course/{q.anchor.path}",
                       "/etc/hostname", q.anchor.path.replace(".md", "_old.md")])
    return Spoiled(mode_a(replace(q, anchor=replace(q.anchor, path=path))), SCRATCH, f"path {path}")


# --- utilities ----------------------------------------------------------------------------------

def _utility(rng: random.Random, pools: Pools, kind: ForgeryKind) -> UtilityEvidence:
    return _one(_draw(rng, pools.utilities, kind, "a utility call"))


def _forge_utility_invented(rng: random.Random, pools: Pools) -> Spoiled:
    u = _utility(rng, pools, ForgeryKind.UTILITY_INVENTED_ID)
    category, name = u.utility.split(".", 1)
    known = load_catalog().schemas
    for candidate in (f"{category}.{name}_v2", f"{category}.fast_{name}", f"{name}.{category}",
                      f"{category}.{name[::-1]}", f"{category}.{name}2"):
        if candidate not in known:
            break
    choice = rng.choice([c for c in (f"{category}.{name}_v2", f"{category}.fast_{name}",
                                     f"{category}.{name}2") if c not in known] or [candidate])
    return Spoiled(mode_a(replace(u, utility=choice)), SCRATCH, f"id {choice}")


def _arguments(u: UtilityEvidence, kind: ForgeryKind) -> list[str]:
    if not u.args:
        raise ForgeryError(f"{kind} needs a utility call with arguments; {u.utility} has none")
    return sorted(u.args)


def _forge_utility_dropped(rng: random.Random, pools: Pools) -> Spoiled:
    u = _utility(rng, pools, ForgeryKind.UTILITY_DROPPED_ARGUMENT)
    key = rng.choice(_arguments(u, ForgeryKind.UTILITY_DROPPED_ARGUMENT))
    args = {k: v for k, v in u.args.items() if k != key}
    return Spoiled(mode_a(replace(u, args=args)), SCRATCH, f"argument {key} dropped")


def _forge_utility_result(rng: random.Random, pools: Pools) -> Spoiled:
    u = _utility(rng, pools, ForgeryKind.UTILITY_CHANGED_RESULT)
    return Spoiled(mode_a(replace(u, result=mutate_value(u.result, rng))), SCRATCH, "result changed")


def _forge_utility_argument(rng: random.Random, pools: Pools) -> Spoiled:
    u = _utility(rng, pools, ForgeryKind.UTILITY_CHANGED_ARGUMENT)
    key = rng.choice(_arguments(u, ForgeryKind.UTILITY_CHANGED_ARGUMENT))
    args = {**u.args, key: mutate_value(u.args[key], rng)}
    return Spoiled(mode_a(replace(u, args=args)), SCRATCH, f"argument {key} changed")


def _forge_utility_catalog(rng: random.Random, pools: Pools) -> Spoiled:
    u = _utility(rng, pools, ForgeryKind.UTILITY_STALE_CATALOG)
    stale = sha256_text(f"another catalog {rng.random()}")
    return Spoiled(mode_a(replace(u, catalog_digest=stale)), SCRATCH,
                   "catalog digest of another catalog")


# --- specification conclusions ------------------------------------------------------------------

def _spec(rng: random.Random, pools: Pools, kind: ForgeryKind) -> SpecEvidence:
    return _one(_draw(rng, pools.specs, kind, "a certified conclusion"))


def _forge_cert_digest(rng: random.Random, pools: Pools) -> Spoiled:
    e = _spec(rng, pools, ForgeryKind.CERTIFICATE_TAMPERED_DIGEST)
    fake = sha256_text(f"tampered {rng.random()}")
    where = rng.choice(["evidence", "certificate", "both"])
    certificate = dict(e.certificate)
    if where in ("certificate", "both"):
        certificate["digest"] = fake
    digest = fake if where in ("evidence", "both") else e.certificate_digest
    return Spoiled(mode_a(replace(e, certificate=certificate, certificate_digest=digest)), SCRATCH,
                   f"digest replaced in the {where}")


def _forge_cert_resealed(rng: random.Random, pools: Pools) -> Spoiled:
    e = _spec(rng, pools, ForgeryKind.CERTIFICATE_EDITED_RESEALED)
    body = json.loads(json.dumps({k: v for k, v in e.certificate.items() if k != "digest"}))
    field_name = rng.choice(["spec_version", "premise", "example", "properties"])
    if field_name == "spec_version":
        body["spec_version"] = int(body["spec_version"]) + 1
    elif field_name == "premise" and body["premises"]:
        premise = rng.choice(body["premises"])
        premise["version"] = int(premise["version"]) + 1
    elif field_name == "example" and body["examples"]:
        example = rng.choice(body["examples"])
        example["actual"] = example["expected"] = change_char(str(example["actual"]), rng)
    elif body["properties"]:
        prop = rng.choice(body["properties"])
        prop["points"] = int(prop["points"]) + 1
    else:
        body["spec_version"] = int(body["spec_version"]) + 1
        field_name = "spec_version"
    sealed = {k: v for k, v in body.items() if k != "created_at"}
    digest = digest_of(sealed)
    certificate = {**body, "digest": digest}
    return Spoiled(mode_a(replace(e, certificate=certificate, certificate_digest=digest)), SCRATCH,
                   f"{field_name} edited, digest recomputed")


def _premises(answer: Answer) -> set[str]:
    return {p["id"] for p in _one(answer).certificate["premises"]}


def _forge_premise_downgraded(rng: random.Random, pools: Pools) -> Spoiled:
    candidates = sorted({entry for a in pools.specs for entry in _premises(a)})
    if not candidates:
        raise ForgeryError(f"{ForgeryKind.PREMISE_DOWNGRADED} needs a certified conclusion with "
                           "premises; the pools hold none")
    # the same few entries for every seed, so a run builds only a few library copies
    chosen = sorted(random.Random(DEFAULT_SEED).sample(candidates,
                                                       min(DOWNGRADED_ENTRIES, len(candidates))))
    entry = rng.choice(chosen)
    answer = rng.choice([a for a in pools.specs if entry in _premises(a)])
    return Spoiled(answer, proposed_world(entry), f"premise {entry} set to proposed")


def _forge_conclusion(rng: random.Random, pools: Pools) -> Spoiled:
    e = _spec(rng, pools, ForgeryKind.SPEC_CONCLUSION_CHANGED)
    others = sorted({_one(a).conclusion for a in pools.specs if _one(a).spec_id == e.spec_id}
                    - {e.conclusion})
    value = rng.choice(others) if others and rng.random() < 0.5 else change_char(e.conclusion, rng)
    return Spoiled(mode_a(replace(e, conclusion=value)), SCRATCH,
                   f"conclusion {e.conclusion} -> {value}")


# --- the answer as a whole ----------------------------------------------------------------------

def _any(rng: random.Random, pools: Pools, kind: ForgeryKind) -> Answer:
    filled = [pool for pool in (pools.quotes, pools.utilities, pools.specs) if pool]
    if not filled:
        raise ForgeryError(f"{kind} spoils a genuine answer; the pools hold none")
    return rng.choice(rng.choice(filled))


def _forge_evidence_removed(rng: random.Random, pools: Pools) -> Spoiled:
    answer = _any(rng, pools, ForgeryKind.MODE_A_EVIDENCE_REMOVED)
    return Spoiled(Answer(Mode.A, answer.text, ()), SCRATCH,
                   f"{_one(answer).kind} evidence removed, text kept")


def _forge_text_altered(rng: random.Random, pools: Pools) -> Spoiled:
    answer = _any(rng, pools, ForgeryKind.ANSWER_TEXT_ALTERED)
    how = rng.choice(["char", "claim"])
    text = (change_char(answer.text, rng) if how == "char"
            else answer.text + "\nThis holds in every case.")
    return Spoiled(replace(answer, text=text), SCRATCH, f"{_one(answer).kind} answer text {how} added")


def _forge_other_question(rng: random.Random, pools: Pools) -> Spoiled:
    answer = _any(rng, pools, ForgeryKind.VALID_EVIDENCE_OTHER_QUESTION)
    return Spoiled(answer, SCRATCH, f"valid {_one(answer).kind} evidence given to another question")


FORGERS: dict[ForgeryKind, Forger] = {
    ForgeryKind.QUOTE_CHAR_CHANGED: _forge_quote_char,
    ForgeryKind.QUOTE_MOVED_TO_OTHER_FILE: _forge_quote_moved,
    ForgeryKind.QUOTE_OFFSETS_SHIFTED: _forge_quote_shifted,
    ForgeryKind.QUOTE_FROM_EDITED_FILE: _forge_quote_edited,
    ForgeryKind.QUOTE_INVENTED_TEXT: _forge_quote_invented,
    ForgeryKind.QUOTE_STALE_INDEX: _forge_quote_stale_index,
    ForgeryKind.QUOTE_PATH_OUTSIDE: _forge_quote_outside,
    ForgeryKind.UTILITY_INVENTED_ID: _forge_utility_invented,
    ForgeryKind.UTILITY_DROPPED_ARGUMENT: _forge_utility_dropped,
    ForgeryKind.UTILITY_CHANGED_RESULT: _forge_utility_result,
    ForgeryKind.UTILITY_CHANGED_ARGUMENT: _forge_utility_argument,
    ForgeryKind.UTILITY_STALE_CATALOG: _forge_utility_catalog,
    ForgeryKind.CERTIFICATE_TAMPERED_DIGEST: _forge_cert_digest,
    ForgeryKind.CERTIFICATE_EDITED_RESEALED: _forge_cert_resealed,
    ForgeryKind.PREMISE_DOWNGRADED: _forge_premise_downgraded,
    ForgeryKind.SPEC_CONCLUSION_CHANGED: _forge_conclusion,
    ForgeryKind.MODE_A_EVIDENCE_REMOVED: _forge_evidence_removed,
    ForgeryKind.ANSWER_TEXT_ALTERED: _forge_text_altered,
    ForgeryKind.VALID_EVIDENCE_OTHER_QUESTION: _forge_other_question,
}
"""One forger per kind: ``(rng, pools) -> Spoiled(answer, world, detail)``."""


def forgery_kind(kind: ForgeryKind | str) -> ForgeryKind:
    """``kind`` as a :class:`ForgeryKind`; an unknown name is refused with the known ones."""
    try:
        return ForgeryKind(kind)
    except ValueError:
        raise ForgeryError(f"unknown forgery kind {kind!r}; known: "
                           f"{', '.join(map(str, FORGERS))}") from None


def forge_many(kind: ForgeryKind | str, pools: Pools, *, seed: int = DEFAULT_SEED,
               count: int = 1) -> list[Forgery]:
    """``count`` spoiled answers of one kind drawn from ``pools``, the same for the same seed.

    Each kind has its own generator, so adding a kind never changes the forgeries of another.

    Raises:
        ForgeryError: The kind is unknown, or the pools hold nothing it can spoil.
    """
    known = forgery_kind(kind)
    rng = random.Random(f"{seed}:{known}")
    return [Forgery(known, number, *FORGERS[known](rng, pools)) for number in range(count)]


def forge(kind: ForgeryKind | str, genuine: Answer | Pools, *,
          seed: int = DEFAULT_SEED) -> Forgery:
    """Spoil one genuine answer the way ``kind`` says.

    With a :class:`Pools` the answer is drawn as the negative control draws it: the result is the
    first forgery of that kind in a run with the same seed and pools.

    Args:
        kind: A :class:`ForgeryKind` or its name.
        genuine: The genuine mode-A answer to spoil, or pools to draw one from.
        seed: Fixes every choice (which character, which offset, which file).

    Returns:
        The forgery; check it in the world its ``world`` names (``scratch`` is the world as it
        is, apart from the quotes of edited files).

    Raises:
        ForgeryError: The kind is unknown, or cannot spoil this answer (a quote kind given a
            utility call, a quote from an edited file, a move with no other file to move to).

    Example:
        >>> forged = forge("quote_char_changed", quote_answer)  # doctest: +SKIP
        >>> check_answer(forged.answer, context).passed  # doctest: +SKIP
        False
    """
    pools = genuine if isinstance(genuine, Pools) else Pools.of([genuine])
    return forge_many(kind, pools, seed=seed, count=1)[0]
