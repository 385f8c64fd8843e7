"""The router-comparison panel: re-slice one comparison by router, task kind and split.

Routers are scored once by :func:`workbench.routing.compare_routers`; picking routers or a task
set only filters its per-item rows and recomputes the same summary figures, the disagreements
of two routers and their exact McNemar test.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Hashable, Sequence
from typing import Any

import pandas as pd
import traitlets

from workbench.routing import ROUTER_METRICS
from workbench.stats import format_p
from workbench.studies import RouterComparison, compare_pair, disagreements
from workbench.studies._routers import summary_figures
from workbench.widgets._assets import COMMON_CSS, esm
from workbench.widgets._base import StateWidget, WidgetError, cached, jsonable, records

SUMMARY_COLUMNS = tuple(metric.key for metric in ROUTER_METRICS)
"""The summary figures shown, in this order (``workbench.routing.ROUTER_METRICS``)."""

DISAGREEMENT_LIMIT = 300
"""At most this many disagreements are listed (b and c always count them all)."""


KEEP = ("router", "id", "lang", "split", "kind", "question", "gold_source", "source", "correct",
        "error", "failure_class", "prompt_tokens", "output_tokens", "latency_ms", "gold", "decision")
"""The item columns the panel reads (the raw output and details stay out of every slice)."""


def _decode(items: pd.DataFrame) -> pd.DataFrame:
    """The rows the panel slices: ``gold`` and ``decision`` as dicts again, as scoring reads them."""
    frame = items.loc[:, [c for c in KEEP if c in items.columns]].copy()
    frame["gold"] = [json.loads(g) if isinstance(g, str) else dict(g or {}) for g in items["gold"]]
    frame["decision"] = [json.loads(d) if isinstance(d, str) else d for d in items["decision"]]
    return frame


def _as_comparison(comparison: Any) -> RouterComparison:
    if isinstance(comparison, RouterComparison):
        return comparison
    raise WidgetError("expected a workbench.routing.RouterComparison (what compare_routers "
                      f"returns); got {type(comparison).__name__}")


def _pick(name: str, wanted: Sequence[str] | None, known: list[str]) -> list[str]:
    if wanted is None:
        return list(known)
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise WidgetError(f"unknown {name} {', '.join(map(repr, unknown))}; known: {', '.join(known)}")
    return [k for k in known if k in wanted]


def _router_figures(part: pd.DataFrame, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The summary figures (those of ``compare_routers``) and token counts of one router."""
    rows = part[part["router"] == name]
    figures = summary_figures(rows, rows) if len(rows) else {"items": 0}
    tokens = {"router": name, "requests": len(rows),
              "prompt_mean": rows["prompt_tokens"].mean() if len(rows) else None,
              "output_mean": rows["output_tokens"].mean() if len(rows) else None,
              "prompt_total": int(rows["prompt_tokens"].sum()),
              "output_total": int(rows["output_tokens"].sum()),
              "prompt_max": int(rows["prompt_tokens"].max()) if len(rows) else 0}
    return figures, tokens


def _pair(part: pd.DataFrame, a: str, b: str) -> dict[str, Any]:
    """Routers ``a`` and ``b`` item by item: their disagreements and the exact McNemar test."""
    both = part[part["router"].isin([a, b])]
    found = disagreements(both, a, b)
    b_count, c_count, statistic, p_value = compare_pair(both, a, b)
    ids_a = set(both.loc[both["router"] == a, "id"])
    paired = len(ids_a & set(both.loc[both["router"] == b, "id"]))
    tokens = {(r, i): int(p + o) for r, i, p, o in zip(
        both["router"], both["id"], both["prompt_tokens"], both["output_tokens"], strict=True)}
    shown = found.head(DISAGREEMENT_LIMIT).copy()
    shown["tokens_a"] = [tokens[(a, i)] for i in shown["id"]]
    shown["tokens_b"] = [tokens[(b, i)] for i in shown["id"]]
    return {"a": a, "b": b, "paired": paired, "b_count": b_count, "c_count": c_count,
            "statistic": statistic, "p_value": p_value, "p_text": format_p(p_value),
            "n_disagreements": len(found),
            "disagreements": records(shown, ["id", "kind", "lang", "question", "correct_a",
                                             "error_a", "correct_b", "error_b", "tokens_a",
                                             "tokens_b"])}


