"""`majordomus reasoning handover`, `reasoning task`, `reasoning export` and `status --report`
without a current task, black-box in temporary repositories (the handover over MCP and HTTP is
tests/test_surface_parity.py's)."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from majordomus.projections.handover import SECTIONS
from tests.conftest import git, initialised_repo
from tests.projections.store_files import chain, current_task


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = initialised_repo(tmp_path / "repo")
    chain(root)
    return root


@pytest.fixture
def run(majordomus: Callable[..., Any]) -> Callable[..., Any]:
    def call(root: Path, *args: str) -> Any:
        return majordomus(["reasoning", *args], cwd=root, env={"PATH": os.environ["PATH"]})

    return call


# -- handover --------------------------------------------------------------------------------


def test_handover_prints_the_markdown_of_the_current_task(repo: Path, run: Any) -> None:
    current_task(repo, "t")
    done = run(repo, "handover")
    assert (done.code, done.stderr) == (0, "")
    text = done.stdout
    assert text.startswith("# Task t\n\n## State\n\n- Records: 5\n")
    assert f"- HEAD: {git(repo, 'rev-parse', 'HEAD').strip()}\n" in text
    assert "- Branch: " in text
    assert "### Decision conclusion-4\n\n- Question: lock scope (assessment-1)\n" in text
    assert "- Rationale: measured\n" in text
    assert "```mermaid\nflowchart TD\n" in text
    report = run(repo, "status", "--report").stdout
    assert text.endswith("# Reasoning\n\n" + report)


def test_handover_json_is_the_structure(repo: Path, run: Any) -> None:
    done = run(repo, "handover", "--task", "all", "--format", "json")
    assert done.code == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["sections"] == list(SECTIONS)
    assert [t["task"] for t in answer["tasks"]] == ["t", "u"]
    assert answer["tasks"][1]["failed_attempts"] == [
        {"id": "attempt-6", "attempt": "inline it", "observed_failure": "still slow"}
    ]
    assert answer["markdown"].count("\n# Task ") == 1 and answer["markdown"].startswith("# Task t")


def test_handover_without_a_current_task_names_the_tasks(repo: Path, run: Any) -> None:
    done = run(repo, "handover")
    assert done.code == 0
    assert done.stdout.startswith(
        "No current task is set (`majordomus reasoning task set NAME` chooses one); "
        "tasks with records: t (5), u (1).\n"
    )


def test_handover_as_of_replays_the_earlier_state(repo: Path, run: Any) -> None:
    done = run(repo, "handover", "--task", "t", "--as-of", "2026-10-01T09:01:30Z")
    assert done.code == 0
    assert "- Records: 2\n" in done.stdout
    assert "- Last record: 2026-10-01T09:01:00.000Z\n" in done.stdout


# -- status --report without a current task ----------------------------------------------------


def test_report_without_a_current_task_names_the_tasks_on_stderr(repo: Path, run: Any) -> None:
    done = run(repo, "status", "--report")
    assert (done.code, done.stdout) == (0, "")
    assert done.stderr == (
        "majordomus: no current task is set (`majordomus reasoning task set NAME` chooses one); "
        "tasks with records: t (5), u (1)\n"
    )
    named = run(repo, "status", "--report", "--task", "nobody")
    assert (named.code, named.stdout, named.stderr) == (0, "", "")
    current_task(repo, "t")
    chosen = run(repo, "status", "--report")
    assert chosen.stderr == "" and chosen.stdout.startswith("Reasoning: 5 record(s);")


# -- reasoning task --------------------------------------------------------------------------


def test_task_set_show_and_list(repo: Path, run: Any) -> None:
    assert run(repo, "task", "show").stdout == "untasked\n"
    done = run(repo, "task", "set", "t")
    assert (done.code, done.stdout) == (0, "current task t (.ai/local/state/current.yaml)\n")
    assert (repo / ".ai/local/state/current.yaml").read_text() == "id: t\n"
    assert run(repo, "task", "show").stdout == "t\n"
    assert json.loads(run(repo, "task", "show", "--format", "json").stdout) == {
        "task": "t",
        "set": True,
    }
    listed = run(repo, "task", "list")
    assert listed.stdout == (f"* {'t':<32} 5 record(s)\n  {'u':<32} 1 record(s)\n")
    assert json.loads(run(repo, "task", "list", "--format", "json").stdout) == {
        "current": "t",
        "tasks": [{"task": "t", "records": 5}, {"task": "u", "records": 1}],
    }
    assert run(repo, "status").stdout.startswith("task        t\n")


def test_task_set_keeps_other_lines(repo: Path, run: Any) -> None:
    path = repo / ".ai/local/state/current.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('id: "old"\nbranch: main\n')
    assert run(repo, "task", "set", "new").code == 0
    assert path.read_text() == "id: new\nbranch: main\n"


@pytest.mark.parametrize(
    ("name", "words"),
    [("all", "is reserved"), ("../x", "is not allowed"), ("a/b", "is not allowed")],
)
def test_task_set_refuses_what_the_store_refuses(
    repo: Path, run: Any, name: str, words: str
) -> None:
    done = run(repo, "task", "set", name)
    assert done.code == 13 and words in done.stderr
    assert done.stderr.startswith("majordomus: ") and done.stderr.count("\n") == 1
    assert not (repo / ".ai/local/state/current.yaml").exists()


def test_task_set_never_writes_through_a_symlink(repo: Path, run: Any, tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text("id: untouched\n")
    link = repo / ".ai/local/state/current.yaml"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)
    done = run(repo, "task", "set", "t")
    assert done.code == 13 and "current.yaml is a symbolic link" in done.stderr
    assert outside.read_text() == "id: untouched\n" and link.is_symlink()


def test_task_set_refuses_a_symlinked_state_directory(repo: Path, run: Any, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    state = repo / ".ai/local/state"
    os.rename(state, tmp_path / "moved")
    state.symlink_to(elsewhere)
    done = run(repo, "task", "set", "t")
    assert done.code == 13 and "symbolic link" in done.stderr
    assert list(elsewhere.iterdir()) == []


# -- reasoning export ------------------------------------------------------------------------


def test_export_sqlite_has_a_table_per_kind_and_the_views(
    repo: Path, run: Any, tmp_path: Path
) -> None:
    target = tmp_path / "ledger.db"
    done = run(repo, "export", "--sqlite", str(target))
    assert (done.code, done.stdout) == (0, f"exported    6 record(s) to {target}\n")
    db = sqlite3.connect(target)
    objects = dict(db.execute("SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite%'"))
    for table in ("records", "assessments", "plans", "consultations", "disagreements"):
        assert objects[table] == "table"
    for table in ("resolutions", "conclusions", "validations", "attempts"):
        assert objects[table] == "table"
    assert (objects["timeline"], objects["standing"]) == ("view", "view")
    steps = db.execute("SELECT id, phase FROM timeline").fetchall()
    assert steps[0] == ("assessment-1", "uncertainty") and len(steps) == 6
    assert db.execute("SELECT id, standing, conclusion FROM standing").fetchall() == [
        ("assessment-1", "validated", "conclusion-4")
    ]
    assert db.execute("SELECT decision, rationale FROM conclusions").fetchall() == [
        ("keep the lock", "measured")
    ]
    db.close()
    again = run(repo, "export", "--sqlite", str(target))
    assert again.code == 13 and "already exists; pass --force" in again.stderr
    assert run(repo, "export", "--sqlite", str(target), "--force").code == 0


def test_export_jsonl_is_one_record_a_line_in_canonical_order(
    repo: Path, run: Any, tmp_path: Path
) -> None:
    done = run(repo, "export", "--format", "jsonl")
    assert done.code == 0
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in rows] == [
        "assessment-1",
        "plan-2",
        "consultation-3",
        "conclusion-4",
        "validation-5",
        "attempt-6",
    ]
    target = tmp_path / "ledger.jsonl"
    assert run(repo, "export", "--format", "jsonl", "--output", str(target)).code == 0
    assert target.read_text() == done.stdout
    refused = run(repo, "export", "--format", "jsonl", "--output", str(target))
    assert refused.code == 13


def test_export_needs_exactly_one_target(repo: Path, run: Any, tmp_path: Path) -> None:
    assert run(repo, "export").code == 2
    both = run(repo, "export", "--format", "jsonl", "--sqlite", str(tmp_path / "x.db"))
    assert both.code == 2 and both.stderr.startswith("majordomus: ")


def test_export_writes_nothing_in_the_repository(repo: Path, run: Any, tmp_path: Path) -> None:
    assert run(repo, "export", "--sqlite", str(tmp_path / "x.db")).code == 0
    assert git(repo, "status", "--porcelain", "--ignored") == "!! .ai/local/\n"


def test_export_never_writes_through_a_link(repo: Path, run: Any, tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("kept\n")
    target = tmp_path / "ledger.jsonl"
    target.symlink_to(victim)
    (tmp_path / ".ledger.jsonl.tmp").symlink_to(victim)
    refused = run(repo, "export", "--format", "jsonl", "--output", str(target))
    assert refused.code == 13 and "already exists" in refused.stderr
    assert run(repo, "export", "--sqlite", str(target)).code == 13
    (tmp_path / ".ledger.jsonl.tmp").unlink()
    assert run(repo, "export", "--format", "jsonl", "--output", str(target), "--force").code == 0
    assert not target.is_symlink() and len(target.read_text().splitlines()) == 6
    assert victim.read_text() == "kept\n"


# -- what init writes --------------------------------------------------------------------------


def test_init_asks_for_the_sections_the_handover_gives(repo: Path) -> None:
    policy = yaml.safe_load((repo / ".ai/repo/policy.yaml").read_text())
    assert policy["handover"]["required_sections"] == list(SECTIONS)
    prompt = (repo / ".ai/repo/prompts/handover.md").read_text()
    assert "majordomus reasoning handover" in prompt
    assert "majordomus reasoning status --report" in prompt
