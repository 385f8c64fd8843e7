"""Selection errors: verified answers that quote the wrong place, and the targets they are held to.

The design closes *generation* errors by construction: a quote is verbatim, its anchor resolves,
the invariant checker re-checks it, so leakage and fabricated quotes are counted and expected to
be 0. What construction cannot close is a *selection* error: the pipeline verified a real quote
from the corpus, but one that does not answer the question (a wrong source, a wrong fragment).
These have to be measured, question by question, against the labelled sets.

Two levels are counted, both from the gate run's rows:

- **answered wrong** (the figure the targets use): a verified answer (mode A) to a question that
  must be refused (``out_of_corpus``, ``relevance_traps``), or a verified answer to an answerable
  question whose quoted fragment overlaps no gold span. The gate table's "answered, wrong" column
  counts the same questions.
- **quote misses the gold span** (stricter, answerable questions only): the fragment holds a gold
  span, but the part of it the answer quotes (``[gates] quote_extent``) does not overlap it.
  Counted only when the gold spans can be read (:func:`gold_spans`).

The targets live here, in :data:`TARGETS`, and nowhere else: the report, the demo, the README's
measured block and the notebooks read them from this module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.corpus import Corpus, CorpusError
from workbench.corpus._questions import (
    SETS,
    GoldSpan,
    QuestionSetError,
    load_question_files,
    set_files,
)
from workbench.digests import sha256_file
from workbench.studies._analysis import ANSWERED, first_firing, run_order

MUST_REFUSE: tuple[str, ...] = ("out_of_corpus", "relevance_traps")
"""The sets whose every question must be refused: any verified answer to one is wrong."""

DEFINITION = (
    "A selection error is a verified answer (mode A) that answers from the wrong place: any "
    "verified answer to a question that must be refused (out_of_corpus, relevance_traps), or a "
    "verified answer to an answerable question (in_corpus) whose quoted fragment overlaps no gold "
    "span. Leakage cannot catch these: the quote is real and verbatim, it just does not answer "
    "the question.")
"""What "answered wrong" means, in the words every face prints beside the figure."""

STRICT_DEFINITION = (
    "Quote misses the gold span: an answerable question answered from a fragment that holds a "
    "gold span, but the part of it quoted (`[gates] quote_extent`) does not overlap that span.")
"""What the stricter, quote-level count means."""


@dataclass(frozen=True)
class Target:
    """One target the quote source is held to."""

    key: str
    """A short name (``in_corpus``, ``leakage``)."""
    label: str
    """What is measured, as a reader reads it."""
    goal: float
    """The share (0–1) to reach, or the count not to exceed for ``at_most``."""
    at_most: bool = False
    """Whether the figure must stay at or below ``goal`` (a count) instead of reaching it."""
    split: str | None = "test"
    """The split the figure is measured on (``None``: every question)."""

    def goal_text(self) -> str:
        """``≥ 85%`` or ``= 0``."""
        if self.at_most:
            return f"= {self.goal:g}" if self.goal == 0 else f"≤ {self.goal:g}"
        return f"≥ {100 * self.goal:g}%"


TARGETS: tuple[Target, ...] = (
    Target("in_corpus", "answerable questions answered from a gold fragment", 0.85),
    Target("out_of_corpus", "out-of-corpus questions refused", 0.97),
    Target("relevance_traps", "relevance traps refused", 0.90),
    Target("leakage", "mode-A answers without verifiable evidence (leakage)", 0, at_most=True,
           split=None),
)
"""The quote source's targets: 85% / 97% / 90% on the test split, and no leak at all."""


@dataclass(frozen=True)
class TargetCheck:
    """A target measured on one run."""

    target: Target
    """The target."""
    value: float | None
    """The measured share (or the count for ``at_most``); ``None`` when not measured."""
    numerator: int | None
    """Questions that count for the figure (answered right, refused, or leaks)."""
    denominator: int | None
    """Questions it is taken over."""

    @property
    def met(self) -> bool | None:
        """Whether the target is reached (``None`` when not measured)."""
        if self.value is None:
            return None
        return self.value <= self.target.goal if self.target.at_most else self.value >= self.target.goal

    def value_text(self) -> str:
        """``82.3% (107/130)`` or ``0 of 299``; ``not measured`` when missing."""
        if self.value is None:
            return "not measured"
        if self.target.at_most:
            return f"{int(self.value)} of {self.denominator}"
        return f"{100 * self.value:.1f}% ({self.numerator}/{self.denominator})"

    def line(self) -> str:
        """One line: label, value, goal, met."""
        state = {True: "met", False: "NOT met", None: "not measured"}[self.met]
        split = f", {self.target.split} split" if self.target.split else ""
        return (f"{self.target.label}{split}: {self.value_text()}; target "
                f"{self.target.goal_text()} — {state}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"key": self.target.key, "label": self.target.label, "goal": self.target.goal,
                "at_most": self.target.at_most, "split": self.target.split, "value": self.value,
                "numerator": self.numerator, "denominator": self.denominator, "met": self.met,
                "goal_text": self.target.goal_text(), "value_text": self.value_text()}


