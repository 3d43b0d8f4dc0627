"""Every parsing limit on every surface (docs/RELIABILITY.md, "Parsing and reading limits"): the
same invalid-input refusal on every Python version; a layer file nested too deep is one
`too_deep` diagnostic."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from majordomus.limits import MAX_INT_DIGITS, MAX_JSON_DEPTH, MAX_RECORD_BYTES, MAX_YAML_DEPTH
from tests.conftest import Served, answered, git, run_majordomus, serve
from tests.reliability.test_http_slow_clients import records

DEEP_PROFILE = ".ai/repo/profiles/deep.yaml"
DEEP_PROMPT = ".ai/repo/prompts/deep.md"
SHALLOW_PROFILE = ".ai/repo/profiles/shallow.yaml"
BIG = "1" * (MAX_INT_DIGITS + 1)
HUGE = "1" * 5000


def blocks(levels: int) -> list[str]:
    return ["  " * i + f"k{i}:" for i in range(levels)] + ["  " * levels + "leaf: x"]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.fixture(scope="module")
def repo(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template with a profile nested 1100 levels, a prompt whose front matter is nested
    past the limit, and a profile nested exactly to the limit, committed."""
    root = tmp_path_factory.mktemp("limits") / "repo"
    shutil.copytree(template, root, symlinks=True)
    (root / DEEP_PROFILE).write_text("\n".join(["name: deep", *blocks(1100)]) + "\n")
    front = ["---", "name: deep", *blocks(MAX_YAML_DEPTH + 1), "---", "Body."]
    (root / DEEP_PROMPT).write_text("\n".join(front) + "\n")
    (root / SHALLOW_PROFILE).write_text("\n".join(["name: shallow", *blocks(MAX_YAML_DEPTH)]))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Deep layer files")
    return root


@pytest.fixture
def copy(repo: Path, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(repo, root, symlinks=True)
    return root


def too_deep(diagnostics: list[dict[str, Any]]) -> list[str]:
    return sorted(d["path"] for d in diagnostics if d["code"] == "too_deep")


# -- layer YAML ------------------------------------------------------------------------------


@pytest.mark.parametrize("discovery", ["vcs", "filesystem"])
def test_a_layer_file_nested_too_deep_is_one_diagnostic(repo: Path, discovery: str) -> None:
    report = run_majordomus(
        ["mcp", "--inspect", "--format", "json", "--discovery", discovery], cwd=repo
    )
    assert report.code == 10, report.stderr
    diagnostics = json.loads(report.stdout)["repository"]["diagnostics"]
    assert too_deep(diagnostics) == [DEEP_PROFILE, DEEP_PROMPT]
    [message] = {d["message"] for d in diagnostics if d["path"] == DEEP_PROFILE}
    assert message == f"nested more than {MAX_YAML_DEPTH} levels deep on line {MAX_YAML_DEPTH + 2}"
    # Nested exactly to the limit: read, and judged by its allow-list like any other file.
    [shallow] = [d for d in diagnostics if d.get("path") == SHALLOW_PROFILE]
    assert shallow["code"] == "unknown_key" and shallow["message"].endswith(
        f".k{MAX_YAML_DEPTH - 1}.leaf"
    )
    listed = run_majordomus(
        ["objects", "list", "--kind", "profile", "--format", "json", "--discovery", discovery],
        cwd=repo,
    )
    assert listed.code == 0, listed.stderr
    names = [o["identity"] for o in json.loads(listed.stdout)["objects"]]
    assert "debugging" in names and "deep" not in names
    strict = run_majordomus(["objects", "list", "--strict"], cwd=repo)
    assert strict.code == 10 and "Traceback" not in strict.stderr


# -- the CLI: reasoning record --------------------------------------------------------------


def record_text(subject: str) -> str:
    return '{"kind":"assessment","subject":' + subject + "}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (record_text(nested(MAX_JSON_DEPTH)), f"nests more than {MAX_JSON_DEPTH} levels deep"),
        (nested(100_000), f"nests more than {MAX_JSON_DEPTH} levels deep"),
        (record_text(BIG), f"holds an integer of more than {MAX_INT_DIGITS} digits"),
        (record_text(HUGE), f"holds an integer of more than {MAX_INT_DIGITS} digits"),
        (record_text("NaN"), "is not JSON: NaN is not a JSON value"),
        (
            record_text('"' + "s" * MAX_RECORD_BYTES + '"'),
            f"is over the 1 MiB limit ({MAX_RECORD_BYTES} bytes)",
        ),
    ],
    ids=["one-too-deep", "deep", "big-int", "huge-int", "nan", "over-1-MiB"],
)
@pytest.mark.parametrize("source", ["stdin", "file"])
def test_a_record_over_a_limit_is_invalid_input(
    copy: Path, text: str, reason: str, source: str
) -> None:
    before = records(copy)
    if source == "file":
        (copy / "record.json").write_text(text, encoding="utf-8")
        done = run_majordomus(["reasoning", "record", "--file", "record.json"], cwd=copy)
    else:
        done = run_majordomus(["reasoning", "record"], cwd=copy, input=text)
    assert done.code == 13, done.stderr
    assert done.stderr.startswith(f"majordomus: invalid input: the record {reason}"), done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert records(copy) == before


def test_a_record_within_the_limits_is_judged_by_its_kind(copy: Path) -> None:
    text = record_text(nested(MAX_JSON_DEPTH - 1))
    done = run_majordomus(["reasoning", "record"], cwd=copy, input=text)
    assert done.code == 13 and done.stderr.startswith("majordomus: invalid input: "), done.stderr
    assert "internal" not in done.stderr
    record = run_majordomus(["reasoning", "record"], cwd=copy, input=record_text("1" * 20))
    assert record.code == 13 and "internal" not in record.stderr


