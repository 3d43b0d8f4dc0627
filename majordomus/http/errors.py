"""The HTTP error body and the status of every error the HTTP projection answers."""

from __future__ import annotations

from typing import Literal

from majordomus.egress import clean_line
from majordomus.errors import CapabilityError, ContractUnmet, Fatal, MissingArtifact, UsageError
from majordomus.wire import Wire, dumps_pretty

ErrorCode = Literal[
    "invalid_input",
    "unauthorized",
    "not_found",
    "refused",
    "forbidden",
    "internal",
    "method_not_allowed",
    "too_large",
    "unavailable",
    "busy",
]

#: (status, code, when) of every error the HTTP surface can answer, in status order.
ERRORS: tuple[tuple[int, ErrorCode, str], ...] = (
    (400, "invalid_input", "the input cannot be read into the capability's input type"),
    (401, "unauthorized", "no server token where one is needed: off loopback, or a write"),
    (403, "forbidden", "a foreign Host or Origin"),
    (404, "not_found", "no such route, or the input names something the repository lacks"),
    (405, "method_not_allowed", "the path is served, but not with this method"),
    (413, "too_large", "the request body is over 1 MiB"),
    (422, "refused", "well-formed input that the capability declines"),
    (500, "internal", "a failure that is never the caller's fault"),
    (503, "busy", "64 requests are already in flight; retry after the Retry-After seconds"),
)


class ErrorDetail(Wire):
    """What went wrong: a stable code word and a sentence for a person."""

    code: ErrorCode
    message: str


class ErrorBody(Wire):
    """The body of every HTTP error: `{"error": {"code", "message"}}`."""

    error: ErrorDetail


class HttpError(Exception):
    """An HTTP-layer refusal (routing, guards, limits, bindings) with its status and code."""

    def __init__(self, status: int, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code: ErrorCode = code
        self.message = message


def error_json(code: ErrorCode, message: str) -> str:
    """The pretty error body with its trailing newline; the message is redacted and its
    control characters escaped (it may quote repository content or the request)."""
    detail = ErrorDetail(code=code, message=clean_line(message))
    return dumps_pretty(ErrorBody(error=detail).wire()) + "\n"


def from_exception(exc: BaseException) -> HttpError:
    """Map a capability error or a run-ending error to its status; the message is bare."""
    if isinstance(exc, HttpError):
        return exc
    if isinstance(exc, CapabilityError):
        return HttpError(exc.http_status, exc.code, exc.message)  # type: ignore[arg-type]
    if isinstance(exc, MissingArtifact):
        return HttpError(404, "not_found", exc.message)
    if isinstance(exc, UsageError):
        return HttpError(400, "invalid_input", exc.message)
    if isinstance(exc, ContractUnmet):
        return HttpError(422, "refused", exc.message)
    if isinstance(exc, Fatal):
        return HttpError(500, "internal", exc.message)
    return HttpError(500, "internal", f"{type(exc).__name__}: {exc}")
