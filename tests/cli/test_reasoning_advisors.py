"""`majordomus reasoning advisors` and `reasoning plan`, black-box."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.projections.store_files import put

OVERRIDE = """\
version: 1
capabilities:
  - id: independent_reasoning
    description: A second line of reasoning.
  - id: code_review
    description: Critique of a change.
  - id: security_review
    description: Critique for abuse.
advisors:
  - id: tool
    title: Tool
    transport: cli
    adapter: tool-cli
    executable: tool
    capabilities: [independent_reasoning, code_review]
  - id: guard
    title: Guard
    transport: cli
    adapter: guard-cli
    executable: guard
    capabilities: [security_review, code_review]
  - id: local
    title: Local
    transport: local_runtime
    adapter: local-rt
    executable: local
    capabilities: [independent_reasoning, poetry]
  - id: gone
    title: Gone
    transport: cli
    adapter: gone-cli
    executable: gone
    capabilities: [code_review]
"""


def consultation(root: Path, id: str, at: str, advisor: str, status: str, **extra: object) -> None:
    body = {"kind": "consultation", "plan": "plan-0", "advisor": advisor, "status": status}
    put(root, id, at, body | extra)


@pytest.fixture
def repo(git_repo: Callable[..., Path], tmp_path: Path) -> Path:
    """The planned layer with an advisor override; `tool`, `guard`, `local` are installed."""
    root = git_repo("layers/planned")
    (root / ".ai/repo/advisors.yaml").write_text(OVERRIDE, encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("tool", "guard", "local"):
        exe = bin_dir / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    return root


@pytest.fixture
def run(majordomus: Callable[..., Any]) -> Callable[..., Any]:
    """`reasoning <args>` in `root` with only the test's bin directory on PATH."""

    def call(root: Path, *args: str, **env: str) -> Any:
        environ = {"PATH": str(root.parent / "bin"), **env}
        return majordomus(["reasoning", *args], cwd=root, env=environ)

    return call


def test_advisors_text(repo: Path, run: Callable[..., Any]) -> None:
    consultation(
        repo,
        "consultation-1",
        "2999-01-01T00:00:00Z",
        "guard",
        "rate_limited",
        retry_after_seconds=60,
    )
    consultation(repo, "consultation-2", "2020-01-01T00:00:00Z", "tool", "timeout")
    consultation(repo, "consultation-3", "2020-01-01T00:00:01Z", "tool", "error")
    done = run(repo, "advisors")
    assert (done.code, done.stderr) == (0, "")
    assert done.stdout == (
        "reasoning   operational · mode standard (default)\n"
        "advisors    2 available · 2 optional unavailable\n"
        "  tool           available          cli           present (recovering)\n"
        "  guard          rate_limited       cli           rate_limited "
        "until 2999-01-01T00:01:00Z\n"
        "  local          available          local_runtime present\n"
        "  gone           unavailable        cli           executable_not_found\n"
        "capacity\n"
        "  independent_reasoning  tool, local\n"
        "  code_review            tool\n"
        "  security_review        local review\n"
        "diagnostic  advisor 'local' offers 'poetry', which the vocabulary does not declare\n"
    )


def test_advisors_json(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "advisors", "--format", "json", MAJORDOMUS_REASONING_MODE="offline")
    assert done.code == 0
    report = json.loads(done.stdout)
    assert list(report) == (
        ["operational", "mode", "available", "unavailable", "advisors", "capacity", "diagnostics"]
    )
    assert report["mode"] == {"mode": "offline", "source": "MAJORDOMUS_REASONING_MODE"}
    assert (report["operational"], report["available"], report["unavailable"]) == (True, 1, 3)
    assert report["advisors"][2] == {
        "id": "local",
        "title": "Local",
        "transport": "local_runtime",
        "adapter": "local-rt",
        "capabilities": ["independent_reasoning", "poetry"],
        "executable": "local",
        "status": "available",
        "reason": "present",
        "probe": "executable local on PATH",
        "recovering": False,
    }
    assert [(a["status"], a["reason"]) for a in report["advisors"]] == [
        ("disabled", "mode_offline"),
        ("disabled", "mode_offline"),
        ("available", "present"),
        ("disabled", "mode_offline"),
    ]
    assert report["capacity"][0] == {
        "capability": "independent_reasoning",
        "description": "A second line of reasoning.",
        "available": ["local"],
    }


def test_ci_leaves_no_advisor_available_and_a_misspelt_mode_is_ignored(
    repo: Path, run: Callable[..., Any]
) -> None:
    ci = json.loads(run(repo, "advisors", "--format", "json", CI="true").stdout)
    assert ci["mode"] == {"mode": "ci", "source": "CI"} and ci["available"] == 0
    assert {a["reason"] for a in ci["advisors"]} == {"mode_ci"}
    loud = json.loads(
        run(repo, "advisors", "--format", "json", MAJORDOMUS_REASONING_MODE="loud").stdout
    )
    assert loud["mode"] == {"mode": "standard", "source": "default"}
    disabled = json.loads(
        run(repo, "advisors", "--format", "json", MAJORDOMUS_ADVISORS_DISABLE="tool, local").stdout
    )
    assert [a["status"] for a in disabled["advisors"]] == [
        "disabled",
        "available",
        "disabled",
        "unavailable",
    ]


