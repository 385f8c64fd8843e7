import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.lab import setup
    from workbench.studies import run_negative_control

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 08 · The negative control: forged answers against the checker

    A checker that never fails proves nothing. The negative control spoils genuine answers in 19
    ways across the three sources (a changed character in a quote, shifted offsets, an altered
    utility result, a certificate resealed after an edit, a downgraded premise, removed evidence,
    …), runs each through the invariant checker and publishes every verdict. Genuine answers are
    checked alongside as the control: all of them must pass.
    """)
    return


@app.cell
def _():
    per_kind = mo.ui.slider(start=4, stop=240, step=4, value=lab.size(240, ci=12), show_value=True,
                            label="spoiled answers per kind")
    go = mo.ui.run_button(label="run the negative control")
    mo.hstack([per_kind, go], justify="start")
    return go, per_kind


@app.cell
def _(go, per_kind):
    # the full run is the slowest cell here: in the editor it waits for the button
    mo.stop(mo.running_in_notebook() and not go.value,
            mo.md("Choose a size and press **run the negative control**."))
    report = run_negative_control(lab.settings, per_kind=per_kind.value, write=False)
    mo.md(f"**{len(report.verdicts)}** spoiled answers of {len(report.per_kind)} kinds: "
          f"**{int(report.verdicts['caught'].sum())}** caught ({100 * report.overall:.1f}%); "
          f"genuine answers passing: **{report.genuine_passed} of {report.genuine}**")
    return (report,)


@app.cell
def _(report):
    report.per_kind
    return


@app.cell
def _(report):
    missed = report.verdicts[~report.verdicts["caught"]]
    mo.vstack([
        mo.md("### What gets through"),
        missed.groupby("kind")["detail"].agg(passed_the_checker="size", for_example="first"),
        mo.md(r"""
    - **valid evidence for another question** always passes: the invariants check *origin* (this
      quote is in this file, this utility gives this result), not *relevance* to the question.
      Relevance belongs to the router and the relevance gate (notebooks 03 and 04).
    - a **changed or dropped utility argument** passes when the call still reproduces exactly (the
      argument had no effect on the result, or had a default): a verified wrong answer, seen from
      the checker's side.
    """),
    ])
    return


if __name__ == "__main__":
    app.run()
