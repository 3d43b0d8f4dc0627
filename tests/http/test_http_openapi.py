"""The OpenAPI document (docs/http.md#the-openapi-document): derived from the registry alone,
component names from schema titles, operationId = capability id, every reference resolving."""

from __future__ import annotations

import json
from typing import Any

import pytest

from majordomus.capabilities.core import Empty
from majordomus.capabilities.reference import reference_workspace
from majordomus.capabilities.registry import Capability, Module, Registry, build_registry
from majordomus.capabilities.schemas import canonical_schema
from majordomus.capabilities.workspace import Workspace
from majordomus.http.openapi import OpenApiError, build_openapi
from majordomus.wire import Wire


@pytest.fixture(scope="module")
def document(probe_context: Workspace) -> dict[str, Any]:
    return build_openapi(probe_context.registry, lambda cap: cap.benchmark_cases(probe_context))


def _walk(node: Any, path: str = "#") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((f"{path}/{key}", (key, value)))
            out.extend(_walk(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_walk(value, f"{path}/{i}"))
    return out


def test_top_level_shape(document: dict[str, Any], probe_context: Workspace) -> None:
    assert document["openapi"] == "3.1.0"
    assert document["jsonSchemaDialect"] == "https://spec.openapis.org/oas/3.1/dialect/base"
    assert {"title", "version", "summary", "description", "license", "contact"} <= set(
        document["info"]
    )
    assert document["servers"][0]["url"] == "/"
    extension = document["x-majordomus"]
    assert extension["generator"].startswith("majordomus-cli ")
    assert {r["path"] for r in extension["infrastructure"]} == {
        "/",
        "/api/v1",
        "/openapi.json",
        "/swagger",
        "/mcp",
    }
    assert document["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    assert extension["binding"]
    assert {(e["status"], e["code"]) for e in extension["errors"]} >= {
        (400, "invalid_input"),
        (401, "unauthorized"),
        (404, "not_found"),
        (422, "refused"),
        (403, "forbidden"),
        (500, "internal"),
        (405, "method_not_allowed"),
        (413, "too_large"),
        (503, "busy"),
    }
    routed_modules = {cap.namespace for cap in probe_context.registry if cap.http}
    assert [t["name"] for t in document["tags"]] == sorted(routed_modules)


def test_one_operation_per_route_with_the_id_as_operation_id(
    document: dict[str, Any], probe_context: Workspace
) -> None:
    operations = {
        (method.upper(), path): op
        for path, item in document["paths"].items()
        for method, op in item.items()
    }
    routed = {cap.http: cap for cap in probe_context.registry if cap.http}
    assert set(operations) == set(routed)
    for route, cap in routed.items():
        op = operations[route]
        assert op["operationId"] == cap.id
        assert op["summary"] == cap.title
        assert op["tags"] == [cap.namespace]
        assert op["x-majordomus-id"] == cap.id
        assert op["x-majordomus-kind"] == cap.kind
        assert op["x-majordomus-effect"] == cap.effect
        assert op["x-majordomus-cache"] == cap.cache.to_json()
        assert op["x-majordomus-benchmark"] == cap.benchmark()
        assert op["x-majordomus-provenance"] == cap.provenance()
        assert op.get("x-majordomus-mcp") == cap.exposure().get("mcp")
        assert op.get("x-majordomus-cli") == (" ".join(cap.cli) if cap.cli else None)
        responses = op["responses"]
        expected = {"200", "400", "404", "500", "default"} | (
            {"422"} if cap.kind == "command" else set()
        )
        assert set(responses) == expected
        assert responses["200"]["description"] == f"{cap.title}: the result."
        for status in expected - {"200"}:
            schema = responses[status]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}
    assert len({op["operationId"] for op in operations.values()}) == len(operations)


def test_components_are_named_by_title_and_every_reference_resolves(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    assert list(schemas) == sorted(schemas)
    for name, schema in schemas.items():
        assert "title" not in schema, name
    refs = [value for _, (key, value) in _walk(document) if key == "$ref"]
    refs += [
        target
        for _, (key, value) in _walk(document)
        if key == "discriminator" and isinstance(value, dict)
        for target in value.get("mapping", {}).values()
    ]
    assert refs
    for ref in refs:
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.rsplit("/", 1)[-1] in schemas, ref
    assert "$defs" not in json.dumps(document)
    assert {"ErrorBody", "ErrorDetail", "SearchInput", "SearchResult", "ObjectSummary"} <= set(
        schemas
    )
    assert set(schemas["ErrorDetail"]["properties"]["code"]["enum"]) >= {"busy", "too_large"}


def test_the_seed_exposure_of_devcontext_explain() -> None:
    ctx = reference_workspace()
    cap = ctx.registry.get("devcontext.explain")
    assert cap is not None, "the devcontext module is not registered"
    assert cap.tool == "majordomus_devcontext_explain"
    assert cap.cli == ("devcontext", "explain")
    document = build_openapi(ctx.registry, lambda c: c.benchmark_cases(ctx))
    op = document["paths"]["/api/v1/devcontext/explain"]["get"]
    assert op["operationId"] == "devcontext.explain"
    schemas = document["components"]["schemas"]
    assert {"DevContextInput", "DevContextStanding", "Explanation"} <= set(schemas)


def test_get_parameters_follow_the_input_properties(document: dict[str, Any]) -> None:
    params = {p["name"]: p for p in document["paths"]["/api/v1/search"]["get"]["parameters"]}
    assert list(params) == ["query", "kind", "limit", "cursor"]
    assert all(p["in"] == "query" for p in params.values())
    assert params["query"]["required"] is True and params["kind"]["required"] is False
    assert params["kind"]["schema"] == {"type": "string"}
    assert params["limit"]["schema"] == {"type": "integer"}
    assert params["kind"]["description"] == "Only objects of this kind."
    assert params["query"]["examples"] == {"rule": {"value": "rule"}}
    echo = {p["name"]: p for p in document["paths"]["/api/v1/probe/echo"]["get"]["parameters"]}
    assert echo["items"]["content"]["application/json"]["schema"]["type"] == "array"
    assert "schema" not in echo["items"]
    assert echo["choice"]["schema"]["enum"] == ["a", "b"]
    assert echo["choice"]["description"] == "One of two words."
    empty = document["paths"]["/api/v1/live"]["get"]
    assert empty["parameters"] == []


def test_post_takes_a_request_body(document: dict[str, Any]) -> None:
    op = document["paths"]["/api/v1/probe/note"]["post"]
    assert "parameters" not in op
    body = op["requestBody"]
    assert body["required"] is True
    assert body["description"] == "The input of `probe.note`."
    media = body["content"]["application/json"]
    assert media["schema"] == {"$ref": "#/components/schemas/NoteInput"}
    assert media["examples"] == {"hello": {"value": {"note": "hello"}}}


class _Left(Wire):
    model_config = {"title": "Twin"}
    a: int


class _Right(Wire):
    model_config = {"title": "Twin"}
    b: str


def _left(ctx: Workspace, request: Empty) -> _Left:
    return _Left(a=1)


def _right(ctx: Workspace, request: Empty) -> _Right:
    return _Right(b="b")


def _twins() -> Registry:
    """Two capabilities whose outputs are different schemas titled `Twin`."""
    caps = tuple(
        Capability(
            id=f"twins.{side}",
            title=side,
            description="",
            handler=handler,
            http=("GET", f"/api/v1/twins/{side}"),
        )
        for side, handler in (("left", _left), ("right", _right))
    )
    twins = Module(
        id="twins", title="Twins", description="", stability="implemented", capabilities=caps
    )
    return build_registry([twins])


def test_two_schemas_under_one_name_fail_the_build() -> None:
    registry = _twins()
    with pytest.raises(OpenApiError) as failed:
        build_openapi(registry, lambda c: [])
    assert len(failed.value.problems) == 1
    assert "component 'Twin' has two different schemas" in failed.value.problems[0]
    assert canonical_schema(_Left, "serialization")["title"] == "Twin"


def test_output_schemas_are_the_models_not_empty(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["SearchResult"]["required"] == ["query", "count", "limit", "hits"]
    assert schemas["ObjectSummary"]["properties"]["snippet"]


def test_capabilities_validate_reports_an_openapi_clash(
    probe_context: Workspace, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from majordomus.cli.app import run
    from majordomus.cli.settings import Settings

    twins = Workspace.from_index(probe_context.index)
    twins.__dict__["registry"] = _twins()
    monkeypatch.setattr(Settings, "context", lambda self: twins)
    assert run(["capabilities", "validate"]) == 10
    problems = capsys.readouterr().out.splitlines()
    assert len(problems) == 2 and problems[0].startswith("FAIL OPENAPI component 'Twin'")
