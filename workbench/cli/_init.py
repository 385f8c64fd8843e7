"""``workbench init DIR``: a project folder of one's own, ready for the workbench's loop.

The folder gets a commented ``workbench.toml`` (corpus, index, question files, the calibration,
``[plugins]``), an empty-but-for-one-page ``corpus/``, one example line of each question set
under ``questions/`` and a ``stages.py`` with one relevance rule and one gate of one's own. The
files are the package's ``project_template/``. Every verb run inside the folder then acts on the
project: the settings are found from the current folder upwards
(:func:`workbench.config.default_config_path`).
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from workbench.config import CONFIG_FILENAME, Settings
from workbench.display import inert
from workbench.errors import WorkbenchError

TEMPLATE = "project_template"
"""The package folder the project's files are copied from."""

NAME_MARK = "__NAME__"
"""Where the project's name goes in the template's text files."""


class ProjectExistsError(WorkbenchError):
    """``init`` was pointed at a folder that holds settings or files it did not write."""


@dataclass(frozen=True)
class Project:
    """What :func:`init_project` made."""

    folder: Path
    """The project folder, absolute."""
    name: str
    """The project's name (the index folder's and the corpus's name in refusals)."""
    written: tuple[str, ...]
    """The files written, relative to ``folder``."""


def project_name(folder: Path) -> str:
    """A name for the project in ``folder``: its folder name, kept to letters, digits, ``._-``."""
    name = re.sub(r"[^\w.-]+", "-", folder.name).strip("-.")
    return name or "project"


def template_files() -> dict[str, bytes]:
    """The template's files by path relative to the project folder (``/``-separated)."""
    files: dict[str, bytes] = {}

    def walk(node: Traversable, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.name == "__pycache__" or child.name.endswith(".pyc"):
                continue
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            else:
                files[f"{prefix}{child.name}"] = child.read_bytes()

    walk(resources.files("workbench") / TEMPLATE, "")
    return files


def _contents(name: str) -> dict[str, bytes]:
    """The template's files with the project's name filled in; the settings file comes last."""
    files = {path: data.replace(NAME_MARK.encode(), name.encode())
             for path, data in template_files().items()}
    settings = files.pop(CONFIG_FILENAME)
    files[CONFIG_FILENAME] = settings  # written last: its absence marks an unfinished init
    return files


def _foreign_entries(folder: Path, files: dict[str, bytes]) -> list[str]:
    """What ``folder`` holds that ``init`` would not write, byte for byte, itself."""
    folders = {str(Path(p).parent.as_posix()) for p in files} - {"."}
    foreign = []
    for entry in sorted(folder.rglob("*")):
        rel = entry.relative_to(folder).as_posix()
        if entry.is_dir() and not entry.is_symlink() and rel in folders:
            continue
        if entry.is_file() and not entry.is_symlink() and files.get(rel) == entry.read_bytes():
            continue
        foreign.append(rel)
    return foreign


def init_project(folder: str | Path) -> Project:
    """Make a project folder at ``folder`` from the template.

    The folder may be missing or empty, or hold only files an earlier, unfinished ``init`` wrote
    (each identical to the template's); nothing in it is ever overwritten.

    Raises:
        ProjectExistsError: ``folder`` holds a ``workbench.toml``, is a file, or holds anything
            else; the message names what was found, and nothing was written.
    """
    target = Path(folder).expanduser().resolve()
    if target.exists() and not target.is_dir():
        raise ProjectExistsError(f"{target} is a file, not a folder: give a new or empty folder")
    if (target / CONFIG_FILENAME).exists():
        raise ProjectExistsError(f"{target} already holds {CONFIG_FILENAME}: it is a project "
                                 "already; nothing was written")
    name = project_name(target)
    files = _contents(name)
    if target.is_dir():
        foreign = _foreign_entries(target, files)
        if foreign:
            shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5
                                              else "")
            raise ProjectExistsError(f"{target} is not empty ({shown}): give a new or empty "
                                     "folder; nothing was written")
    written = []
    for rel, data in files.items():
        path = target / rel
        if path.is_file():  # identical, by the check above
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as out:  # never replaces a file that appeared meanwhile
            out.write(data)
        written.append(rel)
    return Project(folder=target, name=name, written=tuple(written))


def _init(args: argparse.Namespace, settings: Settings) -> int:
    project = init_project(args.folder)
    print(inert(f"project {project.name} in {project.folder}:"))
    for rel in project.written:
        print(inert(f"  {rel}"))
    print(inert(f"next, inside {project.folder} (every verb reads its {CONFIG_FILENAME}, found "
                "from the current folder upwards):"))
    for step in NEXT_STEPS:
        print(f"  {step}")
    return 0


NEXT_STEPS = (
    "replace corpus/example.md with your pages and questions/*.jsonl with labelled questions",
    "workbench index build",
    "workbench eval gates",
    "workbench gates calibrate --out calibration.toml",
    'workbench ask "a question"',
)
"""What ``init`` tells the user to do next, in order."""


def add_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``init``."""
    parser = subparsers.add_parser(
        "init", parents=[common],
        help="make a project folder of one's own: settings, corpus, questions, stages.py")
    parser.add_argument("folder", metavar="DIR", help="a new or empty folder")
    parser.set_defaults(handler=_init)
