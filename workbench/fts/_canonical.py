"""Canonical JSON and sha256: the one serialisation every digest of the FTS layer is taken over.

Canonical means: keys sorted, no insignificant whitespace, UTF-8 with non-ASCII characters kept
as they are. Two equal records always give the same bytes, so the same digest.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(obj: Any) -> str:
    """``obj`` as canonical JSON text (raises ``TypeError`` on values JSON cannot hold)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def sha256_hex(data: str | bytes) -> str:
    """Hex sha256 of ``data`` (text is encoded as UTF-8)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def digest_of(obj: Any) -> str:
    """Hex sha256 of the canonical JSON of ``obj``."""
    return sha256_hex(canonical_json(obj))


__all__ = ["canonical_json", "digest_of", "sha256_hex"]
