import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.answers import CheckContext, check_answer
    from workbench.corpus import DRIFT_EDITS, Corpus, apply_drift_edits, verify_quote
    from workbench.index import audit_drift
    from workbench.lab import setup
    from workbench.widgets import DriftView

    lab = setup()
    index = lab.quote_source.index


@app.cell
def _():
    mo.md(r"""
    # 06 · Drift: the corpus moves on, the index does not

    Every fragment of the index has an anchor into the files as they were when it was built. A
    **drift audit** checks each one against the files now: `match` (quotable), `drifted` (the text
    is elsewhere in the file), `changed` (gone from a file that exists) or `missing_file`.

    Choose edits below. Each choice makes a **fresh copy** of the course in a temporary folder
    (never the real corpus), applies the edits, and audits the course index against it.
    """)
    return


@app.cell
def _():
    edits = mo.ui.multiselect(
        options={edit.label: name for name, edit in DRIFT_EDITS.items()},
        value=[edit.label for edit in DRIFT_EDITS.values()],
        label="edits to the copy")
    edits
    return (edits,)


@app.cell
def _(edits):
    scratch = lab.scratch_corpus()
    applied = apply_drift_edits(scratch, edits.value, shipped=lab.settings.paths.corpus)
    drift = audit_drift(index, scratch)
    mo.vstack([
        mo.md(f"Edits: {applied.line()}"),
        mo.md(drift.attrs["summary"].line()),
        drift[drift["status"] != "match"].groupby(["path", "status"], observed=True).size()
        .unstack(fill_value=0) if (drift["status"] != "match").any() else mo.md("Every fragment matches."),
    ])
    return drift, scratch


@app.cell
def _(drift, scratch):
    _moved = drift[drift["status"] == "drifted"]
    mo.stop(_moved.empty, mo.md("No fragment drifted: add the note to see where moved text goes."))
    _fragment = next(f for f in index.fragments if f.id == _moved.iloc[0]["fragment_id"])
    _check = verify_quote(_fragment.text[:60], _fragment, Corpus(scratch))
    mo.md(f"`verify_quote` on a drifted fragment: **{_check.status}** — {_check.detail}")
    return


@app.cell
def _(scratch):
    answer = lab.ask("What does UTF-8 do with a byte-order mark?").answer
    edited = CheckContext.for_index(index, Corpus(scratch), lab.settings)
    _failure = check_answer(answer, edited).first_failure
    mo.md(f"The answer *{answer.text[:80]}…* against the shipped course: "
          f"**{check_answer(answer, lab.context).passed}**; against the edited copy: "
          f"**{'passes' if _failure is None else f'{_failure[1]} fails — {_failure[2]}'}**")
    return


@app.cell
def _(drift):
    view = mo.ui.anywidget(DriftView(drift))
    view
    return


@app.cell
def _():
    mo.md(r"""
    A quote is only as good as its anchor *today*. Drifted fragments come back by rebuilding the
    index (only touched fragments are re-encoded); changed and missing ones are gone for good.
    """)
    return


if __name__ == "__main__":
    app.run()
