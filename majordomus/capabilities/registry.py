"""Declaring a capability once, the checks a declaration passes before any surface serves it,
and the registry that indexes the declarations."""

from __future__ import annotations

import functools
import inspect
import re
import typing
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.workspace import Workspace

VERIFIED = "behaviorally_verified"
EXPERIMENTAL = "experimental"
Case = tuple[str, dict[str, Any]]
#: The named inputs of a capability: fixed, or made from the workspace they run against.
Cases = Sequence[Case] | Callable[["Workspace"], list[Case]]
#: A capability's cases as the generated reference and the OpenAPI examples ask for them.
CasesOf = Callable[["Capability"], list[Case]]
Handler = Callable[["Workspace", Any], "BaseModel"]

STABILITIES = ("implemented", VERIFIED, EXPERIMENTAL, "planned", "unsupported")
#: The stabilities a capability may run with; a planned or unsupported one is exposed nowhere.
EXECUTABLE_STABILITIES = STABILITIES[:3]
WAIVER_REASONS = ("destructive", "external_dependency", "transient_state")

_NAMESPACE = re.compile(r"[a-z][a-z0-9_-]*\Z")
_TOOL = re.compile(r"[a-z0-9_]+\Z")
_ROUTE = re.compile(r"/api/v1/[A-Za-z0-9/_.-]*\Z")
_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")


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
    capabilities: tuple[Capability, ...]
    stability: str = VERIFIED

    def composed(self) -> list[Capability]:
        return [
            replace(cap, module=self.id, stability=cap.stability or self.stability)
            for cap in self.capabilities
        ]


class Registry:
    """The checked capabilities of some modules in id order, and the resource URIs they answer."""

    def __init__(self, modules: Sequence[Module], capabilities: Iterable[Capability]) -> None:
        self.modules = {m.id: m for m in sorted(modules, key=lambda m: m.id)}
        self.capabilities = {c.id: c for c in sorted(capabilities, key=lambda c: c.id)}
        caps = self.capabilities.values()
        self.by_resource = {c.resource[0]: c for c in caps if c.resource is not None}

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
            "mcp_tools": sum(1 for c in self if c.tool is not None),
            "mcp_resources": len(self.by_resource),
            "http_routes": sum(1 for c in self if c.http is not None),
            "cli_commands": sum(1 for c in self if c.cli is not None),
            "modules": len(self.modules),
            "benchmark_required": sum(1 for c in self if c.waived is None),
            "benchmark_waived": sum(1 for c in self if c.waived is not None),
            "cached": sum(1 for c in self if c.cache.enabled),
        }


def build_registry(modules: Sequence[Module]) -> Registry:
    """The registry of `modules`, every declaration checked; raises naming every error."""
    caps = [cap for module in modules for cap in module.composed()]
    errors: list[RegistryError] = []
    _check_modules([m.id for m in modules], errors)
    _check_capabilities(caps, errors)
    for cap in caps:
        _check_declaration(cap, errors)
    if errors:
        raise RegistryBuildFailed(errors)
    return Registry(modules, caps)


@dataclass(frozen=True, slots=True)
class RegistryError:
    """One declaration problem; `code` is the snake_case word of docs/generated/capabilities.md"""

    code: str
    message: str


class RegistryBuildFailed(Exception):
    """The registry did not build; every error is listed, none hidden behind the first."""

    def __init__(self, errors: list[RegistryError]) -> None:
        super().__init__(
            f"{len(errors)} registry error(s): " + "; ".join(e.message for e in errors)
        )
        self.errors = errors


def _check_modules(module_ids: Sequence[str], errors: list[RegistryError]) -> None:
    """Each module id once and well formed."""
    seen: set[str] = set()
    for module_id in module_ids:
        if not _NAMESPACE.match(module_id) or module_id == "system":
            errors.append(RegistryError("invalid_module_id", f"'{module_id}' is not a module id"))
        if module_id in seen:
            errors.append(
                RegistryError("duplicate_module", f"module '{module_id}' is declared twice")
            )
        seen.add(module_id)


def _check_exposure(cap: Capability, errors: list[RegistryError]) -> None:
    def bad(projection: str, reason: str) -> None:
        errors.append(RegistryError("invalid_exposure", f"{cap.id}: {projection}: {reason}"))

    if cap.tool is not None and not _TOOL.match(cap.tool):
        bad("MCP", f"tool name '{cap.tool}' is not [a-z0-9_]+")
    if cap.resource is not None:
        uri = cap.resource[0]
        if not uri.startswith("majordomus://") or _SPACE_OR_CONTROL.search(uri):
            bad("MCP", f"resource uri '{uri}' must start with majordomus:// and hold no space")
    if cap.http is not None:
        method, path = cap.http
        if method not in ("GET", "POST"):
            bad("HTTP", f"method '{method}' is not GET or POST")
        if not _ROUTE.match(path) or path.endswith("/") or "//" in path or path == "/api/v1/":
            bad("HTTP", f"path '{path}' is not an /api/v1/ route of non-empty segments")
        if cap.kind == "command" and method != "POST":
            bad("HTTP", "a command changes state and is bound to POST")
    if cap.cli is not None and (
        not cap.cli or any(not w or _SPACE_OR_CONTROL.search(w) for w in cap.cli)
    ):
        bad("CLI", f"path {list(cap.cli)} must be non-empty words without spaces")


