"""The README and the reference pages under docs/ say what the checkout does.

Every ``workbench …`` command in a code block of README.md and docs/*.md parses with the real
argument parser (flags and sub-verbs included); every ``make`` target they name is a target of
the Makefile; every relative link resolves to a file, and every ``#anchor`` to a heading of it;
docs/cli.md names every verb and docs/settings.md every settings key; the README stays a front
door (at most 15 KB) and its headline test-split figures are those of docs/figures.json.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest

from workbench.cli import build_parser
from workbench.config import Settings

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = (README, *sorted((ROOT / "docs").glob("*.md")))

PENDING_VERBS: frozenset[str] = frozenset()
"""Verbs the pages document that the command line does not offer yet (being written now).

Their commands are kept out of the parse check; once a verb parses, the test below fails until it
is taken off this list, so the list is emptied as the verbs land.
"""

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.MULTILINE)


def code_blocks(text: str) -> list[str]:
    """The bodies of the fenced code blocks of ``text`` that hold shell lines."""
    return [m.group(2) for m in _FENCE.finditer(text)
            if (m.group(1).split() or [""])[0] in ("", "bash", "sh", "shell", "console")]


def shell_lines(block: str) -> list[str]:
    """The lines of a block, continuation lines joined."""
    return re.sub(r"\\\n\s*", " ", block).splitlines()


def commands(prefix: str, pages: tuple[Path, ...] = PAGES) -> list[tuple[str, list[str]]]:
    """``(page, argv)`` of every ``prefix …`` line in the pages' shell blocks."""
    found = []
    for page in pages:
        for block in code_blocks(page.read_text(encoding="utf-8")):
            for line in shell_lines(block):
                if line.split()[:1] == [prefix]:  # a diagram or a spec is no command
                    words = shlex.split(line, comments=True)
                    found.append((page.relative_to(ROOT).as_posix(), words[1:]))
    return found


def parses(argv: list[str]) -> tuple[bool, str]:
    """Whether the workbench's parser accepts ``argv`` (``--help`` counts), with what it said."""
    parser = build_parser()
    try:
        parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code in (0, None), f"exit {stop.code}"
    return True, ""


def _is_synopsis(argv: list[str]) -> bool:
    """A usage line (``spec check FILE [--json]``) rather than a command to type."""
    return any(w.startswith("[") or "|" in w or w in ("...", "…") for w in argv)


def synopsis_problems(argv: list[str]) -> list[str]:
    """The options of a usage line that its verb does not take, or why its verb is unknown."""
    parser = build_parser()
    words = list(argv)
    while words:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                   None)
        if sub is None or words[0] not in sub.choices:
            break
        parser = sub.choices[words.pop(0)]
    if parser.prog == "workbench":
        return [f"no verb {argv[0]!r}"]
    known = {o for a in parser._actions for o in a.option_strings}
    flags = {m for w in words for m in re.findall(r"--[a-z][a-z0-9-]*", w)}
    return sorted(f"{parser.prog} takes no {flag}" for flag in flags - known)


