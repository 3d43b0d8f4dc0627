"""The pure-ASGI guard in front of the routes (what must happen before routing), and the two
answers every route and the guard send: a model's JSON, or an error body."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from majordomus.egress import answer_json
from majordomus.http.door import CLOSED, Door
from majordomus.http.errors import ErrorCode, HttpError, error_json
from majordomus.http.guards import MCP_PATH, check_request
from majordomus.limits import MAX_BODY_BYTES

log = logging.getLogger(__name__)

MAX_IN_FLIGHT = 64
#: Liveness probes are answered even when every in-flight slot is taken.
LIVENESS_PATHS = frozenset({"/", "/api/v1/live"})
#: An over-long body is read (and dropped) up to this much before the 413 is sent, so the
#: client is not cut off mid-write and can read the answer; beyond it the connection closes.
DRAIN_LIMIT = 16 * MAX_BODY_BYTES


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


class ClientGone(Exception):
    """The client disconnected before its request body arrived whole."""


def client_of(scope: Scope) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


class Guard:
    """The pure-ASGI layer in front of the routes; see the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        door: Door = CLOSED,
        max_in_flight: int = MAX_IN_FLIGHT,
        before_each: Callable[[], None] | None = None,
        hidden: Iterable[Path] = (),
        mcp: ASGIApp | None = None,
    ) -> None:
        self.app = app
        self.mcp = mcp
        self.door = door
        self.hide = hider(hidden)
        self.before_each = before_each
        self.max_in_flight = max_in_flight
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        # MCP at /mcp answers as it does over stdio (docs/mcp.md)
        hide = self.hide if scope["path"] != MCP_PATH else lambda body: body
        send = _finishing(send, head=method == "HEAD", hide=hide)
        probe = method in ("GET", "HEAD") and scope["path"] in LIVENESS_PATHS
        if self.in_flight >= self.max_in_flight and not probe:
            busy = f"{self.max_in_flight} requests are already in flight; retry in a second"
            answer = error_response(503, "busy", busy, headers={"Retry-After": "1"})
            await answer(scope, receive, send)
            return
        self.in_flight += 1
        try:
            await self._guarded(scope, receive, send)
        finally:
            self.in_flight -= 1

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {
            key.decode("latin-1").lower(): value.decode("latin-1")
            for key, value in scope["headers"]
        }
        try:
            check_request(client_of(scope), scope["method"], headers, scope["path"])
            self.door.admit(client_of(scope), headers)
            body = await self._body(receive, headers)
        except ClientGone:
            log.info("the client left before its request body was complete; nothing ran")
            return
        except HttpError as refused:
            await refusal_response(refused)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        inner = dict(scope)
        if scope["method"] == "HEAD":
            inner["method"] = "GET"
        if self.before_each is not None:
            self.before_each()
        # MCP is one JSON-RPC dispatcher, not a set of routes: it is served here, past FastAPI.
        app = self.mcp if self.mcp is not None and scope["path"] == MCP_PATH else self.app
        await app(inner, replay, send)

    async def _body(self, receive: Receive, headers: dict[str, str]) -> bytes:
        """The whole body, or 413 `too_large`; a client that leaves before it is whole is
        `ClientGone`, so a retrying client cannot commit a record twice."""
        declared = headers.get("content-length", "")
        too_large = declared.isdigit() and int(declared) > MAX_BODY_BYTES
        chunks: list[bytes] = []
        size = 0
        more = True
        while more and size <= DRAIN_LIMIT:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size <= MAX_BODY_BYTES and not too_large:
                chunks.append(chunk)
            more = message.get("more_body", False)
        if too_large or size > MAX_BODY_BYTES:
            raise HttpError(
                413, "too_large", f"the request body is over {MAX_BODY_BYTES} bytes (1 MiB)"
            )
        if declared.isdigit() and int(declared) != size:
            raise ClientGone
        return b"".join(chunks)


def hider(paths: Iterable[Path]) -> Callable[[bytes], bytes]:
    """A body with these absolute paths as their last names: never where the repository lives."""
    names = {
        json.dumps(str(path), ensure_ascii=ascii)[1:-1].encode(): json.dumps(
            path.name, ensure_ascii=ascii
        )[1:-1].encode()
        for path in paths
        if path.is_absolute() and path.name
        for ascii in (False, True)
    }
    if not names:
        return lambda body: body
    pattern = re.compile(
        b"(" + b"|".join(map(re.escape, sorted(names, key=len, reverse=True))) + rb")"
        rb"(?=[/\"\\\s'<]|\Z)"
    )

    def hide(body: bytes) -> bytes:
        if not any(path in body for path in names):
            return body
        return pattern.sub(lambda found: names[found.group(1)], body)

    return hide


def _finishing(send: Send, *, head: bool, hide: Callable[[bytes], bytes]) -> Send:
    """Sets `Content-Length`, `Cache-Control: no-store` if unset; drops HEAD bodies; hides paths."""
    start: Message | None = None
    chunks: list[bytes] = []

    async def wrapped(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = dict(message)
            return
        if message["type"] != "http.response.body" or start is None:
            await send(message)
            return
        chunks.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        body = hide(b"".join(chunks))
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        if not any(k.lower() == b"cache-control" for k, _ in headers):
            headers.append((b"cache-control", b"no-store"))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if head else body})

    return wrapped
