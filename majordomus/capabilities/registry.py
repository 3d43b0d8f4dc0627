"""Declaring a capability once, and the registry that checks and indexes the declarations."""

from __future__ import annotations

import functools
import inspect
import typing
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from majordomus.capabilities.checks import RegistryBuildFailed, RegistryError, check_registry

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.workspace import Workspace

__all__ = ["RegistryBuildFailed", "RegistryError"]

VERIFIED = "behaviorally_verified"
EXPERIMENTAL = "experimental"
Case = tuple[str, dict[str, Any]]
#: The named inputs of a capability: fixed, or made from the workspace they run against.
Cases = Sequence[Case] | Callable[["Workspace"], list[Case]]
Handler = Callable[["Workspace", Any], "BaseModel"]


@dataclass(frozen=True, slots=True)
class CachePolicy:
    """`max_entries == 0` means disabled; a TTL of None lives as long as the process."""

    max_entries: int = 0
    ttl_seconds: int | None = None

    @property
    def enabled(self) -> bool:
        return self.max_entries > 0 or self.ttl_seconds is not None

    def to_json(self) -> dict[str, Any]:
        if not self.enabled:
            return {"policy": "disabled"}
        out: dict[str, Any] = {"policy": "process", "max_entries": self.max_entries}
        if self.ttl_seconds is not None:
            out["ttl_seconds"] = self.ttl_seconds
        return out


@dataclass(frozen=True, slots=True)
class Capability:
    """One declaration: identity, exposure on every surface, types, policies and handler."""

    id: str
    title: str
    description: str
    handler: Handler
    kind: Literal["query", "command"] = "query"
    tool: str | None = None
    resource: tuple[str, str] | None = None
    http: tuple[str, str] | None = None
    cli: tuple[str, ...] | None = None
    #: Empty: the stability of the module that composes it.
    stability: str = ""
    tags: tuple[str, ...] = ()
    cache: CachePolicy = CachePolicy()
    waived: str | None = None
    cases: Cases = (("default", {}),)
    writes_repository: bool = False
    module: str = ""

    @property
    def input(self) -> type[BaseModel]:
        """The request type: the handler's annotation, the one place the types are declared."""
        return handler_types(self.handler)[0]

    @property
    def output(self) -> type[BaseModel]:
        return handler_types(self.handler)[1]

    @property
    def namespace(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def effect(self) -> str:
        if self.kind != "command":
            return "read"
        return "repository_mutation" if self.writes_repository else "process_state"

    def execution(self) -> dict[str, Any]:
        concurrency = "serial" if self.kind == "command" else "unrestricted"
        return {"effect": self.effect, "cancellable": False, "concurrency": concurrency}

    def provenance(self) -> dict[str, Any]:
        module = getattr(self.handler, "__module__", None) or "majordomus.capabilities"
        return {"source": "builtin", "module": module}

    def exposure(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        mcp: dict[str, Any] = {}
        if self.tool is not None:
            mcp["tool"] = self.tool
        if self.resource is not None:
            mcp["resource"] = {"uri": self.resource[0], "name": self.resource[1]}
        if mcp:
            out["mcp"] = mcp
        if self.http is not None:
            out["http"] = {"method": self.http[0], "path": self.http[1]}
        if self.cli is not None:
            out["cli"] = {"path": list(self.cli)}
        return out

    def benchmark(self) -> dict[str, Any]:
        if self.waived is None:
            return {"policy": "required"}
        return {"policy": "waived", "reason": self.waived}

    def visibility(self) -> str:
        if self.tool is not None or self.resource is not None or self.http is not None:
            return "public"
        return "developer" if self.cli is not None else "internal"

    def benchmark_cases(self, ctx: Workspace) -> list[Case]:
        """The named inputs benchmarks and OpenAPI examples use."""
        if callable(self.cases):
            return self.cases(ctx)
        return [(name, dict(value)) for name, value in self.cases]


@functools.cache
def handler_types(handler: Handler) -> tuple[type[BaseModel], type[BaseModel]]:
    """The request and answer types of a handler annotated `(ctx, request: In) -> Out`; a
    `TypeError` or `NameError` says why a handler is not."""
    from majordomus.capabilities.workspace import Workspace

    hints = typing.get_type_hints(handler, localns={"Workspace": Workspace})
    names = list(inspect.signature(handler).parameters)
    if len(names) != 2:
        raise TypeError(f"a handler takes (ctx, request), not {len(names)} parameter(s)")
    request, answer = hints.get(names[1]), hints.get("return")
    if request is None or answer is None:
        raise TypeError("a handler's request and return are annotated with their models")
    return request, answer


@dataclass(frozen=True, slots=True)
class Module:
    """A group of capabilities under one namespace; stamps its id and default stability on each."""

    id: str
    title: str
    description: str
    stability: str
    capabilities: tuple[Capability, ...]

    def composed(self) -> list[Capability]:
        return [
            replace(cap, module=self.id, stability=cap.stability or self.stability)
            for cap in self.capabilities
        ]


class Registry:
    """The checked capabilities of some modules in id order, with a lookup per surface."""

    def __init__(self, modules: Sequence[Module], capabilities: Iterable[Capability]) -> None:
        self.modules = {m.id: m for m in sorted(modules, key=lambda m: m.id)}
        self.capabilities = {c.id: c for c in sorted(capabilities, key=lambda c: c.id)}
        caps = self.capabilities.values()
        self.by_tool = {c.tool: c for c in caps if c.tool is not None}
        self.by_resource = {c.resource[0]: c for c in caps if c.resource is not None}
        self.by_route = {c.http: c for c in caps if c.http is not None}
        self.by_cli = {c.cli: c for c in caps if c.cli is not None}

    def __iter__(self) -> Iterator[Capability]:
        return iter(self.capabilities.values())

    def __len__(self) -> int:
        return len(self.capabilities)

    def get(self, capability_id: str) -> Capability | None:
        return self.capabilities.get(capability_id)

    def writer_tools(self) -> list[str]:
        """The MCP tools that write the repository, in order."""
        return sorted(c.tool for c in self if c.tool and c.effect == "repository_mutation")

    def summary(self) -> dict[str, Any]:
        """Counts over the whole registry (docs/generated/capabilities.md `summary()`)."""
        return {
            "total": len(self),
            "builtin": len(self),
            "declarative": 0,
            "by_kind": dict(sorted(Counter(c.kind for c in self).items())),
            "by_stability": dict(sorted(Counter(c.stability for c in self).items())),
            "mcp_tools": len(self.by_tool),
            "mcp_resources": len(self.by_resource),
            "http_routes": len(self.by_route),
            "cli_commands": len(self.by_cli),
            "modules": len(self.modules),
            "benchmark_required": sum(1 for c in self if c.waived is None),
            "benchmark_waived": sum(1 for c in self if c.waived is not None),
            "cached": sum(1 for c in self if c.cache.enabled),
        }


def build_registry(modules: Sequence[Module]) -> Registry:
    """The registry of `modules`, every declaration checked; raises naming every error."""
    caps = [cap for module in modules for cap in module.composed()]
    check_registry([m.id for m in modules], caps)
    return Registry(modules, caps)
