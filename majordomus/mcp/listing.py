"""What the MCP surface lists: tools from the page `generate` ships (projected from the
registry, held to it by `generate all --check`), resources from the registry and the index
(once per index), and the report `mcp --inspect` prints."""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from majordomus.capabilities.registry import RegistryBuildFailed
from majordomus.capabilities.schemas import canonical_schema
from majordomus.shipped import shipped_text

#: The resource family of the record kinds' schemas (`schema_resources`).
SCHEMA_PREFIX = "majordomus://schema/"
#: The page `tools/list` serves, generated into the package.
TOOLS_PAGE = ("mcp", "tools.json")
COMPILE = "devcontext.compile"
#: The one argument the MCP compile tool takes beyond the capability's input.
DETAIL = {
    "type": "boolean",
    "description": "Answer the same compile's JSON instead of its bundle: the selection "
    "rows, exclusions and deduplication, without the content.",
}

#: Client hints by a tool's execution effect, only where the protocol's default does not hold.
_ANNOTATIONS = {
    "read": {"readOnlyHint": True, "openWorldHint": False},
    "repository_mutation": {"openWorldHint": False},
    "process_state": {"destructiveHint": False, "openWorldHint": False},
}

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Capability, Registry
    from majordomus.capabilities.workspace import Workspace
    from majordomus.layer.model import Index, LayerObject


def tool_entries(registry: Registry) -> list[dict[str, Any]]:
    """`tools/list` entries in id order, no `outputSchema`: what the tools page holds."""
    out = []
    for cap in registry:
        if cap.tool is None:
            continue
        schema = lean_schema(canonical_schema(cap.input, "validation"))
        if cap.id == COMPILE:  # over MCP the answer always carries the bundle
            del schema["properties"]["bundle"]
            schema["properties"]["detail"] = DETAIL
        out.append(
            {
                "name": cap.tool,
                "title": cap.title,
                "description": cap.description,
                "inputSchema": schema,
                "_meta": {"majordomus": {"id": cap.id, "effect": cap.effect}},
                "annotations": _ANNOTATIONS[cap.effect],
            }
        )
    return out


def render_tools(registry: Registry) -> str:
    """The tools page's text: deterministic, non-ASCII kept."""
    from majordomus.capabilities.reference import banner

    page = {"x-generated": banner("all"), "tools": tool_entries(registry)}
    return json.dumps(page, ensure_ascii=False, indent=1) + "\n"


@functools.cache
def served_tools(read_only: bool) -> list[dict[str, Any]]:
    """The shipped page (spares a session every tool's schemas); `--read-only` drops commands."""
    entries: list[dict[str, Any]] = json.loads(shipped_text(*TOOLS_PAGE))["tools"]
    if read_only:
        return [e for e in entries if e["_meta"]["majordomus"]["effect"] == "read"]
    return entries


def writer_tools() -> list[str]:
    """The MCP tools that write the repository, in order."""
    return sorted(
        e["name"]
        for e in served_tools(False)
        if e["_meta"]["majordomus"]["effect"] == "repository_mutation"
    )


def lean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's input schema as `tools/list` carries it: references written out, no titles, a
    tagged union reduced to its tag (`schema_resources` has each member)."""
    out = _lean(schema, schema.get("$defs", {}), frozenset())
    out.pop("description", None)
    return out


#: The keywords whose values are schemas themselves.
_SUBSCHEMAS = frozenset(("items", "anyOf", "oneOf", "allOf", "additionalProperties"))


def _lean(node: dict[str, Any], defs: dict[str, Any], seen: frozenset[str]) -> dict[str, Any]:
    if "discriminator" in node:
        tag, mapping = node["discriminator"]["propertyName"], node["discriminator"]["mapping"]
        return {
            "type": "object",
            "description": f"Tagged by `{tag}`; each {tag}'s fields are the JSON Schema of the "
            f"resource {SCHEMA_PREFIX}<{tag}>.",
            "properties": {tag: {"type": "string", "enum": sorted(mapping)}},
            "required": [tag],
        }
    name = node.get("$ref", "").removeprefix("#/$defs/")
    if name in defs:
        if name in seen:  # a model that holds itself: any object
            return {"type": "object"}
        node, seen = {**defs[name], **node}, seen | {name}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {field: _lean(prop, defs, seen) for field, prop in value.items()}
        elif key in _SUBSCHEMAS and isinstance(value, dict):
            out[key] = _lean(value, defs, seen)
        elif key in _SUBSCHEMAS and isinstance(value, list):
            out[key] = [_lean(item, defs, seen) for item in value]
        elif key == "description":
            out[key] = " ".join(value.split())
        elif key not in ("title", "$defs", "$ref"):
            out[key] = value
    return out


@functools.cache
def schema_resources(registry: Registry) -> dict[str, dict[str, Any]]:
    """`majordomus://schema/<tag>` → the JSON Schema of that member of a tool's tagged union."""
    out: dict[str, dict[str, Any]] = {}
    for cap in registry:
        if cap.tool is None:
            continue
        schema = canonical_schema(cap.input, "validation")
        defs = schema.get("$defs", {})
        for prop in schema.get("properties", {}).values():
            for tag, ref in prop.get("discriminator", {}).get("mapping", {}).items():
                member = defs[ref.removeprefix("#/$defs/")]
                out[SCHEMA_PREFIX + tag] = _lean(member, defs, frozenset())
    return dict(sorted(out.items()))


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
    """`resources/list` entries: the query resources, the record kinds' schemas, then the
    layer's objects, each in id order (an object's id is `<kind>.<identity>`)."""
    queries = [_query_resource(cap) for cap in registry if cap.resource is not None]
    schemas = [
        {
            "uri": uri,
            "name": uri.removeprefix("majordomus://"),
            "mimeType": "application/json",
            "_meta": {
                "majordomus": {"id": f"schema.{uri.removeprefix(SCHEMA_PREFIX)}", "kind": "schema"}
            },
        }
        for uri in schema_resources(registry)
    ]
    objects = sorted(index.objects, key=lambda o: f"{o.kind}.{o.identity}")
    return queries + schemas + [_object_resource(obj) for obj in objects]


def inspect_report(ctx: Workspace, read_only: bool) -> dict[str, Any]:
    """`mcp --inspect --format json`: repository, resources and tools, or the registry's errors."""
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
        for t in served_tools(read_only)
    ]
    return {"repository": repository, "resources": resources, "tools": tools}
