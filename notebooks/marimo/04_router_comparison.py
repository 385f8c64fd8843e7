import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.lab import setup
    from workbench.routing import rule_router, transformers_router
    from workbench.stats import format_p
    from workbench.studies import (
        compare_pair,
        compare_routers,
        disagreements,
        findings_frame,
        router_findings,
        vocabulary_tokens,
    )
    from workbench.widgets import RouterComparisonPanel

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 04 · Comparing routers

    The router reads a question and chooses: a utility with its arguments, a quote, a spec with its
    inputs, or a refusal. `router_tasks.jsonl` and `red_team.jsonl` (requests that tempt an
    invented call) hold the labelled decision for each. Every decision is scored as
    correct or with exactly one error type. A **visible** failure is noticed downstream; a
    **verified wrong answer** (`wrong_argument_value`) executes, passes every invariant, and
    nobody notices.

    The rule router (the keyword baseline) is compared with every router trained here that has
    finished training (`models/routers/*/` with `workbench_training.json`), on the test split:
    the trained routers saw the dev split.
    """)
    return


@app.cell
def _():
    trained = lab.trained_routers()
    test_items = lab.tasks(split="test")
    chosen_routers = mo.ui.multiselect(options=["rule", *trained], value=["rule", *trained],
                                       label="routers")
    how_many = mo.ui.slider(start=8, stop=len(test_items), value=lab.size(len(test_items), ci=16),
                            step=1, label="test items (a seeded sample below the full set)",
                            show_value=True)
    compare = mo.ui.run_button(label="compare")
    mo.vstack([
        mo.md("No trained router has finished yet: train one with "
              "`workbench router train models/routers/base.toml`.") if not trained else mo.md(""),
        mo.hstack([chosen_routers, how_many, compare], justify="start"),
    ])
    return chosen_routers, compare, how_many, test_items, trained


@app.cell
def _(chosen_routers, compare, how_many, test_items, trained):
    # a trained router generates token by token (a fraction of a second per item on 2 cores):
    # in the editor it waits for the button; as a script it runs at once
    mo.stop(mo.running_in_notebook() and not compare.value,
            mo.md("Choose routers and a sample size, then press **compare**."))
    mo.stop(not chosen_routers.value, mo.md("Choose at least one router."))
    sample = lab.pick(test_items, how_many.value)
    routers = {name: rule_router() if name == "rule" else transformers_router(str(trained[name]))
               for name in chosen_routers.value}
    with mo.status.progress_bar(total=len(routers) * len(sample), title="comparing routers",
                                remove_on_exit=True) as bar:
        comparison = compare_routers(routers, sample,
                                     on_item=lambda name: bar.update(subtitle=f"router {name}"))
    comparison.summary[["items", "source_accuracy", "utility_accuracy", "argument_exact_match",
                        "over_refusal_rate", "visible_failure_rate", "verified_wrong_answer_rate",
                        "parse_failure_rate", "prompt_tokens_per_request", "latency_p50_ms"]].round(3)
    return comparison, routers


@app.cell
def _(comparison):
    comparison.items.groupby(["router", "error"]).size().unstack(fill_value=0)
    return


@app.cell
def _(comparison, routers):
    names = list(routers)
    mo.stop(len(names) < 2, mo.md("A paired test needs two routers."))
    first, second = names[0], names[1]
    only_first, only_second, _statistic, p_value = compare_pair(comparison, first, second)
    mo.vstack([
        mo.md(f"### McNemar, {first} vs {second}\n\nOnly {first} right on **{only_first}** items, "
              f"only {second} right on **{only_second}**; exact two-sided p = **{format_p(p_value)}**. "
              "Only the discordant items count: under equal error rates the first number follows "
              "Binomial(b + c, ½)."),
        mo.ui.table(disagreements(comparison, first, second)[
            ["id", "kind", "question", "error_a", "error_b"]], selection=None, page_size=8,
            wrapped_columns=["question"]),
    ])
    return


@app.cell
def _(comparison, trained):
    # the studied system's three claims, checked on this comparison (`workbench router findings`)
    tokens = vocabulary_tokens(trained, lab.tasks())
    mo.vstack([
        mo.md("### The three findings of the system under study, measured here\n\n"
              "Each claim is checked on the routers compared above, with its numbers and a "
              "paired test; a router that is not in the comparison leaves its finding "
              "unmeasured."),
        mo.ui.table(findings_frame(router_findings(comparison, tokens))[
            ["router", "against", "holds", "verdict"]], selection=None,
            wrapped_columns=["verdict"]),
    ])
    return


@app.cell
def _(comparison):
    panel = mo.ui.anywidget(RouterComparisonPanel(comparison))
    panel
    return


if __name__ == "__main__":
    app.run()
