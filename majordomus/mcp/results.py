"""The results the MCP server answers with, as JSON values: tool results and list pages."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from majordomus.capabilities.paging import cursor, offset_in
from majordomus.egress import clean, clean_json
from majordomus.errors import CapabilityError
from majordomus.mcp.jsonrpc import INVALID_PARAMS, RpcError
from majordomus.wire import dumps_compact

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
