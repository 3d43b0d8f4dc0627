"""Whether the layer on disk is still the one an index was read from, asked cheaply.

A long-lived server asks before every answer, so the question costs at most a few `stat`
calls, never a read or a git process. Without inotify, what it `stat`s:

* what every change git sees touches: the git index (`git add`, `commit`, `checkout`,
  `reset`) and HEAD's reflog (a commit, a branch switch), in `vcs` discovery;
* the layer's two configuration files;
* every directory holding a layer file, and with `filesystem` discovery every directory of
  the `.ai/` tree outside `.ai/local/`: a file created, removed or saved by rename (what
  most editors do) changes its directory;
* a rotating slice of `SLICE` layer files: a file rewritten in place changes only its own
  stat, so it is seen within `ceil(files / SLICE)` checks (at the next one on a layer of
  up to `SLICE` files).

On Linux the same directories (and those of the git index, the reflog and the configuration
files) are watched with inotify (`majordomus.layer.inotify`) from the first check on, and
the watch is handed from one index to the next: a check whose queue is empty makes no
`stat` call at all, one with events `stat`s only what they name (so a file rewritten in
place is seen at the next check, not within a slice's turn), and anything the events cannot
vouch for is checked by `stat`: everything at once when setting up and after a queue
overflow or a watched directory gone; at every check what is in a directory that cannot be
watched (one on a network or FUSE file system, whose changes may not pass through this
kernel).

What git sees is stated before the index is read, so a commit made while it is read makes
the next check report a change; a file or directory whose change time falls inside the read
is treated the same way.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus import safefs
from majordomus.layer.model import Discovery
from majordomus.safefs import CONFIG_LIMIT

if TYPE_CHECKING:
    from majordomus.layer.index import Built
    from majordomus.layer.inotify import Notifier

#: Layer files stat'ed per check, besides the fixed set.
SLICE = 64

_CONFIG = (".ai/manifest.yaml", ".ai/repo/knowledge/sources.yaml")

Key = tuple[int, int, int, int] | None


def _key(path: str) -> Key:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def git_dir(root: Path) -> Path | None:
    """The git directory of the work tree holding `root` (a linked worktree's own), or None."""
    for folder in (root, *root.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():
            try:
                line = safefs.read_file(folder, ".git", CONFIG_LIMIT).decode("utf-8").strip()
            except (safefs.Unsafe, UnicodeDecodeError):
                return None
            if line.startswith("gitdir:"):
                target = Path(line[len("gitdir:") :].strip())
                return target if target.is_absolute() else (folder / target).resolve()
            return None
    return None


class Baseline:
    """What git sees and the layer's configuration, stated before an index is read."""

    def __init__(self, root: Path, discovery: Discovery) -> None:
        self.root = root
        self.discovery: Discovery = discovery
        self.started_ns = time.time_ns()
        paths = [str(root / rel) for rel in _CONFIG]
        if discovery == "vcs":
            found = git_dir(root)
            if found is not None:
                paths += [str(found / "index"), str(found / "logs" / "HEAD")]
        self.fixed = [(path, _key(path)) for path in paths]


class Watch:
    """The signature of one index; `changed()` answers whether the layer moved since, and
    `moved()` which files a re-index must read again. Given the watch of the index before,
    it takes over that watch's inotify instance, so no event between the two is lost."""

    _stamps: dict[str, Key]
    _layer_folders: frozenset[str]

    def __init__(self, baseline: Baseline, built: Built, previous: Watch | None = None) -> None:
        root = baseline.root
        index = built.index
        self._fixed = list(baseline.fixed)
        self._suspects: set[str] = set()
        base = str(root) + os.sep
        self._base = base
        files = built.snapshot.files
        # in the diagnostics' order (a set's would differ between processes)
        unread = dict.fromkeys(d.path for d in index.diagnostics if d.path and d.path not in files)
        stamps = (
            None
            if previous is None or previous._base != base
            else _carried(previous, built, unread)
        )
        changed: Iterable[str] | None = None  # the paths whose keys are new: all of them
        if stamps is not None:
            changed = [*(built.read_now or ()), *unread]
        else:
            stamps = {rel: kept.read.stamp for rel, kept in files.items()}
            stamps.update(unread)
        if (
            previous is not None
            and previous._base == base
            and stamps.keys() == previous._stamps.keys()
        ):
            folders = set(previous._layer_folders)  # the same files live in the same folders
        else:
            folders = _folders(base, stamps)
        self._layer_folders = frozenset(folders)
        if baseline.discovery == "filesystem":
            folders.update(_ai_folders(root))
        self._folders = folders
        self._notifier: Notifier | None = None
        self._tried = False
        self._unwatched: set[str] = set()
        self._pending: set[str] = set()
        fresh: set[str] = set()
        if previous is not None and previous._notifier is not None:
            self._notifier, previous._notifier = previous._notifier, None
            self._tried = True
            fresh = self._watch_folders()
        low, high = baseline.started_ns, time.time_ns()
        stated = [(path, _key(path)) for path in sorted(folders)]
        self._fixed += stated
        self.suspect = any(
            key is not None and low <= max(key[0], key[1]) <= high for _, key in stated
        ) or any(  # what git sees, in a folder watched only now, moved since it was stated
            _key(path) != key for path, key in baseline.fixed if path.rpartition(os.sep)[0] in fresh
        )
        self._suspect_files(
            stamps, stamps if fresh or changed is None else changed, low, high, fresh
        )
        self.suspect = self.suspect or bool(self._suspects)
        self._stamps = stamps
        self._files = list(stamps.items())
        self._cursor = 0

    def _suspect_files(
        self, stamps: dict[str, Key], paths: Iterable[str], low: int, high: int, fresh: set[str]
    ) -> None:
        """Of `paths`, stat what was not read (its key stands for it from now on) and
        suspect what may have changed unseen: a file read while it changed (a modification
        or change time from `low`, the build's start, to `high`, taken after every read
        ended), or one in a folder watched only now whose stat moved since its read. A time
        after `high` is a date set in the future (`touch -d`, an archive, a skewed clock),
        not a change during the read: suspected, such a file would make every check a
        re-index. A re-index passes only the paths it read, and those not read: a file it
        kept was read before it started."""
        base = self._base
        for rel in paths:
            key = stamps[rel]
            if key is None:
                stamps[rel] = _key(base + rel)
            elif (
                low <= key[0] <= high
                or low <= key[1] <= high
                or (
                    fresh
                    and (base + rel).rpartition(os.sep)[0] in fresh
                    and _key(base + rel) != key
                )
            ):
                self._suspects.add(rel)

    def _watch_folders(self) -> set[str]:
        """Watch every directory whose change the check must see; those newly watched.
        What cannot be watched is `stat`ed at every check instead (`_always`)."""
        notifier = self._notifier
        assert notifier is not None
        parents = {path.rpartition(os.sep)[0] for path, _ in self._fixed}
        wanted = sorted(self._folders | parents)
        fresh = {folder for folder in wanted if folder not in notifier.watched}
        failed = set(notifier.watch(wanted))
        self._unwatched = failed
        self.__dict__.pop("_always_keys", None)
        return fresh - failed

    def rebase(self) -> None:
        """Take the current stats as the signature (after a re-index that failed, so the
        next attempt waits for the next change)."""
        base = self._base
        self._fixed = [(path, _key(path)) for path, _ in self._fixed]
        self._files = [(rel, _key(base + rel)) for rel, _ in self._files]
        self._stamps = dict(self._files)
        self.__dict__.pop("_fixed_keys", None)
        self.__dict__.pop("_always_keys", None)
        self._suspects.clear()
        self._pending.clear()
        self.suspect = False

    @property
    def files(self) -> int:
        return len(self._files)

    @property
    def notified(self) -> bool:
        """True while inotify events stand in for the `stat` check."""
        return self._notifier is not None

    def changed(self) -> bool:
        """True when the layer may differ from the index: a stat moved, or one was suspect."""
        if self.suspect:
            return True
        notifier = self._notifier
        if notifier is None:
            if self._tried:
                return self._sliced()
            return self._notify()
        touched = notifier.drain()
        if notifier.lost:
            return self._notify()
        if touched is not None and self._named(touched):
            return True
        if any(_key(path) != key for path, key in self._always()):
            return True
        return bool(self._unwatched & self._folders) and self._sliced()

    def _notify(self) -> bool:
        """Set up (again) the inotify watch and check everything once, which covers what
        happened before the watches stood; without inotify, the `stat` check from now on.
        The inotify binding (ctypes) is imported here: a one-shot command never asks."""
        from majordomus.layer.inotify import Notifier

        if self._notifier is not None:
            self._notifier.close()
        self._notifier = Notifier.open()
        self._tried = True
        if self._notifier is None:
            return self._sliced()
        self._watch_folders()
        moved = False
        for path, key in self._fixed:
            if _key(path) != key:
                moved = True
        base = self._base
        for rel, key in self._files:
            if _key(base + rel) != key:
                self._pending.add(rel)
        return moved or bool(self._pending)

    @cached_property
    def _fixed_keys(self) -> dict[str, Key]:
        return dict(self._fixed)

    def _always(self) -> list[tuple[str, Key]]:
        """What a check `stat`s besides events: the fixed paths in a folder that is not
        watched (the reflog before the first commit makes its folder). A layer folder that
        is not watched makes every check the `stat` check of the fixed set and the slice."""
        cached = self.__dict__.get("_always_keys")
        if cached is None:
            failed = self._unwatched
            cached = [
                (path, key)
                for path, key in self._fixed
                if failed and (path in failed or path.rpartition(os.sep)[0] in failed)
            ]
            self.__dict__["_always_keys"] = cached
        return cached

    def _named(self, touched: set[str]) -> bool:
        """The `stat` check of what the events named, and of their directories."""
        fixed, stamps, base = self._fixed_keys, self._stamps, self._base
        moved = False
        for path in touched | {path.rpartition(os.sep)[0] for path in touched}:
            rel = None
            if path in fixed:
                key = fixed[path]
            elif path.startswith(base):
                rel = path[len(base) :].replace(os.sep, "/")
                if rel not in stamps:
                    continue
                key = stamps[rel]
            else:
                continue
            if _key(path) != key:
                moved = True
                if rel is not None:
                    self._pending.add(rel)
        return moved

    def _sliced(self) -> bool:
        """The `stat` check without events: the fixed set and the next slice of files."""
        for path, key in self._fixed:
            if _key(path) != key:
                return True
        total = len(self._files)
        if not total:
            return False
        start = self._cursor
        base = self._base
        for step in range(min(SLICE, total)):
            rel, key = self._files[(start + step) % total]
            if _key(base + rel) != key:
                return True
        self._cursor = (start + SLICE) % total
        return False

    def moved(self) -> set[str]:
        """The layer files (root-relative) a re-index must read again, as far as this watch
        saw: those changed while the index was read, those whose stat moved where the last
        check looked (the current slice, or what inotify events named), and those of a moved
        directory that were replaced or removed (a save by rename, a delete). Without
        inotify a file rewritten in place elsewhere is seen, as by `changed()`, when the
        slice reaches it."""
        base = self._base
        out = self._suspects | self._pending
        if self._notifier is None or self._unwatched & self._folders:
            total = len(self._files)
            for step in range(min(SLICE, total)):
                rel, key = self._files[(self._cursor + step) % total]
                if _key(base + rel) != key:
                    out.add(rel)
        folders = {path for path, key in self._fixed if path in self._folders and _key(path) != key}
        if folders:
            inodes: dict[str, dict[str, int]] = {}
            for folder in folders:
                try:
                    with os.scandir(folder) as entries:
                        inodes[folder] = {entry.name: entry.inode() for entry in entries}
                except OSError:
                    inodes[folder] = {}
            for rel, key in self._files:
                folder, _, name = (base + rel).rpartition(os.sep)
                names = inodes.get(folder)
                if names is not None and (key is None or names.get(name) != key[3]):
                    out.add(rel)
        return out


def _carried(previous: Watch, built: Built, unread: dict[str, None]) -> dict[str, Key] | None:
    """The keys of a re-index's files as the watch before stated them, but for the files
    the build read (`Built.read_now`) and those it could not read (`unread`, stated again);
    None when the build read everything, or some file or unread path is gone (a key would
    be left over): then every key is taken from the build."""
    read_now = built.read_now
    if read_now is None:
        return None
    files = built.snapshot.files
    stamps = dict(previous._stamps)
    for rel in read_now:
        stamps[rel] = files[rel].read.stamp
    stamps.update(unread)
    # every kept file was the previous build's, so the keys hold every file and unread path
    return stamps if len(stamps) == len(files) + len(unread) else None


def _folders(base: str, stamps: dict[str, Key]) -> set[str]:
    """`.ai` and every directory holding a layer file, up to the root."""
    folders = {base + ".ai"}
    for parent in {rel.rpartition("/")[0] for rel in stamps}:
        while parent:
            folders.add(base + parent)
            parent = parent.rpartition("/")[0]
    return folders


def _ai_folders(root: Path) -> list[str]:
    """Every directory of the `.ai/` tree outside `.ai/local/`, symlinks not followed."""
    out = []
    stack = [root / ".ai"]
    local = root / ".ai" / "local"
    while stack:
        folder = stack.pop()
        out.append(str(folder))
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    path = Path(entry.path)
                    if entry.is_dir(follow_symlinks=False) and path != local:
                        stack.append(path)
        except OSError:
            continue
    return out
