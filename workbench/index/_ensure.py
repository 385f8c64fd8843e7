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
from workbench.retrieval._glossary import BilingualGlossary, GlossaryError


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
    glossary, lost = _kept_glossary(settings.paths.index)
    report = build_index(settings.paths.corpus, settings.paths.index, embedder=embedder,
                         fragmenting=settings.fragmenting, cache_root=settings.paths.cache,
                         progress=progress, glossary=glossary)
    return report.summary() + (f"; {lost}" if lost else "")


def _kept_glossary(folder: Path) -> tuple[BilingualGlossary | None, str]:
    """The glossary the stale index was built with, so that a rebuild keeps it.

    Returns it (None when there was none) and, when it could not be read, why it was not kept.
    """
    path = folder / GLOSSARY
    if not path.is_file():
        return None, ""
    try:
        return BilingualGlossary.load(path), ""
    except GlossaryError as exc:
        return None, (f"the old index's glossary was not kept ({exc}); rebuild with "
                      "`workbench index build --glossary` to restore it")
