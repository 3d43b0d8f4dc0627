"""The committed Markdown reference of the registry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from majordomus.capabilities.registry import Capability, CasesOf, Registry
from majordomus.capabilities.schemas import canonical_schema
from majordomus.capabilities.workspace import Workspace
from majordomus.layer.reference import GENERATED
from majordomus.version import __version__


def banner(target: str) -> str:
    """The sentence every generated file begins with."""
    return (
        f"{GENERATED}. Generated from the capability registry by "
        f"`majordomus generate {target}` (majordomus-cli {__version__})."
    )


def reference_workspace() -> Workspace:
    """A workspace over an empty layer: the benchmark cases the declarations give alone."""
    from majordomus.layer.git import GitState
    from majordomus.layer.manifest import LAYER_SCHEMA
    from majordomus.layer.model import Index, Manifest

    index = Index(
        root=Path("repository"),
        manifest=Manifest(
            schema=LAYER_SCHEMA, local_path="local", sections={"knowledge": "knowledge"}
        ),
        sources=[],
        discovery="vcs",
        git=GitState.unavailable("the reference describes an empty layer"),
        objects=[],
        diagnostics=[],
    )
    return Workspace.from_index(index, environ={})


def _cell(text: str) -> str:
    """Table-safe: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _code(text: str) -> str:
    return f"`{text}`"


def type_words(prop: dict[str, Any]) -> str:
    """`string`, `integer or null`, `array`, a referenced type's name; enum values appended."""
    if "$ref" in prop:
        words = prop["$ref"].rsplit("/", 1)[-1]
    elif "type" in prop:
        declared = prop["type"]
        words = " or ".join(declared) if isinstance(declared, list) else str(declared)
    elif "anyOf" in prop or "oneOf" in prop:
        members = prop.get("anyOf") or prop.get("oneOf") or []
        words = " or ".join(type_words(m) for m in members if isinstance(m, dict))
    elif "const" in prop:
        return f"constant {_code(json.dumps(prop['const'], ensure_ascii=False))}"
    elif "enum" in prop:
        words = "enum"
    else:
        words = "any"
    if "enum" in prop:
        values = ", ".join(_code(json.dumps(v, ensure_ascii=False)) for v in prop["enum"])
        words += f" (one of {values})"
    return words


