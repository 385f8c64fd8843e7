"""The negative control: thousands of spoiled answers, each judged by the invariant checker.

Genuine mode-A answers are built first, without any model: quotes cut from the bundled course's
fragments, utility calls from the catalog's executable examples, conclusions of the bundled
certified specifications for their own examples. Each :class:`ForgeryKind` then spoils copies of
them in one way, deterministically from a seed. The checker runs over every spoiled answer in a
scratch *world*: a copy of the course in which a few files were edited after the fragments (the
"index") were taken, the shipped morphism library, and, for the downgrade kind, a library copy
in which one premise was set back to ``proposed``. The verdicts are published as data
(``results/negative_control/verdicts.parquet``) so anyone can recompute the catch rates.
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.answers._evidence import (
    Answer,
    Mode,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    render_evidence,
)
from workbench.answers._invariants import CheckContext, check_answer
from workbench.config import Settings
from workbench.corpus import Anchor, Corpus, Fragment
from workbench.fts import check_all_specs, copy_with_status, digest_of
from workbench.utilities import all_examples, call_utility, load_catalog, results_equal

DEFAULT_SEED = 20260101
DEFAULT_PER_KIND = 240
EDITED_FILES = 4
DOWNGRADED_ENTRIES = 3
SPEC_EXAMPLES_PER_SPEC = 3


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


@dataclass
class World:
    """The scratch copies the checker resolves against, one context per world (private state)."""

    root: Path
    """The scratch folder (removed afterwards)."""
    original: list[Fragment]
    """The fragments of the course as shipped: the index the genuine quotes came from."""
    index_digest: str
    """The digest of those fragments."""
    edited: dict[str, int]
    """Edited file -> where the inserted paragraph starts."""
    contexts: dict[str, CheckContext] = field(default_factory=dict)
    """World name -> checker context."""


@dataclass(frozen=True)
class NegativeControlReport:
    """The outcome of one negative-control run."""

    verdicts: pd.DataFrame
    """One row per spoiled answer: kind, source, world, detail, answer JSON, verdict, invariant."""
    per_kind: pd.DataFrame
    """Catch rate per kind (see :func:`catch_rates`)."""
    overall: float
    """Share of all spoiled answers that were caught."""
    genuine: int
    """Genuine answers checked as a control."""
    genuine_passed: int
    """Of those, how many the checker let through (all of them, when nothing is off)."""
    seconds_build: float
    """Time to build the worlds and the spoiled answers."""
    seconds_check: float
    """Time to check every spoiled answer."""
    path: Path | None = None
    """Where the verdicts were written, if they were."""


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


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- genuine answers ----------------------------------------------------------------------------

def _mode_a(*evidence: Any) -> Answer:
    return Answer(Mode.A, render_evidence(evidence), tuple(evidence))


def _quote_from(fragment: Fragment, rng: random.Random, index_digest: str,
                after: int = 0) -> QuoteEvidence | None:
    text = fragment.text
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == " "]
    starts = [s for s in starts if fragment.anchor.start + s >= after and not text[s].isspace()]
    if not starts:
        return None
    s = rng.choice(starts)
    length = rng.randint(40, 180)
    e = text.rfind(" ", s + 1, s + length)
    e = e if e > s + 10 else min(len(text), s + length)
    piece = text[s:e].rstrip()
    if len(piece) < 10:
        return None
    start = fragment.anchor.start + s
    anchor = Anchor(fragment.anchor.path, start, start + len(piece), _sha(piece))
    return QuoteEvidence(anchor, piece, index_digest)


def _spec_answers(settings: Settings) -> list[Answer]:
    answers = []
    for verdict in check_all_specs(settings.paths.specs, settings.paths.morphisms):
        certificate = verdict.certificate
        if not verdict.passed or certificate is None:
            continue
        for example in certificate.examples[:SPEC_EXAMPLES_PER_SPEC]:
            answers.append(_mode_a(SpecEvidence(
                spec_id=verdict.spec_id, conclusion=example.actual,
                certificate_digest=certificate.digest,
                inputs={str(n): str(v) for n, v in example.inputs},
                certificate=certificate.to_dict())))
    return answers


def _utility_answers() -> list[Answer]:
    digest = load_catalog().digest
    answers = []
    for example in all_examples():
        outcome = call_utility(example.utility, dict(example.args))
        if outcome.ok and results_equal(example.result, outcome.result):
            answers.append(_mode_a(UtilityEvidence(example.utility, dict(example.args),
                                                   example.result, digest)))
    return answers


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
    """Every course file."""


# --- the worlds ---------------------------------------------------------------------------------

_INSERTED = {
    "en": "This paragraph was added to the file after its fragments were indexed.",
    "ru": "Этот абзац добавлен в файл уже после того, как его фрагменты вошли в индекс.",
}


def make_world(settings: Settings, root: Path, rng: random.Random) -> World:
    """Copy the course into ``root`` and edit a few files after taking their fragments."""
    shipped = Corpus(settings.paths.corpus)
    original = CheckContext.fragments_of(shipped, settings.fragmenting.max_chars,
                                         settings.fragmenting.min_chars)
    digest = CheckContext.fragments_digest(original)
    copy = root / "corpus"
    shutil.copytree(shipped.root, copy)
    files, _ = shipped.list_files()
    edited: dict[str, int] = {}
    for rel in sorted(rng.sample(files, min(EDITED_FILES, len(files)))):
        text = shipped.read(rel).text
        cut = text.find("\n\n")
        cut = cut + 2 if cut != -1 else 0
        lang = "ru" if rel.startswith("ru/") else "en"
        (copy / rel).write_text(text[:cut] + _INSERTED[lang] + "\n\n" + text[cut:], encoding="utf-8")
        edited[rel] = cut
    world = World(root=root, original=original, index_digest=digest, edited=edited)
    world.contexts[SCRATCH] = CheckContext(
        corpus=Corpus(copy), fragments=original, index_digest=digest,
        specs_dir=settings.paths.specs, library_dir=settings.paths.morphisms)
    return world


def downgraded_world(world: World, settings: Settings, entry: str) -> str:
    """Add (once) the world whose library has ``entry`` set back to ``proposed``; its name."""
    name = f"{SCRATCH}/proposed:{entry}"
    if name not in world.contexts:
        target = world.root / f"library-{len(world.contexts)}"
        copy_with_status(settings.paths.morphisms, target, entry, "proposed",
                         reviewer="negative control")
        base = world.contexts[SCRATCH]
        world.contexts[name] = CheckContext(
            corpus=base.corpus, fragments=world.original, index_digest=world.index_digest,
            specs_dir=settings.paths.specs, library_dir=target)
    return name


def make_pools(world: World, settings: Settings, rng: random.Random) -> Pools:
    """The genuine answers, from the shipped course, catalog and specifications."""
    quotes, edited = [], []
    for fragment in world.original:
        path = fragment.anchor.path
        if path in world.edited:
            after = world.edited[path] + 1
            if fragment.anchor.end > after:
                q = _quote_from(fragment, rng, world.index_digest, after)
                if q is not None:
                    edited.append(_mode_a(q))
            continue
        for _ in range(2):
            q = _quote_from(fragment, rng, world.index_digest)
            if q is not None:
                quotes.append(_mode_a(q))
    paths = tuple(sorted({f.anchor.path for f in world.original}))
    return Pools(tuple(quotes), tuple(edited), tuple(_utility_answers()),
                 tuple(_spec_answers(settings)), paths)


# --- forging ------------------------------------------------------------------------------------

Forger = Callable[[random.Random, Pools, World, Settings], tuple[Answer, str, str]]


def _one(answer: Answer) -> Any:
    return answer.evidence[0]


def _forge_quote_char(rng: random.Random, pools: Pools, world: World, s: Settings):
    q = _one(rng.choice(pools.quotes))
    text = change_char(q.text, rng)
    forged = replace(q, text=text, anchor=replace(q.anchor, sha256=_sha(text)))
    return _mode_a(forged), SCRATCH, "one character changed, anchor digest recomputed"


def _forge_quote_moved(rng: random.Random, pools: Pools, world: World, s: Settings):
    q = _one(rng.choice(pools.quotes))
    other = rng.choice([p for p in pools.paths if p != q.anchor.path])
    return _mode_a(replace(q, anchor=replace(q.anchor, path=other))), SCRATCH, f"anchor moved to {other}"


def _forge_quote_shifted(rng: random.Random, pools: Pools, world: World, s: Settings):
    q = _one(rng.choice(pools.quotes))
    k = rng.choice([k for k in range(-20, 21) if k and q.anchor.start + k >= 0])
    anchor = replace(q.anchor, start=q.anchor.start + k, end=q.anchor.end + k)
    return _mode_a(replace(q, anchor=anchor)), SCRATCH, f"offsets shifted by {k}"


def _forge_quote_edited(rng: random.Random, pools: Pools, world: World, s: Settings):
    answer = rng.choice(pools.edited_quotes)
    return answer, SCRATCH, f"{_one(answer).anchor.path} edited after indexing"


def _forge_quote_invented(rng: random.Random, pools: Pools, world: World, s: Settings):
    q = _one(rng.choice(pools.quotes))
    words = q.text.split()
    shuffled = words[:]
    rng.shuffle(shuffled)
    if shuffled == words:
        shuffled.reverse()
    text = " ".join(shuffled)
    if text == q.text:
        text = change_char(text, rng)
    anchor = replace(q.anchor, end=q.anchor.start + len(text), sha256=_sha(text))
    return _mode_a(QuoteEvidence(anchor, text, q.index_digest)), SCRATCH, "words shuffled"


def _forge_quote_stale_index(rng: random.Random, pools: Pools, world: World, s: Settings):
    q = _one(rng.choice(pools.quotes))
    stale = _sha(f"another index {rng.random()}")
    return _mode_a(replace(q, index_digest=stale)), SCRATCH, "index digest of another index"


def _forge_quote_outside(rng: random.Random, pools: Pools, world: World, s: Settings):
    q = _one(rng.choice(pools.quotes))
    path = rng.choice([f"../{q.anchor.path}", f"../../course/{q.anchor.path}",
                       "/etc/hostname", q.anchor.path.replace(".md", "_old.md")])
    return _mode_a(replace(q, anchor=replace(q.anchor, path=path))), SCRATCH, f"path {path}"


def _forge_utility_invented(rng: random.Random, pools: Pools, world: World, s: Settings):
    u = _one(rng.choice(pools.utilities))
    category, name = u.utility.split(".", 1)
    known = load_catalog().schemas
    for candidate in (f"{category}.{name}_v2", f"{category}.fast_{name}", f"{name}.{category}",
                      f"{category}.{name[::-1]}", f"{category}.{name}2"):
        if candidate not in known:
            break
    choice = rng.choice([c for c in (f"{category}.{name}_v2", f"{category}.fast_{name}",
                                     f"{category}.{name}2") if c not in known] or [candidate])
    return _mode_a(replace(u, utility=choice)), SCRATCH, f"id {choice}"


def _forge_utility_dropped(rng: random.Random, pools: Pools, world: World, s: Settings):
    u = _one(rng.choice(pools.utilities))
    key = rng.choice(sorted(u.args))
    args = {k: v for k, v in u.args.items() if k != key}
    return _mode_a(replace(u, args=args)), SCRATCH, f"argument {key} dropped"


def _forge_utility_result(rng: random.Random, pools: Pools, world: World, s: Settings):
    u = _one(rng.choice(pools.utilities))
    return _mode_a(replace(u, result=mutate_value(u.result, rng))), SCRATCH, "result changed"


def _forge_utility_argument(rng: random.Random, pools: Pools, world: World, s: Settings):
    u = _one(rng.choice(pools.utilities))
    key = rng.choice(sorted(u.args))
    args = {**u.args, key: mutate_value(u.args[key], rng)}
    return _mode_a(replace(u, args=args)), SCRATCH, f"argument {key} changed"


def _forge_utility_catalog(rng: random.Random, pools: Pools, world: World, s: Settings):
    u = _one(rng.choice(pools.utilities))
    stale = _sha(f"another catalog {rng.random()}")
    return _mode_a(replace(u, catalog_digest=stale)), SCRATCH, "catalog digest of another catalog"


def _forge_cert_digest(rng: random.Random, pools: Pools, world: World, s: Settings):
    e = _one(rng.choice(pools.specs))
    fake = _sha(f"tampered {rng.random()}")
    where = rng.choice(["evidence", "certificate", "both"])
    certificate = dict(e.certificate)
    if where in ("certificate", "both"):
        certificate["digest"] = fake
    digest = fake if where in ("evidence", "both") else e.certificate_digest
    return (_mode_a(replace(e, certificate=certificate, certificate_digest=digest)), SCRATCH,
            f"digest replaced in the {where}")


def _forge_cert_resealed(rng: random.Random, pools: Pools, world: World, s: Settings):
    e = _one(rng.choice(pools.specs))
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
    return (_mode_a(replace(e, certificate=certificate, certificate_digest=digest)), SCRATCH,
            f"{field_name} edited, digest recomputed")


def _forge_premise_downgraded(rng: random.Random, pools: Pools, world: World, s: Settings):
    candidates = sorted({p["id"] for a in pools.specs for p in _one(a).certificate["premises"]})
    chosen = sorted(random.Random(DEFAULT_SEED).sample(candidates,
                                                       min(DOWNGRADED_ENTRIES, len(candidates))))
    entry = rng.choice(chosen)
    answer = rng.choice([a for a in pools.specs
                         if entry in {p["id"] for p in _one(a).certificate["premises"]}])
    return answer, downgraded_world(world, s, entry), f"premise {entry} set to proposed"


def _forge_conclusion(rng: random.Random, pools: Pools, world: World, s: Settings):
    e = _one(rng.choice(pools.specs))
    others = sorted({_one(a).conclusion for a in pools.specs if _one(a).spec_id == e.spec_id}
                    - {e.conclusion})
    value = rng.choice(others) if others and rng.random() < 0.5 else change_char(e.conclusion, rng)
    return _mode_a(replace(e, conclusion=value)), SCRATCH, f"conclusion {e.conclusion} -> {value}"


def _any(rng: random.Random, pools: Pools) -> Answer:
    return rng.choice(rng.choice([pools.quotes, pools.utilities, pools.specs]))


def _forge_evidence_removed(rng: random.Random, pools: Pools, world: World, s: Settings):
    answer = _any(rng, pools)
    return (Answer(Mode.A, answer.text, ()), SCRATCH,
            f"{_one(answer).kind} evidence removed, text kept")


def _forge_text_altered(rng: random.Random, pools: Pools, world: World, s: Settings):
    answer = _any(rng, pools)
    how = rng.choice(["char", "claim"])
    text = (change_char(answer.text, rng) if how == "char"
            else answer.text + "\nThis holds in every case.")
    return replace(answer, text=text), SCRATCH, f"{_one(answer).kind} answer text {how} added"


def _forge_other_question(rng: random.Random, pools: Pools, world: World, s: Settings):
    answer = _any(rng, pools)
    return answer, SCRATCH, f"valid {_one(answer).kind} evidence given to another question"


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
"""One forger per kind: ``(rng, pools, world, settings) -> (answer, world name, detail)``."""


def build_forgeries(pools: Pools, world: World, settings: Settings, *, seed: int = DEFAULT_SEED,
                    per_kind: int = DEFAULT_PER_KIND,
                    kinds: Sequence[ForgeryKind] | None = None) -> list[Forgery]:
    """``per_kind`` spoiled answers of every kind, the same for the same seed."""
    forgeries = []
    for kind in kinds or list(ForgeryKind):
        # one generator per kind, so adding a kind never changes the forgeries of another
        rng = random.Random(f"{seed}:{kind}")
        for number in range(per_kind):
            answer, world_name, detail = FORGERS[kind](rng, pools, world, settings)
            forgeries.append(Forgery(kind, number, answer, world_name, detail))
    return forgeries


# --- checking and publishing --------------------------------------------------------------------

VERDICT_COLUMNS = ["kind", "source", "number", "world", "detail", "answer", "verdict", "caught",
                   "invariant", "reason", "failed_invariants"]


def check_forgeries(forgeries: Sequence[Forgery], world: World) -> pd.DataFrame:
    """Run the invariant checker over every forgery; one verdict row each."""
    rows = []
    for forgery in forgeries:
        report = check_answer(forgery.answer, world.contexts[forgery.world])
        failure = report.first_failure
        rows.append({
            "kind": str(forgery.kind), "source": KIND_SOURCE[forgery.kind],
            "number": forgery.number, "world": forgery.world, "detail": forgery.detail,
            "answer": forgery.answer.to_json(),
            "verdict": "passed" if report.passed else "caught", "caught": not report.passed,
            "invariant": str(failure[1]) if failure else "", "reason": failure[2] if failure else "",
            "failed_invariants": ",".join(map(str, report.failed_invariants)),
        })
    return pd.DataFrame.from_records(rows, columns=VERDICT_COLUMNS)


def catch_rates(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per kind: source, forgeries, caught, catch rate, and the invariant that caught most."""
    rows = []
    for kind, group in verdicts.groupby("kind", sort=False):
        caught = group[group["caught"]]
        top = caught["invariant"].value_counts()
        rows.append({"kind": kind, "source": group["source"].iloc[0], "forgeries": len(group),
                     "caught": int(group["caught"].sum()),
                     "catch_rate": round(float(group["caught"].mean()), 4),
                     "caught_by": top.index[0] if len(top) else ""})
    return pd.DataFrame.from_records(
        rows, columns=["kind", "source", "forgeries", "caught", "catch_rate", "caught_by"])


