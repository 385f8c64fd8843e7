r"""The JSON-lines protocol of ``workbench tool serve``: one request a line, one response a line.

A request is ``{"id": ..., "tool": NAME, "arguments": {...}, "lang": "en"|"ru"}``. The response
carries the same ``id`` and either ``"result"`` (the tool's answer; for ``call_utility`` that is
itself ``{"ok": true, "result": ...}`` or ``{"ok": false, "refusal": ...}``) or ``"error"``
(``{"type", "message"}``: a malformed line, an unknown tool, a tool argument of the wrong type).

Every non-blank line gets exactly one response, and no line stops the server: a line that is not
JSON, or JSON past what the reader takes (an integer above Python's 4300-digit conversion limit,
nesting deeper than the recursion limit), is answered with an error; a request is answered
only when its ``id`` can be echoed unchanged (a string, a finite number of at most
:data:`MAX_ID_DIGITS` digits, a boolean or null; any other id gets a ``bad_id`` error with a
``null`` id); and each response is valid UTF-8 JSON: when it holds a lone surrogate
(which UTF-8 cannot encode) it is written with ``\uXXXX`` escapes instead.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any, TextIO

from workbench.utilities._limits import integer_digits
from workbench.utilities._tools import ToolError, dispatch

MAX_LINE = 4_000_000
MAX_ID_DIGITS = 40
ID_RULE = f"an id is a string, a finite number of at most {MAX_ID_DIGITS} digits, true, false or null"


def json_text(value: Any, *, default: Any = None, allow_nan: bool = False) -> str:
    r"""``value`` as one line of JSON that encodes as UTF-8.

    Non-ASCII text is kept as is, unless the value holds a lone surrogate: then the whole line
    is written ASCII-only, where the surrogate becomes a ``\udXXX`` escape a JSON reader
    restores. ``default`` and ``allow_nan`` are :func:`json.dumps`'s (``workbench ask --json``
    writes its records with ``default=str``).

    Raises:
        ValueError: ``value`` holds a NaN or infinity (unless ``allow_nan``), or an integer past
            the conversion limit.
    """
    text = json.dumps(value, ensure_ascii=False, allow_nan=allow_nan, default=default)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, allow_nan=allow_nan, default=default)
    return text


def echo_id(rid: Any) -> Any:
    """The request's ``id`` when a response can carry it unchanged, else ``None``."""
    if rid is None or isinstance(rid, bool | str):
        return rid
    if isinstance(rid, int):
        return rid if integer_digits(rid) <= MAX_ID_DIGITS else None
    if isinstance(rid, float):
        return rid if math.isfinite(rid) else None
    return None


def _error(rid: Any, kind: str, message: str) -> dict[str, Any]:
    return {"id": rid, "error": {"type": kind, "message": message}}


def handle_request(request: Any) -> dict[str, Any]:
    """Answer one decoded request."""
    if not isinstance(request, dict):
        return _error(None, "bad_request", "a request is a JSON object")
    rid = echo_id(request.get("id"))
    if rid is None and request.get("id") is not None:
        # An answer its caller could not match to the request is not given at all.
        return _error(None, "bad_id", ID_RULE)
    lang = request.get("lang")
    try:
        result = dispatch(
            request.get("tool"), request.get("arguments"), lang if isinstance(lang, str) else "en"
        )
    except ToolError as exc:
        return _error(rid, "bad_request", str(exc))
    return {"id": rid, "result": result}


def _decode(line: str) -> tuple[Any, dict[str, Any] | None]:
    """(the request, None) or (None, the error response) for one line."""
    if len(line) > MAX_LINE:
        return None, _error(None, "too_long", f"lines above {MAX_LINE} characters are not read")
    try:
        return json.loads(line), None
    except json.JSONDecodeError as exc:
        return None, _error(None, "malformed", f"not JSON: {exc}")
    except RecursionError:
        return None, _error(None, "too_deep", "JSON nested deeper than the reader allows")
    except ValueError:  # int("1" * 5000): Python's guard on integer conversion
        return None, _error(None, "too_large", "an integer of more than 4300 digits")


def _respond(line: str) -> dict[str, Any]:
    request, error = _decode(line)
    if error is not None:
        return error
    try:
        return handle_request(request)
    except Exception as exc:  # noqa: BLE001 - one bad request must not stop the server
        rid = echo_id(request.get("id")) if isinstance(request, dict) else None
        return _error(rid, "internal", type(exc).__name__)


def handle_line(line: str) -> str | None:
    """Answer one line of the protocol; ``None`` for a blank line (no response)."""
    if not line.strip():
        return None
    response = _respond(line)
    try:
        return json_text(response)
    except (ValueError, RecursionError):
        # A result JSON cannot carry (a NaN, an integer past the conversion limit).
        return json_text(_error(response.get("id"), "internal", "the response is not JSON"))


def serve(lines: Iterable[str], out: TextIO) -> int:
    """Answer every line of ``lines`` on ``out``, flushing after each; returns the count."""
    count = 0
    for line in lines:
        response = handle_line(line)
        if response is None:
            continue
        out.write(response + "\n")
        out.flush()
        count += 1
    return count
