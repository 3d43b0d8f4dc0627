"""Every `git` invocation of the product, and how git is made safe to run on a stranger's
repository (docs/RELIABILITY.md, "What git is trusted with"; docs/layer-internals.md)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from majordomus import safefs
from majordomus.errors import ProtocolFailure
from majordomus.safefs import CONFIG_LIMIT


class GitError(ProtocolFailure):
    """Git is unusable where the run needs it, or `ls-files` failed (exit 13)."""


class _Failed(Exception):
    """A git command could not run or exited non-zero; the text says why."""


#: Variables that would point git at another repository, index or object store than the
#: one `find_git_dir` names.
_REDIRECTING = frozenset(
    {
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_PREFIX",
        "GIT_COMMON_DIR",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_NAMESPACE",
        "GIT_CEILING_DIRECTORIES",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    }
)

#: Settings a repository's config (or a file it includes) could use to run a program or
#: reach out, each overridden with a value that does neither. Command-line settings are
#: read after every config file, so they win; an empty `credential.helper` empties the list.
SAFE_SETTINGS: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.sshCommand", "false"),
    ("core.askPass", ""),
    ("core.pager", "cat"),
    ("core.editor", "false"),
    ("core.gitProxy", ""),
    ("credential.helper", ""),
    ("diff.external", ""),
    ("gpg.program", "false"),
    ("protocol.allow", "never"),
    ("safe.bareRepository", "explicit"),
    ("submodule.recurse", "false"),
)

#: Per-driver settings that name a program (`filter.<driver>.clean`, ...); each driver the
#: repository's config defines gets them emptied (an empty command is no command).
_DRIVER_PROGRAMS = {
    "filter": ("clean", "smudge", "process"),
    "diff": ("command", "textconv"),
}

#: Seconds any git question may take; a config that includes a FIFO would otherwise hang.
TIMEOUT = 60.0


def find_git_dir(root: Path) -> tuple[Path, Path] | None:
    """The nearest `.git` (folder, or file naming one) at or above `root`, and its work tree;
    never `root` itself as a bare repository, which any commit can plant."""
    for directory in (root, *root.parents):
        marker = directory / ".git"
        try:
            mode = os.lstat(marker).st_mode
        except OSError:
            continue
        if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
            return marker, directory
    return None


def git_dir(root: Path) -> Path | None:
    """The git directory of the work tree `find_git_dir` finds (a linked worktree's own, as
    its `.git` file names it), or None; where the freshness check states the git index."""
    found = find_git_dir(root)
    if found is None:
        return None
    marker, work_tree = found
    try:
        if stat.S_ISDIR(os.lstat(marker).st_mode):
            return marker
        line = safefs.read_file(work_tree, ".git", CONFIG_LIMIT).decode("utf-8").strip()
    except (OSError, safefs.Unsafe, UnicodeDecodeError):
        return None
    if not line.startswith("gitdir:"):
        return None
    target = Path(line[len("gitdir:") :].strip())
    return target if target.is_absolute() else (work_tree / target).resolve()


def _named(root: Path, args: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """`args` naming the git directory and work tree, and the environment without the variables
    that would redirect git; raises `_Failed` when there is no git directory above `root`."""
    found = find_git_dir(root)
    if found is None:
        raise _Failed(f"{root} is not inside a git work tree (no .git in it or above it)")
    git_dir, work_tree = found
    env = {k: v for k, v in os.environ.items() if k not in _REDIRECTING}
    argv = ["git", f"--git-dir={git_dir}", f"--work-tree={work_tree}", "-C", str(root), *args]
    return argv, env


def _argv_env(
    root: Path, args: tuple[str, ...], emptied: tuple[tuple[str, str], ...] = ()
) -> tuple[list[str], dict[str, str]]:
    """The one way a hardened git command is made: `_named`, safe settings, `emptied` after."""
    argv, env = _named(root, args)
    settings = [*SAFE_SETTINGS, *emptied]
    # the user's own settings stay, ours come after them
    count = env.get("GIT_CONFIG_COUNT", "")
    given = int(count) if count.isdigit() else 0
    for offset, (key, value) in enumerate(settings):
        env[f"GIT_CONFIG_KEY_{given + offset}"] = key
        env[f"GIT_CONFIG_VALUE_{given + offset}"] = value
    env["GIT_CONFIG_COUNT"] = str(given + len(settings))
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_NO_LAZY_FETCH"] = "1"
    env["GIT_PAGER"] = "cat"
    env["LC_ALL"] = "C"
    return argv, env


def _drivers(root: Path) -> tuple[tuple[str, str], ...]:
    """Every program setting of the filter and diff drivers the repository's config defines
    (included files too), emptied; read without running anything, for `status`."""
    try:
        out = _Running(root, ("config", "--null", "--name-only", "--list"), (1,)).result()
    except _Failed:
        return ()
    found: set[str] = set()
    for key in (out or b"").decode("utf-8", "replace").split("\0"):
        section, _, rest = key.partition(".")
        name, _, program = rest.rpartition(".")
        if section in _DRIVER_PROGRAMS and name and program in _DRIVER_PROGRAMS[section]:
            found.update(f"{section}.{name}.{each}" for each in _DRIVER_PROGRAMS[section])
    return tuple((setting, "") for setting in sorted(found))


class _Running:
    """A git command running in the background, so git works beside the reading; `result()`
    collects its answer or raises its failure."""

    def __init__(
        self,
        root: Path,
        args: tuple[str, ...],
        quiet_codes: tuple[int, ...],
        emptied: tuple[tuple[str, str], ...] = (),
        stdin: bytes | None = None,
    ) -> None:
        self.args = args
        self.quiet_codes = quiet_codes
        self.stdin = stdin
        self.failure: _Failed | None = None
        self.process: subprocess.Popen[bytes] | None = None
        try:
            argv, env = _argv_env(root, args, emptied)
            self.process = subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                env=env,
            )
        except _Failed as exc:
            self.failure = exc
        except OSError as exc:
            self.failure = _Failed(f"cannot run git: {exc.strerror or exc}")

    def result(self) -> bytes | None:
        """Stdout bytes, None for an expected non-zero exit code; raises `_Failed` (and kills git
        once it took longer than `TIMEOUT`)."""
        if self.process is None:
            assert self.failure is not None
            raise self.failure
        try:
            stdout, stderr = self.process.communicate(self.stdin, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.stop()
            raise _Failed(f"git {self.args[0]} took more than {TIMEOUT:.0f} s") from None
        if self.process.returncode == 0:
            return stdout
        if self.process.returncode in self.quiet_codes:
            return None
        reason = stderr.decode("utf-8", "replace").strip().splitlines()
        detail = reason[-1] if reason else f"exit status {self.process.returncode}"
        raise _Failed(f"git {self.args[0]} failed: {detail}")

    def stop(self) -> None:
        """End git when its answer is no longer wanted (a no-op once answered)."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            self.process.communicate()


