"""The session around the dispatcher in-process: answers go before background work, the
warm-up changes no answer, and every message is one JSON value written once, redacted and
with its line separators escaped wherever they sit."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from majordomus.capabilities.workspace import Workspace
from majordomus.mcp.framing import REMEMBERED_CHARS, encode
from majordomus.mcp.results import tool_result
from majordomus.mcp.server import Server
from majordomus.mcp.session import Turns

SECRET = "sk-ant-" + "a1b2c3d4" * 4


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode()


def _lines(srv: Server) -> list[str | None]:
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "resources/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "majordomus_search", "arguments": {"query": "rule"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "majordomus_repository", "arguments": {}},
        },
    ]
    return [srv.handle_line(_line(r)) for r in requests]


def test_the_warm_up_changes_no_answer(layer_repo: Path) -> None:
    cold = _lines(Server(Workspace(layer_repo), read_only=False))
    warmed = Server(Workspace(layer_repo), read_only=False)
    for step in warmed.warm_steps():
        step()
    assert _lines(warmed) == cold


def test_a_waiting_answer_goes_before_the_next_background_turn() -> None:
    turns = Turns()
    order: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def background(name: str) -> None:
        with turns.background():
            order.append(name)
            if name == "first":
                holding.set()
                release.wait()

    first = threading.Thread(target=background, args=("first",))
    first.start()
    holding.wait()
    second = threading.Thread(target=background, args=("second",))
    second.start()

    def answer() -> None:
        with turns.answer():
            order.append("answer")

    answering = threading.Thread(target=answer)
    answering.start()
    while not turns._waiting:  # until the answer is queued behind the first turn
        os.sched_yield()
    release.set()
    for thread in (first, second, answering):
        thread.join()
    assert order == ["first", "answer", "second"]


def test_a_tool_result_carries_the_same_redacted_value_twice() -> None:
    result = tool_result({"title": f"key {SECRET}", "n": 1})
    text = result["content"][0]["text"]
    assert SECRET not in text and "[redacted:" in text
    assert json.loads(text) == result["structuredContent"]
    assert result["isError"] is False


def test_a_remembered_result_is_redacted_again_as_it_was_first() -> None:
    value = {"title": f"key {SECRET}", "n": 2}
    first, again = tool_result(value), tool_result(dict(value))
    assert first == again and SECRET not in first["content"][0]["text"]
    large = {"title": f"key {SECRET}", "pad": "x" * REMEMBERED_CHARS}
    assert SECRET not in tool_result(large)["content"][0]["text"]


def test_a_line_separator_is_escaped_wherever_it_sits() -> None:
    line = encode({"jsonrpc": "2.0", "id": "a\u2028b", "result": {"text": "c\u202ed"}})
    assert line.isascii()
    assert json.loads(line) == {"jsonrpc": "2.0", "id": "a\u2028b", "result": {"text": "c\u202ed"}}
