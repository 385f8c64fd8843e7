import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.answers import (
        KIND_SOURCE,
        ForgeryError,
        ForgeryKind,
        Pools,
        check_answer,
        forge,
        refusal_from_report,
    )
    from workbench.lab import setup, wrapped
    from workbench.widgets import InvariantChecker

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 05 · Inspecting an answer

    A mode-A answer leaves only after the **invariant checker** has resolved every evidence item
    against the world as it is now: a quote's file exists, its text is at its anchor and in the
    index; a utility is in the catalog, its arguments are attached and it gives the same result
    again; a certificate has a digest, the re-checker accepts it and the conclusion follows.

    Pick a question, inspect its answer, then forge a quote and watch it fail.
    """)
    return


@app.cell
def _():
    ask_button = mo.ui.run_button(label="answer the four questions")
    ask_button
    return (ask_button,)


@app.cell
def _(ask_button):
    # loading the quote source's encoder takes a while on 2 cores, so in the editor this waits for
    # the button; under the CI flag (the headless notebook tests) it runs, so the tests reach it
    mo.stop(not (ask_button.value or lab.ci),
            mo.md("Press **answer the four questions** to load the sources and answer."))
    # the spec question is routed with its labelled decision: binding facts is the routers' job
    questions = {
        "utility": ("Посчитай SHA-256 от строки «привет»", None),
        "quote": ("How many bytes does Base64 produce for three bytes of input?", None),
        "spec": ("Продаём детские товары в розничную сеть внутри страны. По какой ставке НДС?",
                 lab.labelled_router()),
        "refusal": ("По каким кодам ОКПД2 детские товары облагаются НДС по ставке 10%?", None),
    }
    results = {name: lab.ask(question, router=router) for name, (question, router) in questions.items()}
    mo.ui.table([{"source": name, **{k: result.to_row()[k] for k in
                                     ("question", "mode", "code", "invariants_passed")}}
                 for name, result in results.items()], selection=None,
                wrapped_columns=["question"])
    return (results,)


@app.cell
def _(results):
    picked = mo.ui.dropdown(options=[n for n, r in results.items() if r.answer is not None],
                            value="quote", label="inspect the answer from")
    picked
    return (picked,)


@app.cell
def _(picked, results):
    inspected = results[picked.value].answer
    mo.vstack([mo.Html(wrapped(inspected.text)),
               mo.ui.anywidget(InvariantChecker(inspected, lab.context))])
    return


@app.cell
def _():
    mo.md(r"""
    ## Forge the quote

    Spoil the genuine quote one way, with `workbench.answers.forge`, the same forgers the negative
    control runs by the thousand. Changing a character recomputes the anchor's digest, so the
    answer still looks like a cited quote: a file, offsets and a matching digest.
    """)
    return


@app.cell
def _():
    kind = mo.ui.dropdown(
        options=[str(k) for k in ForgeryKind if KIND_SOURCE[k] in ("quote", "answer")],
        value=str(ForgeryKind.QUOTE_CHAR_CHANGED), label="forgery")
    forgery_seed = mo.ui.number(start=0, step=1, value=lab.seed, label="seed")
    mo.hstack([kind, forgery_seed], justify="start")
    return forgery_seed, kind


@app.cell
def _(forgery_seed, kind, results):
    genuine = results["quote"].answer
    # the course's files, so a quote can be moved to another one
    pools = Pools.of([genuine], paths=lab.context.fragments_by_path)
    try:
        forgery, problem = forge(kind.value, pools, seed=int(forgery_seed.value)), None
    except ForgeryError as exc:
        forgery, problem = None, str(exc)
    mo.stop(problem is not None, mo.callout(mo.md(f"Not with this answer: {problem}"), kind="warn"))
    forged = forgery.answer
    report = check_answer(forged, lab.context)
    verdict = ("the checker lets it through: the checker tests where evidence comes from, not "
               "whether it answers the question" if report.passed
               else refusal_from_report(report, "en").text)
    mo.vstack([
        mo.md(f"**{forgery.kind}**: {forgery.detail}"),
        mo.Html(wrapped(forged.text)),
        mo.md(f"**passed: {report.passed}** — {verdict}"),
        mo.ui.anywidget(InvariantChecker(forged, lab.context)),
    ])
    return


if __name__ == "__main__":
    app.run()
