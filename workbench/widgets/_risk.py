"""The risk–coverage operating point: move a threshold along a gate run's curve, see who flips.

The curve is :func:`workbench.studies.risk_coverage` of one score over the questions every gate
but the score's own lets through (its pool, :func:`workbench.studies.score_pool`), so each point
of the curve is an operating point the score's gate could answer at and the run's own point lies
on it. A threshold is a re-slice of the cached rows (the pool, the score, whether each answer
would be right); retrieval never runs again. The questions that flip between the run's own point
and the chosen one are listed, and each one's trace is built from the same rows as
:class:`workbench.studies.SideTrace`, the trace ``workbench trace`` prints for a comparison: the
run's side as its gates answered, and the chosen side with the score's gate judged again at the
chosen threshold.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping
from numbers import Real
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import traitlets

from workbench.gates import gate_codes
from workbench.plots import risk_coverage_figure
from workbench.stats import exact_interval
from workbench.studies import (
    ANSWERED,
    MUST_REFUSE,
    SCORE_GATES,
    RiskCoverage,
    SideTrace,
    answer_labels,
    default_score,
    first_firing,
    risk_coverage,
    run_order,
    score_pool,
    score_values,
)
from workbench.widgets._assets import COMMON_CSS, esm
from workbench.widgets._base import StateWidget, WidgetError, as_gate_run, cached, gate_rows, jsonable

FLIP_LIMIT = 300
"""At most this many flipped questions are listed (the counts are always complete)."""

FLIP_COLUMNS = ("id", "set", "split", "question", "score", "change", "right")
"""What each flipped question shows: ``change`` is ``answered`` or ``refused`` at the chosen
point, ``right`` whether the answer given or withdrawn is right."""

TRACE_FIELDS = ("code", "top_path", "quote", "answer")
"""The trace's fields beside the verdicts, as a comparison's run record keeps them."""


class _Slice(NamedTuple):
    """What every threshold on one score over one split re-slices (computed once per pair)."""

    rows: pd.DataFrame
    """The rows of the split (every row without one)."""
    curve: RiskCoverage
    """The curve over the score's pool."""
    curve_json: dict[str, list[Any]]
    """The curve's points as JSON columns (threshold, answers, wrong, risk, coverage)."""
    thresholds: np.ndarray
    """The curve's thresholds, strictest first."""
    pool: np.ndarray
    """Per row: every gate but the score's lets it through."""
    scores: np.ndarray
    """Per row: the score (``-inf`` where missing)."""
    right: np.ndarray
    """Per row: an answer would be right (answerable, gold ranked first)."""
    answered: np.ndarray
    """Per row: the run answered it."""
    own: float | None
    """The threshold the run answered at (``None``: it answered nothing here)."""
    own_source: str
    """Where :attr:`own` comes from, in words."""
    run_point: dict[str, Any]
    """The run's own point (answers, wrong, right, risk, its interval, coverage, threshold)."""


def _finite(values: list[float]) -> list[float | None]:
    return [v if math.isfinite(v) else None for v in values]


def _run_answered(rows: pd.DataFrame, order: tuple[str, ...]) -> np.ndarray:
    """The run's own answers: the pipeline's verified ones, as ``risk_coverage`` counts its point."""
    if "answer_mode" in rows.columns:
        return rows["answer_mode"].eq("A").to_numpy()
    return first_firing(rows, order) == ANSWERED


def _recorded_threshold(rows: pd.DataFrame, gate: str) -> float | None:
    """The threshold ``gate`` recorded in the rows' verdicts (the settings it answered at)."""
    if "verdicts" not in rows.columns:
        return None
    for text in rows["verdicts"]:
        try:
            items = json.loads(text) if isinstance(text, str) else []
        except ValueError:
            continue
        for item in items if isinstance(items, list) else []:
            if isinstance(item, Mapping) and item.get("gate") == gate:
                value = (item.get("numbers") or {}).get("threshold")
                if isinstance(value, Real) and not isinstance(value, bool):
                    return float(value)
    return None


