"""Genuine evidence of each kind over the small test corpus, shared by the invariant tests."""

from __future__ import annotations

import hashlib
from pathlib import Path

from workbench.answers import (
    Answer,
    CheckContext,
    Mode,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    render_evidence,
)
from workbench.config import load_settings
from workbench.corpus import Anchor, Corpus
from workbench.fts import check_spec
from workbench.utilities import load_catalog

SETTINGS = load_settings()
SPEC_FILE = Path(SETTINGS.paths.specs) / "vat_amount.fts"
MD5_ABC = "900150983cd24fb0d6963f7d28e17f72"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def spec_certificate() -> dict:
    return check_spec(SPEC_FILE, SETTINGS.paths.morphisms).certificate.to_dict()


def check_context(corpus_root: Path) -> CheckContext:
    corpus = Corpus(corpus_root)
    fragments = CheckContext.fragments_of(corpus)
    return CheckContext(corpus=corpus, fragments=fragments,
                        index_digest=CheckContext.fragments_digest(fragments),
                        specs_dir=SETTINGS.paths.specs, library_dir=SETTINGS.paths.morphisms)


def quote_evidence(context: CheckContext) -> QuoteEvidence:
    fragment = context.fragments_by_path["en/base64.md"][-1]
    text = fragment.text[10:60]
    start = fragment.anchor.start + 10
    return QuoteEvidence(Anchor("en/base64.md", start, start + len(text), sha(text)), text,
                         context.index_digest)


def utility_evidence(result: str = MD5_ABC) -> UtilityEvidence:
    return UtilityEvidence("hash.md5", {"text": "abc"}, result, load_catalog().digest)


def spec_evidence(certificate: dict) -> SpecEvidence:
    example = certificate["examples"][0]
    return SpecEvidence("vat.vat_amount", example["actual"], certificate["digest"],
                        dict(example["inputs"]), certificate)


def answer_of(*evidence) -> Answer:
    return Answer(Mode.A, render_evidence(evidence), evidence)
