"""Declaring a capability once, and the registry that validates and indexes the declarations.

A capability is a plain function over pydantic models plus the facts every surface needs
(docs/generated/capabilities.md). The registry collects every declaration error instead of
stopping at the first, is immutable once built, and iterates in id order. It knows
nothing of click, JSON-RPC or HTTP: surfaces read it and project.

A declaration names its types, handler and benchmark cases either directly or as a reference
`"package.module:attribute"`, imported on first use: building the registry (and answering
what it declares) costs no model import, so a process imports the domain it runs and no
other. `verify()` resolves every reference and runs the checks that need the types.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.context import Context
    from majordomus.layer.model import Index, LayerObject

Kind = Literal["query", "command", "resource"]
STABILITIES = (
    "implemented",
    "behaviorally_verified",
    "experimental",
    "planned",
    "unsupported",
)
EXECUTABLE_STABILITIES = STABILITIES[:3]
WAIVER_REASONS = ("not_executable", "destructive", "external_dependency", "transient_state")
Cases = Callable[["Context"], list[tuple[str, dict[str, Any]]]]
Handler = Callable[["Context", Any], "BaseModel"]
#: An object, or `"package.module:attribute"` naming it (imported on first use).
Ref = Any

_NAMESPACE = re.compile(r"[a-z][a-z0-9_-]*\Z")
_TOOL = re.compile(r"[a-z0-9_]+\Z")
_ROUTE = re.compile(r"/api/v1/[A-Za-z0-9/_.-]*\Z")
_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
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


NO_CACHE = CachePolicy()


@functools.cache
def _imported(ref: str) -> Any:
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module), attribute)


def resolve(ref: Ref) -> Any:
    """The object a reference names (a non-string is its own referent)."""
    return _imported(ref) if isinstance(ref, str) else ref


def _module_of(ref: Ref) -> str | None:
    if isinstance(ref, str):
        return ref.partition(":")[0]
    return getattr(ref, "__module__", None)


def process_cache(max_entries: int, ttl_seconds: int | None = None) -> CachePolicy:
    return CachePolicy(max_entries, ttl_seconds)


@dataclass(frozen=True)
class Capability:
    """One declaration: identity, exposure on every surface, types, policies and handler."""

    id: str
    title: str
    description: str
    input_ref: Ref
    output_ref: Ref
    handler_ref: Ref = None
    kind: Kind = "query"
    tool: str | None = None
    resource: tuple[str, str] | None = None
    http: tuple[str, str] | None = None
    cli: tuple[str, ...] | None = None
    stability: str = "implemented"
    tags: tuple[str, ...] = ()
    cache: CachePolicy = NO_CACHE
    waived: str | None = None
    cases_ref: Ref = None
    writes_repository: bool = False
    cancellable: bool = False
    module: str = ""
    source: LayerObject | None = field(default=None, compare=False)

    @property
    def input(self) -> type[BaseModel]:
        return resolve(self.input_ref)

    @property
    def output(self) -> type[BaseModel]:
        return resolve(self.output_ref)

    @property
    def handler(self) -> Handler | None:
        return resolve(self.handler_ref)

    @property
    def cases(self) -> Cases | None:
        return resolve(self.cases_ref)

    @property
    def namespace(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def executable(self) -> bool:
        return self.kind != "resource"

    @property
    def declarative(self) -> bool:
        return self.source is not None

    @property
    def effect(self) -> str:
        if self.kind != "command":
            return "read"
        return "repository_mutation" if self.writes_repository else "process_state"

    def execution(self) -> dict[str, Any]:
        concurrency = "serial" if self.kind == "command" else "unrestricted"
        return {"effect": self.effect, "cancellable": self.cancellable, "concurrency": concurrency}

    def provenance(self) -> dict[str, Any]:
        if self.source is not None:
            prov = self.source.provenance.to_json()
            out = {"source": "declarative", **{k: prov[k] for k in ("path", "directory")}}
            out["source_class"] = prov["source_class"]
            if "section" in prov:
                out["section"] = prov["section"]
            out["media_type"] = self.source.media_type
            if "member" in prov:
                out["member"] = prov["member"]
            return out
        module = _module_of(self.handler_ref) or "majordomus.capabilities"
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

    def availability(self) -> str:
        return "always" if self.kind == "resource" else "runtime"

    def visibility(self) -> str:
        if self.tool is not None or self.resource is not None or self.http is not None:
            return "public"
        return "developer" if self.cli is not None else "internal"

    def benchmark_cases(self, ctx: Context) -> list[tuple[str, dict[str, Any]]]:
        """The named inputs benchmarks and OpenAPI examples use."""
        if self.cases is not None:
            return self.cases(ctx)
        return [("default", {})]


@dataclass(frozen=True)
class Module:
    """A group of capabilities under one namespace; stamps its id on each."""

    id: str
    title: str
    description: str
    stability: str
    capabilities: tuple[Capability, ...]

    def composed(self) -> list[Capability]:
        return [replace(cap, module=self.id) for cap in self.capabilities]


@dataclass(frozen=True)
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


class Registry:
    """Immutable, id-ordered capabilities with a lookup per surface."""

    def __init__(
        self,
        capabilities: list[Capability],
        modules: dict[str, Module],
        index_fingerprint: str,
    ) -> None:
        self._caps = {cap.id: cap for cap in sorted(capabilities, key=lambda c: c.id)}
        self.modules = dict(sorted(modules.items()))
        self.by_tool = {c.tool: c for c in self._caps.values() if c.tool is not None}
        self.by_resource = {c.resource[0]: c for c in self._caps.values() if c.resource}
        self.by_route = {c.http: c for c in self._caps.values() if c.http is not None}
        self.by_cli = {c.cli: c for c in self._caps.values() if c.cli is not None}
        self.index_fingerprint = index_fingerprint

    def __iter__(self):
        return iter(self._caps.values())

    def __len__(self) -> int:
        return len(self._caps)

    def get(self, capability_id: str) -> Capability | None:
        return self._caps.get(capability_id)

    @property
    def builtin(self) -> list[Capability]:
        return [c for c in self._caps.values() if not c.declarative]

    @property
    def fingerprint(self) -> str:
        """SHA-256 over the index fingerprint and every built-in descriptor's digest (taken
        from `adopt_descriptor_digests` where given, else built)."""
        cached = self.__dict__.get("_fingerprint")
        if cached is not None:
            return cached
        known = self.__dict__.get("_descriptor_digests", {})
        digest = hashlib.sha256(self.index_fingerprint.encode())
        for cap in self._caps.values():
            digest.update(cap.id.encode())
            digest.update(b"\0")
            if not cap.declarative:
                digest.update((known.get(cap.id) or descriptor_digest(cap)).encode())
            digest.update(b"\n")
        self.__dict__["_fingerprint"] = digest.hexdigest()
        return self.__dict__["_fingerprint"]

    def adopt_descriptor_digests(self, digests: dict[str, str]) -> None:
        """Take built-in descriptors' digests from a list made at build time (the MCP tools
        page ships one, checked by `generate --check`), so the fingerprint builds no schema."""
        self.__dict__["_descriptor_digests"] = dict(digests)
        self.__dict__.pop("_fingerprint", None)

    def verify(self) -> None:
        """Resolve every built-in reference and run the type checks; raise with every error.

        Surfaces call it before they list or run anything, so no process serves from a
        registry whose types are broken; a process that only answers what is declared
        (`initialize`, the CLI of one command) need not import every domain first.
        """
        if self.__dict__.get("_verified"):
            return
        errors: list[RegistryError] = []
        for cap in self.builtin:
            _check_types(cap, errors)
        if errors:
            raise RegistryBuildFailed(errors)
        self.__dict__["_verified"] = True

    def summary(self) -> dict[str, Any]:
        """Counts over the whole registry (docs/generated/capabilities.md `summary()`)."""
        caps = list(self._caps.values())

        def tally(words: Iterable[str]) -> dict[str, int]:
            out: dict[str, int] = {}
            for word in words:
                out[word] = out.get(word, 0) + 1
            return dict(sorted(out.items()))

        return {
            "total": len(caps),
            "builtin": sum(1 for c in caps if not c.declarative),
            "declarative": sum(1 for c in caps if c.declarative),
            "by_kind": tally(c.kind for c in caps),
            "by_stability": tally(c.stability for c in caps),
            "mcp_tools": len(self.by_tool),
            "mcp_resources": len(self.by_resource),
            "http_routes": len(self.by_route),
            "cli_commands": len(self.by_cli),
            "modules": len(self.modules) + len({c.module for c in caps if c.declarative}),
            "benchmark_required": sum(1 for c in caps if c.waived is None),
            "benchmark_waived": sum(
                1 for c in caps if c.waived is not None and c.waived != "not_executable"
            ),
            "cached": sum(1 for c in caps if c.cache.enabled),
        }


def descriptor_digest(cap: Capability) -> str:
    """SHA-256 of a built-in capability's descriptor, schemas included."""
    from majordomus.capabilities.describe import descriptor_json
    from majordomus.wire import dumps_compact

    return hashlib.sha256(dumps_compact(descriptor_json(cap)).encode()).hexdigest()