def _properties_table(side: str, schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = [f"| {side} | type | required | description |", "|---|---|---|---|"]
    for name, prop in schema.get("properties", {}).items():
        description = str(prop.get("description", ""))
        if prop.get("default") is not None:
            default = json.dumps(prop["default"], ensure_ascii=False)
            description = f"{description} Default {_code(default)}.".strip()
        rows.append(
            f"| {_code(name)} | {_cell(type_words(prop))} | "
            f"{'yes' if name in required else 'no'} | {_cell(description)} |"
        )
    return rows


def _schema_section(side: str, schema: dict[str, Any]) -> list[str]:
    name = schema.get("title")
    title = side.capitalize()
    if name is not None:
        title = f"{title}: {_code(name)}"
    out = [f"### {title}", ""]
    if schema.get("description"):
        out += [str(schema["description"]).strip(), ""]
    if schema.get("properties"):
        out += [*_properties_table(side, schema), ""]
    elif side == "input":
        out += ["Input: none. The capability takes no input (`{}`).", ""]
    pretty = json.dumps(schema, ensure_ascii=False, indent=2)
    out += [
        f"<details><summary>JSON Schema of the {side}</summary>",
        "",
        "```json",
        pretty,
        "```",
        "",
        "</details>",
        "",
    ]
    return out


def _exposure_rows(cap: Capability) -> list[str]:
    none = "—"
    resource = f"{_code(cap.resource[0])} (name {_code(cap.resource[1])})" if cap.resource else none
    http = f"{_code(' '.join(cap.http))} (operationId {_code(cap.id)})" if cap.http else none
    execution = cap.execution()
    if cap.cache.enabled:
        cache = f"process, {cap.cache.max_entries} entries"
        if cap.cache.ttl_seconds is not None:
            cache += f", {cap.cache.ttl_seconds} s each"
        cache += ", emptied when the layer is read again"
    else:
        cache = f"{none} (every call runs the handler)"
    benchmark = "required" if cap.waived is None else f"waived: {cap.waived}"
    return [
        "| | |",
        "|---|---|",
        f"| kind | {cap.kind} |",
        f"| stability | {cap.stability} |",
        f"| MCP tool | {_code(cap.tool) if cap.tool else none} |",
        f"| MCP resource | {resource} |",
        f"| HTTP | {http} |",
        f"| CLI | {_code('majordomus ' + ' '.join(cap.cli)) if cap.cli else none} |",
        f"| effect | {execution['effect']} (cancellable: no, "
        f"concurrency: {execution['concurrency']}) |",
        f"| cache | {cache} |",
        f"| benchmark | {benchmark} |",
        f"| provenance | builtin {_code(cap.provenance()['module'])} |",
        f"| tags | {', '.join(cap.tags) if cap.tags else none} |",
    ]


def benchmark_transports(cap: Capability) -> list[str]:
    """The transports a capability is benchmarked on: direct, then MCP and HTTP where exposed."""
    exposed = {"direct": True, "mcp": cap.tool is not None, "http": cap.http is not None}
    return [transport for transport, benchmarked in exposed.items() if benchmarked]


def _benchmark_section(cap: Capability, cases: list[tuple[str, dict[str, Any]]]) -> list[str]:
    out = [
        "### Benchmark targets",
        "",
        "One requirement per transport the exposure declares; the cases are the input type's, "
        "here for an empty layer (a repository adds the cases that name its objects).",
        "",
        "| transport | state | cases | targets |",
        "|---|---|---|---|",
    ]
    mode = " cold+warm" if cap.cache.enabled else ""
    for transport in benchmark_transports(cap):
        if cap.waived is not None:
            state, targets = f"waived: {cap.waived}", "—"
        else:
            state = "covered" if cases else "**missing**"
            targets = ", ".join(_code(name) + mode for name, _ in cases) or "—"
        out.append(f"| {transport} | {state} | {len(cases)} | {targets} |")
    out.append("")
    return out


def module_page(registry: Registry, module_id: str, cases: CasesOf) -> str:
    module = registry.modules[module_id]
    caps = [cap for cap in registry if cap.module == module_id]
    out = [
        f"<!-- {banner('docs')} -->",
        "",
        f"# Module {_code(module.id)} — {module.title}",
        "",
        module.description,
        "",
        f"Stability: {module.stability}. Capabilities: {len(caps)}.",
        "",
    ]
    for cap in caps:
        out += [f'<a id="{cap.id}"></a>', "", f"## {_code(cap.id)} — {cap.title}", ""]
        if cap.description:
            out += [cap.description, ""]
        out += [*_exposure_rows(cap), ""]
        out += _schema_section("input", canonical_schema(cap.input, "validation"))
        out += _schema_section("output", canonical_schema(cap.output, "serialization"))
        out += _benchmark_section(cap, cases(cap))
    return "\n".join(out).rstrip("\n") + "\n"


def capabilities_page(registry: Registry) -> str:
    caps = list(registry)
    summary = registry.summary()
    kinds = ", ".join(f"{n} {kind}" for kind, n in summary["by_kind"].items())
    out = [
        f"<!-- {banner('docs')} -->",
        "",
        "# Capability reference",
        "",
        "Every capability is declared once, in the registry; the CLI, the MCP server, the HTTP "
        "API with its OpenAPI document and this reference are projections of that declaration. "
        "Regenerate with `majordomus generate all`; `majordomus generate all --check` exits 10 "
        "when a file here is stale.",
        "",
        f"Capabilities: {len(caps)} ({kinds}). MCP tools: {summary['mcp_tools']}. MCP "
        f"resources: {summary['mcp_resources']}. HTTP routes: {summary['http_routes']}. CLI "
        f"commands: {summary['cli_commands']}. Cached: {summary['cached']}.",
        "",
        "The HTTP API is described by [openapi.json](openapi.json), which `majordomus serve` "
        "also serves at `/openapi.json`.",
        "",
        "## Modules",
        "",
        "| module | title | stability | capabilities |",
        "|---|---|---|---|",
    ]
    for module in registry.modules.values():
        count = sum(1 for cap in caps if cap.module == module.id)
        out.append(
            f"| [{_code(module.id)}](modules/{module.id}.md) | {_cell(module.title)} | "
            f"{module.stability} | {count} |"
        )
    out += [
        "",
        "## Capabilities",
        "",
        "| capability | kind | MCP | HTTP | CLI | cache |",
        "|---|---|---|---|---|---|",
    ]
    for cap in caps:
        mcp = [_code(cap.tool)] if cap.tool else []
        if cap.resource:
            mcp.append(_code(cap.resource[0]))
        http = _code(f"{cap.http[0]} {cap.http[1]}") if cap.http else "—"
        cli = _code("majordomus " + " ".join(cap.cli)) if cap.cli else "—"
        cache = f"process, {cap.cache.max_entries}" if cap.cache.enabled else "—"
        link = f"[{_code(cap.id)}](modules/{cap.module}.md#{cap.id})"
        out.append(f"| {link} | {cap.kind} | {', '.join(mcp) or '—'} | {http} | {cli} | {cache} |")
    return "\n".join(out) + "\n"


def reference_files(registry: Registry, cases: CasesOf) -> dict[str, str]:
    """Relative path under `docs/generated/` → content, for every Markdown page."""
    files = {"capabilities.md": capabilities_page(registry)}
    for module_id in registry.modules:
        files[f"modules/{module_id}.md"] = module_page(registry, module_id, cases)
    return files
