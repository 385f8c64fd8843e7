"""The negative control: thousands of spoiled answers, each judged by the invariant checker.

Genuine mode-A answers are built first, without any model: quotes cut from the bundled course's
fragments, utility calls from the catalog's executable examples, conclusions of the bundled
certified specifications for their own examples. Each :class:`ForgeryKind` then spoils copies of
them in one way, deterministically from a seed (the forgers live in ``_forgers.py``). The checker
runs over every spoiled answer in a scratch *world*: a copy of the course in which a few files
were edited after the fragments (the "index") were taken, the shipped morphism library, and, for
the downgrade kind, a library copy in which one premise was set back to ``proposed``. The
verdicts are published as data (``results/negative_control/verdicts.parquet``) so anyone can
recompute the catch rates.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.answers._context import CheckContext
from workbench.answers._evidence import Answer, QuoteEvidence, SpecEvidence, UtilityEvidence
from workbench.answers._forgers import (
    DEFAULT_SEED,
    KIND_SOURCE,
    PROPOSED_PREFIX,
    SCRATCH,
    Forgery,
    ForgeryKind,
    Pools,
    forge_many,
    mode_a,
    proposed_world,
    sha256_text,
)
from workbench.answers._invariants import check_answer
from workbench.config import Settings
from workbench.corpus import Anchor, Corpus, Fragment
from workbench.fts import check_all_specs, copy_with_status
from workbench.utilities import all_examples, call_utility, load_catalog, results_equal

DEFAULT_PER_KIND = 240
EDITED_FILES = 4
SPEC_EXAMPLES_PER_SPEC = 3


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


# --- genuine answers ----------------------------------------------------------------------------

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
    anchor = Anchor(fragment.anchor.path, start, start + len(piece), sha256_text(piece))
    return QuoteEvidence(anchor, piece, index_digest)


def _spec_answers(settings: Settings) -> list[Answer]:
    answers = []
    for verdict in check_all_specs(settings.paths.specs, settings.paths.morphisms):
        certificate = verdict.certificate
        if not verdict.passed or certificate is None:
            continue
        for example in certificate.examples[:SPEC_EXAMPLES_PER_SPEC]:
            answers.append(mode_a(SpecEvidence(
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
            answers.append(mode_a(UtilityEvidence(example.utility, dict(example.args),
                                                  example.result, digest)))
    return answers


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
    name = proposed_world(entry)
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
                    edited.append(mode_a(q))
            continue
        for _ in range(2):
            q = _quote_from(fragment, rng, world.index_digest)
            if q is not None:
                quotes.append(mode_a(q))
    paths = tuple(sorted({f.anchor.path for f in world.original}))
    return Pools(tuple(quotes), tuple(edited), tuple(_utility_answers()),
                 tuple(_spec_answers(settings)), paths)


def build_forgeries(pools: Pools, world: World, settings: Settings, *, seed: int = DEFAULT_SEED,
                    per_kind: int = DEFAULT_PER_KIND,
                    kinds: Sequence[ForgeryKind] | None = None) -> list[Forgery]:
    """``per_kind`` spoiled answers of every kind, the same for the same seed.

    The worlds the forgeries name (a library with one premise downgraded) are added to ``world``.
    """
    forgeries = []
    for kind in kinds or list(ForgeryKind):
        for forgery in forge_many(kind, pools, seed=seed, count=per_kind):
            if forgery.world.startswith(PROPOSED_PREFIX):
                downgraded_world(world, settings, forgery.world.removeprefix(PROPOSED_PREFIX))
            forgeries.append(forgery)
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
