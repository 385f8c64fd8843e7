import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.corpus import Corpus
    from workbench.fts import export_vat_counterexample, load_library
    from workbench.lab import setup, wrapped
    from workbench.utilities import call_utility

    lab = setup()


@app.cell
def _():
    mo.md(r"""
    # 01 · A tour of verified answers

    In verified mode the assistant may say only what one of three sources produced, and each source
    leaves an origin a program can check again later:

    1. **a utility** — a deterministic function from the catalog, called by id with arguments;
    2. **a quote** — a verbatim passage of a course file, with an anchor: the file, the offsets and
       a digest;
    3. **a spec conclusion** — the value of an executable specification that passed the FTS gate;
       its certificate names the reviewed premises it rests on.

    Anything else is a **refusal** with a code, the area that was searched and the numbers behind
    the decision. Ask your own question below, then read one answer from each source and the place
    where the design stops protecting you.
    """)
    return


@app.cell
def _():
    examples = {
        "a utility": "Посчитай SHA-256 от строки «привет»",
        "a quote": "What does UTF-8 do with a byte-order mark?",
        "a spec conclusion": "We exported bread but the customs documents are still missing. "
                             "Which VAT rate applies?",
        "a refusal (threshold)": "What is the VAT rate in Kazakhstan?",
        "a refusal (relevance)": "По каким кодам ОКПД2 детские товары облагаются НДС по ставке 10%?",
    }
    example = mo.ui.dropdown(options=examples, value="a quote", label="an example")
    return (example,)


@app.cell
def _(example):
    question = mo.ui.text_area(value=example.value, label="question", full_width=True)
    router_name = mo.ui.radio(options=["rule router", "labelled decisions"], value="rule router",
                              label="who routes", inline=True)
    mo.vstack([example, question, router_name])
    return question, router_name


@app.cell
def _(question, router_name):
    # the labelled decisions know only task-set questions; others are refused by that router
    chosen = lab.labelled_router() if router_name.value == "labelled decisions" else None
    asked = lab.ask(question.value, router=chosen)
    mo.Html(wrapped(asked.describe()))
    return


@app.cell
def _():
    mo.md(r"""
    ## 1. A utility: the model chooses, the function computes

    A small model is good at *choosing* (which function, which arguments) and bad at *computing*.
    The router only picks a utility id and binds arguments; the value comes from the function, and
    the invariant checker runs it again before the answer leaves. An argument must be data the
    user gave, not a circumstance picked up from the question, so the second call is refused.
    """)
    return


@app.cell
def _():
    computed = call_utility("hash.sha256", {"text": "привет"}).to_dict()
    circumstance = call_utility("text.stats", {"text": "windows-1251"},
                                question="compute the statistics of the text in windows-1251")
    mo.vstack([computed, circumstance.to_dict()["refusal"]])
    return


@app.cell
def _():
    mo.md(r"""
    ## 2. A quote with its anchor

    The anchor is the origin: anyone can open the file and find the same characters at the same
    offsets (code points of the text after strict UTF-8 decoding, no byte-order mark, LF line ends).
    """)
    return


@app.cell
def _():
    quote = lab.ask("What does UTF-8 do with a byte-order mark?")
    quote_evidence = quote.answer.evidence[0]
    anchor = quote_evidence.anchor
    file_now = Corpus(lab.settings.paths.corpus).read(anchor.path).text
    mo.vstack([
        mo.Html(wrapped(quote.answer.text)),
        mo.md(f"At `{anchor.path}:{anchor.start}-{anchor.end}` in the file now: "
              f"**{file_now[anchor.start:anchor.end] == quote_evidence.text}**"),
    ])
    return


@app.cell
def _():
    mo.md(r"""
    ## 3. A spec conclusion with its certificate

    "Which VAT rate applies?" follows from rules and from facts of the case. The rule is an
    executable specification whose premises are reviewed entries of the morphism library. The
    labelled decision (a perfect router) binds the facts, so the spec source is seen on its own.

    The spec's input `documents_confirmed = no` stands for export documents *not collected within
    the 180 days* that Article 165 allows; only then does the course text move an export off the
    0% rate to the goods' own rate, 10% for food. "Still missing" in the question is read as that
    deadline having passed: for documents late while the 180 days still run, the spec has no
    input, and its 10% is no answer for that case.
    """)
    return


@app.cell
def _():
    spec = lab.ask("We exported bread but the customs documents are still missing. "
                   "Which VAT rate applies?", router=lab.labelled_router())
    certificate = spec.answer.evidence[0].certificate
    mo.vstack([
        mo.Html(wrapped(spec.answer.text)),
        spec.answer.evidence[0].inputs,
        mo.md(f"checks passed: {', '.join(certificate['checks'])}; "
              f"certificate digest `{certificate['digest'][:16]}…`"),
        mo.ui.table([{k: p[k] for k in ("alias", "id", "version", "status")}
                     for p in certificate["premises"]], selection=None),
    ])
    return


@app.cell
def _():
    mo.md(r"""
    ## 4. Refusals: a code, an area, numbers

    A refusal is a statement about a closed domain: which code stopped the answer, what was
    searched, how close it came. It never claims the question is wrong.
    """)
    return


@app.cell
def _():
    refusals = [lab.ask(q).refusal for q in (
        "What is the VAT rate in Kazakhstan?",
        "По каким кодам ОКПД2 детские товары облагаются НДС по ставке 10%?")]
    mo.ui.table([{"code": r.code, "area": r.area, "numbers": str(dict(r.numbers)), "text": r.text}
                 for r in refusals], selection=None, wrapped_columns=["area", "numbers", "text"])
    return


@app.cell
def _():
    mo.md(r"""
    ## 5. The limit: export VAT at the standard rate

    `export_vat_counterexample.fts` taxes an export supply at 22 %. It is well formed and stops only
    because its premise `vat.export.standard_rate` was rejected by a reviewer. Flip that one review
    to "verified" in a scratch copy and the same text is certified and concludes 22 % — which the
    Tax Code contradicts (a confirmed export is taxed at 0 %).
    """)
    return


@app.cell
def _():
    limit = export_vat_counterexample(lab.settings.paths.specs, lab.settings.paths.morphisms)
    rejected = load_library(lab.settings.paths.morphisms).entries[limit.entry]
    mo.vstack([
        mo.md(f"**library as shipped:** `{limit.shipped.code}`"),
        mo.Html(wrapped(limit.shipped.refusal.text)),
        mo.md(f"**scratch copy, entry flipped:** "
              f"{'certified' if limit.flipped.passed else limit.flipped.code}, "
              f"{len(limit.flipped.fallacies)} fallacies, concludes **{limit.conclusion}**"),
        mo.md(f"why the reviewer rejected it: {rejected.raw['review']['reason']['en']}"),
    ])
    return


@app.cell
def _():
    mo.md(r"""
    ## What to take away

    - Verified content has exactly three origins, each re-checkable by a program.
    - A refusal is information: a code, the search area and the numbers.
    - The spec gate guarantees a conclusion only as far as its premises hold; reviewing premises is
      where the subject matter is decided.
    """)
    return


if __name__ == "__main__":
    app.run()
