"""JSON-RPC 2.0 dispatch: from an input line to the answer it calls for, whatever the methods."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from majordomus.bounded_json import IntegerTooLarge, LargeInt
from majordomus.egress import excerpt
from majordomus.errors import CapabilityError, Fatal
from majordomus.limits import MAX_INT_DIGITS
from majordomus.mcp.framing import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    RpcError,
    Unparsable,
    decode,
    encode,
    error,
    holds_large_int,
    success,
)

log = logging.getLogger(__name__)

Answer = dict[str, Any] | list[dict[str, Any]]
Method = Callable[[dict[str, Any]], Any]


def _params(message: dict[str, Any]) -> dict[str, Any]:
    params = message.get("params")
    return params if isinstance(params, dict) else {}


class Dispatcher:
    """Routes each request to its method by name; the server fills `methods` and may
    announce changes before an answer (`refresh`)."""

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
        try:
            value, large_ints = decode(raw)
        except Unparsable as exc:
            return error(None, PARSE_ERROR, str(exc))
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
        try:
            return success(id_, handler(_params(message)))
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
        """The notifications a re-index calls for, then the line's answer, behind a last
        guard: no input line may end the session."""
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
