"""`majordomus reasoning record`, black-box: a full chain into a temporary git repository,
and every kind of bad input refused with one sentence, exit 13, nothing written."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from majordomus.ledger.lock import LOCK_NAME
from majordomus.ledger.store import STATE_DIR
from tests.conftest import REVIEWER_CATALOGUE as CATALOGUE
from tests.conftest import git, witness

EVIDENCE = [{"kind": "file", "reference": "lib/pool.py:88"}]


@pytest.fixture
def repo(git_repo: Callable[..., Path]) -> Path:
    """A layer with one advisor whose executable is on PATH; `.ai/local/` ignored."""
    root = git_repo("layers/planned")
    (root / ".gitignore").write_text(".ai/local/\n", encoding="utf-8")
    (root / ".ai/repo/advisors.yaml").write_text(CATALOGUE, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "advisor catalogue")
    return root


@pytest.fixture
def record(majordomus: Callable[..., Any], tmp_path: Path) -> Callable[..., Any]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "fake-reviewer"
    tool.write_text("#!/bin/sh\n", encoding="utf-8")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"

    def call(root: Path, data: Any, *args: str) -> Any:
        text = data if isinstance(data, str) else json.dumps(data)
        return majordomus(
            ["reasoning", "record", "--format", "json", *args],
            cwd=root,
            input=text,
            env={"PATH": path},
        )

    return call


def stored_files(root: Path) -> list[str]:
    base = root / STATE_DIR
    if not base.exists():
        return []
    return sorted(
        p.relative_to(root).as_posix()
        for p in base.rglob("*")
        if p.is_file() and p.name != LOCK_NAME
    )


def ok(done: Any) -> dict[str, Any]:
    assert (done.code, done.stderr) == (0, ""), done.stderr
    return json.loads(done.stdout)


def test_a_full_chain_is_recorded_and_reads_back(repo: Path, record: Callable[..., Any]) -> None:
    before = witness(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    assessment = ok(
        record(
            repo,
            {
                "kind": "assessment",
                "subject": "lock scope",
                "materiality": "material",
                "evidence": EVIDENCE,
            },
        )
    )
    a_id = assessment["record"]["id"]
    assert assessment["step"]["phase"] == "uncertainty"
    plan = ok(record(repo, {"kind": "plan", "assessment": a_id}))
    p_id = plan["record"]["id"]
    assert plan["record"]["body"]["plan"]["outcome"] == "consult"
    assert [s["advisor"] for s in plan["record"]["body"]["plan"]["selected"]] == ["reviewer"]
    assert [s["id"] for s in plan["record"]["body"]["availability"]] == ["reviewer"]
    assert plan["step"]["phase"] == "consulting"
    answer = ok(
        record(
            repo,
            {
                "kind": "consultation",
                "plan": p_id,
                "advisor": "reviewer",
                "status": "completed",
                "conclusion": "keep the lock",
                "stance": "supports",
            },
        )
    )
    c_id = answer["record"]["id"]
    assert answer["step"]["summary"] == "reviewer supports: keep the lock"
    conclusion = ok(
        record(
            repo,
            {
                "kind": "conclusion",
                "assessment": a_id,
                "decision": "keep the lock",
                "rationale": "no caller retries",
                "evidence": EVIDENCE,
                "consultations": [c_id],
                "validation_plan": ["run the soak test"],
            },
        )
    )
    body = conclusion["record"]["body"]
    assert (body["reviewed_by"], body["independent_review_count"]) == (["reviewer"], 1)
    validation = ok(
        record(
            repo,
            {
                "kind": "validation",
                "conclusion": conclusion["record"]["id"],
                "check": "soak",
                "outcome": "pass",
            },
        )
    )
    answers = [assessment, plan, answer, conclusion, validation]
    assert stored_files(repo) == sorted(a["path"] for a in answers)
    for done in answers:
        assert done["path"] == f"{STATE_DIR}/untasked/{done['record']['id']}.json"
        on_disk = json.loads((repo / done["path"]).read_text(encoding="utf-8"))
        assert on_disk == done["record"]
        assert on_disk["head"] == head
        assert on_disk["task"] == "untasked"
        assert done["step"]["id"] == done["record"]["id"]
    assert witness(repo) == before, "the tracked tree is unchanged"


def test_text_output_and_a_named_task(repo: Path, majordomus: Callable[..., Any]) -> None:
    done = majordomus(
        ["reasoning", "record", "--task", "issue-4"],
        cwd=repo,
        input='{"kind": "attempt", "attempt": "inline it", "observed_failure": "still slow"}',
    )
    assert (done.code, done.stderr) == (0, "")
    rows = done.stdout.splitlines()
    assert len(rows) == 3
    assert rows[0].startswith("[reasoning] attempt attempt-")
    assert rows[1] == "  inline it failed: still slow"
    assert rows[2].startswith(f"  recorded {STATE_DIR}/issue-4/attempt-")


def test_file_option_reads_the_record(
    repo: Path, majordomus: Callable[..., Any], tmp_path: Path
) -> None:
    source = tmp_path / "assessment.json"
    source.write_text('{"kind": "assessment", "subject": "from a file"}', encoding="utf-8")
    done = majordomus(["reasoning", "record", "--file", str(source), "--format", "json"], cwd=repo)
    assert ok(done)["record"]["body"]["subject"] == "from a file"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "majordomus: invalid input: the record is not JSON: "),
        (
            {"kind": "plan", "assessment": "assessment-1"},
            "majordomus: refused: no assessment assessment-1 is recorded",
        ),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(
    repo: Path, record: Callable[..., Any], data: Any, message: str
) -> None:
    """One input the reader refuses and one admission refuses; every record and task name
    refused is tests/ledger/test_messages.py's and tests/reliability/test_path_safety.py's,
    every admission rule tests/ledger/test_admission.py's."""
    done = record(repo, data)
    assert done.code == 13
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("majordomus: ")
    assert message in done.stderr
    assert stored_files(repo) == []


def test_a_record_file_that_cannot_be_opened_is_a_usage_error(tmp_path: Path) -> None:
    from tests.conftest import run_majordomus

    done = run_majordomus(["reasoning", "record", "--file", str(tmp_path / "absent.json")])
    assert done.code == 2
    assert done.stderr.startswith("majordomus: Invalid value for '--file'")
    assert done.stderr.count("\n") == 1
