"""A variant against a baseline in one call: the paired table, McNemar, and every flipped question.

Each side of :func:`compare` is either settings of the quote source or a router:

- settings: a :class:`~workbench.config.Settings`, a settings file (laid over the settings the
  call was given, as a second ``--config`` is), an overlay of keys
  (``{"gates.relevance_rules": ["entities", "numbers"]}``), or the name of a registered gate or
  quote relevance rule, which switches that stage on or off: the baseline's copy of the settings
  gains it (a gate at the end of the firing order, a rule among the rules) or loses it. Only the
  copy changes; the settings given and the registry's default order stay as they were;
- a router: a registered router's name or spec (``rule``, ``span:DIR``, ``replay:FILE``), a
  trained router's name, or any object with ``route(question)``.

Settings sides go through the gate evaluation
(:func:`~workbench.studies._gates.evaluate_sets_cached`, whose cache ``cache=False`` passes by)
on the same questions, and each question is judged handled correctly or not by the rule of
``workbench runs diff``: an answerable question answered from a gold fragment, any other question
refused. Router sides go through the router study
(:func:`~workbench.studies._router_study.study_routers`) on the same task items. The two sides
are paired by question id; the exact McNemar test and the interval of the difference come from
:mod:`workbench.stats`. A variant that answers more questions wrongly than the baseline is a
regression whatever else it gains, and the result says so.

One run record (kind ``compare``) holds both sides' rows (a ``side`` column), each row's trace as
JSON, and both sides' resolved settings; ``workbench trace RUN ID`` prints a question's traces.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from workbench import registry
from workbench.config import Settings, load_settings, overlay_settings
from workbench.corpus._questions import SETS
from workbench.errors import WorkbenchError
from workbench.gates import gate_codes, quote_stages
from workbench.relevance import quote_rules
from workbench.routing import DEFAULT_TASKSETS, Router
from workbench.routing._transformers import trained_routers
from workbench.runs._records import RunRecord, resolve_run
from workbench.stats import McNemarResult, exact_interval, format_p, mcnemar
from workbench.studies._analysis import ANSWERED
from workbench.studies._diff import _gate_verdicts
from workbench.studies._gates import (
    QuestionFiles,
    evaluate_sets_cached,
    question_file_records,
    question_files,
)
from workbench.studies._records import record_run
from workbench.studies._router_study import router_label, study_routers
from workbench.studies._routers import paired_outcomes

SideKind = Literal["settings", "router"]
SIDES: tuple[str, str] = ("baseline", "variant")
CURRENT = "current"
"""The side that is the settings the call was given, unchanged (on the command line: the
``--config`` files)."""
TRACE_VERB = "workbench trace"
"""The command that prints the traces of one question of a comparison's run record."""

SideSpec = Settings | str | os.PathLike[str] | Mapping[str, Any] | Router | None
"""What a side may be given as (see the module's docstring); ``None`` means :data:`CURRENT`."""


class CompareError(WorkbenchError):
    """A side names nothing known, a settings file that does not exist, or sides of two kinds."""


@dataclass(frozen=True)
class Side:
    """One side of a comparison, resolved."""

    label: str
    """What was given, in words (a name, a file, ``overlay {...}``, a router's name)."""
    kind: SideKind
    """``settings`` (the quote source's gates and rules) or ``router``."""
    settings: Settings
    """The resolved settings this side ran with."""
    change: str = ""
    """What the side changes in the settings it was laid over (empty when nothing or a router)."""
    router: Any = None
    """The router (a spec string or an object) of a router side."""

    def to_dict(self) -> dict[str, Any]:
        """What the run record keeps of the side: label, kind, change, resolved settings."""
        plain: dict[str, Any] = {"label": self.label, "kind": self.kind, "change": self.change,
                                 "settings": self.settings.to_dict()}
        if self.kind == "router":
            plain["router"] = self.router if isinstance(self.router, str) else self.label
        else:
            plain["stages"] = quote_stages(self.settings)
        return plain