def _own_threshold(rows: pd.DataFrame, gate: str, pool: np.ndarray, scores: np.ndarray,
                   answered: np.ndarray) -> tuple[float | None, str]:
    """The run's own operating point on the score, and where it comes from.

    The threshold its gate recorded when it reproduces the run's answers; else the lowest score
    the run answered at (the point it answered at); ``None`` when it answered nothing here.
    """
    recorded = _recorded_threshold(rows, gate)
    if recorded is not None and np.array_equal(pool & (scores >= recorded), answered):
        return recorded, f"the {gate} gate's threshold"
    given = scores[answered & pool]
    if given.size:
        return float(given.min()), "the lowest score the run answered at"
    return None, "the run answered none of these questions"


def _slice(run: Any, score: str | None, split: str | None) -> _Slice:
    rows = gate_rows(run)
    score = score or default_score(rows)
    if score not in SCORE_GATES:
        raise WidgetError(f"unknown score {score!r}; scores: {', '.join(SCORE_GATES)}")
    splits = sorted(str(s) for s in rows["split"].dropna().unique()) if "split" in rows else []
    if split is not None and split not in splits:
        raise WidgetError(f"unknown split {split!r}; splits: {', '.join(splits) or 'none'}")
    order = run_order(run)
    part = rows[rows["split"] == split] if split is not None else rows
    gate = SCORE_GATES[score]
    # only the score's own gate is lifted: every point is one its gate could answer at
    curve = risk_coverage(part, score, order=order, lifted=(gate,))
    pool = score_pool(part, order=order, lifted=(gate,))
    scores = score_values(part, score)
    _, right = answer_labels(part)
    answered = _run_answered(part, order)
    own, source = _own_threshold(part, gate, pool, scores, answered)
    points = curve.points
    curve_json: dict[str, list[Any]] = {
        "threshold": _finite([p.threshold for p in points]),
        "answers": [p.answers for p in points],
        "wrong": [p.wrong for p in points],
        "risk": [p.risk for p in points],
        "coverage": [p.coverage for p in points],
    }
    run_point = {**_point(answered, right, curve.answerable, None), "threshold": own}
    return _Slice(part, curve, curve_json, np.array([p.threshold for p in points]), pool, scores,
                  right, answered, own, source, run_point)


