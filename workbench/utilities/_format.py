"""Format category: JSON, YAML, CSV and Markdown tables, converted and reformatted."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

import yaml

from workbench.utilities._limits import LimitExceeded
from workbench.utilities._schema import BadArgument, circ, data, define, ex

JSON_DATA = data("data", "string", "the JSON text", "текст в формате JSON")
CSV_DATA = data(
    "data", "string", "the CSV text, header first", "текст CSV, первая строка — заголовок",
    form="table",
)
MAX_CELLS = 1_000_000
MAX_YAML_NODES = 100_000
"""The most nodes a YAML document may expand to once every alias is replaced by its anchor."""


class BoundedLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses a document whose aliases expand past :data:`MAX_YAML_NODES`.

    PyYAML shares an anchored node between its aliases, so loading a "billion laughs" is cheap;
    the cost comes when the shared graph is unfolded into a tree (as JSON must). The expanded
    size is counted on the composed graph before anything is built, each node once, saturating
    at the bound, so the refusal costs time in the size of the text, not of its expansion. A
    node that contains itself (``&a [*a]``) expands without end and is refused the same way.
    """

    def compose_document(self) -> yaml.Node | None:
        """The next document's node graph, after its expanded size passed the bound check."""
        node: yaml.Node | None = super().compose_document()
        if node is not None:
            size = expanded_size(node, MAX_YAML_NODES)
            if size > MAX_YAML_NODES:
                raise LimitExceeded("yaml_nodes", size, MAX_YAML_NODES, "data", at_least=True)
        return node


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def expanded_size(root: yaml.Node, bound: int) -> int:
    """Nodes under ``root`` with every alias unfolded, counted up to ``bound + 1``.

    Iterative post-order over the graph with a memo per node; a node met again while it is
    still open is a cycle, whose expansion has no end (``bound + 1``).
    """
    over = bound + 1
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            total = 1 + sum(sizes[id(child)] for child in _children(node))
            sizes[key] = min(total, over)
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            return over
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)
    return sizes[id(root)]


def _load_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadArgument("data", f"JSON text (parse stopped at line {exc.lineno})") from None


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _plain(value: Any) -> Any:
    """YAML values JSON can hold: dates become ISO strings, keys become strings."""
    if isinstance(value, dict):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return value


def _csv_rows(text: str, delimiter: str = ",") -> tuple[list[str], list[list[str]]]:
    if len(delimiter) != 1 or delimiter in '\r\n"':
        raise BadArgument("delimiter", "a single character other than a quote or a newline")
    try:
        rows = [r for r in csv.reader(io.StringIO(text), delimiter=delimiter) if r]
    except csv.Error:
        raise BadArgument("data", "CSV text") from None
    if not rows:
        raise BadArgument("data", "CSV text with a header line")
    header, body = rows[0], rows[1:]
    if len(header) * max(len(body), 1) > MAX_CELLS:
        raise BadArgument("data", "at most a million cells")
    return header, [(r + [""] * len(header))[: len(header)] for r in body]


def _read_csv(text: str, delimiter: str = ",") -> list[dict[str, str]]:
    header, body = _csv_rows(text, delimiter)
    return [dict(zip(header, r, strict=True)) for r in body]


@define(
    "format.json_to_yaml",
    en="convert JSON to YAML",
    ru="преобразовать JSON в YAML",
    args=[JSON_DATA],
    examples=[
        ex(
            {"data": '{"name": "Иван", "tags": ["a", "b"], "age": 30}'},
            "name: Иван\ntags:\n- a\n- b\nage: 30\n",
        )
    ],
)
def json_to_yaml(data: str) -> str:
    """Block-style YAML, keys in their JSON order, non-ASCII kept as is."""
    return yaml.safe_dump(_load_json(data), allow_unicode=True, sort_keys=False)


