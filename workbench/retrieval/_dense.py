"""The dense side: FAISS inner-product search over L2-normalised vectors."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import faiss
import numpy as np


class DenseHit(NamedTuple):
    """One dense candidate."""

    row: int
    """Position of the fragment in the index's fragment list."""
    score: float
    """Cosine similarity to the query."""


class DenseIndex:
    """A flat inner-product FAISS index; exact search, its own file format."""

    def __init__(self, index: faiss.Index) -> None:
        self._index = index
        self.dim = int(index.d)
        self.size = int(index.ntotal)

    @classmethod
    def build(cls, vectors: np.ndarray, dim: int) -> DenseIndex:
        """Index ``vectors`` (rows in fragment order)."""
        index = faiss.IndexFlatIP(dim)
        if len(vectors):
            index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        return cls(index)

    def save(self, path: Path) -> None:
        """Write the FAISS file."""
        faiss.write_index(self._index, str(path))

    @classmethod
    def load(cls, path: Path) -> DenseIndex:
        """Read a FAISS file written by :meth:`save`."""
        return cls(faiss.read_index(str(path)))

    def search(self, query_vectors: np.ndarray, k: int) -> list[list[DenseHit]]:
        """The ``k`` nearest fragments for each query vector."""
        if self.size == 0:
            return [[] for _ in range(len(query_vectors))]
        k = min(k, self.size)
        scores, rows = self._index.search(np.ascontiguousarray(query_vectors, dtype=np.float32), k)
        return [[DenseHit(int(r), float(s)) for r, s in zip(rr, ss, strict=True) if r >= 0]
                for rr, ss in zip(rows, scores, strict=True)]

    def vectors(self, rows: list[int]) -> np.ndarray:
        """The stored vectors of ``rows`` (for bi-encoder reranking)."""
        return np.stack([self._index.reconstruct(int(r)) for r in rows]) if rows else np.zeros(
            (0, self.dim), dtype=np.float32)
