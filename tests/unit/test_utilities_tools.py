"""The three tool definitions, the category index and its token size."""

from __future__ import annotations

import json

import pytest

from workbench.utilities import (
    TOOL_NAMES,
    ToolError,
    category_index,
    category_index_tokens,
    describe_category,
    dispatch,
    list_categories,
    load_catalog,
    tool_definitions,
)

JSON_TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


def check_schema(schema: dict) -> None:
    """A small structural check of a JSON schema (no third-party validator is installed)."""
    assert isinstance(schema, dict)
    if "type" in schema:
        assert schema["type"] in JSON_TYPES
    if schema.get("type") == "object":
        props = schema.get("properties", {})
        assert isinstance(props, dict)
        for prop in props.values():
            check_schema(prop)
        assert set(schema.get("required", [])) <= set(props)
    if "enum" in schema:
        assert isinstance(schema["enum"], list) and schema["enum"]


def conforms(value, schema: dict) -> bool:
    """Whether ``value`` has the declared JSON type (integers count as numbers)."""
    t = schema.get("type")
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
    }
    return t is None or checks[t](value)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_exactly_three_tools_in_function_calling_format(lang):
    tools = tool_definitions(lang)
    assert [t["function"]["name"] for t in tools] == list(TOOL_NAMES)
    for tool in tools:
        assert set(tool) == {"type", "function"} and tool["type"] == "function"
        fn = tool["function"]
        assert set(fn) == {"name", "description", "parameters"}
        assert fn["description"]
        assert fn["parameters"]["type"] == "object"
        check_schema(fn["parameters"])
    assert json.loads(json.dumps(tools, ensure_ascii=False)) == tools
    describe = tools[1]["function"]["parameters"]
    assert describe["properties"]["category"]["enum"] == [c.id for c in load_catalog().categories]


def test_every_utility_schema_is_a_json_schema_its_examples_conform_to():
    catalog = load_catalog()
    for schema in catalog.schemas.values():
        params = schema.parameters()
        check_schema(params)
        for example in schema.examples:
            assert set(params["required"]) <= set(example.args), example.id
            for name, value in example.args.items():
                assert conforms(value, params["properties"][name]), (example.id, name)


def test_category_index_is_one_line_per_category():
    lines = category_index().splitlines()
    catalog = load_catalog()
    assert len(lines) == 14 == len(catalog.categories)
    for line, category in zip(lines, catalog.categories, strict=True):
        assert line.startswith(f"{category.id}: ")
        assert line.endswith(f"({len(catalog.in_category(category.id))})")
    assert list_categories() == category_index()
    assert "хеши" in category_index("ru") and "хеши" not in category_index("en")


@pytest.mark.parametrize("category", [c.id for c in load_catalog().categories])
def test_describe_category(category):
    described = describe_category(category)
    assert described and all(d["utility"].startswith(category + ".") for d in described)
    ru = describe_category(category, "ru")
    assert [d["utility"] for d in ru] == [d["utility"] for d in described]


def test_dispatch_errors_list_the_tools():
    with pytest.raises(ToolError, match="list_categories"):
        dispatch("no_such_tool")
    with pytest.raises(ToolError, match="hash"):
        dispatch("describe_category", {"category": "nope"})
    with pytest.raises(ToolError):
        dispatch("call_utility", {"utility": 5})
    assert dispatch("call_utility", {"utility": "hash.md5", "args": {"text": "abc"}})["ok"]


class WordTokenizer:
    def encode(self, text):
        return text.split()


class CountingModel:
    def token_count(self, text):
        return 7


def test_index_tokens_with_fakes():
    assert category_index_tokens(WordTokenizer()) == len(category_index().split())
    assert category_index_tokens(CountingModel()) == 7
    assert category_index_tokens(lambda text: {"input_ids": [1, 2, 3]}) == 3


@pytest.mark.slow
def test_index_fits_the_offline_minilm_tokenizer():
    pytest.importorskip("transformers")
    from workbench.utilities._tokens import OFFLINE_TOKENIZERS

    tokenizer = OFFLINE_TOKENIZERS["all-MiniLM-L6-v2"]()
    size = category_index_tokens(tokenizer)
    assert 100 < size <= 600
