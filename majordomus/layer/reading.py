"""Reading the discovered files into the index's objects (docs/layer.md up to the index).

Each file's read, or the earlier build's read of it kept (`Kept`, `read_files`), the objects
whose identity names them (`drop_unnamable`), and one claimant per URI in URI order
(`drop_duplicates`, or `sorted_unique` reusing the earlier order when an edit kept every
URI). A cold build of many files reads part of them in a second process
(`majordomus.layer.shared_reading`); a re-index over the earlier build's files looks only at
those that may have changed (`Same`). Split from `majordomus.layer.index`, which runs the
build around it.
"""

from __future__ import annotations

import os
import stat
from bisect import bisect_left
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from majordomus.layer.discovery import Discovered
from majordomus.layer.model import Diagnostic, LayerObject
from majordomus.layer.reader import FileRead, LayerReader, read_entry
from majordomus.layer.relations import NAMING_KINDS, ExcludedObject
from majordomus.layer.uris import unnamable
from majordomus.safefs import Unsafe, open_root

if TYPE_CHECKING:
    from majordomus.layer.index import Snapshot
    from majordomus.layer.shared_reading import Early


def _claimant(obj: LayerObject) -> str:
    member = obj.provenance.member
    return obj.provenance.path if member is None else f"{obj.provenance.path} ({member})"


def _uri(obj: LayerObject) -> str:
    return obj.uri


def drop_duplicates(objects: list[LayerObject]) -> tuple[list[LayerObject], list[Diagnostic]]:
    """Exclude every claimant of a URI claimed twice or more; sort by URI.

    One `duplicate_identity` error per claimant: URI order, then claimant (file) order. The
    sort is stable, so the claimants of one URI stay in file order, side by side.
    """
    ordered = sorted(objects, key=_uri)
    uris = [obj.uri for obj in ordered]
    if len(set(uris)) == len(uris):
        return ordered, []
    kept: list[LayerObject] = []
    findings: list[Diagnostic] = []
    start = 0
    while start < len(ordered):
        uri = uris[start]
        end = start + 1
        while end < len(ordered) and uris[end] == uri:
            end += 1
        claimants = ordered[start:end]
        start = end
        if len(claimants) == 1:
            kept.append(claimants[0])
            continue
        named = " and ".join(_claimant(obj) for obj in claimants)
        for obj in claimants:
            findings.append(
                Diagnostic(
                    severity="error",
                    code="duplicate_identity",
                    path=obj.provenance.path,
                    message=f"{uri} is claimed by {named}; all of them are excluded",
                )
            )
    return kept, findings


def drop_unnamable(objects: list[LayerObject]) -> tuple[list[LayerObject], list[Diagnostic]]:
    """Exclude every object whose identity cannot name it, one `unnamable_object` error each.

    A URI percent-encodes any identity, but the capability id holds it verbatim, so an empty
    identity or one with a control character names nothing; the rest of the layer is served.
    """
    kept: list[LayerObject] = []
    findings: list[Diagnostic] = []
    for obj in objects:
        reason = unnamable(obj.identity)
        if reason is None:
            kept.append(obj)
            continue
        findings.append(
            Diagnostic(
                severity="error",
                code="unnamable_object",
                path=obj.provenance.path,
                message=f"a {obj.kind} object is excluded: {reason}",
            )
        )
    return kept, findings


class Kept(NamedTuple):
    """One file as a build read it: the class that claimed it, its git index entry, what it
    yielded, and which of its objects have a name (`drop_unnamable` over them).

    `reusable`: a later build may keep this read while the file's stat, class and entry
    stay (a read with a stamp, nothing excluded, and not only findings); `plain`: it has no
    finding, unnamed object or exclusion, so it adds nothing but its objects, and is
    reusable (a re-index looks only at the files that are not plain, `Same`)."""

    source: str
    entry: str | None
    read: FileRead
    named: tuple[list[LayerObject], list[Diagnostic]]
    reusable: bool
    plain: bool


#: Files a cold build reads before a second process pays for its start (~60 ms, ~2,000
#: files' reading; docs/architecture.md, "Reading a large layer in two processes").
SHARE_FROM = 2000
#: The findings of a file whose objects all have a name (shared: only ever read).
_NONE: list[Diagnostic] = []
#: A `Kept` made without its Python-level `__new__` (a cold build makes one per file).
_new = tuple.__new__


