"""The generated tools page (`majordomus/mcp/tools.json`): what the server serves for
`tools/list` and the process cache's key is what the live registry builds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.reference import reference_workspace
from majordomus.capabilities.registry import build_registry
from majordomus.capabilities.workspace import Workspace
from majordomus.mcp import catalog
from majordomus.mcp.framing import clean_value
from majordomus.mcp.listing import tool_entries
from majordomus.mcp.results import page
from majordomus.mcp.server import Server


def answer(srv: Server, message: Any) -> Any:
    return json.loads(srv.handle_line(json.dumps(message).encode()) or "null")


def test_the_shipped_file_is_what_the_registry_renders() -> None:
    assert catalog.TOOLS_FILE.read_text(encoding="utf-8") == catalog.render(
        reference_workspace().registry
    )


@pytest.mark.parametrize("read_only", [False, True])
def test_the_served_page_is_the_page_built_from_the_live_registry(
    layer_repo: Path, read_only: bool
) -> None:
    ctx = Workspace(layer_repo)
    served = answer(
        Server(ctx, read_only=read_only), {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    )
    live = clean_value(page("tools", tool_entries(ctx.registry, read_only), 0))
    assert served["result"] == live
    assert catalog.tool_entries(ctx.registry, read_only) is not None


def test_the_adopted_digests_give_the_fingerprint_the_schemas_give(layer_repo: Path) -> None:
    ctx = Workspace(layer_repo)
    built = ctx.registry.fingerprint
    Server(ctx, read_only=False)
    fresh = Workspace(layer_repo).registry
    fresh.adopt_descriptor_digests(catalog.descriptor_digests())
    assert fresh.fingerprint == built
    assert set(catalog.descriptor_digests()) == {c.id for c in fresh.builtin}


def test_a_registry_with_other_tools_is_not_served_the_shipped_page(layer_repo: Path) -> None:
    registry = build_registry([], None, object_output="x:y", empty="x:z")
    assert catalog.tool_entries(registry, read_only=False) is None


def test_a_cached_call_keys_the_cache_without_building_a_schema(
    layer_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from majordomus.capabilities import registry as registry_module

    def no_schemas(_cap: Any) -> str:
        raise AssertionError("a descriptor was built")

    monkeypatch.setattr(registry_module, "descriptor_digest", no_schemas)
    srv = Server(Workspace(layer_repo), read_only=False)
    srv.ctx.executor  # noqa: B018 - built before the call
    call = {"name": "majordomus_search", "arguments": {"query": "rule"}}
    first = answer(srv, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
    again = answer(srv, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
    assert first == again and first["result"]["isError"] is False
    assert srv.ctx.executor.counters.handler_invocations == 1
