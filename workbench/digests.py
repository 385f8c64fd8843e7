"""Content digests that several floors share: files, folders, a corpus listing, the code a run runs.

Every cache in the workbench is keyed by what it was computed from, so a changed input never
reuses a stale result. The code digest is computed, not listed: it covers the modules that a
given entry point imports, followed through the package's own imports (at any depth, including
imports inside functions), so editing a module that a cached evaluation ran through always
invalidates it, and editing one it never touched keeps it.

Code from outside the package (a stage registered from a researcher's own module, a plugin
module named in the settings) is covered by :func:`code_key`: the whole file of the module that
defines it and every module of the researcher's project that file imports, at any depth. A
project module is any module whose file lies outside the standard library, the installed
libraries (``site-packages``) and this package. Where some code has no source to read (a stage
defined in a notebook cell or at a prompt, a compiled extension of the project, a file edited
since this process loaded it), the key says so and holds no digest: the caller does not cache.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.machinery
import importlib.util
import inspect
import os
import site
import sys
import sysconfig
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

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


def package_data(modules: Iterable[str]) -> tuple[Path, ...]:
    """The data files that travel with ``modules``' packages: what their code reads as tables.

    For each module's package folder, every file that is not Python source, in that folder and
    in its subfolders that are not packages themselves (``routing/data/patterns.yaml``,
    ``routing/synonyms.yaml``, ``text/stopwords.json``), sorted by path.
    """
    folders = set()
    for module in modules:
        path = _module_file(module)
        if path is not None:
            folders.add(path.parent)
    found: set[Path] = set()
    for folder in folders:
        pending = [folder]
        while pending:
            current = pending.pop()
            for entry in current.iterdir():
                if entry.is_dir():
                    if entry.name != "__pycache__" and not (entry / "__init__.py").exists():
                        pending.append(entry)
                elif entry.suffix not in {".py", ".pyc", ".pyi"}:
                    found.add(entry)
    return tuple(sorted(found))


def code_digest(roots: Iterable[str]) -> str:
    """A digest of the source of ``roots``, of every package module they import, and their data.

    Args:
        roots: Dotted module names inside the package, e.g. ``workbench.studies._gates``.

    Returns:
        The sha256 over the path and bytes of every module in :func:`code_modules` and of every
        data file of their packages (:func:`package_data`): a rule moved from code into a table
        changes the digest as it did in code.
    """
    digest = hashlib.sha256()
    modules = code_modules(roots)
    for module in modules:
        path = _module_file(module)
        assert path is not None  # _closure keeps only modules with a file
        digest.update(path.relative_to(PACKAGE_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    for path in package_data(modules):
        digest.update(path.relative_to(PACKAGE_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class CodeKey(NamedTuple):
    """The digest of some code, or why there is none (then nothing keyed on it may be cached)."""

    digest: str | None
    """sha256 over every piece of code, or ``None`` when some of it could not be read."""
    reason: str = ""
    """Why there is no digest (empty when there is one): each piece of code that had no source."""

    @property
    def cacheable(self) -> bool:
        """Whether a result computed by this code may be cached under the digest."""
        return self.digest is not None


class UncachedWarning(UserWarning):
    """A result was computed but not cached: some code it ran has no source to key it on."""


@functools.cache
def _library_roots() -> tuple[Path, ...]:
    """Folders whose modules are the interpreter's or installed libraries', never the project's."""
    roots = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots.update(site.getsitepackages())
    roots.add(site.getusersitepackages())
    roots.update(p for p in sys.path if "site-packages" in p or "dist-packages" in p)
    return tuple(Path(r).resolve() for r in roots if r)


def _is_project_file(path: Path) -> bool:
    path = path.resolve()
    return not (path.is_relative_to(PACKAGE_ROOT)
                or any(path.is_relative_to(root) for root in _library_roots()))


