"""The MCP Inspector CLI drives `majordomus mcp` and MCP over HTTP; needs node
(`MAJORDOMUS_INSPECTOR_BIN`, or `MAJORDOMUS_TEST_INSPECTOR=1` lets npx fetch it).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GIT_ENV, MAJORDOMUS, answered, npx_command, serve

PACKAGE = "@modelcontextprotocol/inspector"
CONTINUE = "majordomus://prompt/continue"


def inspector() -> list[str] | None:
    """The command that runs the Inspector, or None when it is not at hand."""
    given = os.environ.get("MAJORDOMUS_INSPECTOR_BIN")
    if given:
        return [given]
    return npx_command(PACKAGE, "MAJORDOMUS_TEST_INSPECTOR")


@pytest.fixture(scope="module")
def command() -> list[str]:
    found = inspector()
    if found is None:
        pytest.skip(
            "the MCP Inspector is not at hand (set MAJORDOMUS_INSPECTOR_BIN, or "
            "MAJORDOMUS_TEST_INSPECTOR=1 to let npx fetch it)"
        )
    return found


def run(command: list[str], root: Path, *args: str, url: str | None = None) -> Any:
    env = {**os.environ, **GIT_ENV, "MAJORDOMUS_LOG": "warn"}
    server = [url, "--transport", "http"] if url else [MAJORDOMUS, "mcp"]
    done = subprocess.run(
        [*command, "--cli", *server, *args],
        cwd=root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    return json.loads(done.stdout)


def test_the_inspector_lists_calls_prompts_and_reads(command: list[str], layer_repo: Path) -> None:
    tools = run(command, layer_repo, "--method", "tools/list")["tools"]
    assert "majordomus_search" in [t["name"] for t in tools]
    assert all(t["inputSchema"]["type"] == "object" for t in tools)

    found = run(
        command,
        layer_repo,
        "--method",
        "tools/call",
        "--tool-name",
        "majordomus_search",
        "--tool-arg",
        "query=handover",
    )
    assert found["isError"] is False
    assert "majordomus://prompt/handover" in [h["uri"] for h in answered(found)["hits"]]

    prompts = run(command, layer_repo, "--method", "prompts/list")["prompts"]
    assert [p["name"] for p in prompts] == ["devcontext", "continue", "handover"]
    got = run(
        command,
        layer_repo,
        "--method",
        "prompts/get",
        "--prompt-name",
        "handover",
        "--prompt-args",
        "task=inspected",
    )
    assert "--task inspected`" in got["messages"][0]["content"]["text"]

    templates = run(command, layer_repo, "--method", "resources/templates/list")
    assert [t["uriTemplate"] for t in templates["resourceTemplates"]] == [
        "majordomus://{kind}/{identity}",
        "majordomus://schema/{kind}",
        "majordomus://reasoning/record/{id}",
    ]
    read = run(
        command, layer_repo, "--method", "resources/read", "--uri", "majordomus://prompt/continue"
    )
    text = (layer_repo / ".ai/repo/prompts/continue.md").read_text()
    assert read["contents"][0]["text"] == text


def test_the_inspector_reads_each_answer_once(command: list[str], layer_repo: Path) -> None:
    tools = run(command, layer_repo, "--method", "tools/list")["tools"]
    [record] = [t for t in tools if t["name"] == "majordomus_reasoning_record"]
    assert record["inputSchema"]["properties"]["record"]["type"] == "object"
    assert all("outputSchema" not in t for t in tools)
    schema = run(
        command, layer_repo, "--method", "resources/read", "--uri", "majordomus://schema/plan"
    )
    assert json.loads(schema["contents"][0]["text"])["properties"]["kind"]["const"] == "plan"
    compiled = run(
        command, layer_repo, "--method", "tools/call", "--tool-name", "majordomus_devcontext"
    )
    [block] = compiled["content"]
    assert "structuredContent" not in compiled
    assert block["text"].startswith("# Development context")


def test_the_inspector_over_streamable_http(command: list[str], layer_repo: Path) -> None:
    """The Inspector's CLI sends no token (it has no header option before the releases that
    need node 22), so it reads, and the write tool answers why it may not write."""
    served = serve(layer_repo)
    url = f"{served.url}/mcp"
    try:
        tools = run(command, layer_repo, "--method", "tools/list", url=url)["tools"]
        found = run(
            command,
            layer_repo,
            *("--method", "tools/call", "--tool-name", "majordomus_search"),
            *("--tool-arg", "query=handover"),
            url=url,
        )
        read = run(command, layer_repo, "--method", "resources/read", "--uri", CONTINUE, url=url)
        prompts = run(command, layer_repo, "--method", "prompts/list", url=url)["prompts"]
        refused = run(
            command,
            layer_repo,
            *("--method", "tools/call", "--tool-name", "majordomus_reasoning_record"),
            *("--tool-arg", 'record={"kind": "assessment", "subject": "over http?"}'),
            url=url,
        )
    finally:
        assert served.stop() == 0
    assert "majordomus_reasoning_record" in [t["name"] for t in tools]
    assert found["isError"] is False
    hits = json.loads(found["content"][0]["text"])["hits"]
    assert "majordomus://prompt/handover" in [h["uri"] for h in hits]
    assert read["contents"][0]["text"] == (layer_repo / ".ai/repo/prompts/continue.md").read_text()
    assert [p["name"] for p in prompts] == ["devcontext", "continue", "handover"]
    assert refused["isError"] is True and "token" in refused["content"][0]["text"]
    assert not (layer_repo / ".ai/local/state/reasoning").exists()
