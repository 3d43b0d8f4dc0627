"""The MCP server's dispatcher: the methods, their parameters, results and error codes;
stdio runs it here, and Streamable HTTP through `majordomus.http.mcp`."""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Any

from majordomus.capabilities.builtin import TOOLS, declared
from majordomus.capabilities.core import RECORD_URI, resolve_resource
from majordomus.capabilities.paging import cursor, offset_in
from majordomus.capabilities.registry import Capability
from majordomus.egress import clean, clean_json, excerpt
from majordomus.errors import CapabilityError, Internal, MissingArtifact, NotFound
from majordomus.mcp.jsonrpc import (
    INVALID_PARAMS,
    RESOURCE_NOT_FOUND,
    Dispatcher,
    RpcError,
    clean_value,
    notification,
)
from majordomus.mcp.listing import (
    COMPILE,
    SCHEMA_PREFIX,
    resource_entries,
    schema_resources,
    served_tools,
    writer_tools,
)
from majordomus.mcp.session import run
from majordomus.version import __version__
from majordomus.wire import dumps_compact, dumps_pretty

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.workspace import Workspace


#: Versions echoed when a client asks for them; the last is what the official SDK client offers.
PROTOCOL_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05", "2025-11-25")
DEFAULT_PROTOCOL_VERSION = "2025-06-18"

#: The resource templates: a layer object by kind and identity, a record kind's schema.
TEMPLATE = "majordomus://{kind}/{identity}"
SCHEMA_TEMPLATE = SCHEMA_PREFIX + "{kind}"

_CAPABILITIES = {
    "resources": {"subscribe": True, "listChanged": True},
    "tools": {"listChanged": True},
    "prompts": {"listChanged": True},
    "completions": {},
}
_TEMPLATES = [
    {
        "uriTemplate": TEMPLATE,
        "name": "object",
        "title": "A layer object",
        "description": "One object of the .ai/ layer by kind and identity; completion/complete "
        "suggests both.",
        "mimeType": "text/markdown",
    },
    {
        "uriTemplate": SCHEMA_TEMPLATE,
        "name": "schema",
        "title": "A record kind's JSON Schema",
        "description": "The fields of one kind of majordomus_reasoning_record's record.",
        "mimeType": "application/json",
    },
    {
        "uriTemplate": RECORD_URI + "{id}",
        "name": "reasoning-record",
        "title": "A reasoning record",
        "description": "One record of the reasoning ledger by id, as stored; majordomus_recall "
        "finds them.",
        "mimeType": "application/json",
    },
]
#: The lists a re-index may change; `notifications/<list>/list_changed` announces each.
_LISTS = ("tools", "resources", "prompts")
_SERVER_INFO = {"name": "majordomus", "title": "Majordomus", "version": __version__}


#: Entries per page of every list method; `nextCursor` is present while more remain.
PAGE_SIZE = 100
#: The bytes of rows a page of a list tool or of `resources/list` holds: about 2,000 tokens
#: once escaped into the JSON-RPC line.
PAGE_BYTES = 7_200


def text_result(text: str, *, is_json: bool = False) -> dict[str, Any]:
    """A tool's answer as one text block, redacted as the text it is (a secret spanning
    lines is found in the text, not in its escaped form inside the JSON-RPC line)."""
    cleaned = clean_json(text, dumps_compact) if is_json else clean(text)
    return {"content": [{"type": "text", "text": cleaned}], "isError": False}


def tool_result(answer: BaseModel) -> dict[str, Any]:
    """A tool's answer: its model's compact JSON as the one text block."""
    value = answer.model_dump(mode="json", by_alias=True)
    return text_result(dumps_compact(value), is_json=True)


def tool_refusal(exc: CapabilityError) -> dict[str, Any]:
    """A refused call is a result, not a protocol error: the model reads why and adapts."""
    return {
        "content": [{"type": "text", "text": clean(exc.display)}],
        "isError": True,
        "_meta": {"majordomus": {"error": {"code": exc.code}}},
    }


def page(name: str, entries: list[Any], offset: int, size: int | None = None) -> dict[str, Any]:
    """`PAGE_SIZE` entries from `offset`, at most `size` bytes (one at least), and `nextCursor`."""
    stop = min(len(entries), offset + PAGE_SIZE)
    if size is not None:
        spent = 0
        for at in range(offset, stop):
            spent += len(dumps_compact(entries[at]))
            if spent > size and at > offset:
                stop = at
                break
    result: dict[str, Any] = {name: entries[offset:stop]}
    if stop < len(entries):
        result["nextCursor"] = cursor(name, stop)
    return result


