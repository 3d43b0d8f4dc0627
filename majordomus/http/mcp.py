"""MCP over Streamable HTTP at `/mcp`: each POSTed JSON-RPC message goes to the dispatcher
stdio uses (`majordomus.mcp.server.Server`), and its answer is the body, as JSON."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from majordomus.egress import excerpt
from majordomus.errors import Forbidden
from majordomus.http.door import Door, refusal
from majordomus.http.guards import MCP_PATH
from majordomus.http.middleware import client_of, method_not_allowed
from majordomus.mcp.jsonrpc import INVALID_REQUEST, PARSE_ERROR, Answer, encode, error
from majordomus.mcp.server import PROTOCOL_VERSIONS, Server, tool_refusal

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

#: Whether the request being answered may write: set in the worker thread that answers it.
_WRITER: ContextVar[bool] = ContextVar("writer", default=False)
#: MCP requests answered at once on worker threads: more answer no faster under one interpreter
#: lock. A pool, not anyio's limiter: a worker takes the next message without a turn of the
#: event loop between (benchmarks/RESULTS.md, "MCP over Streamable HTTP").
WORKERS = 4


class StatelessServer(Server):
    """The stdio dispatcher without subscriptions or `listChanged`: no notification reaches HTTP."""

    capabilities: dict[str, Any] = {"resources": {}, "tools": {}, "prompts": {}, "completions": {}}

    def __init__(self, ctx: Workspace) -> None:
        super().__init__(ctx, read_only=False)
        del self.methods["resources/subscribe"], self.methods["resources/unsubscribe"]
        self.generation = ctx.generation

    def answer_post(self, raw: bytes, writer: bool) -> Answer | None:
        """The answer to one POST body; the lists are computed again after a re-index."""
        if self.generation != self.ctx.generation:
            self.generation = self.ctx.generation
            self._lists = {}
            self.instructions = self._instructions()
        _WRITER.set(writer)
        return self.answer(raw)

    def _tools_call(self, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        cap = self._tool(name) if isinstance(name, str) else None
        if cap is not None and cap.kind == "command" and not _WRITER.get():
            return tool_refusal(Forbidden(refusal(f"the tool {name}")))
        return super()._tools_call(params)


class McpEndpoint:
    """`/mcp`, a pure ASGI application behind the guard, which has read the body whole: one
    message (or a batch) POSTed in, its answer out; notifications get 202, other methods 405."""

    def __init__(self, ctx: Workspace, door: Door) -> None:
        self.server = StatelessServer(ctx)
        self.door = door
        self.workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="mcp")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self._respond(scope, receive)
        await response(scope, receive, send)

    async def _respond(self, scope: Scope, receive: Receive) -> Response:
        if scope["method"] != "POST":
            return method_not_allowed(scope["method"], MCP_PATH, "POST")
        headers = Headers(scope=scope)
        version = headers.get("mcp-protocol-version")
        if version is not None and version not in PROTOCOL_VERSIONS:
            return _rejected(
                INVALID_REQUEST,
                f"unsupported MCP-Protocol-Version {excerpt(version)}; this server speaks "
                + ", ".join(sorted(PROTOCOL_VERSIONS)),
            )
        body = (await receive())["body"]
        if not body.strip():
            return _rejected(PARSE_ERROR, "parse error: the body is empty")
        writer = self.door.may_write(client_of(scope), headers)
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(self.workers, self.server.answer_post, body, writer)
        if answer is None:
            return Response(status_code=202)
        unanswerable = isinstance(answer, dict) and "error" in answer and answer["id"] is None
        return Response(
            encode(answer), status_code=400 if unanswerable else 200, media_type="application/json"
        )


def _rejected(code: int, message: str) -> Response:
    """400 with a JSON-RPC error that answers no request (it has no id)."""
    return Response(encode(error(None, code, message)), 400, media_type="application/json")