def _check_id(cap: Capability, errors: list[RegistryError]) -> None:
    namespace, dot, local = cap.id.partition(".")
    if not dot or not _NAMESPACE.match(namespace) or not local or _SPACE_OR_CONTROL.search(cap.id):
        errors.append(RegistryError("invalid_id", f"'{cap.id}' is not <namespace>.<local>"))
    elif cap.module and namespace != cap.module:
        errors.append(
            RegistryError(
                "module_mismatch", f"{cap.id}: composed by module '{cap.module}', not '{namespace}'"
            )
        )


def _shape(cap: Capability, errors: list[RegistryError], message: str) -> None:
    errors.append(RegistryError("shape", f"{cap.id}: {message}"))


def _check_kind(cap: Capability, errors: list[RegistryError]) -> None:
    if cap.writes_repository and cap.kind != "command":
        _shape(cap, errors, "only a command may write the repository")
    if cap.kind == "command" and cap.resource is not None:
        _shape(cap, errors, "a command cannot be an MCP resource")


#: Each name a capability may claim, the error naming a second claim, and how it is quoted.
_OWNED: tuple[tuple[Callable[[Capability], Any], str, Callable[[Any], str]], ...] = (
    (lambda c: c.id, "duplicate_id", lambda v: f"id '{v}'"),
    (lambda c: c.tool, "duplicate_mcp_name", lambda v: f"MCP tool '{v}'"),
    (
        lambda c: c.resource[0] if c.resource else None,
        "duplicate_mcp_uri",
        lambda v: f"MCP resource '{v}'",
    ),
    (lambda c: c.http, "duplicate_http_route", lambda v: f"route {v[0]} {v[1]}"),
    (lambda c: c.cli, "duplicate_cli_path", lambda v: "CLI path '" + " ".join(v) + "'"),
)


def _check_capabilities(caps: Sequence[Capability], errors: list[RegistryError]) -> None:
    """Check each capability's identity and exposure, in id order, and that every name has
    one owner; ties of a repeated id are ordered by the handler's module."""
    pending = sorted(caps, key=lambda c: (c.id, getattr(c.handler, "__module__", "")))
    for cap in pending:
        _check_id(cap, errors)
        _check_exposure(cap, errors)
        _check_kind(cap, errors)
    for key, code, label in _OWNED:
        owners: dict[Any, Capability] = {}
        for cap in pending:
            value = key(cap)
            if value is None:
                continue
            if value in owners:
                message = f"{label(value)} is claimed by {owners[value].id} and {cap.id}"
                errors.append(RegistryError(code, message))
            else:
                owners[value] = cap


def _check_declaration(cap: Capability, errors: list[RegistryError]) -> None:
    """A declaration's stability, benchmark waiver, cache policy and types."""
    if cap.waived is not None and cap.waived not in WAIVER_REASONS:
        _shape(cap, errors, f"unknown benchmark waiver '{cap.waived}'")
    if cap.stability not in STABILITIES:
        _shape(cap, errors, f"unknown stability '{cap.stability}'")
    elif cap.stability not in EXECUTABLE_STABILITIES and (
        cap.tool is not None or cap.http is not None or cap.cli is not None
    ):
        errors.append(
            RegistryError("not_executable", f"{cap.id}: {cap.stability} but exposed to run")
        )
    _check_cache(cap, errors)
    _check_types(cap, errors)


def _check_cache(cap: Capability, errors: list[RegistryError]) -> None:
    policy = cap.cache
    if not policy.enabled:
        return
    if cap.kind == "command":
        errors.append(RegistryError("invalid_cache_policy", f"{cap.id}: a command is never cached"))
    if policy.max_entries == 0:
        errors.append(RegistryError("invalid_cache_policy", f"{cap.id}: max_entries is 0"))
    if policy.ttl_seconds == 0:
        errors.append(RegistryError("invalid_cache_policy", f"{cap.id}: ttl_seconds is 0"))


def _check_types(cap: Capability, errors: list[RegistryError]) -> None:
    """The handler's annotations name its types, and a resource query accepts `{}`."""
    try:
        request = cap.input
    except (NameError, TypeError) as exc:
        _shape(cap, errors, f"its handler's types do not resolve: {exc}")
        return
    if cap.kind == "query" and cap.resource is not None:
        required = ", ".join(n for n, f in request.model_fields.items() if f.is_required())
        if required:
            message = f"a query exposed as a resource must accept {{}} (it requires {required})"
            _shape(cap, errors, message)
