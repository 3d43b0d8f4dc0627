"""The freshness check of a long-lived server (README "Live re-indexing"): each change made
between two answers is seen by the second, and the index it reads is the one a build from
scratch reads. The layer has more than 64 files and fewer than the check's bound, so an edit
in place too is seen by the next answer."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from majordomus.capabilities.builtin import TOOLS
from majordomus.capabilities.workspace import Workspace
from majordomus.layer.freshness import SLICE
from majordomus.layer.index import build
from majordomus.layer.model import Discovery
from majordomus.synthetic import Shape, SyntheticRepository, rule_path
from tests.conftest import git
from tests.layer.test_reindex import RULE_DIR, _append, _replace, answer, rule


def _new_folder(folder: Path) -> None:
    folder.mkdir()
    (folder / "deep.v1.md").write_text(rule("deep"))


def _commit(root: Path) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", "change")


def _remove_tree(folder: Path) -> None:
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()


Step = Callable[[Path], None]

#: (name, change, whether `vcs` discovery stages it).
STEPS: list[tuple[str, Step, bool]] = [
    ("edit in place, unstaged", lambda root: _append(root, rule_path(99), "\nMore.\n"), False),
    ("the edit is staged", lambda root: None, True),
    (
        "save by rename",
        lambda root: _replace(root, rule_path(98), rule("rule-98", body="N.")),
        True,
    ),
    ("a new file", lambda root: (root / f"{RULE_DIR}/extra.v1.md").write_text(rule("extra")), True),
    (
        "a rename",
        lambda root: os.replace(root / f"{RULE_DIR}/extra.v1.md", root / f"{RULE_DIR}/m.v1.md"),
        True,
    ),
    ("a delete", lambda root: (root / rule_path(97)).unlink(), True),
    ("a commit", lambda root: _commit(root), False),
    ("a branch switch", lambda root: git(root, "checkout", "-q", "-b", "other"), False),
    (
        "a new directory with a file",
        lambda root: _new_folder(root / f"{RULE_DIR}/sub"),
        True,
    ),
    (
        "an edit in the new directory",
        lambda root: _append(root, f"{RULE_DIR}/sub/deep.v1.md", "\nMore.\n"),
        True,
    ),
    (
        "the configuration",
        lambda root: _append(root, ".ai/repo/knowledge/sources.yaml", "\n# a comment\n"),
        False,
    ),
    ("the new directory goes", lambda root: _remove_tree(root / f"{RULE_DIR}/sub"), True),
]


#: Steps that change only what git says, which the `filesystem` discovery does not watch.
GIT_ONLY = ("the edit is staged", "a commit", "a branch switch")


@pytest.mark.parametrize("discovery", ["vcs", "filesystem"])
def test_each_change_between_two_answers_is_seen_by_the_second(discovery: Discovery) -> None:
    with SyntheticRepository.new(Shape(rules=100, prompts=1, documents=1)) as repo:
        root = repo.root
        repo.commit()
        ctx = Workspace(root, discovery=discovery)
        ctx.index  # noqa: B018
        assert ctx.watch is not None and 64 < ctx.watch.files <= SLICE
        assert not ctx.refresh()
        for name, step, staged in STEPS:
            step(root)
            if staged and discovery == "vcs":
                git(root, "add", "-A")
            if discovery == "filesystem" and name in GIT_ONLY:
                continue  # nothing the filesystem discovery reads changed
            assert ctx.refresh(), name
            fresh = build(root, discovery, mcp_tools=TOOLS).index
            assert answer(ctx.index) == answer(fresh), name
            assert not ctx.refresh(), name


def test_the_first_commit_is_seen_though_the_reflog_folder_did_not_exist() -> None:
    with SyntheticRepository.new(Shape(rules=3, prompts=0, documents=0)) as repo:
        repo.git_init()
        git(repo.root, "add", "-A")
        assert not (repo.root / ".git/logs").exists()
        ctx = Workspace(repo.root)
        assert ctx.index.git.head is None
        assert [ctx.refresh() for _ in range(3)] == [False] * 3
        git(repo.root, "commit", "-qm", "first")
        assert ctx.refresh()
        assert ctx.index.git.head is not None
