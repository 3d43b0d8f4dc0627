"""The built-in modules, in one list: adding a namespace is one line here."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Module

MODULE_FILES = (
    "majordomus.capabilities.core",
    "majordomus.capabilities.reasoning",
    "majordomus.capabilities.devcontext",
)

#: The first CLI word of every capability → the module file that declares it, so the command
#: line imports only the file of the word it runs (a test holds this against the registry).
CLI_WORDS = {
    "objects": "majordomus.capabilities.core",
    "capabilities": "majordomus.capabilities.core",
    "reasoning": "majordomus.capabilities.reasoning",
    "devcontext": "majordomus.capabilities.devcontext",
}


def modules_of(module_file: str) -> list[Module]:
    """The modules one file declares."""
    return list(importlib.import_module(module_file).MODULES)


def builtin_modules() -> list[Module]:
    """Every built-in module, in the order their files are listed."""
    modules: list[Module] = []
    for name in MODULE_FILES:
        modules.extend(modules_of(name))
    return modules


def builtin_tools() -> dict[str, str]:
    """MCP tool name → capability id, for the use-case `mcp_tools` relation."""
    return {
        cap.tool: cap.id
        for module in builtin_modules()
        for cap in module.capabilities
        if cap.tool is not None
    }
