"""The JSON-lines protocol of ``workbench tool serve``: one request a line, one response a line.

A request is ``{"id": ..., "tool": NAME, "arguments": {...}, "lang": "en"|"ru"}``. The response
carries the same ``id`` and either ``"result"`` (the tool's answer; for ``call_utility`` that is
itself ``{"ok": true, "result": ...}`` or ``{"ok": false, "refusal": ...}``) or ``"error"``
(a malformed line, an unknown tool, a tool argument of the wrong type). A bad line never stops
the server.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from workbench.utilities._tools import ToolError, dispatch

MAX_LINE = 4_000_000


def handle_request(request: Any) -> dict[str, Any]:
    """Answer one decoded request."""
    if not isinstance(request, dict):
        return {
            "id": None,
            "error": {"type": "bad_request", "message": "a request is a JSON object"},
        }
    rid = request.get("id")
    lang = request.get("lang")
    try:
        result = dispatch(
            request.get("tool"), request.get("arguments"), lang if isinstance(lang, str) else "en"
        )
    except ToolError as exc:
        return {"id": rid, "error": {"type": "bad_request", "message": str(exc)}}
    return {"id": rid, "result": result}


def handle_line(line: str) -> str | None:
    """Answer one line of the protocol; ``None`` for a blank line (no response)."""
    if not line.strip():
        return None
    if len(line) > MAX_LINE:
        message = f"lines above {MAX_LINE} characters are not read"
        response: dict[str, Any] = {"id": None, "error": {"type": "too_long", "message": message}}
    else:
        try:
            request = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            response = {"id": None, "error": {"type": "malformed", "message": f"not JSON: {exc}"}}
        else:
            try:
                response = handle_request(request)
            except Exception as exc:  # noqa: BLE001 - one bad request must not stop the server
                rid = request.get("id") if isinstance(request, dict) else None
                response = {"id": rid, "error": {"type": "internal", "message": type(exc).__name__}}
    return json.dumps(response, ensure_ascii=False, allow_nan=False)


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