def _line(out: bytes | None) -> str | None:
    if out is None:
        return None
    text = out.decode("utf-8", "replace").strip()
    return text or None


_TOPLEVEL = ("rev-parse", "--show-toplevel")
_HEAD = ("rev-parse", "--verify", "-q", "HEAD")
_BRANCH = ("symbolic-ref", "-q", "--short", "HEAD")


def _answer(running: _Running) -> bytes | None:
    """`running.result()`, its failure raised as `GitError`."""
    try:
        return running.result()
    except _Failed as exc:
        raise GitError(str(exc)) from exc


def _ask(
    root: Path, args: tuple[str, ...], stdin: bytes | None = None, quiet: tuple[int, ...] = ()
) -> bytes | None:
    """One hardened command run to its end; `GitError` when it fails."""
    return _answer(_Running(root, args, quiet, stdin=stdin))


def current_branch(root: Path) -> str | None:
    """`git symbolic-ref -q --short HEAD`: the branch name, None when detached."""
    return _line(_ask(root, _BRANCH, quiet=(1,)))


def ignored(root: Path, rel: str) -> bool | None:
    """`git check-ignore -q --no-index`: whether git ignores `rel`; None without a usable git."""
    try:
        return _Running(root, ("check-ignore", "-q", "--no-index", rel), (1,)).result() is not None
    except _Failed:
        return None


