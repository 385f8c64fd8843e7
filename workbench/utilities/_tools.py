"""The three tools a router sees, as function-calling definitions, and their dispatcher.

Instead of a hundred schemas a router is shown ``list_categories`` (the compact index),
``describe_category`` (the schemas of one category) and ``call_utility`` (a result or a
structured refusal). The same dispatcher serves the JSON-lines protocol of ``workbench tool
serve``, so the in-process path and the subprocess path cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from workbench.errors import WorkbenchError
from workbench.utilities._call import LANGS, call_utility
from workbench.utilities._catalog import category_index, load_catalog

TOOL_NAMES: tuple[str, ...] = ("list_categories", "describe_category", "call_utility")


class ToolError(WorkbenchError, ValueError):
    """A tool request that cannot be answered: unknown tool, missing or mistyped tool argument."""


def tool_definitions(lang: str = "en") -> list[dict[str, Any]]:
    """The three tools in the common function-calling format.

    Each entry is ``{"type": "function", "function": {"name", "description", "parameters"}}``
    with ``parameters`` a JSON schema of type ``object``.
    """
    catalog = load_catalog()
    ids = [c.id for c in catalog.categories]
    ru = lang == "ru"
    return [
        {
            "type": "function",
            "function": {
                "name": "list_categories",
                "description": "Индекс категорий утилит: по строке на категорию."
                if ru
                else "The index of utility categories: one line per category.",
                "parameters": {
                    "type": "object",
                    "properties": {},
                    "required": [],
                    "additionalProperties": False,
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "describe_category",
                "description": "Схемы всех утилит одной категории."
                if ru
                else "The schemas of every utility in one category.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "category": {
                            "type": "string",
                            "enum": ids,
                            "description": "id категории" if ru else "the category id",
                        }
                    },
                    "required": ["category"],
                    "additionalProperties": False,
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "call_utility",
                "description": "Вызвать утилиту по id с аргументами; результат или отказ с кодом."
                if ru
                else "Call a utility by id with arguments; returns the result or a coded refusal.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "utility": {
                            "type": "string",
                            "description": "id утилиты, например hash.sha256"
                            if ru
                            else "the utility id, e.g. hash.sha256",
                        },
                        "args": {
                            "type": "object",
                            "description": "аргументы по схеме"
                            if ru
                            else "the arguments, as the schema names them",
                        },
                    },
                    "required": ["utility", "args"],
                    "additionalProperties": False,
                },
            },
        },
    ]


def list_categories(lang: str | None = None) -> str:
    """The compact category index (see :func:`workbench.utilities.category_index`)."""
    return category_index(lang)


def describe_category(category: str, lang: str = "en") -> list[dict[str, Any]]:
    """The function-style schema of every utility in ``category``."""
    catalog = load_catalog()
    schemas = catalog.in_category(category) if isinstance(category, str) else []
    if not schemas:
        known = ", ".join(c.id for c in catalog.categories)
        raise ToolError(f"unknown category {category!r}; categories: {known}")
    return [s.describe(lang) for s in schemas]


def _need(arguments: Mapping[str, Any], name: str, kind: type) -> Any:
    value = arguments.get(name)
    if not isinstance(value, kind):
        raise ToolError(f"tool argument {name!r} must be a {kind.__name__}")
    return value


ToolFn = Callable[[Mapping[str, Any], str], Any]
TOOLS: dict[str, ToolFn] = {
    "list_categories": lambda a, lang: list_categories(a.get("lang") or None),
    "describe_category": lambda a, lang: describe_category(_need(a, "category", str), lang),
    "call_utility": lambda a, lang: call_utility(
        _need(a, "utility", str),
        a.get("args") or {},
        question=a.get("question") if isinstance(a.get("question"), str) else None,
        lang=lang,
    ).to_dict(),
}


def dispatch(tool: Any, arguments: Any = None, lang: str = "en") -> Any:
    """Answer one tool request; the unknown-tool error lists the tools.

    Args:
        tool: One of :data:`TOOL_NAMES`.
        arguments: The tool's arguments as a JSON object.
        lang: The language of schemas' descriptions and refusal texts.

    Returns:
        The tool's JSON-ready result.

    Raises:
        ToolError: The tool is unknown or its arguments do not fit it.
    """
    if not isinstance(tool, str) or tool not in TOOLS:
        raise ToolError(f"unknown tool {tool!r}; tools: {', '.join(TOOLS)}")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        raise ToolError("tool arguments must be a JSON object")
    return TOOLS[tool](arguments, lang if lang in LANGS else "en")