def keep(source: str, entry: str | None, read: FileRead) -> Kept:
    """A file's read as the build keeps it (a cold build keeps every file: kept cheap)."""
    objects, findings, excluded = read.objects, read.findings, read.excluded
    named = (objects, _NONE)
    for obj in objects:
        if unnamable(obj.identity) is not None:
            named = drop_unnamable(objects)
            break
    if findings or excluded is not None or named[1] or read.stamp is None:
        reusable = read.stamp is not None and excluded is None and bool(objects)
        return Kept(source, entry, read, named, reusable, False)
    return _new(Kept, (source, entry, read, named, True, True))


class Reading(NamedTuple):
    """What the files of one build yielded, in discovery order."""

    files: dict[str, Kept]
    unnamed: list[Diagnostic]
    excluded: list[ExcludedObject]
    #: No file read again changed what relations read, and none was new.
    same: bool
    #: Some file had no earlier read.
    new: bool
    #: Each file read again that an earlier build had read: (then, now).
    again: list[tuple[Kept, Kept]]
    #: The paths read by this build, new or again; None when nothing was kept (all read).
    read_now: list[str] | None
    #: The places of the files that are not plain (`Kept`), in discovery order.
    noted: list[int]

    def objects(self) -> list[LayerObject]:
        """Every named object, in discovery order."""
        return [obj for file in self.files.values() for obj in file.named[0]]


class Same(NamedTuple):
    """The files of a build are the earlier build's (`kept`, in its order) but for the entries
    at `changed` (`Listed.since`): `places` holds each one's place, `noted` the places of the
    earlier build's files that are not plain (`Reading.noted`)."""

    changed: list[int]
    places: Mapping[str, int]
    noted: list[int]


def read_files(
    found: list[Discovered],
    kept: Mapping[str, Kept],
    moved: Collection[str],
    reader: LayerReader,
    diagnostics: list[Diagnostic],
    early: Early | None = None,
    same_files: Same | None = None,
) -> Reading:
    """Read each file, or keep its earlier read (see `build`); its findings go to
    `diagnostics`. With `same_files` only the files that may not be kept are looked at
    (`_read_again`)."""
    if same_files is not None and kept:
        return _read_again(found, kept, moved, reader, diagnostics, same_files)
    noted: list[int] = []
    unnamed: list[Diagnostic] = []
    excluded: list[ExcludedObject] = []
    files: dict[str, Kept] = {}
    again: list[tuple[Kept, Kept]] = []
    same, new = True, False
    read_now: list[str] | None = [] if kept else None
    ahead = _read_ahead(found, kept, reader, early)
    for at, (rel, source, entry) in enumerate(found):
        before = kept.get(rel)
        if before is not None and _stands(before, source.id, entry, rel, moved):
            file = before
        else:
            read = read_entry(rel, source, reader) if ahead is None else ahead[at]
            file = keep(source.id, entry, read)
            if read_now is not None:
                read_now.append(rel)
            if before is None:
                same, new = False, True
            else:
                same = same and relational(before.read) == relational(file.read)
                again.append((before, file))
        files[rel] = file
        if not file.plain:
            noted.append(at)
            _add_findings(rel, file, unnamed, diagnostics, excluded)
    return Reading(files, unnamed, excluded, same, new, again, read_now, noted)


def _stands(before: Kept, source: str, entry: str | None, rel: str, moved: Collection[str]) -> bool:
    """Whether the earlier read of `rel` is kept: a reusable read of the same class and git
    index entry, of a file the watch did not see move."""
    return (
        before.entry == entry and before.reusable and before.source == source and rel not in moved
    )


def _read_again(
    found: list[Discovered],
    kept: Mapping[str, Kept],
    moved: Collection[str],
    reader: LayerReader,
    diagnostics: list[Diagnostic],
    same_files: Same,
) -> Reading:
    """`read_files` over the earlier build's files with a few entries changed: its reads
    copied, and only the files whose entry changed, the `moved` ones and those not plain
    looked at, in discovery order. Every other file is one `read_files` keeps: its class
    and entry are the ones it was read with, and a plain file is reusable."""
    files = dict(kept)
    places = same_files.places
    redo = {*same_files.changed, *(places[rel] for rel in moved if rel in places)}
    redo.update(place for place in same_files.noted if not files[found[place].path].reusable)
    again: list[tuple[Kept, Kept]] = []
    read_now: list[str] = []
    same = True
    for place in sorted(redo):
        rel, source, entry = found[place]
        before = files[rel]
        if _stands(before, source.id, entry, rel, moved):
            continue
        file = keep(source.id, entry, read_entry(rel, source, reader))
        files[rel] = file
        read_now.append(rel)
        same = same and relational(before.read) == relational(file.read)
        again.append((before, file))
    noted: list[int] = []
    unnamed: list[Diagnostic] = []
    excluded: list[ExcludedObject] = []
    for place in sorted(redo.union(same_files.noted)):
        rel = found[place].path
        file = files[rel]
        if not file.plain:
            noted.append(place)
            _add_findings(rel, file, unnamed, diagnostics, excluded)
    return Reading(files, unnamed, excluded, same, False, again, read_now, noted)


