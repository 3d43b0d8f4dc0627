"""Every `git` invocation of the product.

Read-only by construction: the only subcommands run here are `rev-parse`, `symbolic-ref`,
`status --porcelain` (with `--no-optional-locks`, so git never refreshes `.git/index`) and
`ls-files`. Nothing in this module may write to a repository; auditing the read-only promise
means reading this one file. One function answers one question.
"""

from __future__ import annotations

import os
import subprocess
from itertools import compress
from operator import ne
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


class _Started:
    """A git command running in the background; `result()` collects its answer.

    Starting the slow questions (`status`, one `ls-files` per class) together lets git
    work on another core while the layer is read; every answer and failure is the same
    as asking in turn, and is raised where the caller collects it.
    """

    def __init__(self, root: Path, args: tuple[str, ...], quiet_codes: tuple[int, ...]) -> None:
        self.args = args
        self.quiet_codes = quiet_codes
        self.failure: _Failed | None = None
        self.process: subprocess.Popen[bytes] | None = None
        try:
            self.process = subprocess.Popen(
                ["git", "-C", str(root), *args],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                env=_env(),
            )
        except OSError as exc:
            self.failure = _Failed(f"cannot run git: {exc.strerror or exc}")

    def result(self) -> bytes | None:
        """Stdout bytes, None for an expected non-zero exit code; raises `_Failed`."""
        if self.process is None:
            assert self.failure is not None
            raise self.failure
        stdout, stderr = self.process.communicate()
        if self.process.returncode == 0:
            return stdout
        if self.process.returncode in self.quiet_codes:
            return None
        reason = stderr.decode("utf-8", "replace").strip().splitlines()
        detail = reason[-1] if reason else f"exit status {self.process.returncode}"
        raise _Failed(f"git {self.args[0]} failed: {detail}")

    def outcome(self) -> tuple[int, bytes] | None:
        """The exit code and stdout bytes, whatever the code; None when git could not run."""
        if self.process is None:
            return None
        stdout, _ = self.process.communicate()
        return self.process.returncode, stdout


def _line(out: bytes | None) -> str | None:
    if out is None:
        return None
    text = out.decode("utf-8", "replace").strip()
    return text or None


_TOPLEVEL = ("rev-parse", "--show-toplevel")
_HEAD = ("rev-parse", "--verify", "-q", "HEAD")
_BRANCH = ("symbolic-ref", "-q", "--short", "HEAD")
#: `_TOPLEVEL` and `_HEAD` asked of one process (see `_top_and_head`).
_TOPLEVEL_AND_HEAD = ("rev-parse", "--show-toplevel", "--verify", "-q", "HEAD")


def _toplevel(root: Path, started: _Started) -> str:
    try:
        top = _line(started.result())
    except _Failed as exc:
        raise GitError(str(exc)) from exc
    if top is None:
        raise GitError(f"{root} is not inside a git work tree")
    return top


def _optional(started: _Started) -> str | None:
    try:
        return _line(started.result())
    except _Failed as exc:
        raise GitError(str(exc)) from exc


def _top_and_head(started: _Started) -> tuple[str, str | None] | None:
    """The answers of `_TOPLEVEL` and `_HEAD` read from one `_TOPLEVEL_AND_HEAD`, or None
    when its answer is not one those two give asked alone (then they are asked alone).

    `rev-parse` handles its arguments in order: `--show-toplevel` prints the work tree line
    or dies (exit 128) before `--verify` looks at HEAD, which then prints the commit line
    (exit 0) or, with `-q`, only exits 1. So exit 0 with two lines, or exit 1 with one, is
    exactly the two answers; a failure, or a work tree path holding a newline, is not read.
    """
    outcome = started.outcome()
    if outcome is None:
        return None
    code, out = outcome
    lines = out.split(b"\n")
    if lines.pop() != b"" or len(lines) != (2 if code == 0 else 1) or code not in (0, 1):
        return None
    top = _line(lines[0])
    if top is None:
        return None
    return top, _line(lines[1]) if code == 0 else None


def show_toplevel(root: Path) -> str:
    """`git rev-parse --show-toplevel`: the work tree holding `root` (GitError if none)."""
    return _toplevel(root, _Started(root, _TOPLEVEL, ()))


