"""One declaration, three surfaces: every query answers the same JSON on the CLI, over MCP and
over HTTP (a query without a tool as the executor answers it in process), the same error in
the same words, and records written through each surface replay into one state (issue 7)."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.cli.views import VIEWS_OF, views_of
from majordomus.devcontext.bundle import LEFT_OUT
from majordomus.http.middleware import hider
from majordomus.mcp.devcontext import MCP_LEFT_OUT
from tests.conftest import FIXTURES, answered, git, make_git_repo, run_majordomus, serve
from tests.mcp.conftest import Pipes


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_git_repo(tmp_path_factory.mktemp("parity") / "repo", FIXTURES / "layers/healthy")
    (root / ".gitignore").write_text(".ai/local/\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "ignore local state")
    return root


@pytest.fixture(scope="module")
def http(repo: Path) -> Iterator[str]:
    served = serve(repo, "--open-loopback", env={"MAJORDOMUS_LOG": "info"})
    yield served.url
    served.stop()


def http_call(url: str, route: tuple[str, str], arguments: dict[str, Any]) -> Any:
    method, path = route
    if method == "GET":
        query = urllib.parse.urlencode(
            {k: v if isinstance(v, str) else json.dumps(v) for k, v in arguments.items()}
        )
        request = urllib.request.Request(f"{url}{path}?{query}")
    else:
        request = urllib.request.Request(
            f"{url}{path}", data=json.dumps(arguments).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as refused:
        error = json.load(refused)["error"]
        return {"error": error["code"], "message": error["message"]}


def mcp_session(repo: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """One `majordomus mcp` session: initialize, then one tools/call per entry."""
    messages = [Pipes.request(0, "initialize", {})]
    messages += [Pipes.call(i + 1, tool, arguments) for i, (tool, arguments) in enumerate(calls)]
    session = Pipes().run(repo, messages, env={"MAJORDOMUS_LOG": "info"})
    answers = {a["id"]: a for a in session.responses}
    out = []
    for i in range(1, len(calls) + 1):
        result = answers[i]["result"]
        if result["isError"]:
            message = result["content"][0]["text"].partition(": ")[2]
            code = result["_meta"]["majordomus"]["error"]["code"]
            out.append({"error": code, "message": message})
        elif calls[i - 1][0] == "majordomus_devcontext":  # the bundle, as Markdown
            out.append(result["content"][0]["text"].replace(MCP_LEFT_OUT, LEFT_OUT))
        else:
            out.append(answered(result))
    return out


def same_input(cap_id: str, arguments: dict[str, Any], over_mcp: Any) -> dict[str, Any]:
    """The input that asks HTTP and the CLI for what MCP answered: the devcontext bundle, or
    the page MCP cut to its size (the same request with that many rows)."""
    if cap_id == "devcontext.compile":
        return {**arguments, "bundle": True}
    if isinstance(over_mcp, dict) and "next_cursor" in over_mcp:
        rows = over_mcp.get("count", len(over_mcp.get("state", {}).get("timeline", [])))
        return {**arguments, "limit": rows}
    return arguments


def cli_args(cap_id: str, cli: tuple[str, ...], arguments: dict[str, Any]) -> list[str]:
    """The command line a person would type for this input (the CLI projection inverted)."""
    view = {k: v for m in VIEWS_OF for k, v in views_of(m).items()}.get(cap_id)
    positional = view.arguments if view else ()
    flags = dict(view.flags) if view else {}
    args = [*cli]
    for key, value in arguments.items():
        if key in positional:
            args.append(str(value))
            continue
        flag = "--" + flags.get(key, key).replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, list):
            for item in value:
                args += [flag, str(item)]
        else:
            args += [flag, str(value)]
    return [*args, "--format", "json"]


def query_cases(repo: Path) -> list[tuple[str, str, dict[str, Any]]]:
    ctx = Workspace(repo)
    return [
        (cap.id, name, arguments)
        for cap in ctx.registry
        if cap.kind == "query" and cap.http
        for name, arguments in cap.benchmark_cases(ctx)
    ]


def test_every_query_answers_alike_on_cli_mcp_and_http(repo: Path, http: str) -> None:
    ctx = Workspace(repo)
    cases = query_cases(repo)
    assert len({cap_id for cap_id, _, _ in cases}) >= 19
    tools = [(ctx.registry.get(cap_id).tool, arguments) for cap_id, _, arguments in cases]
    answers = iter(mcp_session(repo, [(tool, arguments) for tool, arguments in tools if tool]))
    hide = hider([repo])  # HTTP shows the repository's absolute root as its last name
    for (cap_id, case, arguments), (tool, _) in zip(cases, tools, strict=True):
        over_mcp = next(answers) if tool else ctx.executor.call(cap_id, arguments)
        cap = ctx.registry.get(cap_id)
        arguments = same_input(cap_id, arguments, over_mcp)
        over_http = http_call(http, cap.http, arguments)
        if cap_id == "devcontext.compile" and "error" not in over_http:
            over_http = over_http["bundle"]
        assert over_http == json.loads(hide(json.dumps(over_mcp).encode())), (cap_id, case)
        if cap.cli is None:
            continue
        done = run_majordomus(cli_args(cap_id, cap.cli, arguments), cwd=repo)
        if "error" in over_mcp:
            assert done.code == (12 if over_mcp["error"] == "not_found" else 13), (cap_id, case)
            words = over_mcp["error"].replace("_", " ")
            assert done.stderr == f"majordomus: {words}: {over_mcp['message']}\n", (cap_id, case)
        else:
            assert done.code in (0, 10), (cap_id, case, done.stderr)
            over_cli = json.loads(done.stdout)
            if cap_id == "devcontext.compile":
                over_cli = over_cli["bundle"]
            assert over_cli == over_mcp, (cap_id, case)


def test_records_from_every_surface_replay_into_one_state(repo: Path, http: str) -> None:
    task = "parity"
    assessment = {
        "kind": "assessment",
        "subject": "three surfaces, one ledger",
        "materiality": "low",
    }
    done = run_majordomus(
        ["reasoning", "record", "--task", task, "--format", "json"],
        cwd=repo,
        input=json.dumps(assessment),
    )
    assert done.code == 0, done.stderr
    assessment_id = json.loads(done.stdout)["record"]["id"]
    [by_mcp] = mcp_session(
        repo,
        [
            (
                "majordomus_reasoning_record",
                {"record": {"kind": "plan", "assessment": assessment_id}, "task": task},
            )
        ],
    )
    conclusion = {
        "kind": "conclusion",
        "assessment": assessment_id,
        "decision": "one ledger",
        "rationale": "every surface calls the same executor",
    }
    by_http = http_call(
        http, ("POST", "/api/v1/reasoning/records"), {"record": conclusion, "task": task}
    )
    assert {by_mcp["record"]["body"]["kind"], by_http["record"]["body"]["kind"]} == {
        "plan",
        "conclusion",
    }
    over_cli = json.loads(
        run_majordomus(["reasoning", "status", "--task", task, "--format", "json"], cwd=repo).stdout
    )
    [over_mcp] = mcp_session(repo, [("majordomus_reasoning", {"task": task})])
    over_http = http_call(http, ("GET", "/api/v1/reasoning"), {"task": task})
    assert over_cli == over_mcp == over_http
    assert over_cli["state"]["totals"]["records"] == 3
    assert git(repo, "status", "--porcelain") == ""