def known_names(settings: Settings | None = None) -> dict[str, list[str]]:
    """The names a side may be given as, by kind: gates, relevance rules, routers."""
    registry.load("router")
    models = (settings or load_settings()).paths.models
    return {"gates": list(gate_codes()), "relevance rules": list(quote_rules()),
            "routers": sorted({*registry.names("router"), *trained_routers(models)})}


def _known_text(settings: Settings) -> str:
    return "; ".join(f"{kind}: {', '.join(names) or '(none)'}"
                     for kind, names in known_names(settings).items())


def _overlay(settings: Settings, keys: Mapping[str, Any]) -> Settings:
    """``settings`` with ``{"section.key": value}`` or ``{"section": {...}}`` laid over them."""
    sections: dict[str, dict[str, Any]] = {}
    for key, value in keys.items():
        section, dot, name = str(key).partition(".")
        if dot:
            sections.setdefault(section, {})[name] = value
        elif isinstance(value, Mapping):
            sections.setdefault(section, {}).update(value)
        else:
            raise CompareError(f"overlay key {key!r}: give SECTION.KEY (e.g. "
                               "'gates.relevance_rules') or SECTION with a table of keys")
    return settings.with_overrides(**sections)


def _toggle(settings: Settings, kind: str, name: str) -> tuple[Settings, str]:
    """``settings`` with a gate or rule switched on (if off) or off (if on), and the change."""
    gates = settings.gates
    if kind == "gate":
        order = gates.order
        new = tuple(g for g in order if g != name) if name in order else (*order, name)
        sign = "-" if name in order else "+"
        return settings.with_overrides(gates={"order": list(new)}), f"gates.order {sign}{name}"
    rules = gates.relevance_rules
    new = tuple(r for r in rules if r != name) if name in rules else (*rules, name)
    sign = "-" if name in rules else "+"
    return (settings.with_overrides(gates={"relevance_rules": list(new)}),
            f"gates.relevance_rules {sign}{name}")


def _named(given: str, base: Settings, settings: Settings) -> Side | None:
    """A side given by a stage's name (``gate:``/``rule:``/``router:`` may say which kind)."""
    names = known_names(settings)
    kind, colon, bare = given.partition(":")
    if colon and kind in ("gate", "rule", "router"):
        wanted = {"gate": "gates", "rule": "relevance rules", "router": "routers"}[kind]
        if kind != "router" and bare not in names[wanted]:
            raise CompareError(f"unknown {wanted[:-1]} {bare!r}; {_known_text(settings)}")
        kinds = [wanted]
        given = bare
    else:
        backend = given.removesuffix("+constrained").partition(":")[0]
        kinds = [k for k, known in names.items()
                 if (backend if k == "routers" else given) in known]
    if len(kinds) > 1:
        raise CompareError(f"{given!r} names a {' and a '.join(k[:-1] for k in kinds)}; say which "
                           f"with gate:{given}, rule:{given} or router:{given}")
    if not kinds:
        return None
    if kinds[0] == "routers":
        trained = trained_routers(settings.paths.models)
        spec = f"transformers:{trained[given]}" if given in trained else given
        return Side(label=given, kind="router", settings=base, router=spec)
    toggled, change = _toggle(base, "gate" if kinds[0] == "gates" else "rule", given)
    return Side(label=given, kind="settings", settings=toggled, change=change)


