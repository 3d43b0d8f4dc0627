"""Adoption over MCP: a server started outside a repository still answers, and an excluded
file is named where a client reads it (issue 33 items 1 and 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

from tests.conftest import git, sdk_session

EXCLUDED = ".ai/repo/project/issues/I0824.yaml"


def test_a_server_outside_a_repository_answers_every_call_with_the_fix(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()

    async def work(session: ClientSession, initialized: Any) -> dict[str, Any]:
        tools = await session.list_tools()
        called = await session.call_tool("majordomus_list", {})
        resources = await session.list_resources()
        prompts = await session.list_prompts()
        try:
            await session.read_resource("majordomus://repository")  # type: ignore[arg-type]
            read = None
        except MCPError as exc:
            read = (exc.code, exc.message)
        await session.send_ping()
        return {
            "init": initialized,
            "tools": tools,
            "called": called,
            "resources": resources,
            "prompts": prompts,
            "read": read,
        }

    got, _ = sdk_session(home, work)
    assert "serves no repository" in got["init"].instructions
    assert '"--repo"' in got["init"].instructions
    assert any(t.name == "majordomus_list" for t in got["tools"].tools)
    assert got["called"].is_error is True
    text = got["called"].content[0].text
    assert str(home) in text and "--repo" in text
    assert got["called"].meta == {"majordomus": {"error": {"code": "not_found"}}}
    assert got["resources"].resources == [] and got["prompts"].prompts == []
    assert got["read"] is not None and got["read"][0] == -32002 and "--repo" in got["read"][1]


def test_an_excluded_file_is_named_on_every_read(layer_repo: Path) -> None:
    issues = layer_repo / ".ai/repo/project/issues"
    (issues / "I0824.yaml").write_text("id: I0824\ntitle: Two\nunsealed: yes\n")
    git(layer_repo, "add", "-A")
    git(layer_repo, "commit", "-qm", "an issue with an unknown key")

    async def work(session: ClientSession, _: Any) -> tuple[Any, Any, Any]:
        try:
            await session.read_resource("majordomus://issue/I0824")  # type: ignore[arg-type]
            read = None
        except MCPError as exc:
            read = exc.message
        got = await session.call_tool("majordomus_get", {"uri": "I0824"})
        compiled = await session.call_tool("majordomus_devcontext", {"issue": "I0824"})
        return read, got, compiled

    (read, got, compiled), _ = sdk_session(layer_repo, work)
    said = f"{EXCLUDED} is in the layer but excluded: unknown_key "
    assert read is not None and read.startswith(said) and "majordomus lint" in read
    assert got.is_error and got.content[0].text.startswith(f"not found: {said}")
    assert compiled.is_error and compiled.content[0].text.startswith(f"not found: {said}")
