"""Declaring a capability once, and the registry that checks and indexes the declarations."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from majordomus.capabilities.checks import (
    RegistryBuildFailed,
    RegistryError,
    check_capabilities,
    check_declaration,
    check_modules,
    check_types,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.workspace import Workspace

__all__ = ["RegistryBuildFailed", "RegistryError"]

Kind = Literal["query", "command"]
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
    input: type[BaseModel]
    output: type[BaseModel]
    handler: Handler | None = None
    kind: Kind = "query"
    tool: str | None = None
    resource: tuple[str, str] | None = None
    http: tuple[str, str] | None = None
    cli: tuple[str, ...] | None = None
    stability: str = "implemented"
    tags: tuple[str, ...] = ()
    cache: CachePolicy = CachePolicy()
    waived: str | None = None
    cases: Cases = (("default", {}),)
    writes_repository: bool = False
    module: str = ""

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


@dataclass(frozen=True, slots=True)
class Module:
    """A group of capabilities under one namespace; stamps its id on each."""

    id: str
    title: str
    description: str
    stability: str
    capabilities: tuple[Capability, ...]

    def composed(self) -> list[Capability]:
        return [replace(cap, module=self.id) for cap in self.capabilities]


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
    errors: list[RegistryError] = []
    check_modules([m.id for m in modules], errors)
    caps = [cap for module in modules for cap in module.composed()]
    check_capabilities(caps, errors)
    for cap in caps:
        check_declaration(cap, errors)
        check_types(cap, errors)
    if errors:
        raise RegistryBuildFailed(errors)
    return Registry(modules, caps)
