"""Whether the layer on disk is still the one an index was read from, asked before every
answer of a long-lived server, so a change of any tracked layer file is seen at the next
answer (docs/architecture.md). Never a read or a git process; one mechanism per platform:

* on Linux, inotify (`majordomus.layer.inotify`) watches every directory holding a layer
  file, the `.ai/` tree (with `filesystem` discovery), and the directories of the git index,
  HEAD's reflog and the layer's two configuration files: a check with no event queued is
  one non-blocking `read`; one with events `stat`s what they name and the fixed set below;
* elsewhere, or where a directory cannot be watched (a network or FUSE file system, the
  kernel's watch limit), and after the queue overflowed: a `stat` of the fixed set and of
  every layer file at every check.

The fixed set is what every change git sees touches (the git index: `git add`, `commit`,
`checkout`, `reset`; HEAD's reflog: a commit, a branch switch) in `vcs` discovery, the
configuration files, and every directory watched (a file created, removed or saved by
rename changes its directory). What git sees is stated before the index is read, so a commit
made while it is read makes the next check report a change; a file or directory whose change
time falls inside the read (or inside the setting up of the watches) is treated the same way.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus.layer.git import git_dir
from majordomus.layer.model import Discovery

if TYPE_CHECKING:
    from majordomus.layer.index import Built
    from majordomus.layer.inotify import Notifier

_CONFIG = (".ai/manifest.yaml", ".ai/repo/knowledge/sources.yaml")

Key = tuple[int, int, int, int] | None


def _key(path: str) -> Key:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


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
    `moved()` which files a re-index must read again."""

    def __init__(self, baseline: Baseline, built: Built) -> None:
        root = baseline.root
        base = self._base = str(root) + os.sep
        stamps: dict[str, Key] = {
            rel: kept.read.stamp for rel, kept in built.snapshot.files.items()
        }
        # what was named but not read is stated now, in the diagnostics' order
        for diagnostic in built.index.diagnostics:
            if diagnostic.path and diagnostic.path not in stamps:
                stamps[diagnostic.path] = None
        folders = _folders(base, stamps)
        if baseline.discovery == "filesystem":
            folders.update(_ai_folders(root))
        # watched before the folders are stated: a change from here on is an event or a stat;
        # the root too when a layer file lies in it (its own stat moves with any new file)
        watched = folders | {path.rpartition(os.sep)[0] for path, _ in baseline.fixed}
        if any("/" not in rel for rel in stamps):
            watched.add(str(root))
        self._notifier = _notifier(watched)
        low = baseline.started_ns
        stated = [(path, _key(path)) for path in sorted(folders)]
        high = time.time_ns()
        self._fixed = [*baseline.fixed, *stated]
        # a file read while it changed (a modification or change time inside the read) is
        # read again; a time after it is a date set in the future (`touch -d`, an archive),
        # which would otherwise make every check a re-index
        self._suspects: set[str] = set()
        for rel, key in stamps.items():
            if key is None:
                stamps[rel] = _key(base + rel)
            elif low <= key[0] <= high or low <= key[1] <= high:
                self._suspects.add(rel)
        self.suspect = bool(self._suspects) or any(
            key is not None and low <= max(key[0], key[1]) <= high for _, key in stated
        )
        self._stamps = stamps
        #: The layer files inotify events named since the index was read.
        self._named: set[str] = set()

    @property
    def files(self) -> int:
        return len(self._stamps)

    @property
    def notified(self) -> bool:
        """Whether inotify events stand in for the `stat` of every file."""
        return self._notifier is not None

    def rebase(self) -> None:
        """Take the current stats as the signature (after a re-index that failed, so the
        next attempt waits for the next change)."""
        if self._notifier is not None:
            self._notifier.drain()
        base = self._base
        self._fixed = [(path, _key(path)) for path, _ in self._fixed]
        self._stamps = {rel: _key(base + rel) for rel in self._stamps}
        self._suspects.clear()
        self._named.clear()
        self.suspect = False

    def changed(self) -> bool:
        """True when the layer may differ from the index: a stat moved, or one was suspect."""
        if self.suspect:
            return True
        notifier = self._notifier
        if notifier is not None:
            touched = notifier.drain()
            if not notifier.lost:
                return touched is not None and self._touched(touched)
            notifier.close()
            self._notifier = None
        return any(_key(path) != key for path, key in self._fixed) or bool(self._moved_files())

    def _touched(self, paths: set[str]) -> bool:
        """The `stat` check after events: the fixed set, and the layer files they named."""
        base, stamps = self._base, self._stamps
        for path in paths:
            rel = path[len(base) :].replace(os.sep, "/") if path.startswith(base) else None
            if rel in stamps:
                self._named.add(rel)
        moved = any(_key(path) != key for path, key in self._fixed)
        return moved or any(_key(base + rel) != stamps[rel] for rel in self._named)

    def _moved_files(self, among: set[str] | None = None) -> set[str]:
        base, stamps = self._base, self._stamps
        paths = stamps if among is None else among
        return {rel for rel in paths if _key(base + rel) != stamps[rel]}

    def moved(self) -> set[str]:
        """The layer files (root-relative) a re-index must read again: those changed while
        the index was read, and those whose stat moved (of the files events named, with
        inotify; of every file, without)."""
        among = self._named if self._notifier is not None else None
        return self._suspects | self._moved_files(among)


def _notifier(folders: set[str]) -> Notifier | None:
    """An inotify instance watching every folder (the nearest existing one for a folder not
    there yet), or None where one of them cannot be watched or inotify is not to be had."""
    if not sys.platform.startswith("linux"):
        return None
    from majordomus.layer.inotify import Notifier

    notifier = Notifier.open()
    if notifier is None:
        return None
    if notifier.watch(sorted({_existing(folder) for folder in folders})):
        notifier.close()
        return None
    return notifier


def _existing(folder: str) -> str:
    """`folder`, or its nearest ancestor that exists: that one changes when it is made."""
    while not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return folder


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
