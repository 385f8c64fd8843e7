"""The span router's registered variants: as shipped, and binding through the learned binder.

``span`` reads its weights folder (``models/routers/span`` by default); ``span-binder`` and
``span-binder-noref`` bind numbers, dates and identifiers through the learned binder
(:mod:`._binder`), whose reference binding, a feature of ``span-binder`` only, is the span router's
reference router's (:attr:`~._span.SpanRouterConfig.reference`); ``span-binder-noref-doubt`` calls
no utility whose class probability is under its calibrated doubt (:mod:`._doubt`).
"""

from __future__ import annotations

from pathlib import Path

from workbench.config import project_root
from workbench.registry import router
from workbench.routing._binder import load_binder
from workbench.routing._doubt import DOUBTED_ROUTER, UtilityDoubtError, load_utility_doubt
from workbench.routing._span import SpanRouter, load_span_router


@router("span")
def span_router(path: str | None = None) -> SpanRouter:
    """Build the span router from its weights folder (``models/routers/span`` by default)."""
    return load_span_router(path)


def with_learned_binder(span: SpanRouter, binder_path: str | Path | None = None) -> SpanRouter:
    """``span`` binding through the learned binder, whose reference binding is ``span``'s reference's."""
    reference = span.reference
    span.binder = load_binder(binder_path, lambda schema, question: reference.bind(schema.id, question))
    return span


def _span_and_binder(path: str | None, binder: str | Path | None) -> tuple[str | None, str | Path | None]:
    """``NAME:FILE.json`` names a binder weights file; any other ``NAME:PATH`` a span router folder."""
    if path is not None and path.endswith(".json"):
        return None, path
    return path, binder


@router("span-binder")
def span_binder_router(path: str | None = None, binder: str | None = None) -> SpanRouter:
    """The span router binding through the learned binder (``models/binder/binder.json``).

    ``span-binder:FILE.json`` binds through the binder weights in that file instead.
    """
    folder, weights = _span_and_binder(path, binder)
    return with_learned_binder(load_span_router(folder), weights)


@router("span-binder-noref")
def span_binder_noref_router(path: str | None = None, binder: str | None = None) -> SpanRouter:
    """The span router binding through the learned binder trained without the rule binding's choice.

    ``span-binder-noref:FILE.json`` binds through the binder weights in that file instead.
    """
    folder, weights = _span_and_binder(path, binder)
    return with_learned_binder(load_span_router(folder),
                               weights or project_root() / "models/binder/binder-noref.json")


def with_utility_doubt(span: SpanRouter, models: str | Path | None = None) -> SpanRouter:
    """``span`` calling no utility under the doubt recorded in ``models`` (the project's by default).

    Raises:
        UtilityDoubtError: No calibration record, or one calibrated on another router than
            ``span-binder-noref``, whose calls it was chosen on.
    """
    doubt = load_utility_doubt(models or project_root() / "models")
    if doubt.router != DOUBTED_ROUTER:
        raise UtilityDoubtError(f"the utility doubt was calibrated on {doubt.router}, not {DOUBTED_ROUTER}")
    span.utility_doubt = doubt.threshold
    return span


@router("span-binder-noref-doubt")
def span_binder_noref_doubt_router(path: str | None = None, binder: str | None = None) -> SpanRouter:
    """``span-binder-noref`` calling no utility under its calibrated doubt (:func:`with_utility_doubt`).

    The doubt is read from ``models/binder/utility-doubt.json`` (``workbench router calibrate-doubt``).
    """
    return with_utility_doubt(span_binder_noref_router(path, binder))
