"""Enumerating the files of each source class, `vcs` or `filesystem` (docs/layer-internals.md)."""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from majordomus.layer.git import GitError, LsFiles
from majordomus.layer.model import LayerDiagnostic, Manifest, SourceClass
from majordomus.layer.sources import GLOB_MAGIC
from majordomus.paths import escapes, is_under
from majordomus.safefs import Tree, Unsafe

log = logging.getLogger(__name__)


class Claimed(NamedTuple):
    """The files one source class claimed, in path order, and with `vcs` discovery a map
    holding the git index entry each was listed with (a staged change changes it)."""

    source: SourceClass
    paths: list[str]
    entries: Mapping[str, str] | None


# --- the glob of `:(glob)` pathspecs --------------------------------------------------------

_STAR = "**"
Segment = str | re.Pattern[str]
_WILDCARDS = {"*": "[^/]*", "?": "[^/]"}


def _segment(text: str) -> Segment:
    """`**` stays a marker; a segment without wildcards stays a literal; else a regex."""
    if text == _STAR or ("*" not in text and "?" not in text):
        return text
    return re.compile("".join(_WILDCARDS.get(ch) or re.escape(ch) for ch in text))


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
            elif seg == name if isinstance(seg, str) else seg.fullmatch(name):
                nxt.add(state + 1)
        return self.close(nxt)

    def matches(self, rel: str) -> bool:
        states = self.close({0})
        for name in rel.split("/"):
            states = self.step(states, name)
        return self.end in states


#: Names a pattern segment may spell but no directory entry has: following them would
#: leave the directory (`..` climbs out of the root).
_NOT_ENTRIES = frozenset({".", ".."})


def _entries(tree: Tree, directory: str) -> list[tuple[str, int]]:
    """(name, st_mode without following links) of a directory's entries; none when unsafe."""
    try:
        return list(tree.entries(directory))
    except Unsafe:
        return []


def walk(tree: Tree, glob: Glob, never_enter: Callable[[str], bool]) -> list[str]:
    """The paths under the tree's root the glob matches; symlinks skipped, hopeless branches
    pruned, directories opened from the root one component at a time."""
    found: list[str] = []
    stack: list[tuple[str, frozenset[int]]] = [("", glob.close({0}))]
    while stack:
        rel, states = stack.pop()
        for name, mode in _entries(tree, rel):
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


# --- one listing for every class, picked apart ----------------------------------------------

#: Variables that change how git reads every pathspec (literally, case-insensitively...):
#: with any of them set, each class is listed alone.
_PATHSPEC_VARIABLES = (
    "GIT_LITERAL_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
)
#: What git's wildmatch reads otherwise than `Glob`: `?` (one byte to git, one character
#: here), bracket classes and `\` escapes; and NUL, which no argument can hold.
_NOT_GLOB = re.compile(r"[?\[\\\0]")


def union_pick(pathspec: str) -> Glob | None:
    """The `Glob` that picks a class's paths out of the one listing of every class, when it
    matches its pathspec exactly as git does (docs/layer-internals.md); None: listed alone."""
    if not pathspec.startswith(GLOB_MAGIC):
        return None
    pattern = pathspec[len(GLOB_MAGIC) :]
    if _NOT_GLOB.search(pattern):
        return None
    try:
        pattern.encode("utf-8")
    except UnicodeEncodeError:
        return None
    parts = pattern.split("/")
    if parts[-1] == _STAR:
        return None
    for part in parts:
        if part in _NOT_ENTRIES or not part or (part != _STAR and part.count("*") > 1):
            return None
    return Glob(pattern)


def picked(glob: Glob, listed: Iterable[str]) -> list[str]:
    """The listed paths git lists for `glob`'s pathspec alone: those it matches, and those below
    a directory it names literally (`docs/*.md` lists `docs/*.md/x`). Each starts with the
    pattern's text before its first `*`, so only those are matched."""
    head, below = glob.pattern.partition("*")[0], glob.pattern + "/"
    return [
        rel
        for rel in listed
        if rel.startswith(head) and (glob.matches(rel) or rel.startswith(below))
    ]