def offset_of(name: str, given: Any) -> int:
    """Where a page starts; a cursor this server did not give for this list is -32602."""
    start = 0 if given is None else offset_in(given, name)
    if start is None:
        raise RpcError(INVALID_PARAMS, "invalid cursor: pass a nextCursor this list gave")
    return start


class Server(Dispatcher):
    """One session's dispatcher over a workspace; listings are kept until a re-index."""

    #: What `initialize` says this server does.
    capabilities: dict[str, Any] = _CAPABILITIES

    def __init__(self, ctx: Workspace, *, read_only: bool) -> None:
        self.ctx = ctx
        self.read_only = read_only
        # no `git status` at start: it stats every tracked file, and an answer that shows the
        # working tree asks for it when first read
        ctx.index_without_status()
        self.instructions = self._instructions()
        self._lists: dict[str, list[dict[str, Any]]] = {}
        self._subscribed: dict[str, str | None] = {}
        super().__init__(
            {
                "initialize": self._initialize,
                "ping": lambda _params: {},
                "resources/list": lambda params: self._page("resources", params),
                "resources/templates/list": lambda params: self._page("resourceTemplates", params),
                "resources/read": self._resources_read,
                "resources/subscribe": self._subscribe,
                "resources/unsubscribe": self._unsubscribe,
                "prompts/list": lambda params: self._page("prompts", params),
                "prompts/get": self._prompts_get,
                "completion/complete": self._complete,
                "tools/list": lambda params: self._page("tools", params),
                "tools/call": self._tools_call,
            }
        )

    def _instructions(self) -> str:
        index = self.ctx.index
        if self.read_only:
            writes = "Started with --read-only: nothing writes the repository or any file."
        else:  # the shipped tools always hold majordomus_reasoning_record
            named = ", ".join(writer_tools())
            writes = f"Tools that write the repository: {named}; every other tool only reads."
        return (
            f"Majordomus serves a view of the .ai/ layer of the repository at {index.root}: "
            f"{len(index.objects)} objects, index state {index.state}. "
            "Resources are majordomus://<kind>/<identity>; majordomus://repository carries the "
            "repository, its git state and every diagnostic of the index; "
            "majordomus://schema/<kind> is the JSON Schema of a kind of reasoning record. "
            "List tools answer a page of about 2,000 tokens and say `next_cursor` when more "
            "remain. "
            "The layer's prompts are MCP prompts, and the devcontext prompt compiles the "
            "context of an issue, a milestone or an intent. "
            f"{writes}"
        )

    def _tool(self, name: str) -> Capability | None:
        """The tool's capability, importing only the module that declares it."""
        capability_id = TOOLS.get(name)
        if capability_id is None:
            return None
        cap = declared(capability_id)
        return None if self.read_only and cap.kind == "command" else cap

    def refresh(self) -> list[dict[str, Any]]:
        """Re-index if the layer changed; the notifications that announce what moved."""
        if not self.ctx.refresh():
            return []
        before = self._lists
        self._lists = {}
        self.instructions = self._instructions()
        out = [
            notification(f"notifications/{name}/list_changed")
            for name in _LISTS
            if name in before and self._list(name) != before[name]
        ]
        for uri, seen in self._subscribed.items():
            now = self._content(uri)
            if now != seen:
                self._subscribed[uri] = now
                out.append(notification("notifications/resources/updated", {"uri": uri}))
        return out

    def _content(self, uri: str) -> str | None:
        """A resource's text as `resources/read` gives it, or None when it is not served."""
        try:
            return resolve_resource(self.ctx, uri).content
        except CapabilityError:
            return None

    def _subscribe(self, params: dict[str, Any]) -> dict[str, Any]:
        uri = _uri(params)
        if not self._served(uri):
            raise RpcError(RESOURCE_NOT_FOUND, f"resource not found: {excerpt(uri)}")
        self._subscribed[uri] = self._content(uri)
        return {}

    def _unsubscribe(self, params: dict[str, Any]) -> dict[str, Any]:
        self._subscribed.pop(_uri(params), None)
        return {}

    def _served(self, uri: str) -> bool:
        return (
            uri in self.ctx.index.by_uri
            or uri in self.ctx.registry.by_resource
            or uri in schema_resources(self.ctx.registry)
            or uri.startswith(RECORD_URI)
        )

    def _initialize(self, params: dict[str, Any]) -> Any:
        result = initialize_result(params, self.capabilities, self.instructions)
        client = params.get("clientInfo")
        if isinstance(client, dict):
            name, release = client.get("name"), client.get("version")
            log.info("client %s %s, protocol %s", name, release, result["protocolVersion"])
        return result

    def _list(self, name: str) -> list[dict[str, Any]]:
        """One list method's entries, computed once per index."""
        entries = self._lists.get(name)
        if entries is None:
            if name == "resourceTemplates":
                entries = _TEMPLATES
            elif name == "tools":
                entries = served_tools(self.read_only)
            elif name == "resources":
                entries = resource_entries(self.ctx.registry, self.ctx.index)
            else:
                from majordomus.mcp.prompts import prompt_entries

                entries = prompt_entries(self.ctx)
            self._lists[name] = entries
        return entries

    def _page(self, name: str, params: dict[str, Any]) -> dict[str, Any]:
        """One page of a list, redacted; resources by size (the layer may hold thousands)."""
        offset = offset_of(name, params.get("cursor"))
        size = PAGE_BYTES if name == "resources" else None
        return clean_value(page(name, self._list(name), offset, size))  # type: ignore[no-any-return]

    def _resources_read(self, params: dict[str, Any]) -> Any:
        uri = _uri(params)
        if not self._served(uri):
            from majordomus.layer.shortid import why_absent

            unknown = f"resource not found: {uri}"
            raise RpcError(RESOURCE_NOT_FOUND, why_absent(self.ctx.index, uri, unknown))
        schema = schema_resources(self.ctx.registry).get(uri)
        if schema is not None:
            content = {"uri": uri, "mimeType": "application/json", "text": dumps_pretty(schema)}
            return {"contents": [content]}
        try:
            view = resolve_resource(self.ctx, uri)
        except NotFound:
            raise RpcError(RESOURCE_NOT_FOUND, f"resource not found: {uri}") from None
        except Internal:
            raise
        except CapabilityError as exc:
            raise RpcError(INVALID_PARAMS, exc.message) from None
        content = {"uri": uri, "mimeType": view.media_type, "text": view.content}
        return clean_value({"contents": [content]})

    def _prompts_get(self, params: dict[str, Any]) -> Any:
        from majordomus.mcp.prompts import PromptRefused, get_prompt

        name, arguments = _call(params, "params.arguments must map names to strings")
        if not all(isinstance(v, str) for v in arguments.values()):
            raise RpcError(INVALID_PARAMS, "params.arguments must map names to strings")
        try:
            return clean_value(get_prompt(self.ctx, name, arguments))
        except PromptRefused as exc:
            raise RpcError(INVALID_PARAMS, excerpt(str(exc), 300)) from None

    def _complete(self, params: dict[str, Any]) -> Any:
        from majordomus.mcp.prompts import MAX_COMPLETIONS, completion_values

        ref, argument = params.get("ref"), params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            raise RpcError(INVALID_PARAMS, "params.ref and params.argument are required")
        name, value = argument.get("name"), argument.get("value", "")
        if not isinstance(name, str) or not isinstance(value, str):
            raise RpcError(INVALID_PARAMS, "params.argument needs a string name and value")
        kind = ref.get("type")
        if kind == "ref/resource" and ref.get("uri") == SCHEMA_TEMPLATE:
            kinds = [u.removeprefix(SCHEMA_PREFIX) for u in schema_resources(self.ctx.registry)]
            values = [k for k in kinds if k.startswith(value)]
            return {"completion": {"values": values, "total": len(values), "hasMore": False}}
        if kind == "ref/resource" and ref.get("uri") != TEMPLATE:
            raise RpcError(INVALID_PARAMS, f"no resource template {excerpt(str(ref.get('uri')))}")
        if kind == "ref/prompt" and ref.get("name") not in {
            p["name"] for p in self._list("prompts")
        }:
            raise RpcError(INVALID_PARAMS, f"unknown prompt: {excerpt(str(ref.get('name')))}")
        if kind not in ("ref/resource", "ref/prompt"):
            raise RpcError(INVALID_PARAMS, "params.ref.type is ref/resource or ref/prompt")
        known = params.get("context", {})
        given = known.get("arguments") if isinstance(known, dict) else None
        context = {
            k: v for k, v in (given or {}).items() if isinstance(k, str) and isinstance(v, str)
        }
        values = completion_values(self.ctx, ref, name, value, context)
        completion = {
            "values": values[:MAX_COMPLETIONS],
            "total": len(values),
            "hasMore": len(values) > MAX_COMPLETIONS,
        }
        return clean_value({"completion": completion})

    def _tools_call(self, params: dict[str, Any]) -> dict[str, Any]:
        name, arguments = _call(params, "params.arguments must be an object")
        cap = self._tool(name)
        if cap is None:
            raise RpcError(INVALID_PARAMS, f"unknown tool: {excerpt(name)}")
        try:
            if cap.id == COMPILE:
                from majordomus.mcp.devcontext import fitted

                return fitted(self.ctx, arguments, text_result)
            answer = self.ctx.executor.answer(cap, arguments, page_bytes=PAGE_BYTES)
        except Internal:
            raise
        except CapabilityError as exc:
            log.debug("tool %s refused: %s", name, exc.display)
            return tool_refusal(exc)
        return tool_result(answer)


