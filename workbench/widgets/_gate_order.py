"""The gate-order explorer: reorder and switch gates, re-attributed from cached verdicts.

Every gate was evaluated for every question when the run was made (the would-fire flags), so a
new order or a gate switched off is a re-slice of those flags by
:func:`workbench.gates.gate_attribution`; retrieval is never run again.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import traitlets

from workbench.gates import gate_codes
from workbench.plots import GATE_COLORS, gate_colors, gate_firing_figure
from workbench.studies import (
    ANSWERED,
    evaluated_gates,
    fire_overlaps,
    gate_attribution,
    run_order,
    would_fire_matrix,
)
from workbench.widgets._assets import COMMON_CSS, esm
from workbench.widgets._base import (
    StateWidget,
    WidgetError,
    as_gate_run,
    cached,
    gate_rows,
    jsonable,
    records,
    slim_gate_run,
)

OUTCOME_COLUMNS = (ANSWERED, "answered_correct", "false_answers")
"""The outcome columns of :func:`workbench.gates.gate_attribution` after the gate columns."""


def full_order(run: Any, order: Sequence[str] | None) -> tuple[str, ...]:
    """``order`` (default: the run's own) validated, then every other gate the run evaluated."""
    run = as_gate_run(run)
    named = run_order(run, order)
    return (*named, *(g for g in evaluated_gates(run) if g not in named))


def gate_order_state(run: Any, order: Sequence[str] | None = None,
                     enabled: Sequence[str] | None = None,
                     overlap_set: str | None = None) -> dict[str, Any]:
    """What the explorer shows for one gate order and one set of enabled gates.

    Args:
        run: A gate run: what ``evaluate_sets_cached`` returns, its rows, or a run record.
        order: The gates in firing order (default: the run's order); gates it does not name
            follow, switched off unless ``enabled`` names them.
        enabled: The gates switched on (default: those ``order`` names, or all).
        overlap_set: The question set of the overlap view (default: every set).

    Returns:
        JSON-ready state: ``order`` (every gate), ``active_order`` (the enabled ones in order),
        ``attribution`` (one record per set and ``all``: ``n``, first-firing count per active
        gate, ``answered``, ``answered_correct``, ``false_answers``), ``overlaps`` (gate x gate
        would-fire counts, in firing order) and the colours.
    """
    return _state(as_gate_run(run), order, enabled, overlap_set, None)


def _state(run: Any, order: Sequence[str] | None, enabled: Sequence[str] | None,
           overlap_set: str | None, cache: dict[Hashable, Any] | None) -> dict[str, Any]:
    rows = gate_rows(run)
    full = full_order(run, order)
    named = set(run_order(run, order)) if order is not None else set(full)
    wanted = set(run_order(run, enabled)) if enabled is not None else named
    active = tuple(g for g in full if g in wanted)
    attribution = cached(cache, ("attribution", active), lambda: gate_attribution(run, active))
    sets = [s for s in attribution.index if s != "all"]
    if overlap_set and overlap_set not in sets:
        raise WidgetError(f"unknown question set {overlap_set!r}; sets: {', '.join(sets)}")
    # which gates would fire does not depend on the order: computed once per run and set
    overlaps = cached(cache, ("overlaps", overlap_set or None), lambda: fire_overlaps(
        cached(cache, "matrix", lambda: would_fire_matrix(run)), overlap_set or None))
    # rows and columns in the current firing order, so the view reads like the list beside it
    overlaps = overlaps.loc[list(full), list(full)]
    table = attribution.reset_index()
    codes = gate_codes()
    return jsonable({
        "n": len(rows),
        "order": list(full),
        "active_order": list(active),
        # a record read back after its gate was unregistered still shows, without a code
        "codes": {g: codes.get(g, "") for g in full},
        "colors": gate_colors(full),
        "sets": sets,
        "columns": ["set", "n", *active, *OUTCOME_COLUMNS],
        "attribution": records(table, ["set", "n", *active, *OUTCOME_COLUMNS]),
        "overlap_set": overlap_set or "",
        "overlaps": {"gates": list(overlaps.index),
                     "matrix": overlaps.to_numpy().tolist()},
    })


def gate_order_figure(state: dict[str, Any]) -> go.Figure:
    """The chart of :func:`gate_order_state`: per set, who stops each question first.

    It is :func:`workbench.plots.gate_firing_figure` on the state's attribution table, so the
    widget, the notebooks and the report draw the same chart.
    """
    table = pd.DataFrame(state["attribution"]).set_index("set")
    order = " > ".join(state["active_order"]) or "no gate on"
    title = f"First firing gate per question set ({order})"
    return gate_firing_figure(table, list(state["active_order"]), title)


_JS = r"""
function bars(st) {
  const rows = st.attribution.filter((r) => r.set !== "all");
  const keys = [...st.active_order, "answered"];
  const colors = st.colors || {};
  const width = 460, label = 120, rowH = 22;
  const svg = s("svg", {width: label + width + 10, height: rows.length * rowH + 4,
                        class: "wb-bars", role: "img"});
  rows.forEach((r, i) => {
    const y = i * rowH;
    svg.append(s("text", {x: 0, y: y + 15, "font-size": 12}, r.set));
    let x = label;
    for (const k of keys) {
      const w = r.n ? (r[k] / r.n) * width : 0;
      if (w > 0) {
        svg.append(s("rect", {x, y: y + 3, width: w, height: rowH - 6, fill: colors[k],
                              "data-gate": k}, s("title", {}, `${r.set}: ${k} ${r[k]} of ${r.n}`)));
      }
      x += w;
    }
  });
  const legend = h("div", {class: "wb-legend"}, keys.map((k) => h("span", {class: "wb-check"},
    h("span", {class: "wb-swatch", style: `background:${colors[k]}`}), k)));
  return h("div", {}, svg, legend);
}

function draw(model) {
  const st = model.get("state") || {};
  if (!st.order) return banner(model);
  const frozen = isStatic(model);
  const active = st.active_order;
  const on = new Set(active);
  const order = st.order;
  const move = (i, j) => {
    const o = order.slice();
    [o[i], o[j]] = [o[j], o[i]];
    commit(model, {order: o, enabled: o.filter((g) => on.has(g))});
  };
  const toggle = (gate, checked) => {
    commit(model, {order, enabled: order.filter((g) => (g === gate ? checked : on.has(g)))});
  };
  const gates = table([
    {key: "pos", label: "#", num: true, render: (g) => (on.has(g) ? String(active.indexOf(g) + 1) : "off")},
    {key: "gate", label: "gate", render: (g) => [h("span", {class: "wb-swatch",
      style: `background:${st.colors[g]}`}), g]},
    {key: "code", label: "code", render: (g) => h("span", {class: "wb-note"}, st.codes[g])},
    {key: "act", label: "", render: (g) => {
      const i = order.indexOf(g);
      return [
        h("button", {title: "fire earlier", "data-action": "up", disabled: frozen || i === 0,
                     onclick: () => move(i, i - 1)}, "↑"),
        h("button", {title: "fire later", "data-action": "down",
                     disabled: frozen || i === order.length - 1, onclick: () => move(i, i + 1)}, "↓"),
        checkbox("on", on.has(g), (c) => toggle(g, c), {disabled: frozen, "data-action": "toggle"}),
      ];
    }},
  ], order, {rowClass: (g) => (on.has(g) ? "wb-gate" : "wb-gate wb-off"), rowKey: (g) => g});

  const cols = st.columns.map((c) => ({key: c, num: c !== "set",
    label: c === "answered_correct" ? "correct" : c === "false_answers" ? "false answers" : c}));
  const attribution = table(cols, st.attribution, {rowKey: (r) => r.set,
    rowClass: (r) => (r.set === "all" ? "wb-current" : null)});

  const gatesShown = st.overlaps.gates;
  const overlap = table(
    [{key: "gate", label: "would fire"}, ...gatesShown.map((g, j) => ({key: g, num: true,
      render: (r) => (r.i === j ? h("b", {}, String(r.row[j])) : String(r.row[j]))}))],
    st.overlaps.matrix.map((row, i) => ({gate: gatesShown[i], row, i})),
    {rowClass: (r) => (on.has(r.gate) ? null : "wb-off")});
  const setPicker = select([["", "all sets"], ...st.sets.map((x) => [x, x])], st.overlap_set,
    (v) => commit(model, {overlap_set: v}), {disabled: frozen, "data-action": "overlap-set"});

  return [
    banner(model),
    h("div", {class: "wb-flex"},
      h("div", {}, h("h3", {}, "Gate order"), gates),
      h("div", {}, h("h3", {}, `First firing gate (${st.n} questions)`), attribution, bars(st))),
    h("h3", {}, "Would-fire overlaps ", setPicker),
    h("div", {class: "wb-note"}, "Questions both gates would refuse on their own; the diagonal is" +
      " each gate alone, whatever the order."),
    overlap,
  ];
}

function render({ model, el }) {
  return mount(model, el, draw, ["state", "error"]);
}

export default { render };
"""


class GateOrderExplorer(StateWidget):
    """Reorder gates and switch them off; the first-firing table follows from cached verdicts.

    Args:
        run: What ``workbench.gates.evaluate_sets_cached(settings)`` returns, its rows, or a
            run record of a gate evaluation.
        order: The initial order (default: the run's own).
        enabled: The gates initially on (default: all).
    """

    _esm = esm(_JS)
    _css = COMMON_CSS
    _inputs = ("order", "enabled", "overlap_set")

    order = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Every gate, in firing order (the front end swaps neighbours)."""
    enabled = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The gates switched on."""
    overlap_set = traitlets.Unicode("").tag(sync=True)
    """The question set of the overlap view ('' for all)."""

    def __init__(self, run: Any, order: Sequence[str] | None = None,
                 enabled: Sequence[str] | None = None, **kwargs: Any) -> None:
        self._run = slim_gate_run(run)
        full = full_order(self._run, order)
        on = list(run_order(self._run, enabled)) if enabled is not None else list(full)
        super().__init__(order=list(full), enabled=[g for g in full if g in on], **kwargs)

    def _compute(self) -> dict[str, Any]:
        return _state(self._run, self.order, self.enabled, self.overlap_set or None, self._cache)

    def _gate(self, gate: str) -> int:
        if gate not in self.order:
            raise WidgetError(f"unknown gate {gate!r}; gates: {', '.join(self.order)}")
        return self.order.index(gate)

    def move(self, gate: str, steps: int = -1) -> None:
        """Move ``gate`` by ``steps`` places (negative: fire earlier), as the arrows do."""
        i = self._gate(gate)
        j = min(max(i + steps, 0), len(self.order) - 1)
        order = list(self.order)
        order.insert(j, order.pop(i))
        self.order = order

    def toggle(self, gate: str, on: bool | None = None) -> None:
        """Switch ``gate`` on or off (``None``: flip it), as its check box does."""
        self._gate(gate)
        now = gate in self.enabled
        want = (not now) if on is None else on
        self.enabled = [g for g in self.order if (g == gate and want) or (g != gate and g in self.enabled)]

    def figure(self) -> go.Figure:
        """The current first-firing table as a plotly figure (for notebooks and reports)."""
        return gate_order_figure(self.state)


__all__ = ["GATE_COLORS", "GateOrderExplorer", "gate_order_figure", "gate_order_state"]
