"""The session's start on two cores (`majordomus.mcp.helper`): whichever process reads the
layer and answers the handshake, the client sees the answers one process would give, in
order, and the index the server keeps is watched for changes as if it had read it itself."""

from __future__ import annotations

import io
import json
import pickle
import subprocess
from pathlib import Path
from typing import Any

from majordomus.capabilities.workspace import Workspace
from majordomus.mcp import helper
from majordomus.mcp.server import Server
from tests.conftest import MAJORDOMUS, command_env

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def in_process(root: Path, messages: list[Any]) -> str:
    """The stdout one in-process server writes for `messages` (no helper: a test's buffers)."""
    out = io.BytesIO()
    data = b"".join(json.dumps(m).encode() + b"\n" for m in messages)
    assert Server(Workspace(root), read_only=False).run(io.BytesIO(data), out) == 0
    return out.getvalue().decode()


def test_a_session_is_answered_byte_for_byte_as_one_process_answers(
    layer_repo: Path, pipes
) -> None:
    messages = [
        INITIALIZE,
        INITIALIZED,
        pipes.call(1, "majordomus_search", {"query": "rule"}),
        pipes.request(2, "tools/list"),
        pipes.request(3, "resources/read", {"uri": "majordomus://repository"}),
        pipes.call(4, "majordomus_get", {"uri": 5}),
    ]
    session = pipes.run(layer_repo, messages, env={"MAJORDOMUS_LOG": "debug"})
    assert session.result.code == 0, session.result.stderr
    assert "helper: answered the handshake" in session.result.stderr
    assert session.result.stdout == in_process(layer_repo, messages)
    assert [r["id"] for r in session.responses] == [0, 1, 2, 3, 4]


def test_a_first_line_other_than_initialize_is_served_first(layer_repo: Path, pipes) -> None:
    messages = [pipes.request(1, "ping"), INITIALIZE, pipes.request(2, "ping")]
    session = pipes.run(layer_repo, messages, env={"MAJORDOMUS_LOG": "debug"})
    assert "helper: left the first line to the server" in session.result.stderr
    assert [r["id"] for r in session.responses] == [1, 0, 2]
    assert session.responses[0]["result"] == {} == session.responses[2]["result"]
    assert session.responses[1]["result"]["serverInfo"]["name"] == "majordomus"


def test_a_batch_holding_initialize_is_answered_as_a_batch(layer_repo: Path, pipes) -> None:
    session = pipes.run(layer_repo, [[INITIALIZE, pipes.request(1, "ping")]])
    assert len(session.responses) == 1
    assert [r["id"] for r in session.responses[0]] == [0, 1]


def test_a_first_line_longer_than_any_handshake_is_read_whole(layer_repo: Path, pipes) -> None:
    long = json.loads(json.dumps(INITIALIZE))
    long["params"]["clientInfo"]["pad"] = "x" * (helper.MAX_HANDSHAKE * 2)
    session = pipes.run(layer_repo, [long, pipes.request(1, "ping")])
    assert session.result.stdout == in_process(layer_repo, [long, pipes.request(1, "ping")])
    assert [r["id"] for r in session.responses] == [0, 1]


def test_an_adopted_build_is_watched_as_if_read_here(layer_repo: Path) -> None:
    reader = Workspace(layer_repo)
    sent = pickle.dumps(reader.read_layer())
    served = Workspace(layer_repo)
    served.adopt(*pickle.loads(sent))
    assert served.index.fingerprint == reader.index.fingerprint
    assert served.git.working_tree == reader.git.working_tree
    assert served.refresh() is False
    rule = next(o for o in served.index.objects if o.kind == "rule")
    path = layer_repo / rule.provenance.path
    path.write_text(path.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert served.refresh() is True
    assert served.index.fingerprint != reader.index.fingerprint


def test_no_helper_for_buffers_or_a_workspace_that_read_the_layer(layer_repo: Path) -> None:
    ctx = Workspace(layer_repo)
    assert not helper.usable(ctx, io.BytesIO(), io.BytesIO())
    ctx.index  # noqa: B018
    assert not helper.usable(ctx, io.BytesIO(), io.BytesIO())


def test_no_helper_when_no_client_waits_on_a_pipe(layer_repo: Path, tmp_path: Path) -> None:
    messages = tmp_path / "messages.jsonl"
    messages.write_text(json.dumps(INITIALIZE) + "\n" + json.dumps(INITIALIZED) + "\n")
    with messages.open("rb") as given:
        done = subprocess.run(
            [MAJORDOMUS, "mcp"],
            cwd=layer_repo,
            stdin=given,
            capture_output=True,
            env=command_env({"MAJORDOMUS_LOG": "debug"}),
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert b"helper:" not in done.stderr
    assert done.stdout.decode() == in_process(layer_repo, [INITIALIZE, INITIALIZED])
