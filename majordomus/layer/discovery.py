"""Enumerating the files of each source class.

Two enumerations: `vcs` (the contract: `git ls-files` with the class's pathspec verbatim,
one call per class; a re-index asks once for all classes and reuses the attribution while
the paths are the same) and `filesystem` (a convenience: a walk of the work tree with the same
glob semantics). Owns the `claimed_twice` and `required_source_empty` findings. Reads
directory listings only, each directory reached from the root without following a symlink
at any component; opens no file.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from majordomus.layer.git import GitError, Listing
from majordomus.layer.model import Diagnostic, Discovery, Manifest, SourceClass
from majordomus.layer.root import LayerIOError
from majordomus.layer.sources import GLOB_MAGIC
from majordomus.logger import log
from majordomus.safefs import Tree, Unsafe


class Discovered(NamedTuple):
    """One file to read, with the class that claimed it and, with `vcs` discovery, the git
    index entry it was listed with (a staged change changes it)."""

    path: str
    source: SourceClass
    entry: str | None = None


# --- the glob of `:(glob)` pathspecs --------------------------------------------------------

_STAR = "**"
Segment = str | re.Pattern[str]


def _segment(text: str) -> Segment:
    """`**` stays a marker; a segment without wildcards stays a literal; else a regex."""
    if text == _STAR or ("*" not in text and "?" not in text):
        return text
    parts = []
    for ch in text:
        if ch == "*":
            parts.append("[^/]*")
        elif ch == "?":
            parts.append("[^/]")
        else:
            parts.append(re.escape(ch))
    return re.compile("".join(parts))


class Glob:
    """A `:(glob)` pattern over path segments: `**` spans zero or more whole segments,
    `*` any run and `?` one character inside a segment; no bracket classes."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.segments: tuple[Segment, ...] = tuple(
            _segment(part) for part in pattern.split("/") if part
        )
        self.end = len(self.segments)

    def close(self, states: set[int]) -> frozenset[int]:
        """Add the states a `**` may skip over (it may match zero segments)."""
        todo = list(states)
        while todo:
            state = todo.pop()
            if state < self.end and self.segments[state] == _STAR and state + 1 not in states:
                states.add(state + 1)
                todo.append(state + 1)
        return frozenset(states)

    def step(self, states: frozenset[int], name: str) -> frozenset[int]:
        """The states after consuming one path segment `name`."""
        nxt: set[int] = set()
        for state in states:
            if state >= self.end:
                continue
            seg = self.segments[state]
            if seg == _STAR:
                nxt.add(state)
            elif isinstance(seg, str):
                if seg == name:
                    nxt.add(state + 1)
            elif seg.fullmatch(name):
                nxt.add(state + 1)
        return self.close(nxt)

    def start(self) -> frozenset[int]:
        return self.close({0})

    def matches(self, rel: str) -> bool:
        states = self.start()
        for name in rel.split("/"):
            states = self.step(states, name)
        return self.end in states

    def literal_names(self, states: frozenset[int]) -> list[str] | None:
        """The only names that can advance `states`, when all are literals; else None."""
        names = []
        for state in states:
            if state >= self.end:
                continue
            seg = self.segments[state]
            if seg == _STAR or not isinstance(seg, str):
                return None
            names.append(seg)
        return names


#: Names a pattern segment may spell but no directory entry has: following them would
#: leave the directory (`..` climbs out of the root).
_NOT_ENTRIES = frozenset({".", ".."})


def _entries(tree: Tree, directory: str, names: list[str] | None) -> Iterator[tuple[str, int]]:
    """(name, st_mode without following links) of a directory's entries, or of `names`."""
    if names is not None:
        for name in names:
            if name in _NOT_ENTRIES:
                continue
            try:
                yield name, tree.lstat(f"{directory}/{name}" if directory else name).st_mode
            except Unsafe:
                continue
        return
    try:
        yield from tree.entries(directory)
    except Unsafe:
        return


def walk(
    root: Path, glob: Glob, never_enter: Callable[[str], bool], tree: Tree | None = None
) -> list[str]:
    """The paths under `root` the glob matches; symlinks skipped, hopeless branches pruned.

    Directories are opened from the root one component at a time (`tree`, or a tree of its
    own), so a directory swapped for a link while the walk runs is not entered either.
    """
    if tree is None:
        with Tree(root) as own:
            return walk(root, glob, never_enter, own)
    found: list[str] = []
    stack: list[tuple[str, frozenset[int]]] = [("", glob.start())]
    while stack:
        rel, states = stack.pop()
        for name, mode in _entries(tree, rel, glob.literal_names(states)):
            if stat.S_ISLNK(mode):
                continue
            nxt = glob.step(states, name)
            if not nxt:
                continue
            child = f"{rel}/{name}" if rel else name
            if stat.S_ISDIR(mode):
                if name == ".git" or never_enter(child):
                    continue
                if any(state < glob.end for state in nxt):
                    stack.append((child, nxt))
            elif glob.end in nxt:
                found.append(child)
    return found


# --- per class enumeration and the discovery findings --------------------------------------


def _under(rel: str, directory: str) -> bool:
    return rel == directory or rel.startswith(directory + "/")


def _escapes(rel: str) -> bool:
    """A listed path that would leave the root (a `..` pathspec); never read."""
    return rel.startswith("/") or (".." in rel and ".." in rel.split("/"))


