"""Mode-A answers rebuilt from a cached gate evaluation, so their leakage can be counted.

A gate run keeps, for every answered question, the fragment and the quoted text; that is exactly
the evidence a quote answer carries. Rebuilding the answers from the cache (no retrieval) and
re-checking every invariant against the files now gives the leakage of that evaluation, and the
rows can be written as an answers run that ``workbench audit answers`` re-checks later.
"""

from __future__ import annotations

import hashlib

import pandas as pd

from workbench.answers._evidence import Answer, Mode, QuoteEvidence, render_evidence
from workbench.corpus._records import Anchor
from workbench.index._fragment_index import FragmentIndex


def quote_answer(fragment_text: str, anchor: Anchor, quote: str, index_digest: str) -> Answer:
    """The mode-A answer that quotes ``quote`` from a fragment at ``anchor``."""
    offset = fragment_text.find(quote)
    start = anchor.start + max(offset, 0)
    evidence = (QuoteEvidence(
        anchor=Anchor(path=anchor.path, start=start, end=start + len(quote),
                      sha256=hashlib.sha256(quote.encode("utf-8")).hexdigest()),
        text=quote, index_digest=index_digest),)
    return Answer(Mode.A, render_evidence(evidence), evidence)


def answers_from_gate_rows(rows: pd.DataFrame, index: FragmentIndex) -> pd.DataFrame:
    """One answers-run row per gate-run row (``answer_json`` for the answered ones)."""
    out = []
    for row in rows.to_dict(orient="records"):
        record = {"id": row.get("id"), "set": row.get("set"), "question": row["question"],
                  "source": "quote", "mode": "", "refused": True, "code": row.get("code") or "",
                  "source_refusal_code": row.get("code") or "", "answer_json": ""}
        if row.get("answered"):
            fragment = index.get(row["top_fragment"])
            answer = quote_answer(fragment.text, fragment.anchor, row["quote"], index.digest)
            record.update(mode="A", refused=False, code="", source_refusal_code="",
                          answer_json=answer.to_json())
        out.append(record)
    return pd.DataFrame.from_records(out)