def _status(root: Path, running: _Running | None) -> Literal["clean", "dirty", "unknown"]:
    """The working tree as `status` answers, started now unless already running."""
    try:
        out = (running or _start_status(root)).result()
    except _Failed:
        return "unknown"
    return "dirty" if out and out.strip() else "clean"


def _start_status(root: Path) -> _Running:
    """`status`, the one question that may run filter drivers: with every driver's programs
    emptied, never recursing into submodules."""
    return _Running(
        root,
        ("--no-optional-locks", "status", "--porcelain", "--ignore-submodules=all"),
        (),
        _drivers(root),
    )


class LsFiles:
    """`ls-files -s` of one or more verbatim pathspecs, started now and collected later: each
    path with its index entry, so a re-index sees a staged change."""

    def __init__(self, root: Path, pathspec: str, *more: str) -> None:
        self.pathspec = " ".join((pathspec, *more))
        self.running = _Running(root, ("ls-files", "-s", "-z", "--", pathspec, *more), ())

    def entries(self) -> dict[str, str]:
        """Path → its index entry (`<mode> <blob> <stage>`, one per stage of a conflict), in
        listing order; `GitError` when git fails."""
        try:
            out = self.running.result()
        except _Failed as exc:
            raise GitError(f"{exc} (pathspec {self.pathspec})") from exc
        return _entries(out or b"")


def ls_files(root: Path, pathspec: str) -> list[str]:
    """`git ls-files -z -- <pathspec>`: index entries, verbatim pathspec; a failure is fatal,
    since a partial listing would make the index silently smaller."""
    return list(LsFiles(root, pathspec).entries())


def _entries(out: bytes) -> dict[str, str]:
    # a path that is not UTF-8 keeps its bytes as surrogates; discovery excludes it by name
    text = out.decode("utf-8", "surrogateescape")
    lines = text.split("\0")
    if lines and not lines[-1]:
        lines.pop()
    found: dict[str, str] = {}
    for stage, _, path in (line.partition("\t") for line in lines):
        if path in found:  # a conflict lists a path once per stage: its entries are joined
            found[path] += " " + stage
        else:
            found[path] = stage
    return found


