"""Every example again through one `workbench tool serve` subprocess; both paths must agree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.utilities import all_examples, call_utility, handle_line, results_equal

EXAMPLES = all_examples()
ROOT = Path(__file__).resolve().parents[2]


def serve_command() -> list[str]:
    """The installed command when present, else the same entry point through the interpreter."""
    installed = Path(sys.executable).with_name("workbench")
    if installed.exists():
        return [str(installed), "tool", "serve"]
    found = shutil.which("workbench")
    return [found, "tool", "serve"] if found else [sys.executable, "-m", "workbench.cli",
                                                   "tool", "serve"]


class Server:
    """One long-lived `workbench tool serve` process spoken to line by line."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        self.proc = subprocess.Popen(
            serve_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1, cwd=ROOT, env=env,
        )
        self.next_id = 0

    def send_raw(self, line: str) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        assert reply, self.proc.stderr.read() if self.proc.stderr else "server closed"
        return json.loads(reply)

    def request(self, tool: str, arguments: dict, lang: str = "en") -> dict:
        self.next_id += 1
        line = json.dumps({"id": self.next_id, "tool": tool, "arguments": arguments,
                           "lang": lang}, ensure_ascii=False)
        response = self.send_raw(line)
        assert response["id"] == self.next_id
        return response

    def close(self) -> int:
        assert self.proc.stdin
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def server():
    srv = Server()
    yield srv
    assert srv.close() == 0


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_example_through_serve(server, example):
    response = server.request("call_utility", {"utility": example.utility,
                                               "args": dict(example.args)})
    payload = response["result"]
    assert payload["ok"], payload
    assert results_equal(example.result, payload["result"])
    in_process = call_utility(example.utility, dict(example.args)).to_dict()
    assert json.loads(json.dumps(in_process, ensure_ascii=False)) == payload


def test_list_and_describe_through_serve(server):
    index = server.request("list_categories", {})["result"]
    assert len(index.splitlines()) == 14
    described = server.request("describe_category", {"category": "hash"}, lang="ru")["result"]
    assert any(d["utility"] == "hash.sha256" for d in described)


def test_refusal_through_serve(server):
    payload = server.request("call_utility", {"utility": "hash.sha256", "args": {}},
                             lang="ru")["result"]
    assert payload["ok"] is False
    assert payload["refusal"]["code"] == "MISSING_ARGUMENT"
    assert payload["refusal"]["numbers"]["argument"] == "text"


@pytest.mark.parametrize("line", ["not json", "[1, 2]", '{"id": 9, "tool": "nope"}',
                                  '{"id": 10, "tool": "call_utility", "arguments": 5}',
                                  '{"id": 11, "tool": "describe_category", "arguments": {}}'])
def test_malformed_lines_get_errors_and_the_server_lives_on(server, line):
    response = server.send_raw(line)
    assert "error" in response and "result" not in response
    assert server.request("call_utility", {"utility": "hash.md5", "args": {"text": "abc"}})[
        "result"]["result"] == "900150983cd24fb0d6963f7d28e17f72"


def test_handle_line_in_process():
    assert handle_line("   ") is None
    reply = json.loads(handle_line('{"id": "a", "tool": "list_categories"}'))
    assert reply["id"] == "a" and reply["result"].count("\n") == 13