def _threshold(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise WidgetError(f"threshold = {value!r}: a threshold is a number on the score's scale")
    number = float(value)
    if not math.isfinite(number):
        raise WidgetError(f"threshold = {value!r}: a threshold is a finite number")
    return number


def _point(answered: np.ndarray, right: np.ndarray, answerable: int,
           cache: dict[Hashable, Any] | None) -> dict[str, Any]:
    n, k = int(answered.sum()), int((answered & ~right).sum())
    interval = cached(cache, ("interval", k, n), lambda: list(exact_interval(k, n))) if n else None
    return {"answers": n, "wrong": k, "right": n - k, "risk": k / n if n else None,
            "coverage": (n - k) / answerable if answerable else 0.0, "interval": interval}


def _outcome(answered: bool, right: bool) -> str:
    if answered:
        return ANSWERED if right else "answered wrong"
    return "refused"


def _text(value: Any) -> Any:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


def _trace(part: _Slice, score: str, threshold: float, at: np.ndarray, question_id: str
           ) -> dict[str, Any]:
    """One question's trace at the run's own point and at the chosen one, from the cached row."""
    hits = np.flatnonzero(part.rows["id"].astype(str).to_numpy() == question_id)
    if hits.size == 0:
        raise WidgetError(f"no question {question_id!r} among these rows")
    i = int(hits[0])
    row = part.rows.iloc[i]
    gate = SCORE_GATES[score]
    value = float(part.scores[i])
    try:
        recorded = json.loads(row["verdicts"]) if isinstance(row.get("verdicts"), str) else []
    except ValueError:
        recorded = []
    fires = not value >= threshold
    shown = f"{value:.4f}" if math.isfinite(value) else "missing"
    again = {"gate": gate, "passed": not fires, "code": gate_codes().get(gate) if fires else None,
             "numbers": {score: value if math.isfinite(value) else None, "threshold": threshold},
             "detail": f"{score} {shown} vs threshold {threshold:.4f} (the chosen point)"}
    verdicts = [again if v.get("gate") == gate else v for v in recorded]
    if gate not in [v.get("gate") for v in recorded]:
        verdicts.append(again)
    answerable = part.rows["set"].iloc[i] not in MUST_REFUSE
    right = bool(part.right[i])
    fields = {"code": _text(row.get("code")), "top_path": _text(row.get("top_path")),
              "quote": _text(row.get("quote")), "answer": _text(row.get("answer_json"))}
    own = bool(part.answered[i])
    chosen = bool(at[i])
    if chosen:
        chosen_code = None
    elif part.pool[i]:
        chosen_code = again["code"]
    else:  # refused by another gate, as in the run
        chosen_code = fields["code"]
    sides = []
    for name, answered, trace in (
            ("baseline", own, {"verdicts": recorded, **fields}),
            ("variant", chosen, {"verdicts": verdicts, **fields, "code": chosen_code,
                                 "answer": fields["answer"] if chosen and own else None})):
        good = right if answered else not answerable
        side = SideTrace(side=name, id=question_id, outcome=_outcome(answered, right), good=good,
                         trace=trace)
        sides.append({"side": name, "outcome": side.outcome, "good": side.good,
                      "verdicts": list(trace["verdicts"]),
                      "fields": {k: trace.get(k) for k in TRACE_FIELDS},
                      "lines": side.lines()})
    return {"id": question_id, "set": row.get("set"), "split": row.get("split"),
            "question": _text(row.get("question")), "score": value,
            "recorded": bool(recorded), "sides": sides}


def risk_operating_point_state(run: Any, score: str | None = None, threshold: Any = None,
                               split: str | None = None, *,
                               selected: str | None = None) -> dict[str, Any]:
    """What the risk widget shows for one score, one threshold on it and one split.

    Args:
        run: A gate run: what ``evaluate_sets_cached`` returns, its rows, or a run record.
        score: The column answers are ranked by (:data:`workbench.studies.SCORE_GATES`;
            default: :func:`workbench.studies.default_score`).
        threshold: The chosen operating point: answer where the score reaches it (default: the
            run's own, the threshold its gate answers at, or else the lowest score it answered
            at).
        split: ``dev`` or ``test`` to look at one split only (default: every question).
        selected: A question's id whose trace to show (default: none).

    Returns:
        JSON-ready state: the curve (columns ``threshold``, ``answers``, ``wrong``, ``risk``,
        ``coverage``, strictest threshold first), its AURC and coverage at each risk, the chosen
        point (answers, wrong, right, risk with its exact 95% interval
        (:func:`workbench.stats.exact_interval`), coverage, and its index on the curve), the
        run's own point, the questions that flip between the two (``id``, ``set``, ``split``,
        ``question``, ``score``, ``change``: answered or refused at the chosen point, ``right``:
        whether that answer is right) and the selected one's trace.

    Raises:
        WidgetError: An unknown score, split or question, or a threshold that is not a number.
        RiskCoverageError: The rows lack the score, or hold no answerable question.
    """
    return _state(as_gate_run(run), score, threshold, split, selected, None)


def _state(run: Any, score: str | None, threshold: Any, split: str | None, selected: str | None,
           cache: dict[Hashable, Any] | None) -> dict[str, Any]:
    chosen_threshold = _threshold(threshold)
    rows = gate_rows(run)
    score = score or default_score(rows)
    part = cached(cache, ("slice", score, split), lambda: _slice(run, score, split))
    curve = part.curve
    if chosen_threshold is not None:
        t = chosen_threshold
    elif part.own is not None:
        t = part.own
    else:  # the run answered nothing here: neither does its own point
        finite = part.scores[part.pool & np.isfinite(part.scores)]
        t = math.nextafter(float(finite.max()), math.inf) if finite.size else 0.0
    at = part.pool & (part.scores >= t)
    chosen = _point(at, part.right, curve.answerable, cache)
    # the curve's point this threshold answers as: the last one whose threshold it reaches
    reached = np.flatnonzero(part.thresholds >= t)
    chosen["index"] = int(reached[-1]) if reached.size else -1
    flipped = np.flatnonzero(at != part.answered)
    gained = at & ~part.answered
    lost = part.answered & ~at
    flips = part.rows.iloc[flipped]
    table = pd.DataFrame({
        "id": flips["id"].astype(str).to_numpy(),
        "set": flips["set"].to_numpy(),
        "split": flips["split"].to_numpy() if "split" in flips else None,
        "question": flips["question"].to_numpy() if "question" in flips else None,
        "score": part.scores[flipped],
        "change": np.where(at[flipped], ANSWERED, "refused"),
        "right": part.right[flipped],
    }, columns=list(FLIP_COLUMNS))
    table = table.sort_values(["score", "id"], ascending=[False, True], kind="stable")
    head = table.head(FLIP_LIMIT)
    flip_records = [dict(zip(FLIP_COLUMNS, values, strict=True))
                    for values in zip(*(head[c].tolist() for c in FLIP_COLUMNS), strict=True)]
    trace = _trace(part, score, t, at, str(selected)) if selected else None
    splits = sorted(str(s) for s in rows["split"].dropna().unique()) if "split" in rows else []
    scores = [s for s in SCORE_GATES if s in rows.columns and rows[s].notna().any()]
    state = jsonable({
        "score": score,
        "scores": scores,
        "gate": SCORE_GATES[score],
        "split": split or "",
        "splits": splits,
        "questions": curve.questions,
        "answerable": curve.answerable,
        "pool": curve.pool,
        "aurc": curve.aurc,
        "aurc_best": curve.aurc_best,
        "at_risk": [{"level": a.level, "coverage": a.coverage, "threshold": a.threshold,
                     "answers": a.answers, "wrong": a.wrong} for a in curve.at_risk],
        "threshold": t,
        "own_threshold": part.own,
        "own_source": part.own_source,
        "chosen": chosen,
        "run": part.run_point,
        "flip_counts": {"answered_right": int((gained & part.right).sum()),
                        "answered_wrong": int((gained & ~part.right).sum()),
                        "refused_right": int((lost & part.right).sum()),
                        "refused_wrong": int((lost & ~part.right).sum())},
        "n_flips": int(flipped.size),
        "flips": flip_records,
        "selected": str(selected or ""),
        "trace": trace,
    })
    # the curve is JSON already (computed once per score and split): not walked again per click
    state["curve"] = part.curve_json
    return state


def risk_operating_point_figure(state: Mapping[str, Any]) -> go.Figure:
    """The chart of :func:`risk_operating_point_state`: the curve, the run's cross, the chosen point.

    It is :func:`workbench.plots.risk_coverage_figure`, the figure the report draws for each
    gate run, with the chosen point marked beside the run's own.
    """
    curve = state["curve"]
    points = [{"threshold": t, "risk": r, "coverage": c} for t, r, c in
              zip(curve["threshold"], curve["risk"], curve["coverage"], strict=True)]
    split = f", {state['split']} split" if state["split"] else ""
    name = f"{state['score']}{split}"
    chosen = state["chosen"]
    title = (f"Risk against coverage ({state['score']}{split}, AURC {state['aurc']:.4f}); "
             f"the cross: the run's own point, the circle: {state['score']} ≥ "
             f"{state['threshold']:.4f}")
    return risk_coverage_figure({name: {"points": points, "run": state["run"]}}, title,
                                chosen={"name": f"{state['score']} ≥ {state['threshold']:.4f}",
                                        "risk": chosen["risk"], "coverage": chosen["coverage"]})


_JS = r"""
function chart(st, c) {
  const W = 440, H = 260, L = 46, B = 30, T = 8, R = 24;
  const maxRisk = Math.max(0.05, ...c.risk.filter((v) => v !== null), st.run.risk || 0);
  const x = (v) => L + v * (W - L - R);
  const y = (v) => T + (1 - v / maxRisk) * (H - T - B);
  const svg = s("svg", {width: W, height: H, class: "wb-risk-chart", role: "img"});
  svg.append(s("rect", {x: L, y: T, width: W - L - R, height: H - T - B, fill: "none",
                        stroke: "#d0d7de"}));
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(s("text", {x: x(f), y: H - B + 14, "font-size": 10, "text-anchor": "middle"},
                 pct(f)));
    svg.append(s("text", {x: L - 4, y: y(f * maxRisk) + 3, "font-size": 10, "text-anchor": "end"},
                 pct(f * maxRisk)));
  }
  svg.append(s("text", {x: (L + W) / 2, y: H - 2, "font-size": 11, "text-anchor": "middle"},
               "coverage"));
  const path = c.coverage.map((v, i) => `${x(v).toFixed(1)},${y(c.risk[i]).toFixed(1)}`).join(" ");
  svg.append(s("polyline", {points: path, fill: "none", stroke: "#4c78a8", "stroke-width": 2}));
  if (st.run.risk !== null) {
    const px = x(st.run.coverage), py = y(st.run.risk);
    const cross = `M${px - 6},${py - 6}L${px + 6},${py + 6}M${px - 6},${py + 6}L${px + 6},${py - 6}`;
    svg.append(s("path", {d: cross, stroke: "#1f2328", "stroke-width": 2, "data-point": "run"},
                 s("title", {}, `the run's own point: risk ${pct(st.run.risk)}, ` +
                   `coverage ${pct(st.run.coverage)}`)));
  }
  if (st.chosen.risk !== null) {
    svg.append(s("circle", {cx: x(st.chosen.coverage), cy: y(st.chosen.risk), r: 6, fill: "none",
                            stroke: "#cf222e", "stroke-width": 2, "data-point": "chosen"},
                 s("title", {}, `chosen: risk ${pct(st.chosen.risk)}, coverage ${pct(st.chosen.coverage)}`)));
  }
  return svg;
}

function pointLine(label, p) {
  if (!p.answers) return `${label}: no answer, coverage 0%`;
  const iv = p.interval ? ` (exact 95% interval ${pct(p.interval[0])}–${pct(p.interval[1])})` : "";
  return `${label}: ${p.answers} answers, ${p.wrong} wrong: risk ${pct(p.risk)}${iv}, ` +
    `coverage ${pct(p.coverage)}`;
}

function sideView(side) {
  const verdicts = table([
    {key: "gate"},
    {key: "passed", label: "verdict", render: (v) => (v.passed ? "pass" : `fire ${v.code || ""}`),
     cls: (v) => (v.passed ? "wb-pass" : "wb-fail")},
    {key: "detail", render: (v) => h("span", {class: "wb-note"}, fmt(v.detail))},
  ], side.verdicts, {rowKey: (v) => v.gate});
  const f = side.fields;
  const kv = h("div", {class: "wb-kv"}, [["code", f.code], ["file", f.top_path], ["quote", f.quote]]
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => [h("span", {}, k), h("span", {class: k === "quote" ? "" : "wb-mono"}, v)]));
  return h("div", {class: "wb-trace-side", "data-side": side.side},
    h("h4", {}, side.side === "baseline" ? "the run's own point" : "the chosen point", " ",
      h("span", {class: "wb-badge " + (side.good ? "wb-pass" : "wb-fail")}, side.outcome)),
    side.verdicts.length ? verdicts : h("div", {class: "wb-note"}, "the rows hold no gate verdicts"),
    kv);
}

function traceView(st, selected) {
  if (!selected) return h("p", {class: "wb-note"}, "Click a question to open its trace.");
  const tr = st.trace;
  if (!tr || tr.id !== selected) {
    return h("p", {class: "wb-note"}, `The trace of ${selected} is computed in Python: open the` +
      " widget in a notebook to see it.");
  }
  return h("div", {class: "wb-detail", "data-trace": tr.id},
    h("h3", {}, `Trace of ${tr.id} (${tr.set}, ${tr.split}, ${st.score} ${fmt(tr.score, 4)})`),
    tr.question ? h("p", {class: "wb-answer"}, tr.question) : null,
    h("div", {class: "wb-flex"}, tr.sides.map(sideView)));
}

function draw(model) {
  const st = model.get("state") || {};
  const curve = model.get("curve") || {};
  if (!st.chosen || !curve.threshold) return banner(model);
  const frozen = isStatic(model);
  const selected = model.get("selected");
  const usable = curve.threshold.map((t, i) => [t, i]).filter(([t]) => t !== null);
  const at = Math.max(0, usable.findIndex(([, i]) => i === st.chosen.index));
  const slider = h("input", {type: "range", min: 0, max: Math.max(0, usable.length - 1), step: 1,
    value: at, disabled: frozen || !usable.length, "data-action": "slide",
    onchange: (e) => commit(model, {threshold: usable[Number(e.target.value)][0]})});
  const number = h("input", {type: "number", step: "any", value: st.threshold, size: 8,
    disabled: frozen, "data-action": "threshold",
    onchange: (e) => { const v = Number(e.target.value);
      if (e.target.value !== "" && Number.isFinite(v)) commit(model, {threshold: v}); }});
  const own = h("button", {disabled: frozen, "data-action": "own",
    onclick: () => commit(model, {threshold: null})}, "the run's own point");
  const levels = st.at_risk.filter((a) => a.threshold !== null).map((a) => h("button", {
    disabled: frozen, "data-action": "at-risk", title: `coverage ${pct(a.coverage)}`,
    onclick: () => commit(model, {threshold: a.threshold})}, `risk ≤ ${pct(a.level)}`));
  const score = select(st.scores.map((x) => [x, x]), st.score,
    (v) => commit(model, {score: v, threshold: null}), {disabled: frozen, "data-action": "score"});
  const split = select([["", "every split"], ...st.splits.map((x) => [x, x])], st.split,
    (v) => commit(model, {split: v, selected: ""}), {disabled: frozen, "data-action": "split"});
  const fc = st.flip_counts;
  const flips = table([
    {key: "id"}, {key: "set"}, {key: "split"}, {key: "question"},
    {key: "score", num: true, render: (r) => fmt(r.score, 4)},
    {key: "change", label: "at the chosen point"},
    {key: "right", label: "that answer", render: (r) => (r.right ? "right" : "wrong"),
     cls: (r) => (r.right ? "wb-pass" : "wb-fail")},
  ], st.flips, {rowKey: (r) => r.id,
    rowClass: (r) => (r.id === selected ? "wb-selected" : null),
    onRow: (r) => commit(model, {selected: r.id})});
  return [
    banner(model),
    h("div", {class: "wb-controls"}, h("span", {}, "score: ", score),
      h("span", {}, "questions: ", split), own, levels),
    h("div", {class: "wb-controls"}, h("span", {}, "stricter "), slider, h("span", {}, " more answers"),
      h("span", {}, `${st.score} ≥ `, number)),
    h("div", {class: "wb-flex"},
      chart(st, curve),
      h("div", {class: "wb-summary"},
        h("p", {}, pointLine(`At ${st.score} ≥ ${fmt(st.threshold, 4)}`, st.chosen)),
        h("p", {}, pointLine("The run's own point", st.run) + (st.own_threshold !== null
          ? ` (${st.score} ≥ ${fmt(st.own_threshold, 4)}, ${st.own_source})` : "")),
        h("p", {class: "wb-note"}, `AURC ${fmt(st.aurc, 4)} (every right answer first: ` +
          `${fmt(st.aurc_best, 4)}); ${st.pool} of ${st.questions} questions pass every gate but ` +
          `${st.gate}; ${st.answerable} answerable.`))),
    h("h3", {}, `Questions that flip (${st.n_flips}): ${fc.answered_right} right and ` +
      `${fc.answered_wrong} wrong answers gained, ${fc.refused_right} right and ` +
      `${fc.refused_wrong} wrong answers withdrawn`),
    st.n_flips > st.flips.length ? h("div", {class: "wb-note"},
      `the first ${st.flips.length} by score are listed`) : null,
    st.n_flips ? scroll(flips) : h("div", {class: "wb-note"},
      "no question changes: this is the run's own point"),
    traceView(st, selected),
  ];
}

function render({ model, el }) {
  return mount(model, el, draw, ["state", "curve", "error", "selected"]);
}

export default { render };
"""


class RiskOperatingPoint(StateWidget):
    """Move a threshold along the risk–coverage curve; see the questions that flip and their traces.

    Args:
        run: What ``workbench.gates.evaluate_sets_cached(settings)`` returns, its rows, or a
            run record of a gate evaluation.
        score: The score to rank by (default: :func:`workbench.studies.default_score`).
        threshold: The initial operating point (default: the run's own).
        split: ``dev`` or ``test`` (default: every question).
        selected: A question whose trace to open (default: none).
    """

    _esm = esm(_JS)
    _css = COMMON_CSS
    _inputs = ("score", "threshold", "split", "selected")

    score = traitlets.Unicode("").tag(sync=True)
    """The score ranked by ('' for the rows' default)."""
    threshold = traitlets.Float(None, allow_none=True).tag(sync=True)
    """The chosen threshold on the score (``None``: the run's own point)."""
    split = traitlets.Unicode("").tag(sync=True)
    """``dev``, ``test`` or '' for every question."""
    selected = traitlets.Unicode("").tag(sync=True)
    """The question whose trace is shown ('' for none)."""
    curve = traitlets.Dict().tag(sync=True)
    """The state's curve, kept apart: it changes with the score and the split only, so a move of
    the threshold does not send it again."""

    def __init__(self, run: Any, score: str | None = None, threshold: float | None = None,
                 split: str | None = None, selected: str | None = None, **kwargs: Any) -> None:
        self._run = as_gate_run(run)
        super().__init__(score=score or "", threshold=_threshold(threshold), split=split or "",
                         selected=selected or "", **kwargs)

    def _compute(self) -> dict[str, Any]:
        state = _state(self._run, self.score or None, self.threshold, self.split or None,
                       self.selected or None, self._cache)
        curve = state.pop("curve")
        if curve is not self.curve:  # the same cached object while the score and split stay
            self.curve = curve
        return state

    def _on_input(self, change: Mapping[str, Any]) -> None:
        # a threshold on one score means nothing on another, and a question of one split may
        # not be in the next: each resets what depends on it (whose own change recomputes)
        if change["name"] == "score" and self.threshold is not None:
            self.threshold = None
        elif change["name"] == "split" and self.selected:
            self.selected = ""
        else:
            self.recompute()

    def step(self, points: int = 1) -> None:
        """Move ``points`` along the curve (positive: a lower threshold, more answers), as the slider does."""
        usable = [(i, t) for i, t in enumerate(self.curve["threshold"]) if t is not None]
        if not usable:
            return
        here = next((k for k, (i, _) in enumerate(usable) if i == self.state["chosen"]["index"]), 0)
        k = min(max(here + points, 0), len(usable) - 1)
        self.threshold = usable[k][1]

    def show_trace(self, question_id: str) -> None:
        """Open the trace of ``question_id``, as clicking its row does."""
        ids = set(gate_rows(self._run)["id"].astype(str))
        if str(question_id) not in ids:
            raise WidgetError(f"no question {question_id!r} in this run")
        self.selected = str(question_id)

    def figure(self) -> go.Figure:
        """The current curve and points as a plotly figure (for notebooks and reports)."""
        return risk_operating_point_figure({**self.state, "curve": self.curve})


__all__ = ["FLIP_LIMIT", "RiskOperatingPoint", "risk_operating_point_figure",
           "risk_operating_point_state"]
