import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.gates import UnknownGateError, check_order, default_order
    from workbench.lab import setup
    from workbench.studies import (
        fire_overlaps,
        first_firing,
        gate_attribution,
        headline,
        would_fire_matrix,
    )
    from workbench.widgets import GateOrderExplorer, gate_order_figure, gate_order_state

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 02 · The order in which the quote gates fire

    Every question that goes to the quote source meets five refusal gates: `gate0` (lexical
    support), `threshold` (score), `disagreement` (two files, nearly equal scores), `relevance`
    (relevance rules) and `verbatim` (is the quote really in the file). All five are evaluated for
    every question and each verdict is kept. The order only decides which code the user sees: the
    first gate that fires. So any order is a re-slicing of one cached evaluation.
    """)
    return


@app.cell
def _():
    evaluate_button = mo.ui.run_button(label="evaluate the labelled questions")
    evaluate_button
    return (evaluate_button,)


@app.cell
def _(evaluate_button):
    # the first evaluation takes about a minute on 2 cores (later runs read the cache), so in the
    # editor it waits for the button; under the CI flag (the headless notebook tests) it runs
    mo.stop(not (evaluate_button.value or lab.ci),
            mo.md("Press **evaluate the labelled questions** to run every question through the gates."))
    run = lab.gate_run
    mo.md(f"**{len(run)} questions** from the cache: "
          + ", ".join(f"{name} {n}" for name, n in run.groupby("set").size().items()))
    return (run,)


@app.cell
def _():
    mo.md(r"""
    ## Choose an order

    Pick a gate for each position; every gate must appear once. Everything below follows.
    """)
    return


@app.cell
def _():
    # one order for the dropdowns and the explorer below: either one sets it, both show it
    get_order, set_order = mo.state(("relevance", "gate0", "threshold", "disagreement", "verbatim"))
    return get_order, set_order


@app.cell
def _(get_order, set_order):
    positions = mo.ui.array(
        [mo.ui.dropdown(options=list(default_order()), value=gate, label=f"{i + 1}.")
         for i, gate in enumerate(get_order())],
        label="firing order", on_change=lambda chosen: set_order(tuple(chosen)))
    positions.hstack(justify="start")
    return (positions,)


@app.cell
def _(positions):
    try:
        order = check_order(positions.value)
        problem = None
    except UnknownGateError as exc:
        order, problem = None, str(exc)
    mo.stop(problem is not None, mo.callout(mo.md(f"Not a firing order: {problem}"), kind="warn"))
    mo.md(f"Order: **{' > '.join(order)}** (configured: {' > '.join(lab.settings.gates.order)})")
    return (order,)


@app.cell
def _(order, run):
    configured = lab.settings.gates.order
    first_configured, first_chosen = first_firing(run, configured), first_firing(run, order)
    attribution = gate_attribution(run, order)
    same_answered = bool(((first_configured == "answered") == (first_chosen == "answered")).all())
    changed_codes = int((first_configured != first_chosen).sum())
    mo.vstack([
        mo.md("### In the configured order"),
        gate_attribution(run, configured),
        mo.md("### In the chosen order"),
        attribution,
        mo.md(f"Same questions answered: **{same_answered}**. Questions whose code changes: "
              f"**{changed_codes}** of {len(run)}. Whether a question is refused never depends on "
              "the order; which code explains the refusal does."),
    ])
    return attribution, changed_codes, same_answered


@app.cell
def _(order, run):
    gate_order_figure(gate_order_state(run, order))
    return


@app.cell
def _():
    overlap_set = mo.ui.dropdown(options=["in_corpus", "out_of_corpus", "relevance_traps"],
                                 value="out_of_corpus", label="overlaps in the set")
    overlap_set
    return (overlap_set,)


@app.cell
def _(overlap_set, run):
    mo.vstack([
        mo.md("Questions two gates would both refuse (the diagonal: each gate alone):"),
        fire_overlaps(would_fire_matrix(run), overlap_set.value),
        mo.md("Reported shares on the test split: " + ", ".join(
            f"{name} {share:.3f}" for name, share in headline(run, "test").items())),
    ])
    return


@app.cell
def _():
    mo.md(r"""
    ## The explorer

    The same cached verdicts in one widget, in the order chosen above: move gates, switch them
    off, read the overlaps. A move here sets the dropdowns too.
    """)
    return


@app.cell
def _(order, run, set_order):
    explorer = mo.ui.anywidget(GateOrderExplorer(run, order=list(order)))
    explorer.widget.observe(lambda change: set_order(tuple(change["new"])), names="order")
    explorer
    return (explorer,)


if __name__ == "__main__":
    app.run()