@dataclass(frozen=True)
class SelectionReport:
    """The selection errors of one gate run, per set, each wrong answer with its trace."""

    mode: str | None
    """The rerank mode of the run (from its manifest), when known."""
    per_set: pd.DataFrame
    """One row per set and a total row ``all``, over every question of the run (both splits):
    ``questions``, ``verified answers``, ``answered right``, ``answered wrong``, ``wrong share``
    (of the verified answers) and, when gold spans were given, ``quote misses gold span``."""
    wrong: pd.DataFrame
    """One row per wrong answer: ``id``, ``set``, ``split``, ``question``, ``quote``,
    ``quoted_at`` (path and offsets), ``gold`` (the gold spans, or why there are none),
    ``level`` (``fragment`` or ``quote``) and ``verdicts`` (the gate verdicts, one line each)."""
    targets: tuple[TargetCheck, ...]
    """Every target of :data:`TARGETS`, measured on this run."""
    gold_known: bool
    """Whether gold spans were given, so the quote-level count is measured."""

    @property
    def answered_wrong(self) -> int:
        """Verified answers that are wrong (fragment level), every set and split."""
        return int(self.per_set.loc["all", "answered wrong"])

    @property
    def verified(self) -> int:
        """Verified answers, every set and split."""
        return int(self.per_set.loc["all", "verified answers"])

    def lines(self) -> list[str]:
        """What the terminal shows: the count per set and each target."""
        parts = ", ".join(f"{name} {int(row['answered wrong'])}/{int(row['verified answers'])}"
                          for name, row in self.per_set.iterrows() if name != "all")
        out = [f"answered wrong (selection errors): {self.answered_wrong} of {self.verified} "
               f"verified answers ({parts}; both splits)"]
        if self.gold_known:
            out.append(f"  and {int(self.per_set.loc['all', 'quote misses gold span'])} more "
                       "answerable ones quote a part of the fragment beside the gold span (quote level)")
        out.append("targets:")
        out.extend("  " + check.line() for check in self.targets)
        return out


def _answered(rows: pd.DataFrame, order: Sequence[str]) -> pd.Series:
    """Whether the pipeline gave a verified answer: its own outcome, else the re-sliced gates."""
    if "answer_mode" in rows.columns:
        return rows["answer_mode"].eq("A")
    return pd.Series(first_firing(rows, order) == ANSWERED, index=rows.index)


def _anchor(answer_json: Any) -> tuple[str, int, int] | None:
    """The first quote anchor of a stored answer."""
    if not isinstance(answer_json, str) or not answer_json:
        return None
    try:
        evidence = json.loads(answer_json).get("evidence") or []
    except (ValueError, AttributeError):
        return None
    for item in evidence:
        anchor = item.get("anchor") if isinstance(item, dict) else None
        if anchor:
            return str(anchor["path"]), int(anchor["start"]), int(anchor["end"])
    return None


def _verdict_lines(verdicts: Any) -> str:
    """The gate verdicts of a row, one ``gate: passed — detail`` line each."""
    try:
        items = json.loads(verdicts) if isinstance(verdicts, str) else []
    except ValueError:
        return ""
    return "\n".join(f"{v.get('gate')}: {'passed' if v.get('passed') else 'fired ' + str(v.get('code'))}"
                     f" — {v.get('detail', '')}" for v in items)


