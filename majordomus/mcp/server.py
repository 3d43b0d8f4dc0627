"""The stdio MCP server: newline-delimited JSON-RPC 2.0 over stdin/stdout.

The one protocol module: framing, message rules, the methods and their error codes live here
and nowhere else; no MCP library. Tools and resources are projections of the registry
(`majordomus.mcp.listing`), prompts and completions of the index (`majordomus.mcp.prompts`);
every tool call goes through the one executor.

Owns stdout for the whole session: nothing but one compact JSON value per line ever reaches
it (a stray `print` lands on stderr). Logs go to stderr. Before each input line the context
checks whether the layer changed and re-indexes if it did; the lists are then computed
again, `notifications/*/list_changed` go out for those that moved and
`notifications/resources/updated` for each subscribed resource whose content moved, before
the answer. Every list method pages by `PAGE_SIZE` with an opaque cursor. Every result and
every error message passes `majordomus.egress` (redacted, controls escaped); a name the
client sent is quoted as a short excerpt.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import sys
import threading
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from majordomus import __version__
from majordomus.bounded_json import IntegerTooLarge, LargeInt, loads
from majordomus.capabilities.registry import RegistryBuildFailed
from majordomus.egress import clean, clean_json, clean_line, excerpt
from majordomus.errors import CapabilityError, Fatal, Internal, NotFound
from majordomus.limits import MAX_INT_DIGITS
from majordomus.pipes import silence

if TYPE_CHECKING:
    from majordomus.capabilities.context import Context

log = logging.getLogger("majordomus")

#: Versions echoed when a client asks for them; the last is what the official SDK client offers.
PROTOCOL_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05", "2025-11-25")
DEFAULT_PROTOCOL_VERSION = "2025-06-18"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002

EXIT_OK = 0
EXIT_IO = 13

#: Seconds between the checks an idle session makes, so a change is announced unasked.
IDLE_CHECK_SECONDS = 2.0
#: Entries per page of every list method; `nextCursor` is present while more remain.
PAGE_SIZE = 100
#: The one resource template: every object of the layer by kind and identity.
TEMPLATE = "majordomus://{kind}/{identity}"

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
    }
]
#: The lists a re-index may change, with the notification announcing each.
_LISTS = {
    "tools": "notifications/tools/list_changed",
    "resources": "notifications/resources/list_changed",
    "prompts": "notifications/prompts/list_changed",
}
_SERVER_INFO = {"name": "majordomus", "title": "Majordomus", "version": __version__}


class RpcError(Exception):
    """A JSON-RPC error answer: `code` and the message the client sees."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class OutputClosed(Exception):
    """The client closed its read end of our stdout: the session is over."""


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _error(id_: Any, code: int, message: str) -> str:
    """An error answer; its message is redacted and its controls escaped, whatever the code."""
    return (
        '{"jsonrpc":"2.0","id":'
        + _dump(id_)
        + ',"error":{"code":'
        + str(code)
        + ',"message":'
        + _dump(clean_line(message))
        + "}}"
    )


def _clean_dump(value: Any) -> str:
    """A result as it may leave the process: compact JSON with every secret redacted."""
    return clean_json(_dump(value), _dump)


def _success(id_: Any, result_json: str) -> str:
    return '{"jsonrpc":"2.0","id":' + _dump(id_) + ',"result":' + result_json + "}"


def _params(message: dict[str, Any]) -> dict[str, Any]:
    params = message.get("params")
    return params if isinstance(params, dict) else {}


