"""The drift view: the counts of an audit by status, its files, and its fragments filtered.

The table is what :func:`workbench.corpus.audit_drift` returned (or a drift run record); the
counts are :func:`workbench.corpus.summarise` of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pandas as pd
import traitlets

from workbench.index import summarise
from workbench.index._drift import COLUMNS, STATUSES
from workbench.widgets._assets import COMMON_CSS, esm
from workbench.widgets._base import StateWidget, WidgetError, cached, jsonable, records

ROW_LIMIT = 200
"""At most this many fragments are listed at once (the counts are always complete)."""


def _frame(frame: Any) -> pd.DataFrame:
    rows = getattr(frame, "rows", frame)
    if not isinstance(rows, pd.DataFrame):
        raise WidgetError("expected the table of workbench.corpus.audit_drift (or a drift run "
                          f"record); got {type(frame).__name__}")
    missing = [c for c in COLUMNS if c not in rows.columns]
    if missing:
        raise WidgetError(f"not a drift audit table: it lacks {', '.join(missing)}")
    return rows


def drift_state(frame: Any, statuses: Sequence[str] | None = None, path: str | None = None,
                limit: int = ROW_LIMIT) -> dict[str, Any]:
    """What the drift view shows for a status filter and, optionally, one file.

    Args:
        frame: The table of ``audit_drift`` or a drift run record.
        statuses: The statuses kept (``match``, ``drifted``, ``changed``, ``missing_file``;
            default: all; empty: none).
        path: Keep only the fragments of this file (default: every file).
        limit: At most this many fragments are listed.

    Returns:
        JSON-ready state: the summary counts and shares, the count per status, one row per file
        with its counts per status (files with a fragment not at its anchor first), and the
        kept fragments.
    """
    return _state(_frame(frame), statuses, path, limit, None)


def _overview(rows: pd.DataFrame) -> dict[str, Any]:
    """The parts that do not depend on the filter: summary, counts per status, files."""
    status = rows["status"].astype(str)
    summary = summarise(rows, float(getattr(rows.attrs.get("summary"), "seconds", 0.0)))
    per_file = pd.crosstab(rows["path"], status).reindex(columns=list(STATUSES), fill_value=0)
    per_file.insert(0, "total", per_file.sum(axis=1))
    per_file["not_at_anchor"] = per_file["total"] - per_file["match"]
    per_file = per_file.sort_values(["not_at_anchor", "total"], ascending=[False, False])
    return {
        "summary": {"total": summary.total, "match": summary.match, "drifted": summary.drifted,
                    "changed": summary.changed, "missing_file": summary.missing_file,
                    "missing_files": summary.missing_files,
                    "quotable_share": summary.quotable_share, "drift_share": summary.drift_share,
                    "line": summary.line()},
        "counts": {s: int((status == s).sum()) for s in STATUSES},
        "files": records(per_file.reset_index().rename(columns={"index": "path"})),
        "status": status,
        "paths": set(rows["path"]),
    }


def _state(rows: pd.DataFrame, statuses: Sequence[str] | None, path: str | None, limit: int,
           cache: dict[Hashable, Any] | None) -> dict[str, Any]:
    unknown = [s for s in statuses or () if s not in STATUSES]
    if unknown:
        raise WidgetError(f"unknown status {', '.join(map(repr, unknown))}; statuses: "
                          f"{', '.join(STATUSES)}")
    chosen = list(STATUSES) if statuses is None else [s for s in STATUSES if s in statuses]
    overview = cached(cache, "overview", lambda: _overview(rows))
    if path and path not in overview["paths"]:
        raise WidgetError(f"no fragment of the audit is in {path!r}")
    mask = overview["status"].isin(chosen)
    if path:
        mask &= rows["path"] == path
    kept = rows[mask]
    return jsonable({
        "summary": overview["summary"],
        "statuses": [{"status": s, "count": overview["counts"][s], "selected": s in chosen}
                     for s in STATUSES],
        "files": overview["files"],
        "path": path or "",
        "n_rows": len(kept),
        "rows": records(kept.head(limit), COLUMNS),
    })


_JS = r"""
function draw(model) {
  const st = model.get("state") || {};
  if (!st.summary) return banner(model);
  const frozen = isStatic(model);
  const sum = st.summary;
  const picked = new Set(st.statuses.filter((x) => x.selected).map((x) => x.status));
  const chips = st.statuses.map((x) => checkbox(`${x.status} (${x.count})`, x.selected, (c) => {
    commit(model, {statuses: st.statuses.filter((y) => (y.status === x.status ? c : picked.has(y.status)))
      .map((y) => y.status)});
  }, {disabled: frozen, "data-status": x.status}));
  const files = table([
    {key: "path"}, {key: "total", num: true}, {key: "match", num: true},
    {key: "drifted", num: true}, {key: "changed", num: true},
    {key: "missing_file", label: "missing file", num: true}],
    st.files, {rowKey: (r) => r.path,
      rowClass: (r) => [r.path === st.path ? "wb-current" : "", r.not_at_anchor ? "wb-fail" : ""]
        .join(" ").trim() || null,
      onRow: frozen ? null : (r) => commit(model, {path: r.path === st.path ? "" : r.path})});
  const rows = table([
    {key: "fragment_id", label: "fragment"}, {key: "path"}, {key: "start", num: true},
    {key: "end", num: true}, {key: "status", cls: (r) => (r.status === "match" ? "wb-pass" : "wb-fail")},
    {key: "now", label: "now at", render: (r) => (r.current_start === null ? "–"
      : `${r.current_start}–${r.current_end}`)},
    {key: "detail"}], st.rows, {rowKey: (r) => r.fragment_id});
  return [
    banner(model),
    h("p", {class: "wb-summary"}, `${sum.total} fragments: match ${sum.match}, drifted ` +
      `${sum.drifted}, changed ${sum.changed}, missing file ${sum.missing_file} ` +
      `(${sum.missing_files} files); quotable ${pct(sum.quotable_share)}`),
    h("div", {class: "wb-controls"}, h("b", {}, "status"), chips),
    h("h3", {}, "Files"),
    frozen ? null : h("div", {class: "wb-note"},
      "Click a file to list only its fragments; click it again for all."),
    scroll(files),
    h("h3", {}, `Fragments (${st.n_rows}${st.path ? " in " + st.path : ""})`),
    st.n_rows > st.rows.length
      ? h("div", {class: "wb-note"}, `the first ${st.rows.length} are listed`) : null,
    scroll(rows),
  ];
}

function render({ model, el }) {
  return mount(model, el, draw, ["state", "error"]);
}

export default { render };
"""


class DriftView(StateWidget):
    """The drift audit: counts by status, the per-file table, and the fragments filtered.

    Args:
        frame: What ``workbench.corpus.audit_drift`` returned, or a drift run record.
        statuses: The statuses initially kept (default: all).
    """

    _esm = esm(_JS)
    _css = COMMON_CSS
    _inputs = ("statuses", "path", "limit")

    statuses = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The statuses kept."""
    path = traitlets.Unicode("").tag(sync=True)
    """One file to list ('' for every file)."""
    limit = traitlets.Int(ROW_LIMIT).tag(sync=True)
    """At most this many fragments are listed."""

    def __init__(self, frame: Any, statuses: Sequence[str] | None = None, **kwargs: Any) -> None:
        self._frame = _frame(frame)
        super().__init__(statuses=list(STATUSES if statuses is None else statuses), **kwargs)

    def _compute(self) -> dict[str, Any]:
        return _state(self._frame, self.statuses, self.path or None, self.limit, self._cache)


__all__ = ["DriftView", "drift_state"]
