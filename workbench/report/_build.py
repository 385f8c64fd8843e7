"""The HTML report: one self-contained page built from one suite of run records.

Every number on the page is recomputed from a saved run record with the workbench's own
analysis functions (``gate_attribution``, ``rule_ablation``, ``headline``, ``catch_rates``,
``summarise``, the router comparison's paired test); nothing is typed in. A section whose run
is missing says so and how to make one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from workbench import plots as figures
from workbench.index._layout import check_out_file
from workbench.report._html import esc, figure, number, page, percent, table
from workbench.report._riskview import risk_coverage_block
from workbench.report._scope import (
    ReportError,
    ReportScope,
    report_scope,
    split_label,
    split_labels,
)
from workbench.report._traces import clip, over_refusal_traces, trace_block, trace_key
from workbench.routing import HEADLINE_METRICS, ROUTER_METRIC, ROUTER_METRICS
from workbench.runs import RunRecord, runs_df
from workbench.stats import format_p
from workbench.studies import (
    DEFINITION,
    GLOSSARY,
    OUTCOME_DEFINITIONS,
    OUTCOMES,
    STRICT_DEFINITION,
    SelectionReport,
    compare_pair,
    gold_for_run,
    paired_outcomes,
    selection_errors,
    suite_figures,
)
from workbench.studies._figures import e2e_figures, negative_figures
from workbench.studies._findings import STATES

REPORT_NAME = "report.html"
"""The file name of the report inside the results folder."""


Scoped = ReportScope | str | os.PathLike[str]
"""What a section is built from: a scope, or a results folder (its default scope)."""


def _as_scope(where: Scoped) -> ReportScope:
    return where if isinstance(where, ReportScope) else report_scope(where)


@dataclass(frozen=True)
class Section:
    """One section of the report."""

    key: str
    """The anchor id (``#gates``)."""
    title: str
    """The heading."""
    intro: str
    """What the section shows and how to read it, in one or two sentences (plain text)."""
    body: str
    """The section's HTML below the intro."""
    runs: tuple[str, ...] = field(default=())
    """The run ids the section was built from."""
    needs_runs: bool = True
    """Whether the section shows figures of runs (the glossary does not)."""

    @property
    def missing(self) -> bool:
        """Whether no run fed a section that needs one."""
        return self.needs_runs and not self.runs

    def html(self) -> str:
        """The section as HTML."""
        return (f'<section id="{esc(self.key)}"><h2>{esc(self.title)}</h2>'
                f'<p class="intro">{esc(self.intro)}</p>{self.body}</section>')


def _when(record: RunRecord) -> str:
    stamp = str(record.manifest.get("created_at") or "")
    try:
        return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return stamp or "an unknown time"


def _source(record: RunRecord, *details: str) -> str:
    """``From run <id>, <date> · details · commit``: where a block's numbers come from."""
    commit = record.manifest.get("git_commit")
    parts = [f"From run <code>{esc(record.run_id)}</code>, {esc(_when(record))}",
             *(esc(d) for d in details if d)]
    if commit:
        parts.append(f"commit <code>{esc(str(commit)[:10])}</code>")
    return '<p class="source">' + " · ".join(parts) + "</p>"


def _missing(kind: str, scope: Scoped, study: str | None = None) -> str:
    """No run of ``kind`` in scope: say so, and give the command that makes one for this data."""
    how = _as_scope(scope).command(study or kind)
    return (f'<p class="missing">No <b>{esc(kind)}</b> run record yet, so this section has no '
            f"numbers. Make one with <code>{esc(how)}</code>, then rebuild the report with "
            f"<code>workbench report</code>.</p>")


def _int(value: Any) -> str:
    return "–" if value is None or (isinstance(value, float) and pd.isna(value)) else f"{int(value):,}"


# --- leakage ------------------------------------------------------------------------------------

def _leak_table(record: RunRecord) -> tuple[pd.DataFrame | None, int | None, int]:
    """Per set: answers, mode-A answers, leaks (``None`` when the rows carry no leak verdict).

    A gate run (``eval gates`` re-checks every verified answer) gives its summary's totals.
    """
    rows = record.rows
    summary = record.manifest.get("summary") or {}
    if record.manifest.get("kind") != "answers":
        total, answered = summary.get("leakage"), summary.get("answered")
        return None, (int(total) if total is not None else None), int(answered or 0)
    mode_a = rows["mode"].eq("A") if "mode" in rows.columns else pd.Series(False, index=rows.index)
    if "leak" not in rows.columns:
        total = summary.get("leakage")
        return None, (int(total) if total is not None else None), int(mode_a.sum())
    leak = rows["leak"].astype(bool)
    sets = rows["set"] if "set" in rows.columns else pd.Series("all", index=rows.index)
    records = [{"evaluation set": str(name), "answers": int(len(part)),
                "mode-A answers": int(mode_a[part.index].sum()), "leaks": int(leak[part.index].sum())}
               for name, part in rows.groupby(sets, sort=False)]
    records.append({"evaluation set": "all", "answers": len(rows), "mode-A answers": int(mode_a.sum()),
                    "leaks": int(leak.sum())})
    return pd.DataFrame.from_records(records), int(leak.sum()), int(mode_a.sum())


def leak_runs(scope: Scoped) -> dict[Any, RunRecord]:
    """Per rerank mode, the run that measured leakage: its answers run, else its gate run.

    ``eval gates`` re-checks every verified answer and records the leaks in its summary, so a
    project that never ran the demo's answers step still has its leakage measured.
    """
    scope = _as_scope(scope)
    found = dict(scope.runs("answers", "mode"))
    for mode, record in scope.runs("gates", "mode").items():
        if mode not in found and "leakage" in (record.manifest.get("summary") or {}):
            found[mode] = record
    return {m: found[m] for m in sorted(found, key=lambda v: (v is None, str(v)))}


def leakage_banner(scope: Scoped) -> tuple[str, Section]:
    """The leakage banner at the top of the page and its section with the per-set counts."""
    runs = leak_runs(scope)
    intro = ("A leak is an answer shown as verified (mode A) whose evidence does not hold: no "
             "evidence, an answer although the source refused, or an invariant that failed when "
             "the run re-checked it against the files. The target is 0 in every evaluation set.")
    if not runs:
        how = _as_scope(scope).command("answers")
        banner = ('<div class="banner none" id="banner-leakage"><div class="big">?</div>'
                  '<div class="what"><b>Leakage: not measured yet.</b> Run '
                  f"<code>{esc(how)}</code>.</div></div>")
        return banner, Section("leakage", "Leakage", intro, _missing("answers", scope))
    blocks, total, answered, known = [], 0, 0, True
    for mode, record in runs.items():
        frame, leaks, mode_a = _leak_table(record)
        answered += mode_a
        mode_text = f"rerank mode {mode}" if mode else ""
        blocks.append(f"<h3>{esc(mode or 'answers')}</h3>"
                      + _source(record, mode_text, split_label(record)))
        if frame is None and record.manifest.get("kind") != "answers":
            blocks.append(f"<p>Measured by the gate run, which re-checked each of its "
                          f"{mode_a:,} verified answers against the files: "
                          f"<b>{esc(_int(leaks))}</b> leak(s).</p>")
        elif frame is None:
            blocks.append(f'<p class="missing">This run predates per-answer leak verdicts; its '
                          f"summary records {esc(_int(leaks))} leak(s) in all. Re-run "
                          f"<code>{esc(_as_scope(scope).command('answers'))}</code> for the "
                          "per-set counts.</p>")
        else:
            blocks.append(table(frame, {c: _int for c in ("answers", "mode-A answers", "leaks")}))
        if leaks is None:
            known = False
        else:
            total += leaks
    state = "bad" if total else ("ok" if known else "none")
    shown = _int(total) if known else "?"
    where = ", ".join(f"{esc(str(m))}: {esc(r.manifest.get('kind'))} run, {esc(split_label(r))}"
                      for m, r in runs.items())
    banner = (f'<div class="banner {state}" id="banner-leakage"><div class="big">{shown}</div>'
              f'<div class="what"><b>Leakage: {shown} of {answered:,} mode-A answers lack '
              f"verifiable evidence</b>"
              f"<br>the run that measured it for each rerank mode in this report ({where}); the "
              f'target is 0 — <a href="#leakage">per evaluation set</a></div></div>')
    return banner, Section("leakage", "Leakage per evaluation set", intro, "".join(blocks),
                           tuple(r.run_id for r in runs.values()))


# --- selection errors ---------------------------------------------------------------------------

def _trace(mode: str, row: Any) -> str:
    """One wrong answer, collapsed to its question; a click opens the quote, gold span and gates."""
    summary = (f"<code>{esc(row['id'])}</code> {esc(row['set'])} · {esc(row['split'])} · "
               f"{esc(row['level'])} level — {esc(clip(row['question'], 160))}")
    return trace_block(trace_key("trace", mode, row["id"]), summary, [
        (f"quote ({row['quoted_at']})", row["quote"]), ("gold span", row["gold"]),
        ("gate verdicts", row["verdicts"])])


def _target_rows(report: SelectionReport) -> pd.DataFrame:
    return pd.DataFrame.from_records([
        {"target": c.target.label, "split": c.target.split or "every question",
         "measured": c.value_text(), "goal": c.target.goal_text(),
         "met": {True: "met", False: "NOT met", None: "not measured"}[c.met]}
        for c in report.targets])


def selection_reports(scope: Scoped) -> dict[Any, tuple[RunRecord, SelectionReport]]:
    """Per rerank mode: the gate run and its selection errors, the leakage taken from its answers run."""
    answers = leak_runs(scope)
    out: dict[Any, tuple[RunRecord, SelectionReport]] = {}
    for mode, record in _as_scope(scope).runs("gates", "mode").items():
        leaks, answered = None, None
        if mode in answers:
            _, leaks, answered = _leak_table(answers[mode])
        out[mode] = (record, selection_errors(record, gold=gold_for_run(record), leaks=leaks,
                                              answered=answered))
    return out


def selection_banner(scope: Scoped) -> tuple[str, Section]:
    """The answered-wrong figure beside the leakage one, and its section: targets, wrong answers."""
    intro = DEFINITION + " " + STRICT_DEFINITION
    reports = selection_reports(scope)
    if not reports:
        return "", Section("selection", "Selection errors and targets", intro,
                           _missing("gates", scope))
    wrong = sum(r.answered_wrong for _, r in reports.values())
    verified = sum(r.verified for _, r in reports.values())
    splits = split_labels([record for record, _ in reports.values()])
    missed = [f"{esc(c.target.label)} ({esc(mode)})" for mode, (_, r) in reports.items()
              for c in r.targets if c.met is False]
    over: dict[Any, tuple[int, str]] = {
        mode: over_refusal_traces(mode, record.rows, gold_for_run(record))
        for mode, (record, _) in reports.items()}
    over_total = sum(n for n, _ in over.values())
    state = "bad" if wrong or missed else "ok"
    banner = (f'<div class="banner {state}" id="banner-selection"><div class="big">{wrong:,}'
              f'</div><div class="what"><b>Answered wrong: {wrong:,} of {verified:,} verified '
              f"answers quote the wrong "
              f"place</b> (selection errors, every rerank mode, {esc(splits)}); "
              f'<a href="#over-refused">{over_total:,} answerable questions over-refused</a><br>'
              + (f"targets not met: {'; '.join(missed)}" if missed else "every target is met")
              + ' — <a href="#selection">per set, the targets, and each wrong answer</a>'
              "</div></div>")
    blocks = []
    for mode, (record, report) in reports.items():
        label = split_label(record)
        blocks.append(f"<h3>Rerank mode: {esc(mode or 'unknown')}</h3>")
        blocks.append(_source(record, f"counts: every question of the run, {label}; targets: "
                                      "the split each names"))
        blocks.append("<p><b>Targets</b></p>")
        blocks.append(table(_target_rows(report)))
        view = report.per_set.rename(columns={"wrong share": "wrong share of verified"})
        formats: dict[str, Callable[[Any], str]] = {c: _int for c in view.columns}
        formats["wrong share of verified"] = percent
        blocks.append(f"<p><b>Answered wrong per set</b> ({esc(label)})</p>")
        blocks.append(table(view, formats, index=True))
        if len(report.wrong):
            blocks.append(f"<p><b>Each wrong answer</b> ({len(report.wrong)}; click one to open "
                          "its trace: the quote, the gold span, every gate's verdict)</p>")
            blocks.append("".join(_trace(str(mode), row)
                                  for _, row in report.wrong.iterrows()))
        count, traces = over[mode]
        blocks.append(f'<p id="over-refused{"" if mode == next(iter(over)) else "-" + esc(mode)}">'
                      f"<b>Each over-refusal</b> ({count:,}; an answerable question the gates "
                      "refused, wherever its gold fragment ranked; click one to open its trace: "
                      "the refusal, the best fragment, the gold span, every gate's verdict)</p>")
        blocks.append(traces or "<p>None: every answerable question was answered.</p>")
    return banner, Section("selection", "Selection errors, over-refusals and targets", intro,
                           "".join(blocks), tuple(r.run_id for r, _ in reports.values()))


# --- end to end ---------------------------------------------------------------------------------

E2E_INTRO = ("Every question of the end-to-end set (all three sources and refusals, Russian and "
             "English) asked through ask's own path with one router, and judged by its outcome. "
             + " ".join(f"{o[0].upper()}{o[1:]}: {d}." for o, d in OUTCOME_DEFINITIONS.items()))


def _e2e_anchor(item_id: Any) -> str:
    return f"e2e-{item_id}"


def _e2e_trace(row: Any) -> str:
    """One end-to-end question, collapsed; opened: the gold and what ``ask`` printed for it."""
    key = _e2e_anchor(row["id"])
    code = f" · {esc(row['code'])}" if row.get("code") else ""
    return (f'<details class="trace" id="{esc(key)}"><summary><a href="#{esc(key)}">'
            f"<code>{esc(row['id'])}</code></a> {esc(row['source'])} · {esc(row['split'])} · "
            f"{esc(row['lang'])} · <b>{esc(row['outcome'])}</b>{code} — "
            f"{esc(row['question'])}</summary>"
            f"<dl><dt>gold</dt><dd><pre>{esc(row.get('gold', ''))}</pre></dd>"
            f"<dt>trace (what <code>workbench ask</code> prints)</dt>"
            f"<dd><pre>{esc(row.get('trace', ''))}</pre></dd></dl></details>")


def _e2e_frame(figures: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame.from_records([{"source": source, **counts}
                                      for source, counts in figures["per_source"].items()])


def e2e_banner(scope: Scoped) -> tuple[str, Section]:
    """The end-to-end outcomes per source on the front page, and the section with every trace."""
    record = _as_scope(scope).run("e2e")
    if record is None:
        return "", Section("e2e", "End to end, per source", E2E_INTRO,
                           _missing("e2e", scope))
    found = e2e_figures(record)
    counts = {c: _int for c in ("items", *OUTCOMES, "same code")}
    wrong = found["verified_wrong"]
    links = ", ".join(f'<a href="#{esc(_e2e_anchor(w["id"]))}">{esc(w["id"])}</a> '
                      f"({esc(w['source'])})" for w in wrong)
    total = found["per_source"]["all"]
    state = "bad" if wrong else "ok"
    banner = (f'<div class="banner {state}" id="banner-e2e"><div class="big">{len(wrong):,}</div>'
              f'<div class="what"><b>End to end: {len(wrong):,} of {total["items"]:,} questions '
              f"answered verified-wrong</b> (router {esc(found['router'] or '?')}, every source "
              f"and the refusals, {esc(split_label(record))}; exact 95% interval of the share "
              f"{' to '.join(map(percent, found['verified_wrong_interval']))})"
              f"{': ' + links if links else ''}"
              + table(_e2e_frame(found)[["source", "items", *OUTCOMES]], counts)
              + '<p class="defs">' + " ".join(
                  f"<b>{esc(o)}</b>: {esc(d)}." for o, d in OUTCOME_DEFINITIONS.items())
              + ' — <a href="#e2e">every question and its trace</a></p></div></div>')
    rows = record.rows
    blocks = [_source(record, f"router {found['router']} ({found['router_reason']})",
                      f"split {found['split'] or 'all'}"),
              table(_e2e_frame(found), counts)]
    missed = rows[~rows["outcome"].isin(["answered correctly", "refused correctly"])]
    if len(missed):
        blocks.append(f"<p><b>Each question not handled correctly</b> ({len(missed)}; verified "
                      "wrong first; click one to open its gold and trace)</p>")
        ordered = missed.assign(_wrong=missed["outcome"].ne("verified wrong")).sort_values(
            ["_wrong", "source", "id"], kind="stable")
        blocks.append("".join(_e2e_trace(row) for _, row in ordered.iterrows()))
    return banner, Section("e2e", "End to end, per source", E2E_INTRO, "".join(blocks),
                           (record.run_id,))


# --- gates --------------------------------------------------------------------------------------

def _scope(record: RunRecord) -> str:
    sets = record.manifest.get("sets")
    parts = [split_label(record)]
    if sets:
        parts.append("sets " + ", ".join(sets))
    return "; ".join(parts)


def _stages(record: RunRecord) -> str:
    """The stages the run's manifest lists: gates in order, rules with parameters and state."""
    stages = record.manifest.get("stages") or []
    if not stages:
        return ""

    def name(stage: dict) -> str:
        params = stage.get("params") or {}
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        return esc(str(stage.get("name"))) + (f" ({esc(shown)})" if shown else "")

    gates = [name(s) for s in stages if s.get("kind") == "gate"]
    rules = [name(s) + ("" if s.get("enabled") else " [off]") for s in stages
             if s.get("kind") == "relevance_rule"]
    return (f"<p>Stages built: gates {' &gt; '.join(gates) or '—'}; relevance rules "
            f"{', '.join(rules) or '—'}.</p>")


def gates_section(scope: Scoped) -> Section:
    """First-firing gate per question set, per rerank mode, with the test-split shares."""
    from workbench.studies import gate_attribution, headline, run_order

    intro = ("Every question runs through every gate; the table credits each refusal to the first "
             "gate in the configured order that fires, and splits the answered questions into "
             "answered from a gold fragment (correct) and answered otherwise (wrong). Read a row "
             "left to right as the question set draining through the gates. The verbatim gate "
             "reads 0 while the course files match the index: it fires only when a quote is no "
             "longer in its file as it is now, that is after files drift (see the drift audit).")
    runs = _as_scope(scope).runs("gates", "mode")
    if not runs:
        return Section("gates", "Gate firing", intro, _missing("gates", scope))
    blocks = []
    for mode, record in runs.items():
        order = run_order(record, None)
        attribution = gate_attribution(record)
        blocks.append(f"<h3>Rerank mode: {esc(mode or 'unknown')}</h3>")
        blocks.append(_source(record, f"order {' > '.join(order)}", _scope(record)))
        blocks.append(_stages(record))
        view = attribution.rename(columns={"answered_correct": "answered, correct",
                                           "false_answers": "answered, wrong"})
        blocks.append(f"<p><b>Counts: every question of the run, "
                      f"{esc(_scope(record))}</b> ({int(attribution.loc['all', 'n']):,} questions)."
                      "</p>")
        blocks.append(table(view, {c: _int for c in view.columns}, index=True))
        blocks.append(figure(figures.gate_firing_figure(
            attribution, order, f"First gate to refuse, per question set ({mode})"),
            f"fig-gates-{mode or 'unknown'}"))
        shares = headline(record, "test") if "split" in record.rows.columns and (
            record.rows["split"] == "test").any() else {}
        if shares:
            blocks.append("<p><b>Shares: test split only</b> — " + "; ".join(
                f"{esc(k.replace('_', ' '))} <b>{percent(v)}</b>" for k, v in shares.items())
                + ".</p>")
    return Section("gates", "Gate firing", intro, "".join(blocks),
                   tuple(r.run_id for r in runs.values()))


def ablation_section(scope: Scoped) -> Section:
    """Every subset of the relevance rules against no rule at all, on the dev split."""
    from workbench.studies import rule_ablation

    intro = ("Each row switches on one subset of the relevance rules and counts, question by "
             "question against no rule at all, the false answers it eliminates and the correct "
             "answers it breaks. A rule earns its place when it eliminates more than it breaks; "
             "the rules are chosen on the dev split, so the table is computed there.")
    scoped = _as_scope(scope)
    shown = scoped.runs("gates", "mode")
    runs = scoped.runs_with_split("gates", "mode", "dev")
    if not shown and not runs:
        return Section("ablation", "Relevance-rule ablation", intro,
                       _missing("gates", scope, "ablation"))
    blocks = []
    for mode in shown.keys() - runs.keys():
        blocks.append(f"<h3>Rerank mode: {esc(mode or 'unknown')}</h3>")
        blocks.append(f'<p class="missing">The gate run of this mode holds no dev question '
                      f"({esc(split_label(shown[mode]))}), and the rules are chosen on dev: "
                      f"run <code>{esc(scoped.command('ablation'))}</code>, then rebuild the "
                      "report with <code>workbench report</code>.</p>")
    for mode, record in runs.items():
        ablation = rule_ablation(record, split="dev")
        enabled = ((record.manifest.get("settings") or {}).get("gates") or {}).get(
            "relevance_rules")
        if enabled is not None:
            in_use = "+".join(enabled) if enabled else "(none)"
            ablation.insert(1, "in use", ["yes" if r == in_use else "" for r in ablation["rules"]])
        blocks.append(f"<h3>Rerank mode: {esc(mode or 'unknown')}</h3>")
        blocks.append("<p><b>Counts: dev split only</b> (rules are chosen on dev; test is kept "
                      "for reporting).</p>")
        dev = int((record.rows["split"] == "dev").sum())
        blocks.append(_source(record, f"dev split, {dev:,} questions"))
        view = ablation.drop(columns=["n_rules"]).rename(columns={"false_answers": "false answers"})
        blocks.append(table(view, {c: _int for c in ("false answers", "eliminated", "correct",
                                                     "broken")}))
    return Section("ablation", "Relevance-rule ablation", intro, "".join(blocks),
                   tuple(r.run_id for r in runs.values()))


# --- held-out ----------------------------------------------------------------------------------

HELDOUT_KEYS = ("utility_accuracy", "argument_exact_match", "verified_wrong_answer_rate",
                "conscious_refusal_rate", "over_refusal_rate")  # and the README headline's (a test)


def heldout_section(scope: Scoped) -> Section:
    """Every router on each held-out round: the figures that say what a new user meets."""
    intro = ("Sets written by people who saw only the utility catalog, scored as written; nothing "
             "trains or tunes on them, so this is what a new user's wording meets. Each round was "
             "written after the last had been scored. Verified wrong is a share of the calls, red "
             "team refused of the must-refuse lines, over-refusal of the answerable ones; the test "
             "split follows under Router comparison.")
    record = _as_scope(scope).run("heldout")
    if record is None:
        return Section("heldout", "Held-out rounds: the generalization figures", intro,
                       _missing("heldout", scope))
    blocks = [_source(record, "split heldout")]
    for name, block in (record.manifest.get("summary") or {}).items():
        rows = [{"router": router, "items": _int(shown.get("items")), **{
            ROUTER_METRIC[key].label: percent(shown[key]) for key in HELDOUT_KEYS if key in shown}}
                for router, shown in (block.get("routers") or {}).items()]
        blocks.append(f"<h3>Round {esc(str(name))}: {esc(', '.join(block.get('tasksets') or []))}</h3>")
        blocks.append(table(pd.DataFrame.from_records(rows)))
    return Section("heldout", "Held-out rounds: the generalization figures", intro, "".join(blocks),
                   (record.run_id,))


# --- routers ------------------------------------------------------------------------------------

def routers_section(scope: Scoped) -> Section:
    """The router comparison: the summary per router and McNemar of the first against each other."""
    lower = ", ".join(m.label for m in ROUTER_METRICS if m.better == "lower")
    intro = ("Routers decide, per task, which source answers and with which utility and "
             "arguments. The table gives each router's shares on the same items (higher is better "
             f"except {lower}); McNemar's exact "
             "test asks whether two routers' right/wrong outcomes differ by more than chance. "
             "Incorrect answers: items where the router chose a source (did not refuse) and its "
             "decision was not right, over every item. Visible failures: items whose error a "
             "reader sees (a wrong source or utility, a missing or unexpected argument, a refusal "
             "where an answer was due, a parse failure), over every item. Verified wrong answers: "
             "a wrong argument value, which the utility executes and shows as verified.")
    record = _as_scope(scope).run("routers")
    if record is None:
        return Section("routers", "Router comparison", intro,
                       _missing("routers", scope))
    summary = pd.DataFrame.from_dict(record.manifest.get("summary") or {}, orient="index")
    names = [str(n) for n in (record.manifest.get("routers") or dict.fromkeys(record.rows["router"]))]
    names = [n for n in names if n in summary.index] or [str(n) for n in summary.index]
    summary = summary.loc[names]
    # Figures as rows and routers as columns: a dozen figures stay readable for any few routers.
    shown_rows = []
    for metric in ROUTER_METRICS:
        if metric.key not in summary.columns:
            continue
        format_cell: Callable[[Any], str] = (
            _int if metric.kind == "count" else
            (lambda v: number(v, 1)) if metric.kind == "number" else percent)
        shown_rows.append({"figure": metric.label,
                           **{name: format_cell(summary.loc[name, metric.key]) for name in names}})
    shown = pd.DataFrame.from_records(shown_rows, columns=["figure", *names])
    split = record.manifest.get("split")
    tasksets = ", ".join(record.manifest.get("tasksets") or [])
    blocks = [_source(record, f"split {split}" if split else "all splits",
                      f"task sets {tasksets}" if tasksets else ""),
              table(shown)]
    if len(names) >= 2:
        tests = []
        for other in names[1:]:
            paired = paired_outcomes(record.rows, names[0], other)
            result = compare_pair(record.rows, names[0], other)
            tests.append({"router A": names[0], "router B": other, "paired items": len(paired),
                          "b (only A right)": result.b, "c (only B right)": result.c,
                          "exact p": result.p_value})
        blocks.append("<h3>McNemar, paired on the same items</h3>")
        blocks.append(table(pd.DataFrame.from_records(tests),
                            {"exact p": format_p}))
    else:
        blocks.append("<p>Only one router in this run: there is no pair to test. Train a router "
                      "with <code>workbench router train models/routers/base.toml</code>.</p>")
    headline = [(m.key, m.name) for m in HEADLINE_METRICS]
    blocks.append(figure(figures.router_figure(summary, headline,
                                               "Router figures on the same items"), "fig-routers"))
    findings = record.manifest.get("findings") or []
    if findings:
        blocks.append("<h3>The three router findings, measured on these routers</h3>")
        # a list, not a table: a claim and its verdict are sentences that need the page's width
        blocks.append("<ol>" + "".join(
            f"<li><p><b>{esc(f['claim'])}</b> ({esc(f['routers'][0])} against "
            f"{esc(f['routers'][1])}): <i>{STATES[f['holds']]}</i>. {esc(f['verdict'])}</p></li>"
            for f in findings) + "</ol>")
    return Section("routers", "Router comparison", intro, "".join(blocks), (record.run_id,))


# --- drift --------------------------------------------------------------------------------------

def drift_section(scope: Scoped) -> Section:
    """The drift audit: fragments per status and the files that moved on."""
    from workbench.index import summarise

    intro = ("The audit checks every indexed fragment against the course files as they are now: "
             "match (still at its anchor, quotable), drifted (elsewhere in its file), changed "
             "(gone from a file that exists) or missing_file. Only match fragments can be quoted.")
    record = _as_scope(scope).run("drift")
    if record is None:
        return Section("drift", "Drift audit", intro, _missing("drift", scope))
    summary = summarise(record.rows)
    counts = {"match": summary.match, "drifted": summary.drifted, "changed": summary.changed,
              "missing_file": summary.missing_file}
    blocks = [_source(record),
              f"<p><b>{summary.total:,}</b> fragments; quotable now <b>{percent(summary.quotable_share)}"
              f"</b>; {summary.missing_files} missing file(s).</p>",
              figure(figures.drift_figure(counts, "Fragments by status"), "fig-drift")]
    moved = record.rows[record.rows["status"] != "match"]
    if len(moved):
        per_file = pd.crosstab(moved["path"], moved["status"])
        per_file["total"] = per_file.sum(axis=1)
        per_file = per_file.sort_values("total", ascending=False).head(15)
        per_file.columns.name = None
        blocks.append(f"<h3>Files with fragments that moved on ({moved['path'].nunique()} in all; "
                      f"at most 15 shown)</h3>")
        blocks.append(table(per_file, {c: _int for c in per_file.columns}, index=True))
    else:
        blocks.append("<p>Every fragment is at its anchor: nothing drifted.</p>")
    return Section("drift", "Drift audit", intro, "".join(blocks), (record.run_id,))


# --- FTS ----------------------------------------------------------------------------------------

def fts_section(scope: Scoped) -> Section:
    """The morphism library's status and integrity, and every specification's verdict."""
    intro = ("Specifications may rest only on reviewed (verified or derived) entries of the "
             "morphism library. The first table counts the library's entries by review status; "
             "the second gives each specification's verdict: certified, or the gate or fallacy "
             "code that stopped it.")
    record = _as_scope(scope).run("fts")
    if record is None:
        return Section("fts", "FTS library status", intro, _missing("fts", scope))
    library = record.manifest.get("library") or {}
    blocks = [_source(record)]
    if library:
        intact = library.get("intact")
        pill = ('<span class="pill ok">intact</span>' if intact else
                '<span class="pill bad">NOT intact</span>')
        blocks.append(f"<p>Library: <b>{_int(library.get('entries'))}</b> entries, {pill}, digest "
                      f"<code>{esc(str(library.get('digest', ''))[:16])}</code>.</p>")
        counts = pd.DataFrame({"status": list(library.get("counts", {})),
                               "entries": list(library.get("counts", {}).values())})
        blocks.append(table(counts, {"entries": _int}))
        for problem in library.get("problems") or []:
            blocks.append(f'<p class="missing">{esc(problem)}</p>')
    rows = record.rows
    certified = int(rows["passed"].sum()) if "passed" in rows.columns else 0
    blocks.append(f"<h3>Specifications: {certified} of {len(rows)} certified</h3>")
    view = rows.reindex(columns=["spec_id", "passed", "code", "fallacies", "certificate_digest"])
    view["passed"] = view["passed"].map(lambda p: "certified" if p else "refused")
    view["certificate_digest"] = view["certificate_digest"].map(
        lambda d: str(d)[:12] if isinstance(d, str) and d else "–")
    blocks.append(table(view.rename(columns={"passed": "verdict", "certificate_digest": "certificate"})))
    limit = record.manifest.get("counterexample")
    if limit:
        blocks.append(f"<p>The limit: the export-VAT specification stops at "
                      f"<code>{esc(limit.get('shipped_code'))}</code> with the shipped library; with "
                      f"«{esc(limit.get('entry'))}» flipped to verified it is "
                      f"{'certified' if limit.get('flipped_passed') else 'refused'} and concludes "
                      f"<code>{esc(limit.get('conclusion'))}</code>.</p>")
    return Section("fts", "FTS library status", intro, "".join(blocks), (record.run_id,))


# --- negative control ---------------------------------------------------------------------------

def negative_section(scope: Scoped) -> Section:
    """Forgeries caught per kind and the overall catch rate."""
    from workbench.studies import catch_rates

    intro = ("Genuine answers are spoiled on purpose in many ways (each row is one way) and run "
             "through the invariant checker; a forgery is caught when at least one invariant "
             "fails. Genuine answers run alongside as a control and must all pass; the checker "
             "tests where evidence comes from, not whether it fits the question, so a kind that "
             "attaches another question's valid evidence is expected to pass.")
    record = _as_scope(scope).run("negative_control")
    if record is None:
        return Section("negative", "Negative control", intro,
                       _missing("negative_control", scope))
    per_kind = catch_rates(record.rows)
    caught, total = int(record.rows["caught"].sum()), len(record.rows)
    summary = record.manifest.get("summary") or {}
    genuine = ""
    if "genuine" in summary:
        genuine = (f"; genuine answers passing: <b>{_int(summary.get('genuine_passed'))} of "
                   f"{_int(summary.get('genuine'))}</b>")
    control = negative_figures(record)
    without = ""
    if control["forgeries_without"] and control["expected_to_pass_forgeries"]:
        rate = percent(control["caught_without"] / control["forgeries_without"])
        without = (f"<p>Without the kind expected to pass "
                   f"({esc(', '.join(control['expected_to_pass']))}: "
                   f"{control['expected_to_pass_caught']:,} of "
                   f"{control['expected_to_pass_forgeries']:,} caught): <b>"
                   f"{control['caught_without']:,} of {control['forgeries_without']:,}</b>, "
                   f"catch rate <b>{rate}</b>.</p>")
    blocks = [_source(record, f"seed {summary['seed']}" if "seed" in summary else ""),
              f"<p><b>{caught:,} of {total:,}</b> forgeries caught, catch rate "
              f"<b>{percent(caught / total if total else None)}</b> over {len(per_kind)} kinds"
              f"{genuine}.</p>", without,
              figure(figures.catch_rate_figure(per_kind, "Catch rate per forgery kind"),
                     "fig-negative"),
              table(per_kind.rename(columns={"catch_rate": "catch rate",
                                             "caught_by": "caught most often by"}),
                    {"forgeries": _int, "caught": _int, "catch rate": percent})]
    return Section("negative", "Negative control", intro, "".join(blocks), (record.run_id,))


# --- figures -----------------------------------------------------------------------------------

def scope_figures(scope: Scoped, models_dir: str | os.PathLike[str] = "models") -> dict[str, Any]:
    """The measured figures of the runs in scope (:func:`workbench.studies.suite_figures`)."""
    scope = _as_scope(scope)
    return suite_figures(suite=scope.suite, gates=scope.runs("gates", "mode"),
                         answers=scope.runs("answers", "mode"),
                         negative=scope.run("negative_control"), routers=scope.run("routers"),
                         e2e=scope.run("e2e"), models_dir=models_dir)


# --- glossary ----------------------------------------------------------------------------------

def glossary_section(scope: Scoped) -> Section:
    """The terms the tables use (it needs no run)."""
    body = "<dl class=\"glossary\">" + "".join(
        f"<dt>{esc(term)}</dt><dd>{esc(meaning)}</dd>" for term, meaning in GLOSSARY) + "</dl>"
    return Section("glossary", "Glossary", "The terms the tables above use.", body,
                   needs_runs=False)


# --- sweeps -------------------------------------------------------------------------------------

def sweep_section(scope: Scoped) -> Section:
    """The latest sweep: its curve per rerank mode (or first axis) and its cells."""
    intro = ("A sweep runs a grid of settings; each point is one cell: the share of answerable "
             "questions answered from a gold fragment (HasAns) against the share of questions "
             "that must be refused that were refused (NoAns). Cells that failed are listed.")
    record = _as_scope(scope).run("sweep")
    if record is None:
        return Section("sweep", "Sweep", intro,
                       _missing("sweep", scope))
    cells = record.rows
    axes = [k for k in record.manifest.get("grid", {}) if k in cells.columns]
    if "gates.threshold" in cells.columns and "gates.threshold" not in axes:
        axes.append("gates.threshold")
    curve_by = "reranker.mode" if "reranker.mode" in cells.columns else (axes[0] if axes else "cell")
    summary = record.manifest.get("summary", {})
    blocks = [_source(record, str(record.manifest.get("sweep", ""))),
              f"<p><b>{_int(summary.get('cells'))}</b> cells, {_int(summary.get('failed'))} "
              f"failed; evaluations on workers {_int(summary.get('evaluations_on_workers'))}, "
              f"on the client {_int(summary.get('evaluations_on_client'))}.</p>",
              figure(figures.sweep_curve_figure(cells, curve_by, f"HasAns against NoAns by "
                                                f"{curve_by}"), "fig-sweep")]
    failed = cells[cells["status"] == "failed"]
    if len(failed):
        blocks.append(table(failed[["cell", *axes, "error"]].head(20)))
    return Section("sweep", "Sweep", intro, "".join(blocks), (record.run_id,))


# --- the page -----------------------------------------------------------------------------------

def risk_section(scope: Scoped) -> Section:
    """Each gate run's risk–coverage curve per split, with the operating point its gates give."""
    intro = ("Risk is wrong answers over answers, coverage answerable questions answered from "
             "gold over answerable questions; the curve is every threshold on the score, the "
             "cross where the run's gates answer. The table gives each operating point and the "
             "area under the curve (AURC, smaller is better).")
    scoped = _as_scope(scope)
    body, used = risk_coverage_block(scoped.runs("gates", "mode"), scoped.command("gates"))
    return Section("risk", "Risk against coverage", intro, body, used)


SECTIONS: tuple[Callable[[Scoped], Section], ...] = (
    heldout_section, risk_section, gates_section, ablation_section, routers_section, drift_section,
    fts_section, negative_section, sweep_section, glossary_section,
)
"""The sections after the leakage one, in page order."""


def report_sections(results_dir: str | os.PathLike[str] = "results", *, suite: str | None = None,
                    runs: Sequence[str] | None = None) -> list[Section]:
    """Every section of the report (leakage first), built from the runs in scope (:func:`report_scope`)."""
    scope = report_scope(results_dir, suite=suite, runs=runs)
    _, leakage = leakage_banner(scope)
    _, selection = selection_banner(scope)
    _, e2e = e2e_banner(scope)
    return [leakage, selection, e2e, *(build(scope) for build in SECTIONS)]


def build_report(results_dir: str | os.PathLike[str] = "results",
                 out: str | os.PathLike[str] | None = None, *, suite: str | None = None,
                 runs: Sequence[str] | None = None) -> Path:
    """Write the HTML report and return its path.

    Args:
        results_dir: The folder of run records.
        out: Where to write the page (default ``<results_dir>/report.html``).
        suite: Build from the runs of this suite (default: the latest complete demo suite).
        runs: Build from exactly these run ids (the newest of each kind among them).

    Returns:
        The path of the written page. It is written to a temporary file and renamed into place.
    """
    root = Path(results_dir)
    if root.exists() and not root.is_dir():
        raise ReportError(f"{root} is not a folder of run records")
    # a report it wrote may be replaced, any other file is refused before anything is computed
    target = check_out_file(Path(out) if out is not None else root / REPORT_NAME, "report")
    scope = report_scope(root, suite=suite, runs=runs)
    banner, leakage = leakage_banner(scope)
    wrong_banner, selection = selection_banner(scope)
    e2e_box, e2e = e2e_banner(scope)
    sections = [leakage, selection, e2e, *(build(scope) for build in SECTIONS)]
    runs = runs_df(root) if root.is_dir() else pd.DataFrame()
    built = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    used = sorted({run for s in sections for run in s.runs})
    header = ("<header><h1>digit-workbench — results report</h1>"
              f"<p>Built {esc(built)} from <code>{esc(root)}</code>: {len(runs)} run record(s), "
              f"{len(used)} of them shown, from {scope.describe()}.</p>"
              "<p>Rebuild with <code>workbench report</code>; every figure is recomputed from the "
              "run records named in its section.</p></header>")
    nav = "<nav>" + "".join(f'<a href="#{esc(s.key)}">{esc(s.title)}</a>' for s in sections) + "</nav>"
    body = banner + wrong_banner + e2e_box + "".join(s.html() for s in sections)
    document = page("digit-workbench report", header, nav, body)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{target.name}.partial")
    staging.write_text(document, encoding="utf-8")
    os.replace(staging, target)
    return target