def resolve_side(given: SideSpec, base: Settings, settings: Settings | None = None) -> Side:
    """One side as given, laid over ``base`` (the baseline's settings, for the variant).

    Args:
        given: See :data:`SideSpec`.
        base: The settings a name, a file or an overlay changes.
        settings: Where trained routers are looked for (default: ``base``).

    Raises:
        CompareError: A name nothing answers to (the message lists every known name), a settings
            file that does not exist, or an overlay key that is not ``SECTION.KEY``.
        ConfigError: The changed settings do not hold (e.g. a gate left out of the order).
    """
    settings = settings or base
    if given is None or (isinstance(given, str) and given == CURRENT):
        return Side(label=CURRENT, kind="settings", settings=base)
    if isinstance(given, Settings):
        label = str(given.source) if given.source is not None else "settings"
        return Side(label=label, kind="settings", settings=given)
    if isinstance(given, Mapping):
        shown = json.dumps(dict(given), ensure_ascii=False, default=str)
        return Side(label="overlay", kind="settings", settings=_overlay(base, given),
                    change=shown)
    if isinstance(given, str | os.PathLike):
        text = os.fspath(given)
        path = Path(text)
        if isinstance(given, str):
            side = _named(text, base, settings)
            if side is not None:
                return side
        if path.is_file():
            return Side(label=text, kind="settings", settings=overlay_settings(base, path),
                        change=f"laid over by {text}")
        if not isinstance(given, str) or path.suffix == ".toml" or os.sep in text:
            raise CompareError(f"settings file {text} does not exist; a side is a settings file, "
                               f"an overlay of keys, {CURRENT!r}, or a name: "
                               f"{_known_text(settings)}")
        raise CompareError(f"unknown name {text!r}: no gate, relevance rule or router answers to "
                           f"it and it is no settings file; {_known_text(settings)}")
    if callable(getattr(given, "route", None)):
        return Side(label=router_label(given), kind="router", settings=base, router=given)
    raise CompareError(f"a side is settings, a settings file, an overlay of keys, a name or a "
                       f"router; got {type(given).__name__}")


@dataclass(frozen=True)
class SideTrace:
    """One question's trace on one side, as the comparison's run record keeps it."""

    side: str
    """``baseline`` or ``variant``."""
    id: str
    """The question's id."""
    outcome: str
    """What happened: the gate that refused, ``answered``, ``answered wrong``; for a router
    ``right`` or its error type."""
    good: bool
    """Whether the question was handled correctly on this side."""
    trace: Mapping[str, Any]
    """Settings side: every gate's verdict in firing order, the refusal code, the quote and its
    file, the pipeline's answer; router side: the decision, the raw output, the error, the gold."""
    run_id: str | None = None
    """The run record that holds it (``None`` when the comparison wrote none)."""

    @property
    def command(self) -> str | None:
        """The command that prints this trace, when a run record holds it."""
        if self.run_id is None:
            return None
        return f"{TRACE_VERB} {self.run_id} {self.id} --side {self.side}"

    def lines(self) -> list[str]:
        """The trace as the terminal shows it."""
        out = [f"{self.side}: {self.outcome} ({'handled correctly' if self.good else 'not'})"]
        for verdict in self.trace.get("verdicts") or []:
            mark = "pass" if verdict.get("passed") else f"FIRE {verdict.get('code') or ''}"
            out.append(f"  {verdict.get('gate')}: {mark.strip()} — {verdict.get('detail', '')}")
        for key in ("code", "top_path", "quote", "decision", "raw_output", "error", "detail",
                    "gold"):
            value = self.trace.get(key)
            if value not in (None, "", [], {}):
                shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                out.append(f"  {key}: {shown}")
        return out


