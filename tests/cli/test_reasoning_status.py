"""`majordomus reasoning status`, black-box, and `--as-of` everywhere."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.errors import InvalidInput
from tests.cli.conftest import unreadable_files
from tests.projections.store_files import chain, current_task, put


@pytest.fixture
def repo(repo: Path) -> Path:
    current_task(repo, "t")
    return repo


def test_status_text_of_the_current_task(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "status")
    assert (done.code, done.stderr) == (0, "")
    assert done.stdout == (
        "task        t\n"
        "mode        standard (default) · advisors 0 available, 5 unavailable\n"
        "records     5 · consultations 0 completed, 1 failed · independent reviewers 0\n"
        "  2026-10-01T09:00:00.000Z  uncertainty      lock scope (low, 0 evidence)\n"
        "  2026-10-01T09:01:00.000Z  local            "
        "a low-materiality uncertainty is decided locally\n"
        "  2026-10-01T09:02:00.000Z  degradation      tool timeout: no answer in 60s\n"
        "  2026-10-01T09:03:00.000Z  conclusion       keep the lock (0 independent review(s))\n"
        "  2026-10-01T09:04:00.000Z  validation       pass: soak\n"
    )


def test_report_prints_the_markdown_alone(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "status", "--report")
    assert done.code == 0
    assert done.stdout == (
        "Reasoning: 5 record(s); 0 consultation(s) completed, 1 failed; "
        "0 independent reviewer(s).\n"
        "- Decision conclusion-4: keep the lock — reviewed by no independent advisor "
        "(local reasoning); validation 1 passed, 0 failed.\n"
        "- Degradation: tool timeout (consultation-3)\n"
    )
    empty = run(repo, "status", "--report", "--task", "nobody")
    assert (empty.code, empty.stdout) == (0, "")


def test_json_is_the_capability_answer_even_with_report(
    repo: Path, run: Callable[..., Any]
) -> None:
    done = run(repo, "status", "--task", "all", "--report", "--format", "json")
    assert done.code == 0
    status = json.loads(done.stdout)
    assert list(status) == ["mode", "advisors_available", "advisors_unavailable", "state", "report"]
    assert status["state"]["task"] == "all"
    assert status["state"]["totals"]["records"] == 6
    assert status["report"].startswith("Reasoning: 6 record(s);")
    assert status["state"]["assessments"][0] == {
        "id": "assessment-1",
        "task": "t",
        "subject": "lock scope",
        "materiality": "low",
        "standing": "validated",
        "conclusion": "conclusion-4",
        "questions": ["held across await?"],
    }


def test_without_a_current_task_the_status_is_untasked(
    git_repo: Callable[..., Path], run: Callable[..., Any]
) -> None:
    root = git_repo("layers/planned")
    chain(root)
    done = run(root, "status")
    assert done.code == 0
    assert done.stdout.startswith("task        untasked\n")
    assert "records     0 ·" in done.stdout


def test_a_bad_store_still_yields_a_status(repo: Path, run: Callable[..., Any]) -> None:
    unreadable_files(repo)
    done = run(repo, "status")
    assert (done.code, done.stderr) == (0, "")
    assert done.stdout.endswith(
        "unreadable  t/empty.json\n"
        "unreadable  t/foreign.json\n"
        "unreadable  t/truncated.json\n"
        "unreadable  t/unparsable.json\n"
    )
    state = json.loads(run(repo, "status", "--format", "json").stdout)["state"]
    assert state["unreadable"] == [
        "t/empty.json",
        "t/foreign.json",
        "t/truncated.json",
        "t/unparsable.json",
    ]


def test_as_of_replays_only_what_was_recorded_by_then(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "status", "--as-of", "2026-10-01T11:02:30+02:00", "--format", "json")
    assert done.code == 0
    state = json.loads(done.stdout)["state"]
    assert [s["id"] for s in state["timeline"]] == ["assessment-1", "plan-2", "consultation-3"]
    assert state["assessments"][0]["standing"] == "planned"


def test_records_appended_out_of_order_replay_in_recorded_at_order(
    repo: Path, run: Callable[..., Any]
) -> None:
    put(
        repo,
        "attempt-0",
        "2026-10-01T08:00:00.000Z",
        {"kind": "attempt", "attempt": "guess", "observed_failure": "wrong"},
    )
    timeline = json.loads(run(repo, "status", "--format", "json").stdout)["state"]["timeline"]
    assert [s["id"] for s in timeline][:2] == ["attempt-0", "assessment-1"]


@pytest.mark.parametrize("command", ["status", "advisors", "check", "explain assessment-1"])
def test_an_as_of_that_is_not_rfc3339_is_a_usage_error(
    repo: Path, run: Callable[..., Any], command: str
) -> None:
    done = run(repo, *command.split(), "--as-of", "2026-10-01 09:00")
    assert done.code == 2
    assert done.stdout == ""
    assert done.stderr == (
        "majordomus: Invalid value for '--as-of': '2026-10-01 09:00' is not an RFC 3339 time "
        "(e.g. 2026-10-01T09:30:00Z)\n"
    )


def test_advisors_as_of_evaluates_circuits_at_that_moment(
    repo: Path, run: Callable[..., Any]
) -> None:
    (repo / ".ai/repo/advisors.yaml").write_text(
        "version: 1\ncapabilities:\n  - id: independent_reasoning\n    description: x\n"
        "advisors:\n  - id: tool\n    title: Tool\n    transport: cli\n    adapter: tool-cli\n"
        "    executable: sh\n    capabilities: [independent_reasoning]\n",
        encoding="utf-8",
    )
    put(
        repo,
        "consultation-7",
        "2026-10-01T09:02:30.000Z",
        {"kind": "consultation", "plan": "plan-2", "advisor": "tool", "status": "error"},
    )
    env = {"PATH": "/bin:/usr/bin"}
    then = json.loads(
        run(repo, "advisors", "--format", "json", "--as-of", "2026-10-01T09:03:00Z", **env).stdout
    )
    assert then["advisors"][0]["status"] == "temporarily_failed"
    assert then["advisors"][0]["circuit"] == {
        "opened_by": "consultation-7",
        "failures": 2,
        "until": "2026-10-01T09:12:30Z",
    }
    before = json.loads(
        run(repo, "advisors", "--format", "json", "--as-of", "2026-10-01T09:02:10Z", **env).stdout
    )
    assert before["advisors"][0]["status"] == "available"
    status = json.loads(
        run(repo, "status", "--format", "json", "--as-of", "2026-10-01T09:03:00Z", **env).stdout
    )
    assert (status["advisors_available"], status["advisors_unavailable"]) == (0, 1)
    later = json.loads(
        run(repo, "advisors", "--format", "json", "--as-of", "2026-10-01T09:12:30Z", **env).stdout
    )
    assert (later["advisors"][0]["status"], later["advisors"][0]["recovering"]) == (
        "available",
        True,
    )


@pytest.mark.parametrize(
    ("capability", "given"),
    [
        ("reasoning.status", {"as_of": "yesterday"}),
        ("reasoning.explain", {"id": "assessment-1", "as_of": "2026-10-01"}),
        ("reasoning.check", {"as_of": "2026-10-01T09:00:00"}),
        ("reasoning.advisors", {"as_of": "now"}),
    ],
)
def test_other_surfaces_refuse_a_bad_as_of_as_invalid_input(
    repo: Path, capability: str, given: dict[str, str]
) -> None:
    with pytest.raises(InvalidInput, match=r"as_of: .*is not an RFC 3339 time"):
        Workspace(repo, environ={}).executor.call(capability, given)


def test_status_is_a_resource_and_a_tool(repo: Path) -> None:
    ctx = Workspace(repo, environ={})
    cap = ctx.registry.get("reasoning.status")
    assert cap is not None
    assert (cap.tool, cap.resource, cap.http, cap.cli) == (
        "majordomus_reasoning",
        ("majordomus://reasoning", "reasoning"),
        ("GET", "/api/v1/reasoning"),
        ("reasoning", "status"),
    )
    assert (cap.stability, cap.tags, cap.cache.enabled) == (
        "experimental",
        ("reasoning", "session"),
        False,
    )
    assert [name for name, _ in cap.benchmark_cases(ctx)] == ["current", "all"]
