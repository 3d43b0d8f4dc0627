"""The built-in capabilities: the namespace that declares each module, and the registry."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib import import_module

from majordomus.capabilities.registry import Capability, Module, Registry, build_registry


@functools.cache
def _declared_in(name: str) -> list[Module]:
    """The modules the file `capabilities/<name>.py` declares, importing that file alone, each
    capability with its exposure from `EXPOSED`."""
    modules: Sequence[Module] = import_module(f"majordomus.capabilities.{name}").MODULES
    return [replace(m, capabilities=tuple(map(_exposed, m.capabilities))) for m in modules]


#: Each built-in module id → the file that declares it, in declaration order.
NAMESPACES: dict[str, str] = {
    "repository": "core",
    "objects": "core",
    "capabilities": "core",
    "health": "core",
    "reasoning": "reasoning",
    "recall": "recall",
    "devcontext": "devcontext",
}

#: The capabilities declared apart from their namespace: writing a record needs none of the
#: projections the other reasoning capabilities answer with.
APART: dict[str, Callable[[], Capability]] = {
    "reasoning.record": lambda: import_module("majordomus.capabilities.record").REASONING_RECORD
}

#: Each built-in capability's MCP tool and command words, declared here alone: the surfaces
#: read them before (or without) importing the namespace that declares the capability.
EXPOSED: dict[str, tuple[str | None, tuple[str, ...] | None]] = {
    "capabilities.describe": ("majordomus_capability", ("capabilities", "describe")),
    "capabilities.list": ("majordomus_capabilities", ("capabilities", "list")),
    "devcontext.compile": ("majordomus_devcontext", ("devcontext", "compile")),
    "devcontext.explain": ("majordomus_devcontext_explain", ("devcontext", "explain")),
    "devcontext.policy": ("majordomus_devcontext_policy", ("devcontext", "policy")),
    "health.report": ("majordomus_health", None),
    "objects.get": ("majordomus_get", ("objects", "get")),
    "objects.list": ("majordomus_list", ("objects", "list")),
    "objects.search": ("majordomus_search", ("objects", "search")),
    "reasoning.advisors": ("majordomus_reasoning_advisors", ("reasoning", "advisors")),
    "reasoning.check": ("majordomus_reasoning_check", ("reasoning", "check")),
    "reasoning.explain": ("majordomus_reasoning_explain", ("reasoning", "explain")),
    "reasoning.handover": ("majordomus_reasoning_handover", ("reasoning", "handover")),
    "reasoning.plan": ("majordomus_reasoning_plan", ("reasoning", "plan")),
    "reasoning.pull": (None, ("reasoning", "pull")),
    "reasoning.push": (None, ("reasoning", "push")),
    "reasoning.record": ("majordomus_reasoning_record", ("reasoning", "record")),
    "reasoning.status": ("majordomus_reasoning", ("reasoning", "status")),
    "reasoning.sync": (None, ("reasoning", "sync")),
    "recall.query": ("majordomus_recall", ("recall",)),
    "repository.info": ("majordomus_repository", None),
}

#: Each capability command's words (its module id, then its name) → the capability it runs.
COMMANDS = {words: cap_id for cap_id, (_, words) in EXPOSED.items() if words is not None}

#: Each MCP tool → the capability it runs.
TOOLS = {tool: cap_id for cap_id, (tool, _) in EXPOSED.items() if tool is not None}


def _exposed(cap: Capability) -> Capability:
    tool, words = EXPOSED.get(cap.id, (None, None))
    return replace(cap, tool=tool, cli=words)


def builtin_modules() -> list[Module]:
    """Every built-in module, in declaration order (every namespace imported)."""
    names = dict.fromkeys(NAMESPACES.values())
    return [module for name in names for module in _declared_in(name)]


def declared(capability_id: str) -> Capability:
    """One built-in capability by id, importing only the file that declares it."""
    module_id = capability_id.split(".")[0]
    apart = APART.get(capability_id)
    if apart is not None:
        return replace(_exposed(apart()), module=module_id)
    module = next(m for m in _declared_in(NAMESPACES[module_id]) if m.id == module_id)
    return next(c for c in module.composed() if c.id == capability_id)


@functools.cache
def builtin_registry() -> Registry:
    """The registry of every built-in module, built and checked once per process."""
    return build_registry(builtin_modules())