def class_paths(
    root: Path,
    source: SourceClass,
    local_dir: str,
    listing: Listing | None,
    tree: Tree | None = None,
) -> list[str]:
    """The class's paths, sorted and unique, with the local half and escapes removed.

    `listing` is the class's `ls-files` already started (vcs mode); None walks the work tree
    (filesystem mode).
    """
    return class_entries(root, source, local_dir, listing, tree)[0]


def class_entries(
    root: Path,
    source: SourceClass,
    local_dir: str,
    listing: Listing | None,
    tree: Tree | None = None,
) -> tuple[list[str], dict[str, str] | None]:
    """`class_paths`, and with a listing each path's git index entry."""
    entries: dict[str, str] | None = None
    if listing is not None:
        entries = listing.entries()
        listed: list[str] | dict[str, str] = entries
    else:
        glob = Glob(source.pathspec.removeprefix(GLOB_MAGIC))
        listed = walk(root, glob, lambda rel: _under(rel, local_dir), tree)
        for rel in listed:
            try:
                rel.encode("utf-8")
            except UnicodeEncodeError as exc:
                shown = rel.encode("utf-8", "replace").decode("utf-8")
                raise LayerIOError(
                    f"a path that is not UTF-8 matches class '{source.id}': {shown}"
                ) from exc
    inside = local_dir + "/"
    # each path comes once (a listing's keys, a walk's finds), a listing's already sorted
    kept = [
        rel
        for rel in listed
        if not (rel.startswith(inside) or rel == local_dir) and not _escapes(rel)
    ]
    kept.sort()
    return kept, entries


class Listed(NamedTuple):
    """A `vcs` discovery and every path its listings held, with its git index entry."""

    files: list[Discovered]
    findings: list[Diagnostic]
    entries: dict[str, str]
    #: Each discovered path's place in `files`, once a re-index needed it.
    places: dict[str, int] | None = None

    def at(self) -> dict[str, int]:
        return self.places if self.places is not None else places(self.files)


def places(files: list[Discovered]) -> dict[str, int]:
    return {found.path: place for place, found in enumerate(files)}


def discover(
    root: Path,
    manifest: Manifest,
    sources: list[SourceClass],
    mode: Discovery,
    tree: Tree | None = None,
) -> tuple[list[Discovered], list[Diagnostic]]:
    """Every file to read, in class order then path order, and the discovery findings.

    `tree` holds the root's open directories for the filesystem walk (the reader reuses
    them); vcs listings are read through it when the files are read.
    """
    found = discover_listed(root, manifest, sources, mode, tree)
    return found.files, found.findings


def discover_again(
    root: Path, manifest: Manifest, sources: list[SourceClass], previous: Listed
) -> Listed:
    """The `vcs` discovery of the same classes after the git index changed.

    One `ls-files` with every class's pathspec (each verbatim) lists the paths any class
    matches. When they are the paths the listings of `previous` held, each class matches
    what it matched then, so its discovery stands with the new index entries; otherwise,
    or when git fails, every class is listed again on its own, as in a first discovery.
    """
    try:
        union = Listing(root, *(source.pathspec for source in sources)).entries()
    except GitError:
        union = None
    if union is None or union.keys() != previous.entries.keys():
        return discover_listed(root, manifest, sources, "vcs")
    if union == previous.entries:
        return Listed(previous.files, previous.findings, union, previous.places)
    at = previous.at()
    files = list(previous.files)
    for path, entry in union.items() - previous.entries.items():
        place = at.get(path)
        if place is not None:
            files[place] = files[place]._replace(entry=entry)
    return Listed(files, previous.findings, union, at)


def discover_listed(
    root: Path,
    manifest: Manifest,
    sources: list[SourceClass],
    mode: Discovery,
    tree: Tree | None = None,
) -> Listed:
    """`discover`, with every path the listings held (none in `filesystem` mode)."""
    local_dir = ".ai/" + manifest.local_path
    claimed: dict[str, str] = {}
    files: list[Discovered] = []
    findings: list[Diagnostic] = []
    union: dict[str, str] = {}
    # every class's listing runs at once; each is collected, and may fail, in class order
    listings = [Listing(root, s.pathspec) if mode == "vcs" else None for s in sources]
    for source, listing in zip(sources, listings, strict=True):
        paths, entries = class_entries(root, source, local_dir, listing, tree)
        if entries is not None:
            union.update(entries)
        log.debug(
            "class %s (kind %s): %d file(s)",
            source.id,
            source.kind,
            len(paths),
            extra={"class_id": source.id, "kind": source.kind, "files": len(paths)},
        )
        for rel in paths:
            first = claimed.get(rel)
            if first is not None:
                findings.append(
                    Diagnostic(
                        severity="warning",
                        code="claimed_twice",
                        path=rel,
                        message=f"matched by class '{source.id}' after class '{first}'; "
                        f"kept under '{first}'",
                    )
                )
                continue
            claimed[rel] = source.id
            files.append(Discovered(rel, source, None if entries is None else entries[rel]))
        if source.required and not paths:
            findings.append(
                Diagnostic(
                    severity="error",
                    code="required_source_empty",
                    message=f"class '{source.id}' is required but its pathspec "
                    f"'{source.pathspec}' matches no file",
                )
            )
    return Listed(files, findings, union)
