"""Make sure the configured index exists and matches the corpus, building it only when it does not."""

from __future__ import annotations

from pathlib import Path

from workbench.config import Settings
from workbench.index._fragment_index import (
    GLOSSARY,
    build_index,
    index_is_current,
    read_manifest,
)
from workbench.retrieval._embedders import make_embedder
from workbench.retrieval._glossary import Glossary, GlossaryError


def ensure_index(settings: Settings, *, progress: bool = True) -> str:
    """Build ``settings.paths.index`` from the corpus when it is missing or stale.

    The check reads only the manifest and the files' digests, so an index that is current costs
    no model load. Building reuses the embedding cache under ``settings.paths.cache``.

    Args:
        settings: The resolved settings (corpus, index and cache paths, embedder, fragmenting).
        progress: Show a progress bar while encoding.

    Returns:
        One line saying what was found or built.
    """
    embedder = make_embedder(settings.embedder.name)
    current, why = index_is_current(settings.paths.index, settings.paths.corpus, embedder.id,
                                    settings.fragmenting)
    if current:
        counts = read_manifest(settings.paths.index)["counts"]
        return (f"index up to date: {counts['fragments']} fragments from {counts['files']} files "
                f"({settings.paths.index})")
    if progress:
        print(f"building the index ({why}); encoding is the slow part on a small CPU", flush=True)
    report = build_index(settings.paths.corpus, settings.paths.index, embedder=embedder,
                         fragmenting=settings.fragmenting, cache_root=settings.paths.cache,
                         progress=progress, glossary=_kept_glossary(settings.paths.index))
    return report.summary()


def _kept_glossary(folder: Path) -> Glossary | None:
    """The glossary the stale index was built with, so a rebuild keeps it (None when none)."""
    try:
        return Glossary.load(folder / GLOSSARY) if (folder / GLOSSARY).is_file() else None
    except GlossaryError:
        return None  # a damaged glossary is not carried into a fresh index