def _state(decoded: pd.DataFrame, routers: Sequence[str] | None, kinds: Sequence[str] | None,
           split: str | None, pair: Sequence[str] | None,
           cache: dict[Hashable, Any] | None) -> dict[str, Any]:
    all_routers = [str(r) for r in dict.fromkeys(decoded["router"])]
    all_kinds = sorted(str(k) for k in decoded["kind"].dropna().unique())
    all_splits = sorted(str(s) for s in decoded["split"].dropna().unique())
    chosen = _pick("router", routers, all_routers)
    chosen_kinds = tuple(_pick("task kind", kinds, all_kinds))
    if split and split not in all_splits:
        raise WidgetError(f"unknown split {split!r}; splits: {', '.join(all_splits)}")

    def keep() -> pd.DataFrame:
        mask = decoded["kind"].isin(chosen_kinds)
        if split:
            mask &= decoded["split"] == split
        return decoded[mask]

    # a slice and each router's figures over it are reused whatever the pair or router choice
    part = cached(cache, ("part", chosen_kinds, split), keep)
    figures = {name: cached(cache, ("router", name, chosen_kinds, split),
                            functools.partial(_router_figures, part, name)) for name in chosen}
    pair = list(chosen[:2] if pair is None else pair)
    if len(pair) > 2:
        raise WidgetError(f"a pair names two routers, got {len(pair)}")
    for name in pair:
        if name not in chosen:
            raise WidgetError(f"router {name!r} of the pair is not among the chosen routers "
                              f"({', '.join(chosen)})")
    pair_state = (cached(cache, ("pair", *pair, chosen_kinds, split),
                         lambda: _pair(part, pair[0], pair[1])) if len(pair) == 2 else None)
    return jsonable({
        "all_routers": all_routers, "all_kinds": all_kinds, "all_splits": all_splits,
        "routers": chosen, "kinds": list(chosen_kinds), "split": split or "",
        "n_items": int(part["id"].nunique()),
        "summary_columns": list(SUMMARY_COLUMNS),
        "summary_labels": {m.key: m.label for m in ROUTER_METRICS},
        "summary_rates": [m.key for m in ROUTER_METRICS if m.kind == "rate"],
        "summary": [{"router": name, **{c: figures[name][0].get(c) for c in SUMMARY_COLUMNS}}
                    for name in chosen],
        "errors": {name: figures[name][0].get("errors", {}) for name in chosen},
        "tokens": [figures[name][1] for name in chosen], "pair": pair_state,
    })


def router_comparison_state(comparison: RouterComparison, routers: Sequence[str] | None = None,
                            kinds: Sequence[str] | None = None, split: str | None = None,
                            pair: Sequence[str] | None = None) -> dict[str, Any]:
    """What the panel shows for a choice of routers, task kinds, split and pair.

    Args:
        comparison: What ``workbench.routing.compare_routers`` returned.
        routers: The routers to show (default: all, in comparison order).
        kinds: The task kinds to keep (``utility``, ``quote``, ``spec``, ``refuse``,
            ``red_team``; default: all).
        split: ``dev`` or ``test`` (default: both).
        pair: Two of the chosen routers to compare item by item (default: the first two).

    Returns:
        JSON-ready state: the summary figures per router over the kept items (those of
        ``compare_routers``), token counts per request, and for the pair its disagreements with
        the McNemar ``b``, ``c`` and exact p-value.
    """
    comparison = _as_comparison(comparison)
    return _state(_decode(comparison.items), routers, kinds, split, pair, None)


