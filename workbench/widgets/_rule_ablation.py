"""The rule-ablation panel: switch relevance rules and see which answers change.

The numbers are those of :func:`workbench.gates.rule_ablation` (false answers eliminated and
correct answers broken, each against no rule at all) and the changed questions those of
:func:`workbench.gates.flipped_questions`; both re-slice the cached rule flags of a gate run.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import traitlets

from workbench.registry import entries
from workbench.relevance import quote_rules
from workbench.studies import flipped_questions, rule_ablation, run_order, run_rules
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

FLIP_LIMIT = 300
"""At most this many changed questions are listed (the count is always complete)."""

FLIP_COLUMNS = ("id", "set", "lang", "question", "top_path", "before", "after")


def rule_catalog(run: Any) -> list[dict[str, Any]]:
    """Every registered relevance rule, and whether the run holds a cached flag for it.

    Quote rules come first in their ablation order; a rule of another source (the circumstance
    rule judges utility arguments) is listed but cannot be switched in a quote-gate run.
    """
    rows = gate_rows(run)
    registered = {e.name: e.metadata for e in entries("relevance_rule")}
    quote = quote_rules()
    names = [*quote, *(r for r in registered if r not in quote)]
    out = []
    for name in names:
        meta = registered[name]
        applies_to = str(meta.get("applies_to", ""))
        has_flag = f"rule_{name}" in rows.columns
        if has_flag:
            note = ""
        elif applies_to != "quote":
            note = f"judges {applies_to or 'other'} calls; a quote-gate run has no flag for it"
        else:
            note = "the run holds no flag for it"
        out.append({"name": name, "applies_to": applies_to,
                    "description": str(meta.get("description", "")), "available": has_flag,
                    "note": note})
    return out


def _label(rules: Sequence[str]) -> str:
    return "+".join(rules) if rules else "(none)"


def rule_ablation_state(run: Any, rules: Sequence[str] | None = None,
                        against: Sequence[str] = (), split: str | None = None,
                        order: Sequence[str] | None = None) -> dict[str, Any]:
    """What the panel shows for one subset of relevance rules.

    Args:
        run: A gate run: what ``evaluate_sets_cached`` returns, its rows, or a run record.
        rules: The rules switched on (default: those the run was configured with).
        against: The subset the changed questions are listed against (default: no rule).
        split: ``dev`` or ``test`` to look at one split only (default: every question).
        order: The gate order (default: the run's own).

    Returns:
        JSON-ready state: the rule catalog, every subset's ablation row with the current one
        marked, the current row, and the questions whose outcome differs between ``against``
        and ``rules`` (``before`` -> ``after``: the first gate that stops it, or ``answered``).
    """
    return _state(as_gate_run(run), rules, against, split, order, None)


def _state(run: Any, rules: Sequence[str] | None, against: Sequence[str], split: str | None,
           order: Sequence[str] | None, cache: dict[Hashable, Any] | None) -> dict[str, Any]:
    rows = gate_rows(run)
    catalog = cached(cache, "catalog", lambda: rule_catalog(run))
    available = [r["name"] for r in catalog if r["available"]]
    chosen = tuple(run_rules(run)) if rules is None else tuple(rules)
    for name in (*chosen, *against):
        if name not in available:
            raise WidgetError(f"relevance rule {name!r} cannot be switched in this run; "
                              f"switchable: {', '.join(available)}")
    chosen = tuple(r for r in available if r in chosen)
    baseline = tuple(r for r in available if r in against)
    splits = sorted(str(s) for s in rows["split"].dropna().unique()) if "split" in rows else []
    if split and split not in splits:
        raise WidgetError(f"unknown split {split!r}; splits: {', '.join(splits)}")
    gate_order = run_order(run, order)
    part = cached(cache, ("part", split), lambda: rows[rows["split"] == split] if split else rows)
    # every subset's row depends on the split and the order only, not on the current subset;
    # the rows are those of the split already (rule_ablation's own split filter would copy them)
    table = cached(cache, ("ablation", split, gate_order), lambda: rule_ablation(
        part, rules=available, order=gate_order))
    current = table["rules"] == _label(chosen)
    flips = cached(cache, ("flips", chosen, baseline, split, gate_order), lambda: flipped_questions(
        part, chosen, against=baseline, order=gate_order))
    return jsonable({
        "rules": [{**item, "enabled": item["name"] in chosen} for item in catalog],
        "configured": list(run_rules(run)),
        "current": _label(chosen),
        "against": _label(baseline),
        "against_rules": list(baseline),
        "split": split or "",
        "splits": splits,
        "order": list(gate_order),
        "n": len(part),
        "ablation": [{**r, "current": bool(c)} for r, c in zip(records(table), current, strict=True)],
        "current_row": {**records(table[current])[0], "current": True},
        "n_flips": len(flips),
        "flips": records(flips.head(FLIP_LIMIT), FLIP_COLUMNS),
    })


_JS = r"""
function draw(model) {
  const st = model.get("state") || {};
  if (!st.rules) return banner(model);
  const frozen = isStatic(model);
  const on = new Set(st.rules.filter((r) => r.enabled).map((r) => r.name));
  const toggles = st.rules.map((r) => h("div", {class: r.available ? "wb-rule" : "wb-rule wb-off",
      "data-rule": r.name},
    checkbox(r.name, r.enabled, (c) => {
      const next = st.rules.filter((x) => x.available && (x.name === r.name ? c : on.has(x.name)))
        .map((x) => x.name);
      commit(model, {rules: next});
    }, {disabled: frozen || !r.available, "data-action": "toggle"}),
    h("span", {class: "wb-note"}, " — " + r.description + (r.note ? ` (${r.note})` : ""))));
  const configured = st.configured.filter((r) => st.rules.some((x) => x.name === r && x.available));
  const baselines = [["", "no rule"]];
  if (configured.length) baselines.push([configured.join("+"), "configured: " + configured.join("+")]);
  const baseline = select(baselines, st.against_rules.join("+"),
    (v) => commit(model, {against: v ? v.split("+") : []}), {disabled: frozen, "data-action": "against"});
  const split = select([["", "every split"], ...st.splits.map((x) => [x, x])], st.split,
    (v) => commit(model, {split: v}), {disabled: frozen, "data-action": "split"});
  const cur = st.current_row;
  const ablation = table([
    {key: "rules"}, {key: "n_rules", label: "rules on", num: true},
    {key: "false_answers", label: "false answers", num: true},
    {key: "eliminated", num: true, title: "false answers eliminated, against no rule"},
    {key: "correct", label: "correct answers", num: true},
    {key: "broken", num: true, title: "correct answers broken, against no rule"},
  ], st.ablation, {rowClass: (r) => (r.current ? "wb-current" : null), rowKey: (r) => r.rules});
  const flips = table([
    {key: "id"}, {key: "set"}, {key: "question"},
    {key: "change", label: "before → after", render: (r) => `${r.before} → ${r.after}`},
  ], st.flips, {rowKey: (r) => r.id});
  return [
    banner(model),
    h("h3", {}, "Relevance rules"),
    toggles,
    h("div", {class: "wb-controls"}, h("span", {}, "questions: ", split),
      h("span", {}, "changes against: ", baseline)),
    h("p", {class: "wb-summary"}, `${st.current}: eliminates ${cur.eliminated} false answers and` +
      ` breaks ${cur.broken} correct ones (against no rule; ${st.n} questions).`),
    ablation,
    h("h3", {}, `Questions that change (${st.n_flips}) — ${st.against} → ${st.current}`),
    st.n_flips > st.flips.length ? h("div", {class: "wb-note"},
      `the first ${st.flips.length} are listed`) : null,
    st.n_flips ? scroll(flips) : h("div", {class: "wb-note"}, "no question changes its outcome"),
  ];
}

function render({ model, el }) {
  return mount(model, el, draw, ["state", "error"]);
}

export default { render };
"""


class RuleAblationPanel(StateWidget):
    """Switch relevance rules on and off; see false answers eliminated and correct ones broken.

    Args:
        run: What ``workbench.gates.evaluate_sets_cached(settings)`` returns, its rows, or a
            run record of a gate evaluation.
        rules: The rules initially on (default: those the run was configured with).
    """

    _esm = esm(_JS)
    _css = COMMON_CSS
    _inputs = ("rules", "against", "split")

    rules = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The relevance rules switched on."""
    against = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The subset the changed questions are compared with ([] for no rule)."""
    split = traitlets.Unicode("").tag(sync=True)
    """``dev``, ``test`` or '' for every question."""

    def __init__(self, run: Any, rules: Sequence[str] | None = None, **kwargs: Any) -> None:
        self._run = slim_gate_run(run)
        chosen = list(run_rules(self._run)) if rules is None else list(rules)
        super().__init__(rules=chosen, **kwargs)

    def _compute(self) -> dict[str, Any]:
        return _state(self._run, self.rules, self.against, self.split or None, None, self._cache)

    def toggle(self, rule: str, on: bool | None = None) -> None:
        """Switch ``rule`` on or off (``None``: flip it), as its check box does."""
        switchable = [r["name"] for r in self.state["rules"] if r["available"]]
        if rule not in switchable:
            raise WidgetError(f"relevance rule {rule!r} cannot be switched in this run; "
                              f"switchable: {', '.join(switchable)}")
        now = rule in self.rules
        want = (not now) if on is None else on
        self.rules = [r for r in switchable if (r == rule and want) or (r != rule and r in self.rules)]


__all__ = ["RuleAblationPanel", "rule_ablation_state", "rule_catalog"]
