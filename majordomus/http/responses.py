"""The two answers every route and the guard send: a JSON value, or an error body.

A JSON answer passes `majordomus.egress` on its way out (secrets redacted); an error body is
already built from our own messages by `majordomus.http.errors`.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response

from majordomus.egress import clean_json
from majordomus.http.errors import ErrorCode, error_json
from majordomus.wire import dumps_pretty


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
