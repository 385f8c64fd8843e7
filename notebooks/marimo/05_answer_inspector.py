import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import dataclasses
    import hashlib

    import marimo as mo

    from workbench.answers import Answer, Mode, check_answer, refusal_from_report, render_evidence
    from workbench.lab import setup
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
                 for name, result in results.items()], selection=None)
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
    mo.vstack([mo.plain_text(inspected.text),
               mo.ui.anywidget(InvariantChecker(inspected, lab.context))])
    return


@app.cell
def _():
    mo.md(r"""
    ## Forge the quote

    Replace a phrase of the genuine quote. The forger recomputes the anchor's digest, so the answer
    still looks like a cited quote: a file, offsets and a matching digest.
    """)
    return


@app.cell
def _():
    replace = mo.ui.text(value="four characters", label="replace")
    by = mo.ui.text(value="five characters", label="by")
    mo.hstack([replace, by], justify="start")
    return by, replace


@app.cell
def _(by, replace, results):
    genuine = results["quote"].answer.evidence[0]
    mo.stop(replace.value not in genuine.text,
            mo.md(f"«{replace.value}» is not in the quote: «{genuine.text}»"))
    text = genuine.text.replace(replace.value, by.value)
    anchor = dataclasses.replace(genuine.anchor, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())
    forged_evidence = dataclasses.replace(genuine, text=text, anchor=anchor)
    forged = Answer(Mode.A, render_evidence((forged_evidence,)), (forged_evidence,))
    report = check_answer(forged, lab.context)
    verdict = ("the checker lets it through: the text did not change" if report.passed
               else refusal_from_report(report, "en").text)
    mo.vstack([
        mo.plain_text(forged.text),
        mo.md(f"**passed: {report.passed}** — {verdict}"),
        mo.ui.anywidget(InvariantChecker(forged, lab.context)),
    ])
    return


if __name__ == "__main__":
    app.run()
