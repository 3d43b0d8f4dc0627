"""MCP over Streamable HTTP at `/mcp` (docs/mcp.md): the conformance table, the same answers
as stdio, the token, `--mcp-only`, live re-indexing, and the official SDK's Streamable HTTP
client. The Inspector and the conformance suite are in `test_http_mcp_clients.py`."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from majordomus.capabilities.workspace import Workspace
from majordomus.mcp.listing import resource_entries, tool_entries
from majordomus.mcp.prompts import prompt_entries
from tests.conftest import Served, command_env, git, initialised_repo, run_majordomus
from tests.mcp.conftest import Pipes

RECORD_TOOL = "majordomus_reasoning_record"
TOKEN_FILE = ".ai/local/serve-token"
ASSESSMENT = {"record": {"kind": "assessment", "subject": "Is MCP over HTTP the same?"}}


rpc = Pipes.request


def post(client: httpx.Client, message: Any, **headers: str) -> httpx.Response:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return client.post(
        "/mcp", content=body, headers={"Content-Type": "application/json", **headers}
    )


def test_the_conformance_table(server: Served) -> None:
    host = server.url.removeprefix("http://")
    with server.client() as client:
        initialize = rpc(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
        answer = post(client, initialize)
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
        result = answer.json()["result"]
        assert result["protocolVersion"] == "2025-11-25"
        assert result["capabilities"] == {
            "resources": {},
            "tools": {},
            "prompts": {},
            "completions": {},
        }
        assert "mcp-session-id" not in answer.headers
        for version in ("2025-06-18", "2025-11-25"):
            ping = post(client, rpc(2, "ping"), **{"MCP-Protocol-Version": version})
            assert ping.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}
        assert post(client, rpc(3, "ping")).status_code == 200  # no header: the oldest
        unsupported = post(client, rpc(4, "ping"), **{"MCP-Protocol-Version": "2099-01-01"})
        assert unsupported.status_code == 400
        assert unsupported.json()["id"] is None and unsupported.json()["error"]["code"] == -32600
        assert "2099-01-01" in unsupported.json()["error"]["message"]

        foreign = {"Origin": "http://evil.example"}
        assert post(client, rpc(5, "ping"), **foreign).status_code == 403
        assert client.get("/mcp", headers=foreign).status_code == 403
        own = post(client, rpc(6, "ping"), Origin=f"http://{host}")
        assert own.status_code == 200
        for method in ("GET", "DELETE"):
            refused = client.request(method, "/mcp")
            assert refused.status_code == 405 and refused.headers["allow"] == "POST"

        note = post(client, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert (note.status_code, note.content) == (202, b"")
        for body in (b"", b"not json"):
            bad = post(client, body)
            assert bad.status_code == 400 and bad.json()["error"]["code"] == -32700
        batch = post(client, [rpc(8, "ping"), rpc(9, "nope")])
        assert [a["id"] for a in batch.json()] == [8, 9]
        assert batch.json()[1]["error"]["code"] == -32601
        gone = post(client, rpc(10, "resources/subscribe", {"uri": "majordomus://repository"}))
        assert gone.json()["error"]["code"] == -32601  # no stream to send updates on
        assert client.get("/api/v1/live").status_code == 200


def walk(ctx: Workspace) -> list[dict[str, Any]]:
    """Every list, every read tool with its benchmark cases, the write tool refusing, every
    resource, every prompt and a completion: one request each."""
    requests: list[tuple[str, dict[str, Any]]] = [
        (method, {}) for method in ("tools/list", "resources/list", "prompts/list")
    ]
    requests.append(("resources/templates/list", {}))
    for tool in tool_entries(ctx.registry):
        cap = ctx.registry.get(tool["_meta"]["majordomus"]["id"])
        if cap.kind == "command":
            requests.append(("tools/call", {"name": tool["name"], "arguments": {"record": 1}}))
            continue
        for _, arguments in cap.benchmark_cases(ctx):
            requests.append(("tools/call", {"name": tool["name"], "arguments": arguments}))
    for entry in resource_entries(ctx.registry, ctx.index):
        requests.append(("resources/read", {"uri": entry["uri"]}))
    for prompt in prompt_entries(ctx):
        needed = {a["name"]: "x" for a in prompt.get("arguments", []) if a.get("required")}
        requests.append(("prompts/get", {"name": prompt["name"], "arguments": needed}))
    template = {"type": "ref/resource", "uri": "majordomus://{kind}/{identity}"}
    requests.append(("completion/complete", {"ref": template, "argument": {"name": "kind"}}))
    return [rpc(n, method, params) for n, (method, params) in enumerate(requests, start=1)]


def test_every_answer_over_http_equals_stdio(server: Served, served_repo: Path) -> None:
    ctx = Workspace(served_repo, environ=command_env())
    requests = walk(ctx)
    assert len(requests) > 40
    lines = b"".join(json.dumps(r).encode() + b"\n" for r in requests)
    done = run_majordomus(["mcp"], cwd=served_repo, input=lines)
    assert done.code == 0, done.stderr
    over_stdio = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    with server.client() as client:
        for request in requests:
            answer = post(client, request)
            assert answer.status_code == 200, answer.text
            assert answer.json() == over_stdio[request["id"]], request
    called = [r for r in requests if r["method"] == "tools/call"]
    assert {r["params"]["name"] for r in called} == {t["name"] for t in tool_entries(ctx.registry)}


def private(tmp_path: Path) -> Path:
    return initialised_repo(tmp_path / "repo")


def call_record(client: httpx.Client, **headers: str) -> dict[str, Any]:
    message = rpc(1, "tools/call", {"name": RECORD_TOOL, "arguments": ASSESSMENT})
    answer = post(client, message, **headers)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["result"]
    return result


def test_the_write_tool_wants_the_token_as_the_api_does(tmp_path: Path, launch: Any) -> None:
    root = private(tmp_path)
    served = launch(root)
    try:
        with httpx.Client(base_url=served.url, timeout=30) as anyone:
            refused = call_record(anyone)
            assert refused["isError"] is True
            assert refused["_meta"] == {"majordomus": {"error": {"code": "forbidden"}}}
            assert "--open-loopback" in refused["content"][0]["text"]
            assert not (root / ".ai/local/state/reasoning").exists()
            tools = post(anyone, rpc(2, "tools/list")).json()["result"]["tools"]
            assert RECORD_TOOL in [t["name"] for t in tools]
            written = call_record(anyone, Authorization=f"Bearer {served.token}")
            assert written["isError"] is False
            assert (root / json.loads(written["content"][0]["text"])["path"]).is_file()
    finally:
        assert served.stop() == 0
    opened = launch(root, "--open-loopback")
    try:
        with httpx.Client(base_url=opened.url, timeout=30) as anyone:
            assert call_record(anyone)["isError"] is False
    finally:
        assert opened.stop() == 0


def test_the_token_is_made_once_private_and_printed(tmp_path: Path, launch: Any) -> None:
    root = private(tmp_path)
    first = launch(root)
    assert first.stop() == 0
    token = (root / TOKEN_FILE).read_text().strip()
    assert len(token) >= 43
    assert stat.S_IMODE((root / TOKEN_FILE).stat().st_mode) == 0o600
    printed = [line for line in first.stderr if token in line]
    assert len(printed) == 1 and "Authorization: Bearer" in printed[0]
    assert git(root, "status", "--porcelain") == ""  # .ai/local/ is ignored
    again = launch(root, "--mcp-only")
    try:
        assert again.token == token
        assert any(f"{again.url}/mcp only" in line for line in again.stderr)
        with again.client() as client:
            assert post(client, rpc(1, "ping")).json()["result"] == {}
            missing = client.get("/api/v1/live")
            assert missing.status_code == 404 and "/mcp only" in missing.text
            assert client.get("/").status_code == 404
    finally:
        assert again.stop() == 0


def refused_to_start(root: Path, *args: str) -> str:
    done = run_majordomus(["serve", "--port", "0", *args], cwd=root, timeout=60)
    assert done.code == 13, done.stderr
    [line] = [x for x in done.stderr.splitlines() if x.startswith("majordomus: ")]
    assert "Traceback" not in done.stderr
    return line


def test_a_token_file_that_may_not_be_trusted_is_never_used(tmp_path: Path, launch: Any) -> None:
    root = private(tmp_path)
    token = root / TOKEN_FILE
    token.write_text("k" * 43 + "\n")
    token.chmod(0o644)
    line = refused_to_start(root, "--host", "0.0.0.0")
    assert "refusing to listen on 0.0.0.0 without a token" in line
    assert "readable by others" in line
    loopback = launch(root)
    try:
        assert any("every write is refused" in x for x in loopback.stderr)
        assert not any("k" * 43 in x for x in loopback.stderr)
        with httpx.Client(base_url=loopback.url, timeout=30) as client:
            shown = {"Authorization": "Bearer " + "k" * 43}
            write = client.post("/api/v1/reasoning/records", json=ASSESSMENT, headers=shown)
            assert write.status_code == 401
            assert client.get("/api/v1/live").status_code == 200
    finally:
        assert loopback.stop() == 0

    token.unlink()
    token.symlink_to(tmp_path / "elsewhere")
    assert "symbolic link" in refused_to_start(root, "--host", "0.0.0.0")
    token.unlink()
    token.write_text("k" * 43 + "\n")
    token.chmod(0o600)
    git(root, "add", "-f", TOKEN_FILE)
    assert "tracked by git" in refused_to_start(root, "--host", "0.0.0.0")


def listed_uris(client: httpx.Client) -> list[str]:
    """Every resource's URI, page after page (`resources/list` pages by size)."""
    uris: list[str] = []
    params: dict[str, Any] = {}
    while True:
        result = post(client, rpc(1, "resources/list", params)).json()["result"]
        uris += [r["uri"] for r in result["resources"]]
        if "nextCursor" not in result:
            return uris
        params = {"cursor": result["nextCursor"]}


