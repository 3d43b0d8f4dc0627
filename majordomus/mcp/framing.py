"""JSON-RPC 2.0 framing of the stdio MCP server: one compact JSON value per line."""

from __future__ import annotations

import json
from typing import IO, Any

from majordomus.bounded_json import IntegerTooLarge, LargeInt, loads
from majordomus.egress import clean_json, clean_line, json_safe
from majordomus.wire import dumps_compact

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002


class RpcError(Exception):
    """A JSON-RPC error answer: `code` and the message the client sees."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class OutputClosed(Exception):
    """The client closed its read end of our stdout: the session is over."""


def encode(message: Any) -> str:
    """The line a message (or a batch of them) is written as."""
    return json_safe(dumps_compact(message))


def clean_value(value: Any) -> Any:
    """A result's value with every secret redacted: the value itself when its text needed no
    cleaning, else the value of the cleaned text."""
    text = dumps_compact(value)
    cleaned = clean_json(text, dumps_compact)
    return value if cleaned == text else json.loads(cleaned)


def success(id_: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "result": result}


def error(id_: Any, code: int, message: str) -> dict[str, Any]:
    """An error answer; its message is redacted and its controls escaped, whatever the code."""
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": clean_line(message)}}


def notification(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = clean_value(params)
    return message


class Unparsable(Exception):
    """An input line that is no JSON: the parse error answered under a null id."""


def decode(raw: bytes) -> tuple[Any, bool]:
    """An input line's value, and whether it holds an integer too long for any parameter."""
    try:
        try:
            return loads(raw), False
        except IntegerTooLarge:
            return loads(raw, keep_large_ints=True), True
    except UnicodeDecodeError:
        raise Unparsable("parse error: input is not UTF-8") from None
    except ValueError as exc:
        raise Unparsable(f"parse error: {exc}") from None


def holds_large_int(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, LargeInt):
            return True
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def write(out: IO[bytes], line: str) -> None:
    # A lone surrogate (from a `\ud800` escape in the input) is not UTF-8: send it escaped.
    data = line.encode("utf-8", "backslashreplace") + b"\n"
    try:
        out.write(data)
        out.flush()
    except BrokenPipeError:
        raise OutputClosed from None
