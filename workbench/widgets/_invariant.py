"""The invariant checker view: one answer's evidence items against every invariant.

The verdicts are those of :func:`workbench.answers.check_answer`; this module adds only what a
reader needs to judge them: a quote's file around its anchor (read through the corpus, which
refuses paths that leave its root), a utility call executed again, a certificate's checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import traitlets

from workbench.answers import (
    Answer,
    AnswerResult,
    CheckContext,
    EvidenceFormatError,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    check_answer,
    refusal_from_report,
)
from workbench.config import load_settings
from workbench.corpus import CorpusError
from workbench.fts import digest_of
from workbench.utilities import call_utility, canonical_json, results_equal
from workbench.widgets._assets import COMMON_CSS, esm
from workbench.widgets._base import StateWidget, WidgetError, jsonable

WINDOW = 300
"""Code points of the file shown on each side of a quote's anchor."""


def _answer(answer: Answer | AnswerResult | Mapping[str, Any]) -> Answer:
    if isinstance(answer, Answer):
        return answer
    if isinstance(answer, AnswerResult):
        if answer.answer is None:
            code = answer.refusal.code if answer.refusal is not None else "no answer"
            raise WidgetError(f"the pipeline refused this question ({code}): there is no answer "
                              "to check; its trace holds the invariant report, if one was made")
        return answer.answer
    if isinstance(answer, Mapping):
        try:
            return Answer.from_dict(answer)
        except EvidenceFormatError as exc:
            raise WidgetError(f"not an answer record: {exc}") from exc
    raise WidgetError("expected a workbench.answers.Answer (or its to_dict form); got "
                      f"{type(answer).__name__}")


def _quote_detail(item: QuoteEvidence, context: CheckContext, window: int) -> dict[str, Any]:
    a = item.anchor
    detail: dict[str, Any] = {"path": a.path, "start": a.start, "end": a.end, "quote": item.text,
                              "sha256": a.sha256, "index_digest": item.index_digest}
    try:
        text = context.read(a.path)
    except CorpusError as exc:
        detail["error"] = f"the file cannot be opened: {exc}"
        return detail
    size = len(text)
    start = min(max(a.start, 0), size)
    end = min(max(a.end, start), size)
    if (start, end) != (a.start, a.end):
        detail["error"] = (f"the anchor {a.start}-{a.end} lies outside the file as it is now "
                           f"({size} code points)")
    low, high = max(0, start - window), min(size, end + window)
    detail["context"] = {"before": text[low:start], "anchor": text[start:end],
                         "after": text[end:high], "from": low, "to": high, "chars": size}
    detail["at_anchor"] = text[start:end] == item.text and "error" not in detail
    return detail


def _utility_detail(item: UtilityEvidence, context: CheckContext) -> dict[str, Any]:
    args = dict(item.args)
    # the same memo slot the checker's re-execution used, so the call runs once per context
    outcome = context.memo("call", canonical_json([item.utility, args]),
                           lambda: call_utility(item.utility, args))
    detail: dict[str, Any] = {"utility": item.utility, "args": args, "recorded": item.result,
                              "catalog_digest": item.catalog_digest}
    if outcome.ok:
        detail["reexecuted"] = outcome.result
        detail["same"] = bool(results_equal(item.result, outcome.result))
    else:
        detail["refusal"] = {"code": outcome.refusal.code, "text": outcome.refusal.text}
        detail["same"] = False
    return detail


def _spec_detail(item: SpecEvidence) -> dict[str, Any]:
    certificate = dict(item.certificate)
    body = {k: v for k, v in certificate.items() if k not in ("digest", "created_at")}
    return {"spec_id": item.spec_id, "conclusion": item.conclusion, "inputs": dict(item.inputs),
            "certificate_digest": item.certificate_digest,
            "digest": certificate.get("digest"),
            "sealed": bool(certificate) and digest_of(body) == item.certificate_digest,
            "checks": list(certificate.get("checks", [])),
            "premises": [f"{p.get('id')} v{p.get('version')} ({p.get('status')})"
                         for p in certificate.get("premises", [])],
            "library_digest": certificate.get("library_digest")}