_JS = r"""
function draw(model) {
  const st = model.get("state") || {};
  if (!st.all_routers) return banner(model);
  const frozen = isStatic(model);
  const chosen = new Set(st.routers);
  const kinds = new Set(st.kinds);
  const routerBoxes = st.all_routers.map((r) => checkbox(r, chosen.has(r), (c) => {
    const next = st.all_routers.filter((x) => (x === r ? c : chosen.has(x)));
    const pair = st.pair ? [st.pair.a, st.pair.b].filter((x) => next.includes(x)) : [];
    commit(model, {routers: next, pair: pair.length === 2 ? pair : next.slice(0, 2)});
  }, {disabled: frozen, "data-router": r}));
  const kindBoxes = st.all_kinds.map((k) => checkbox(k, kinds.has(k), (c) => {
    commit(model, {kinds: st.all_kinds.filter((x) => (x === k ? c : kinds.has(x)))});
  }, {disabled: frozen, "data-kind": k}));
  const split = select([["", "both splits"], ...st.all_splits.map((x) => [x, x])], st.split,
    (v) => commit(model, {split: v}), {disabled: frozen, "data-action": "split"});
  const rates = new Set(st.summary_rates);
  const summary = table([{key: "router"}, ...st.summary_columns.map((c) => ({key: c,
    label: st.summary_labels[c], num: true,
    render: (r) => (rates.has(c) ? pct(r[c]) : fmt(r[c], 1))}))], st.summary,
    {rowKey: (r) => r.router});
  const tokens = table([{key: "router"}, {key: "requests", num: true},
    {key: "prompt_mean", label: "prompt / request", num: true, digits: 1},
    {key: "output_mean", label: "output / request", num: true, digits: 1},
    {key: "prompt_total", label: "prompt total", num: true},
    {key: "output_total", label: "output total", num: true},
    {key: "prompt_max", label: "prompt max", num: true}], st.tokens);
  const out = [banner(model),
    h("div", {class: "wb-controls"}, h("b", {}, "routers"), routerBoxes),
    h("div", {class: "wb-controls"}, h("b", {}, "task kinds"), kindBoxes, split),
    h("h3", {}, `Summary over ${st.n_items} items`), summary,
    h("h3", {}, "Tokens per request"), tokens];
  const p = st.pair;
  if (p) {
    const options = st.routers.map((r) => [r, r]);
    const pick = (side) => select(options, p[side], (v) => {
      const next = side === "a" ? [v, p.b] : [p.a, v];
      commit(model, {pair: next});
    }, {disabled: frozen, "data-action": "pair-" + side});
    out.push(h("h3", {}, "Paired: ", pick("a"), " vs ", pick("b")));
    out.push(h("p", {class: "wb-mcnemar"},
      `${p.paired} paired items; only ${p.a} right: b = ${p.b_count}; only ${p.b} right: ` +
      `c = ${p.c_count}; exact McNemar p = ${p.p_text}`));
    out.push(scroll(table([{key: "id"}, {key: "kind"}, {key: "question"},
      {key: "a", label: p.a, render: (r) => (r.correct_a ? "right" : r.error_a),
       cls: (r) => (r.correct_a ? "wb-pass" : "wb-fail")},
      {key: "b", label: p.b, render: (r) => (r.correct_b ? "right" : r.error_b),
       cls: (r) => (r.correct_b ? "wb-pass" : "wb-fail")},
      {key: "tokens_a", label: "tokens " + p.a, num: true},
      {key: "tokens_b", label: "tokens " + p.b, num: true}], p.disagreements,
      {rowKey: (r) => r.id})));
  } else {
    out.push(h("p", {class: "wb-note"}, "Choose two routers to compare them item by item."));
  }
  return out;
}

function render({ model, el }) {
  return mount(model, el, draw, ["state", "error"]);
}

export default { render };
"""


class RouterComparisonPanel(StateWidget):
    """Pick routers, task kinds and a split; the summary, tokens and a paired test follow.

    Args:
        comparison: What ``workbench.routing.compare_routers`` returned (computed once).
        routers: The routers initially shown (default: all).
        pair: The two routers initially compared item by item (default: the first two).
    """

    _esm = esm(_JS)
    _css = COMMON_CSS
    _inputs = ("routers", "kinds", "split", "pair")

    routers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The routers shown."""
    kinds = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The task kinds kept."""
    split = traitlets.Unicode("").tag(sync=True)
    """``dev``, ``test`` or '' for both."""
    pair = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The two routers compared item by item ([] for none)."""

    def __init__(self, comparison: RouterComparison, routers: Sequence[str] | None = None,
                 pair: Sequence[str] | None = None, **kwargs: Any) -> None:
        self._comparison = _as_comparison(comparison)
        # decoded once: a click only filters rows
        self._decoded = _decode(self._comparison.items)
        known = [str(r) for r in dict.fromkeys(self._comparison.items["router"])]
        chosen = _pick("router", routers, known)
        kinds = sorted(str(k) for k in self._decoded["kind"].dropna().unique())
        super().__init__(routers=chosen, kinds=kinds,
                         pair=list(pair) if pair is not None else chosen[:2], **kwargs)

    def _compute(self) -> dict[str, Any]:
        # a router dropped from the view takes the pair with it: fall back to the first two shown
        pair = self.pair if set(self.pair) <= set(self.routers) else self.routers[:2]
        return _state(self._decoded, self.routers, self.kinds, self.split or None, pair,
                      self._cache)


__all__ = ["RouterComparisonPanel", "router_comparison_state"]
