"""The git questions: answers, failures, and that nothing is written."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from majordomus.errors import EXIT_REFUSED
from majordomus.layer import git as gitmod
from majordomus.layer.git import (
    GitError,
    PendingGitState,
    _entries,
    current_branch,
    git_dir,
    head,
    ls_files,
)
from tests.conftest import git, make_git_repo, witness


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "r", commit=False)
    (root / "docs").mkdir()
    (root / "docs" / "a.md").write_text("# A\n")
    (root / "docs" / "sub").mkdir()
    (root / "docs" / "sub" / "b.md").write_text("# B\n")
    (root / "top.md").write_text("# Top\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "one")
    return root


def test_state_of_a_clean_repository(repo: Path) -> None:
    state = PendingGitState(repo).result()
    assert state.available
    assert state.toplevel == str(repo.resolve())
    assert state.head is not None and re.fullmatch(r"[0-9a-f]{40}", state.head)
    assert state.branch == "master"
    assert state.working_tree == "clean"
    assert list(state.to_json()) == ["state", "toplevel", "head", "branch", "working_tree"]


def test_dirty_detached_and_unborn(repo: Path, tmp_path: Path) -> None:
    (repo / "new.txt").write_text("x\n")
    assert PendingGitState(repo).result().working_tree == "dirty"
    git(repo, "checkout", "-q", "--detach")
    assert current_branch(repo) is None
    assert head(repo) == PendingGitState(repo).result().head
    unborn = make_git_repo(tmp_path / "u", commit=False)
    assert head(unborn) is None
    assert current_branch(unborn) == "master"
    assert PendingGitState(unborn).result().head is None


def test_outside_git_the_state_is_unavailable_with_a_reason(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    state = PendingGitState(tmp_path / "plain").result()
    assert state.state == "unavailable"
    assert state.reason
    assert state.to_json() == {"state": "unavailable", "reason": state.reason}
    assert head(tmp_path / "plain") is None
    with pytest.raises(GitError) as caught:
        current_branch(tmp_path / "plain")
    assert caught.value.exit_code == EXIT_REFUSED


def test_missing_git_executable_is_unavailable(repo: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    state = PendingGitState(repo).result()
    assert state.state == "unavailable"
    assert "cannot run git" in (state.reason or "")


def test_ls_files_lists_the_index_with_glob_magic(repo: Path) -> None:
    assert ls_files(repo, ":(glob)docs/*.md") == ["docs/a.md"]
    assert ls_files(repo, ":(glob)docs/**/*.md") == ["docs/a.md", "docs/sub/b.md"]
    assert ls_files(repo, ":(glob)*.md") == ["top.md"]
    (repo / "docs" / "untracked.md").write_text("u\n")
    (repo / "docs" / "staged.md").write_text("s\n")
    git(repo, "add", "docs/staged.md")
    (repo / "docs" / "a.md").unlink()
    assert ls_files(repo, ":(glob)docs/*.md") == ["docs/a.md", "docs/staged.md"]


def test_ls_files_keeps_unusual_names_verbatim(repo: Path) -> None:
    (repo / "docs" / "with space é.md").write_text("x\n")
    git(repo, "add", "-A")
    assert "docs/with space é.md" in ls_files(repo, ":(glob)docs/*.md")


def test_ls_files_failure_is_fatal(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(GitError, match="pathspec"):
        ls_files(tmp_path / "plain", ":(glob)*.md")


def test_a_non_utf8_path_keeps_its_bytes(repo: Path) -> None:
    raw = bytes(repo) + b"/docs/caf\xe9.md"
    with open(raw, "wb") as handle:
        handle.write(b"x\n")
    git(repo, "add", "-A")
    assert "docs/caf\udce9.md" in ls_files(repo, ":(glob)docs/*.md")


def test_git_environment_redirects_are_ignored(repo: Path, tmp_path: Path, monkeypatch) -> None:
    other = make_git_repo(tmp_path / "other")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert ls_files(repo, ":(glob)*.md") == ["top.md"]


def test_asking_writes_nothing(repo: Path) -> None:
    (repo / "docs" / "a.md").write_text("# changed\n")
    before = witness(repo)
    index = repo / ".git" / "index"
    stamp = index.stat().st_mtime_ns
    PendingGitState(repo).result()
    ls_files(repo, ":(glob)**")
    assert witness(repo) == before
    assert index.stat().st_mtime_ns == stamp


def test_only_the_listed_subcommands_are_spelled_out() -> None:
    """Reads of the layer (and whether git ignores a path), the team ledger's reads and writes
    below refs/majordomus/, and the three commands a person asks for, run as their own git
    (docs/team.md)."""
    source = Path(gitmod.__file__).read_text()
    # every command is a tuple literal given to a runner or a module constant holding one
    commands = re.findall(r"(?:_Running|_ask)\(\s*root,\s*([^,]+),", source)
    assert commands and all(
        c.startswith("(") or re.fullmatch(r"_[A-Z_]+|args", c) for c in commands
    )
    hardened = set(
        re.findall(
            r'(?:(?:_Running|_ask)\(\s*root,\s*|^_[A-Z_]+ = )\(\s*"([^"]+)"', source, re.MULTILINE
        )
    )
    assert hardened == {
        "check-ignore",
        "rev-parse",
        "symbolic-ref",
        "--no-optional-locks",
        "ls-files",
        "config",
        "for-each-ref",
        "ls-tree",
        "cat-file",
        "merge-base",
        "hash-object",
        "mktree",
        "update-ref",
    }
    as_user = set(re.findall(r'_as_user\(\s*root,\s*\(\s*"([^"]+)"', source))
    assert as_user == {"commit-tree", "fetch", "push"}
    assert "+" not in re.search(r'"push", [^)]*\)', source).group(0)


def test_no_other_layer_module_runs_a_process() -> None:
    """Only git.py runs a process, and that process is git."""
    layer = Path(gitmod.__file__).parent
    offenders = [
        p.name
        for p in layer.glob("*.py")
        if p.name != "git.py"
        and re.search(r"\bsubprocess\b|os\.system|os\.popen|sys\.executable", p.read_text())
    ]
    assert offenders == []


def test_a_conflicted_path_is_listed_once_with_every_stage() -> None:
    out = (
        b"100644 aaa 1\tdocs/a.md\x00100644 bbb 2\tdocs/a.md\x00100644 ccc 3\tdocs/a.md\x00"
        b"100644 ddd 0\tdocs/b.md\x00"
    )
    assert _entries(out) == {
        "docs/a.md": "100644 aaa 1 100644 bbb 2 100644 ccc 3",
        "docs/b.md": "100644 ddd 0",
    }
    assert list(_entries(b"100644 ddd 0\tdocs/b.md\x00100644 eee 0\tdocs/c.md\x00")) == [
        "docs/b.md",
        "docs/c.md",
    ]
    assert _entries(b"") == {}


def _asked_alone(root: Path) -> tuple[str | None, ...]:
    """The git state as the three quick questions answer it asked one by one."""
    try:
        top = gitmod._line(gitmod._ask(root, gitmod._TOPLEVEL))
        if top is None:
            raise GitError(f"{root} is not inside a git work tree")
        head = gitmod._line(gitmod._ask(root, gitmod._HEAD, quiet=(1,)))
        return ("available", top, head, current_branch(root))
    except GitError as exc:
        return ("unavailable", exc.message)


def _answered(root: Path) -> tuple[str | None, ...]:
    state = PendingGitState(root).result()
    if state.available:
        return (state.state, state.toplevel, state.head, state.branch)
    return (state.state, state.reason)


#: The states where the work tree, HEAD and the branch are awkward to tell apart: the git
#: commands that make each from a committed repository, and where it is asked from.
_STATES: dict[str, tuple[list[tuple[str, ...]], str]] = {
    "plain": ([], "{root}"),
    "unborn": ([("update-ref", "-d", "HEAD")], "{root}"),
    "detached": ([("checkout", "-q", "--detach")], "{root}"),
    "tag-and-branch": ([("tag", "master")], "{root}"),
    "branch-named-HEAD": ([("update-ref", "refs/heads/HEAD", "HEAD")], "{root}"),
    "unborn-beside-branch-HEAD": (
        [("update-ref", "refs/heads/HEAD", "HEAD"), ("symbolic-ref", "HEAD", "refs/heads/new")],
        "{root}",
    ),
    "symbolic-branch": (
        [
            ("symbolic-ref", "refs/heads/alias", "refs/heads/master"),
            ("symbolic-ref", "HEAD", "refs/heads/alias"),
        ],
        "{root}",
    ),
    "linked-worktree": (
        [("worktree", "add", "-q", "{tmp}/linked", "-b", "linked")],
        "{tmp}/linked",
    ),
    "subdirectory": ([("rm", "-q", "--cached", "top.md")], "{root}/docs"),
    "bare": ([("init", "-q", "--bare", "{tmp}/bare.git")], "{tmp}/bare.git"),
    "inside-dot-git": ([], "{root}/.git"),
    "not-a-repository": ([], "{tmp}"),
}


def _made(repo: Path, tmp_path: Path, name: str) -> Path:
    commands, where = _STATES[name]
    for command in commands:
        git(repo, *(arg.format(tmp=tmp_path) for arg in command))
    return Path(where.format(root=repo, tmp=tmp_path))


@pytest.mark.parametrize("name", list(_STATES))
def test_the_quick_answers_are_those_of_the_questions_asked_alone(
    repo: Path, tmp_path: Path, name: str
) -> None:
    """In each awkward state, the git state is what the three questions answer."""
    root = _made(repo, tmp_path, name)
    assert _answered(root) == _asked_alone(root)


def test_a_repository_another_user_owns_is_read_as_asked_alone(tmp_path: Path) -> None:
    """git's `safe.directory` refusal guards discovery, which is never used here: the git
    directory is named explicitly and nothing its config names is run, whoever owns it."""
    if os.geteuid() != 0:
        pytest.skip("needs root to hand the repository to another user")
    root = make_git_repo(tmp_path / "theirs")
    subprocess.run(["chown", "-R", "nobody", str(root)], check=True)
    try:
        assert _answered(root) == _asked_alone(root)
        assert _answered(root)[0] == "available"
    finally:
        subprocess.run(["chown", "-R", str(os.geteuid()), str(root)], check=True)


def test_every_git_command_names_its_repository_and_runs_no_program(repo: Path) -> None:
    argv, env = gitmod._argv_env(repo, ("status",), (("filter.lfs.process", ""),))
    assert argv[:3] == ["git", f"--git-dir={repo / '.git'}", f"--work-tree={repo}"]
    count = int(env["GIT_CONFIG_COUNT"])
    settings = {env[f"GIT_CONFIG_KEY_{i}"]: env[f"GIT_CONFIG_VALUE_{i}"] for i in range(count)}
    assert settings["core.fsmonitor"] == "false"
    assert settings["safe.bareRepository"] == "explicit"
    assert settings["credential.helper"] == "" and settings["filter.lfs.process"] == ""
    assert env["GIT_TERMINAL_PROMPT"] == "0" and env["GIT_OPTIONAL_LOCKS"] == "0"


def test_the_users_own_command_line_settings_stay(repo: Path, monkeypatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "user.name")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "Me")
    _, env = gitmod._argv_env(repo, ("status",))
    assert env["GIT_CONFIG_KEY_0"] == "user.name" and env["GIT_CONFIG_KEY_1"] == "core.fsmonitor"


def test_a_git_dir_is_found_only_as_dot_git(repo: Path) -> None:
    sub = repo / "docs"
    for name in ("HEAD", "objects", "refs"):  # a planted bare repository is not taken
        (sub / name).mkdir(exist_ok=True) if name != "HEAD" else (sub / name).write_text("x")
    assert gitmod.find_git_dir(sub) == (repo / ".git", repo)


def test_the_git_directory_of_a_linked_worktree(tmp_path: Path) -> None:
    main = tmp_path / "main"
    main.mkdir()
    git(main, "init", "-q", "-b", "master")
    git(main, "commit", "-q", "--allow-empty", "-m", "one")
    git(main, "worktree", "add", "-q", str(tmp_path / "linked"))
    found = git_dir(tmp_path / "linked")
    assert found is not None and found.parent == (main / ".git" / "worktrees").resolve()
    assert git_dir(main) == main / ".git"