def head_commit(root: Path) -> str | None:
    """`git rev-parse --verify -q HEAD`: the commit HEAD names, None when unborn."""
    return _optional(_Started(root, _HEAD, (1,)))


def current_branch(root: Path) -> str | None:
    """`git symbolic-ref -q --short HEAD`: the branch name, None when detached."""
    return _optional(_Started(root, _BRANCH, (1,)))


def _status(started: _Started) -> WorkingTree:
    try:
        out = started.result()
    except _Failed:
        return "unknown"
    return "dirty" if out and out.strip() else "clean"


def _start_status(root: Path) -> _Started:
    return _Started(root, ("--no-optional-locks", "status", "--porcelain"), ())


class _StatusQuestion:
    """The working tree of one build: `git status` started at most once, by `start` (which
    does not wait) or by the first call, which collects the answer."""

    __slots__ = ("_root", "_started")

    def __init__(self, root: Path, started: _Started | None) -> None:
        self._root = root
        self._started = started

    def start(self) -> None:
        if self._started is None:
            self._started = _start_status(self._root)

    def __call__(self) -> WorkingTree:
        self.start()
        assert self._started is not None
        return _status(self._started)


def working_tree(root: Path) -> WorkingTree:
    """`git --no-optional-locks status --porcelain`: clean, dirty, or unknown on failure."""
    return _status(_start_status(root))


class Listing:
    """`ls-files -s` started now and collected later (see `_Started`): each path with the
    index entry it stands for, so that a re-index sees a staged change to a file. Given
    several pathspecs (each verbatim), the paths any of them matches."""

    def __init__(self, root: Path, pathspec: str, *more: str) -> None:
        self.pathspec = " ".join((pathspec, *more))
        self.started = _Started(root, ("ls-files", "-s", "-z", "--", pathspec, *more), ())

    def entries(self) -> dict[str, str]:
        """Path → its index entry (`<mode> <blob> <stage>`, one per stage of a conflict), in
        listing order; `GitError` as `ls_files` raises it."""
        return self.read()[1]

    def read(self) -> tuple[bytes, dict[str, str]]:
        """What git printed, and the entries it gives (`entries`)."""
        out = self._output()
        return out, _entries(out)

    def _output(self) -> bytes:
        try:
            out = self.started.result()
        except _Failed as exc:
            raise GitError(f"{exc} (pathspec {self.pathspec})") from exc
        return out or b""

    def entries_since(
        self, before: bytes | None, entries: dict[str, str]
    ) -> tuple[bytes, dict[str, str], list[str] | None]:
        """What git printed, the entries it gives (`entries`), and the paths whose entries
        changed since the listing that printed `before` gave `entries`, or None when the
        paths are not all the same (then every line is read)."""
        out = self._output()
        if before is not None:
            if out == before:
                return out, entries, []
            changed = _changed(out, before, entries)
            if changed is not None:
                return out, *changed
        return out, _entries(out), None

    def paths(self) -> list[str]:
        """The listing, or `GitError` exactly as `ls_files` raises it."""
        return list(self.entries())

    def close(self) -> None:
        """End the listing when its answer is no longer wanted."""
        _reap(self.started)


def ls_files(root: Path, pathspec: str) -> list[str]:
    """`git ls-files -z -- <pathspec>`: index entries (tracked or staged), verbatim pathspec.

    A failure or a path that is not UTF-8 is fatal: discovery through git is
    the contract, and a partial listing would make the index silently smaller.
    """
    return Listing(root, pathspec).paths()


def _entries(out: bytes) -> dict[str, str]:
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        for raw in out.split(b"\0"):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                shown = raw.partition(b"\t")[2].decode("utf-8", "replace")
                raise GitError(f"git ls-files listed a path that is not UTF-8: {shown}") from None
        raise
    lines = text.split("\0")
    if lines and not lines[-1]:
        lines.pop()
    parts = [line.partition("\t") for line in lines]
    found = {path: stage for stage, _, path in parts}
    if len(found) == len(parts):
        return found
    found = {}  # a conflict lists a path once per stage: its entries are joined
    for stage, _, path in parts:
        if path in found:
            found[path] += " " + stage
        else:
            found[path] = stage
    return found


#: The block two listings are compared by (memcmp in C) to find where they differ.
_BLOCK = 4096


