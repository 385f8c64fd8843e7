"""The invariant checker: every invariant passes on genuine evidence and fails on a spoiled copy."""

from __future__ import annotations

import dataclasses

import pytest
from evidence_helpers import (
    answer_of,
    quote_evidence,
    spec_evidence,
    utility_evidence,
)

from workbench.answers import (
    Answer,
    AnswerCode,
    CheckContext,
    Invariant,
    Mode,
    check_answer,
    refusal_from_report,
    render_evidence,
)
from workbench.corpus import CorpusError
from workbench.fts import digest_of
from workbench.refusal import falsehood_words
from workbench.registry import names


def _genuine(kind: str, context: CheckContext, certificate: dict):
    return {"quote": lambda: quote_evidence(context), "utility": utility_evidence,
            "spec": lambda: spec_evidence(certificate)}[kind]()


def _reseal(cert: dict, **changes) -> dict:
    body = {k: v for k, v in cert.items() if k not in ("digest", "created_at")}
    body.update(changes)
    return {**body, "digest": digest_of(body)}


# (invariant, kind of evidence, spoil) — one failing case per invariant, the test data itself
SPOILS = [
    (Invariant.QUOTE_FILE_EXISTS, "quote",
     lambda e: dataclasses.replace(e, anchor=dataclasses.replace(e.anchor, path="../en/base64.md"))),
    (Invariant.QUOTE_AT_ANCHOR, "quote",
     lambda e: dataclasses.replace(e, anchor=dataclasses.replace(e.anchor, start=e.anchor.start + 1,
                                                                 end=e.anchor.end + 1))),
    (Invariant.QUOTE_IN_INDEX, "quote", lambda e: dataclasses.replace(e, index_digest="f" * 64)),
    (Invariant.UTILITY_IN_CATALOG, "utility", lambda e: dataclasses.replace(e, utility="hash.md6")),
    (Invariant.UTILITY_ARGS_ATTACHED, "utility", lambda e: dataclasses.replace(e, args={})),
    (Invariant.UTILITY_SAME_RESULT, "utility", lambda e: dataclasses.replace(e, result="0" * 32)),
    (Invariant.CERTIFICATE_DIGEST, "spec",
     lambda e: dataclasses.replace(e, certificate_digest="0" * 64)),
    (Invariant.RECHECK_ACCEPTS, "spec",
     lambda e: (lambda c: dataclasses.replace(e, certificate=c, certificate_digest=c["digest"]))(
         _reseal(e.certificate, spec_version=7))),
    (Invariant.CONCLUSION_FOLLOWS, "spec", lambda e: dataclasses.replace(e, conclusion="1.00 rub")),
]


def test_every_invariant_is_registered_and_has_a_failing_case() -> None:
    assert set(names("invariant")) >= {str(i) for i in Invariant}
    covered = {row[0] for row in SPOILS} | {Invariant.EVIDENCE_PRESENT, Invariant.TEXT_FROM_EVIDENCE}
    assert covered == set(Invariant)


@pytest.mark.parametrize("kind", ["quote", "utility", "spec"])
def test_genuine_evidence_passes_every_invariant(kind, context, certificate) -> None:
    report = check_answer(answer_of(_genuine(kind, context, certificate)), context)
    assert report.passed, report.to_frame().to_dict(orient="records")
    assert report.first_failure is None
    frame = report.to_frame()
    assert list(frame["item"]) == ["answer", "evidence[0]"]
    assert set(frame.columns) >= {str(i) for i in Invariant}
    applicable = frame.iloc[1][[str(i) for i in Invariant]]
    assert (applicable == "pass").sum() == 3 and (applicable == "").sum() == len(Invariant) - 3


@pytest.mark.parametrize(("name", "kind", "spoil"), SPOILS, ids=[str(s[0]) for s in SPOILS])
def test_a_spoiled_item_fails_its_invariant(name, kind, spoil, context, certificate) -> None:
    report = check_answer(answer_of(spoil(_genuine(kind, context, certificate))), context)
    assert not report.passed
    assert name in report.failed_invariants
    row = report.rows[1]
    assert row.cells[name].passed is False and row.cells[name].reason
    assert report.to_frame().iloc[1][str(name)].startswith("fail: ")
    refusal = refusal_from_report(report)
    assert refusal.code == AnswerCode.INVARIANT_FAILED
    assert refusal.numbers["invariant"] == str(report.first_failure[1])
    assert not falsehood_words(refusal.text) and not falsehood_words(refusal_from_report(report, "ru").text)


def test_answer_invariants(context, certificate) -> None:
    item = utility_evidence()
    empty = check_answer(Answer(Mode.A, render_evidence([item]), ()), context)
    assert empty.first_failure[1] is Invariant.EVIDENCE_PRESENT
    altered = check_answer(Answer(Mode.A, render_evidence([item]) + " and more", (item,)), context)
    assert altered.failed_invariants == [Invariant.TEXT_FROM_EVIDENCE]
    assert check_answer(answer_of(item), context).passed


def test_mode_b_is_advisory_and_not_checked(context) -> None:
    report = check_answer(Answer(Mode.B, "free text", (), "mode A refused"), context)
    assert report.passed and report.rows == ()


def test_a_context_sees_the_file_as_it_was_when_built(small_corpus, context, certificate) -> None:
    quote = quote_evidence(context)
    assert check_answer(answer_of(quote), context).passed
    path = small_corpus / "en/base64.md"
    path.write_text("Inserted first.\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    fresh = CheckContext(corpus=context.corpus, fragments=[f for fs in context.fragments_by_path.values()
                                                           for f in fs],
                         index_digest=context.index_digest)
    report = check_answer(answer_of(quote), fresh)
    assert report.failed_invariants == [Invariant.QUOTE_AT_ANCHOR]
    assert "it sits at" in report.first_failure[2]


def test_refusal_from_a_passing_report_is_an_error(context) -> None:
    with pytest.raises(ValueError):
        refusal_from_report(check_answer(answer_of(utility_evidence()), context))


def test_every_public_name_resolves_from_the_package() -> None:
    import workbench.answers as package
    from workbench.answers._context import CheckContext as from_its_module

    for name in package.__all__:
        assert getattr(package, name) is not None, name
    assert CheckContext is from_its_module
    with pytest.raises(AttributeError, match="no attribute 'ChecKContext'"):
        package.ChecKContext  # noqa: B018


def test_a_context_memo_computes_once_per_table_and_key(context) -> None:
    calls = []
    for _ in range(3):
        assert context.memo("t", "k", lambda: calls.append(1) or len(calls)) == 1
    assert context.memo("u", "k", lambda: "other table") == "other table"
    assert calls == [1]


@pytest.mark.parametrize(("path", "error"), [
    ("../outside.md", "OutsideCorpusError"),
    ("en/nowhere.md", "CorpusFileMissingError"),
])
def test_a_context_read_raises_the_corpus_error_every_time(context, path, error) -> None:
    for _ in range(2):  # the second read answers from the remembered error
        with pytest.raises(CorpusError) as caught:
            context.read(path)
        assert type(caught.value).__name__ == error


def test_a_context_without_a_corpus_or_specs_resolves_nothing() -> None:
    empty = CheckContext()
    with pytest.raises(CorpusError, match="no corpus root"):
        empty.read("en/base64.md")
    assert empty.spec_file("vat.vat_amount") is None
