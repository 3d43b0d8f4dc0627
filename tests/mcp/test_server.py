"""The protocol module in-process: the paths a real repository cannot provoke (internal
failures and their redaction, a query resource that refuses, the writing command tool), the
loop's exits, the shipped tools page and listings computed once; `--read-only` is
tests/mcp/test_protocol.py's."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.builtin import builtin_registry
from majordomus.capabilities.core import RepositoryReport
from majordomus.capabilities.workspace import Workspace
from majordomus.errors import Internal, Refused
from majordomus.mcp import listing, server
from majordomus.mcp.jsonrpc import encode
from majordomus.mcp.server import Server
from majordomus.mcp.session import run
from majordomus.shipped import shipped_text
from tests.mcp.conftest import Pipes

SECRET = "sk-ant-" + "a1b2c3d4" * 4


@pytest.fixture
def ctx(layer_repo: Path) -> Workspace:
    return Workspace(layer_repo)


def answer(srv: Server, message: Any) -> Any:
    found = srv.answer(json.dumps(message).encode())
    return None if found is None else json.loads(encode(found))


req = Pipes.request


@pytest.mark.parametrize(
    ("failure", "shown"),
    [
        (Internal(f"the token {SECRET} leaked"), "the token [redacted:anthropic-key] leaked"),
        (RuntimeError(f"password={SECRET}"), "RuntimeError: password=[redacted:anthropic-key]"),
    ],
)
def test_a_failure_in_a_tool_is_a_redacted_rpc_error(
    ctx: Workspace, monkeypatch, failure: Exception, shown: str
) -> None:
    srv = Server(ctx, read_only=False)

    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise failure

    monkeypatch.setattr(ctx.executor, "answer", boom)
    response = answer(srv, req("x", "tools/call", {"name": "majordomus_list", "arguments": {}}))
    assert response == {
        "jsonrpc": "2.0",
        "id": "x",
        "error": {"code": -32603, "message": f"internal: {shown}"},
    }


def test_a_refusing_query_resource_answers_invalid_params(ctx: Workspace, monkeypatch) -> None:
    srv = Server(ctx, read_only=False)

    def refuse(_ctx: Workspace, _uri: str) -> Any:
        raise Refused("the ledger cannot be read")

    monkeypatch.setattr(server, "resolve_resource", refuse)
    response = answer(srv, req(2, "resources/read", {"uri": "majordomus://repository"}))
    assert response == {
        "jsonrpc": "2.0",
        "id": 2,
        "error": {"code": -32602, "message": "the ledger cannot be read"},
    }


def test_resources_read_of_a_query_is_its_pretty_answer(ctx: Workspace) -> None:
    srv = Server(ctx, read_only=False)
    response = answer(srv, req(3, "resources/read", {"uri": "majordomus://repository"}))
    [content] = response["result"]["contents"]
    assert content["mimeType"] == "application/json"
    assert content["uri"] == "majordomus://repository"
    expected = ctx.executor.call("repository.info", {})
    assert content["text"] == json.dumps(expected, ensure_ascii=False, indent=2)
    RepositoryReport.model_validate_json(content["text"])


def test_a_writing_command_is_named_and_annotated(ctx: Workspace) -> None:
    srv = Server(ctx, read_only=False)
    assert "Tools that write the repository: majordomus_reasoning_record;" in srv.instructions
    tools = answer(srv, req(1, "tools/list"))["result"]["tools"]
    [entry] = [t for t in tools if t["name"] == "majordomus_reasoning_record"]
    meta = {"majordomus": {"id": "reasoning.record", "effect": "repository_mutation"}}
    assert entry["_meta"] == meta
    assert entry["annotations"] == {"openWorldHint": False}, "the other hints' defaults hold"


def test_the_shipped_tools_page_is_what_the_registry_renders() -> None:
    assert shipped_text(*listing.TOOLS_PAGE) == listing.render_tools(builtin_registry())


def test_resources_are_listed_once_per_index(ctx: Workspace, monkeypatch) -> None:
    calls = []
    resource_entries = listing.resource_entries

    def counted(*args: Any) -> Any:
        calls.append(args)
        return resource_entries(*args)

    monkeypatch.setattr(server, "resource_entries", counted)
    srv = Server(ctx, read_only=False)
    first = [answer(srv, req(i, m)) for i, m in enumerate(["tools/list", "resources/list"])]
    again = [answer(srv, req(i, m)) for i, m in enumerate(["tools/list", "resources/list"])]
    assert first == again
    assert len(calls) == 1


class ClosedPipe(io.BytesIO):
    def write(self, data: Any) -> int:
        raise BrokenPipeError(32, "Broken pipe")


class FullDisk(io.BytesIO):
    def flush(self) -> None:
        raise OSError(28, "No space left on device")


PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'


def test_the_loop_exits(ctx: Workspace) -> None:
    srv = Server(ctx, read_only=False)
    out = io.BytesIO()
    assert run(srv, io.BytesIO(PING + b"\n" + PING), out) == 0
    assert out.getvalue() == b'{"jsonrpc":"2.0","id":1,"result":{}}\n' * 2
    unterminated = io.BytesIO()
    assert run(srv, io.BytesIO(PING.rstrip(b"\n")), unterminated) == 0
    assert unterminated.getvalue() == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
    assert run(srv, io.BytesIO(PING * 3), ClosedPipe()) == 0
    assert run(srv, io.BytesIO(PING), FullDisk()) == 13


def test_no_line_ends_the_session(ctx: Workspace, monkeypatch) -> None:
    srv = Server(ctx, read_only=False)
    original = srv.handle_message

    def flaky(message: Any) -> Any:
        if message.get("id") == "bad":
            raise RuntimeError("unforeseen")
        return original(message)

    monkeypatch.setattr(srv, "handle_message", flaky)
    out = io.BytesIO()
    bad = b'{"jsonrpc":"2.0","id":"bad","method":"ping"}\n'
    assert run(srv, io.BytesIO(bad + PING), out) == 0
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32603, "message": "internal: the message could not be handled"},
    }
    assert second["result"] == {}


def test_stray_prints_land_on_stderr(ctx: Workspace, monkeypatch, capfd) -> None:
    class Stdin:
        buffer = io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}\n')

    def noisy_init(self: Server, ctx: Workspace, *, read_only: bool) -> None:
        print("a stray line")
        original_init(self, ctx, read_only=read_only)

    original_init = Server.__init__
    monkeypatch.setattr(Server, "__init__", noisy_init)
    monkeypatch.setattr(sys, "stdin", Stdin)
    assert server.serve(ctx, read_only=False) == 0
    captured = capfd.readouterr()
    assert captured.out == (
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"params.name is required"}}\n'
    )
    assert "a stray line" in captured.err


def test_a_server_starts_no_git_status_and_reads_the_working_tree_when_asked(
    layer_repo: Path, monkeypatch
) -> None:
    """`git status` stats every tracked file, so the server asks it only when an answer shows
    the working tree, and then sees the tree as it is at that moment."""
    from majordomus.layer import git

    asked: list[Path] = []
    started = git._start_status

    def counted(root: Path) -> Any:
        asked.append(root)
        return started(root)

    monkeypatch.setattr(git, "_start_status", counted)
    srv = Server(Workspace(layer_repo), read_only=False)
    assert asked == []
    (layer_repo / "README.md").write_text("changed after the server started\n")
    response = answer(srv, req(1, "resources/read", {"uri": "majordomus://repository"}))
    [content] = response["result"]["contents"]
    assert json.loads(content["text"])["repository"]["git"]["working_tree"] == "dirty"
    assert len(asked) == 1
