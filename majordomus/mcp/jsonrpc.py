"""JSON-RPC 2.0 for the MCP server: one compact JSON value per line, and from an input line
to the answer it calls for, whatever the methods."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import IO, Any

from majordomus.bounded_json import IntegerTooLarge, LargeInt, loads
from majordomus.egress import clean_json, clean_line, excerpt, json_safe
from majordomus.errors import CapabilityError, Fatal
from majordomus.limits import MAX_INT_DIGITS
from majordomus.wire import dumps_compact

log = logging.getLogger(__name__)

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
    """A result's value with every secret redacted; the value itself when nothing needed it."""
    text = dumps_compact(value)
    cleaned = clean_json(text, dumps_compact)
    return value if cleaned == text else json.loads(cleaned)


def error(id_: Any, code: int, message: str) -> dict[str, Any]:
    """An error answer; its message is redacted and its controls escaped, whatever the code."""
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": clean_line(message)}}


def notification(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = clean_value(params)
    return message


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


Answer = dict[str, Any] | list[dict[str, Any]]
Method = Callable[[dict[str, Any]], Any]


class Dispatcher:
    """Routes each request to its method by name; `refresh` announces changes before an answer."""

    def __init__(self, methods: dict[str, Method]) -> None:
        self.methods = methods
        self.initialized = False

    def refresh(self) -> list[dict[str, Any]]:
        """The notifications to send before the next answer; none by default."""
        return []

    def answer(self, raw: bytes) -> Answer | None:
        """The answer a raw input line calls for (a batch answers with a list), or None."""
        if not raw.strip():
            return None
        try:  # an integer too long for any parameter is kept, and the message refused
            try:
                value, large_ints = loads(raw), False
            except IntegerTooLarge:
                value, large_ints = loads(raw, keep_large_ints=True), True
        except UnicodeDecodeError:
            return error(None, PARSE_ERROR, "parse error: input is not UTF-8")
        except ValueError as exc:
            return error(None, PARSE_ERROR, f"parse error: {exc}")
        handle = self._message_with_large_ints if large_ints else self.handle_message
        if isinstance(value, list):
            if not value:
                return error(None, INVALID_REQUEST, "empty batch")
            answers = [a for a in map(handle, value) if a is not None]
            return answers or None
        return handle(value)

    def _message_with_large_ints(self, message: Any) -> dict[str, Any] | None:
        """A message holding an integer longer than any parameter takes is invalid params
        (a notification is still never answered); one without is handled as usual."""
        if not isinstance(message, dict) or not holds_large_int(message):
            return self.handle_message(message)
        id_ = message.get("id")
        if id_ is None and isinstance(message.get("method"), str):
            return None
        return error(
            None if isinstance(id_, LargeInt) else id_,
            INVALID_PARAMS,
            str(IntegerTooLarge(MAX_INT_DIGITS)),
        )

    def handle_message(self, message: Any) -> dict[str, Any] | None:
        """The answer to one message (a batch element or a whole line), or None."""
        if not isinstance(message, dict):
            return error(None, INVALID_REQUEST, "a message is a JSON object")
        method = message.get("method")
        id_ = message.get("id")
        if not isinstance(method, str):
            if id_ is not None:
                return error(id_, INVALID_REQUEST, "missing method")
            return None
        if id_ is None:
            if method == "notifications/initialized":
                self.initialized = True
                log.debug("client initialised")
            else:
                log.debug("notification ignored method=%s", method)
            return None
        log.debug("request method=%s", method)
        handler = self.methods.get(method)
        if handler is None:
            return error(id_, METHOD_NOT_FOUND, f"method not found: {excerpt(method)}")
        params = message.get("params")
        try:
            result = handler(params if isinstance(params, dict) else {})
            return {"jsonrpc": "2.0", "id": id_, "result": result}
        except RpcError as exc:
            return error(id_, exc.code, exc.message)
        except (CapabilityError, Fatal) as exc:
            text = exc.display if isinstance(exc, CapabilityError) else f"internal: {exc.message}"
            log.error("%s failed: %s", method, text)
            return error(id_, INTERNAL_ERROR, text)
        except Exception as exc:
            log.error("%s failed: %s: %s", method, type(exc).__name__, exc, exc_info=True)
            return error(id_, INTERNAL_ERROR, f"internal: {type(exc).__name__}: {exc}")

    def answer_lines(self, raw: bytes) -> list[str]:
        """The notifications a re-index calls for, then the answer; no line may end the session."""
        lines: list[str] = []
        if raw.strip():
            try:
                lines = [encode(n) for n in self.refresh()]
            except Exception as exc:
                log.error("re-indexing failed: %s: %s", type(exc).__name__, exc, exc_info=True)
        try:
            answer = self.answer(raw)
            line = None if answer is None else encode(answer)
        except Exception as exc:
            log.error("unexpected failure: %s: %s", type(exc).__name__, exc, exc_info=True)
            line = encode(error(None, INTERNAL_ERROR, "internal: the message could not be handled"))
        return lines if line is None else [*lines, line]