def invariant_state(answer: Answer | AnswerResult | Mapping[str, Any], context: CheckContext,
                    window: int = WINDOW) -> dict[str, Any]:
    """What the invariant checker shows for one answer.

    Args:
        answer: The answer, the pipeline's result holding one, or the answer's ``to_dict`` form.
        context: What the invariants resolve against (corpus, index, specs, library).
        window: Code points of the file shown on each side of a quote's anchor.

    Returns:
        JSON-ready state: the answer, the report (one row per item with each applicable
        invariant's pass/fail and reason), the refusal it would turn into, and per evidence
        item the detail to judge it by (file context, re-execution, certificate).
    """
    answer = _answer(answer)
    report = check_answer(answer, context)
    failure = report.first_failure
    items = []
    for i, item in enumerate(answer.evidence):
        detail: dict[str, Any]
        if isinstance(item, QuoteEvidence):
            detail = _quote_detail(item, context, window)
        elif isinstance(item, UtilityEvidence):
            detail = _utility_detail(item, context)
        else:
            detail = _spec_detail(item)
        items.append({"index": i, "label": f"evidence[{i}]", "kind": item.kind, "detail": detail})
    shown = [str(name) for name in report.invariants
             if any(row.cells[name].passed is not None for row in report.rows)]
    return jsonable({
        "mode": str(answer.mode),
        "text": answer.text,
        "transition_note": answer.transition_note,
        "passed": report.passed,
        "first_failure": ({"item": failure[0], "invariant": str(failure[1]), "reason": failure[2]}
                          if failure else None),
        "refusal": refusal_from_report(report).text if failure else None,
        "invariants": shown,
        "rows": [{"item": row.item, "kind": row.kind, "passed": row.passed,
                  "cells": {str(k): c.to_dict() for k, c in row.cells.items() if c.passed is not None}}
                 for row in report.rows],
        "items": items,
    })


_JS = r"""
function cell(c) {
  if (!c) return h("span", {class: "wb-na"}, "–");
  return [h("b", {}, c.passed ? "pass" : "fail"), h("span", {class: "wb-reason"}, c.reason)];
}

function quoteView(d) {
  const parts = [h("div", {class: "wb-kv"},
    h("span", {}, "file"), h("span", {class: "wb-mono"}, `${d.path}:${d.start}-${d.end}`),
    h("span", {}, "quote"), h("span", {}, d.quote))];
  if (d.error) parts.push(h("div", {class: "wb-error"}, d.error));
  if (d.context) {
    const c = d.context;
    parts.push(h("div", {class: "wb-note"},
      `code points ${c.from}–${c.to} of ${c.chars}; the anchor is highlighted` +
      (d.at_anchor ? " and holds the quote" : " but does not hold the quote now")));
    parts.push(h("div", {class: "wb-context"}, c.from > 0 ? "… " : "", c.before,
      h("mark", {class: "wb-anchor " + (d.at_anchor ? "wb-anchor-ok" : "wb-anchor-bad")}, c.anchor),
      c.after, c.to < c.chars ? " …" : ""));
  }
  return parts;
}

function utilityView(d) {
  const rows = [["utility", d.utility], ["arguments", JSON.stringify(d.args)],
    ["recorded result", JSON.stringify(d.recorded)]];
  if (d.refusal) rows.push(["re-executed", `refused: ${d.refusal.code} — ${d.refusal.text}`]);
  else rows.push(["re-executed result", JSON.stringify(d.reexecuted)]);
  return [h("div", {class: "wb-kv"}, rows.map(([k, v]) => [h("span", {}, k),
      h("span", {class: "wb-mono"}, v)])),
    h("span", {class: "wb-badge " + (d.same ? "wb-pass" : "wb-fail")},
      d.same ? "same result" : "different result")];
}

function specView(d) {
  const rows = [["specification", d.spec_id], ["inputs", Object.entries(d.inputs)
      .map(([k, v]) => `${k}=${v}`).join(", ")], ["conclusion", d.conclusion],
    ["certificate digest", d.certificate_digest], ["checks", d.checks.join(", ")],
    ["premises", d.premises.join("; ")], ["library digest", d.library_digest]];
  return [h("div", {class: "wb-kv"}, rows.map(([k, v]) => [h("span", {}, k),
      h("span", {class: "wb-mono"}, fmt(v))])),
    h("span", {class: "wb-badge " + (d.sealed ? "wb-pass" : "wb-fail")},
      d.sealed ? "digest seals the certificate" : "digest does not seal the certificate")];
}

function draw(model) {
  const st = model.get("state") || {};
  if (!st.mode) return banner(model);
  const selected = model.get("selected");
  const head = [h("div", {class: "wb-controls"},
    h("b", {}, `mode ${st.mode}`),
    h("span", {class: "wb-badge " + (st.passed ? "wb-pass" : "wb-fail")},
      st.passed ? "every invariant holds" : "an invariant failed"),
    h("button", {disabled: isStatic(model), "data-action": "recheck",
      onclick: () => commit(model, {recheck: (model.get("recheck") || 0) + 1})}, "re-check now"))];
  if (st.refusal) head.push(h("div", {class: "wb-error"}, st.refusal));
  if (st.mode !== "A") {
    head.push(h("p", {class: "wb-note"}, "A mode-B answer is advisory: it claims nothing, so no" +
      " invariant applies. " + (st.transition_note || "")));
    return [banner(model), head];
  }
  const grid = table([{key: "item"}, {key: "kind"}, ...st.invariants.map((name) => ({
      key: name, label: name.replaceAll("_", " "), render: (r) => cell(r.cells[name]),
      cls: (r) => (!r.cells[name] ? "wb-na" : r.cells[name].passed ? "wb-pass" : "wb-fail")}))],
    st.rows, {
      rowKey: (r) => r.item,
      rowClass: (r) => (r.item === `evidence[${selected}]` ? "wb-selected" : null),
      onRow: (r) => {
        const item = st.items.find((x) => x.label === r.item);
        if (item) commit(model, {selected: item.index});
      }});
  const item = st.items.find((x) => x.index === selected);
  const detail = !item ? h("p", {class: "wb-note"}, "Click an evidence row to open it.")
    : h("div", {class: "wb-detail", "data-kind": item.kind},
        h("h3", {}, `${item.label}: ${item.kind}`),
        item.kind === "quote" ? quoteView(item.detail)
          : item.kind === "utility" ? utilityView(item.detail) : specView(item.detail));
  return [banner(model), head, h("p", {class: "wb-answer"}, st.text), grid, detail];
}

function render({ model, el }) {
  return mount(model, el, draw, ["state", "error", "selected"]);
}

export default { render };
"""