class _AskedOnce:
    """A field holding its value, or the question (a callable) that answers it when the field
    is first read: a `status` already running is collected then, or never."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.held = f"_{name}"

    def __get__(self, obj: object, owner: type | None = None) -> str:
        if obj is None:
            return "unknown"  # the field's default
        fields = vars(obj)
        value = fields[self.held]
        if not isinstance(value, str):
            lock, ask = value
            with lock:  # asked once, whichever thread reads it first
                if not isinstance(fields[self.held], str):
                    fields[self.held] = ask()
        return str(fields[self.held])

    def __set__(self, obj: object, value: str | Callable[[], str]) -> None:
        vars(obj)[self.held] = value if isinstance(value, str) else (threading.Lock(), value)


@dataclass(frozen=True)
class GitState:
    """What git says about the root; immutable. `working_tree` may be given as the question
    that answers it, asked when first read, so nothing waits for it unless an answer needs it."""

    state: Literal["available", "unavailable"]
    toplevel: str | None = None
    head: str | None = None
    branch: str | None = None
    working_tree: _AskedOnce = _AskedOnce()
    reason: str | None = None

    @classmethod
    def unavailable(cls, reason: str) -> GitState:
        return cls(state="unavailable", reason=reason)

    @property
    def available(self) -> bool:
        return self.state == "available"

    def to_json(self) -> dict[str, Any]:
        if self.state == "unavailable":
            return {"state": "unavailable", "reason": self.reason or ""}
        return {
            "state": "available",
            "toplevel": self.toplevel,
            "head": self.head,
            "branch": self.branch,
            "working_tree": self.working_tree,
        }


class PendingGitState:
    """What git says about a root, asked in the background (docs/layer-internals.md)."""

    def __init__(self, root: Path, *, status_now: bool = True) -> None:
        self._root = root
        self._asked = (
            _Running(root, _TOPLEVEL, ()),
            _Running(root, _HEAD, (1,)),
            _Running(root, _BRANCH, (1,)),
        )
        self._status = _start_status(root) if status_now else None
        self._state: GitState | None = None

    def result(self) -> GitState:
        """The quick answers, read (and failures raised) in order; once."""
        if self._state is None:
            asked_top, head, branch = self._asked
            try:
                top = _line(_answer(asked_top))
                if top is None:
                    raise GitError(f"{self._root} is not inside a git work tree")
                self._state = GitState(
                    "available",
                    top,
                    _line(_answer(head)),
                    _line(_answer(branch)),
                    partial(_status, self._root, self._status),
                )
            except GitError as exc:
                for running in (head, branch, self._status):
                    if running is not None:
                        running.stop()
                self._state = GitState.unavailable(exc.message)
        return self._state


def head(root: Path) -> str | None:
    """The commit HEAD names, or None when unborn or when git cannot answer (for the ledger)."""
    try:
        return _line(_ask(root, _HEAD, quiet=(1,)))
    except GitError:
        return None


# -- the team ledger (docs/team.md) ------------------------------------------------------------

#: Every ref the team ledger reads or writes is below this prefix; no other ref is written.
LEDGER_REFS = "refs/majordomus/"

#: A name `mktree` is given: a task or a record file, each checked before (no tab, no newline).
_TREE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")

_MODES = {"blob": "100644", "tree": "040000"}

#: One entry of `ls-tree -r -t -l`: type, object id, size (None for a tree) and path.
TreeEntry = tuple[str, str, int | None, str]


def ledger_refs(root: Path) -> dict[str, str]:
    """Every ref below `refs/majordomus/` and the commit it names."""
    out = _ask(root, ("for-each-ref", "--format=%(objectname) %(refname)", LEDGER_REFS))
    pairs = (line.split(" ", 1) for line in (out or b"").decode("utf-8", "replace").splitlines())
    return {name: oid for oid, name in pairs}


def _tree(out: bytes) -> list[TreeEntry]:
    entries: list[TreeEntry] = []
    for item in out.split(b"\0"):
        head, tab, path = item.partition(b"\t")
        if tab:
            _, kind, oid, size = head.decode("ascii").split()
            entries.append(
                (kind, oid, None if size == "-" else int(size), path.decode("utf-8", "replace"))
            )
    return entries


def trees(root: Path, commits: Sequence[str]) -> list[list[TreeEntry]]:
    """Every entry of each commit's tree, trees included (`ls-tree -r -t -l`); else `GitError`."""
    return [_tree(_ask(root, ("ls-tree", "-r", "-t", "-l", "-z", c)) or b"") for c in commits]


def blobs(root: Path, objects: Sequence[str]) -> dict[str, bytes]:
    """The bytes of each blob (`cat-file --batch`); a missing one is left out."""
    if not objects:
        return {}
    asked = "".join(f"{oid}\n" for oid in objects).encode("ascii")
    out = _ask(root, ("cat-file", "--batch"), stdin=asked) or b""
    found: dict[str, bytes] = {}
    at = 0
    while at < len(out):
        end = out.index(b"\n", at)
        head = out[at:end].split()
        at = end + 1
        if len(head) == 3:  # `<id> <type> <size>`, else `<id> missing`
            size = int(head[2])
            found[head[0].decode("ascii")] = out[at : at + size]
            at += size + 1
    return found


def is_ancestor(root: Path, old: str, new: str) -> bool:
    """Whether `new` fast-forwards from `old` (`merge-base --is-ancestor`)."""
    return _ask(root, ("merge-base", "--is-ancestor", old, new), quiet=(1,)) is not None


