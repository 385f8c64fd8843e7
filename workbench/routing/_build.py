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


class RouterSpecError(WorkbenchError, ValueError):
    """A router name that the registry cannot build."""


def build_router(spec: str, items: Sequence[TaskItem] = (), models: Path | None = None) -> Any:
    """Build a router from ``NAME`` or ``NAME:PATH`` (e.g. ``rule``, ``replay:runs/qwen.jsonl``).

    A bare name that no router is registered under but that names a finished router folder of
    ``models`` (the project's ``models/`` by default; see :func:`trained_routers`), such as
    ``base``, is read as ``transformers:<that folder>``.
    """
    name, _, value = spec.partition(":")
    if not value and name not in names("router"):
        trained = trained_routers(models if models is not None else project_root() / "models")
        if name in trained:
            name, value = "transformers", str(trained[name])
    params: dict[str, Any] = {}
    if value:
        params["path"] = value
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
