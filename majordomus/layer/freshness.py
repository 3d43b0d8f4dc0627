"""Whether the layer on disk is still the one an index was read from, asked with a few
dozen `stat` calls (docs/layer-internals.md)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus.layer.git import git_dir
from majordomus.layer.model import Discovery

if TYPE_CHECKING:
    from majordomus.layer.index import Built

#: Layer files stat'ed per check, besides the fixed set: a layer up to this size whole.
SLICE = 200

_CONFIG = (".ai/manifest.yaml", ".ai/repo/knowledge/sources.yaml")

Key = tuple[int, int, int, int] | None


def stat_key(path: str) -> Key:
    """The (mtime, ctime, size, inode) of `path`, None when it cannot be stat'ed."""
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
        self.fixed = [(path, stat_key(path)) for path in paths]


class Watch:
    """The signature of one index; `changed()` answers whether the layer moved since, and
    `moved()` which files a re-index must read again."""

    def __init__(self, baseline: Baseline, built: Built) -> None:
        root = baseline.root
        base = self._base = str(root) + os.sep
        files = built.snapshot.files
        stamps: dict[str, Key] = {rel: kept.read.stamp for rel, kept in files.items()}
        # what was named but not read is stated now, in the diagnostics' order
        for diagnostic in built.index.diagnostics:
            if diagnostic.path and diagnostic.path not in stamps:
                stamps[diagnostic.path] = None
        folders = {base + ".ai"}  # and every directory holding a layer file, up to the root
        for parent in {rel.rpartition("/")[0] for rel in stamps}:
            while parent:
                folders.add(base + parent)
                parent = parent.rpartition("/")[0]
        if baseline.discovery == "filesystem":
            folders.update(_ai_folders(root))
        self._folders = folders
        low, high = baseline.started_ns, time.time_ns()
        stated = [(path, stat_key(path)) for path in sorted(folders)]
        self._fixed = [*baseline.fixed, *stated]
        # a file read while it changed (a modification or change time inside the read) is
        # read again; a time after it is a date set in the future (`touch -d`, an archive),
        # which would otherwise make every check a re-index
        self._suspects: set[str] = set()
        for rel, key in stamps.items():
            if key is None:
                stamps[rel] = stat_key(base + rel)
            elif low <= key[0] <= high or low <= key[1] <= high:
                self._suspects.add(rel)
        self.suspect = bool(self._suspects) or any(
            key is not None and low <= max(key[0], key[1]) <= high for _, key in stated
        )
        self._paths = list(stamps)
        self._keys = list(stamps.values())
        self._cursor = 0

    @property
    def files(self) -> int:
        return len(self._paths)

    def rebase(self) -> None:
        """Take the current stats as the signature: a failed re-index waits for the next change."""
        base = self._base
        self._fixed = [(path, stat_key(path)) for path, _ in self._fixed]
        self._keys = [stat_key(base + rel) for rel in self._paths]
        self._suspects.clear()
        self.suspect = False

    def changed(self) -> bool:
        """True when the layer may differ from the index: a stat of the fixed set or of the
        next slice of files moved, or one was suspect."""
        if self.suspect or any(stat_key(p) != key for p, key in self._fixed) or self._sliced():
            return True
        if self._paths:
            self._cursor = (self._cursor + SLICE) % len(self._paths)
        return False

    def _sliced(self) -> set[str]:
        """The files of the current slice (the next `SLICE` from the cursor) whose stat moved."""
        base, paths, keys = self._base, self._paths, self._keys
        total = len(paths)
        places = ((self._cursor + step) % total for step in range(min(SLICE, total)))
        return {paths[at] for at in places if stat_key(base + paths[at]) != keys[at]}

    def moved(self) -> set[str]:
        """The layer files a re-index must read again, as far as this watch saw."""
        base = self._base
        out = self._suspects | self._sliced()
        folders = {
            path for path, key in self._fixed if path in self._folders and stat_key(path) != key
        }
        if folders:
            inodes: dict[str, dict[str, int]] = {}
            for folder in folders:
                try:
                    with os.scandir(folder) as entries:
                        inodes[folder] = {entry.name: entry.inode() for entry in entries}
                except OSError:
                    inodes[folder] = {}
            for rel, key in zip(self._paths, self._keys, strict=True):
                folder, _, name = (base + rel).rpartition(os.sep)
                names = inodes.get(folder)
                if names is not None and (key is None or names.get(name) != key[3]):
                    out.add(rel)
        return out


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