def write_verdicts(verdicts: pd.DataFrame, folder: Path, summary: dict[str, Any]) -> Path:
    """Write ``verdicts.parquet`` and ``summary.json`` into ``folder`` atomically; the parquet path."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "verdicts.parquet"
    staging = folder / ".verdicts.parquet.partial"
    verdicts.to_parquet(staging, index=False)
    os.replace(staging, target)
    staging_json = folder / ".summary.json.partial"
    staging_json.write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(staging_json, folder / "summary.json")
    return target


def run_negative_control(settings: Settings, *, seed: int = DEFAULT_SEED,
                         per_kind: int = DEFAULT_PER_KIND, write: bool = True,
                         out_dir: str | Path | None = None) -> NegativeControlReport:
    """Build the worlds and the spoiled answers, check them all, and publish the verdicts.

    Args:
        settings: Where the course, specifications and library are.
        seed: Fixes every choice; the same seed gives the same verdicts.
        per_kind: Spoiled answers per kind (19 kinds; the default gives 4,560).
        write: Whether to write ``verdicts.parquet`` and ``summary.json``.
        out_dir: Where to write them (default ``[paths].results/negative_control``).
    """
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="negative-control-") as scratch:
        rng = random.Random(seed)
        world = make_world(settings, Path(scratch), rng)
        pools = make_pools(world, settings, rng)
        genuine = [*pools.quotes, *pools.utilities, *pools.specs]
        scratch_context = world.contexts[SCRATCH]
        genuine_passed = sum(check_answer(a, scratch_context).passed for a in genuine)
        forgeries = build_forgeries(pools, world, settings, seed=seed, per_kind=per_kind)
        built = time.perf_counter()
        verdicts = check_forgeries(forgeries, world)
        checked = time.perf_counter()
    per_kind_table = catch_rates(verdicts)
    overall = float(verdicts["caught"].mean()) if len(verdicts) else 0.0
    path = None
    if write:
        folder = Path(out_dir) if out_dir is not None else Path(settings.paths.results) / "negative_control"
        summary = {"seed": seed, "per_kind": per_kind, "forgeries": len(verdicts),
                   "kinds": len(per_kind_table), "overall_catch_rate": round(overall, 4),
                   "genuine": len(genuine), "genuine_passed": int(genuine_passed),
                   "seconds_check": round(checked - built, 3),
                   "catch_rates": per_kind_table.to_dict(orient="records")}
        path = write_verdicts(verdicts, folder, summary)
    return NegativeControlReport(verdicts, per_kind_table, overall, len(genuine),
                                 int(genuine_passed), built - started, checked - built, path)
