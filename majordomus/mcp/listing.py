"""What the MCP surface lists: tools and resources projected from the registry, and the index
report `mcp --inspect` prints.

Computed once per registry; the protocol module serves these lists from memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from majordomus.capabilities.describe import canonical_schema

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Capability, Registry
    from majordomus.capabilities.workspace import Workspace


def tool_annotations(cap: Capability) -> dict[str, bool]:
    """Client hints from the execution policy."""
    if cap.effect == "read":
        return {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        }
    return {
        "readOnlyHint": False,
        "destructiveHint": cap.effect == "repository_mutation",
        "idempotentHint": False,
        "openWorldHint": False,
    }


def tool_entries(registry: Registry, read_only: bool) -> list[dict[str, Any]]:
    """`tools/list` entries in id order; `--read-only` leaves out every command."""
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


def _resource_meta(cap: Capability) -> dict[str, Any]:
    if cap.source is None:
        return {"id": cap.id, "kind": "query", "provenance": cap.provenance()}
    prov = cap.source.provenance.to_json()
    prov.pop("bytes", None)
    return {
        "id": cap.id,
        "kind": cap.source.kind,
        "identity": cap.source.identity,
        "provenance": prov,
    }


def resource_entries(registry: Registry) -> list[dict[str, Any]]:
    """`resources/list` entries: query resources first, then objects, each in id order."""
    executables = [c for c in registry if c.resource and c.source is None]
    objects = [c for c in registry if c.resource and c.source is not None]
    out = []
    for cap in executables + objects:
        assert cap.resource is not None
        entry: dict[str, Any] = {
            "uri": cap.resource[0],
            "name": cap.resource[1],
            "mimeType": cap.source.media_type if cap.source else "application/json",
            "_meta": {"majordomus": _resource_meta(cap)},
        }
        if cap.title:
            entry["title"] = cap.title
        if cap.description:
            entry["description"] = cap.description
        out.append(entry)
    return out


def inspect_report(ctx: Workspace, read_only: bool) -> dict[str, Any]:
    """`mcp --inspect --format json`: repository info, resources and tools.

    A registry that does not build still leaves a report: the index's diagnostics plus one
    `registry_error` per declaration problem, and nothing listed."""
    from majordomus.capabilities.registry import RegistryBuildFailed

    try:
        ctx.registry.verify()
    except RegistryBuildFailed as failed:
        from majordomus.capabilities.core import Empty, repository_info

        report = repository_info(ctx, Empty()).model_dump(mode="json")
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
        for r in resource_entries(ctx.registry)
    ]
    tools = [
        {
            "name": t["name"],
            "title": t["title"],
            "description": t["description"],
            "input_schema": t["inputSchema"],
        }
        for t in tool_entries(ctx.registry, read_only)
    ]
    return {"repository": repository, "resources": resources, "tools": tools}
