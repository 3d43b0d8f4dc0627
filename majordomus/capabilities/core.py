"""The core capabilities: repository, objects, capabilities and health."""

from __future__ import annotations

import functools
import hashlib
from collections import Counter
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from majordomus.capabilities.paging import Paged, PageInput
from majordomus.capabilities.registry import VERIFIED, CachePolicy, Capability, Module
from majordomus.capabilities.schemas import schema_ref
from majordomus.errors import InvalidInput, NotFound, Refused
from majordomus.version import __version__
from majordomus.wire import OMIT, Empty, StrictInput, Wire, dumps_compact, dumps_pretty

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Registry
    from majordomus.capabilities.workspace import Workspace
    from majordomus.layer.model import LayerObject


class RepositoryReport(Wire):
    """The repository, its layer, git state, discovery mode, kinds present and every diagnostic."""

    repository: dict[str, Any]
    state: Literal["ok", "degraded"]
    objects: int
    kinds: dict[str, int]
    diagnostics: list[dict[str, Any]]


def repository_info(ctx: Workspace, _: Empty) -> RepositoryReport:
    from majordomus.layer.index import repository_json

    index = ctx.index
    return RepositoryReport(
        repository=repository_json(index),
        state=index.state,
        objects=len(index.objects),
        kinds=index.kinds,
        diagnostics=[d.to_json() for d in index.diagnostics],
    )


REPOSITORY_INFO = Capability(
    id="repository.info",
    title="Repository and index state",
    description="Root, sections, git state, discovery mode, kinds present and every "
    "diagnostic of the layer index. Read-only.",
    handler=repository_info,
    resource=("majordomus://repository", "repository"),
    http=("GET", "/api/v1/repository"),
    tags=("layer",),
)

REPOSITORY = Module(
    id="repository",
    title="Repository",
    description="The repository root, its layer and git state.",
    stability=VERIFIED,
    capabilities=(REPOSITORY_INFO,),
)


class ObjectSummary(Wire):
    """One object in a list or a search hit."""

    uri: str
    kind: str
    identity: str
    title: str | None
    description: str | None
    path: str
    snippet: Annotated[str | None, OMIT] = None


#: Where a reasoning record is addressed: `majordomus://reasoning/record/<id>`.
RECORD_URI = "majordomus://reasoning/record/"


class ResourceView(Wire):
    """What a resource URI resolves to: a declarative object, a reasoning record or a query's
    answer."""

    source: Literal["declarative", "builtin", "ledger"]
    uri: str
    id: str
    kind: str
    identity: str
    title: str | None
    description: Annotated[str | None, Field(description="Absent for a query without one.")] = None
    metadata: Annotated[dict[str, Any] | None, OMIT] = None
    answer: Annotated[Any, OMIT] = None
    provenance: dict[str, Any]
    media_type: str
    content: str


class ListInput(PageInput):
    """Filters for `objects.list`, both optional, and the page."""

    kind: Annotated[str | None, Field(description="Only objects of this kind.")] = None
    tag: Annotated[
        str | None, Field(description="Only objects whose `tags` list holds this tag.")
    ] = None


class ObjectList(Paged):
    ROWS = "objects"

    count: int
    objects: list[ObjectSummary]


class GetInput(StrictInput):
    uri: Annotated[
        str,
        Field(
            description="A `majordomus://` URI (an object, a reasoning record or a query "
            "resource), an object's short id (`adr-0001`, `I0102`, `rule/project.no-secrets`) "
            "or a record's id."
        ),
    ]


class SearchInput(PageInput):
    DEFAULT_LIMIT = 20
    MAX_LIMIT = 200

    query: Annotated[str, Field(description="Case-insensitive text to look for.")]
    kind: Annotated[str | None, Field(description="Only objects of this kind.")] = None
    limit: Annotated[
        int | None, Field(description="At most this many hits (1..200, default 20).")
    ] = None


class SearchResult(Paged):
    ROWS = "hits"

    query: str
    count: int
    limit: int
    hits: list[ObjectSummary]


def check_kind(ctx: Workspace, kind: str | None) -> None:
    """An undeclared kind is refused listing the declared ones; a declared, absent one is empty."""
    if kind is None or kind in ctx.index.kinds:
        return
    from majordomus.layer.kinds import load_kinds

    declared = sorted(load_kinds().kinds)
    if kind not in declared:
        raise InvalidInput(
            f"kind '{kind}' is not among the kinds this repository has: {', '.join(declared)}"
        )


def _tagged(obj: LayerObject, tag: str) -> bool:
    tags = obj.metadata.get("tags")
    return isinstance(tags, list) and tag in tags


