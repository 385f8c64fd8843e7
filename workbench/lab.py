"""What the notebooks share: one setup call, the CI flag, and the few objects every notebook reuses.

A notebook starts with ``lab = setup()``. The call reads the settings, makes sure the course index
exists (the same step ``workbench demo`` runs, rebuilt only when the corpus or a setting changed),
fixes the seeds, pins plotly's renderer so saved outputs are stable, and returns a :class:`Lab`.
The lab loads the expensive things (the quote source, the gate verdicts) at most once, on first
use, so a notebook pays only for what it touches.

``setup(corpus=..., index=..., questions=...)`` points a notebook at another corpus: its index,
its labelled question files (the format of ``corpus/questions/README.md``), or both; the quote
source, the checker and the gate verdicts then use them, so every notebook runs unchanged on it.

``WORKBENCH_CI=1`` shrinks the work of the slow cells (router comparisons, the negative control)
to a seeded sample, so the notebook tests stay short; without it a notebook runs at full size.
The seeds are fixed either way: a notebook shows the same numbers every time it runs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import os
import random
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pandas as pd

from workbench.config import Settings, load_settings
from workbench.errors import WorkbenchError
from workbench.routing._transformers import trained_routers

if TYPE_CHECKING:
    from workbench.answers import AnswerResult, CheckContext
    from workbench.corpus._questions import Question
    from workbench.gates import QuoteSource
    from workbench.routing import Router, ScriptedRouter, TaskItem
    from workbench.studies import Comparison
    from workbench.studies._compare import SideSpec

CI_ENV = "WORKBENCH_CI"
"""The environment variable that switches a notebook to its small CI size (``1``)."""

SEED = 20260101
"""The seed of every sample a notebook draws (the negative control's default seed too)."""

PLOTLY_RENDERER = "plotly_mimetype"
"""Plotly's renderer in notebooks: other renderers store HTML with random element ids."""

T = TypeVar("T")


class LabError(WorkbenchError):
    """A notebook asked the lab for something the settings or the files cannot give."""


def ci_requested(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``WORKBENCH_CI`` asks for the small CI size (``1``, ``true`` or ``yes``)."""
    value = (environ if environ is not None else os.environ).get(CI_ENV, "")
    return value.strip().lower() in {"1", "true", "yes"}


@dataclass
class Lab:
    """What ``setup()`` hands a notebook: the settings, the CI flag, and lazily loaded helpers."""

    settings: Settings
    """The resolved settings (``workbench.toml`` unless another file was given)."""
    ci: bool = False
    """True under ``WORKBENCH_CI=1``: slow cells run on a seeded sample."""
    seed: int = SEED
    """The seed of every sample drawn here."""
    questions: tuple[Path, ...] | None = None
    """Labelled question files of one's own; ``None`` means the bundled sets."""
    _scratch: list[tempfile.TemporaryDirectory[str]] = field(default_factory=list, init=False,
                                                             repr=False)

    def describe(self) -> str:
        """One line: which settings file, encoder, rerank mode and gate order, and the CI size."""
        source = self.settings.source.name if self.settings.source else "built-in defaults"
        line = (f"settings: {source} (embedder {self.settings.embedder.name}, rerank "
                f"{self.settings.reranker.mode}, gates {' > '.join(self.settings.gates.order)}); "
                f"CI size {'on' if self.ci else 'off'}, seed {self.seed}")
        if self.questions is not None:
            line += (f"\ncorpus {self.settings.paths.corpus}, index {self.settings.paths.index}, "
                     f"questions {', '.join(f.name for f in self.questions)}")
        return line

    def size(self, full: int, ci: int) -> int:
        """``full`` normally, ``ci`` under the CI flag (never more than ``full``)."""
        return min(full, ci) if self.ci else full

    def pick(self, items: Sequence[T], n: int) -> list[T]:
        """A seeded sample of ``n`` items in their original order (all of them if ``n`` is larger)."""
        if n >= len(items):
            return list(items)
        chosen = sorted(random.Random(self.seed).sample(range(len(items)), max(n, 0)))
        return [items[i] for i in chosen]

    def sample(self, items: Sequence[T], ci: int) -> list[T]:
        """Every item normally; under the CI flag a seeded sample of ``ci`` of them, in order."""
        return self.pick(items, ci) if self.ci else list(items)

    # --- the quote source and the checker ------------------------------------------------------

    @cached_property
    def quote_source(self) -> QuoteSource:
        """Source two over the course index, loaded once (index, embedder, retriever)."""
        from workbench.gates import QuoteSource

        return QuoteSource(self.settings)

    @cached_property
    def context(self) -> CheckContext:
        """What the invariant checker resolves against: the index, the files now, specs, library."""
        from workbench.answers import CheckContext

        source = self.quote_source
        return CheckContext.for_index(source.index, source.corpus, self.settings)

    @cached_property
    def router(self) -> Router:
        """The router ``ask`` uses by default: the best by measurement in the model catalog."""
        from workbench.answers import resolve_router

        return resolve_router(None, self.settings)

    def ask(self, question: str, router: Router | str | None = None, *,
            source: str | None = None, **options: Any) -> AnswerResult:
        """:func:`workbench.answers.ask` (the path ``workbench ask`` takes) with the lab's source.

        The lab's quote source and checker context are reused across calls.

        Args:
            question: The question.
            router: A router or its name; the best router by the catalog's measurement (the
                same default as ``workbench ask``) if omitted.
            source: ``quote``, ``utility`` or ``spec`` to hold the router to one source.
            **options: Passed on to ``ask`` (``allow_mode_b``, ``lang``, ...).
        """
        from workbench.answers import ask

        return ask(question, self.settings, router=router if router is not None else self.router,
                   source=source, quote_source=self.quote_source, context=self.context, **options)

    # --- gate verdicts ---------------------------------------------------------------------------

    def gate_run(self, *, cache: bool = True) -> pd.DataFrame:
        """Every labelled question through retrieval and the gates, one row each.

        The bundled sets, or the lab's own question files (``setup(questions=...)``). Evaluated
        once per configuration and cached under ``.cache/gates/`` (the first time takes about a
        minute on 2 cores); later calls read the cached rows back, as long as nothing they were
        computed from changed: the key covers the settings, the index, the corpus, the question
        files and all the code the evaluation runs, a registered stage's own module and the
        project modules it imports included.

        Args:
            cache: ``False`` computes the rows again whatever the cache holds (the new rows
                replace the cached ones).

        Returns:
            The rows; ``attrs["cached"]`` says whether they were read from the cache, and
            ``attrs["uncached_reason"]`` why the cache was passed by (``cache=False``, or a
            stage whose code has no source file, such as one defined in a notebook cell, which
            is never cached and is named in a warning); it is empty otherwise.
        """
        from workbench.studies import evaluate_sets_cached

        rows, cached = evaluate_sets_cached(self.settings, questions=self.questions, cache=cache)
        rows.attrs["cached"] = cached
        rows.attrs.setdefault("uncached_reason", "")
        return rows

    def labelled_questions(self, split: str | None = None) -> list[Question]:
        """The labelled questions the gate verdicts are evaluated on, optionally one split.

        The lab's own question files, else the bundled sets; gold spans resolved in the lab's
        corpus.
        """
        from workbench.corpus import Corpus
        from workbench.corpus._questions import load_question_files
        from workbench.studies import question_files

        files = question_files(self.settings, questions=self.questions)
        return load_question_files(files, Corpus(self.settings.paths.corpus), split=split)

    def compare(self, baseline: SideSpec, variant: SideSpec, **options: Any) -> Comparison:
        """A variant against a baseline on the lab's questions (:func:`workbench.studies.compare`).

        Each side is settings (a ``Settings``, a settings file, an overlay of keys such as
        ``{"gates.relevance_rules": [...]}``, ``"current"`` for the lab's own), the name of a
        registered gate or relevance rule (switched on or off in the baseline's copy), or a
        router (a registered name or spec, or a router object). Settings sides are laid over
        the lab's settings and evaluated on the lab's question files (else the bundled sets).

        Args:
            baseline: The baseline.
            variant: The variant, laid over the baseline.
            **options: Passed on (``split``, ``cache``, ``write``, ``sets``, ``questions``).

        Returns:
            The paired table, McNemar's test, the flipped questions with each side's trace, and
            the run record written.
        """
        from workbench.studies import compare

        options.setdefault("questions", self.questions)
        return compare(baseline, variant, settings=self.settings, **options)

    def with_data(self, *, corpus: str | os.PathLike[str] | None = None,
                  index: bool | str | os.PathLike[str] = True,
                  questions: Sequence[str | os.PathLike[str]] | None = None) -> Lab:
        """The same lab (settings, CI size, seed) on another corpus, index or question files.

        The arguments mean what they mean for :func:`setup`, which calls this; a notebook that
        lets a reader pick a folder calls it again with the choice. It prints what it uses.

        Raises:
            LabError: ``corpus`` is not a folder, or a question file does not exist.
            FragmentIndexError: An ``index`` folder given without ``corpus`` holds no sound index.
        """
        settings = _with_data(self.settings, corpus, index)
        files = None
        if questions is not None:
            files = tuple(Path(q).resolve() for q in questions)
            missing = [str(f) for f in files if not f.is_file()]
            if missing or not files:
                raise LabError("question file(s) not found: "
                               f"{', '.join(missing) or '(none given)'}")
        lab = Lab(settings=settings, ci=self.ci, seed=self.seed, questions=files)
        print(lab.describe())
        if index is True:
            from workbench.index import ensure_index

            print(ensure_index(settings))
        elif index is not False:
            from workbench.index import read_manifest

            counts = read_manifest(settings.paths.index)["counts"]
            print(f"index as given: {counts['fragments']} fragments from {counts['files']} "
                  f"files ({settings.paths.index})")
        return lab

    # --- router task sets ------------------------------------------------------------------------

    def tasks(self, split: str | None = None) -> list[TaskItem]:
        """The router task set and the red-team set (``[paths].questions``), optionally one split."""
        from workbench.routing import DEFAULT_TASKSETS, load_tasks

        items = [item for name in DEFAULT_TASKSETS
                 for item in load_tasks(Path(self.settings.paths.questions) / name)]
        if split is not None:
            items = [item for item in items if item.split == split]
            if not items:
                raise LabError(f"no router task has the split {split!r}")
        return items

    def labelled_router(self, items: Sequence[TaskItem] | None = None) -> ScriptedRouter:
        """A router that gives each task question its labelled decision (a perfect router).

        It shows what a source does with a correct decision, apart from how well any real router
        chooses. Items labelled as refusals are left out: an unscripted question is refused by
        the scripted router itself (``ROUTER_REFUSED``).
        """
        from workbench.routing import scripted_router

        chosen = self.tasks() if items is None else items
        return scripted_router({item.question: dict(item.gold) for item in chosen
                                if item.gold.get("source") != "refuse"})

    def trained_routers(self) -> dict[str, Path]:
        """Routers trained here that finished training (see :func:`trained_routers`)."""
        return trained_routers(self.settings.paths.models)

    # --- the glossary --------------------------------------------------------------------------

    def glossary(self, *terms: str) -> Glossary:
        """The glossary's rows for ``terms`` (all rows if none): the report's glossary, one source.

        Args:
            *terms: Keys matched, case-insensitively, within the terms
                (see :func:`workbench.studies.glossary`).
        """
        from workbench.studies import glossary

        table = glossary(*terms)
        return Glossary(tuple(zip(table.index, table["meaning"], strict=True)))

    # --- scratch copies ----------------------------------------------------------------------------

    def scratch_corpus(self) -> Path:
        """A fresh copy of the course corpus in a temporary folder, removed when the lab goes.

        Edit the copy, never the real corpus: the index, the gate verdicts and the README's
        figures all rest on the files as shipped.
        """
        folder = tempfile.TemporaryDirectory(prefix="workbench-corpus-")
        self._scratch.append(folder)
        target = Path(folder.name) / Path(self.settings.paths.corpus).name
        shutil.copytree(self.settings.paths.corpus, target)
        return target


@dataclass(frozen=True)
class Glossary:
    """Terms and their meanings, shown whole (a table would cut the meanings short)."""

    rows: tuple[tuple[str, str], ...]
    """(term, meaning) pairs, in the glossary's order."""

    def __repr__(self) -> str:
        return "\n".join(f"{term}: {meaning}" for term, meaning in self.rows)

    def _repr_html_(self) -> str:
        items = "".join(f"<dt><b>{html.escape(term)}</b></dt><dd>{html.escape(meaning)}</dd>"
                        for term, meaning in self.rows)
        return f'<dl class="wb-glossary">{items}</dl>'


WRAPPED_STYLE = ("white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; "
                 "font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px")
"""How a monospace block wraps: lines break at the page's edge, long tokens (digests) too."""


def wrapped(text: str) -> str:
    """``text`` as a monospace HTML block whose long lines wrap instead of running off the page.

    Quotes, evidence JSON and refusal explanations are single long lines; a plain ``<pre>``
    keeps them on one line. In marimo: ``mo.Html(wrapped(text))``.
    """
    return f'<pre class="wb-wrapped" style="{WRAPPED_STYLE}">{html.escape(text)}</pre>'


def project_questions(settings: Settings) -> tuple[Path, ...]:
    """The labelled question files of the project the settings come from (``[paths].questions``).

    The bundled sets where that folder holds them all (the course), else every ``*.jsonl`` file
    directly in it, by name: a project of one's own keeps its question files there.

    Raises:
        LabError: The folder holds no question file.
    """
    from workbench.corpus._questions import set_files

    folder = Path(settings.paths.questions)
    bundled = set_files(folder)
    if all(f.is_file() for f in bundled):
        return tuple(f.resolve() for f in bundled)
    files = tuple(sorted(f.resolve() for f in folder.glob("*.jsonl") if f.is_file()))
    if not files:
        where = settings.source or "the built-in defaults"
        raise LabError(f"no question file (*.jsonl) in {folder}, the [paths] questions folder of "
                       f"{where}: put your labelled questions there (format: "
                       "corpus/questions/README.md) or name them in the questions field")
    return files


def error_callout(error: BaseException) -> str:
    """A typed error as a red box of HTML, so a notebook shows it in the page, not in a log."""
    return ('<div class="wb-error" role="alert" style="border-left: 4px solid #c53030; '
            'background: #fff5f5; padding: 8px 12px; margin: 6px 0"><b>'
            f"{html.escape(type(error).__name__)}</b>: {html.escape(str(error))}</div>")


def _fix_seeds(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)


def _display_defaults() -> None:
    """Stable, readable tables and figures in saved outputs."""
    os.environ.setdefault("PLOTLY_RENDERER", PLOTLY_RENDERER)
    # model loading bars would land in saved outputs as widgets; read before transformers loads
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    import plotly.io as pio

    # plotly reads the variable only when it is first imported; set the default as well
    pio.renderers.default = os.environ["PLOTLY_RENDERER"]
    pd.set_option("display.width", 110)
    pd.set_option("display.max_columns", 20)
    pd.set_option("display.max_colwidth", 80)


def _own_index_folder(settings: Settings, corpus: Path) -> Path:
    """Where the index of a corpus given to :func:`setup` without an index lives (the cache)."""
    tag = hashlib.sha256(str(corpus).encode("utf-8")).hexdigest()[:8]
    return Path(settings.paths.cache) / "index" / f"{corpus.name}-{tag}"


def _with_data(settings: Settings, corpus: str | os.PathLike[str] | None,
               index: bool | str | os.PathLike[str]) -> Settings:
    """``settings`` with the corpus and index a notebook asked for (see :func:`setup`)."""
    from workbench.index import index_corpus_root

    paths = settings.paths
    if corpus is not None:
        folder = Path(corpus).resolve()
        if not folder.is_dir():
            raise LabError(f"corpus {folder} is not a folder")
        paths = dataclasses.replace(paths, corpus=folder)
    if not isinstance(index, bool):
        paths = dataclasses.replace(paths, index=Path(index).resolve())
        if corpus is None:
            paths = dataclasses.replace(paths, corpus=index_corpus_root(paths.index))
    elif corpus is not None:
        paths = dataclasses.replace(paths, index=_own_index_folder(settings, paths.corpus))
    return dataclasses.replace(settings, paths=paths)


def setup(config: str | os.PathLike[str] | None = None, *, ci: bool | None = None,
          index: bool | str | os.PathLike[str] = True,
          corpus: str | os.PathLike[str] | None = None,
          questions: Sequence[str | os.PathLike[str]] | None = None) -> Lab:
    """Prepare a notebook: settings, CI flag, seeds, display defaults, and the course index.

    Args:
        config: A settings file (default: ``$WORKBENCH_CONFIG`` or the nearest ``workbench.toml``).
        ci: Force the CI size on or off (default: read ``WORKBENCH_CI``).
        index: ``True``: make sure the index of the corpus exists and is current. This is
            ``workbench demo``'s index step: it prints one line, and builds (minutes, the first
            time) only when a file or a setting changed. ``False``: leave it as it is. A folder:
            use the index there as it is (never rebuilt); without ``corpus``, the corpus is the
            one it was built from (its manifest's ``corpus_root``).
        corpus: Another corpus folder in place of ``[paths].corpus``. Without an index folder,
            its index lives in ``[paths].cache``/index and ``index=True`` builds it there.
        questions: Labelled question files of one's own (``corpus/questions/README.md``) in
            place of the bundled sets: the gate verdicts (:meth:`Lab.gate_run`) and
            :meth:`Lab.labelled_questions` use them.

    Returns:
        The :class:`Lab` the notebook's cells call into.

    Raises:
        LabError: ``corpus`` is not a folder, or a question file does not exist.
        FragmentIndexError: An ``index`` folder given without ``corpus`` holds no sound index.
    """
    lab = Lab(settings=load_settings(config), ci=ci_requested() if ci is None else ci)
    _fix_seeds(lab.seed)
    _display_defaults()
    return lab.with_data(corpus=corpus, index=index, questions=questions)


__all__ = ["CI_ENV", "PLOTLY_RENDERER", "SEED", "WRAPPED_STYLE", "Glossary", "Lab", "LabError",
           "ci_requested", "error_callout", "project_questions", "setup", "trained_routers",
           "wrapped"]