def test_the_packaged_catalogue_without_an_override(
    git_repo: Callable[..., Path], majordomus: Callable[..., Any]
) -> None:
    root = git_repo("layers/planned")
    done = majordomus(
        ["reasoning", "advisors", "--format", "json"],
        cwd=root,
        env={"PATH": str(root / "no-bin"), "OPENAI_API_KEY": ""},
    )
    report = json.loads(done.stdout)
    assert done.code == 0 and "diagnostics" not in report
    assert (report["available"], report["unavailable"]) == (0, 5)
    assert len(report["capacity"]) == 6
    assert report["advisors"][0]["reason"] == "credential_absent"


PLAN_HIGH = ("plan", "--materiality", "high", "--confidence", "low")
PLAN_HIGH += ("--capabilities", "code_review,security_review")


def test_plan_text(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, *PLAN_HIGH)
    assert (done.code, done.stderr) == (0, "")
    assert done.stdout == (
        "outcome     consult\n"
        "reason      high uncertainty under mode standard: 2 independent review(s) within a "
        "budget of 2\n"
        "mode        standard (default) · budget 2 · available 3\n"
        "consult     guard — covers security_review, code_review — the first available advisor "
        "in preference order covering the most requested capabilities\n"
        "consult     tool — covers code_review — an independent source for a second opinion\n"
        "excluded    local — offers none of code_review, security_review\n"
        "excluded    gone — unavailable: executable_not_found\n"
    )


def test_plan_json_and_local_review(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, *PLAN_HIGH, "--format", "json")
    plan = json.loads(done.stdout)
    assert (plan["outcome"], plan["budget"], plan["capabilities"]) == (
        "consult",
        2,
        ["code_review", "security_review"],
    )
    assert [s["advisor"] for s in plan["selected"]] == ["guard", "tool"]
    local = run(repo, "plan", "--materiality", "critical", CI="1")
    assert local.stdout == (
        "outcome     decide_locally\n"
        "reason      mode ci with medium confidence allows no independent review for critical "
        "uncertainty\n"
        "mode        ci (CI) · budget 0 · available 0\n"
        "excluded    tool — disabled: mode_ci\n"
        "excluded    guard — disabled: mode_ci\n"
        "excluded    local — disabled: mode_ci\n"
        "excluded    gone — disabled: mode_ci\n"
        "local       state the hypothesis and the strongest alternative to it\n"
        "local       list each assumption with the evidence that supports it, and mark the "
        "unsupported ones\n"
        "local       name what observation would falsify the hypothesis\n"
        "local       run the smallest experiment that discriminates between hypothesis and "
        "alternative\n"
        "local       record the conclusion with its evidence, rejected alternatives, risks and "
        "validation plan\n"
    )
    default = json.loads(run(repo, "plan", "--format", "json").stdout)
    assert (default["materiality"], default["confidence"], default["outcome"]) == (
        "low",
        "medium",
        "decide_locally",
    )
    assert "local_review" not in default


@pytest.mark.parametrize("command", [("advisors",), ("plan", "--materiality", "high")])
def test_an_invalid_catalogue_exits_13_naming_the_file(
    repo: Path, run: Callable[..., Any], command: tuple[str, ...]
) -> None:
    """Each problem's words are tests/advisors/test_loading.py's."""
    (repo / ".ai/repo/advisors.yaml").write_text("version: 1\nquorum: 2\n", encoding="utf-8")
    done = run(repo, *command)
    assert (done.code, done.stdout) == (13, "")
    assert (
        done.stderr == "majordomus: refused: .ai/repo/advisors.yaml: quorum: is not a field here\n"
    )


@pytest.mark.parametrize(
    "args", [("--materiality", "huge"), ("--confidence", "certain"), ("--format", "yaml")]
)
def test_an_unknown_word_is_a_usage_error(
    repo: Path, run: Callable[..., Any], args: tuple[str, ...]
) -> None:
    done = run(repo, "plan", *args)
    assert done.code == 2 and done.stdout == ""
    assert done.stderr.startswith("majordomus: ") and done.stderr.count("\n") == 1
    assert args[1] in done.stderr


def test_an_unknown_capability_word_is_invalid_input(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "plan", "--capabilities", "code_review, poetry")
    assert (done.code, done.stdout) == (13, "")
    assert done.stderr == (
        "majordomus: invalid input: 'poetry' is not an advisory capability; "
        "`majordomus reasoning advisors` lists them\n"
    )
