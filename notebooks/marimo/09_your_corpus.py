import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import json
    from pathlib import Path

    import marimo as mo

    import workbench.lab as lab_tools
    from workbench.errors import WorkbenchError
    from workbench.lab import setup, wrapped
    from workbench.plots import sweep_curve_figure
    from workbench.report import OVER_REFUSED, gate_misses
    from workbench.studies import (
        gate_attribution,
        headline,
        rule_ablation,
        selection_errors,
        threshold_sweep,
    )
    from workbench.widgets import GateOrderExplorer

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 09 · Your own corpus, end to end

    Everything the other notebooks show on the course runs on any folder of documentation and any
    labelled question file: Markdown, plain text or HTML pages (an HTML page is read through one
    documented extraction recipe, and quotes are anchored in its extracted text). Name a corpus
    folder, optionally an index already built for it, and one or more question files in the format
    of `corpus/questions/README.md`, then walk the loop: index, evaluate, gate order, rule
    ablation, threshold sweep, and one miss inspected up close.

    The fields start at the project this notebook runs in: the `workbench.toml` found from the
    current folder upwards, its corpus and index, and the question files in its `[paths]`
    questions folder. For the real Russian LibreOffice and GIMP help, run `make outside` once, then
    use `.cache/outside/corpus`, `.cache/index/outside` and
    `corpus/outside/questions/libreoffice.jsonl, corpus/outside/questions/gimp.jsonl`.
    """)
    return


@app.cell
def _():
    _problems = []
    try:
        _preset = ", ".join(str(f) for f in lab_tools.project_questions(lab.settings))
    except WorkbenchError as _exc:  # no question file yet: say so in the page, leave the field empty
        _preset = ""
        _problems.append(mo.Html(lab_tools.error_callout(_exc)))
    corpus_field = mo.ui.text(value=str(lab.settings.paths.corpus), label="corpus folder",
                              full_width=True)
    index_field = mo.ui.text(value=str(lab.settings.paths.index),
                             label="index folder (empty: build or reuse one in the cache)",
                             full_width=True)
    questions_field = mo.ui.text(value=_preset, label="question files (comma-separated)",
                                 full_width=True)
    use_button = mo.ui.run_button(label="index and evaluate")
    mo.vstack([*_problems, corpus_field, index_field, questions_field, use_button])
    return corpus_field, index_field, questions_field, use_button


@app.cell
def _(corpus_field, index_field, questions_field, use_button):
    # indexing a new corpus takes minutes and the evaluation a minute or more on 2 cores, so in the
    # editor this waits for the button; under the CI flag (the headless tests) it runs on the fields
    mo.stop(not (use_button.value or lab.ci),
            mo.md("Press **index and evaluate** to index the corpus (if needed) and run every question."))
    chosen = Path(corpus_field.value.strip()).resolve()
    same_corpus = chosen == Path(lab.settings.paths.corpus).resolve()
    given = Path(index_field.value.strip()).resolve() if index_field.value.strip() else None
    try:
        own = lab.with_data(
            corpus=None if same_corpus else chosen,
            index=given if given and given != Path(lab.settings.paths.index).resolve() else True,
            questions=[q.strip() for q in questions_field.value.split(",") if q.strip()])
        run = own.gate_run()
    except WorkbenchError as _exc:  # a typed error is shown in the page, not only in the log
        mo.stop(True, mo.Html(lab_tools.error_callout(_exc)))
    mo.md(f"**{len(run)} questions** ({'from the cache' if run.attrs['cached'] else 'evaluated now'}): "
          + ", ".join(f"{name} {n}" for name, n in run.groupby("set").size().items()))
    return own, run


@app.cell
def _(own, run):
    shares = headline(run, "test")
    wrong = selection_errors(run)
    mo.vstack([
        mo.md("## What the configured pipeline does\n\nShares on the **test** split (report these; "
              "shape rules on dev):"),
        mo.md("\n".join(f"- {name}: **{share:.1%}**" for name, share in shares.items())),
        mo.md(f"Verified answers that quote a fragment without the gold answer (selection errors, "
              f"every split): **{wrong.answered_wrong}** of {wrong.verified}."),
        mo.md(f"First gate to fire per set, order {' > '.join(own.settings.gates.order)}, both splits:"),
        gate_attribution(run, own.settings.gates.order),
    ])
    return


@app.cell
def _():
    mo.md(r"""
    ## Gate order

    Move the gates or switch one off: only which code explains a refusal changes, never whether a
    question is refused. Every move re-slices the cached verdicts above.
    """)
    return


@app.cell
def _(own, run):
    explorer = mo.ui.anywidget(GateOrderExplorer(run, order=list(own.settings.gates.order)))
    explorer
    return


@app.cell
def _(run):
    mo.vstack([
        mo.md("## Relevance rules, ablated on the dev split\n\nFor each subset of rules: the false "
              "answers it eliminates and the correct answers it breaks, against no rule at all."),
        rule_ablation(run, split="dev"),
    ])
    return


@app.cell
def _(run):
    curve = threshold_sweep(run[run["split"] == "dev"])
    curve["mode"] = str(run["mode"].iloc[0])
    mo.vstack([
        mo.md("## The score threshold on the dev split\n\nAnswerable questions answered from a "
              "gold fragment (HasAns) against questions that must be refused refused (NoAns), at "
              "thresholds spread over this run's scores."),
        sweep_curve_figure(curve, "mode", "HasAns against NoAns (dev split)"),
    ])
    return


@app.cell
def _(run):
    misses = gate_misses(run)
    over = int((misses["miss"] == OVER_REFUSED).sum())
    pick = mo.ui.dropdown(
        options={f"{r.id} · {r.miss}{' ' + r.code if r.code else ''} · {r.question[:60]}": r.id
                 for r in misses.itertuples()},
        value=None, label=f"{len(misses)} answerable questions missed: {over} over-refused "
                          "(wherever gold ranked), the rest answered from another place")
    pick
    return misses, pick


@app.cell
def _(misses, own, pick, run):
    mo.stop(pick.value is None and not lab.ci, mo.md("Pick a miss to inspect it."))
    mo.stop(misses.empty, mo.md("No miss to inspect."))
    chosen_id = pick.value or misses["id"].iloc[0]
    row = run[run["id"] == chosen_id].iloc[0]
    gold = {q.id: q for q in own.labelled_questions()}[row["id"]].gold
    text = {k: (v if isinstance(v, str) else "") for k, v in row.items()}
    mo.vstack([
        mo.md(f"### {row['id']} ({row['lang']}, {row['split']})"),
        mo.Html(wrapped(text["question"])),
        mo.md("**Gold span**"),
        mo.Html(wrapped("\n".join(f"{g.path} [{g.start}:{g.end}]: {g.text}" for g in gold))),
        mo.md(f"**Top fragment** ({row['top_path']}, score {row['top_score']:.3f}; gold at rank "
              f"{row['gold_rank'] if row['gold_rank'] == row['gold_rank'] else 'none of the candidates'})"),
        mo.Html(wrapped(text["quote"] or "(no quote)")),
        mo.md(f"**Outcome**: {text['code'] or 'answered'}"),
        mo.Html(wrapped(text["refusal_text"])),
        mo.md("**Every gate's verdict**"),
        mo.Html(wrapped(json.dumps(json.loads(row["verdicts"]), ensure_ascii=False, indent=1))),
    ])
    return


if __name__ == "__main__":
    app.run()
