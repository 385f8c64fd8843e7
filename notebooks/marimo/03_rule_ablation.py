import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.lab import setup, wrapped
    from workbench.relevance import quote_rules
    from workbench.studies import flipped_questions, gate_attribution, rule_ablation, rule_report
    from workbench.widgets import RuleAblationPanel

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 03 · Relevance rules: what each one earns

    The relevance gate refuses a quote when an enabled **relevance rule** fires on the best
    candidate. Three rules are string comparisons, and one reads the text with a small morphology and
    named-entity toolkit (pymorphy3 and natasha, offline); no language model is asked:

    - `entities` — every Latin token, identifier, abbreviation (НДС, ИНН), proper noun, number with a
      unit, command-line option and backticked literal of the question must occur in the fragment
      (or, for the page's own title and file name, anywhere in its file);
    - `lang-match` — the fragment is in the question's language;
    - `term-coverage` — enough of the question's content terms occur in the fragment;
    - `answer-type` — a who-question needs a person or organisation, a when-question a date or year,
      a how-many question a number.

    A rule earns its place when it eliminates more false answers than it breaks correct ones. Every
    rule's flag is cached with the gate verdicts, so each toggle below is a re-slicing, not a re-run.
    """)
    return


@app.cell
def _():
    run = lab.gate_run()
    return (run,)


@app.cell
def _():
    rules = mo.ui.multiselect(options=list(quote_rules()), value=list(lab.settings.gates.relevance_rules),
                              label="rules switched on")
    return (rules,)


@app.cell
def _():
    against = mo.ui.multiselect(options=list(quote_rules()), value=[], label="compared with")
    split = mo.ui.dropdown(options=["dev", "test"], value="dev", label="split")
    return against, split


@app.cell
def _(against, rules, split):
    mo.hstack([rules, against, split], justify="start")
    return


@app.cell
def _(rules, run):
    attribution = gate_attribution(run, rules=rules.value)
    mo.vstack([
        mo.md(f"### First-firing counts with **{' + '.join(rules.value) or 'no rule'}**"),
        attribution,
    ])
    return (attribution,)


@app.cell
def _(against, rules, run):
    changed = flipped_questions(run, rules=rules.value, against=against.value)
    mo.vstack([
        mo.md(f"### {len(changed)} questions change between "
              f"**{' + '.join(against.value) or 'no rule'}** and **{' + '.join(rules.value) or 'no rule'}**"),
        mo.ui.table(changed[["set", "lang", "question", "before", "after"]], selection=None,
                    page_size=8, wrapped_columns=["question"]),
    ])
    return (changed,)


@app.cell
def _(run, split):
    mo.vstack([
        mo.md(f"### Every subset of rules on the {split.value} split, against no rule at all"),
        rule_ablation(run, split=split.value),
        mo.Html(wrapped("\n".join(rule_report(run, split.value,
                                               lab.settings.gates.relevance_rules)))),
    ])
    return


@app.cell
def _():
    mo.md(r"""
    Decide on the dev split, confirm on test. A rule that eliminates nothing is not harmless: it
    is pure risk on questions nobody has seen.

    ## The panel

    The same analysis in one widget: tick rules, read the counts and the changed questions.
    """)
    return


@app.cell
def _(run):
    panel = mo.ui.anywidget(RuleAblationPanel(run))
    panel
    return


if __name__ == "__main__":
    app.run()
