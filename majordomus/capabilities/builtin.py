"""The built-in modules: the declaration table, read without importing any domain."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Module


def builtin_modules() -> list[Module]:
    """Every built-in module, in declaration order."""
    from majordomus.capabilities.declarations import MODULES

    return list(MODULES)


def builtin_tools() -> dict[str, str]:
    """MCP tool name → capability id, for the use-case `mcp_tools` relation."""
    return {
        cap.tool: cap.id
        for module in builtin_modules()
        for cap in module.capabilities
        if cap.tool is not None
    }