class GitListings:
    """The `vcs` listings of one discovery, all started at once (docs/layer-internals.md)."""

    def __init__(self, root: Path, sources: list[SourceClass]) -> None:
        self.root = root
        self.sources = sources
        alone = any(name in os.environ for name in _PATHSPEC_VARIABLES)
        self.picks = [None if alone else union_pick(s.pathspec) for s in sources]
        #: Every path the one listing holds, once it answered.
        self.listed: dict[str, str] | None = None
        self.union: LsFiles | None = None
        if any(self.picks):
            self.union = LsFiles(root, *(source.pathspec for source in sources))
        self.alone = [
            LsFiles(root, source.pathspec) if pick is None else None
            for source, pick in zip(sources, self.picks, strict=True)
        ]

    def of(self, place: int) -> tuple[Iterable[str], Mapping[str, str]]:
        """The paths of class `place` in listing order, and a map holding their entries."""
        pick = self.picks[place]
        if pick is not None and self.union is not None:  # the one listing, collected once
            union, self.union = self.union, None
            try:
                self.listed = union.entries()
            except GitError:
                self.alone = [
                    LsFiles(self.root, source.pathspec) if alone is None else alone
                    for source, alone in zip(self.sources, self.alone, strict=True)
                ]
        if pick is not None and self.listed is not None:
            return picked(pick, self.listed), self.listed
        alone = self.alone[place]
        assert alone is not None
        entries = alone.entries()
        return entries, entries

    def close(self) -> None:
        """End every listing still running when the discovery is no longer wanted."""
        for listing in (self.union, *self.alone):
            if listing is not None:
                listing.running.stop()


# --- per class enumeration and the discovery findings --------------------------------------


def discover(
    manifest: Manifest, sources: list[SourceClass], tree: Tree, listings: GitListings | None
) -> tuple[list[Claimed], list[LayerDiagnostic]]:
    """Every file to read (class order, then path order) and the discovery findings: listed by
    git (`vcs`), else walked (`filesystem`)."""
    local_dir = ".ai/" + manifest.local_path
    claimed: dict[str, str] = {}
    files: list[Claimed] = []
    findings: list[LayerDiagnostic] = []
    for place, source in enumerate(sources):
        entries: Mapping[str, str] | None = None
        if listings is not None:
            listed, entries = listings.of(place)
        else:
            glob = Glob(source.pathspec.removeprefix(GLOB_MAGIC))
            listed = walk(tree, glob, lambda rel: is_under(local_dir, rel))
        # each path comes once (a listing's keys, a walk's finds); the local half, escapes go
        paths = sorted(rel for rel in listed if not (is_under(local_dir, rel) or escapes(rel)))
        log.debug(
            "class %s (kind %s): %d file(s)",
            source.id,
            source.kind,
            len(paths),
            extra={"class_id": source.id, "kind": source.kind, "files": len(paths)},
        )
        kept = []
        for rel in paths:
            if _UNDECODED.search(rel):
                if claimed.setdefault(rel, source.id) == source.id:
                    findings.append(_undecodable(rel, source))
                continue
            first = claimed.setdefault(rel, source.id)
            if first == source.id:
                kept.append(rel)
                continue
            twice = f"matched by class '{source.id}' after class '{first}'; kept under '{first}'"
            findings.append(LayerDiagnostic("warning", "claimed_twice", twice, rel))
        files.append(Claimed(source, kept, entries))
        if source.required and not paths:
            message = f"class '{source.id}' is required but its pathspec '{source.pathspec}'"
            message += " matches no file"
            findings.append(LayerDiagnostic("error", "required_source_empty", message))
    return files, findings


#: A byte of a path that is not UTF-8, as the listing and the walk decode it (a surrogate).
_UNDECODED = re.compile("[\udc80-\udcff]")


def _undecodable(rel: str, source: SourceClass) -> LayerDiagnostic:
    """A path that is not UTF-8 names no object (no URI, no JSON string holds its bytes): it
    is left unread, shown with each such byte as `\\xNN`."""
    shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    message = (
        f"matched by class '{source.id}', but the path is not UTF-8 (its bytes are shown as "
        "\\xNN); it is not read: rename the file"
    )
    return LayerDiagnostic("error", "undecodable_path", message, shown)