class InvariantChecker(StateWidget):
    """One answer's evidence items against every invariant, each with its reason.

    Args:
        answer: A ``workbench.answers.Answer``, an ``AnswerResult`` holding one, or the answer's
            ``to_dict`` form.
        context: A ``workbench.answers.CheckContext`` (default: built from the settings: the
            course corpus, its index, the specs and the morphism library).
        window: Code points of the file shown on each side of a quote's anchor.
    """

    _esm = esm(_JS)
    _css = COMMON_CSS
    _inputs = ("recheck",)

    selected = traitlets.Int(-1).tag(sync=True)
    """The evidence item opened below the table (-1 for none)."""
    recheck = traitlets.Int(0).tag(sync=True)
    """Bumped by the front end to check again against the files as they are now."""

    def __init__(self, answer: Answer | AnswerResult | Mapping[str, Any],
                 context: CheckContext | None = None,
                 window: int = WINDOW, **kwargs: Any) -> None:
        self._answer = _answer(answer)
        self._context = context if context is not None else CheckContext.from_settings(load_settings())
        self._window = window
        super().__init__(**kwargs)
        if self.selected < 0 and self._answer.evidence:
            failure = self.state.get("first_failure") or {}
            labels = [i["label"] for i in self.state["items"]]
            self.selected = labels.index(failure["item"]) if failure.get("item") in labels else 0

    def _compute(self) -> dict[str, Any]:
        return invariant_state(self._answer, self._context, self._window)

    def _on_input(self, change: Mapping[str, Any]) -> None:
        # a context remembers what it read; a re-check must see the files as they are now
        self._context = _fresh(self._context)
        self.recompute()

    def show_item(self, index: int) -> None:
        """Open evidence item ``index`` below the table, as clicking its row does."""
        if not 0 <= index < len(self._answer.evidence):
            raise WidgetError(f"no evidence item {index}; the answer has "
                              f"{len(self._answer.evidence)}")
        self.selected = index


def _fresh(context: CheckContext) -> CheckContext:
    """A context over the same corpus, index, specs and library, with nothing read yet."""
    fragments = [f for group in context.fragments_by_path.values() for f in group]
    return CheckContext(corpus=context.corpus, fragments=fragments,
                        index_digest=context.index_digest, specs_dir=context.specs_dir,
                        library_dir=context.library_dir)


__all__ = ["InvariantChecker", "invariant_state"]
