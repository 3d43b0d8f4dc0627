"""The tools page made at build time: `majordomus generate` writes `tools.json` beside this
module, and the server serves `tools/list` and the process cache's key from it.

Built from the live registry, the page costs every tool's schemas (pydantic and every
module with a tool imported) and one redaction pass over some 100 KB; shipped, it costs one
JSON read. The file holds each built-in capability's descriptor digest (the registry
fingerprint's part that would build schemas) and the tool entries, already redacted.
`generate --check` fails when it is stale, and the server builds the page live for a
registry whose tools are not the ones the file lists (a test module, a stale install).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Registry

#: The generated file, shipped as package data.
TOOLS_FILE = Path(__file__).with_name("tools.json")


def build(registry: Registry) -> dict[str, Any]:
    """What `tools.json` holds for this registry: every built-in descriptor's digest and the
    tool entries (read-only sessions filter them), redacted as the server would."""
    from majordomus.capabilities.registry import descriptor_digest
    from majordomus.mcp.framing import clean_value
    from majordomus.mcp.listing import tool_entries

    return {
        "descriptors": {cap.id: descriptor_digest(cap) for cap in registry.builtin},
        "tools": clean_value(tool_entries(registry, read_only=False)),
    }


def render(registry: Registry) -> str:
    """The file's text: deterministic, one entry key per line, non-ASCII kept."""
    return json.dumps(build(registry), ensure_ascii=False, indent=1) + "\n"


@functools.cache
def shipped() -> dict[str, Any] | None:
    """The generated file's content, or None when it is missing or unreadable."""
    try:
        value = json.loads(TOOLS_FILE.read_bytes())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _tool_ids(entries: list[dict[str, Any]]) -> dict[str, str]:
    return {e["name"]: e["_meta"]["majordomus"]["id"] for e in entries}


def tool_entries(registry: Registry, read_only: bool) -> list[dict[str, Any]] | None:
    """The shipped, redacted `tools/list` entries when they list exactly this registry's
    tools (a check of the routes' names and ids, which loads no declaration), else None."""
    page = shipped()
    if page is None:
        return None
    entries: list[dict[str, Any]] = page["tools"]
    declared = {r.tool: r.id for r in registry.routes.values() if r.tool is not None}
    if _tool_ids(entries) != declared:
        return None
    if read_only:
        return [e for e in entries if e["_meta"]["majordomus"]["effect"] == "read"]
    return entries


def descriptor_digests() -> dict[str, str]:
    """Each built-in capability's descriptor digest as generated (empty without the file)."""
    page = shipped()
    return dict(page["descriptors"]) if page is not None else {}
