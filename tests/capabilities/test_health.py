"""Health reports the repository it serves: its layer index, the registry built from it, the
scope, the reasoning ledger and git; nothing about majordomus's own benchmark coverage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import git, initialised_repo, run_majordomus

CHECKS = ["layer", "registry", "scope", "git", "ledger"]


def health(root: Path, *args: str) -> dict[str, Any]:
    done = run_majordomus(
        ["--format", "json", *args, "objects", "get", "majordomus://health"], cwd=root
    )
    assert done.code == 0, done.stderr
    return json.loads(done.stdout)["answer"]


def by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {check["id"]: check for check in report["checks"]}


def test_a_fresh_repository_is_ok(tmp_path: Path) -> None:
    report = health(initialised_repo(tmp_path / "repo"))
    assert [c["id"] for c in report["checks"]] == CHECKS
    assert report["status"] == "ok"
    assert report["tallies"] == {"ok": len(CHECKS)}
    assert by_id(report)["ledger"]["detail"] == "0 record(s), 0 unreadable file(s)"


def test_an_unreadable_ledger_file_warns_and_is_named(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    task = root / ".ai/local/state/reasoning/untasked"
    task.mkdir(parents=True)
    (task / "broken.json").write_text("{not json", encoding="utf-8")
    report = health(root)
    ledger = by_id(report)["ledger"]
    assert ledger["status"] == "warn"
    assert ledger["findings"] == ["untasked/broken.json"]
    assert report["status"] == "warn"


def test_a_degraded_index_and_no_git_are_reported(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo", {"tab\tname.md": "# Tab\n"})
    checks = by_id(health(root))
    assert checks["layer"]["status"] == "warn"
    assert checks["layer"]["findings"] == ["unnamable_object tab\tname.md"]
    git(root, "rm", "-q", "--cached", "tab\tname.md")
    (root / "tab\tname.md").unlink()
    (root / ".git").rename(root / "git-away")
    checks = by_id(health(root, "--discovery", "filesystem"))
    assert checks["layer"]["status"] == "ok"
    assert checks["git"]["status"] == "warn"
    assert checks["git"]["detail"].startswith("unavailable: ")
