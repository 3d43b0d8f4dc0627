"""The OpenAPI 3.1 document, derived from the registry and nothing else."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from majordomus.capabilities.registry import Capability, Registry
from majordomus.capabilities.schemas import canonical_schema
from majordomus.http.binding import declared_types
from majordomus.http.errors import ERRORS, ErrorBody
from majordomus.version import __version__

Cases = Callable[[Capability], list[tuple[str, dict[str, Any]]]]

GENERATOR = f"majordomus-cli {__version__}"
REF_PREFIX = "#/components/schemas/"
BINDING = (
    "A GET operation takes each top-level property of its input as one query parameter: "
    "strings as they are, integers, numbers and booleans (`true`/`false`) as text, arrays and "
    "objects as JSON; unknown parameters are refused. A POST operation takes its input as one "
    "JSON object in the body (an empty body is `{}`). Every answer is JSON; every error is "
    '`{"error":{"code","message"}}` with the status of `errors`.'
)

#: The routes that are not capabilities.
INFRASTRUCTURE: tuple[tuple[str, str, str], ...] = (
    ("GET", "/", "The JSON index of this server (HTML when Accept lists text/html)."),
    ("GET", "/api/v1", "Every capability route with its capability id and title."),
    ("GET", "/openapi.json", "This document."),
    ("GET", "/swagger", "Swagger UI over this document."),
    ("POST", "/mcp", "MCP over Streamable HTTP: one JSON-RPC message, answered as JSON."),
)
#: The server's token (docs/http.md): every caller off loopback and every write shows it.
SECURITY_SCHEMES = {"token": {"type": "http", "scheme": "bearer"}}


class OpenApiError(Exception):
    """The document cannot be built; every clash is listed."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _rewrite_ref(value: Any, names: dict[str, str]) -> Any:
    if not (isinstance(value, str) and value.startswith("#/$defs/")):
        return value
    local = value[len("#/$defs/") :]
    return REF_PREFIX + names.get(local, local)


def _rewrite_refs(node: Any, names: dict[str, str]) -> Any:
    """Each `#/$defs/X` (of a `$ref` or a discriminator mapping) as its component's reference."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out[key] = _rewrite_ref(value, names)
            elif key == "mapping" and isinstance(value, dict):
                out[key] = {k: _rewrite_ref(v, names) for k, v in value.items()}
            else:
                out[key] = _rewrite_refs(value, names)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(item, names) for item in node]
    return node


class Components:
    """The flat `components.schemas` namespace; a clash is recorded, not overwritten."""

    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}
        self.origin: dict[str, str] = {}
        self.problems: list[str] = []

    def _register(self, name: str, schema: dict[str, Any], origin: str) -> None:
        held = self.schemas.get(name)
        if held is None:
            self.schemas[name] = schema
            self.origin[name] = origin
        elif held != schema:
            problem = (
                f"component '{name}' has two different schemas ({self.origin[name]} and "
                f"{origin}); give one of the types another title"
            )
            if problem not in self.problems:
                self.problems.append(problem)

    def hoist(
        self, canonical: dict[str, Any], origin: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Register the schema's `$defs` (and the schema when named); return its reference and the
        resolved root the GET binding reads properties from."""
        schema = copy.deepcopy(canonical)
        defs: dict[str, Any] = schema.pop("$defs", {})
        names = {key: str(value.get("title", key)) for key, value in defs.items()}
        for key, value in defs.items():
            body = _rewrite_refs(value, names)
            body.pop("title", None)
            self._register(names[key], body, origin)
        root = _rewrite_refs(schema, names)
        title = root.pop("title", None)
        if title is None:
            return root, root
        self._register(str(title), root, origin)
        return {"$ref": REF_PREFIX + str(title)}, root