def _changed(
    out: bytes, before: bytes, entries: dict[str, str]
) -> tuple[dict[str, str], list[str]] | None:
    """The entries of `out` and the paths whose entries changed, read from the lines that
    differ from `before` (whose entries are `entries`), when every line of one stands at
    the same place in the other for the same path, alone in the listing; else None.

    Both outputs are compared by blocks; the lines from the first block that differs to
    the last are read, at the same offsets in both (what precedes and follows is equal).
    """
    if len(out) != len(before):
        return None
    blocks = range(0, len(out), _BLOCK)
    now = [out[at : at + _BLOCK] for at in blocks]
    then = [before[at : at + _BLOCK] for at in blocks]
    differ = list(compress(blocks, map(ne, now, then)))
    start = out.rfind(b"\0", 0, differ[0]) + 1
    end = out.find(b"\0", differ[-1] + _BLOCK)
    if end < 0:
        end = len(out)
    lines, was = out[start:end].split(b"\0"), before[start:end].split(b"\0")
    if len(lines) != len(was):
        return None
    found, changed = entries.copy(), []
    for line, old in zip(lines, was, strict=True):
        if line == old:
            continue
        try:
            entry, _, path = line.decode("utf-8").partition("\t")
        except UnicodeDecodeError:
            return None
        old_entry, _, old_path = old.decode("utf-8").partition("\t")
        if path != old_path or entries[path] != old_entry:
            return None
        found[path] = entry
        changed.append(path)
    return found, changed


def _reap(started: _Started) -> None:
    """End a background question whose answer is no longer wanted (a no-op once answered)."""
    if started.process is not None and started.process.returncode is None:
        started.process.kill()
        started.process.communicate()


class PendingGitState:
    """`git_state` whose questions run in the background until they are collected.

    The quick questions (the work tree, HEAD and the branch) are collected when `available`,
    `reason` or `result()` is first asked, so a build lists its files meanwhile; `status`
    runs until `result()`'s working tree collects it. With `status_now` false `status`
    starts only when the working tree is first asked for: a re-index reads a few files, so
    nothing runs beside it, and a server that never shows the working tree never pays for a
    `status` over the whole work tree.
    """

    def __init__(self, root: Path, *, status_now: bool = True) -> None:
        # all the questions at once, the work tree and HEAD's commit in one process; when
        # that answer cannot be read (`_top_and_head`) the two are asked alone, as before
        self._root = root
        self._both: _Started | None = _Started(root, _TOPLEVEL_AND_HEAD, ())
        self._asked_branch = _Started(root, _BRANCH, (1,))
        self._status: _Started | None = _start_status(root) if status_now else None
        self._reason: str | None = None
        self._top: str | None = None
        self._head: str | None = None
        self._branch: str | None = None

    def _collect(self) -> None:
        """The quick answers, read (and failures raised) in order; once."""
        both, self._both = self._both, None
        if both is None:
            return
        answered = _top_and_head(both)
        head: _Started | None = None
        try:
            if answered is None:
                top, head = _Started(self._root, _TOPLEVEL, ()), _Started(self._root, _HEAD, (1,))
                self._top = _toplevel(self._root, top)
                self._head = _optional(head)
            else:
                self._top, self._head = answered
            self._branch = _optional(self._asked_branch)
        except GitError as exc:
            self._reason = exc.message
            for started in (head, self._asked_branch, self._status):
                if started is not None:
                    _reap(started)
            self._status = None

    @property
    def reason(self) -> str | None:
        """Why git is unusable here, None when it answered."""
        self._collect()
        return self._reason

    @property
    def available(self) -> bool:
        return self.reason is None

    def result(self) -> GitState:
        if self.reason is not None:
            return GitState.unavailable(self.reason)
        question = _StatusQuestion(self._root, self._status)
        return GitState(
            state="available",
            toplevel=self._top,
            head=self._head,
            branch=self._branch,
            ask=question,
            start=question.start,
        )


def git_state(root: Path) -> GitState:
    """What git says about `root`, asked once per run; never raises."""
    return PendingGitState(root).result()


def head(root: Path) -> str | None:
    """The commit HEAD names, or None when unborn or when git cannot answer (for the ledger)."""
    try:
        return head_commit(root)
    except GitError:
        return None
