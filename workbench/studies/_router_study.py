"""The router study: the rule baseline against every trained router, paired, with the findings.

One function, :func:`study_routers`, runs every router over the same task items, pairs each
trained router with the baseline on those items (McNemar, :func:`compare_pair`), and measures the
three router findings of the system under study. The comparison is cached under
``.cache/routers/`` by the digests of everything it depends on (the model folders, the task
sets, the split and the code the routers run through), so a second run costs nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from workbench import registry
from workbench.config import Settings
from workbench.digests import CodeKey, code_key, folder_digest, sha256_file, warn_uncached
from workbench.errors import WorkbenchError
from workbench.routing import DEFAULT_TASKSETS, Router, TaskItem, build_router, load_tasks
from workbench.routing._build import CONSTRAINED_SUFFIX
from workbench.studies._findings import Finding, router_findings, span_findings, vocabulary_tokens
from workbench.studies._routers import RouterComparison, compare_pair, compare_routers

BASELINE = "rule"
"""The router every trained one is paired with unless a study names another."""


class RouterStudyError(WorkbenchError):
    """A router study was asked for routers it cannot tell apart."""

ROUTER_CODE: tuple[str, ...] = (__name__, *registry.PROVIDERS["router"])
"""Where a router study's code starts; its cache key covers these and all they import."""

ROUTER_STAGES: tuple[registry.Kind, ...] = ("router", "utility", "relevance_rule")
"""The registered stages a router study may run (routers, and the utilities and rules they
consult); the cache key covers every one registered, with its own module's code."""


@dataclass(frozen=True)
class PairedTest:
    """McNemar on the items two routers share: ``b`` only A right, ``c`` only B right."""

    router_a: str
    """The baseline."""
    router_b: str
    """The router compared with it."""
    b: int
    """Items only ``router_a`` got right."""
    c: int
    """Items only ``router_b`` got right."""
    statistic: int
    """The smaller discordant count (the exact test's statistic)."""
    p_value: float
    """The exact two-sided p-value."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form for run records."""
        return {"router_a": self.router_a, "router_b": self.router_b, "b": self.b, "c": self.c,
                "statistic": self.statistic, "p_value": self.p_value}


@dataclass(frozen=True)
class RouterStudy:
    """What :func:`study_routers` found."""

    comparison: RouterComparison
    """Per-item rows and a summary per router."""
    folders: tuple[Path, ...]
    """The trained routers' folders that took part."""
    tasksets: tuple[Path, ...]
    """The task sets the items came from."""
    split: str
    """The split of the items."""
    tests: tuple[PairedTest, ...]
    """The baseline against each trained router."""
    findings: tuple[Finding, ...]
    """The three router findings, measured on this comparison."""
    cached: bool
    """Whether the comparison came from the cache."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Folders whose model could not be loaded, with the reason (left out, not fatal)."""
    span_folders: tuple[Path, ...] = ()
    """The span routers' folders that took part (``models/routers/span*``)."""
    baseline: str = BASELINE
    """The name of the router every other one is paired with."""
    candidates: tuple[str, ...] = ()
    """The names of the routers given as ``candidates`` (registered names or router objects)."""
    uncached_reason: str = ""
    """Why the comparison was neither read from nor kept in the cache (``cache=False``, or code
    with no source to key on, such as a stage defined in a notebook cell); empty otherwise."""

    @property
    def routers(self) -> list[str]:
        """The routers compared, the baseline first."""
        return [self.baseline, *(f.name for f in self.folders),
                *(f.name for f in self.span_folders), *self.candidates]


def router_code_key() -> CodeKey:
    """The code a router study runs: :data:`ROUTER_CODE` and every stage of :data:`ROUTER_STAGES`.

    No digest (and a reason) when a registered stage's code has no source file to key on.
    """
    code = code_key(ROUTER_CODE)
    stages = registry.stages_code_key(ROUTER_STAGES)
    if code.digest is None or stages.digest is None:
        return CodeKey(None, "; ".join(k.reason for k in (code, stages) if k.reason))
    return CodeKey(hashlib.sha256(f"{code.digest}:{stages.digest}".encode()).hexdigest())