def declarative_resource(obj: LayerObject, output: Ref, empty: Ref) -> Capability:
    """The resource capability of one indexed object."""
    raw_tags = obj.metadata.get("tags")
    tags = tuple(t for t in raw_tags if isinstance(t, str)) if isinstance(raw_tags, list) else ()
    return Capability(
        id=f"{obj.kind}.{obj.identity}",
        title=obj.title or obj.identity,
        description=obj.description or "",
        input_ref=empty,
        output_ref=output,
        kind="resource",
        resource=(obj.uri, obj.identity),
        stability="implemented",
        tags=tags,
        waived="not_executable",
        module=obj.kind,
        source=obj,
    )


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
            bad("HTTP", f"path '{path}' is not a plain /api/v1/ route")
        if cap.kind == "command" and method != "POST":
            bad("HTTP", "a command changes state and is bound to POST")
    if cap.cli is not None and (
        not cap.cli or any(not w or _SPACE_OR_CONTROL.search(w) for w in cap.cli)
    ):
        bad("CLI", f"path {list(cap.cli)} must be non-empty words without spaces")


def _check_shape(cap: Capability, errors: list[RegistryError]) -> None:
    def shape(message: str) -> None:
        errors.append(RegistryError("shape", f"{cap.id}: {message}"))

    if cap.kind in ("query", "command") and cap.handler_ref is None:
        shape(f"a {cap.kind} needs a handler")
    if cap.kind == "resource":
        if cap.handler_ref is not None:
            shape("a resource has no handler")
        if cap.waived != "not_executable":
            shape("a resource's benchmark is waived as not_executable")
        if cap.http is not None or cap.cli is not None or cap.tool is not None:
            shape("a resource is exposed as an MCP resource only")
    else:
        if cap.waived == "not_executable":
            shape("an executable capability cannot be waived as not_executable")
        if cap.writes_repository and cap.kind != "command":
            shape("only a command may write the repository")
    if cap.waived is not None and cap.waived not in WAIVER_REASONS:
        shape(f"unknown benchmark waiver '{cap.waived}'")
    if cap.kind == "command" and cap.resource is not None:
        shape("a command cannot be an MCP resource")
    if cap.stability not in STABILITIES:
        shape(f"unknown stability '{cap.stability}'")
    elif cap.stability not in EXECUTABLE_STABILITIES and (
        cap.tool is not None or cap.http is not None or cap.cli is not None
    ):
        errors.append(
            RegistryError("not_executable", f"{cap.id}: {cap.stability} but exposed to run")
        )


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


def _check_id(cap: Capability, errors: list[RegistryError]) -> None:
    namespace, dot, local = cap.id.partition(".")
    # an object's id is its kind and identity, and any path git can track is an identity
    unfit = _CONTROL if cap.declarative else _SPACE_OR_CONTROL
    if not dot or not _NAMESPACE.match(namespace) or not local or unfit.search(cap.id):
        errors.append(RegistryError("invalid_id", f"'{cap.id}' is not <namespace>.<local>"))
    elif not cap.declarative and cap.module and namespace != cap.module:
        errors.append(
            RegistryError(
                "module_mismatch", f"{cap.id}: composed by module '{cap.module}', not '{namespace}'"
            )
        )


def _unique(
    caps: Sequence[Capability],
    key: Callable[[Capability], Any],
    code: str,
    label: Callable[[Any], str],
    errors: list[RegistryError],
) -> None:
    seen: dict[Any, Capability] = {}
    for cap in caps:
        value = key(cap)
        if value is None:
            continue
        if value in seen:
            errors.append(
                RegistryError(code, f"{label(value)} is claimed by {seen[value].id} and {cap.id}")
            )
        else:
            seen[value] = cap


def build_registry(
    modules: Sequence[Module],
    index: Index | None = None,
    *,
    object_output: Ref = None,
    empty: Ref = None,
) -> Registry:
    """Validate every declaration and build the registry, or raise with every error."""
    errors: list[RegistryError] = []
    module_ids: dict[str, Module] = {}
    pending: list[Capability] = []
    for module in modules:
        if not _NAMESPACE.match(module.id) or module.id == "system":
            errors.append(RegistryError("invalid_module_id", f"'{module.id}' is not a module id"))
        if module.id in module_ids:
            errors.append(
                RegistryError("duplicate_module", f"module '{module.id}' is declared twice")
            )
        module_ids[module.id] = module
        pending.extend(module.composed())
    if index is not None and object_output is not None and empty is not None:
        for kind in sorted(set(index.kinds) & set(module_ids)):
            errors.append(
                RegistryError("duplicate_module", f"kind '{kind}' collides with a built-in module")
            )
        pending.extend(declarative_resource(obj, object_output, empty) for obj in index.objects)
    # Only a broken declaration repeats an id: those ties are ordered by provenance, so the
    # errors do not depend on declaration order; no other capability pays for a provenance.
    repeated = {i for i, n in Counter(c.id for c in pending).items() if n > 1}
    pending.sort(
        key=lambda c: (c.id, json.dumps(c.provenance(), sort_keys=True) if c.id in repeated else "")
    )
    for cap in pending:
        _check_id(cap, errors)
        _check_exposure(cap, errors)
        _check_shape(cap, errors)
        _check_cache(cap, errors)
    _unique(pending, lambda c: c.id, "duplicate_id", lambda v: f"id '{v}'", errors)
    _unique(pending, lambda c: c.tool, "duplicate_mcp_name", lambda v: f"MCP tool '{v}'", errors)
    _unique(
        pending,
        lambda c: c.resource[0] if c.resource else None,
        "duplicate_mcp_uri",
        lambda v: f"MCP resource '{v}'",
        errors,
    )
    _unique(
        pending, lambda c: c.http, "duplicate_http_route", lambda v: f"route {v[0]} {v[1]}", errors
    )
    _unique(
        pending,
        lambda c: c.cli,
        "duplicate_cli_path",
        lambda v: "CLI path '" + " ".join(v) + "'",
        errors,
    )
    if errors:
        raise RegistryBuildFailed(errors)
    return Registry(pending, module_ids, index.fingerprint if index is not None else "")


def _check_types(cap: Capability, errors: list[RegistryError]) -> None:
    """The checks that need the declared types: every reference resolves, and a query exposed
    as a resource accepts `{}` (a resource read supplies no input)."""
    try:
        input_model, _output, _handler, _cases = cap.input, cap.output, cap.handler, cap.cases
    except (ImportError, AttributeError) as exc:
        errors.append(RegistryError("shape", f"{cap.id}: a reference does not resolve: {exc}"))
        return
    if cap.kind == "query" and cap.resource is not None:
        required = [n for n, f in input_model.model_fields.items() if f.is_required()]
        if required:
            errors.append(
                RegistryError(
                    "shape",
                    f"{cap.id}: a query exposed as a resource must accept {{}} "
                    f"(it requires {', '.join(required)})",
                )
            )
