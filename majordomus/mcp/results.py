"""The results the MCP server answers with, as JSON values: tool results and list pages.

A tool's answer is its model's JSON as structured content plus the same content as JSON text
(clients that read only `content` get it all); both are redacted. Every list method pages by
`PAGE_SIZE` with an opaque cursor naming the list and where the next page starts.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from pydantic import BaseModel

from majordomus.egress import clean
from majordomus.errors import CapabilityError
from majordomus.mcp.framing import INVALID_PARAMS, RpcError, redacted

#: Entries per page of every list method; `nextCursor` is present while more remain.
PAGE_SIZE = 100


def tool_result(answer: BaseModel) -> dict[str, Any]:
    """A tool's answer: its redacted JSON as text content and as structured content."""
    text, structured = redacted(answer.model_dump(mode="json", by_alias=True))
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": structured,
        "isError": False,
    }


def tool_refusal(exc: CapabilityError) -> dict[str, Any]:
    """A refused call is a result, not a protocol error: the model reads why and adapts."""
    return {
        "content": [{"type": "text", "text": clean(exc.display)}],
        "isError": True,
        "_meta": {"majordomus": {"error": {"code": exc.code}}},
    }


def page(name: str, entries: list[Any], offset: int) -> dict[str, Any]:
    """`PAGE_SIZE` entries of a list from `offset`, with `nextCursor` if more remain."""
    result: dict[str, Any] = {name: entries[offset : offset + PAGE_SIZE]}
    if offset + PAGE_SIZE < len(entries):
        result["nextCursor"] = cursor(name, offset + PAGE_SIZE)
    return result


def cursor(name: str, offset: int) -> str:
    """An opaque cursor: which list and where the next page starts."""
    return base64.urlsafe_b64encode(f"{name}:{offset}".encode()).decode().rstrip("=")


def offset_of(name: str, given: Any) -> int:
    """Where a page starts; a cursor this server did not give for this list is -32602."""
    if given is None:
        return 0
    if isinstance(given, str) and len(given) <= 64:
        try:
            text = base64.urlsafe_b64decode(given + "=" * (-len(given) % 4)).decode()
        except (binascii.Error, UnicodeDecodeError, ValueError):
            text = ""
        listed, _, start = text.partition(":")
        if listed == name and start.isdigit() and start == str(int(start)):
            return int(start)
    raise RpcError(INVALID_PARAMS, "invalid cursor: pass a nextCursor this list gave")
