import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.gates import UnknownGateError, check_order, default_order
    from workbench.lab import setup
    from workbench.plots import sweep_curve_figure
    from workbench.studies import (
        chosen_cells,
        fire_overlaps,
        first_firing,
        gate_attribution,
        headline,
        load_grid,
        sweep_curves,
        would_fire_matrix,
    )
    from workbench.widgets import (
        GateOrderExplorer,
        RiskOperatingPoint,
        gate_order_figure,
        gate_order_state,
    )

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 02 · The order in which the quote gates fire

    Every question that goes to the quote source meets six refusal gates: `gate0` (lexical
    support), `threshold` (score), `disagreement` (two files, nearly equal scores), `relevance`
    (relevance rules), `confidence` (a learned score of whether the quote answers) and `verbatim`
    (is the quote really in the file). All six are evaluated for
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
    run = lab.gate_run()
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
    get_order, set_order = mo.state(("relevance", "gate0", "threshold", "disagreement", "confidence",
                                     "verbatim"))
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
    ## The threshold per rerank mode

    The shipped sweep `sweeps/threshold_per_mode.toml` moves each mode's threshold across its own
    scores: answerable questions answered from a gold fragment (HasAns) against questions that
    must be refused refused (NoAns). Each mode is evaluated once and cached; every point, and the
    test split, re-slices those rows at thresholds spread over the dev split's scores.
    """)
    return


@app.cell
def _(run):
    # after the evaluation above (its button): the configured mode's rows are cached by then
    grid = load_grid(lab.settings.source.parent / "sweeps" / "threshold_per_mode.toml")
    if lab.ci:  # at CI size, the configured mode alone: its rows are the cached run above
        grid = grid.only("reranker.mode", [lab.settings.reranker.mode])
    curves = sweep_curves(lab.settings, grid, splits=("dev", "test"))
    split = mo.ui.dropdown(options=["dev", "test"], value="dev", label="split")
    mo.hstack([split, mo.md(f"{len(curves)} points re-sliced from {len(run)} questions a mode")],
              justify="start")
    return curves, split


@app.cell
def _(curves, split):
    chosen = chosen_cells(curves, "dev")
    chosen["shipped"] = [lab.settings.gates.threshold_for(m) for m in chosen["reranker.mode"]]
    mo.vstack([
        sweep_curve_figure(curves[curves["split"] == split.value], "reranker.mode",
                           f"HasAns against NoAns per rerank mode ({split.value} split)"),
        mo.md("The threshold the dev split chooses (largest HasAns + NoAns share, then fewer "
              "false answers), beside the shipped one:"),
        chosen[["reranker.mode", "gates.threshold", "shipped", "hasans_correct_share",
                "noans_refused_share", "false_answers"]],
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


@app.cell
def _():
    mo.md(r"""
    ## Risk against coverage: one operating point

    The same run read as a ranking: order the answers by a score (the confidence gate's estimate,
    or the best reranked score) and answer only where it reaches a threshold. Each threshold is
    an operating point with a **risk** (wrong answers ÷ answers; an answer to a question that
    must be refused is wrong) and a **coverage** (answerable questions answered from a gold
    fragment ÷ answerable questions). The slider moves the threshold along the curve; the table
    lists the questions that flip against the run's own point, and a click opens one's trace.
    Every move re-slices the cached rows.
    """)
    return


@app.cell
def _(run):
    risk_point = mo.ui.anywidget(RiskOperatingPoint(run))
    risk_point
    return (risk_point,)


@app.cell
def _(risk_point):
    # reading the value ties this cell to the widget: every move of its slider re-runs it
    _synced = risk_point.value
    risk_state = risk_point.widget.state
    chosen_point, own_point = risk_state["chosen"], risk_state["run"]
    mo.vstack([
        risk_point.widget.figure(),
        mo.md(f"At **{risk_state['score']} ≥ {risk_state['threshold']:.4f}**: "
              f"{chosen_point['answers']} answers, {chosen_point['wrong']} wrong, coverage "
              f"{chosen_point['coverage']:.1%}; the run's own point: {own_point['answers']} "
              f"answers, {own_point['wrong']} wrong, coverage {own_point['coverage']:.1%}. "
              f"**{risk_state['n_flips']}** questions flip."),
    ])
    return (risk_state,)


if __name__ == "__main__":
    app.run()
