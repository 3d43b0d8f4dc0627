"""The ASGI application `majordomus serve` runs: FastAPI routes inside the guard."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from majordomus.capabilities.schemas import canonical_schema
from majordomus.egress import clean
from majordomus.http import pages
from majordomus.http.binding import body_input, query_input
from majordomus.http.door import CLOSED, Door
from majordomus.http.errors import HttpError, from_exception
from majordomus.http.guards import MCP_PATH
from majordomus.http.mcp import McpEndpoint
from majordomus.http.middleware import (
    Guard,
    client_of,
    error_response,
    method_not_allowed,
    model_response,
    refusal_response,
)
from majordomus.http.openapi import OpenApiError, build_openapi
from majordomus.wire import dumps_pretty

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.registry import Capability
    from majordomus.capabilities.workspace import Workspace


Endpoint = Callable[[Request], Awaitable[Response]]


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


#: Capability handlers running at once: under one interpreter lock more threads answer no sooner
#: and only hold more answers in memory (docs/http.md, "Guards and limits").
WORKERS = 2


class Routes:
    """The application's state: one workspace, its registry, the pages built once per index."""

    def __init__(self, ctx: Workspace, door: Door) -> None:
        self.ctx = ctx
        ctx.index  # noqa: B018 - read before anything is served, so a strict refusal comes first
        self.registry = ctx.registry
        self.door = door
        self.mcp = McpEndpoint(ctx, door)
        self.api = pages.api_index(self.registry)
        self.command_lock = anyio.Lock()
        self.workers = anyio.CapacityLimiter(WORKERS)

    def refresh(self) -> None:
        """Re-index if the layer changed; a failed re-index keeps the last and `/` says stale."""
        was_stale = self.ctx.stale
        if self.ctx.refresh() or self.ctx.stale != was_stale:
            self.__dict__.pop("info", None)

    @functools.cached_property
    def info(self) -> pages.ServerIndex:
        """The JSON index of `/`, built on first ask after a change (it runs `git status`)."""
        return pages.server_index(self.ctx.index, stale=self.ctx.stale)

    async def run(self, cap: Capability, raw: dict[str, Any]) -> BaseModel:
        call = functools.partial(self.ctx.executor.answer, cap, raw)
        async with self.command_lock if cap.kind == "command" else contextlib.nullcontext():
            return await anyio.to_thread.run_sync(call, limiter=self.workers)

    def table(self) -> list[tuple[str, str, Endpoint]]:
        """Every route served beside MCP: the pages, then one per capability HTTP exposure."""
        page = swagger_file(
            pages.swagger_html,
            "text/html",
            {**pages.HTML_HEADERS, "Content-Security-Policy": pages.SWAGGER_CSP},
        )
        served: list[tuple[str, str, Endpoint]] = [
            ("/", "GET", self.home),
            ("/api/v1", "GET", self.api_index),
            ("/api/v1/", "GET", self.api_index),
            ("/openapi.json", "GET", self.openapi),
            ("/swagger", "GET", page),
            ("/swagger/", "GET", page),
        ]
        for name, media in pages.SWAGGER_ASSETS.items():
            read = functools.partial(pages.swagger_asset, name)
            nosniff = {"X-Content-Type-Options": "nosniff"}
            served.append((f"/swagger/{name}", "GET", swagger_file(read, media, nosniff)))
        for cap in self.registry:
            if cap.http is not None:
                method, path = cap.http
                served.append((path, method, self.endpoint(cap)))
        return served

    async def home(self, request: Request) -> Response:
        if _wants_html(request.headers.get("accept", "")):
            return Response(
                clean(pages.home_html(self.info, self.api)),
                media_type="text/html",
                headers={**pages.HTML_HEADERS, "Content-Security-Policy": pages.HOME_CSP},
            )
        return model_response(self.info)

    async def api_index(self, _: Request) -> Response:
        return model_response(self.api)

    @functools.cached_property
    def document(self) -> str:
        """The OpenAPI document, built on first request and kept; a failed build is not kept."""
        return (
            dumps_pretty(build_openapi(self.registry, lambda c: c.benchmark_cases(self.ctx))) + "\n"
        )

    async def openapi(self, _: Request) -> Response:
        try:
            return Response(self.document, media_type="application/json")
        except OpenApiError as exc:
            log.error("the OpenAPI document did not build: %s", exc)
            return error_response(500, "internal", f"the OpenAPI document did not build: {exc}")

    def endpoint(self, cap: Capability) -> Endpoint:
        """The generic dispatch of docs/http.md for one capability route."""
        schema = canonical_schema(cap.input, "validation")
        method = cap.http[0] if cap.http else "GET"

        async def dispatch(request: Request) -> Response:
            try:
                if cap.kind == "command":
                    self.door.check_write(client_of(request.scope), request.headers, cap.id)
                if method == "GET":
                    raw = query_input(request.query_params.multi_items(), schema)
                else:
                    raw = body_input(await request.body())
                answer = await self.run(cap, raw)
            except Exception as exc:
                mapped = from_exception(exc)
                if mapped.status >= 500:
                    log.error(
                        "%s: %s", cap.id, mapped.message, exc_info=not isinstance(exc, HttpError)
                    )
                return refusal_response(mapped)
            return model_response(answer)

        dispatch.__name__ = f"capability_{cap.id}"
        return dispatch


def swagger_file(read: Callable[[], str | bytes], media: str, headers: dict[str, str]) -> Endpoint:
    """A file of Swagger UI; a 500 naming the package when the files are not installed."""

    async def served(_: Request) -> Response:
        try:
            body = read()
        except pages.SwaggerAssetsMissing as exc:
            return error_response(500, "internal", str(exc))
        return Response(body, media_type=media, headers=headers)

    return served


def create_app(
    ctx: Workspace,
    *,
    door: Door = CLOSED,
    mcp_only: bool = False,
) -> Guard:
    """The whole application (`mcp_only`: `/mcp` alone); the registry and index are built once."""
    routes = Routes(ctx, door)
    api = FastAPI(openapi_url=None, docs_url=None, redoc_url=None, redirect_slashes=False)

    async def routing_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        method, path = request.method, request.url.path
        if exc.status_code == 405 or (
            exc.status_code == 404 and path.startswith("/api/v1/") and method not in ("GET", "POST")
        ):
            return method_not_allowed(method, path, (exc.headers or {}).get("Allow"))
        if mcp_only:
            message = f"nothing is served at {path}; this server serves {MCP_PATH} only"
        elif path.startswith("/api/v1/"):
            message = f"no route {method} {path}; the routes are listed at /openapi.json"
        else:
            message = f"nothing is served at {path}; / and /api/v1 list what is served"
        return error_response(404, "not_found", message)

    api.add_exception_handler(StarletteHTTPException, routing_error)
    for path, method, endpoint in [] if mcp_only else routes.table():
        api.add_api_route(path, endpoint, methods=[method], include_in_schema=False)
    top = ctx.index.git.toplevel
    return Guard(
        api,
        door=door,
        before_each=routes.refresh,
        hidden=(ctx.index.root, *([Path(top)] if top else [])),
        mcp=routes.mcp,
    )