def objects_list(ctx: Workspace, request: ListInput) -> ObjectList:
    """The rows show no working-tree state, so a build this starts runs no `git status`."""
    objects = ctx.index_without_status().objects
    check_kind(ctx, request.kind)
    rows = [
        obj.summary_json()
        for obj in objects
        if (request.kind is None or obj.kind == request.kind)
        and (request.tag is None or _tagged(obj, request.tag))
    ]
    return ObjectList.model_validate({"count": len(rows), "objects": rows})


def resolve_resource(ctx: Workspace, uri: str) -> ResourceView:
    """One URI resolution for `objects.get` and MCP `resources/read`; never reads a file."""
    obj = ctx.index.find(uri)
    if obj is not None:
        return ResourceView(source="declarative", id=f"{obj.kind}.{obj.identity}", **obj.to_json())
    if uri.startswith(RECORD_URI):
        from majordomus.capabilities.recall import record_view

        return record_view(ctx, uri)
    cap = ctx.registry.by_resource.get(uri)
    if cap is None:
        from majordomus.layer.shortid import why_absent

        raise NotFound(why_absent(ctx.index, uri, f"unknown resource: {uri}"))
    answer = ctx.executor.answer(cap, {}).model_dump(mode="json", by_alias=True)
    return ResourceView(
        source="builtin",
        uri=uri,
        id=cap.id,
        kind="query",
        identity=cap.resource[1] if cap.resource else cap.id,
        title=cap.title,
        description=cap.description or None,
        answer=answer,
        provenance=cap.provenance(),
        media_type="application/json",
        content=dumps_pretty(answer),
    )


def objects_get(ctx: Workspace, request: GetInput) -> ResourceView:
    from majordomus.layer.shortid import SCHEME, expand

    uri = expand(ctx.index.objects, request.uri)
    if not uri.startswith(SCHEME):  # the ledger is read only for what may be a record's id
        from majordomus.capabilities.recall import ledger_ranking
        from majordomus.ledger.store import is_record_id

        if is_record_id(uri) and uri in ledger_ranking(ctx).records:
            uri = RECORD_URI + uri
    return resolve_resource(ctx, uri)


def objects_search(ctx: Workspace, request: SearchInput) -> SearchResult:
    """Every hit in index order, counted, with its first matching line (stripped, cut to 200
    characters); the executor keeps the first `limit` of them (docs/mcp.md)."""
    if not request.query.strip():
        raise Refused("argument 'query' is required and must not be blank")
    check_kind(ctx, request.kind)
    limit = request.page_limit()
    assert limit is not None  # search has a default limit
    needle = request.query.lower()
    hits = []
    for obj in ctx.index.objects:
        if request.kind is not None and obj.kind != request.kind:
            continue
        lines = (line for line in obj.content.split("\n") if needle in line.lower())
        snippet = next((line.strip()[:200] for line in lines), None)
        named = any(
            needle in text.lower() for text in (obj.identity, obj.title, obj.description) if text
        )
        if snippet is not None or named:
            hits.append(ObjectSummary(**obj.summary_json(), snippet=snippet))
    return SearchResult(query=request.query, count=len(hits), limit=limit, hits=hits)


def _list_cases(ctx: Workspace) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = [("all", {})]
    if ctx.index.kinds:
        cases.append(("first-kind", {"kind": next(iter(ctx.index.kinds))}))
    return cases


def _get_cases(ctx: Workspace) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = []
    if ctx.index.objects:
        cases.append(("first-object", {"uri": ctx.index.objects[0].uri}))
    cases.append(("repository", {"uri": "majordomus://repository"}))
    return cases


OBJECTS_LIST = Capability(
    id="objects.list",
    title="List objects",
    description="The layer's declarative objects in URI order, optionally only one "
    "kind or one tag. Read-only.",
    handler=objects_list,
    http=("GET", "/api/v1/objects"),
    tags=("layer",),
    cases=_list_cases,
)

OBJECTS_GET = Capability(
    id="objects.get",
    title="Get one object",
    description="One object by URI with metadata, provenance and content, or a query "
    "resource such as `majordomus://repository` answered. Read-only.",
    handler=objects_get,
    http=("GET", "/api/v1/object"),
    tags=("layer",),
    cases=_get_cases,
)

OBJECTS_SEARCH = Capability(
    id="objects.search",
    title="Search objects",
    description="Case-insensitive substring search over identities, titles, "
    "descriptions and content, in URI order; for results ranked across the layer and the "
    "reasoning ledger, recall (majordomus_recall). Read-only.",
    handler=objects_search,
    http=("GET", "/api/v1/search"),
    tags=("layer", "search"),
    cache=CachePolicy(64),
    cases=(("rule", {"query": "rule"}),),
)

OBJECTS = Module(
    id="objects",
    title="Objects",
    description="The declarative objects of the `.ai/` layer.",
    stability=VERIFIED,
    capabilities=(OBJECTS_LIST, OBJECTS_GET, OBJECTS_SEARCH),
)