# -- MCP over pipes --------------------------------------------------------------------------


def call(id_: int, name: str, arguments: str) -> bytes:
    params = '{"name":"' + name + '","arguments":' + arguments + "}"
    return f'{{"jsonrpc":"2.0","id":{id_},"method":"tools/call","params":{params}}}'.encode()


def test_mcp_refuses_what_is_over_a_limit_and_serves_the_rest(repo: Path) -> None:
    envelope = 3  # the message, its params and the arguments
    at_limit = nested(MAX_JSON_DEPTH - envelope)
    lines = [
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
        call(2, "majordomus_search", '{"query":' + at_limit + "}"),
        call(3, "majordomus_search", '{"query":' + nested(MAX_JSON_DEPTH) + "}"),
        call(4, "majordomus_search", '{"query":"x","limit":' + BIG + "}"),
        call(5, "majordomus_search", '{"query":"x","limit":' + HUGE + "}"),
        b"["
        + call(6, "majordomus_search", '{"query":"x","limit":-' + BIG + "}")
        + b',{"jsonrpc":"2.0","id":7,"method":"ping"}]',
        b'{"jsonrpc":"2.0","id":' + BIG.encode() + b',"method":"ping"}',
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"n":'
        + HUGE.encode()
        + b"}}",
        call(8, "majordomus_repository", "{}"),
    ]
    done = run_majordomus(["mcp"], cwd=repo, input=b"\n".join(lines) + b"\n")
    assert done.code == 0, done.stderr
    assert "Traceback" not in done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    by_id = {a["id"]: a for a in answers if isinstance(a, dict) and a["id"] is not None}
    assert "state degraded" in by_id[1]["result"]["instructions"]
    assert by_id[2]["result"]["isError"] is True  # a list is no query: refused by its type
    assert by_id[2]["result"]["_meta"]["majordomus"]["error"]["code"] == "invalid_input"
    invalid_params = {
        "code": -32602,
        "message": f"an integer has more than {MAX_INT_DIGITS} digits",
    }
    assert by_id[4]["error"] == invalid_params
    assert by_id[5]["error"] == invalid_params
    batch = next(a for a in answers if isinstance(a, list))
    assert batch == [
        {"jsonrpc": "2.0", "id": 6, "error": invalid_params},
        {"jsonrpc": "2.0", "id": 7, "result": {}},
    ]
    nulls = [a for a in answers if isinstance(a, dict) and a["id"] is None]
    assert [a["error"] for a in nulls] == [
        {"code": -32700, "message": "parse error: nesting too deep"},
        invalid_params,
    ]
    repository = answered(by_id[8]["result"])
    assert too_deep(repository["diagnostics"]) == [DEEP_PROFILE, DEEP_PROMPT]
    assert len(answers) == 8


# -- HTTP ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def live(repo: Path, suite_env: dict[str, str]) -> Iterator[Served]:
    server = serve(repo, env=suite_env)
    yield server
    assert server.stop() == 0, "".join(server.stderr)


def refused(answer: httpx.Response, message: str) -> None:
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"error": {"code": "invalid_input", "message": message}}


def test_http_refuses_what_is_over_a_limit(live: Served, repo: Path) -> None:
    before = records(repo)
    deep = f"nests more than {MAX_JSON_DEPTH} levels deep"
    big = f"holds an integer of more than {MAX_INT_DIGITS} digits"
    post = "/api/v1/reasoning/records"
    with live.client() as client:
        refused(client.post(post, content=nested(5000)), f"the body {deep}")
        refused(client.post(post, content=nested(MAX_JSON_DEPTH + 1)), f"the body {deep}")
        refused(client.post(post, content='{"record":' + record_text(BIG) + "}"), f"the body {big}")
        refused(
            client.post(post, content='{"record":' + record_text(HUGE) + "}"), f"the body {big}"
        )
        within = client.post(post, content='{"record":' + record_text(nested(60)) + "}")
        assert within.status_code == 400 and within.json()["error"]["code"] == "invalid_input"
        refused(
            client.get("/api/v1/devcontext", params={"paths": nested(3000)}),
            f"parameter 'paths': the value {deep}",
        )
        refused(
            client.get("/api/v1/devcontext", params={"paths": "[" + BIG + "]"}),
            f"parameter 'paths': the value {big}",
        )
        for limit in (BIG, HUGE):
            answer = client.get("/api/v1/search", params={"query": "x", "limit": limit})
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["code"] == "invalid_input"
        repository = client.get("/api/v1/repository")
        assert repository.status_code == 200
        assert too_deep(repository.json()["diagnostics"]) == [DEEP_PROFILE, DEEP_PROMPT]
    assert records(repo) == before


# -- the executor ----------------------------------------------------------------------------


def test_the_executor_holds_in_process_callers_to_the_depth_limit(repo: Path) -> None:
    from majordomus.capabilities.workspace import Workspace
    from majordomus.errors import InvalidInput

    executor = Workspace(repo).executor
    for depth in (MAX_JSON_DEPTH, 5_000):
        value: list[Any] = []
        for _ in range(depth):
            value = [value]
        with pytest.raises(InvalidInput, match=f"nests more than {MAX_JSON_DEPTH} levels deep"):
            executor.call("objects.list", {"kind": value})
    with pytest.raises(InvalidInput, match="kind"):
        executor.call("objects.list", {"kind": json.loads(nested(MAX_JSON_DEPTH - 1))})
