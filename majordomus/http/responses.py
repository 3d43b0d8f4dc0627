"""The two answers every route and the guard send: a model's JSON, or an error body."""

from __future__ import annotations

from fastapi.responses import Response
from pydantic import BaseModel

from majordomus.egress import answer_json
from majordomus.http.errors import ErrorCode, HttpError, error_json


def model_response(answer: BaseModel) -> Response:
    """A 200 answer: the model's pretty JSON, through `majordomus.egress`."""
    return Response(answer_json(answer), status_code=200, media_type="application/json")


def error_response(
    status: int, code: ErrorCode, message: str, headers: dict[str, str] | None = None
) -> Response:
    return Response(error_json(code, message), status, headers, media_type="application/json")


def refusal_response(refused: HttpError) -> Response:
    """An `HttpError`'s answer; a 401 names the scheme that would let the caller in."""
    challenge = {"WWW-Authenticate": "Bearer"} if refused.status == 401 else None
    return error_response(refused.status, refused.code, refused.message, challenge)


def method_not_allowed(method: str, path: str, allow: str | None) -> Response:
    """405 `method_not_allowed`, naming the methods the path answers when it is served."""
    served = f"; {path} answers {allow}" if allow else ""
    headers = {"Allow": allow} if allow else None
    return error_response(
        405, "method_not_allowed", f"method {method} is not served{served}", headers
    )
