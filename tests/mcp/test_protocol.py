"""Raw pipes against the installed `majordomus mcp`: framing, message rules and error codes,
the original's crate-level cases, and the read-only witness.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import MAJORDOMUS, answered, command_env, git, run_majordomus, witness
from tests.mcp.conftest import Pipes

Check = dict[str, Any] | Callable[[Any], None] | None


def ok(id_: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "result": result}


err, parse_error = Pipes.error, Pipes.assert_parse_error


def refusal(id_: Any, code: str, prefix: str) -> Callable[[Any], None]:
    return partial(Pipes.assert_refusal, id_=id_, code=code, prefix=prefix)


def success(id_: Any) -> Callable[[Any], None]:
    def check(response: Any) -> None:
        assert response["id"] == id_
        result = response["result"]
        assert result["isError"] is False
        assert "\n" not in result["content"][0]["text"]
        answered(result)

    return check


req, note, tool = Pipes.request, Pipes.notification, Pipes.call


#: (name, line sent, expected answer: a whole response, a check, or None for no output); the
#: framing, batch, method and argument cases of tests/reliability/test_mcp_sweep.py are not
#: repeated here
CASES: list[tuple[str, Any, Check]] = [
    ("empty line", b"", None),
    ("whitespace line", b" \t \r", None),
    ("ping", req(1, "ping"), ok(1, {})),
    ("ping with a string id", req("abc", "ping"), ok("abc", {})),
    ("ping with id 0", req(0, "ping"), ok(0, {})),
    ("ping with a negative float id", req(-1.5, "ping"), ok(-1.5, {})),
    (
        "extra members are not validated",
        {"jsonrpc": "1.0", "id": 2, "method": "ping", "extra": [1, 2]},
        ok(2, {}),
    ),
    ("params that are not an object", req(3, "ping", [1, 2]), ok(3, {})),
    ("notifications/initialized", note("notifications/initialized"), None),
    ("notifications/cancelled", note("notifications/cancelled"), None),
    ("a request without id is a notification", note("ping"), None),
    ("id null is a notification", {"jsonrpc": "2.0", "id": None, "method": "ping"}, None),
    ("deep nesting", b"[" * 200_000, parse_error),
    ("deep nesting of objects", b'{"a":' * 200_000, parse_error),
    ("the session survives deep nesting", req(6, "ping"), ok(6, {})),
    (
        "a lone surrogate id is echoed, escaped",
        b'{"jsonrpc":"2.0","id":"\\ud800-x","method":"ping"}',
        ok("\ud800-x", {}),
    ),
    (
        "batch with a notification and a non-object",
        [req(12, "ping"), note("notifications/cancelled"), 5],
        [ok(12, {}), err(None, -32600, "a message is a JSON object")],
    ),
    ("batch of notifications only", [note("notifications/cancelled"), note("ping")], None),
    ("a number", b"5", err(None, -32600, "a message is a JSON object")),
    ("a string", b'"ping"', err(None, -32600, "a message is a JSON object")),
    ("null", b"null", err(None, -32600, "a message is a JSON object")),
    ("missing method with id", {"jsonrpc": "2.0", "id": 20}, err(20, -32600, "missing method")),
    ("a client's response", {"jsonrpc": "2.0", "id": None, "result": {}}, None),
    ("no method and no id", {"jsonrpc": "2.0", "result": {}}, None),
    (
        "prompts/get without name",
        req(31, "prompts/get"),
        err(31, -32602, "params.name is required"),
    ),
    (
        "resources/subscribe",
        req(32, "resources/subscribe", {"uri": "majordomus://repository"}),
        ok(32, {}),
    ),
    (
        "completion/complete without ref",
        req(34, "completion/complete"),
        err(34, -32602, "params.ref and params.argument are required"),
    ),
    (
        "resources/templates/list with a bad cursor",
        req(40, "resources/templates/list", {"cursor": "x"}),
        err(40, -32602, "invalid cursor: pass a nextCursor this list gave"),
    ),
    (
        "resources/read of an unknown resource",
        req(44, "resources/read", {"uri": "majordomus://rule/nope@1"}),
        err(44, -32002, "resource not found: majordomus://rule/nope@1"),
    ),
    (
        "resources/read of a path is not a file read",
        req(45, "resources/read", {"uri": "majordomus://document/../../etc/passwd"}),
        err(45, -32002, "resource not found: majordomus://document/../../etc/passwd"),
    ),
    ("arguments absent default to {}", tool(55, "majordomus_repository"), success(55)),
    (
        "arguments null default to {}",
        req(56, "tools/call", {"name": "majordomus_repository", "arguments": None}),
        success(56),
    ),
    (
        "majordomus_get of an unknown uri",
        tool(58, "majordomus_get", {"uri": "majordomus://rule/nope@1"}),
        refusal(58, "not_found", "not found: unknown resource: majordomus://rule/nope@1"),
    ),
    (
        "majordomus_search with a blank query",
        tool(60, "majordomus_search", {"query": "   "}),
        refusal(60, "refused", "refused: argument 'query' is required and must not be blank"),
    ),
    (
        "majordomus_list of a kind the index does not hold",
        tool(62, "majordomus_list", {"kind": "nope"}),
        refusal(62, "invalid_input", "invalid input: kind 'nope' is not among the kinds"),
    ),
    (
        "an integer longer than any parameter takes is invalid params",
        tool(66, "majordomus_search", {"query": "rule", "limit": 10**25}),
        err(66, -32602, "an integer has more than 20 digits"),
    ),
    ("majordomus_search", tool(64, "majordomus_search", {"query": "scope"}), success(64)),
    ("the session still answers at the end", req(99, "ping"), ok(99, {})),
]


@pytest.fixture(scope="module")
def served(initialised_template: Path, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("served") / "repo"
    shutil.copytree(initialised_template, root, symlinks=True)
    before = witness(root)
    lines = []
    for _, message, _ in CASES:
        lines.append(message if isinstance(message, bytes) else json.dumps(message).encode())
    result = run_majordomus(
        ["mcp"], cwd=root, input=b"\n".join(lines) + b"\n", env={"MAJORDOMUS_LOG": "debug"}
    )
    return result, before, witness(root)


def test_one_line_per_answer_and_exit_zero_at_eof(served) -> None:
    result, _, _ = served
    assert result.code == 0, result.stderr
    lines = result.stdout.split("\n")
    assert lines[-1] == ""
    expected = sum(1 for _, _, check in CASES if check is not None)
    assert len(lines) - 1 == expected
    for line in lines[:-1]:
        value = json.loads(line)
        assert (
            line == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            or "\\ud800" in line
        )


@pytest.mark.parametrize(
    "position",
    [i for i, (_, _, check) in enumerate(CASES) if check is not None],
    ids=[name for name, _, check in CASES if check is not None],
)
def test_case(served, position: int) -> None:
    result, _, _ = served
    answered = [i for i, (_, _, check) in enumerate(CASES) if check is not None]
    line = result.stdout.split("\n")[answered.index(position)]
    response = json.loads(line)
    check = CASES[position][2]
    if callable(check):
        check(response)
    else:
        assert response == check


def test_logs_stay_on_stderr(served) -> None:
    result, _, _ = served
    assert "index built" in result.stderr
    assert "input ended" in result.stderr
    assert "request method=ping" in result.stderr
    assert "index built" not in result.stdout
    assert "majordomus[" not in result.stdout
    assert "Traceback" not in result.stderr


def test_witness_holds(served) -> None:
    _, before, after = served
    assert before == after


def test_initialize_negotiates_the_protocol_version(layer_repo: Path, pipes) -> None:
    asked = ["2025-06-18", "2025-03-26", "2024-11-05", "2025-11-25", "1999-01-01", None, 7]
    messages = [
        pipes.request(i, "initialize", {} if v is None else {"protocolVersion": v})
        for i, v in enumerate(asked)
    ]
    session = pipes.run(layer_repo, messages)
    versions = [r["result"]["protocolVersion"] for r in session.responses]
    assert versions == [*asked[:4], "2025-06-18", "2025-06-18", "2025-06-18"]
    result = session.responses[0]["result"]
    assert list(result) == ["protocolVersion", "capabilities", "serverInfo", "instructions"]
    assert result["capabilities"] == {
        "resources": {"subscribe": True, "listChanged": True},
        "tools": {"listChanged": True},
        "prompts": {"listChanged": True},
        "completions": {},
    }
    assert result["serverInfo"]["name"] == "majordomus"
    assert result["serverInfo"]["title"] == "Majordomus"
    text = result["instructions"]
    assert "\n" not in text
    assert "state ok" in text
    assert str(layer_repo.resolve()) in text
    assert "majordomus://<kind>/<identity>" in text
    assert "majordomus://repository" in text


def test_listings(layer_repo: Path, pipes) -> None:
    session = pipes.run(
        layer_repo,
        [
            pipes.request(1, "tools/list"),
            pipes.request(2, "tools/list", {"cursor": None}),
            pipes.request(3, "resources/list"),
            pipes.request(4, "resources/list", {"cursor": None}),
        ],
    )
    tools, tools_again, first, first_again = (r["result"] for r in session.responses)
    assert tools == tools_again
    assert first == first_again
    assert "nextCursor" not in tools, "every tool on one page"
    resources = {"resources": pipes.every_resource(layer_repo)}
    assert resources["resources"][: len(first["resources"])] == first["resources"]
    ids = [t["_meta"]["majordomus"]["id"] for t in tools["tools"]]
    assert ids == sorted(ids)
    for entry in tools["tools"]:
        assert list(entry) == [
            "name",
            "title",
            "description",
            "inputSchema",
            "_meta",
            "annotations",
        ]
        assert entry["inputSchema"]["type"] == "object"
        if entry["_meta"]["majordomus"]["effect"] == "read":
            assert entry["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    uris = [r["uri"] for r in resources["resources"]]
    listed = resources["resources"]
    queries = [r for r in listed if r.get("_meta", {}).get("majordomus", {}).get("kind") == "query"]
    assert uris[: len(queries)] == [r["uri"] for r in queries]
    assert "majordomus://repository" in uris
    schemas = [u for u in uris if u.startswith("majordomus://schema/")]
    assert uris[len(queries) : len(queries) + len(schemas)] == schemas == sorted(schemas)
    objects = uris[len(queries) + len(schemas) :]
    assert objects == sorted(objects)


def _break_layer(root: Path) -> None:
    broken = root / ".ai/repo/rules/project/broken.v1.md"
    broken.write_text("---\nid: project.broken\nversion: 1\n")
    git(root, "add", "-A")


def test_degraded_layer_at_trace_keeps_stdout_protocol_only(layer_repo: Path, pipes) -> None:
    _break_layer(layer_repo)
    before = witness(layer_repo)
    session = pipes.run(
        layer_repo,
        [
            pipes.request(1, "initialize", {"protocolVersion": "2025-06-18"}),
            pipes.notification("notifications/initialized"),
            pipes.request(2, "ping"),
            pipes.call(3, "majordomus_repository", {}),
        ],
        env={"MAJORDOMUS_LOG": "trace"},
    )
    assert session.result.code == 0
    assert [r["id"] for r in session.responses] == [1, 2, 3]
    assert all(r["jsonrpc"] == "2.0" for r in session.responses)
    assert "state degraded" in session.responses[0]["result"]["instructions"]
    assert answered(session.responses[2]["result"])["state"] == "degraded"
    assert "malformed_front_matter" in session.result.stderr
    assert witness(layer_repo) == before


def test_a_client_that_closes_its_read_end_ends_the_server_quietly(
    layer_repo: Path, tmp_path: Path
) -> None:
    before = witness(layer_repo)
    queued = tmp_path / "queued.jsonl"
    queued.write_text(
        "".join(
            json.dumps({"jsonrpc": "2.0", "id": i, "method": "ping"}) + "\n" for i in range(2000)
        )
    )
    read_end, write_end = os.pipe()
    os.close(read_end)
    with queued.open("rb") as stdin:
        done = subprocess.run(
            [MAJORDOMUS, "mcp"],
            cwd=layer_repo,
            stdin=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=command_env(),
            timeout=60,
        )
    os.close(write_end)
    stderr = done.stderr.decode()
    assert done.returncode == 0, stderr
    assert "closed the output" in stderr
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr
    assert witness(layer_repo) == before


def test_a_failing_output_is_an_io_error(layer_repo: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [MAJORDOMUS, "mcp"],
            cwd=layer_repo,
            input=b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
            stdout=full,
            stderr=subprocess.PIPE,
            env=command_env(),
            timeout=60,
        )
    assert done.returncode == 13
    assert "Traceback" not in done.stderr.decode()


def test_read_only_leaves_out_command_tools(layer_repo: Path, pipes) -> None:
    listing = [pipes.request(1, "initialize", {}), pipes.request(2, "tools/list")]
    full = pipes.run(layer_repo, listing)
    commands = [
        t["name"]
        for t in full.responses[1]["result"]["tools"]
        if t["_meta"]["majordomus"]["effect"] != "read"
    ]
    before = witness(layer_repo)
    calls = [pipes.call(10 + i, name, {}) for i, name in enumerate(commands)]
    limited = pipes.run(layer_repo, [*listing, *calls], args=["--read-only"])
    names = [t["name"] for t in limited.responses[1]["result"]["tools"]]
    readers = [t["name"] for t in full.responses[1]["result"]["tools"] if t["name"] not in commands]
    assert names == readers
    assert "nothing" in limited.responses[0]["result"]["instructions"]
    for i, name in enumerate(commands):
        assert limited.responses[2 + i] == err(10 + i, -32602, f"unknown tool: {name}")
    assert witness(layer_repo) == before
    assert not (layer_repo / ".ai/local/state/reasoning").exists()
