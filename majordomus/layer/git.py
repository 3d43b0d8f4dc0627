"""Every `git` invocation of the product (layer §5.2, §5.3, §8).

Read-only by construction: the only subcommands run here are `rev-parse`, `symbolic-ref`,
`status --porcelain` (with `--no-optional-locks`, so git never refreshes `.git/index`) and
`ls-files`. Nothing in this module may write to a repository; auditing the read-only promise
means reading this one file. One function answers one question.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Literal

from majordomus.errors import ProtocolFailure
from majordomus.layer.model import GitState

WorkingTree = Literal["clean", "dirty", "unknown"]


class GitError(ProtocolFailure):
    """Git is unusable where the run needs it, or `ls-files` failed (exit 13)."""


class _Failed(Exception):
    """A git command could not run or exited non-zero; the text says why."""


_REDIRECTING = frozenset({"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX"})


def _env() -> dict[str, str]:
    """The caller's environment without variables that would point git elsewhere."""
    env = {k: v for k, v in os.environ.items() if k not in _REDIRECTING}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env["LC_ALL"] = "C"
    return env


def _run(root: Path, *args: str, quiet_codes: tuple[int, ...] = ()) -> bytes | None:
    """Run `git -C root args…`; stdout bytes, None for an expected non-zero exit code."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            env=_env(),
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except OSError as exc:
        raise _Failed(f"cannot run git: {exc.strerror or exc}") from exc
    if done.returncode == 0:
        return done.stdout
    if done.returncode in quiet_codes:
        return None
    reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
    detail = reason[-1] if reason else f"exit status {done.returncode}"
    raise _Failed(f"git {args[0]} failed: {detail}")


def _line(out: bytes | None) -> str | None:
    if out is None:
        return None
    text = out.decode("utf-8", "replace").strip()
    return text or None


def show_toplevel(root: Path) -> str:
    """`git rev-parse --show-toplevel`: the work tree holding `root` (GitError if none)."""
    try:
        top = _line(_run(root, "rev-parse", "--show-toplevel"))
    except _Failed as exc:
        raise GitError(str(exc)) from exc
    if top is None:
        raise GitError(f"{root} is not inside a git work tree")
    return top


def head_commit(root: Path) -> str | None:
    """`git rev-parse --verify -q HEAD`: the commit HEAD names, None when unborn."""
    try:
        return _line(_run(root, "rev-parse", "--verify", "-q", "HEAD", quiet_codes=(1,)))
    except _Failed as exc:
        raise GitError(str(exc)) from exc


def current_branch(root: Path) -> str | None:
    """`git symbolic-ref -q --short HEAD`: the branch name, None when detached."""
    try:
        return _line(_run(root, "symbolic-ref", "-q", "--short", "HEAD", quiet_codes=(1,)))
    except _Failed as exc:
        raise GitError(str(exc)) from exc


def working_tree(root: Path) -> WorkingTree:
    """`git --no-optional-locks status --porcelain`: clean, dirty, or unknown on failure."""
    try:
        out = _run(root, "--no-optional-locks", "status", "--porcelain")
    except _Failed:
        return "unknown"
    return "dirty" if out and out.strip() else "clean"


def ls_files(root: Path, pathspec: str) -> list[str]:
    """`git ls-files -z -- <pathspec>`: index entries (tracked or staged), verbatim pathspec.

    A failure or a path that is not UTF-8 is fatal (layer §5.3): discovery through git is
    the contract, and a partial listing would make the index silently smaller.
    """
    try:
        out = _run(root, "ls-files", "-z", "--", pathspec)
    except _Failed as exc:
        raise GitError(f"{exc} (pathspec {pathspec})") from exc
    paths: list[str] = []
    for raw in (out or b"").split(b"\0"):
        if not raw:
            continue
        try:
            paths.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            shown = raw.decode("utf-8", "replace")
            raise GitError(f"git ls-files listed a path that is not UTF-8: {shown}") from exc
    return paths


def git_state(root: Path) -> GitState:
    """What git says about `root`, asked once per run (layer §5.2); never raises."""
    try:
        top = show_toplevel(root)
        head_id = head_commit(root)
        branch = current_branch(root)
    except GitError as exc:
        return GitState.unavailable(exc.message)
    return GitState(
        state="available",
        toplevel=top,
        head=head_id,
        branch=branch,
        working_tree=working_tree(root),
    )


def head(root: Path) -> str | None:
    """The commit HEAD names, or None when unborn or when git cannot answer (for the ledger)."""
    try:
        return head_commit(root)
    except GitError:
        return None