def write_blobs(root: Path, contents: Sequence[bytes]) -> list[str]:
    """Store each content as a blob and return the ids in order (`hash-object -w
    --no-filters --stdin-paths`, read from files of a private temporary directory)."""
    with tempfile.TemporaryDirectory(prefix="majordomus-") as folder:
        paths = [os.path.join(folder, str(n)) for n in range(len(contents))]
        for path, data in zip(paths, contents, strict=True):
            with open(path, "wb") as handle:
                handle.write(data)
        asked = "".join(f"{path}\n" for path in paths).encode("utf-8")
        out = _ask(root, ("hash-object", "-w", "--no-filters", "--stdin-paths"), stdin=asked)
    return (out or b"").decode("ascii").split()


def make_trees(root: Path, listings: Sequence[Sequence[tuple[str, str, str]]]) -> list[str]:
    """One tree per listing of (type, object id, name), ids in order (`mktree --batch`)."""
    if any(not _TREE_NAME.fullmatch(name) for listing in listings for _, _, name in listing):
        raise GitError("a tree entry name is not a plain file name")
    text = "\n".join(
        "".join(f"{_MODES[kind]} {kind} {oid}\t{name}\n" for kind, oid, name in listing)
        for listing in listings
    )
    out = _ask(root, ("mktree", "--batch"), stdin=text.encode("utf-8"))
    return (out or b"").decode("ascii").split()


def update_refs(root: Path, changes: Sequence[tuple[str, str | None, str | None]]) -> None:
    """Move or delete each ref below `refs/majordomus/`, all or none, only while each still names
    its old commit: one `update-ref --stdin` transaction."""
    lines = []
    for ref, new, old in changes:
        if not ref.startswith(LEDGER_REFS):
            raise GitError(f"{ref} is not a ref of the team ledger")
        if new is not None:
            lines.append(f"update {ref} {new} {old or '0' * len(new)}\n")
        elif old is not None:
            lines.append(f"delete {ref} {old}\n")
    if lines:
        _ask(root, ("update-ref", "--stdin"), stdin="".join(lines).encode("utf-8"))


def config_value(root: Path, key: str) -> str | None:
    """`config --get KEY`: the value, or None when it is not set."""
    return _line(_ask(root, ("config", "--get", key), quiet=(1,)))


def _as_user(root: Path, args: tuple[str, ...]) -> tuple[int, bytes, str]:
    """`args` run as the user's own git (config, credentials, hooks, signing), no time limit;
    exit code, stdout and stderr's last line."""
    try:
        argv, env = _named(root, args)
    except _Failed as exc:
        raise GitError(str(exc)) from None
    try:
        done = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, env=env)
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror or exc}") from None
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return done.returncode, done.stdout, lines[-1] if lines else f"exit status {done.returncode}"


def commit_tree(root: Path, tree: str, parent: str | None, message: str) -> str:
    """A commit of `tree` on `parent`, made as the user's `git commit` would make it."""
    parents = ("-p", parent) if parent else ()
    code, out, err = _as_user(root, ("commit-tree", tree, *parents, "-m", message))
    if code:
        raise GitError(f"git commit-tree failed: {err}")
    return out.decode("ascii").strip()


def fetch(root: Path, remote: str, refspec: str) -> None:
    """`git fetch` of one refspec from `remote`, touching no tag and writing no FETCH_HEAD."""
    code, _, err = _as_user(
        root,
        ("fetch", "--no-tags", "--prune", "--no-write-fetch-head", "--quiet", remote, refspec),
    )
    if code:
        raise GitError(f"git fetch {remote} failed: {err}")


def push(root: Path, remote: str, ref: str) -> str | None:
    """`git push --atomic` of `ref` to the same name on `remote`, never forced: None when it
    landed, else git's reason (a rejection when the remote's ref does not fast-forward)."""
    code, out, err = _as_user(root, ("push", "--atomic", "--porcelain", remote, f"{ref}:{ref}"))
    if code == 0:
        return None
    rejected = [line for line in out.decode("utf-8", "replace").splitlines() if line[:1] == "!"]
    return rejected[0].rsplit("\t", 1)[-1] if rejected else err