class Server:
    """One session's dispatcher over a context whose index and registry it keeps current;
    listings are computed on first request and then served from memory until a re-index."""

    def __init__(self, ctx: Context, *, read_only: bool) -> None:
        self.ctx = ctx
        self.read_only = read_only
        self.initialized = False
        ctx.registry  # noqa: B018 - built before anything is served
        self.instructions = self._instructions()
        self._lists: dict[str, list[dict[str, Any]]] = {}
        self._pages: dict[tuple[str, int], str] = {}
        self._subscribed: dict[str, str | None] = {}
        self._methods: dict[str, Callable[[dict[str, Any]], str]] = {
            "initialize": self._initialize,
            "ping": lambda _params: "{}",
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

    @property
    def registry(self) -> Any:
        return self.ctx.registry

    # -- start-up facts ------------------------------------------------------------------------

    def _instructions(self) -> str:
        index = self.ctx.index
        writers = self.registry.writer_tools()
        if self.read_only:
            writes = "Started with --read-only: nothing writes the repository or any file."
        elif writers:
            named = ", ".join(writers)
            writes = f"Tools that write the repository: {named}; every other tool only reads."
        else:
            writes = "No tool writes the repository; every tool only reads."
        return (
            f"Majordomus serves a view of the .ai/ layer of the repository at {index.root}: "
            f"{len(index.objects)} objects, index state {index.state}. "
            "Resources are majordomus://<kind>/<identity>; majordomus://repository carries the "
            "repository, its git state and every diagnostic of the index. "
            "The layer's prompts are MCP prompts, and the devcontext prompt compiles the "
            "context of an issue, a milestone or an intent. "
            f"{writes}"
        )

    def _tool(self, name: str) -> Any:
        cap = self.registry.by_tool.get(name)
        if cap is None or (self.read_only and cap.kind == "command"):
            return None
        return cap

    # -- live serving --------------------------------------------------------------------------

    def refresh(self) -> list[str]:
        """Re-index if the layer changed; the notifications that announce what moved."""
        if not self.ctx.refresh():
            return []
        before = self._lists
        self._lists = {}
        self._pages = {}
        self.instructions = self._instructions()
        out = [
            _notification(method)
            for name, method in _LISTS.items()
            if name in before and self._list(name) != before[name]
        ]
        for uri, seen in self._subscribed.items():
            now = self._content(uri)
            if now != seen:
                self._subscribed[uri] = now
                out.append(_notification("notifications/resources/updated", {"uri": uri}))
        return out

    def _content(self, uri: str) -> str | None:
        """A resource's text as `resources/read` gives it, or None when it is not served."""
        from majordomus.capabilities.core import resolve_resource

        try:
            return resolve_resource(self.ctx, uri).content
        except CapabilityError:
            return None

    def _subscribe(self, params: dict[str, Any]) -> str:
        uri = self._known_uri(params)
        self._subscribed[uri] = self._content(uri)
        return "{}"

    def _unsubscribe(self, params: dict[str, Any]) -> str:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "params.uri is required")
        self._subscribed.pop(uri, None)
        return "{}"

    def _known_uri(self, params: dict[str, Any]) -> str:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "params.uri is required")
        if uri not in self.ctx.index.by_uri and uri not in self.registry.by_resource:
            raise RpcError(RESOURCE_NOT_FOUND, f"resource not found: {excerpt(uri)}")
        return uri

    # -- methods -------------------------------------------------------------------------------

    def _initialize(self, params: dict[str, Any]) -> str:
        asked = params.get("protocolVersion")
        version = asked if asked in PROTOCOL_VERSIONS else DEFAULT_PROTOCOL_VERSION
        client = params.get("clientInfo")
        if isinstance(client, dict):
            name, release = client.get("name"), client.get("version")
            log.info("client %s %s, protocol %s", name, release, version)
        return _clean_dump(
            {
                "protocolVersion": version,
                "capabilities": _CAPABILITIES,
                "serverInfo": _SERVER_INFO,
                "instructions": self.instructions,
            }
        )

    def _verified(self) -> None:
        """Every declared type resolves before anything is listed or run: `initialize` needs
        only what is declared, so the domain is imported after the handshake, not before it."""
        try:
            self.registry.verify()
        except RegistryBuildFailed as failed:
            raise Internal(f"the capability registry did not build: {failed}") from None

    def _list(self, name: str) -> list[dict[str, Any]]:
        """One list method's entries, computed once per index."""
        entries = self._lists.get(name)
        if entries is None:
            if name == "resourceTemplates":
                entries = _TEMPLATES
            else:
                from majordomus.mcp.listing import resource_entries, tool_entries
                from majordomus.mcp.prompts import prompt_entries

                self._verified()
                if name == "tools":
                    entries = tool_entries(self.registry, self.read_only)
                elif name == "resources":
                    entries = resource_entries(self.registry)
                else:
                    entries = prompt_entries(self.ctx)
            self._lists[name] = entries
        return entries

    def _page(self, name: str, params: dict[str, Any]) -> str:
        """One page of a list: `PAGE_SIZE` entries from the cursor, `nextCursor` if more."""
        offset = _offset(name, params.get("cursor"))
        page = self._pages.get((name, offset))
        if page is None:
            entries = self._list(name)
            result: dict[str, Any] = {name: entries[offset : offset + PAGE_SIZE]}
            if offset + PAGE_SIZE < len(entries):
                result["nextCursor"] = _cursor(name, offset + PAGE_SIZE)
            page = self._pages[(name, offset)] = _clean_dump(result)
        return page

    def _resources_read(self, params: dict[str, Any]) -> str:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "params.uri is required")
        if uri not in self.ctx.index.by_uri and uri not in self.registry.by_resource:
            raise RpcError(RESOURCE_NOT_FOUND, f"resource not found: {uri}")
        from majordomus.capabilities.core import resolve_resource

        self._verified()
        try:
            view = resolve_resource(self.ctx, uri)
        except NotFound:
            raise RpcError(RESOURCE_NOT_FOUND, f"resource not found: {uri}") from None
        except Internal:
            raise
        except CapabilityError as exc:
            raise RpcError(INVALID_PARAMS, exc.message) from None
        content = {"uri": uri, "mimeType": view.media_type, "text": view.content}
        return _clean_dump({"contents": [content]})

    def _prompts_get(self, params: dict[str, Any]) -> str:
        from majordomus.mcp.prompts import PromptRefused, get_prompt

        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "params.name is required")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict) or not all(
            isinstance(v, str) for v in arguments.values()
        ):
            raise RpcError(INVALID_PARAMS, "params.arguments must map names to strings")
        self._verified()
        try:
            return _clean_dump(get_prompt(self.ctx, name, arguments))
        except PromptRefused as exc:
            raise RpcError(INVALID_PARAMS, excerpt(str(exc), 300)) from None

    def _complete(self, params: dict[str, Any]) -> str:
        from majordomus.mcp.prompts import MAX_COMPLETIONS, completion_values

        ref, argument = params.get("ref"), params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            raise RpcError(INVALID_PARAMS, "params.ref and params.argument are required")
        name, value = argument.get("name"), argument.get("value", "")
        if not isinstance(name, str) or not isinstance(value, str):
            raise RpcError(INVALID_PARAMS, "params.argument needs a string name and value")
        kind = ref.get("type")
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
        return _clean_dump({"completion": completion})

    def _tools_call(self, params: dict[str, Any]) -> str:
        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "params.name is required")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "params.arguments must be an object")
        cap = self._tool(name)
        if cap is None:
            raise RpcError(INVALID_PARAMS, f"unknown tool: {excerpt(name)}")
        self._verified()
        try:
            output = self.ctx.executor.run(cap, arguments)
        except Internal:
            raise
        except CapabilityError as exc:
            log.debug("tool %s refused: %s", name, exc.display)
            return _dump(
                {
                    "content": [{"type": "text", "text": clean(exc.display)}],
                    "isError": True,
                    "_meta": {"majordomus": {"error": {"code": exc.code}}},
                }
            )
        text = _clean_dump(output)
        return (
            '{"content":[{"type":"text","text":'
            + _dump(text)
            + '}],"structuredContent":'
            + text
            + ',"isError":false}'
        )

    # -- message handling ----------------------------------------------------------------------

    def handle_line(self, raw: bytes) -> str | None:
        """The one output line a raw input line produces, or None (blank, notifications)."""
        if not raw.strip():
            return None
        handle = self.handle_message
        try:
            value = loads(raw)
        except UnicodeDecodeError:
            return _error(None, PARSE_ERROR, "parse error: input is not UTF-8")
        except IntegerTooLarge:
            # Read again, keeping the long integers, so each message that holds one is
            # answered as invalid params under its own id and the others are served.
            try:
                value = loads(raw, keep_large_ints=True)
            except ValueError as exc:
                return _error(None, PARSE_ERROR, f"parse error: {exc}")
            handle = self._message_with_large_ints
        except ValueError as exc:
            return _error(None, PARSE_ERROR, f"parse error: {exc}")
        if isinstance(value, list):
            if not value:
                return _error(None, INVALID_REQUEST, "empty batch")
            answers = [a for a in map(handle, value) if a is not None]
            return "[" + ",".join(answers) + "]" if answers else None
        return handle(value)

    def _message_with_large_ints(self, message: Any) -> str | None:
        """A message holding an integer longer than any parameter takes is invalid params
        (a notification is still never answered); one without is handled as usual."""
        if not isinstance(message, dict) or not _holds_large_int(message):
            return self.handle_message(message)
        id_ = message.get("id")
        if id_ is None and isinstance(message.get("method"), str):
            return None
        return _error(
            None if isinstance(id_, LargeInt) else id_,
            INVALID_PARAMS,
            str(IntegerTooLarge(MAX_INT_DIGITS)),
        )

    def handle_message(self, message: Any) -> str | None:
        """The answer to one message (a batch element or a whole line), or None."""
        if not isinstance(message, dict):
            return _error(None, INVALID_REQUEST, "a message is a JSON object")
        method = message.get("method")
        id_ = message.get("id")
        if not isinstance(method, str):
            if id_ is not None:
                return _error(id_, INVALID_REQUEST, "missing method")
            return None
        if id_ is None:
            self._notification(method)
            return None
        log.debug("request method=%s", method)
        handler = self._methods.get(method)
        if handler is None:
            return _error(id_, METHOD_NOT_FOUND, f"method not found: {excerpt(method)}")
        try:
            return _success(id_, handler(_params(message)))
        except RpcError as exc:
            return _error(id_, exc.code, exc.message)
        except (CapabilityError, Fatal) as exc:
            text = exc.display if isinstance(exc, CapabilityError) else f"internal: {exc.message}"
            log.error("%s failed: %s", method, text)
            return _error(id_, INTERNAL_ERROR, text)
        except Exception as exc:
            log.error("%s failed: %s: %s", method, type(exc).__name__, exc, exc_info=True)
            return _error(id_, INTERNAL_ERROR, f"internal: {type(exc).__name__}: {exc}")

    def _notification(self, method: str) -> None:
        if method == "notifications/initialized":
            self.initialized = True
            log.debug("client initialised")
        else:
            log.debug("notification ignored method=%s", method)

    # -- the loop ------------------------------------------------------------------------------

    def run(self, inp: IO[bytes], out: IO[bytes]) -> int:
        """Serve until EOF (exit 0), a closed output (exit 0) or another I/O failure (13).

        While the client is quiet, a watcher thread makes the same check every
        `IDLE_CHECK_SECONDS` once the session is initialised, so a change is announced
        without a request; one lock keeps its work and the answers apart."""
        lock = threading.Lock()
        stop = threading.Event()
        watcher = threading.Thread(
            target=self._watch, args=(out, lock, stop), name="majordomus-watch", daemon=True
        )
        watcher.start()
        try:
            for raw in inp:
                with lock:
                    for line in self._answer(raw):
                        _write(out, line)
        except OutputClosed:
            log.info("the client closed the output; stopping")
            stop.set()
            with lock:
                silence(out)
            return EXIT_OK
        except OSError as exc:
            log.error("I/O failure: %s", exc)
            return EXIT_IO
        finally:
            stop.set()
        log.info("input ended; stopping")
        return EXIT_OK

    def _watch(self, out: IO[bytes], lock: threading.Lock, stop: threading.Event) -> None:
        while not stop.wait(IDLE_CHECK_SECONDS):
            if not self.initialized:
                continue
            with lock:
                if stop.is_set():
                    return
                try:
                    for line in self.refresh():
                        _write(out, line)
                except OutputClosed:
                    return
                except Exception as exc:
                    log.error("the idle check failed: %s: %s", type(exc).__name__, exc)
                    return

    def _answer(self, raw: bytes) -> list[str]:
        """The notifications a re-index calls for, then `handle_line`'s answer, behind a last
        guard: no input line may end the session."""
        lines: list[str] = []
        if raw.strip():
            try:
                lines = self.refresh()
            except Exception as exc:
                log.error("re-indexing failed: %s: %s", type(exc).__name__, exc, exc_info=True)
        try:
            answer = self.handle_line(raw)
        except Exception as exc:
            log.error("unexpected failure: %s: %s", type(exc).__name__, exc, exc_info=True)
            answer = _error(None, INTERNAL_ERROR, "internal: the message could not be handled")
        return lines if answer is None else [*lines, answer]