def test_an_edit_of_the_layer_is_served_at_the_next_request(tmp_path: Path, launch: Any) -> None:
    root = private(tmp_path)
    served = launch(root)
    uri = "majordomus://rule/project.over-http@1"
    try:
        with served.client() as client:
            assert uri not in listed_uris(client)
            made = run_majordomus(
                ["new", "rule", "project.over-http", "--title", "Over HTTP", "--statement", "Live"],
                cwd=root,
            )
            assert made.code == 0, made.stderr
            git(root, "add", "-A")
            assert uri in listed_uris(client)
            read = post(client, rpc(3, "resources/read", {"uri": uri})).json()["result"]
            assert "Live" in read["contents"][0]["text"]
    finally:
        assert served.stop() == 0


def test_the_official_sdk_client_over_streamable_http(tmp_path: Path, launch: Any) -> None:
    root = private(tmp_path)
    served = launch(root)

    async def session() -> dict[str, Any]:
        shown = {"Authorization": f"Bearer {served.token}"}
        async with (
            httpx2.AsyncClient(headers=shown, timeout=30) as http,
            streamable_http_client(f"{served.url}/mcp", http_client=http) as (read, write),
            ClientSession(read, write) as client,
        ):
            initialized = await client.initialize()
            return {
                "init": initialized,
                "tools": await client.list_tools(),
                "search": await client.call_tool("majordomus_search", {"query": "handover"}),
                "read": await client.read_resource("majordomus://prompt/continue"),
                "prompts": await client.list_prompts(),
                "record": await client.call_tool(RECORD_TOOL, ASSESSMENT),
            }

    try:
        got = asyncio.run(session())
    finally:
        assert served.stop() == 0
    assert got["init"].protocol_version == "2025-11-25"
    assert got["init"].server_info.name == "majordomus"
    assert "majordomus_search" in [t.name for t in got["tools"].tools]
    hits = json.loads(got["search"].content[0].text)["hits"]
    assert "majordomus://prompt/handover" in [h["uri"] for h in hits]
    text = (root / ".ai/repo/prompts/continue.md").read_text()
    assert got["read"].contents[0].text == text
    assert [p.name for p in got["prompts"].prompts][:1] == ["devcontext"]
    assert got["record"].is_error is False
    assert "Traceback" not in "".join(served.stderr)