@define(
    "format.yaml_to_json",
    en="convert YAML to JSON",
    ru="преобразовать YAML в JSON",
    args=[data("data", "string", "the YAML text", "текст в формате YAML")],
    examples=[ex({"data": "a: 1\nb: [x, y]\nc: null\n"}, '{"a": 1, "b": ["x", "y"], "c": null}')],
)
def yaml_to_json(data: str) -> str:
    """Safe YAML loading (no tags that build objects); dates become ISO strings.

    Aliases are unfolded only up to :data:`MAX_YAML_NODES` nodes (see :class:`BoundedLoader`).
    """
    try:
        value = yaml.load(data, Loader=BoundedLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError:
        raise BadArgument("data", "YAML text") from None
    try:
        return _dump(_plain(value))
    except ValueError:
        raise BadArgument("data", "YAML without infinite or NaN numbers") from None


@define(
    "format.csv_to_json",
    en="convert CSV (header line first) to a JSON array of objects",
    ru="преобразовать CSV (с заголовком) в JSON-массив объектов",
    args=[
        CSV_DATA,
        circ(
            "delimiter",
            "string",
            "the field separator",
            "разделитель полей",
            required=False,
            default=",",
        ),
    ],
    examples=[
        ex(
            {"data": "name,age\nAnn,30\nBob,25"},
            '[{"name": "Ann", "age": "30"}, {"name": "Bob", "age": "25"}]',
        ),
        ex({"data": "a;b\n1;2", "delimiter": ";"}, '[{"a": "1", "b": "2"}]'),
    ],
)
def csv_to_json(data: str, delimiter: str = ",") -> str:
    """Every value stays a string; a short row is padded with empty strings, a long one cut."""
    return _dump(_read_csv(data, delimiter))


def _cell(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return _dump(value)


@define(
    "format.json_to_csv",
    en="convert a JSON array of objects to CSV",
    ru="преобразовать JSON-массив объектов в CSV",
    args=[JSON_DATA],
    examples=[ex({"data": '[{"a": 1, "b": "x"}, {"a": 2, "b": "y, z"}]'}, 'a,b\n1,x\n2,"y, z"\n')],
)
def json_to_csv(data: str) -> str:
    """Columns are the union of keys in first-seen order; nested values are written as JSON."""
    rows = _load_json(data)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise BadArgument("data", "a JSON array of objects")
    columns = list(dict.fromkeys(k for r in rows for k in r))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for r in rows:
        writer.writerow([_cell(r.get(c)) for c in columns])
    return out.getvalue()


@define(
    "format.json_pretty",
    en="pretty-print JSON with indentation",
    ru="отформатировать JSON с отступами",
    args=[
        JSON_DATA,
        circ(
            "indent",
            "integer",
            "spaces per level",
            "пробелов на уровень",
            required=False,
            default=2,
        ),
    ],
    examples=[
        ex({"data": '{"b":1,"a":[1,2]}'}, '{\n  "b": 1,\n  "a": [\n    1,\n    2\n  ]\n}'),
    ],
)
def json_pretty(data: str, indent: int = 2) -> str:
    """Keys keep their order; non-ASCII characters are kept."""
    if not 0 <= indent <= 16:
        raise BadArgument("indent", "an integer from 0 to 16")
    return json.dumps(_load_json(data), ensure_ascii=False, indent=indent)


@define(
    "format.json_minify",
    en="minify JSON (remove insignificant whitespace)",
    ru="сжать JSON (убрать лишние пробелы)",
    args=[JSON_DATA],
    examples=[ex({"data": '{ "a" : [1, 2], "b": "x y" }'}, '{"a":[1,2],"b":"x y"}')],
)
def json_minify(data: str) -> str:
    """The most compact separators; strings are untouched."""
    return json.dumps(_load_json(data), ensure_ascii=False, separators=(",", ":"))


@define(
    "format.json_sort_keys",
    en="sort the keys of every JSON object",
    ru="отсортировать ключи всех объектов JSON",
    args=[JSON_DATA],
    examples=[ex({"data": '{"b": 1, "a": {"d": 2, "c": 3}}'}, '{"a": {"c": 3, "d": 2}, "b": 1}')],
)
def json_sort_keys(data: str) -> str:
    """Keys sorted by code point at every depth."""
    return json.dumps(_load_json(data), ensure_ascii=False, sort_keys=True)


@define(
    "format.json_validate",
    en="check whether a text is valid JSON and where parsing stops",
    ru="проверить, корректен ли JSON, и где останавливается разбор",
    args=[JSON_DATA],
    result="object",
    examples=[
        ex({"data": '{"a": [1, 2]}'}, {"valid": True, "line": None, "column": None}),
        ex({"data": '{"a": 1,}'}, {"valid": False, "line": 1, "column": 9}),
    ],
)
def json_validate(data: str) -> dict[str, Any]:
    """Line and column (from 1) of the first character the parser could not accept."""
    try:
        json.loads(data)
    except json.JSONDecodeError as exc:
        return {"valid": False, "line": exc.lineno, "column": exc.colno}
    return {"valid": True, "line": None, "column": None}


@define(
    "format.csv_to_markdown",
    en="convert CSV (header line first) to a Markdown table",
    ru="преобразовать CSV (с заголовком) в таблицу Markdown",
    args=[CSV_DATA],
    examples=[
        ex(
            {"data": "name,age\nAnn,30\nBob,25"},
            "| name | age |\n| --- | --- |\n| Ann | 30 |\n| Bob | 25 |",
        ),
    ],
)
def csv_to_markdown(data: str) -> str:
    """A pipe table; a ``|`` inside a cell is escaped."""
    header, rows = _csv_rows(data)

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"

    out = [line(header), "| " + " | ".join("---" for _ in header) + " |"]
    out += [line(r) for r in rows]
    return "\n".join(out)