def verb_paths(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every verb and sub-verb of the command line, as word tuples."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = (*prefix, name)
                deeper = verb_paths(sub, path)
                found.extend(deeper or [path])
    return found


def slug(heading: str) -> str:
    """The anchor a Markdown heading gets (GitHub's rule: lower case, punctuation dropped)."""
    text = re.sub(r"[`*_]{2,}|`", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated one gets ``-1``, ``-2``, …)."""
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for match in _HEADING.finditer(text):
        base = slug(match.group(2))
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def broken_links(page: Path) -> list[str]:
    """Every relative link of ``page`` whose file or heading anchor does not exist."""
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    broken = []
    for match in _LINK.finditer(text):
        target = match.group(1) or match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # http:, https:, mailto:: not a file of the checkout
        file, _, anchor = target.partition("#")
        resolved = (page.parent / file).resolve() if file else page
        if not resolved.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and (resolved.suffix != ".md" or anchor not in anchors(resolved)):
            broken.append(f"{target} (no heading with that anchor)")
    return broken


# --- the commands ----------------------------------------------------------------------------

def test_the_readme_shows_both_make_commands_and_workbench_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make demo" in text and "make test" in text
    assert len(commands("workbench", (README,))) >= 4


@pytest.mark.parametrize(("page", "argv"), [
    pytest.param(page, argv, id=f"{page}: workbench {' '.join(argv)}"[:120])
    for page, argv in commands("workbench")])
def test_every_workbench_command_shown_parses(page: str, argv: list[str]) -> None:
    if argv and argv[0] in PENDING_VERBS:
        ok, _ = parses([argv[0], "--help"])
        assert not ok, (f"`workbench {argv[0]}` parses now: take it off PENDING_VERBS in "
                        f"{Path(__file__).name}")
        return
    if _is_synopsis(argv):
        assert synopsis_problems(argv) == [], page
        return
    ok, said = parses(argv)
    assert ok, f"{page}: `workbench {shlex.join(argv)}` does not parse ({said})"
    verb = [w for w in argv if not w.startswith("-")][:2]
    ok, said = parses([*verb[:1], "--help"])
    assert ok, f"{page}: `workbench {verb[0]} --help` fails ({said})"


def test_a_command_with_an_unknown_flag_is_caught() -> None:
    assert parses(["eval", "gates", "--split", "test"])[0]
    assert not parses(["eval", "gates", "--no-such-flag"])[0]
    assert not parses(["no-such-verb"])[0]
    assert synopsis_problems(["spec", "check", "FILE", "[--json]", "[--library", "DIR]"]) == []
    assert synopsis_problems(["spec", "check", "FILE", "[--jsonl]"]) == [
        "workbench spec check takes no --jsonl"]
    assert synopsis_problems(["nothing", "[--x]"]) == ["no verb 'nothing'"]


def test_every_make_target_named_exists() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([A-Za-z][\w-]*)\s*:", makefile, re.MULTILINE))
    named = {argv[0] for _, argv in commands("make") if argv}
    for page in PAGES:
        named |= set(re.findall(r"`make ([a-z][\w-]*)`", page.read_text(encoding="utf-8")))
    assert {"demo", "test"} <= named
    assert named - targets == set(), f"Makefile lacks {sorted(named - targets)}"


# --- links -----------------------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_a_broken_link_and_a_missing_anchor_are_caught(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# A title — with a dash\n\n## `code` and more\n",
                                       encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md#a-title--with-a-dash) [ok](other.md#code-and-more) "
                    "[web](https://example.org/x) `[not](a-link.md)`\n"
                    "[gone](missing.md) [no anchor](other.md#nowhere)\n", encoding="utf-8")
    assert broken_links(page) == ["missing.md (no such file)",
                                  "other.md#nowhere (no heading with that anchor)"]


# --- the reference pages cover what exists --------------------------------------------------

def test_docs_cli_names_every_verb() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    missing = [" ".join(path) for path in verb_paths(build_parser())
               if f"workbench {' '.join(path)}" not in text]
    assert missing == [], f"docs/cli.md does not name: {missing}"
    for verb in PENDING_VERBS:
        assert f"workbench {verb}" in text


def test_docs_settings_names_every_key() -> None:
    text = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    missing = []
    for section in dataclasses.fields(Settings):
        if section.name == "source":
            continue
        if f"## `[{section.name}]`" not in text:
            missing.append(f"[{section.name}]")
            continue
        part = text.split(f"## `[{section.name}]`", 1)[1].split("\n## ", 1)[0]
        missing += [f"{section.name}.{key.name}"
                    for key in dataclasses.fields(getattr(Settings(), section.name))
                    if f"| `{key.name}` |" not in part]
    assert missing == [], f"docs/settings.md does not describe: {missing}"


# --- the README as a front door --------------------------------------------------------------

def test_the_readme_is_a_front_door() -> None:
    data = README.read_bytes()
    assert len(data) <= 15_000, f"README.md is {len(data)} bytes"
    text = data.decode("utf-8")
    first_command = text.index("make demo")
    assert text[:first_command].count("\n") <= 40, "more than a screen before the first command"


def _router_name(cell: str) -> str:
    """A table's router cell without emphasis or a remark: «**span-binder-noref** (`ask`'s default)»."""
    return cell.replace("*", "").split(" (", 1)[0].strip()


def _headline_rows(text: str) -> dict[str, list[tuple[str, ...]]]:
    """Each router row of the headline table: per column, (the rounds named in its header..., test)."""
    section = text.split("## Headline figures", 1)[1].split("<!-- figures:start", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and " / " in cells[1] and cells[0]:
            rows[_router_name(cells[0])] = [tuple(c.split(" / ")) for c in cells[1:]]
    return rows


def _headline_rounds(text: str) -> list[str]:
    """The held-out rounds the headline table's header row names, in order («round 3 / … / test»)."""
    section = text.split("## Headline figures", 1)[1]
    header = next(line for line in section.splitlines() if line.startswith("| | round"))
    names = header.strip("| ").split("|")[0].strip().split(" / ")
    assert names[-1] == "test" and all(n.startswith("round ") for n in names[:-1])
    return [n.removeprefix("round ") for n in names[:-1]]