@dataclass(frozen=True)
class Flip:
    """A question handled correctly on one side only."""

    id: str
    """The question's id."""
    question: str
    """The question."""
    direction: str
    """``improved`` (only the variant right) or ``regressed`` (only the baseline right)."""
    baseline: SideTrace
    """The baseline's outcome and trace."""
    variant: SideTrace
    """The variant's outcome and trace."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"id": self.id, "question": self.question, "direction": self.direction,
                "baseline": self.baseline.outcome, "variant": self.variant.outcome,
                "baseline_trace": self.baseline.command, "variant_trace": self.variant.command}


@dataclass(frozen=True)
class PairedTable:
    """The questions both sides saw, by outcome, and the wrong answers on each side."""

    both_right: int
    """Handled correctly on both sides."""
    baseline_only: int
    """Handled correctly by the baseline only (McNemar's ``b``)."""
    variant_only: int
    """Handled correctly by the variant only (McNemar's ``c``)."""
    both_wrong: int
    """Handled correctly on neither side."""
    answered_wrong_baseline: int
    """Questions the baseline answered wrongly (a wrong quote or route, an answer due a refusal)."""
    answered_wrong_variant: int
    """Questions the variant answered wrongly."""

    @property
    def n(self) -> int:
        """The questions paired."""
        return self.both_right + self.baseline_only + self.variant_only + self.both_wrong

    def to_dict(self) -> dict[str, int]:
        """A JSON-ready form."""
        return {"both_right": self.both_right, "baseline_only": self.baseline_only,
                "variant_only": self.variant_only, "both_wrong": self.both_wrong,
                "answered_wrong_baseline": self.answered_wrong_baseline,
                "answered_wrong_variant": self.answered_wrong_variant, "n": self.n}


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found."""

    kind: SideKind
    """``settings`` (the quote source's gates and rules) or ``router``."""
    baseline: Side
    """The baseline, resolved."""
    variant: Side
    """The variant, resolved."""
    table: PairedTable
    """The paired outcomes."""
    test: McNemarResult
    """The exact McNemar test (``b``: baseline only right, ``c``: variant only right)."""
    difference: float
    """The variant's share handled correctly minus the baseline's, over the paired questions."""
    interval: tuple[float, float] | None
    """The exact 95% interval of :attr:`difference`, conditional on the number of discordant
    questions (the conditioning of the exact McNemar test): the Clopper-Pearson interval of the
    variant's share of them, mapped to a difference. ``None`` when no question flipped."""
    flips: tuple[Flip, ...]
    """Every flipped question with each side's trace."""
    rows: pd.DataFrame = field(repr=False)
    """Both sides' rows (``side`` column), as the run record holds them."""
    split: str | None = None
    """The split compared (``None``: every question)."""
    run: Path | None = None
    """The run record written, if any."""
    cached: Mapping[str, bool] = field(default_factory=dict)
    """Per side, whether its rows came from a cache."""

    @property
    def regression(self) -> bool:
        """Whether the variant is worse: more questions answered wrongly, or fewer right at p < 0.05.

        A variant that buys coverage with wrong answers is a regression whatever it gains.
        """
        table = self.table
        return (table.answered_wrong_variant > table.answered_wrong_baseline
                or (self.test.b > self.test.c and self.test.p_value < 0.05))

    @property
    def verdict(self) -> str:
        """One sentence: regression, improvement, or no evidence of a difference."""
        table = self.table
        more_wrong = table.answered_wrong_variant - table.answered_wrong_baseline
        if more_wrong > 0:
            return (f"REGRESSION: the variant answers {more_wrong} more question(s) wrongly "
                    f"({table.answered_wrong_baseline} -> {table.answered_wrong_variant})"
                    + (f", though it handles {self.test.c - self.test.b} more right"
                       if self.test.c > self.test.b else ""))
        if self.test.b > self.test.c and self.test.p_value < 0.05:
            return (f"REGRESSION: the variant handles {self.test.b - self.test.c} fewer questions "
                    f"right (p {format_p(self.test.p_value)})")
        if self.test.c > self.test.b and self.test.p_value < 0.05:
            return (f"improvement: the variant handles {self.test.c - self.test.b} more questions "
                    f"right (p {format_p(self.test.p_value)}) and answers no more wrongly")
        return (f"no evidence of a difference at p < 0.05 (p {format_p(self.test.p_value)}; "
                f"{self.test.b} flipped to wrong, {self.test.c} to right)")

    def trace(self, question_id: str, side: str = "variant") -> SideTrace:
        """One question's trace on one side (any question, flipped or not).

        Raises:
            CompareError: No such question or side.
        """
        return _side_trace(self.rows, question_id, side, self.run.name if self.run else None)

    def lines(self, show: int = 20) -> list[str]:
        """What the terminal shows: the sides, the table, the test, the verdict, the flips."""
        t = self.table
        change = f" ({self.variant.change})" if self.variant.change else ""
        out = [f"baseline: {self.baseline.label} ({self.kind})",
               f"variant:  {self.variant.label}{change}",
               f"{t.n} questions paired{', split ' + self.split if self.split else ''}",
               f"{'':16}{'variant right':>15}{'variant wrong':>15}",
               f"{'baseline right':16}{t.both_right:>15}{t.baseline_only:>15}",
               f"{'baseline wrong':16}{t.variant_only:>15}{t.both_wrong:>15}",
               f"answered wrong: baseline {t.answered_wrong_baseline}, "
               f"variant {t.answered_wrong_variant}"]
        interval = ("no interval (no question flipped)" if self.interval is None else
                    f"exact 95% interval {100 * self.interval[0]:+.1f} to "
                    f"{100 * self.interval[1]:+.1f} points, given the {t.baseline_only + t.variant_only} "
                    f"flipped")
        out.append(f"McNemar exact p = {format_p(self.test.p_value)} (b={self.test.b} baseline "
                   f"only, c={self.test.c} variant only); difference "
                   f"{100 * self.difference:+.1f} points, {interval}")
        out.append(f"verdict: {self.verdict}")
        out.append(f"flipped: {len(self.flips)}")
        for flip in self.flips[:show]:
            out.append(f"  {flip.id} {flip.direction}: {flip.baseline.outcome} -> "
                       f"{flip.variant.outcome} | {flip.question[:80]}")
            if flip.variant.command is not None:
                out.append(f"    trace: {TRACE_VERB} {flip.variant.run_id} {flip.id}")
        if len(self.flips) > show:
            out.append(f"  ... {len(self.flips) - show} more")
        if self.run is not None:
            out.append(f"run record: {self.run}")
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (``workbench compare --json``)."""
        return {"kind": self.kind, "split": self.split,
                "baseline": {"label": self.baseline.label, "change": self.baseline.change},
                "variant": {"label": self.variant.label, "change": self.variant.change},
                "table": self.table.to_dict(),
                "mcnemar": {"b": self.test.b, "c": self.test.c, "p_value": self.test.p_value},
                "difference": self.difference,
                "interval": list(self.interval) if self.interval is not None else None,
                "regression": self.regression, "verdict": self.verdict,
                "flips": [f.to_dict() for f in self.flips],
                "run": str(self.run) if self.run is not None else None,
                "cached": dict(self.cached)}


# --- one side's rows ------------------------------------------------------------------------------

ROW_COLUMNS: tuple[str, ...] = ("side", "id", "question", "set", "split", "good", "answered",
                                "answered_wrong", "outcome", "trace")
"""The columns of a comparison's rows; ``trace`` is JSON text."""


def _text(value: Any) -> Any:
    return None if value is None or (isinstance(value, float) and np.isnan(value)) else value


def _gate_rows(side: str, rows: pd.DataFrame, settings: Settings) -> pd.DataFrame:
    """One settings side's evaluation rows, judged as ``workbench runs diff`` judges a gate run."""
    record = RunRecord(folder=Path(side), manifest={"kind": "gates",
                                                    "order": list(settings.gates.order)},
                       rows=rows)
    verdicts = _gate_verdicts(record)
    answered = verdicts.outcome == ANSWERED
    wrong = answered & ~verdicts.good
    outcome = np.where(wrong, "answered wrong", verdicts.outcome.astype(str))
    traces = [json.dumps({"verdicts": json.loads(r["verdicts"]) if r.get("verdicts") else [],
                          "code": _text(r.get("code")), "top_path": _text(r.get("top_path")),
                          "quote": _text(r.get("quote")),
                          "answer": _text(r.get("answer_json"))}, ensure_ascii=False, default=str)
              for r in rows.to_dict(orient="records")]
    return pd.DataFrame({"side": side, "id": rows["id"].astype(str), "question": rows["question"],
                         "set": rows["set"], "split": rows["split"], "good": verdicts.good,
                         "answered": answered, "answered_wrong": wrong, "outcome": outcome,
                         "trace": traces}, columns=list(ROW_COLUMNS))


def _router_rows(side: str, items: pd.DataFrame) -> pd.DataFrame:
    """One router's rows of a router study, judged right or wrong as the study scored them."""
    correct = items["correct"].to_numpy(dtype=bool)
    answered = ~items["source"].isin(["refuse"]).to_numpy() & items["source"].notna().to_numpy()
    errors = [e if isinstance(e, str) and e else "wrong" for e in items["error"]]
    traces = [json.dumps({"decision": json.loads(r["decision"]) if r.get("decision") else None,
                          "raw_output": _text(r.get("raw_output")), "error": _text(r.get("error")),
                          "detail": _text(r.get("detail")),
                          "gold": json.loads(r["gold"]) if r.get("gold") else None},
                         ensure_ascii=False, default=str)
              for r in items.to_dict(orient="records")]
    return pd.DataFrame({"side": side, "id": items["id"].astype(str),
                         "question": items["question"], "set": items["kind"],
                         "split": items["split"], "good": correct, "answered": answered,
                         "answered_wrong": answered & ~correct,
                         "outcome": np.where(correct, "right", errors), "trace": traces},
                        columns=list(ROW_COLUMNS))


def _side_trace(rows: pd.DataFrame, question_id: str, side: str,
                run_id: str | None) -> SideTrace:
    if side not in SIDES:
        raise CompareError(f"unknown side {side!r}; sides: {', '.join(SIDES)}")
    found = rows[(rows["side"] == side) & (rows["id"].astype(str) == str(question_id))]
    if found.empty:
        raise CompareError(f"no question {question_id!r} on the {side} side of this comparison")
    row = found.iloc[0]
    return SideTrace(side=side, id=str(question_id), outcome=str(row["outcome"]),
                     good=bool(row["good"]), trace=json.loads(row["trace"]), run_id=run_id)


def compare_trace(run: RunRecord | str | os.PathLike[str], question_id: str,
                  side: str | None = None, *,
                  results_dir: str | os.PathLike[str] = "results") -> tuple[SideTrace, ...]:
    """The traces of one question of a comparison's run record: both sides, or ``side``.

    Raises:
        RunRecordError: No such run.
        CompareError: The run is no comparison, or holds no such question or side.
    """
    record = resolve_run(run, results_dir)
    if record.manifest.get("kind") != "compare":
        raise CompareError(f"{record.run_id} is a {record.manifest.get('kind')} run, not a "
                           "comparison (`workbench compare` writes those)")
    return tuple(_side_trace(record.rows, question_id, s, record.run_id)
                 for s in ((side,) if side is not None else SIDES))


# --- the comparison -------------------------------------------------------------------------------

def _difference(table: PairedTable) -> tuple[float, tuple[float, float] | None]:
    """The difference of the shares right and its interval given the discordant count."""
    flipped = table.baseline_only + table.variant_only
    if table.n == 0:
        return 0.0, None
    difference = (table.variant_only - table.baseline_only) / table.n
    if flipped == 0:
        return difference, None
    low, high = exact_interval(table.variant_only, flipped)
    scale = flipped / table.n
    return difference, (scale * (2 * low - 1), scale * (2 * high - 1))


def _settings_sides(baseline: Side, variant: Side, *, sets: Sequence[str], split: str | None,
                    questions: QuestionFiles | None, cache: bool
                    ) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, bool]]:
    frames, cached = [], {}
    for name, side in zip(SIDES, (baseline, variant), strict=True):
        rows, hit = evaluate_sets_cached(side.settings, sets=sets, split=split,
                                         questions=questions, cache=cache)
        frames.append(_gate_rows(name, rows, side.settings))
        cached[name] = hit
    return frames[0], frames[1], cached