class CapabilitiesInput(PageInput):
    kind: Annotated[
        str | None, Field(description="Only capabilities of this kind: query, command or resource.")
    ] = None
    exposure: Annotated[
        str | None,
        Field(description="Only capabilities exposed on this surface: mcp, http or cli."),
    ] = None


class CapabilitySummary(Wire):
    """A descriptor without its schemas and classified fields."""

    id: str
    module: str
    kind: str
    title: str
    description: str
    provenance: dict[str, Any]
    exposure: dict[str, Any]
    stability: str
    tags: Annotated[list[str], OMIT] = []
    benchmark: dict[str, Any]
    cache: dict[str, Any]


class CapabilityList(Paged):
    ROWS = "capabilities"

    count: int
    summary: dict[str, Any]
    capabilities: list[CapabilitySummary]


class DescribeInput(StrictInput):
    id: Annotated[str, Field(description="The capability id, e.g. `repository.info`.")]


class CapabilityDescriptor(Wire):
    """One capability as declared."""

    model_config = {"title": "Capability"}

    id: str
    module: str
    kind: str
    title: str
    description: str
    input: dict[str, Any]
    output: dict[str, Any]
    provenance: dict[str, Any]
    exposure: dict[str, Any]
    availability: str
    visibility: str
    stability: str
    tags: Annotated[list[str], OMIT] = []
    benchmark: dict[str, Any]
    cache: dict[str, Any]
    execution: dict[str, Any]


def describe(cap: Capability) -> CapabilityDescriptor:
    """One capability as declared, its schemas included."""
    return CapabilityDescriptor(
        **_summary_fields(cap),
        input=schema_ref(cap.input, "validation"),
        output=schema_ref(cap.output, "serialization"),
        availability="runtime",
        visibility=cap.visibility(),
        execution=cap.execution(),
    )


def _summary_fields(cap: Capability) -> dict[str, Any]:
    return {
        "id": cap.id,
        "module": cap.module,
        "kind": cap.kind,
        "title": cap.title,
        "description": cap.description,
        "provenance": cap.provenance(),
        "exposure": cap.exposure(),
        "stability": cap.stability,
        "tags": list(cap.tags),
        "benchmark": cap.benchmark(),
        "cache": cap.cache.to_json(),
    }