def _add_findings(
    rel: str,
    file: Kept,
    unnamed: list[Diagnostic],
    diagnostics: list[Diagnostic],
    excluded: list[ExcludedObject],
) -> None:
    """What a file that is not plain adds beside its objects (`Reading`)."""
    unnamed.extend(file.named[1])
    read = file.read
    diagnostics.extend(read.findings)
    if read.excluded is not None:
        excluded.append(ExcludedObject(*read.excluded, rel, read.findings[0].code))


def _read_ahead(
    found: list[Discovered], kept: Mapping[str, Kept], reader: LayerReader, early: Early | None
) -> list[FileRead] | None:
    """Every file's read, part of them by a second process (`majordomus.layer.shared_reading`),
    when a cold build (nothing kept) reads enough files for one to pay and a second CPU is
    idle to run it; else None, and `read_files` reads each file as it goes. `early`: a
    worker `forerunner` started, used when it is the build's."""
    if kept or len(found) < SHARE_FROM or (early is None and not _idle()):
        return None
    from majordomus.layer.shared_reading import read_shared

    return read_shared(found, reader, early)


def forerunner(root: Path, git_index: Path) -> Early | None:
    """A worker started while the build still lists its files, when the git index tracks
    enough files for one to pay (its header's entry count) and a CPU is idle: its start
    (~45 ms) then overlaps discovery. The build stops it, used or not."""
    try:  # the repository's own file: a FIFO or device there must not block the build
        fd = os.open(git_index, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        header = os.read(fd, 12) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(header) < 12 or header[:4] != b"DIRC":
        return None
    if int.from_bytes(header[8:12], "big") < SHARE_FROM or not _idle():
        return None
    from majordomus.layer.shared_reading import Early, spawn

    try:
        root_fd = open_root(root)
    except Unsafe:
        return None
    worker = spawn(root_fd)
    if worker is None:
        os.close(root_fd)
        return None
    return Early(worker, root_fd)


def _idle() -> bool:
    """A second CPU idle: the load average of the last minute below the CPUs this process
    may use. On a busy host the worker would take its CPU from the build itself (measured:
    100 ms slower at load 2.5 on two CPUs)."""
    cpus = _cpus()
    return cpus >= 2 and _load() < cpus


def _cpus() -> int:
    """The CPUs this process may run on (all of them where the platform cannot tell)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _load() -> float:
    """The load average of the last minute; none where the platform cannot tell."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def sorted_unique(
    done: Reading, reuse: Snapshot | None
) -> tuple[list[LayerObject], list[Diagnostic]]:
    """`drop_duplicates` of what was read; without sorting again when the build before had
    no duplicate and each file read again yields objects of the same URIs, in the same
    order, as before (its objects then take the places of the old ones)."""
    if reuse is None or not reuse.unique or done.new or len(done.files) != len(reuse.files):
        return drop_duplicates(done.objects())
    objects = list(reuse.objects)
    for before, now in done.again:
        old, new = before.named[0], now.named[0]
        if len(old) != len(new):
            return drop_duplicates(done.objects())
        for was, obj in zip(old, new, strict=True):
            place = bisect_left(objects, was.uri, key=_uri)
            if obj.uri != was.uri or place == len(objects) or objects[place] is not was:
                return drop_duplicates(done.objects())
            objects[place] = obj
    return objects, []


def relational(read: FileRead) -> list[Any]:
    """What relations read of a file's objects: names, paths, metadata, and the text of the
    kinds whose text names other objects; plus how an excluded file is named."""
    return [
        (
            obj.uri,
            obj.kind,
            obj.identity,
            obj.provenance.path,
            obj.metadata,
            (obj.body, obj.content) if obj.kind in NAMING_KINDS else None,
        )
        for obj in read.objects
    ] + [read.excluded, read.findings[0].code if read.findings else None]
