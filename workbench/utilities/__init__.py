"""The utility catalog: pure, deterministic functions a router calls by id with arguments.

Fourteen categories, one private module each; every utility has a typed schema (arguments with
type, role and descriptions in Russian and English) and executable examples. A router sees three
tools (``list_categories``, ``describe_category``, ``call_utility``); ``workbench tool serve``
speaks the same protocol as JSON lines.
"""

from workbench.utilities._call import MESSAGES, CallOutcome, call_utility, check_arguments
from workbench.utilities._catalog import (
    CATEGORIES,
    Catalog,
    CatalogSummary,
    Category,
    canonical_json,
    catalog_summary,
    category_index,
    category_index_tokens,
    load_catalog,
)
from workbench.utilities._codes import Role, UtilityCode
from workbench.utilities._coverage import CoverageReport, DatasetError, coverage_report
from workbench.utilities._examples import (
    ExampleFailure,
    ExampleReport,
    all_examples,
    results_equal,
    run_examples,
)
from workbench.utilities._id import DIGIT_COUNTS
from workbench.utilities._limits import CALL_SECONDS, LimitExceeded
from workbench.utilities._protocol import handle_line, handle_request, json_text, serve
from workbench.utilities._schema import TEXT_FORMS, Argument, BadArgument, Example, UtilitySchema, form_spans
from workbench.utilities._tokens import OFFLINE_TOKENIZERS, index_token_report
from workbench.utilities._tools import (
    TOOL_NAMES,
    ToolError,
    describe_category,
    dispatch,
    list_categories,
    tool_definitions,
)
from workbench.utilities._units import unit_codes, unit_names

load_catalog()  # registers every utility, so registry.lookup("utility", id) finds it at once

__all__ = [
    "TEXT_FORMS",
    "form_spans",
    "unit_codes",
    "unit_names",
    "CALL_SECONDS",
    "CATEGORIES",
    "DIGIT_COUNTS",
    "MESSAGES",
    "OFFLINE_TOKENIZERS",
    "TOOL_NAMES",
    "Argument",
    "BadArgument",
    "CallOutcome",
    "Catalog",
    "CatalogSummary",
    "Category",
    "CoverageReport",
    "DatasetError",
    "Example",
    "ExampleFailure",
    "ExampleReport",
    "LimitExceeded",
    "Role",
    "ToolError",
    "UtilityCode",
    "UtilitySchema",
    "all_examples",
    "call_utility",
    "canonical_json",
    "catalog_summary",
    "category_index",
    "category_index_tokens",
    "check_arguments",
    "coverage_report",
    "describe_category",
    "dispatch",
    "handle_line",
    "handle_request",
    "index_token_report",
    "json_text",
    "list_categories",
    "load_catalog",
    "results_equal",
    "run_examples",
    "serve",
    "tool_definitions",
]
