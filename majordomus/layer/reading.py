"""Reading the discovered files into the index's objects, reusing an earlier build's reads
while they hold (docs/layer-internals.md)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import groupby
from operator import attrgetter
from typing import Any, NamedTuple

from majordomus.layer.discovery import Claimed
from majordomus.layer.model import ExcludedObject, LayerDiagnostic, LayerObject
from majordomus.layer.reader import FileRead, LayerReader, read_entry
from majordomus.layer.relations import NAMING_KINDS
from majordomus.layer.uris import unnamable


def _claimant(obj: LayerObject) -> str:
    member = obj.provenance.member
    return obj.provenance.path if member is None else f"{obj.provenance.path} ({member})"


def drop_duplicates(
    objects: list[LayerObject], excluded: list[ExcludedObject]
) -> tuple[list[LayerObject], list[LayerDiagnostic]]:
    """Exclude every claimant of a URI claimed twice or more, one `duplicate_identity` error
    each (URI, then file order) and added to `excluded` (file order); sort by URI."""
    ordered = sorted(objects, key=attrgetter("uri"))
    kept: list[LayerObject] = []
    findings: list[LayerDiagnostic] = []
    for uri, claimed in groupby(ordered, key=attrgetter("uri")):
        claimants = list(claimed)
        if len(claimants) == 1:
            kept.append(claimants[0])
            continue
        named = " and ".join(_claimant(obj) for obj in claimants)
        for obj in claimants:
            message = f"{uri} is claimed by {named}; all of them are excluded"
            findings.append(
                LayerDiagnostic("error", "duplicate_identity", message, obj.provenance.path)
            )
    if findings:
        held = {id(obj) for obj in kept}
        excluded.extend(
            ExcludedObject(obj.kind, obj.identity, obj.provenance.path, "duplicate_identity")
            for obj in objects
            if id(obj) not in held
        )
    return kept, findings


class Kept(NamedTuple):
    """One file as a build read it, and whether a later build may keep this read."""

    source: str
    entry: str | None
    read: FileRead
    named: tuple[list[LayerObject], list[LayerDiagnostic]]
    reusable: bool


def keep(source: str, entry: str | None, read: FileRead) -> Kept:
    """A file's read as the build keeps it: each object whose identity cannot name it (empty, or
    a control character, which the capability id would hold verbatim) excluded with an
    `unnamable_object` error."""
    kept: list[LayerObject] = []
    findings: list[LayerDiagnostic] = []
    for obj in read.objects:
        reason = unnamable(obj.identity)
        if reason is None:
            kept.append(obj)
            continue
        message = f"a {obj.kind} object is excluded: {reason}"
        findings.append(LayerDiagnostic("error", "unnamable_object", message, obj.provenance.path))
    reusable = (
        read.stamp is not None
        and read.excluded is None
        and (bool(read.objects) or not read.findings)
    )
    return Kept(source, entry, read, (kept, findings), reusable)


class Reading(NamedTuple):
    """What the files of one build yielded, in discovery order; `same`: the relations derived
    from the earlier reads still hold."""

    files: dict[str, Kept]
    objects: list[LayerObject]
    unnamed: list[LayerDiagnostic]
    excluded: list[ExcludedObject]
    same: bool


def read_files(
    found: list[Claimed],
    earlier: Mapping[str, Kept],
    moved: Collection[str],
    reader: LayerReader,
    diagnostics: list[LayerDiagnostic],
) -> Reading:
    """Read each file, or keep its `earlier` read while reusable, same class and entry, and not
    `moved`; every file's findings go to `diagnostics`, in discovery order."""
    files: dict[str, Kept] = {}
    objects: list[LayerObject] = []
    unnamed: list[LayerDiagnostic] = []
    excluded: list[ExcludedObject] = []
    same = sum(len(claimed.paths) for claimed in found) == len(earlier)
    for source, paths, entries in found:
        for rel in paths:
            entry = None if entries is None else entries[rel]
            file = earlier.get(rel)
            if (
                file is None
                or not file.reusable
                or file.entry != entry
                or file.source != source.id
                or rel in moved
            ):
                before, file = file, keep(source.id, entry, read_entry(rel, source, reader))
                same = (
                    same and before is not None and relational(before.read) == relational(file.read)
                )
            files[rel] = file
            named, read = file.named, file.read
            objects.extend(named[0])
            if read.findings or named[1]:
                unnamed.extend(named[1])
                diagnostics.extend(read.findings)
                if read.excluded is not None:
                    excluded.append(ExcludedObject(*read.excluded, rel, read.findings[0].code))
    return Reading(files, objects, unnamed, excluded, same)


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