def _is_package_module(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _find_file(name: str) -> str | None:
    """The file of module ``name``: the loaded module's, else where an import would find it.

    Nothing is imported to find it (a package's ``__init__`` never runs here); a name that is
    no module (an attribute imported from one) or that cannot be found has no file.
    """
    search: list[str] | None = None
    origin: str | None = None
    parts = name.split(".")
    for depth in range(1, len(parts) + 1):
        dotted = ".".join(parts[:depth])
        module = sys.modules.get(dotted)
        if module is not None:
            origin = getattr(module, "__file__", None)
            locations = getattr(module, "__path__", None)
        else:
            try:
                spec = (importlib.machinery.PathFinder.find_spec(dotted, search)
                        or (importlib.util.find_spec(dotted) if depth == 1 else None))
            except (ImportError, ValueError):
                return None
            if spec is None:
                return None
            origin = spec.origin if spec.has_location else None
            locations = spec.submodule_search_locations
        if depth < len(parts):
            if locations is None:
                return None
            search = list(locations)
    return origin


def _imported_names(module: str, path: Path, source: bytes) -> set[str]:
    """Every dotted name ``module``'s source imports, anywhere in it, relative ones resolved."""
    tree = ast.parse(source, filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                found.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{node.module}" if node.module else anchor
            else:
                base = node.module or ""
            parts = base.split(".")
            found.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
            found.update(f"{base}.{a.name}" for a in node.names)
    return {name for name in found if name and not name.startswith(".")}


_SEEN: dict[str, tuple[object, str]] = {}
# Module name -> (the module's spec, sha256 of its file) when code was first keyed on a loaded
# project module (registering a stage keys it, so that is usually while its module runs). A file
# whose bytes differ later while the module was not reloaded (a reload gives it a new spec)
# holds code this process is not running: no key can be trusted for it.


def _loaded_mismatch(name: str, data: bytes) -> bool:
    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None) if module is not None else None
    if spec is None:
        return False
    sha = hashlib.sha256(data).hexdigest()
    seen = _SEEN.get(name)
    if seen is None or seen[0] is not spec:
        _SEEN[name] = (spec, sha)
        return False
    return seen[1] != sha


def _object_module(obj: object) -> tuple[str, ModuleType | None, object]:
    """The module that defines ``obj`` (unwrapping decorators and partials) and what defines it."""
    target = obj
    while hasattr(target, "func") and not hasattr(target, "__code__"):  # functools.partial
        target = target.func
    target = inspect.unwrap(target) if callable(target) else target
    if not (inspect.isfunction(target) or inspect.isclass(target) or inspect.ismethod(target)
            or inspect.isbuiltin(target)):
        target = type(target)  # a callable instance: its class holds the code
    name = getattr(target, "__module__", None) or ""
    return name, sys.modules.get(name), target


def _object_problem(label: str, obj: object) -> tuple[str, str | None]:
    """The module to digest for ``obj``, or ``("", reason)`` when its code cannot be read."""
    name, module, target = _object_module(obj)
    if _is_package_module(name) or name in sys.builtin_module_names:
        return name, None
    file = getattr(module, "__file__", None) if module is not None else None
    if not file or not Path(file).is_file():
        return "", f"{label} is defined in {name or 'an unknown module'}, which has no source file"
    code = getattr(target, "__code__", None)
    if code is not None:
        where = Path(code.co_filename)
        if where.resolve() != Path(file).resolve() and (
                not where.is_file() or _is_project_file(where)):
            return "", (f"{label} was defined in {code.co_filename}, not in the file of its "
                        f"module {name} ({file}): a notebook cell or a prompt has no file to key")
    return name, None


def code_key(roots: Iterable[str] = (), stages: Mapping[str, object] | None = None) -> CodeKey:
    """A digest of all the code ``roots`` and ``stages`` run, or why it cannot be had.

    Package modules are covered as :func:`code_digest` covers them. Any other module counts
    whole: the bytes of its file, then those of every project module it imports (directly or
    through other project modules, including imports inside functions), each with its name.
    Modules of the standard library and of installed libraries are left out, as their versions
    are fixed by the install.

    Args:
        roots: Dotted module names, of the package or of one's own project.
        stages: Objects that will run (a registered stage's factory), by a label that names
            them in a reason (``relevance rule 'digits'``); each counts through its module.

    Returns:
        A :class:`CodeKey`; ``digest`` is ``None`` when a stage has no source file (defined in
        a notebook cell or at a prompt), a project module is a compiled extension or has only
        bytecode, or a project file changed since this process loaded it.
    """
    digest = hashlib.sha256()
    package: set[str] = set()
    pending: list[tuple[str, str]] = []
    problems: list[str] = []
    for name in roots:
        pending.append((name, f"module {name}"))
    for label, obj in (stages or {}).items():
        digest.update(f"{label};".encode())
        module, problem = _object_problem(label, obj)
        if problem is not None:
            problems.append(problem)
        elif module:
            pending.append((module, label))
    done: set[str] = set()
    while pending:
        name, label = pending.pop()
        if name in done:
            continue
        done.add(name)
        if _is_package_module(name):
            package.add(name)
            continue
        file = _find_file(name)
        if file is None:
            continue  # a built-in module, an attribute, or nothing an import could find
        path = Path(file)
        if not _is_project_file(path):
            continue
        if path.suffix != ".py":
            problems.append(f"{label} runs {name} from {path}, which has no Python source")
            continue
        try:
            data = path.read_bytes()
            imported = _imported_names(name, path, data)
        except (OSError, SyntaxError, ValueError) as exc:
            problems.append(f"{label} runs {name}, whose file {path} cannot be read ({exc})")
            continue
        if _loaded_mismatch(name, data):
            problems.append(f"{label} runs {name}, whose file {path} changed since this process "
                            "loaded it: reload the module or restart")
            continue
        digest.update(f"{name}\0".encode())
        digest.update(data)
        pending.extend((n, label) for n in sorted(imported) if n not in done)
    if problems:
        return CodeKey(None, "; ".join(sorted(set(problems))))
    digest.update(code_digest(package).encode())
    return CodeKey(digest.hexdigest())


def warn_uncached(what: str, key: CodeKey) -> str:
    """Warn that ``what`` is computed but not cached, naming why; return the reason written."""
    reason = f"{what} is not cached: {key.reason}"
    warnings.warn(reason, UncachedWarning, stacklevel=3)
    return reason


__all__ = [
    "PACKAGE_ROOT",
    "CodeKey",
    "UncachedWarning",
    "code_digest",
    "package_data",
    "code_key",
    "code_modules",
    "corpus_digest",
    "folder_digest",
    "sha256_file",
    "warn_uncached",
]