def initialize_result(params: dict[str, Any], capabilities: Any, instructions: str) -> Any:
    """What `initialize` answers: the protocol version asked for when spoken here, else ours."""
    asked = params.get("protocolVersion")
    version = asked if asked in PROTOCOL_VERSIONS else DEFAULT_PROTOCOL_VERSION
    return clean_value(
        {
            "protocolVersion": version,
            "capabilities": capabilities,
            "serverInfo": _SERVER_INFO,
            "instructions": instructions,
        }
    )


def _uri(params: dict[str, Any]) -> str:
    uri = params.get("uri")
    if not isinstance(uri, str):
        raise RpcError(INVALID_PARAMS, "params.uri is required")
    return uri


def _call(params: dict[str, Any], not_an_object: str) -> tuple[str, dict[str, Any]]:
    """The name and arguments of a prompt or a tool; absent arguments are none."""
    name, arguments = params.get("name"), params.get("arguments")
    if not isinstance(name, str):
        raise RpcError(INVALID_PARAMS, "params.name is required")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, not_an_object)
    return name, arguments


#: What every call answers, where no repository is served, after the reason the start gave.
FIX = (
    "start the server in the repository (the project folder the client opens), or give it "
    'the repository in its entry: "args": ["mcp", "--repo", "/path/to/repository"]'
)


