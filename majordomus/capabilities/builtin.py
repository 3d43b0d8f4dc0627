"""The built-in modules, in one list: adding a namespace is one line here."""

from __future__ import annotations

import importlib

from majordomus.capabilities.registry import Module

MODULE_FILES = (
    "majordomus.capabilities.core",
    "majordomus.capabilities.reasoning",
    "majordomus.capabilities.devcontext",
)


def builtin_modules() -> list[Module]:
    """Every built-in module, in the order their files are listed."""
    modules: list[Module] = []
    for name in MODULE_FILES:
        modules.extend(importlib.import_module(name).MODULES)
    return modules


def builtin_tools() -> dict[str, str]:
    """MCP tool name → capability id, for the use-case `mcp_tools` relation."""
    return {
        cap.tool: cap.id
        for module in builtin_modules()
        for cap in module.capabilities
        if cap.tool is not None
    }
