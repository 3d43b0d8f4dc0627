"""`majordomus reasoning check`, black-box: exit 10 on a finding."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.projections.store_files import STORE, put

CHECKS = "checks      catalogue, adapters, coupling, ci, claims, records\n"


@pytest.fixture
def repo(repo: Path) -> Path:
    (repo / STORE / "t" / "consultation-3.json").unlink()
    return repo


def test_clean(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "check")
    assert (done.code, done.stderr) == (0, "")
    assert done.stdout == CHECKS + "ok          no finding\n"


def test_findings_one_per_line_and_exit_10(repo: Path, run: Callable[..., Any]) -> None:
    (repo / STORE / "t" / "broken.json").write_text("{", encoding="utf-8")
    (repo / "docs").mkdir()
    (repo / "docs" / "review.md").write_text("Here the majority decides.\n", encoding="utf-8")
    put(
        repo,
        "conclusion-9",
        "2026-10-01T10:00:00.000Z",
        {
            "kind": "conclusion",
            "assessment": "assessment-1",
            "decision": "d",
            "rationale": "r",
            "consultations": ["consultation-3"],
            "reviewed_by": ["tool"],
            "independent_review_count": 1,
            "supersedes": "conclusion-4",
        },
    )
    done = run(repo, "check")
    assert (done.code, done.stderr) == (10, "")
    assert done.stdout == CHECKS + (
        "FAIL claims    docs/review.md: asserts 'the majority decides', a claim the reasoning "
        "design refuses\n"
        "FAIL records   t/broken.json: a reasoning record that does not parse\n"
        "FAIL records   conclusion-9: cites consultation-3, which is not a completed "
        "consultation\n"
        "FAIL records   conclusion-9: claims review by [tool] (1), and the consultations it "
        "cites show []\n"
    )


def test_json_prints_the_check_and_still_exits_10(repo: Path, run: Callable[..., Any]) -> None:
    (repo / STORE / "t" / "empty.json").write_bytes(b"")
    done = run(repo, "check", "--format", "json")
    assert done.code == 10
    assert json.loads(done.stdout) == {
        "ok": False,
        "checks": ["catalogue", "adapters", "coupling", "ci", "claims", "records"],
        "findings": [
            {
                "check": "records",
                "subject": "t/empty.json",
                "message": "a reasoning record that does not parse",
            }
        ],
    }


def test_an_overriding_catalogue_is_named_as_the_subject(
    repo: Path, run: Callable[..., Any]
) -> None:
    (repo / ".ai/repo/advisors.yaml").write_text(
        "version: 1\nadvisors:\n  - id: tool\n    title: Tool\n    transport: cli\n"
        "    adapter: tool-cli\n    executable: tool\n",
        encoding="utf-8",
    )
    done = run(repo, "check")
    assert done.code == 10
    assert done.stdout.splitlines()[1:] == [
        "FAIL catalogue .ai/repo/advisors.yaml: advisor 'tool' offers no capability",
    ]


def test_as_of_checks_the_records_as_they_were(repo: Path, run: Callable[..., Any]) -> None:
    put(
        repo,
        "consultation-9",
        "2026-10-01T12:00:00.000Z",
        {"kind": "consultation", "plan": "plan-404", "advisor": "tool", "status": "timeout"},
    )
    assert run(repo, "check").stdout.splitlines()[1:] == [
        "FAIL records   consultation-9: names advisor 'tool', which the catalogue does not declare",
        "FAIL records   consultation-9: cites plan plan-404, which is not recorded",
    ]
    done = run(repo, "check", "--as-of", "2026-10-01T09:01:00Z")
    assert (done.code, done.stdout) == (0, CHECKS + "ok          no finding\n")
