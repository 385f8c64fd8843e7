"""One registry for every pluggable stage: gates, relevance rules, routers, utilities, invariants.

A stage is registered under a name by a decorator (``@gate("gate0")``). The decorated object is
usually a *factory*: calling :func:`build` with the name and keyword parameters calls the factory
and remembers which name and parameters produced the result, so a run record can list the
resolved stage and a later session can rebuild it exactly (:func:`registry_info`).

Utilities register the pure function itself (there is nothing to build) together with metadata
such as their schema; :func:`lookup` returns what was registered.

Names register when their module is imported, and this module sits on the lowest floor, so it
cannot import them itself. :data:`PROVIDERS` and :data:`NAME_TABLES` say, as strings, which
modules declare each kind's names; :func:`load` and :func:`table_names` import them when a
caller (the settings check) needs the full list, never at import time.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from workbench.digests import CodeKey, code_key

Kind = Literal["gate", "relevance_rule", "router", "utility", "invariant"]
KINDS: tuple[Kind, ...] = ("gate", "relevance_rule", "router", "utility", "invariant")

T = TypeVar("T")


class UnknownNameError(KeyError):
    """A name was looked up that no stage of that kind registered."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = known
        super().__init__(f"unknown {kind} {name!r}; registered {kind}s: {', '.join(known) or '(none)'}")

    def __str__(self) -> str:  # KeyError quotes its argument; keep the sentence readable
        return str(self.args[0])


class DuplicateNameError(ValueError):
    """Two different objects tried to register the same name of one kind."""


@dataclass(frozen=True)
class RegistryEntry:
    """What the registry holds for one name."""

    kind: str
    """The stage kind (gate, relevance_rule, router, utility, invariant)."""
    name: str
    """The registered name, unique within the kind."""
    obj: Any
    """The factory (or, for utilities, the function itself)."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """Free-form facts recorded at registration (a description, a schema, a code)."""


@dataclass(frozen=True)
class RegistryInfo:
    """How a built stage was made: enough to rebuild it from a run record."""

    kind: str
    """The stage kind."""
    name: str
    """The registered name."""
    params: Mapping[str, Any]
    """The keyword parameters the factory was called with."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form for run manifests."""
        return {"kind": self.kind, "name": self.name, "params": dict(self.params)}


PROVIDERS: Mapping[Kind, tuple[str, ...]] = {
    "gate": ("workbench.gates._builtin",),
    "relevance_rule": ("workbench.relevance._rules", "workbench.relevance._circumstance"),
    "router": ("workbench.routing",),
    "utility": ("workbench.utilities",),
    "invariant": ("workbench.answers._invariants",),
}
"""The modules whose import registers the built-in names of each kind."""

NAME_TABLES: Mapping[str, tuple[str, str]] = {
    "fusion": ("workbench.retrieval._fusion", "FUSIONS"),
    "rerank mode": ("workbench.retrieval._hybrid", "RERANK_MODES"),
    "embedder": ("workbench.retrieval._embedders", "EMBEDDERS"),
    "term analyzer": ("workbench.text._terms", "TERM_ANALYZERS"),
    "gate 0 coverage": ("workbench.gates._builtin", "GATE0_COVERAGES"),
    "quote extent": ("workbench.gates._builtin", "QUOTE_EXTENTS"),
}
"""Variants kept in a name→function table rather than registered: table → (module, attribute)."""

_ENTRIES: dict[str, dict[str, RegistryEntry]] = {kind: {} for kind in KINDS}
# Built objects may be plain functions or frozen instances; a side table keeps their provenance
# without requiring them to accept new attributes.
_BUILT: weakref.WeakKeyDictionary[Any, RegistryInfo] = weakref.WeakKeyDictionary()
_BUILT_BY_ID: dict[int, RegistryInfo] = {}


def _check_kind(kind: str) -> None:
    if kind not in _ENTRIES:
        raise UnknownNameError("stage kind", kind, list(KINDS))


def register(kind: Kind, name: str, obj: T, **metadata: Any) -> T:
    """Register ``obj`` under ``name``; re-registering the very same object is a no-op."""
    _check_kind(kind)
    entries = _ENTRIES[kind]
    existing = entries.get(name)
    if existing is not None and existing.obj is not obj:
        same_origin = getattr(existing.obj, "__qualname__", None) == getattr(
            obj, "__qualname__", None
        ) and getattr(existing.obj, "__module__", None) == getattr(obj, "__module__", None)
        if not same_origin:  # a module reloaded by a notebook may re-register its own names
            raise DuplicateNameError(f"{kind} {name!r} is already registered by {existing.obj!r}")
    entries[name] = RegistryEntry(kind=kind, name=name, obj=obj, metadata=dict(metadata))
    module = getattr(obj, "__module__", None) or ""
    if module != "workbench" and not module.startswith("workbench."):
        # Keying the stage's code now notes its project files as they are while its module
        # runs, so a file edited later without a reload is seen (see ``stages_code_key``).
        code_key(stages={_label(kind, name): obj})
    return obj


def _label(kind: str, name: str) -> str:
    return f"{kind.replace('_', ' ')} {name!r}"


def _decorator(kind: Kind) -> Callable[..., Callable[[T], T]]:
    def decorator(name: str, **metadata: Any) -> Callable[[T], T]:
        def wrap(obj: T) -> T:
            return register(kind, name, obj, **metadata)

        return wrap

    decorator.__name__ = kind
    decorator.__doc__ = f"Register a {kind.replace('_', ' ')} under ``name`` (a decorator)."
    return decorator