class Unrooted(Dispatcher):
    """The server started where no repository is (a client that starts it in its own folder,
    or a `--repo` that names none): it completes `initialize` and answers every call with how
    to fix the start, so the client shows the reason instead of a server that disconnected."""

    def __init__(self, tools: list[dict[str, Any]], reason: str) -> None:
        self.fix = f"{reason}; {FIX}"
        log.error("no repository is served: %s", self.fix)
        empty = {
            "resources/list": "resources",
            "resources/templates/list": "resourceTemplates",
            "prompts/list": "prompts",
        }
        methods = {
            method: (
                lambda params, name=name: page(name, [], offset_of(name, params.get("cursor")))
            )
            for method, name in empty.items()
        }
        super().__init__(
            {
                **methods,
                "initialize": lambda params: initialize_result(
                    params, _CAPABILITIES, f"Majordomus serves no repository: {self.fix}."
                ),
                "ping": lambda _params: {},
                "tools/list": lambda params: clean_value(
                    page("tools", tools, offset_of("tools", params.get("cursor")))
                ),
                "tools/call": lambda _params: clean_value(tool_refusal(NotFound(self.fix))),
                "resources/read": self._refuse,
                "prompts/get": self._refuse,
                "completion/complete": self._refuse,
            }
        )

    def _refuse(self, _params: dict[str, Any]) -> Any:
        raise RpcError(RESOURCE_NOT_FOUND, self.fix)


def serve(ctx: Workspace, *, read_only: bool) -> int:
    """`majordomus mcp`: serve stdio until EOF; only the protocol reaches stdout."""
    protocol_out = sys.stdout.buffer
    saved = sys.stdout
    sys.stdout = sys.stderr
    server: Dispatcher
    try:
        server = Server(ctx, read_only=read_only)
    except MissingArtifact as exc:
        server = Unrooted(served_tools(read_only), exc.message)
    try:
        return run(server, sys.stdin.buffer, protocol_out)
    finally:
        sys.stdout = saved
