"""git run on a stranger's repository runs nothing the repository chose.

Two ways a repository reaches git's config: a bare repository's files committed inside the
work tree (git would take the layer root itself for a git directory), and a `.git/config`
that arrives with an archive. Each hazard below names a program that leaves a mark; no
majordomus command may leave one (docs/RELIABILITY.md, "What git is trusted with").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, command_env, git, make_git_repo, run_majordomus
from tests.mcp.conftest import Pipes

#: The commands that read the layer through git, and an MCP session's calls.
COMMANDS: list[list[str]] = [
    ["objects", "list"],
    ["lint"],
    ["mcp", "--inspect"],
    ["devcontext", "compile", "--issue", "I0001"],
    ["repository", "--format", "json"],
    ["reasoning", "status"],
]

MCP_SESSION = [
    Pipes.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "t", "version": "0"}}),
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    Pipes.call(2, "majordomus_list", {}),
    Pipes.call(3, "majordomus_devcontext", {"issue": "I0001"}),
]  # fmt: skip


def _program(marks: Path, name: str) -> str:
    """A program that leaves `marks/name` when run, as a config value names it."""
    script = marks.parent / f"{name}.sh"
    script.write_text(f"#!/bin/sh\ntouch '{marks / name}'\ncat\n")
    script.chmod(0o755)
    return str(script)


def _hazards(marks: Path, include: Path) -> str:
    """A config text naming a marking program in every place git could run one."""
    hooks = marks.parent / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in ("post-index-change", "pre-commit", "post-checkout", "reference-transaction"):
        shutil.copy(_program(marks, f"hook-{hook}"), hooks / hook)
    include.write_text(f"[core]\n\tfsmonitor = {_program(marks, 'included-fsmonitor')}\n")
    return f"""
[core]
\tfsmonitor = {_program(marks, "fsmonitor")}
\thooksPath = {hooks}
\tsshCommand = {_program(marks, "ssh")}
\taskPass = {_program(marks, "askpass")}
\tpager = {_program(marks, "pager")}
[diff]
\texternal = {_program(marks, "external-diff")}
[diff "evil"]
\ttextconv = {_program(marks, "textconv")}
\tcommand = {_program(marks, "diff-command")}
[filter "evil"]
\tclean = {_program(marks, "clean")}
\tsmudge = {_program(marks, "smudge")}
\trequired = true
[credential]
\thelper = !{_program(marks, "credential")}
[include]
\tpath = {include}
[includeIf "gitdir:/"]
\tpath = {include}
"""


def _stat_dirty(root: Path, when: int) -> None:
    """Every tracked file with a new mtime, so `status` hashes (and filters) each."""
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            os.utime(path, (when, when))


def _run_all(root: Path) -> list[int]:
    codes = []
    for args in COMMANDS:
        done = run_majordomus(args, cwd=root)
        assert "Traceback" not in done.stderr
        codes.append(done.code)
    answers = Pipes().run(root, MCP_SESSION).responses
    assert [a.get("id") for a in answers] == [1, 2, 3]
    return codes


@pytest.fixture
def marks(tmp_path: Path) -> Path:
    out = tmp_path / "marks"
    out.mkdir()
    return out


def test_an_archived_git_config_runs_nothing(tmp_path: Path, marks: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "planned")
    (root / ".gitattributes").write_text("* filter=evil diff=evil\n")
    git(root, "add", ".gitattributes")
    git(root, "commit", "-q", "-m", "attributes")
    with (root / ".git" / "config").open("a") as config:
        config.write(_hazards(marks, tmp_path / "included.config"))
    _stat_dirty(root, 1_000_000_000)
    # the hazards are real: git itself, asked as the user would, runs them
    subprocess.run(["git", "status"], cwd=root, capture_output=True, env=command_env())
    assert {"included-fsmonitor", "clean"} <= {p.name for p in marks.iterdir()}
    for made in marks.iterdir():
        made.unlink()
    _stat_dirty(root, 1_100_000_000)

    codes = _run_all(root)

    assert sorted(p.name for p in marks.iterdir()) == []
    assert codes[:2] == [0, 0]


def test_a_bare_repository_committed_beside_the_layer_is_not_used(
    tmp_path: Path, marks: Path
) -> None:
    outer = make_git_repo(tmp_path / "outer", commit=False)
    sub = outer / "sub"
    shutil.copytree(FIXTURES / "layers" / "planned", sub)
    subprocess.run(
        ["git", "init", "-q", "--bare", str(tmp_path / "bare")], check=True, env=command_env()
    )
    for name in ("HEAD", "objects", "refs"):
        source = tmp_path / "bare" / name
        if source.is_dir():
            shutil.copytree(source, sub / name)
            (sub / name / "keep").write_text("")  # an empty folder is not committed
        else:
            shutil.copy(source, sub / name)
    (sub / "config").write_text(
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n"
        f"\tfsmonitor = {_program(marks, 'fsmonitor')}\n"
    )
    git(outer, "add", "-A")
    git(outer, "commit", "-q", "-m", "a layer beside a planted bare repository")
    # the hazard is real: git's own discovery from the layer root takes it for a repository
    subprocess.run(["git", "status"], cwd=sub, capture_output=True, env=command_env())
    assert [p.name for p in marks.iterdir()] == ["fsmonitor"]
    (marks / "fsmonitor").unlink()

    codes = _run_all(sub)

    assert sorted(p.name for p in marks.iterdir()) == []
    assert codes[:2] == [0, 0]
    listed = run_majordomus(["objects", "list", "--format", "json"], cwd=sub)
    assert listed.code == 0, listed.stderr
    assert json.loads(listed.stdout)["count"] > 0  # the layer is read through the outer .git