def selection_errors(run: Any, *, gold: Mapping[str, Sequence[GoldSpan]] | None = None,
                     leaks: int | None = None, answered: int | None = None) -> SelectionReport:
    """Count the verified answers of a gate run that answer from the wrong place.

    Args:
        run: A gate run (its record or its rows, as :func:`workbench.studies.evaluate_sets`
            writes them).
        gold: Gold spans by question id (:func:`gold_spans`); with them the stricter,
            quote-level count is measured and each wrong answer shows its gold span.
        leaks: The run's leakage count (from :func:`workbench.studies.leakage`), for the
            leakage target; ``None`` leaves that target unmeasured.
        answered: The mode-A answers the leakage count is taken over (default: this run's).

    Returns:
        The counts per set, each wrong answer with its trace, and every target checked.
    """
    rows = getattr(run, "rows", run)
    manifest = getattr(run, "manifest", {}) or {}
    order = run_order(run, None)
    verified = _answered(rows, order)
    answerable = rows["set"].eq("in_corpus")
    on_gold = rows["top_is_gold"].fillna(False).astype(bool)
    wrong = verified & ~(answerable & on_gold)
    quote_miss = pd.Series(False, index=rows.index)
    if gold is not None:
        for number in rows.index[verified & answerable & on_gold]:
            anchor = _anchor(rows.at[number, "answer_json"]) if "answer_json" in rows.columns else None
            spans = gold.get(str(rows.at[number, "id"]), ())
            if anchor is not None and spans and not any(g.overlaps(*anchor) for g in spans):
                quote_miss.at[number] = True
    records = []
    names = [n for n in SETS if n in set(rows["set"])] + sorted(set(rows["set"]) - set(SETS))
    for name in [*names, "all"]:
        mask = rows["set"].eq(name) if name != "all" else pd.Series(True, index=rows.index)
        n_verified = int(verified[mask].sum())
        record: dict[str, Any] = {
            "set": name, "questions": int(mask.sum()), "verified answers": n_verified,
            "answered right": int((verified & ~wrong)[mask].sum()),
            "answered wrong": int(wrong[mask].sum()),
            "wrong share": (int(wrong[mask].sum()) / n_verified) if n_verified else None}
        if gold is not None:
            record["quote misses gold span"] = int(quote_miss[mask].sum())
        records.append(record)
    per_set = pd.DataFrame.from_records(records).set_index("set")

    listed = rows[wrong | quote_miss]
    wrong_rows = []
    for number, row in listed.iterrows():
        anchor = _anchor(row.get("answer_json"))
        spans = (gold or {}).get(str(row["id"]), ())
        if row["set"] in MUST_REFUSE:
            gold_text = "none: the corpus does not answer this question; it must be refused"
        elif spans:
            gold_text = "\n".join(f"{g.path}:{g.start}-{g.end} «{g.text}»" for g in spans)
        else:
            gold_text = "not read (the question set was not given)"
        wrong_rows.append({
            "id": str(row["id"]), "set": str(row["set"]), "split": str(row.get("split", "")),
            "question": str(row["question"]), "quote": str(row.get("quote") or ""),
            "quoted_at": f"{anchor[0]}:{anchor[1]}-{anchor[2]}" if anchor else str(
                row.get("top_fragment") or ""),
            "gold": gold_text, "level": "quote" if bool(quote_miss.at[number]) else "fragment",
            "verdicts": _verdict_lines(row.get("verdicts"))})
    wrong_frame = pd.DataFrame.from_records(
        wrong_rows, columns=["id", "set", "split", "question", "quote", "quoted_at", "gold",
                             "level", "verdicts"])

    checks = []
    for target in TARGETS:
        if target.key == "leakage":
            total = answered if answered is not None else int(verified.sum())
            checks.append(TargetCheck(target, None if leaks is None else float(leaks), leaks,
                                      total))
            continue
        mask = rows["set"].eq(target.key)
        if target.split and "split" in rows.columns:
            mask &= rows["split"].eq(target.split)
        n = int(mask.sum())
        good = (verified & ~wrong) if target.key == "in_corpus" else ~verified
        hit = int(good[mask].sum())
        checks.append(TargetCheck(target, hit / n if n else None, hit if n else None,
                                  n if n else None))
    return SelectionReport(mode=manifest.get("mode"), per_set=per_set, wrong=wrong_frame,
                           targets=tuple(checks), gold_known=gold is not None)


def gold_spans(files: Sequence[str | os.PathLike[str]], corpus: Corpus | str | os.PathLike[str]
               ) -> dict[str, tuple[GoldSpan, ...]]:
    """The gold spans of the labelled questions in ``files``, by id (answerable questions only).

    The bundled sets' files are :func:`workbench.corpus._questions.set_files` of
    ``[paths].questions``; a run's own files are what ``workbench eval gates --questions`` read.
    """
    return {q.id: q.gold for q in load_question_files(files, corpus) if q.gold}


def gold_for_run(run: Any) -> dict[str, tuple[GoldSpan, ...]] | None:
    """The gold spans of the questions a gate run evaluated, or ``None``.

    The question files the run's manifest names (``questions``: path and sha256, as
    ``workbench eval gates`` records them), else the bundled sets of its settings. ``None`` when
    the run names no paths, the files are not there (a record copied from another machine) or
    a named file changed since: the report then shows the fragment-level count only.
    """
    manifest = getattr(run, "manifest", {}) or {}
    paths = (manifest.get("settings") or {}).get("paths") or {}
    questions, corpus = paths.get("questions"), paths.get("corpus")
    if not corpus or not Path(corpus).is_dir():
        return None
    named = manifest.get("questions")
    try:
        if named:
            files = [Path(item["path"]) for item in named]
            if any(not f.is_file() or sha256_file(f) != item.get("sha256")
                   for f, item in zip(files, named, strict=True)):
                return None
            return gold_spans(files, corpus)
        if not questions or not Path(questions).is_dir():
            return None
        return gold_spans(set_files(questions), corpus)
    except (QuestionSetError, CorpusError, OSError, KeyError, TypeError):
        return None


__all__ = [
    "DEFINITION",
    "MUST_REFUSE",
    "STRICT_DEFINITION",
    "TARGETS",
    "SelectionReport",
    "Target",
    "TargetCheck",
    "gold_for_run",
    "gold_spans",
    "selection_errors",
]
