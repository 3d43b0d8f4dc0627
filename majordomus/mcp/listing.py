"""What the MCP surface lists: tools projected from the registry (once per process), resources
from the registry and the index (once per index), and the report `mcp --inspect` prints.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from majordomus.capabilities.registry import RegistryBuildFailed
from majordomus.capabilities.schemas import canonical_schema

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Capability, Registry
    from majordomus.capabilities.workspace import Workspace
    from majordomus.layer.model import Index, LayerObject


def tool_annotations(cap: Capability) -> dict[str, bool]:
    """Client hints from the execution policy: a read is idempotent and never destructive."""
    reads = cap.effect == "read"
    return {
        "readOnlyHint": reads,
        "destructiveHint": cap.effect == "repository_mutation",
        "idempotentHint": reads,
        "openWorldHint": False,
    }


@functools.cache
def tool_entries(registry: Registry, read_only: bool) -> list[dict[str, Any]]:
    """`tools/list` entries in id order; `--read-only` leaves out every command. Shared by
    every caller: read, never changed."""
    out = []
    for cap in registry:
        if cap.tool is None or (read_only and cap.kind == "command"):
            continue
        out.append(
            {
                "name": cap.tool,
                "title": cap.title,
                "description": cap.description,
                "inputSchema": canonical_schema(cap.input, "validation"),
                "outputSchema": canonical_schema(cap.output, "serialization"),
                "_meta": {"majordomus": {"id": cap.id, "effect": cap.effect}},
                "annotations": tool_annotations(cap),
            }
        )
    return out


def _query_resource(cap: Capability) -> dict[str, Any]:
    assert cap.resource is not None
    entry: dict[str, Any] = {
        "uri": cap.resource[0],
        "name": cap.resource[1],
        "mimeType": "application/json",
        "_meta": {"majordomus": {"id": cap.id, "kind": "query", "provenance": cap.provenance()}},
        "title": cap.title,
    }
    if cap.description:
        entry["description"] = cap.description
    return entry


def _object_resource(obj: LayerObject) -> dict[str, Any]:
    provenance = obj.provenance.to_json()
    provenance.pop("bytes", None)
    meta = {
        "id": f"{obj.kind}.{obj.identity}",
        "kind": obj.kind,
        "identity": obj.identity,
        "provenance": provenance,
    }
    entry: dict[str, Any] = {
        "uri": obj.uri,
        "name": obj.identity,
        "mimeType": obj.media_type,
        "_meta": {"majordomus": meta},
        "title": obj.title or obj.identity,
    }
    if obj.description:
        entry["description"] = obj.description
    return entry


def resource_entries(registry: Registry, index: Index) -> list[dict[str, Any]]:
    """`resources/list` entries: the query resources, then the layer's objects, each in
    id order (an object's id is `<kind>.<identity>`)."""
    queries = [_query_resource(cap) for cap in registry if cap.resource is not None]
    objects = sorted(index.objects, key=lambda o: f"{o.kind}.{o.identity}")
    return queries + [_object_resource(obj) for obj in objects]


def inspect_report(ctx: Workspace, read_only: bool) -> dict[str, Any]:
    """`mcp --inspect --format json`: repository info, resources and tools.

    A registry that does not build still leaves a report: the index's diagnostics plus one
    `registry_error` per declaration problem, and nothing listed."""
    try:
        registry = ctx.registry
    except RegistryBuildFailed as failed:
        from majordomus.capabilities.builtin import declared

        report = ctx.executor.answer(declared("repository.info"), {}).model_dump(mode="json")
        report["state"] = "degraded"
        report["diagnostics"] += [
            {"severity": "error", "code": "registry_error", "message": f"{e.code}: {e.message}"}
            for e in failed.errors
        ]
        return {"repository": report, "resources": [], "tools": []}
    repository = ctx.executor.call("repository.info", {})
    resources = [
        {
            "uri": r["uri"],
            "name": r["name"],
            **{k: r[k] for k in ("title", "description") if k in r},
            "media_type": r["mimeType"],
            "meta": r["_meta"]["majordomus"],
        }
        for r in resource_entries(registry, ctx.index)
    ]
    tools = [
        {
            "name": t["name"],
            "title": t["title"],
            "description": t["description"],
            "input_schema": t["inputSchema"],
        }
        for t in tool_entries(registry, read_only)
    ]
    return {"repository": repository, "resources": resources, "tools": tools}
