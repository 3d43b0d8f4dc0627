"""Tool input schemas a generic MCP client can fill (README: "In an MCP client")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession

from majordomus.capabilities.workspace import Workspace
from tests.conftest import GIT_ENV, answered_sdk, sdk_session

ENV = {**GIT_ENV, "MAJORDOMUS_LOG": "warn"}
NUMBERS = {"budget_tokens": 4000, "max_depth": 2, "limit": 5, "floor": 0.2}


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    return defs[ref.removeprefix("#/$defs/")] if isinstance(ref, str) else node


def _object_valued(node: dict[str, Any], defs: dict[str, Any]) -> bool:
    target = _resolve(node, defs)
    if target.get("type") == "object":
        return True
    choices = target.get("oneOf") or target.get("anyOf") or []
    alternatives = [c for c in choices if c != {"type": "null"}]
    return bool(alternatives) and all(_object_valued(c, defs) for c in alternatives)


def _every_property(node: Any) -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for name, prop in (node.get("properties") or {}).items():
            found.append((name, prop))
        for value in node.values():
            found += _every_property(value)
    elif isinstance(node, list):
        for value in node:
            found += _every_property(value)
    return found


def assert_fillable(tool: str, schema: dict[str, Any]) -> None:
    assert schema["type"] == "object", tool
    defs = schema.get("$defs", {})
    for name, prop in schema.get("properties", {}).items():
        assert "type" in prop, (tool, name, prop)
        assert {"type": "null"} not in prop.get("anyOf", []), (tool, name)
        assert prop.get("default", "unset") is not None, (tool, name)
    for name, prop in _every_property(schema):
        if _object_valued(prop, defs):
            declared = prop.get("type")
            assert declared == "object" or "object" in declared, (tool, name, prop)


def test_every_input_schema_is_fillable_and_null_means_absent(layer_repo: Path) -> None:
    ctx = Workspace(layer_repo, environ=ENV)
    base = {
        cap.tool: dict(cap.benchmark_cases(ctx)[0][1])
        for cap in ctx.registry
        if cap.tool is not None and cap.effect == "read" and cap.benchmark_cases(ctx)
    }

    async def work(session: ClientSession, _: Any) -> tuple[Any, list[Any]]:
        tools = await session.list_tools()
        calls = []
        for tool in tools.tools:
            if tool.name not in base:
                continue
            required = set(tool.input_schema.get("required", []))
            for name, prop in tool.input_schema.get("properties", {}).items():
                if name in required or prop.get("type") not in ("integer", "number"):
                    continue
                value = NUMBERS.get(name, 1)
                given = await session.call_tool(tool.name, {**base[tool.name], name: value})
                null = await session.call_tool(tool.name, {**base[tool.name], name: None})
                absent_args = {k: v for k, v in base[tool.name].items() if k != name}
                absent = await session.call_tool(tool.name, absent_args)
                calls.append((tool.name, name, given, null, absent))
        return tools, calls

    (tools, calls), _ = sdk_session(layer_repo, work)
    for tool in tools.tools:
        assert_fillable(tool.name, tool.input_schema)
    [record] = [t for t in tools.tools if t.name == "majordomus_reasoning_record"]
    assert record.input_schema["properties"]["record"]["type"] == "object"

    tried = {(tool, name) for tool, name, *_ in calls}
    for expected in [
        ("majordomus_devcontext", "budget_tokens"),
        ("majordomus_devcontext", "max_depth"),
        ("majordomus_devcontext", "floor"),
        ("majordomus_devcontext_explain", "budget_tokens"),
        ("majordomus_search", "limit"),
    ]:
        assert expected in tried
    for tool, name, given, null, absent in calls:
        assert given.is_error is False, (tool, name, given.content)
        assert null.is_error is False, (tool, name, null.content)
        assert null.structured_content is None
        assert [b.text for b in null.content] == [b.text for b in absent.content], (tool, name)
    [search] = [c for c in calls if c[:2] == ("majordomus_search", "limit")]
    assert answered_sdk(search[2])["limit"] == 5
    assert answered_sdk(search[3])["limit"] == 20
