"""The ASGI application `majordomus serve` runs: FastAPI routes inside a guarding middleware.

The middleware owns what must happen before routing: the in-flight
bound (503 `busy`, liveness probes exempt), the Host / Origin guards, the 1 MiB body limit
(413), a body that must arrive whole before anything runs, HEAD as GET without a body,
`Cache-Control: no-store` and a `Content-Length` on every answer. The routes are
generic: one per capability HTTP exposure, each binding the request to the input, running the
one executor and mapping errors. The registry, the indexes and the OpenAPI
document are built once per reading of the layer: before each request the context checks
cheaply whether the layer changed and reads it again only when it did.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from majordomus.capabilities.describe import canonical_schema
from majordomus.egress import clean, clean_json
from majordomus.http import pages
from majordomus.http.binding import body_input, query_input
from majordomus.http.errors import ErrorCode, HttpError, error_json, from_exception
from majordomus.http.guards import check_caller, check_request
from majordomus.http.openapi import OpenApiError, build_openapi, render
from majordomus.limits import MAX_BODY_BYTES
from majordomus.wire import dumps_pretty

if TYPE_CHECKING:
    from majordomus.capabilities.context import Context
    from majordomus.capabilities.registry import Capability

log = logging.getLogger("majordomus")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

BODY_LIMIT = MAX_BODY_BYTES
MAX_IN_FLIGHT = 64
#: Liveness probes are answered even when every in-flight slot is taken.
LIVENESS_PATHS = frozenset({"/", "/api/v1/live"})
#: An over-long body is read (and dropped) up to this much before the 413 is sent, so the
#: client is not cut off mid-write and can read the answer; beyond it the connection closes.
DRAIN_LIMIT = 16 * BODY_LIMIT


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


class ClientGone(Exception):
    """The client disconnected before its request body arrived whole."""


def _client(scope: Scope) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


class Guard:
    """The pure-ASGI layer in front of the routes; see the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_in_flight: int = MAX_IN_FLIGHT,
        body_limit: int = BODY_LIMIT,
        routes: Routes | None = None,
    ) -> None:
        self.app = app
        self.routes = routes
        self.max_in_flight = max_in_flight
        self.body_limit = body_limit
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        send = _finishing(send, head=method == "HEAD")
        probe = method in ("GET", "HEAD") and scope["path"] in LIVENESS_PATHS
        if self.in_flight >= self.max_in_flight and not probe:
            answer = error_response(
                503,
                "busy",
                f"{self.max_in_flight} requests are already in flight; retry in a second",
                headers={"Retry-After": "1"},
            )
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
            check_request(_client(scope), scope["method"], headers)
            body = await self._body(receive, headers)
        except ClientGone:
            log.info("the client left before its request body was complete; nothing ran")
            return
        except HttpError as refused:
            await error_response(refused.status, refused.code, refused.message)(
                scope, receive, send
            )
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
        if self.routes is not None:
            self.routes.refresh()
        await self.app(inner, replay, send)

    async def _body(self, receive: Receive, headers: dict[str, str]) -> bytes:
        """The whole body, or 413 `too_large` once it is over the limit.

        Whole means its last chunk arrived (`more_body` false) and, when a length was
        declared, it has that length; a client that leaves before is `ClientGone`, so a
        request whose body did not arrive whole never runs (a retrying client cannot
        commit a record twice).
        """
        declared = headers.get("content-length", "")
        too_large = declared.isdigit() and int(declared) > self.body_limit
        chunks: list[bytes] = []
        size = 0
        more = True
        while more and size <= DRAIN_LIMIT:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size <= self.body_limit and not too_large:
                chunks.append(chunk)
            more = message.get("more_body", False)
        if too_large or size > self.body_limit:
            raise HttpError(
                413, "too_large", f"the request body is over {self.body_limit} bytes (1 MiB)"
            )
        if declared.isdigit() and int(declared) != size:
            raise ClientGone
        return b"".join(chunks)


def _finishing(send: Send, *, head: bool) -> Send:
    """Adds `Cache-Control: no-store` when unset, guarantees `Content-Length`, drops HEAD bodies."""
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
        body = b"".join(chunks)
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        if not any(k.lower() == b"cache-control" for k, _ in headers):
            headers.append((b"cache-control", b"no-store"))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if head else body})

    return wrapped


def _wants_html(accept: str) -> bool:
    """Only an explicit `text/html` (with a non-zero q) asks for HTML; `*/*` does not."""
    for part in accept.split(","):
        media, *params = (p.strip() for p in part.split(";"))
        if media.lower() != "text/html":
            continue
        q = next((p[2:] for p in params if p.lower().startswith("q=")), "1")
        try:
            return float(q) > 0
        except ValueError:
            return False
    return False


