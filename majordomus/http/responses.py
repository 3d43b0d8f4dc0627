"""The answers every route and the guard send: a capability's model, a JSON value, or an
error body.

A JSON answer passes `majordomus.egress` on its way out (secrets redacted); an error body is
already built from our own messages by `majordomus.http.errors`.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel

from majordomus.egress import clean_json, clean_json_bytes
from majordomus.http.errors import ErrorCode, error_json
from majordomus.wire import dumps_model_pretty_bytes, dumps_pretty


def model_response(answer: BaseModel) -> Response:
    """A capability's answer: its model's pretty JSON, through `majordomus.egress`."""
    body = clean_json_bytes(dumps_model_pretty_bytes(answer), dumps_pretty) + b"\n"
    return Response(body, status_code=200, media_type="application/json")


def json_response(status: int, value: Any, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer; what it carries passes `majordomus.egress` (secrets redacted)."""
    return Response(
        clean_json(dumps_pretty(value), dumps_pretty) + "\n",
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


def error_response(
    status: int, code: ErrorCode, message: str, headers: dict[str, str] | None = None
) -> Response:
    return Response(
        error_json(code, message),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )
