"""Declaring a capability once, and the registry that validates and indexes the declarations.

A capability is a plain function over pydantic models plus the facts every surface needs
(docs/generated/capabilities.md). The registry collects every declaration error instead of
stopping at the first, is immutable once built, and iterates in id order. It knows
nothing of click, JSON-RPC or HTTP: surfaces read it and project.

A declaration sits beside its handler and names its types, handler and benchmark cases
directly. Every capability also has a `Route` (its identity and exposure, no types): a
registry is built from routes and imports a namespace's declarations only when one of its
capabilities is asked for, so answering what is routed where (`initialize`, the command
words) imports no model, and a process imports the domain it runs and no other.
`verify()` loads every declaration and runs the checks that need the types.

The declaration types and the registry that indexes them are read together, so they share
this file despite its length; the checks themselves live in `checks.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any, Literal, Protocol

from majordomus.capabilities.checks import (
    EXECUTABLE_STABILITIES,
    STABILITIES,
    RegistryBuildFailed,
    RegistryError,
    check_declaration,
    check_modules,
    check_routes,
    check_types,
)
from majordomus.values import Frozen, set_field

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.workspace import Workspace
    from majordomus.layer.model import Index, LayerObject

__all__ = ["EXECUTABLE_STABILITIES", "STABILITIES", "RegistryBuildFailed", "RegistryError"]

Kind = Literal["query", "command", "resource"]
VERIFIED = "behaviorally_verified"
EXPERIMENTAL = "experimental"
Cases = Callable[["Workspace"], list[tuple[str, dict[str, Any]]]]
Handler = Callable[["Workspace", Any], "BaseModel"]


class CachePolicy(Frozen):
    """`max_entries == 0` means disabled; a TTL of None lives as long as the process."""

    FIELDS = COMPARED = ("max_entries", "ttl_seconds")
    __slots__ = FIELDS
    max_entries: int
    ttl_seconds: int | None

    def __init__(self, max_entries: int = 0, ttl_seconds: int | None = None) -> None:
        set_field(self, "max_entries", max_entries)
        set_field(self, "ttl_seconds", ttl_seconds)

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


def process_cache(max_entries: int, ttl_seconds: int | None = None) -> CachePolicy:
    return CachePolicy(max_entries, ttl_seconds)


class Route(Frozen):
    """A capability's identity and exposure: what a surface routes by, and what the registry
    checks, without importing the types behind it. Equal by every field but `source`."""

    COMPARED = ("id", "module", "kind", "writes_repository", "tool", "resource", "http", "cli")
    FIELDS = (*COMPARED, "source")
    __slots__ = FIELDS
    id: str
    module: str
    kind: Kind
    writes_repository: bool
    tool: str | None
    resource: tuple[str, str] | None
    http: tuple[str, str] | None
    cli: tuple[str, ...] | None
    source: LayerObject | None

    def __init__(
        self,
        id: str,
        module: str,
        kind: Kind = "query",
        writes_repository: bool = False,
        tool: str | None = None,
        resource: tuple[str, str] | None = None,
        http: tuple[str, str] | None = None,
        cli: tuple[str, ...] | None = None,
        source: LayerObject | None = None,
    ) -> None:
        set_field(self, "id", id)
        set_field(self, "module", module)
        set_field(self, "kind", kind)
        set_field(self, "writes_repository", writes_repository)
        set_field(self, "tool", tool)
        set_field(self, "resource", resource)
        set_field(self, "http", http)
        set_field(self, "cli", cli)
        set_field(self, "source", source)

    @property
    def declarative(self) -> bool:
        return self.source is not None

    @property
    def effect(self) -> str:
        if self.kind != "command":
            return "read"
        return "repository_mutation" if self.writes_repository else "process_state"


class Capability(Frozen):
    """One declaration: identity, exposure on every surface, types, policies and handler.
    Equal by every field but `source`."""

    COMPARED = (
        "id",
        "title",
        "description",
        "input",
        "output",
        "handler",
        "kind",
        "tool",
        "resource",
        "http",
        "cli",
        "stability",
        "tags",
        "cache",
        "waived",
        "cases",
        "writes_repository",
        "cancellable",
        "module",
    )
    FIELDS = (*COMPARED, "source")
    __slots__ = FIELDS
    id: str
    title: str
    description: str
    input: type[BaseModel]
    output: type[BaseModel]
    handler: Handler | None
    kind: Kind
    tool: str | None
    resource: tuple[str, str] | None
    http: tuple[str, str] | None
    cli: tuple[str, ...] | None
    stability: str
    tags: tuple[str, ...]
    cache: CachePolicy
    waived: str | None
    cases: Cases | None
    writes_repository: bool
    cancellable: bool
    module: str
    source: LayerObject | None

    def __init__(
        self,
        id: str,
        title: str,
        description: str,
        input: type[BaseModel],
        output: type[BaseModel],
        handler: Handler | None = None,
        kind: Kind = "query",
        tool: str | None = None,
        resource: tuple[str, str] | None = None,
        http: tuple[str, str] | None = None,
        cli: tuple[str, ...] | None = None,
        stability: str = "implemented",
        tags: tuple[str, ...] = (),
        cache: CachePolicy = NO_CACHE,
        waived: str | None = None,
        cases: Cases | None = None,
        writes_repository: bool = False,
        cancellable: bool = False,
        module: str = "",
        source: LayerObject | None = None,
    ) -> None:
        set_field(self, "id", id)
        set_field(self, "title", title)
        set_field(self, "description", description)
        set_field(self, "input", input)
        set_field(self, "output", output)
        set_field(self, "handler", handler)
        set_field(self, "kind", kind)
        set_field(self, "tool", tool)
        set_field(self, "resource", resource)
        set_field(self, "http", http)
        set_field(self, "cli", cli)
        set_field(self, "stability", stability)
        set_field(self, "tags", tags)
        set_field(self, "cache", cache)
        set_field(self, "waived", waived)
        set_field(self, "cases", cases)
        set_field(self, "writes_repository", writes_repository)
        set_field(self, "cancellable", cancellable)
        set_field(self, "module", module)
        set_field(self, "source", source)

    @property
    def route(self) -> Route:
        return Route(
            id=self.id,
            module=self.module,
            kind=self.kind,
            writes_repository=self.writes_repository,
            tool=self.tool,
            resource=self.resource,
            http=self.http,
            cli=self.cli,
            source=self.source,
        )

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
        return self.route.effect

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

    def availability(self) -> str:
        return "always" if self.kind == "resource" else "runtime"

    def visibility(self) -> str:
        if self.tool is not None or self.resource is not None or self.http is not None:
            return "public"
        return "developer" if self.cli is not None else "internal"

    def benchmark_cases(self, ctx: Workspace) -> list[tuple[str, dict[str, Any]]]:
        """The named inputs benchmarks and OpenAPI examples use."""
        if self.cases is not None:
            return self.cases(ctx)
        return [("default", {})]


class Module(Frozen):
    """A group of capabilities under one namespace; stamps its id on each."""

    FIELDS = COMPARED = ("id", "title", "description", "stability", "capabilities")
    __slots__ = FIELDS
    id: str
    title: str
    description: str
    stability: str
    capabilities: tuple[Capability, ...]

    def __init__(
        self,
        id: str,
        title: str,
        description: str,
        stability: str,
        capabilities: tuple[Capability, ...],
    ) -> None:
        set_field(self, "id", id)
        set_field(self, "title", title)
        set_field(self, "description", description)
        set_field(self, "stability", stability)
        set_field(self, "capabilities", capabilities)

    def composed(self) -> list[Capability]:
        return [cap.replace(module=self.id) for cap in self.capabilities]


class Declarations(Protocol):
    """Where a registry finds the declarations behind its routes."""

    def modules(self) -> Sequence[Module]:
        """Every built-in module (the namespaces that declare them, all imported)."""

    def capabilities(self, module_id: str) -> list[Capability]:
        """The capabilities of one module (a built-in one or an object kind), checked."""


class _Lookup(Mapping[Any, Capability]):
    """A surface's key (tool, resource URI, route, CLI path) → its capability, loaded on use."""

    def __init__(self, registry: Registry, ids: dict[Any, str]) -> None:
        self._registry = registry
        self._ids = ids

    def __getitem__(self, key: Any) -> Capability:
        found = self._registry.get(self._ids[key])
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._ids

    def __iter__(self) -> Iterator[Any]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class Registry:
    """Immutable, id-ordered capabilities with a lookup per surface.

    Built from routes; a capability's declaration is loaded (its namespace imported) the
    first time it is asked for. `routes` answers what is exposed where without any load."""

    def __init__(
        self,
        routes: Iterable[Route],
        declarations: Declarations,
        index_fingerprint: str | Callable[[], str],
    ) -> None:
        ordered = {r.id: r for r in sorted(routes, key=lambda r: r.id)}
        owners = (
            {r.tool: r.id for r in ordered.values() if r.tool},
            {r.resource[0]: r.id for r in ordered.values() if r.resource},
            {r.http: r.id for r in ordered.values() if r.http},
            {r.cli: r.id for r in ordered.values() if r.cli},
        )
        self._adopt(ordered, declarations, index_fingerprint, owners)

    def _adopt(
        self,
        routes: dict[str, Route],
        declarations: Declarations,
        index_fingerprint: str | Callable[[], str],
        owners: tuple[dict[Any, str], ...],
    ) -> None:
        """Take routes already in id order and each surface's names (`owners()`)."""
        self.routes = routes
        self._declarations = declarations
        self._loaded: dict[str, Capability] = {}
        self._loaded_modules: set[str] = set()
        self.by_tool, self.by_resource, self.by_route, self.by_cli = (
            _Lookup(self, ids) for ids in owners
        )
        self._index_fingerprint = index_fingerprint

    @classmethod
    def swapped(
        cls,
        previous: Registry,
        builtin: Sequence[Route],
        objects: Sequence[LayerObject],
        declarations: Declarations,
        index_fingerprint: str | Callable[[], str],
    ) -> Registry | None:
        """The registry of `builtin` and a route per object, made from `previous` (the
        registry of the same built-in routes over the index before) when every object is
        one `previous` routed or new with a route equal to that of one no longer there (a
        file read again whose objects kept their names): every id and name stays where it
        was, so there is nothing to check or order again. None in any other case."""
        known = previous.object_routes()
        if len(objects) != len(known) or len(previous.routes) != len(builtin) + len(known):
            return None
        if any(previous.routes.get(route.id) is not route for route in builtin):
            return None
        # a route keeps its object alive, so an `id()` it is known by is that object's;
        # the objects are sifted in C (`map`, `compress`): a re-index keeps nearly all
        present = set(map(id, objects))
        unknown = present.difference(known)
        routes = dict(previous.routes)
        by_object = dict(known)
        if unknown:
            for obj in compress(objects, map(unknown.__contains__, map(id, objects))):
                new = declarative_route(obj)
                old = routes.get(new.id)
                if old is None or old != new or old.source is None or id(old.source) in present:
                    return None
                routes[new.id] = new
                del by_object[id(old.source)]
                by_object[id(obj)] = new
        registry = cls.__new__(cls)
        registry._adopt(routes, declarations, index_fingerprint, previous.owners())
        registry.__dict__["_object_routes"] = by_object
        return registry

    @property
    def index_fingerprint(self) -> str:
        """The index's fingerprint, computed when first asked: a re-index that nobody asks
        for it after does not hash the whole layer's content."""
        given = self._index_fingerprint
        if not isinstance(given, str):
            given = self._index_fingerprint = given()
        return given

    def owners(self) -> tuple[dict[Any, str], ...]:
        """Each surface's names → the id that owns it, in the order of `checks.SURFACES`."""
        return tuple(
            lookup._ids for lookup in (self.by_tool, self.by_resource, self.by_route, self.by_cli)
        )

    def object_routes(self) -> dict[int, Route]:
        """Each indexed object's route by the object's `id()`: a later registry over an
        index that kept the same object reuses its route (the route holds the object, so
        the `id()` stays its own while this registry lives)."""
        cached = self.__dict__.get("_object_routes")
        if cached is None:
            cached = {id(r.source): r for r in self.routes.values() if r.source is not None}
            self.__dict__["_object_routes"] = cached
        return cached

    def _load(self, module_id: str) -> None:
        if module_id in self._loaded_modules:
            return
        for cap in self._declarations.capabilities(module_id):
            self._loaded[cap.id] = cap
        self._loaded_modules.add(module_id)

    def __iter__(self) -> Iterator[Capability]:
        for route in self.routes.values():
            self._load(route.module)
        return iter([self._loaded[i] for i in self.routes])

    def __len__(self) -> int:
        return len(self.routes)

    def get(self, capability_id: str) -> Capability | None:
        route = self.routes.get(capability_id)
        if route is None:
            return None
        self._load(route.module)
        return self._loaded.get(capability_id)

    @property
    def modules(self) -> dict[str, Module]:
        return {m.id: m for m in sorted(self._declarations.modules(), key=lambda m: m.id)}

    @property
    def builtin(self) -> list[Capability]:
        """The built-in capabilities, in id order; no object kind's declarations are built."""
        out = []
        for route in self.routes.values():
            if not route.declarative:
                self._load(route.module)
                out.append(self._loaded[route.id])
        return out

    def writer_tools(self) -> list[str]:
        """The MCP tools that write the repository, in order (read from the routes alone)."""
        return sorted(
            r.tool
            for r in self.routes.values()
            if r.tool is not None and r.effect == "repository_mutation"
        )

    @property
    def fingerprint(self) -> str:
        """SHA-256 over the index fingerprint and every built-in descriptor's digest (taken
        from `adopt_descriptor_digests` where given, else built)."""
        cached = self.__dict__.get("_fingerprint")
        if cached is not None:
            return cached
        known = self.__dict__.get("_descriptor_digests", {})
        import hashlib  # here: OpenSSL's binding costs a start that asks for no digest

        digest = hashlib.sha256(self.index_fingerprint.encode())
        for route in self.routes.values():
            digest.update(route.id.encode())
            digest.update(b"\0")
            if not route.declarative:
                known_digest = known.get(route.id)
                if known_digest is None:
                    self._load(route.module)
                    known_digest = descriptor_digest(self._loaded[route.id])
                digest.update(known_digest.encode())
            digest.update(b"\n")
        self.__dict__["_fingerprint"] = digest.hexdigest()
        return self.__dict__["_fingerprint"]

    def adopt_descriptor_digests(self, digests: dict[str, str]) -> None:
        """Take built-in descriptors' digests from a list made at build time (the MCP tools
        page ships one, checked by `generate --check`), so the fingerprint builds no schema."""
        self.__dict__["_descriptor_digests"] = dict(digests)
        self.__dict__.pop("_fingerprint", None)

    def inherit(self, previous: Registry) -> None:
        """Keep what `previous` verified and digested of the built-in declarations, which a
        re-index leaves as they were (a process imports each namespace once)."""
        for name in ("_verified", "_descriptor_digests"):
            if name in previous.__dict__:
                self.__dict__[name] = previous.__dict__[name]

    def verify(self) -> None:
        """Load every declaration and run the type checks; raise with every error.

        Surfaces call it before they list or run anything, so no process serves from a
        registry whose types are broken; a process that only answers what is routed
        (`initialize`, the CLI of one command) need not import every domain first.
        """
        if self.__dict__.get("_verified"):
            return
        errors: list[RegistryError] = []
        for cap in self.builtin:
            check_types(cap, errors)
        if errors:
            raise RegistryBuildFailed(errors)
        self.__dict__["_verified"] = True

    def summary(self) -> dict[str, Any]:
        """Counts over the whole registry (docs/generated/capabilities.md `summary()`)."""
        caps = list(self)

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


def declarative_route(obj: LayerObject) -> Route:
    """The route of one indexed object's resource capability."""
    return Route(
        id=f"{obj.kind}.{obj.identity}",
        module=obj.kind,
        kind="resource",
        resource=(obj.uri, obj.identity),
        source=obj,
    )


def object_routes(objects: Iterable[LayerObject], previous: Registry | None) -> list[Route]:
    """`declarative_route` of each object, taken from `previous` for an object it routed."""
    known = {} if previous is None else previous.object_routes()
    out = []
    for obj in objects:
        route = known.get(id(obj))  # the route keeps its object, so the `id()` is its own
        out.append(declarative_route(obj) if route is None else route)
    return out


def descriptor_digest(cap: Capability) -> str:
    """SHA-256 of a built-in capability's descriptor, schemas included."""
    import hashlib

    from majordomus.capabilities.describe import descriptor_json
    from majordomus.wire import dumps_compact

    return hashlib.sha256(dumps_compact(descriptor_json(cap)).encode()).hexdigest()


def declarative_resource(
    obj: LayerObject, output: type[BaseModel], empty: type[BaseModel]
) -> Capability:
    """The resource capability of one indexed object."""
    raw_tags = obj.metadata.get("tags")
    tags = tuple(t for t in raw_tags if isinstance(t, str)) if isinstance(raw_tags, list) else ()
    return Capability(
        id=f"{obj.kind}.{obj.identity}",
        title=obj.title or obj.identity,
        description=obj.description or "",
        input=empty,
        output=output,
        kind="resource",
        resource=(obj.uri, obj.identity),
        stability="implemented",
        tags=tags,
        waived="not_executable",
        module=obj.kind,
        source=obj,
    )


class _Given:
    """Declarations given whole: every capability already built and checked."""

    def __init__(self, modules: Sequence[Module], caps: Sequence[Capability]) -> None:
        self._modules = list(modules)
        self._caps = list(caps)

    def modules(self) -> Sequence[Module]:
        return self._modules

    def capabilities(self, module_id: str) -> list[Capability]:
        return [c for c in self._caps if c.module == module_id]


def build_registry(
    modules: Sequence[Module],
    index: Index | None = None,
    *,
    object_output: type[BaseModel] | None = None,
    empty: type[BaseModel] | None = None,
) -> Registry:
    """Validate every declaration of `modules` (and, given the object types, a resource per
    object of `index`) and build the registry, or raise with every error."""
    errors: list[RegistryError] = []
    declarative = index is not None and object_output is not None and empty is not None
    kinds = list(index.kinds) if index is not None and declarative else []
    check_modules([m.id for m in modules], kinds, errors)
    pending = [cap for module in modules for cap in module.composed()]
    if index is not None and object_output is not None and empty is not None:
        pending.extend(declarative_resource(obj, object_output, empty) for obj in index.objects)
    check_routes(pending, errors)
    for cap in pending:
        check_declaration(cap, errors)
    if errors:
        raise RegistryBuildFailed(errors)
    fingerprint = index.fingerprint if index is not None else ""
    return Registry([c.route for c in pending], _Given(modules, pending), fingerprint)