def _router_sides(baseline: Side, variant: Side, settings: Settings, *, split: str | None,
                  questions: QuestionFiles | None, cache: bool
                  ) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, bool]]:
    names = (baseline.label, variant.label if variant.label != baseline.label
             else f"{variant.label} (variant)")
    tasksets = [Path(q) for q in questions] if questions is not None else None
    study = study_routers(settings, [], tasksets=tasksets, split=split or "test",
                          baseline=baseline.router, candidates={names[1]: variant.router},
                          cache=cache)
    items = study.comparison.items
    paired = set(paired_outcomes(study.comparison, study.baseline, names[1])["id"].astype(str))
    frames = []
    for name, router in zip(SIDES, (study.baseline, names[1]), strict=True):
        mine = items[(items["router"] == router) & items["id"].astype(str).isin(paired)]
        frames.append(_router_rows(name, mine))
    return frames[0], frames[1], {name: study.cached for name in SIDES}


def compare(baseline: SideSpec, variant: SideSpec, *, settings: Settings | None = None,
            sets: Sequence[str] = SETS, questions: QuestionFiles | None = None,
            split: str | None = None, cache: bool = True, write: bool = True) -> Comparison:
    """A variant against a baseline on the same questions, paired question by question.

    Args:
        baseline: The baseline (see :data:`SideSpec`), laid over ``settings``.
        variant: The variant, laid over the baseline's resolved settings: a gate or rule name
            switches that stage in the baseline's copy.
        settings: The settings both start from (default: :func:`load_settings`).
        sets: Bundled question sets (settings sides; ignored when ``questions`` is given).
        questions: Labelled question files of one's own (settings sides), or task-set files
            (router sides; default: the bundled router tasks and red team).
        split: Only this split; router sides default to ``test``, as the router study does.
        cache: Reuse an identical earlier evaluation of a side (``False``: evaluate afresh).
        write: Write the run record (kind ``compare``).

    Returns:
        A :class:`Comparison`.

    Raises:
        CompareError: A side names nothing known, a settings file that does not exist, or the
            sides are of two kinds (settings and a router).
        ConfigError: A side's changed settings do not hold.
    """
    settings = settings or load_settings()
    base = resolve_side(baseline, settings)
    other = resolve_side(variant, base.settings, settings)
    if base.kind != other.kind:
        raise CompareError(f"the baseline is {base.kind} ({base.label}) and the variant "
                           f"{other.kind} ({other.label}): compare settings with settings and "
                           "a router with a router")
    if base.kind == "settings":
        left, right, cached = _settings_sides(base, other, sets=sets, split=split,
                                              questions=questions, cache=cache)
    else:
        left, right, cached = _router_sides(base, other, settings, split=split,
                                            questions=questions, cache=cache)
    paired = left.merge(right, on="id", suffixes=("_a", "_b"))
    test = mcnemar(list(paired["good_a"]), list(paired["good_b"]))
    good_a, good_b = paired["good_a"].to_numpy(bool), paired["good_b"].to_numpy(bool)
    table = PairedTable(
        both_right=int((good_a & good_b).sum()), baseline_only=test.b, variant_only=test.c,
        both_wrong=int((~good_a & ~good_b).sum()),
        answered_wrong_baseline=int(paired["answered_wrong_a"].to_numpy(bool).sum()),
        answered_wrong_variant=int(paired["answered_wrong_b"].to_numpy(bool).sum()))
    difference, interval = _difference(table)
    rows = pd.concat([left[left["id"].isin(paired["id"])], right[right["id"].isin(paired["id"])]],
                     ignore_index=True)
    result = Comparison(kind=base.kind, baseline=base, variant=other, table=table, test=test,
                        difference=difference, interval=interval, flips=(), rows=rows,
                        split=split if base.kind == "settings" else split or "test",
                        cached=cached)
    if write:
        files = (question_files(base.settings, sets, questions) if base.kind == "settings"
                 else [Path(q) for q in questions] if questions is not None
                 else [Path(settings.paths.questions) / name for name in DEFAULT_TASKSETS])
        run = record_run("compare", rows, settings=base.settings,
                         summary={**table.to_dict(), "p_value": test.p_value,
                                  "difference": difference,
                                  "interval": list(interval) if interval else None,
                                  "regression": result.regression, "verdict": result.verdict},
                         extra={"comparison": base.kind, "split": result.split,
                                "sides": {"baseline": base.to_dict(), "variant": other.to_dict()},
                                "questions": question_file_records(files)})
        result = replace(result, run=run)
    run_id = result.run.name if result.run is not None else None
    flips = tuple(
        Flip(id=str(r["id"]), question=str(r["question_a"]),
             direction="improved" if r["good_b"] else "regressed",
             baseline=_side_trace(rows, str(r["id"]), "baseline", run_id),
             variant=_side_trace(rows, str(r["id"]), "variant", run_id))
        for r in paired[paired["good_a"] != paired["good_b"]].to_dict(orient="records"))
    return replace(result, flips=flips)


__all__ = ["CURRENT", "TRACE_VERB", "Comparison", "CompareError", "Flip", "PairedTable", "Side",
           "SideSpec", "SideTrace", "compare", "compare_trace", "known_names", "resolve_side"]
