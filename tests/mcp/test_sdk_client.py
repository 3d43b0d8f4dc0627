"""The official MCP Python SDK client drives `majordomus mcp` (issue 7 item 2)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from mcp import types
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, get_default_environment
from mcp.shared.exceptions import MCPError

from majordomus.capabilities.workspace import Workspace
from majordomus.errors import CapabilityError
from majordomus.mcp.devcontext import COMPILE, fitted
from majordomus.mcp.listing import SCHEMA_PREFIX, resource_entries, schema_resources, tool_entries
from majordomus.mcp.server import PAGE_BYTES, text_result
from tests.conftest import GIT_ENV, MAJORDOMUS, answered_sdk, sdk_session, witness

RECORD_TOOL = "majordomus_reasoning_record"
ENV = {**GIT_ENV, "MAJORDOMUS_LOG": "warn"}


def in_process(root: Path) -> Workspace:
    """The same repository and environment the server sees, for expected answers."""
    return Workspace(root, environ=get_default_environment() | ENV)


def expected_answer(ctx: Workspace, capability_id: str, arguments: dict[str, Any]) -> Any:
    """The text block's value: the devcontext bundle as text, every other answer as JSON."""
    try:
        if capability_id == COMPILE:
            return ("ok", fitted(ctx, arguments, text_result)["content"][0]["text"])
        cap = ctx.registry.get(capability_id)
        answer = ctx.executor.answer(cap, arguments, page_bytes=PAGE_BYTES)
        return ("ok", answer.model_dump(mode="json", by_alias=True))
    except CapabilityError as exc:
        return ("error", exc.code)


async def every_resource(session: ClientSession) -> list[Any]:
    pages = [await session.list_resources()]
    while pages[-1].next_cursor:
        cursor = types.PaginatedRequestParams(cursor=pages[-1].next_cursor)
        pages.append(await session.list_resources(params=cursor))
    return [resource for page in pages for resource in page.resources]


def test_every_tool_and_resource_through_the_sdk(layer_repo: Path) -> None:
    before = witness(layer_repo)
    ctx = in_process(layer_repo)
    listed_tools = tool_entries(ctx.registry)
    reads = [t for t in listed_tools if t["_meta"]["majordomus"]["effect"] == "read"]
    cases = [
        (
            t["name"],
            name,
            arguments,
            expected_answer(ctx, t["_meta"]["majordomus"]["id"], arguments),
        )
        for t in reads
        for name, arguments in ctx.registry.get(t["_meta"]["majordomus"]["id"]).benchmark_cases(ctx)
    ]
    resources = resource_entries(ctx.registry, ctx.index)

    async def work(session: ClientSession, initialized: Any) -> dict[str, Any]:
        tools = await session.list_tools()
        calls = [
            (tool, await session.call_tool(tool, arguments)) for tool, _, arguments, _ in cases
        ]
        listed = await every_resource(session)
        read = [await session.read_resource(r["uri"]) for r in resources]
        templates = await session.list_resource_templates()
        refused = await session.call_tool("majordomus_get", {})
        try:
            await session.call_tool("majordomus_nope", {})
            unknown = None
        except MCPError as exc:
            unknown = (exc.code, exc.message)
        await session.send_ping()
        return {
            "init": initialized,
            "tools": tools,
            "calls": calls,
            "resources": listed,
            "read": read,
            "templates": templates,
            "refused": refused,
            "unknown": unknown,
        }

    got, stderr = sdk_session(layer_repo, work)

    init = got["init"]
    assert init.protocol_version == "2025-11-25"
    assert init.server_info.name == "majordomus"
    assert "state ok" in init.instructions
    assert init.capabilities.tools is not None and init.capabilities.resources is not None
    assert init.capabilities.prompts is not None

    assert [t.name for t in got["tools"].tools] == [t["name"] for t in listed_tools]
    for tool in got["tools"].tools:
        assert tool.input_schema["type"] == "object"
        assert tool.output_schema is None

    assert len(got["calls"]) == len(cases) >= len(reads)
    for (tool, case, _, expected), (_, result) in zip(cases, got["calls"], strict=True):
        outcome, value = expected
        if outcome == "ok":
            assert result.is_error is False, (tool, case, result.content)
            if isinstance(value, str):
                assert result.structured_content is None
                assert [block.text for block in result.content] == [value], (tool, case)
            else:
                assert answered_sdk(result) == value, (tool, case)
        else:
            assert result.is_error is True, (tool, case)
            assert result.meta == {"majordomus": {"error": {"code": value}}}

    assert [r.uri for r in got["resources"]] == [r["uri"] for r in resources]
    for entry, read in zip(resources, got["read"], strict=True):
        [content] = read.contents
        assert content.uri == entry["uri"]
        assert content.mime_type == entry["mimeType"]
        obj = ctx.index.by_uri.get(entry["uri"])
        if obj is not None:
            assert content.text == obj.content
        elif entry["uri"].startswith(SCHEMA_PREFIX):
            assert json.loads(content.text) == schema_resources(ctx.registry)[entry["uri"]]
        else:
            answer = ctx.executor.call(entry["_meta"]["majordomus"]["id"], {})
            assert json.loads(content.text) == answer
    assert [t.uri_template for t in got["templates"].resource_templates] == [
        "majordomus://{kind}/{identity}",
        "majordomus://schema/{kind}",
        "majordomus://reasoning/record/{id}",
    ]

    assert got["refused"].is_error is True
    assert got["refused"].meta == {"majordomus": {"error": {"code": "invalid_input"}}}
    assert got["unknown"] == (-32602, "unknown tool: majordomus_nope")

    assert "Traceback" not in stderr
    assert witness(layer_repo) == before


def test_a_reasoning_record_through_the_tool(layer_repo: Path) -> None:
    before = witness(layer_repo)
    arguments = {
        "record": {
            "kind": "assessment",
            "subject": "The MCP surface records through the one store",
        }
    }

    async def work(session: ClientSession, initialized: Any) -> tuple[Any, Any]:
        tools = await session.list_tools()
        return tools, await session.call_tool(RECORD_TOOL, arguments)

    (tools, result), stderr = sdk_session(layer_repo, work)
    [entry] = [t for t in tools.tools if t.name == RECORD_TOOL]
    assert not entry.annotations.read_only_hint
    assert result.is_error is False, result.content
    path = answered_sdk(result)["path"]
    assert path.startswith(".ai/local/state/reasoning/")
    written = layer_repo / path
    assert written.is_file()
    assert json.loads(written.read_text())["id"] == answered_sdk(result)["record"]["id"]
    assert "Traceback" not in stderr
    assert witness(layer_repo) == before


def test_the_sdk_client_in_auto_mode_falls_back_to_initialize(layer_repo: Path) -> None:
    """`Client` probes `server/discover` first; `-32601` sends it to the handshake."""
    params = StdioServerParameters(command=MAJORDOMUS, args=["mcp"], cwd=str(layer_repo), env=ENV)

    async def main() -> tuple[Any, Any]:
        async with Client(params) as client:
            listed = await client.list_resources()
            return client.session.initialize_result, listed

    initialized, listed = asyncio.run(main())
    assert initialized is not None
    assert initialized.protocol_version == "2025-11-25"
    assert "majordomus://repository" in [r.uri for r in listed.resources]
