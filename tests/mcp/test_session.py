"""What the session writes: every message is one JSON value written once, redacted and with
its line separators escaped wherever they sit."""

from __future__ import annotations

import json

from majordomus.mcp.jsonrpc import encode
from majordomus.mcp.server import tool_result
from majordomus.wire import Wire
from tests.conftest import answered

SECRET = "sk-ant-" + "a1b2c3d4" * 4


class Titled(Wire):
    title: str
    n: int


def test_a_tool_result_carries_its_redacted_value_once() -> None:
    result = tool_result(Titled(title=f"key {SECRET}", n=1))
    text = result["content"][0]["text"]
    assert SECRET not in text and "[redacted:" in text
    assert answered(result)["title"].startswith("key [redacted:")
    assert result["isError"] is False


def test_a_line_separator_is_escaped_wherever_it_sits() -> None:
    line = encode({"jsonrpc": "2.0", "id": "a\u2028b", "result": {"text": "c\u202ed"}})
    assert line.isascii()
    assert json.loads(line) == {"jsonrpc": "2.0", "id": "a\u2028b", "result": {"text": "c\u202ed"}}