def _notification(method: str, params: dict[str, Any] | None = None) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return _clean_dump(message)


def _cursor(name: str, offset: int) -> str:
    """An opaque cursor: which list and where the next page starts."""
    return base64.urlsafe_b64encode(f"{name}:{offset}".encode()).decode().rstrip("=")


def _offset(name: str, cursor: Any) -> int:
    """Where a page starts; a cursor this server did not give for this list is -32602."""
    if cursor is None:
        return 0
    if isinstance(cursor, str) and len(cursor) <= 64:
        try:
            text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        except (binascii.Error, UnicodeDecodeError, ValueError):
            text = ""
        listed, _, start = text.partition(":")
        if listed == name and start.isdigit() and start == str(int(start)):
            return int(start)
    raise RpcError(INVALID_PARAMS, "invalid cursor: pass a nextCursor this list gave")


def _holds_large_int(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, LargeInt):
            return True
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _write(out: IO[bytes], line: str) -> None:
    # A lone surrogate (from a `\ud800` escape in the input) is not UTF-8: send it escaped.
    data = line.encode("utf-8", "backslashreplace") + b"\n"
    try:
        out.write(data)
        out.flush()
    except BrokenPipeError:
        raise OutputClosed from None


def serve(ctx: Context, *, read_only: bool) -> int:
    """`majordomus mcp`: build the index and the registry once, then serve stdio until EOF.

    A strict refusal or a registry that fails to build raises before anything is served, so
    stdout stays empty and the CLI maps the error to its exit code.
    """
    protocol_out = sys.stdout.buffer
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        server = Server(ctx, read_only=read_only)
        return server.run(sys.stdin.buffer, protocol_out)
    finally:
        sys.stdout = saved
