"""Building a router from its name: a registered backend, ``NAME:PATH``, or a trained folder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.config import project_root
from workbench.errors import WorkbenchError
from workbench.registry import UnknownNameError, build, names
from workbench.routing import _replay  # noqa: F401  (registers the replay router)
from workbench.routing._score import TaskItem
from workbench.routing._transformers import trained_routers

CONSTRAINED_SUFFIX = "+constrained"
"""Appended to a generative router's name (``base+constrained``, ``transformers:DIR+constrained``)
to decode under the copy constraint (:class:`~workbench.routing._constrain.CopyConstraint`)."""

GENERATIVE_ROUTERS: frozenset[str] = frozenset({"transformers"})
"""Registered routers that generate their decision text, so that the copy constraint applies."""


class RouterSpecError(WorkbenchError, ValueError):
    """A router name that the registry cannot build."""


def build_router(spec: str, items: Sequence[TaskItem] = (), models: Path | None = None) -> Any:
    """Build a router from ``NAME`` or ``NAME:PATH`` (e.g. ``rule``, ``replay:runs/qwen.jsonl``).

    A bare name that no router is registered under but that names a finished router folder of
    ``models`` (the project's ``models/`` by default; see :func:`trained_routers`), such as
    ``base``, is read as ``transformers:<that folder>``. A generative router's name may end in
    :data:`CONSTRAINED_SUFFIX` (``base+constrained``): it then decodes under the copy constraint.
    """
    constrained = spec.endswith(CONSTRAINED_SUFFIX)
    name, _, value = spec.removesuffix(CONSTRAINED_SUFFIX).partition(":")
    if not value and name not in names("router"):
        trained = trained_routers(models if models is not None else project_root() / "models")
        if name in trained:
            name, value = "transformers", str(trained[name])
    params: dict[str, Any] = {}
    if value:
        params["path"] = value
    if constrained:
        if name not in GENERATIVE_ROUTERS:
            raise RouterSpecError(f"router {spec!r}: {CONSTRAINED_SUFFIX} applies only to a generative "
                                  f"router ({', '.join(sorted(GENERATIVE_ROUTERS))}:DIR or a trained "
                                  "router's name)")
        params["constrained"] = True
    if name == "replay":
        if not value:
            raise RouterSpecError("the replay router needs a file: replay:PATH")
        params["items"] = list(items)
    try:
        return build("router", name, **params)
    except UnknownNameError as exc:
        raise RouterSpecError(str(exc)) from None
    except TypeError as exc:
        raise RouterSpecError(f"router {spec!r}: {exc}") from None