def _cache_key(folders: Sequence[Path], tasksets: Sequence[Path], split: str,
               span_folders: Sequence[Path] = (), code: CodeKey | None = None) -> str | None:
    code = code if code is not None else router_code_key()
    if code.digest is None:
        return None
    digest = hashlib.sha256(f"{BASELINE};{split};".encode())
    for folder in folders:
        digest.update(f"{folder.name}:{folder_digest(folder)};".encode())
    for folder in span_folders:
        digest.update(f"span {folder.name}:{folder_digest(folder)};".encode())
    for path in tasksets:
        digest.update(f"{path.name}:{sha256_file(path)};".encode())
    digest.update(code.digest.encode())
    return digest.hexdigest()


def _read_cache(cache: Path) -> RouterComparison | None:
    try:
        items = pd.read_parquet(cache / "items.parquet")
        summary = pd.DataFrame.from_dict(
            json.loads((cache / "summary.json").read_text(encoding="utf-8")), orient="index")
    except (OSError, ValueError):
        return None  # absent, or cut short by a killed run: computed again
    return RouterComparison(items=items, summary=summary)


def _write_cache(cache: Path, comparison: RouterComparison) -> None:
    staging = cache.with_name(cache.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    comparison.items.to_parquet(staging / "items.parquet", index=False)
    (staging / "summary.json").write_text(comparison.summary.to_json(orient="index"),
                                          encoding="utf-8")
    shutil.rmtree(cache, ignore_errors=True)
    os.replace(staging, cache)


RouterChoice = str | Router
"""A router as a study takes it: a registered name or ``NAME:PATH`` (:func:`build_router`), or
any object with ``route(question)``."""


def router_label(router: RouterChoice) -> str:
    """The name a router goes by in a study: its spec, else the name it was registered under."""
    if isinstance(router, str):
        return router
    info = registry.registry_info(router)
    return info.name if info is not None else type(router).__name__


def _choice_digest(choices: Mapping[str, RouterChoice]) -> str | None:
    """What the cache key adds for the chosen routers; ``None`` when one cannot be digested.

    A built-in router's code is in :data:`ROUTER_CODE`; a spec's path (a folder or a file) is
    digested by content. A router object's state (a script, weights in memory), a router
    registered outside the package and a bare trained router's name are not digested here, so a
    study with one is computed afresh, never cached.
    """
    registry.load("router")
    digest = hashlib.sha256()
    for name, choice in choices.items():
        if not isinstance(choice, str):
            return None
        backend, _, value = choice.removesuffix(CONSTRAINED_SUFFIX).partition(":")
        if backend not in registry.names("router"):
            return None
        module = getattr(registry.lookup("router", backend).obj, "__module__", "") or ""
        if not module.startswith("workbench."):
            return None
        path = Path(value)
        if value and not path.exists():
            return None
        content = folder_digest(path) if value and path.is_dir() else (
            sha256_file(path) if value else "")
        digest.update(f"{name}={choice}:{content};".encode())
    return digest.hexdigest()


def _build(choice: RouterChoice, items: Sequence[TaskItem]) -> Router:
    if not isinstance(choice, str):
        return choice
    # only the replay router reads the items (it joins its file to them by id)
    return build_router(choice, items) if choice.startswith("replay:") else build_router(choice)


def study_routers(settings: Settings, folders: Sequence[Path], *,
                  tasksets: Sequence[Path] | None = None, split: str = "test",
                  progress: Callable[[str], None] | None = None,
                  span_folders: Sequence[Path] = (), baseline: RouterChoice = BASELINE,
                  candidates: Mapping[str, RouterChoice] | Sequence[RouterChoice] = (),
                  cache: bool = True) -> RouterStudy:
    """The baseline against every router folder on the same items, paired, with the findings.

    Args:
        settings: Paths (task sets under ``[paths].questions``, the cache).
        folders: Trained router folders (see :func:`workbench.routing.trained_routers`).
        tasksets: Task-set files (default: the bundled router tasks and red team).
        split: The split whose items are scored.
        progress: Called with a line of text for each router skipped.
        span_folders: Span router folders (``models/routers/span*``), compared the same way; with
            the shipped one and its three variants the findings are measured on them too.
        baseline: The router every other one is paired with: a registered name or spec
            (``rule``, ``span:DIR``, ``replay:FILE``, a trained router's name) or a router object.
        candidates: Further routers, each a name or spec or an object (a mapping names them;
            in a sequence each goes by :func:`router_label`), paired with the baseline like the
            folders. A study with a router object is computed afresh, never cached.
        cache: ``False`` compares the routers again whatever the cache holds (the new
            comparison replaces the cached one).

    Returns:
        A :class:`RouterStudy`. A folder whose model cannot be loaded (e.g. caught half-written
        by a training run) is left out and named in ``skipped``.
    """
    paths = tuple(tasksets) if tasksets is not None else tuple(
        Path(settings.paths.questions) / name for name in DEFAULT_TASKSETS)
    folders = tuple(folders)
    span_folders = tuple(span_folders)
    chosen = (dict(candidates) if isinstance(candidates, Mapping)
              else {router_label(c): c for c in candidates})
    base_name = router_label(baseline)
    if base_name in chosen:
        raise RouterStudyError(f"the candidate {base_name!r} has the baseline's name; give the "
                               "candidates as a mapping with another name")
    extra = (_choice_digest({"": baseline, **chosen}) if baseline != BASELINE or chosen
             else "")
    root = Path(settings.paths.cache) / "routers"
    code = router_code_key()
    reason = "" if cache else "cache=False: compared again"
    if code.digest is None:
        reason = warn_uncached("the router study", code)

    def key(done: Sequence[Path]) -> Path | None:
        plain = _cache_key(done, paths, split, span_folders, code)
        if extra is None or plain is None:
            return None
        if not extra:
            return root / plain  # the study as it always was: its key is unchanged
        return root / hashlib.sha256(f"{plain};{extra}".encode()).hexdigest()

    first = key(folders)
    comparison = _read_cache(first) if first is not None and cache else None
    cached = comparison is not None
    skipped: dict[str, str] = {}
    items = [item for path in paths for item in load_tasks(path) if item.split == split]
    if comparison is None:
        routers: dict[str, Any] = {base_name: _build(baseline, items)}
        loaded = []
        for folder in folders:
            try:
                routers[folder.name] = build_router(f"transformers:{folder}")
            except WorkbenchError as exc:
                skipped[folder.name] = str(exc)
                if progress is not None:
                    progress(f"skipped {folder.name}: {exc}")
                continue
            loaded.append(folder)
        folders = tuple(loaded)
        for folder in span_folders:
            routers[folder.name] = build_router(f"span:{folder}")
        for name, choice in chosen.items():
            routers[name] = _build(choice, items)
        comparison = compare_routers(routers, items)
        done = key(folders)
        if done is not None:
            _write_cache(done, comparison)
    tests = tuple(PairedTest(base_name, name, *compare_pair(comparison, base_name, name))
                  for name in (*(f.name for f in (*folders, *span_folders)), *chosen))
    findings = router_findings(comparison, vocabulary_tokens({f.name: f for f in folders}, items))
    if span_folders:
        findings += span_findings(comparison)
    return RouterStudy(comparison=comparison, folders=folders, tasksets=paths, split=split,
                       tests=tests, findings=tuple(findings), cached=cached, skipped=skipped,
                       span_folders=span_folders, baseline=base_name, candidates=tuple(chosen),
                       uncached_reason=reason)


__all__ = ["BASELINE", "ROUTER_CODE", "ROUTER_STAGES", "PairedTest", "RouterChoice",
           "RouterStudy", "RouterStudyError", "router_code_key", "router_label", "study_routers"]
