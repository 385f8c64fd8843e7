"""Writing a study's run record: the digests and model ids every run names, then the record.

The run-record floor (:mod:`workbench.runs`) writes and reads folders and knows nothing of what a
run ran on; this module knows the corpus, the index, the utility catalog and the morphism library,
and digests them once per record. The index is named by its manifest alone (which holds the digest
of every artifact), so writing a record never loads the lexical or dense arrays.

A record of a run that went through the quote source also lists the stages it built (each gate in
firing order, each quote relevance rule with its parameters) as the registry recorded them, so
the run can be rebuilt from its record and a gate or rule registered by a researcher is named
like a built-in one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.config import Settings
from workbench.corpus import Corpus
from workbench.digests import folder_digest
from workbench.errors import WorkbenchError
from workbench.fts import load_library
from workbench.gates import quote_stages
from workbench.index import index_digest, source_digest
from workbench.runs import write_run
from workbench.utilities import catalog_summary


def standard_digests(settings: Settings) -> tuple[dict[str, str | None], dict[str, str]]:
    """Digests of what any run depends on: corpus, index, utility catalog, morphism library.

    Each is ``None`` when its folder is not there; a digest that could not be computed is
    ``None`` too and its reason goes into the second mapping, so a record never holds a guess.
    """
    digests: dict[str, str | None] = {}
    problems: dict[str, str] = {}

    def take(name: str, present: bool, compute: Callable[[], str]) -> None:
        if not present:
            digests[name] = None
            return
        try:
            digests[name] = compute()
        except (WorkbenchError, OSError, ValueError) as exc:
            digests[name] = None
            problems[name] = f"{type(exc).__name__}: {exc}"

    paths = settings.paths
    take("corpus", Path(paths.corpus).is_dir(), lambda: source_digest(Corpus(paths.corpus)))
    take("index", (Path(paths.index) / "manifest.json").is_file(), lambda: index_digest(paths.index))
    take("catalog", True, lambda: catalog_summary().digest)
    take("library", Path(paths.morphisms).is_dir(), lambda: load_library(paths.morphisms).digest)
    return digests, problems


def model_ids(settings: Settings) -> dict[str, Any]:
    """The models a run used: the dense encoder, the reranker (mode, folder, digest), the generator.

    The reranker's weights are digested only in cross-encoder mode, the one mode that reads them.
    """
    reranker: dict[str, Any] = {"mode": settings.reranker.mode,
                                "path": str(settings.reranker.path) if settings.reranker.path
                                else None}
    path = settings.reranker.path
    if settings.reranker.mode == "cross-encoder" and path is not None and Path(path).is_dir():
        reranker["digest"] = folder_digest(Path(path))
    return {
        "embedder": settings.embedder.name,
        "reranker": reranker,
        "generator": str(settings.generator.path) if settings.generator.path else None,
    }


STAGED_KINDS: tuple[str, ...] = ("gates", "answers")
"""Kinds of run that go through the quote source; their records list its resolved stages."""


def record_run(kind: str, rows: pd.DataFrame, *, settings: Settings,
               digests: Mapping[str, str | None] | None = None,
               models: Mapping[str, Any] | None = None,
               stages: Sequence[Mapping[str, Any]] | None = None,
               extra: Mapping[str, Any] | None = None, **fields: Any) -> Path:
    """Write a run record naming the standard digests, model ids and stages of ``settings``.

    What the caller passes in ``digests`` and ``models`` is added on top and wins; every other
    keyword goes to :func:`workbench.runs.write_run` (``summary``, ``results_dir``).

    Args:
        kind: The kind of run.
        rows: One row per item.
        settings: The resolved settings the run used.
        digests: Further digests.
        models: Further model ids.
        stages: The stages the run built, each a
            :meth:`workbench.registry.RegistryInfo.to_dict`; by default, for a kind of
            :data:`STAGED_KINDS`, the quote source's gates in firing order and its quote rules
            with their parameters (:func:`workbench.gates.quote_stages`). Recorded as the
            manifest's ``stages``.
        extra: Further top-level manifest fields (e.g. ``order``, ``mode``).
        **fields: Passed to :func:`workbench.runs.write_run`.

    Returns:
        The run's folder.
    """
    all_digests, problems = standard_digests(settings)
    all_digests.update(digests or {})
    all_models = {**model_ids(settings), **(models or {})}
    if stages is None and kind in STAGED_KINDS:
        stages = quote_stages(settings)
    all_extra = {**({"stages": [dict(s) for s in stages]} if stages is not None else {}),
                 **dict(extra or {})}
    return write_run(kind, rows, settings=settings, digests=all_digests, models=all_models,
                     digest_problems=problems, extra=all_extra, **fields)


__all__ = ["STAGED_KINDS", "model_ids", "record_run", "standard_digests"]