ROUND_SECTIONS = {"1": "## Scored as written", "2": "## Second round", "3": "## Third round",
                  "4": "## Fourth round", "5": "## Fifth round", "6": "## Sixth round",
                  "7": "## Seventh round", "8": "## Eighth round",
                  "9": "## Ninth round", "10": "## Tenth round", "11": "## Eleventh round",
                  "12": "## Twelfth round", "13": "## Thirteenth round",
                  "14": "## Fourteenth round",
                  "15": "## Fifteenth round",
                  "16": "## Sixteenth round",
                  "17": "## Seventeenth round",
                  "18": "## Eighteenth round",
                  "19": "## Nineteenth round",
                  "20": "## Twentieth round",
                  "21": "## Twenty-first round"}
"""The held-out README's section of each round's as-written scoring."""


def test_the_headline_test_figures_are_the_committed_figures() -> None:
    """The README's test-split router figures beside the held-out ones come from docs/figures.json."""
    figures = json.loads((ROOT / "docs" / "figures.json").read_text(encoding="utf-8"))
    routers = figures["routers"]["routers"]
    from workbench.report._build import HELDOUT_KEYS as keys  # the report's held-out tables, alike

    rows = _headline_rows(README.read_text(encoding="utf-8"))
    assert {"rule", "span", "span-binder-noref", "span-binder-noref-doubt"} <= set(rows)
    for name, cells in rows.items():
        assert all(len(cell) == len(_headline_rounds(README.read_text(encoding="utf-8"))) + 1
                   for cell in cells), name
        shown = [cell[-1] for cell in cells]
        assert shown == [f"{routers[name][k]:.3f}" for k in keys], (
            f"README headline, {name}: test figures differ from docs/figures.json")


def _held_out_row(lines: list[str], name: str) -> list[str]:
    """A router's five headline figures in a round's table (a later column, such as the count of
    wrong answers, is not among them)."""
    line = next(x for x in lines if x.startswith("| ") and _router_name(x.split("|")[1]) == name)
    return [re.match(r"[\d.]+", c.strip()).group(0)  # type: ignore[union-attr]
            for c in line.strip().strip("|").split("|")[1:6]]


def test_the_headline_held_out_figures_are_those_of_the_held_out_readme() -> None:
    heldout = (ROOT / "corpus" / "questions" / "heldout" / "README.md").read_text(encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    rows = _headline_rows(readme)
    for i, name in enumerate(_headline_rounds(readme)):
        section = heldout.split(ROUND_SECTIONS[name], 1)[1].split("\n## ", 1)[0]
        for router, cells in rows.items():
            assert [cell[i] for cell in cells] == _held_out_row(section.splitlines(), router), (
                f"README headline, {router}: round {name} figures differ")
