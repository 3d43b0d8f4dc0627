"""`majordomus reasoning explain ID`, black-box."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_explain_text(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "explain", "validation-5")
    assert (done.code, done.stderr) == (0, "")
    assert done.stdout == (
        "record      validation-5 (validation)\n"
        "assessment  assessment-1\n"
        "  uncertainty      assessment-1  lock scope (low, 0 evidence)\n"
        "  local            plan-2  a low-materiality uncertainty is decided locally\n"
        "  degradation      consultation-3  tool timeout: no answer in 60s\n"
        "  conclusion       conclusion-4  keep the lock (0 independent review(s))\n"
        "  validation       validation-5  pass: soak\n"
    )


def test_a_record_of_no_assessment(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "explain", "attempt-6")
    assert done.code == 0
    assert done.stdout == (
        "record      attempt-6 (attempt)\n"
        "assessment  none\n"
        "  attempt          attempt-6  inline it failed: still slow\n"
    )


def test_json_carries_the_record_as_stored(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "explain", "conclusion-4", "--format", "json")
    assert done.code == 0
    explanation = json.loads(done.stdout)
    assert list(explanation) == ["record", "assessment", "chain"]
    assert explanation["record"]["body"]["decision"] == "keep the lock"
    assert explanation["chain"][0] == {
        "at": "2026-10-01T09:00:00.000Z",
        "id": "assessment-1",
        "phase": "uncertainty",
        "summary": "lock scope (low, 0 evidence)",
    }


def test_an_unknown_id_is_not_found(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "explain", "assessment-404")
    assert (done.code, done.stdout) == (12, "")
    assert done.stderr == "majordomus: not found: no reasoning record assessment-404\n"


def test_as_of_before_the_record_is_not_found(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "explain", "validation-5", "--as-of", "2026-10-01T09:03:59.999Z")
    assert done.code == 12
    earlier = run(
        repo, "explain", "conclusion-4", "--as-of", "2026-10-01T09:03:00Z", "--format", "json"
    )
    assert [s["id"] for s in json.loads(earlier.stdout)["chain"]] == [
        "assessment-1",
        "plan-2",
        "consultation-3",
        "conclusion-4",
    ]


def test_the_id_is_required(repo: Path, run: Callable[..., Any]) -> None:
    done = run(repo, "explain")
    assert done.code == 2
    assert done.stderr.startswith("majordomus: ") and done.stderr.count("\n") == 1