gate = _decorator("gate")
relevance_rule = _decorator("relevance_rule")
router = _decorator("router")
utility = _decorator("utility")
invariant = _decorator("invariant")


def lookup(kind: Kind, name: str) -> RegistryEntry:
    """Return the entry registered under ``name``; the error lists every known name."""
    _check_kind(kind)
    try:
        return _ENTRIES[kind][name]
    except KeyError:
        raise UnknownNameError(kind, name, sorted(_ENTRIES[kind])) from None


def names(kind: Kind) -> list[str]:
    """Every registered name of ``kind``, sorted."""
    _check_kind(kind)
    return sorted(_ENTRIES[kind])


def entries(kind: Kind) -> Iterator[RegistryEntry]:
    """Every entry of ``kind`` in name order."""
    for name in names(kind):
        yield _ENTRIES[kind][name]


def registered(kind: Kind) -> list[RegistryEntry]:
    """Every entry of ``kind`` in the order it was registered.

    The order of registration is the order of the providers' source: the built-in gates register
    in their default firing order, the invariants in their checking order, and a name registered
    later (by a test or a notebook) comes after them.
    """
    _check_kind(kind)
    return list(_ENTRIES[kind].values())


def metadata_of(kind: Kind, key: str) -> dict[str, Any]:
    """Name → the ``key`` metadata of every entry of ``kind`` that declares it, in registration order.

    Read at call time, so a name registered after the providers were imported is included: the
    gate codes are ``metadata_of("gate", "code")``, the rule kinds
    ``metadata_of("relevance_rule", "applies_to")``.
    """
    return {e.name: e.metadata[key] for e in registered(kind) if key in e.metadata}


def unregister(kind: Kind, name: str) -> RegistryEntry:
    """Remove the entry registered under ``name`` and return it (tests and notebooks undo with it).

    Raises:
        UnknownNameError: No stage of ``kind`` is registered under ``name``.
    """
    entry = lookup(kind, name)
    del _ENTRIES[kind][name]
    return entry


@contextlib.contextmanager
def restoring() -> Iterator[None]:
    """Put every kind's entries back as they were when the block began, whatever it registered."""
    saved = {kind: dict(held) for kind, held in _ENTRIES.items()}
    try:
        yield
    finally:
        for kind, held in saved.items():
            _ENTRIES[kind].clear()
            _ENTRIES[kind].update(held)


def load(kind: Kind) -> None:
    """Import the modules that register the built-in names of ``kind`` (once; cheap after)."""
    _check_kind(kind)
    for module in PROVIDERS[kind]:
        importlib.import_module(module)


def stages_code_key(kinds: Iterable[Kind]) -> CodeKey:
    """The code key of every stage of ``kinds`` registered now (built-in ones loaded first).

    Covers each stage's name, module and metadata, and all the code it runs
    (:func:`workbench.digests.code_key`): for a stage of one's own, its module's whole file and
    every project module that file imports. A stage whose code cannot be read (defined in a
    notebook cell or at a prompt) makes the key uncacheable, and its reason names the stage.
    """
    stages: dict[str, Any] = {}
    described = hashlib.sha256()
    for kind in kinds:
        load(kind)  # the built-in ones count whatever the caller happened to import
        for entry in registered(kind):
            label = _label(kind, entry.name)
            stages[label] = entry.obj
            module = getattr(entry.obj, "__module__", "") or ""
            described.update(f"{label}:{module}:{entry.metadata!r};".encode())
    key = code_key(stages=stages)
    if key.digest is None:
        return key
    return CodeKey(hashlib.sha256(f"{described.hexdigest()}:{key.digest}".encode()).hexdigest())


def table_names(table: str) -> list[str]:
    """The keys of a name→function table of :data:`NAME_TABLES`, in the table's own order."""
    if table not in NAME_TABLES:
        raise UnknownNameError("name table", table, list(NAME_TABLES))
    module, attribute = NAME_TABLES[table]
    return list(getattr(importlib.import_module(module), attribute))


def build(kind: Kind, name: str, **params: Any) -> Any:
    """Call the factory registered under ``name`` with ``params`` and record how it was built."""
    entry = lookup(kind, name)
    obj = entry.obj(**params)
    info = RegistryInfo(kind=kind, name=name, params=dict(params))
    try:
        _BUILT[obj] = info
    except TypeError:  # not weak-referenceable (e.g. a tuple); fall back to identity
        _BUILT_BY_ID[id(obj)] = info
    return obj


def registry_info(obj: Any) -> RegistryInfo | None:
    """How ``obj`` was built by :func:`build`, or ``None`` if it was not."""
    try:
        info = _BUILT.get(obj)
    except TypeError:
        info = None
    return info if info is not None else _BUILT_BY_ID.get(id(obj))


__all__ = [
    "KINDS",
    "NAME_TABLES",
    "PROVIDERS",
    "DuplicateNameError",
    "RegistryEntry",
    "RegistryInfo",
    "UnknownNameError",
    "build",
    "entries",
    "gate",
    "invariant",
    "load",
    "lookup",
    "metadata_of",
    "names",
    "register",
    "registered",
    "registry_info",
    "relevance_rule",
    "restoring",
    "router",
    "stages_code_key",
    "table_names",
    "unregister",
    "utility",
]