@functools.cache
def registry_fingerprint(registry: Registry) -> str:
    """SHA-256 over every capability's descriptor, schemas included."""
    digest = hashlib.sha256()
    for cap in registry:
        digest.update(dumps_compact(describe(cap).wire()).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def capabilities_list(ctx: Workspace, request: CapabilitiesInput) -> CapabilityList:
    if request.kind is not None and request.kind not in ("query", "command", "resource"):
        raise InvalidInput(f"kind '{request.kind}' is not query, command or resource")
    if request.exposure is not None and request.exposure not in ("mcp", "http", "cli"):
        raise InvalidInput(f"exposure '{request.exposure}' is not mcp, http or cli")
    registry = ctx.registry
    rows = [
        CapabilitySummary(**_summary_fields(cap))
        for cap in registry
        if (request.kind is None or cap.kind == request.kind)
        and (request.exposure is None or request.exposure in cap.exposure())
    ]
    return CapabilityList(count=len(rows), summary=registry.summary(), capabilities=rows)


def capabilities_describe(ctx: Workspace, request: DescribeInput) -> CapabilityDescriptor:
    cap = ctx.registry.get(request.id)
    if cap is None:
        raise NotFound(f"unknown capability: {request.id}")
    return describe(cap)


CAPABILITIES_LIST = Capability(
    id="capabilities.list",
    title="List capabilities",
    description="Every capability with its exposure and policies, optionally one kind "
    "or one surface, and the registry summary. Read-only.",
    handler=capabilities_list,
    http=("GET", "/api/v1/capabilities"),
    tags=("registry",),
    cache=CachePolicy(16),
    cases=(("all", {}), ("queries", {"kind": "query"})),
)

CAPABILITIES_DESCRIBE = Capability(
    id="capabilities.describe",
    title="Describe one capability",
    description="One capability as declared, with its input and output JSON Schemas. Read-only.",
    handler=capabilities_describe,
    http=("GET", "/api/v1/capability"),
    tags=("registry",),
    cases=(("repository-info", {"id": "repository.info"}),),
)

CAPABILITIES = Module(
    id="capabilities",
    title="Capabilities",
    description="The capability registry itself: every declaration and its projections.",
    stability=VERIFIED,
    capabilities=(CAPABILITIES_LIST, CAPABILITIES_DESCRIBE),
)


class HealthCheck(Wire):
    id: str
    title: str
    status: Literal["ok", "warn", "fail", "unknown"]
    detail: str
    decided_by: str
    evidence: Annotated[list[str], OMIT] = []
    findings: Annotated[list[str], OMIT] = []


class Health(Wire):
    """The worst check decides the status: ok < warn < fail < unknown."""

    status: Literal["ok", "warn", "fail", "unknown"]
    tallies: dict[str, int]
    checks: list[HealthCheck]


class Liveness(Wire):
    alive: bool
    version: str


class Readiness(Wire):
    ready: bool
    version: str
    capabilities: int
    objects: int
    layer: Literal["ok", "warn"]


_SEVERITY = ("ok", "warn", "fail", "unknown")


def _ledger_check(ctx: Workspace) -> HealthCheck:
    """Whether every file in the reasoning store reads as a record; a store not yet written
    is fine. An unreadable file costs nothing but its own record, so it warns."""
    from majordomus.ledger.store import STATE_DIR, Store

    loaded = Store(ctx.root).load()
    unreadable = loaded.unreadable
    return HealthCheck(
        id="ledger",
        title="Reasoning ledger",
        status="warn" if unreadable else "ok",
        detail=f"{len(loaded.records)} record(s), {len(unreadable)} unreadable file(s)",
        decided_by=f"every file under {STATE_DIR} reads as a record",
        findings=unreadable,
    )


def health_report(ctx: Workspace, _: Empty) -> Health:
    index = ctx.index
    git = index.git
    scope = [o for o in index.objects if o.kind == "scope"]
    checks = [
        HealthCheck(
            id="layer",
            title="Layer index",
            status="ok" if index.state == "ok" else "warn",
            detail=f"{len(index.objects)} object(s), state {index.state}, "
            f"{index.error_count} error diagnostic(s)",
            decided_by="no error diagnostic in the index",
            findings=[
                f"{d.code} {d.path or '-'}" for d in index.diagnostics if d.severity == "error"
            ],
        ),
        HealthCheck(
            id="registry",
            title="Capability registry",
            status="ok",
            detail=f"{len(ctx.registry)} capabilities, fingerprint "
            f"{registry_fingerprint(ctx.registry)[:12]}",
            decided_by="the registry built without an error",
        ),
        HealthCheck(
            id="scope",
            title="Scope",
            status="ok",
            detail=f"declared by {scope[0].path}"
            if scope
            else "no scope object; every declared class is read",
            decided_by="at most one scope object",
        ),
        HealthCheck(
            id="git",
            title="Git",
            status="ok" if git.available else "warn",
            detail=f"{git.branch or 'detached'} at {(git.head or 'no commit')[:12]}, "
            f"{git.working_tree}"
            if git.available
            else f"unavailable: {git.reason}",
            decided_by="git answers for the root",
        ),
        _ledger_check(ctx),
    ]
    tallies = dict(sorted(Counter(check.status for check in checks).items()))
    worst = max(checks, key=lambda c: _SEVERITY.index(c.status)).status
    return Health(status=worst, tallies=tallies, checks=checks)


def health_live(_ctx: Workspace, _: Empty) -> Liveness:
    return Liveness(alive=True, version=__version__)


def health_ready(ctx: Workspace, _: Empty) -> Readiness:
    return Readiness(
        ready=len(ctx.registry) > 0,
        version=__version__,
        capabilities=len(ctx.registry),
        objects=len(ctx.index.objects),
        layer="ok" if ctx.index.state == "ok" else "warn",
    )


HEALTH_REPORT = Capability(
    id="health.report",
    title="Health report",
    description="The checks on this repository (its layer index, the registry "
    "served from it, the scope, the reasoning ledger and git), and the worst of "
    "them. Read-only.",
    handler=health_report,
    resource=("majordomus://health", "health"),
    http=("GET", "/api/v1/health"),
    tags=("health",),
    cache=CachePolicy(4, ttl_seconds=5),
)

HEALTH_LIVE = Capability(
    id="health.live",
    title="Liveness",
    description="Always alive while the process answers. Read-only.",
    handler=health_live,
    http=("GET", "/api/v1/live"),
    tags=("health",),
)

HEALTH_READY = Capability(
    id="health.ready",
    title="Readiness",
    description="Ready when the registry holds capabilities; the layer warns when the "
    "index is degraded. Never contacts another service. Read-only.",
    handler=health_ready,
    http=("GET", "/api/v1/ready"),
    tags=("health",),
)

HEALTH = Module(
    id="health",
    title="Health",
    description="Liveness, readiness and a report of the checks that decide them.",
    stability=VERIFIED,
    capabilities=(HEALTH_REPORT, HEALTH_LIVE, HEALTH_READY),
)


MODULES = (REPOSITORY, OBJECTS, CAPABILITIES, HEALTH)
