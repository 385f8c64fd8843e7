"""Fixtures of the unit tier that several files share."""

from __future__ import annotations

from pathlib import Path

import pytest
from evidence_helpers import check_context, spec_certificate

from workbench.answers import CheckContext


@pytest.fixture(scope="session")
def certificate() -> dict:
    """The certificate of ``vat_amount.fts`` against the real morphism library."""
    return spec_certificate()


@pytest.fixture
def context(small_corpus: Path) -> CheckContext:
    """A check context over the small test corpus."""
    return check_context(small_corpus)