class Routes:
    """The application's state: one context, its registry, the pages built once per index."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.registry = ctx.registry
        self.registry.verify()
        self.executor = ctx.executor
        self.info = pages.server_index(ctx.index)
        self.api = pages.api_index(self.registry)
        self.command_lock = anyio.Lock()
        self._openapi: str | None = None

    def refresh(self) -> None:
        """Before each request: re-index if the layer changed, and rebuild what the index
        feeds. The routes stay those of start-up; their handlers read the current index.
        A re-index that failed leaves the last index served and `/` saying `stale`."""
        was_stale = self.ctx.stale
        if self.ctx.refresh():
            self.registry = self.ctx.registry
            self.registry.verify()
            self._openapi = None
        elif self.ctx.stale == was_stale:
            return
        self.info = pages.server_index(self.ctx.index, stale=self.ctx.stale)

    def openapi_text(self) -> str:
        """Built on first request and kept; a failed build is an internal error each time."""
        if self._openapi is None:
            document = build_openapi(self.registry, self.cases)
            self._openapi = render(document)
        return self._openapi

    def cases(self, cap: Capability) -> list[tuple[str, dict[str, Any]]]:
        return cap.benchmark_cases(self.ctx)

    async def run(self, cap: Capability, raw: dict[str, Any]) -> Any:
        call = functools.partial(self.executor.run, cap, raw)
        if cap.kind == "command":
            async with self.command_lock:
                return await anyio.to_thread.run_sync(call)
        return await anyio.to_thread.run_sync(call)

    def endpoint(self, cap: Capability) -> Callable[[Request], Awaitable[Response]]:
        """The generic dispatch of docs/http.md for one capability route."""
        schema = canonical_schema(cap.input, "validation")
        method = cap.http[0] if cap.http else "GET"

        async def dispatch(request: Request) -> Response:
            try:
                check_caller(_client(request.scope), cap)
                if method == "GET":
                    raw = query_input(request.query_params.multi_items(), schema)
                else:
                    raw = body_input(await request.body())
                value = await self.run(cap, raw)
            except Exception as exc:
                mapped = from_exception(exc)
                if mapped.status >= 500:
                    log.error(
                        "%s: %s", cap.id, mapped.message, exc_info=not isinstance(exc, HttpError)
                    )
                return error_response(mapped.status, mapped.code, mapped.message)
            return json_response(200, value)

        dispatch.__name__ = f"capability_{cap.id}"
        return dispatch


def _routing_error(request: Request, exc: StarletteHTTPException) -> Response:
    method, path = request.method, request.url.path
    if exc.status_code == 405 or (
        exc.status_code == 404 and path.startswith("/api/v1/") and method not in ("GET", "POST")
    ):
        allow = (exc.headers or {}).get("Allow")
        served = f"; {path} answers {allow}" if allow else ""
        headers = {"Allow": allow} if allow else None
        return error_response(
            405, "method_not_allowed", f"method {method} is not served{served}", headers
        )
    if path.startswith("/api/v1/"):
        message = f"no route {method} {path}; the routes are listed at /openapi.json"
    else:
        message = f"nothing is served at {path}; / and /api/v1 list what is served"
    return error_response(404, "not_found", message)


def create_app(
    ctx: Context, *, max_in_flight: int = MAX_IN_FLIGHT, body_limit: int = BODY_LIMIT
) -> Guard:
    """The whole application over one context; the registry and index are built here, once."""
    routes = Routes(ctx)
    api = FastAPI(openapi_url=None, docs_url=None, redoc_url=None, redirect_slashes=False)

    async def routing_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        return _routing_error(request, exc)

    api.add_exception_handler(StarletteHTTPException, routing_error)

    async def home(request: Request) -> Response:
        if _wants_html(request.headers.get("accept", "")):
            return Response(
                clean(pages.home_html(routes.info, routes.api)),
                media_type="text/html",
                headers={**pages.HTML_HEADERS, "Content-Security-Policy": pages.HOME_CSP},
            )
        return json_response(200, routes.info.wire())

    async def api_index(_: Request) -> Response:
        return json_response(200, routes.api.wire())

    async def openapi(_: Request) -> Response:
        try:
            text = routes.openapi_text()
        except OpenApiError as exc:
            log.error("the OpenAPI document did not build: %s", exc)
            return error_response(500, "internal", f"the OpenAPI document did not build: {exc}")
        return Response(text, media_type="application/json")

    async def swagger(_: Request) -> Response:
        try:
            page = pages.swagger_html()
        except pages.SwaggerAssetsMissing as exc:
            return error_response(500, "internal", str(exc))
        return Response(
            page,
            media_type="text/html",
            headers={**pages.HTML_HEADERS, "Content-Security-Policy": pages.SWAGGER_CSP},
        )

    def swagger_asset(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def asset(_: Request) -> Response:
            try:
                body = pages.swagger_asset(name)
            except pages.SwaggerAssetsMissing as exc:
                return error_response(500, "internal", str(exc))
            media = pages.SWAGGER_ASSETS[name]
            return Response(body, media_type=media, headers={"X-Content-Type-Options": "nosniff"})

        return asset

    api.add_api_route("/", home, methods=["GET"], include_in_schema=False)
    for path in ("/api/v1", "/api/v1/"):
        api.add_api_route(path, api_index, methods=["GET"], include_in_schema=False)
    api.add_api_route("/openapi.json", openapi, methods=["GET"], include_in_schema=False)
    for path in ("/swagger", "/swagger/"):
        api.add_api_route(path, swagger, methods=["GET"], include_in_schema=False)
    for name in pages.SWAGGER_ASSETS:
        api.add_api_route(
            f"/swagger/{name}", swagger_asset(name), methods=["GET"], include_in_schema=False
        )
    for cap in routes.registry:
        if cap.http is not None:
            method, path = cap.http
            api.add_api_route(path, routes.endpoint(cap), methods=[method], include_in_schema=False)
    return Guard(api, max_in_flight=max_in_flight, body_limit=body_limit, routes=routes)
