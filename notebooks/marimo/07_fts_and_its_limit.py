import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")

with app.setup:
    import marimo as mo

    from workbench.fts import (
        FALLACY_ORDER,
        GATE_ORDER,
        TITLES,
        check_text,
        evaluate_spec,
        export_vat_counterexample,
        verify_library,
    )
    from workbench.lab import setup, wrapped
    from workbench.widgets import CertificateView

    lab = setup()
    specs, library = lab.settings.paths.specs, lab.settings.paths.morphisms


@app.cell
def _():
    mo.md(r"""
    # 07 · FTS: executable specifications and their limit

    A rule of a subject (*which VAT rate applies*) is written as a small executable specification.
    It never states its own premises: it names entries of the **morphism library**, each reviewed by
    a person against the Tax Code. A specification that passes the **gate** (eight checks) and the
    **fallacy detector** (eight algorithms) gets a **certificate**; only then may its conclusion be
    given in verified mode. The language is described in `docs/fts.md`.

    Edit the specification below: the verdict, the refusal or the certificate follow.
    """)
    return


@app.cell
def _():
    mo.md(verify_library(library).summary())
    return


@app.cell
def _():
    spec_name = mo.ui.dropdown(options=sorted(p.name for p in specs.glob("*.fts")),
                               value="standard_rate_by_date.fts", label="specification")
    spec_name
    return (spec_name,)


@app.cell
def _(spec_name):
    source = mo.ui.code_editor(value=(specs / spec_name.value).read_text(encoding="utf-8"),
                               language="python", label="the text (try deleting a boundary line)")
    source
    return (source,)


@app.cell
def _(source):
    verdict = check_text(source.value, library)
    mo.vstack([
        mo.md(f"**{verdict.spec_id or 'the specification'}: "
              f"{'certified' if verdict.passed else verdict.code}**"
              + (f" — certificate digest `{verdict.certificate_digest}`" if verdict.passed else "")),
        mo.Html(wrapped(verdict.refusal.text)) if verdict.refusal is not None else mo.md(""),
    ])
    return (verdict,)


@app.cell
def _(verdict):
    mo.stop(not verdict.passed, mo.md("No certificate: the specification was refused."))
    view = mo.ui.anywidget(CertificateView(verdict.certificate, specs, library))
    view
    return


@app.cell
def _():
    mo.md(r"""
    ## Evaluate a certified specification

    The standard rate by date of supply, for the date you choose:
    """)
    return


@app.cell
def _():
    supply_date = mo.ui.date(value="2026-01-01", label="supply date")
    supply_date
    return (supply_date,)


@app.cell
def _(supply_date):
    conclusion = evaluate_spec(specs / "standard_rate_by_date.fts",
                               {"supply_date": supply_date.value.isoformat()}, library)
    mo.md(f"rate = **{conclusion.value}** (case {conclusion.case}, premises "
          f"{', '.join(conclusion.premises)})")
    return


@app.cell
def _():
    mo.vstack([
        mo.md("## Eight gate codes, eight fallacy codes"),
        mo.ui.table([{"gate": str(g), "what it checks": TITLES[g][0], "fallacy": str(f),
                      "what it finds": TITLES[f][0]} for g, f in zip(GATE_ORDER, FALLACY_ORDER, strict=True)],
                    selection=None, wrapped_columns=["what it checks", "what it finds"]),
    ])
    return


@app.cell
def _():
    mo.md(r"""
    ## The limit: a certified conclusion that is wrong

    `export_vat_counterexample.fts` taxes an export supply at 22 %. With the library as shipped it
    stops at `E_PREMISE`: a reviewer rejected its premise. Flip that review in a scratch copy and
    the same text passes every check of form.
    """)
    return


@app.cell
def _():
    limit = export_vat_counterexample(specs, library)
    mo.vstack([
        mo.md(f"**library as shipped:** `{limit.shipped.code}`"),
        mo.Html(wrapped(limit.shipped.refusal.text)),
        mo.md(f"**scratch copy with `{limit.entry}` marked verified:** "
              f"{'certified' if limit.flipped.passed else limit.flipped.code}, "
              f"{len(limit.flipped.fallacies)} fallacies found, concludes **{limit.conclusion}** for an "
              "export — while a confirmed export is taxed at 0 %. A certificate guarantees a "
              "conclusion only as far as its premises hold."),
    ])
    return


if __name__ == "__main__":
    app.run()