def _examples(cases: list[tuple[str, dict[str, Any]]], key: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in sorted(cases, key=lambda case: case[0]):
        if key is None:
            out[name] = {"value": value}
        elif key in value:
            out[name] = {"value": value[key]}
    return out


def _parameters(
    root: dict[str, Any], canonical: dict[str, Any], cases: list[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    required = set(root.get("required", []))
    params = []
    for name, prop in root.get("properties", {}).items():
        param: dict[str, Any] = {"name": name, "in": "query", "required": name in required}
        if "description" in prop:
            param["description"] = prop["description"]
        # the canonical input form already leaves `null` out of a property that may be absent
        schema = {k: v for k, v in prop.items() if k not in ("title", "description")}
        if declared_types(canonical, name) & {"array", "object"}:
            param["content"] = {"application/json": {"schema": schema}}
        else:
            param["schema"] = schema
        examples = _examples(cases, name)
        if examples:
            param["examples"] = examples
        params.append(param)
    return params


def _error_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": REF_PREFIX + "ErrorBody"}}},
    }


def _responses(cap: Capability, output: dict[str, Any]) -> dict[str, Any]:
    reasons = {code: f"{code}: {why}." for _, code, why in ERRORS}
    out: dict[str, Any] = {
        "200": {
            "description": f"{cap.title}: the result.",
            "content": {"application/json": {"schema": output}},
        },
        "400": _error_response(reasons["invalid_input"]),
        "404": _error_response(reasons["not_found"]),
    }
    if cap.kind == "command":
        out["422"] = _error_response(reasons["refused"])
    out["500"] = _error_response(reasons["internal"])
    out["default"] = _error_response(
        "unauthorized (401), forbidden (403), method_not_allowed (405), too_large (413) or "
        "busy (503); "
        "the body names what was refused."
    )
    return out


def operation(
    cap: Capability, components: Components, cases: list[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """The operation object of one capability route."""
    assert cap.http is not None
    method = cap.http[0]
    canonical_in = canonical_schema(cap.input, "validation")
    input_ref, root = components.hoist(canonical_in, f"the input of {cap.id}")
    output_ref, _ = components.hoist(
        canonical_schema(cap.output, "serialization"), f"the output of {cap.id}"
    )
    op: dict[str, Any] = {
        "operationId": cap.id,
        "summary": cap.title,
        "description": cap.description,
        "tags": [cap.namespace],
    }
    if method == "GET":
        op["parameters"] = _parameters(root, canonical_in, cases)
    else:
        media: dict[str, Any] = {"schema": input_ref}
        examples = _examples(cases)
        if examples:
            media["examples"] = examples
        op["requestBody"] = {
            "required": True,
            "description": f"The input of `{cap.id}`.",
            "content": {"application/json": media},
        }
    op["responses"] = _responses(cap, output_ref)
    if cap.kind == "command":
        op["security"] = [{"token": []}]
    op["x-majordomus-id"] = cap.id
    op["x-majordomus-kind"] = cap.kind
    op["x-majordomus-stability"] = cap.stability
    op["x-majordomus-provenance"] = cap.provenance()
    op["x-majordomus-benchmark"] = cap.benchmark()
    op["x-majordomus-cache"] = cap.cache.to_json()
    op["x-majordomus-effect"] = cap.effect
    exposure = cap.exposure()
    if "mcp" in exposure:
        op["x-majordomus-mcp"] = exposure["mcp"]
    if cap.cli is not None:
        op["x-majordomus-cli"] = " ".join(cap.cli)
    return op


def build_openapi(registry: Registry, cases: Cases) -> dict[str, Any]:
    """The whole document; raises `OpenApiError` listing every component clash."""
    components = Components()
    components.hoist(canonical_schema(ErrorBody, "serialization"), "the HTTP error body")
    routed = [cap for cap in registry if cap.http is not None]
    paths: dict[str, dict[str, Any]] = {}
    for cap in routed:
        assert cap.http is not None
        method, path = cap.http
        paths.setdefault(path, {})[method.lower()] = operation(cap, components, cases(cap))
    if components.problems:
        raise OpenApiError(components.problems)
    tags = [
        {"name": name, "description": getattr(registry.modules.get(name), "description", "")}
        for name in sorted({cap.namespace for cap in routed})
    ]
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": {
            "title": "majordomus",
            "version": __version__,
            "summary": "The repository's .ai/ layer, reasoning ledger and context compiler "
            "over HTTP.",
            "description": "Every operation is a capability of the majordomus registry, the "
            "same one the CLI and the MCP server project: the same input gives the same output "
            "on every surface. The operationId is the capability id.",
            "license": {"name": "MIT", "identifier": "MIT"},
            "contact": {"name": "majordomus"},
        },
        "externalDocs": {
            "description": "The generated capability reference",
            "url": "docs/generated/capabilities.md",
        },
        "servers": [{"url": "/", "description": "The server that serves this document."}],
        "tags": tags,
        "paths": {path: paths[path] for path in sorted(paths)},
        "security": [{}, {"token": []}],
        "components": {
            "schemas": {k: components.schemas[k] for k in sorted(components.schemas)},
            "securitySchemes": SECURITY_SCHEMES,
        },
        "x-majordomus": {
            "generator": GENERATOR,
            "infrastructure": [
                {"method": m, "path": p, "description": d} for m, p, d in INFRASTRUCTURE
            ],
            "binding": BINDING,
            "errors": [{"status": s, "code": c, "reason": r} for s, c, r in ERRORS],
        },
    }
