"""Content digests that several floors share: files, folders, a corpus listing, the package's code.

Every cache in the workbench is keyed by what it was computed from, so a changed input never
reuses a stale result. The code digest is computed, not listed: it covers the modules that a
given entry point imports, followed through the package's own imports (at any depth, including
imports inside functions), so editing a module that a cached evaluation ran through always
invalidates it, and editing one it never touched keeps it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

PACKAGE = "workbench"
PACKAGE_ROOT = Path(__file__).resolve().parent
"""The folder of the ``workbench`` package whose source the code digest reads."""


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def corpus_digest(file_digests: dict[str, str]) -> str:
    """One digest over the sorted ``path sha256`` lines of every indexed file."""
    lines = "".join(f"{p}\t{d}\n" for p, d in sorted(file_digests.items()))
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


def folder_digest(folder: str | os.PathLike[str]) -> str:
    """One digest over the ``relative path, sha256`` lines of every file under ``folder``.

    Used for model folders (a reranker, a trained router): any changed, added or removed file
    changes it.
    """
    folder = Path(folder)
    digest = hashlib.sha256()
    for item in sorted(folder.rglob("*")):
        if item.is_file():
            digest.update(f"{item.relative_to(folder).as_posix()}\t{sha256_file(item)}\n".encode())
    return digest.hexdigest()


def _module_file(module: str) -> Path | None:
    """The source file of a ``workbench`` module, or ``None`` when there is none."""
    parts = module.split(".")[1:]
    base = PACKAGE_ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports_of(module: str, path: Path) -> set[str]:
    """The ``workbench`` modules that ``module``'s source names in an import, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{node.module}" if node.module else anchor
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {name for name in found if name == PACKAGE or name.startswith(PACKAGE + ".")}


@functools.cache
def _closure(roots: tuple[str, ...]) -> tuple[str, ...]:
    seen: set[str] = set()
    followed: set[str] = set()
    stack = [(root, True) for root in roots]
    while stack:
        module, follow = stack.pop()
        if module in followed or (module in seen and not follow):
            continue
        path = _module_file(module)
        if path is None:
            continue
        seen.add(module)
        # A submodule import runs its parent packages' __init__ too: their own source counts,
        # but what a parent re-exports from its other submodules does not reach this code, so
        # a parent reached only that way is not followed (editing a sibling study keeps the
        # cached verdicts of this one). A package imported by name is followed like any module.
        parents = [module.rsplit(".", n)[0] for n in range(1, module.count(".") + 1)]
        stack.extend((p, False) for p in parents if p not in seen)
        if follow:
            followed.add(module)
            stack.extend((m, True) for m in _imports_of(module, path) if m not in followed)
    return tuple(sorted(seen))


def code_modules(roots: Iterable[str]) -> tuple[str, ...]:
    """Every ``workbench`` module that ``roots`` import, directly or through others, with them."""
    return _closure(tuple(sorted(set(roots))))


def code_digest(roots: Iterable[str]) -> str:
    """A digest of the source of ``roots`` and of every package module they import.

    Args:
        roots: Dotted module names inside the package, e.g. ``workbench.studies._gates``.

    Returns:
        The sha256 over the path and bytes of every module in :func:`code_modules`.
    """
    digest = hashlib.sha256()
    for module in code_modules(roots):
        path = _module_file(module)
        assert path is not None  # _closure keeps only modules with a file
        digest.update(path.relative_to(PACKAGE_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


__all__ = [
    "PACKAGE_ROOT",
    "code_digest",
    "code_modules",
    "corpus_digest",
    "folder_digest",
    "sha256_file",
]
