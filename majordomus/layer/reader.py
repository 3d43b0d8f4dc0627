"""Reading one discovered file into object(s) or one error diagnostic, in the check order
of docs/layer.md; read-only, no symlink followed, at most 4 MiB per file."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from majordomus.layer.frontmatter import FrontMatterError, split
from majordomus.layer.kinds import MEMBER_MEDIA_TYPE, KindSchema, KindSpec
from majordomus.layer.model import LayerDiagnostic, LayerObject, Manifest, Provenance, SourceClass
from majordomus.layer.yaml import YamlError, key_paths, parse, render_scalar
from majordomus.safefs import Tree, Unsafe

SIZE_LIMIT = 4 * 1024 * 1024
HEADING = "@heading"
_BAD_IDENTITY = re.compile(r"[/@\s]")
#: What a shell acts on in a word: an id is completed onto command lines, so it holds none.
_SHELL = re.compile(r"[;&|$`()<>{}'\"\\!*?\[\]#~]")


@dataclass(frozen=True, slots=True)
class LayerReader:
    """What reading the files of one layer needs for one build."""

    tree: Tree
    manifest: Manifest
    kinds: KindSchema


class NotRead(Exception):
    """The file fails a check of docs/layer.md; carries the diagnostic code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- the identity, title and version rules, usable on any metadata mapping -----------------


def identity_of(spec: KindSpec, metadata: dict[str, Any], rel: str) -> str:
    """The identity: `rel` for an empty field list, else the fields joined with `@`; raises
    `ValueError` whose text is the `missing_field` message."""
    if not spec.identity:
        return rel
    parts = []
    for field in spec.identity:
        if field not in metadata:
            raise ValueError(f"identity field '{field}' is missing")
        value = metadata[field]
        text = value if type(value) is str else render_scalar(value)
        if text is None:
            raise ValueError(f"identity field '{field}' is not a scalar")
        if not text:
            raise ValueError(f"identity field '{field}' is empty")
        if _BAD_IDENTITY.search(text):
            raise ValueError(
                f"identity field '{field}' holds '{text}', which has a '/', '@' or whitespace"
            )
        if _SHELL.search(text):
            raise ValueError(
                f"identity field '{field}' holds '{text}', which has a character a shell acts "
                "on (one of ;&|$`()<>{}'\"\\!*?[]#~)"
            )
        parts.append(text)
    return "@".join(parts)


def heading_of(body: str) -> str | None:
    """Text after `# ` on the first body line that begins with exactly `# `, trimmed."""
    found = ("\n" + body).find("\n# ")
    if found < 0:
        return None
    return body[found + 2 :].partition("\n")[0].strip() or None


def title_of(spec: KindSpec, metadata: dict[str, Any], body: str) -> str | None:
    """The title rule: a metadata field rendered as a scalar, or the first `# ` heading."""
    if spec.title is None:
        return None
    if spec.title == HEADING:
        return heading_of(body)
    return render_scalar(metadata.get(spec.title))


def description_of(spec: KindSpec, metadata: dict[str, Any]) -> str | None:
    """The description rule: the named field rendered as a scalar, else none."""
    return None if spec.description is None else render_scalar(metadata.get(spec.description))


def check_version(spec: KindSpec, metadata: dict[str, Any]) -> None:
    """The schema-version check; raises `NotRead` on failure."""
    field = spec.version_field
    if field is None:
        return
    value = metadata.get(field)
    integers_only = all(type(v) is int for v in spec.supported)
    if field not in metadata or (integers_only and (type(value) is not int or value < 0)):
        wanted = f"integer '{field}'" if integers_only else f"'{field}'"
        raise NotRead("missing_field", f"no {wanted}")
    if not any(type(v) is type(value) and v == value for v in spec.supported):
        accepted = ", ".join(str(v) for v in spec.supported)
        shown = render_scalar(value)
        shown = json.dumps(value, ensure_ascii=False) if shown is None else shown
        raise NotRead(
            "unsupported_version",
            f"'{field}' is {shown}; this executable reads {accepted}",
        )


# --- the file ------------------------------------------------------------------------------


#: `safefs` refusals as the diagnostic codes of a layer file.
_CODES = {"missing": "unreadable", "not_a_directory": "unreadable"}

#: What a read file was on disk: (mtime_ns, ctime_ns, size, inode) of its `fstat`, the same
#: four numbers `majordomus.layer.freshness` compares.
Stamp = tuple[int, int, int, int]


class FileRead(NamedTuple):
    """What one file yields: objects, diagnostics, the (kind, identity) an error excluded, and
    the stamp of what was read (None when nothing was)."""

    objects: list[LayerObject]
    findings: list[LayerDiagnostic]
    excluded: tuple[str, str] | None
    stamp: Stamp | None


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotRead(
            "invalid_utf8", f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from exc


def _metadata(
    spec: KindSpec, text: str, reader: LayerReader
) -> tuple[KindSpec, dict[str, Any], str]:
    """(possibly switched kind, metadata, body) of the text."""
    if spec.format == "text":
        return spec, {}, text
    if spec.format == "yaml":
        try:
            return spec, parse(text), text
        except YamlError as exc:
            raise NotRead(exc.code or "malformed_yaml", exc.message) from exc
    try:
        front, body = split(text)
    except FrontMatterError as exc:
        raise NotRead("malformed_front_matter", exc.message) from exc
    if front is None:
        if spec.without_front_matter is not None:
            spec = reader.kinds.kinds[spec.without_front_matter]
        if spec.front_matter == "required":
            raise NotRead("missing_front_matter", "no front matter, and the kind requires it")
        return spec, {}, body
    try:
        metadata = parse(front)
    except YamlError as exc:
        raise NotRead(exc.code or "malformed_front_matter", exc.message) from exc
    declared = metadata.get("kind")
    if type(declared) is str and declared != spec.name and declared in reader.kinds.declared:
        spec = reader.kinds.kinds[declared]
    return spec, metadata, body


def _members(
    spec: KindSpec, key: str, metadata: dict[str, Any], rel: str, where: Provenance
) -> tuple[list[LayerObject], list[LayerDiagnostic]]:
    """One object per item of the list under `key` (its provenance `where`'s, sized to it); bad
    items are diagnostics."""
    items = metadata.get(key)
    if items is None:
        return [], []
    if type(items) is not list:
        return [], [LayerDiagnostic("error", "malformed_yaml", f"'{key}' is not a list", rel)]
    objects: list[LayerObject] = []
    findings: list[LayerDiagnostic] = []
    for index, item in enumerate(items):
        member = f"{key}.{index}"
        if type(item) is not dict:
            findings.append(
                LayerDiagnostic("error", "malformed_yaml", f"member {member} is not a mapping", rel)
            )
            continue
        try:
            identity = identity_of(spec, item, rel)
        except ValueError as exc:
            findings.append(
                LayerDiagnostic("error", "missing_field", f"member {member}: {exc}", rel)
            )
            continue
        content = json.dumps(item, ensure_ascii=False, indent=2)
        objects.append(
            LayerObject(
                kind=spec.name,
                identity=identity,
                title=title_of(spec, item, content),
                description=description_of(spec, item),
                metadata=item,
                content=content,
                body=content,
                media_type=MEMBER_MEDIA_TYPE,
                provenance=replace(where, bytes=len(content.encode("utf-8")), member=member),
            )
        )
    return objects, findings


def _spec(source: SourceClass, reader: LayerReader) -> KindSpec:
    spec = reader.kinds.kinds.get(source.kind)
    if spec is None:
        raise NotRead(
            "unknown_kind",
            f"class '{source.id}' declares kind '{source.kind}', which this executable "
            "does not read (its kinds: docs/generated/layer.md)",
        )
    return spec


def _read(
    rel: str, source: SourceClass, reader: LayerReader, spec: KindSpec, data: bytes
) -> tuple[list[LayerObject], list[LayerDiagnostic]]:
    """A read file's object(s), checked in the order of docs/layer.md's codes; else `NotRead`."""
    text = _decode(data)
    spec, metadata, body = _metadata(spec, text, reader)
    if metadata:
        if spec.allow is not None:
            unknown = spec.allow.unknown(key_paths(metadata))
            if unknown:
                raise NotRead("unknown_key", spec.allow.message(unknown))
        declared = metadata.get("kind")
        if type(declared) is str and declared != spec.name:
            raise NotRead(
                "kind_mismatch",
                f"declares kind '{declared}' but was discovered by class '{source.id}' "
                f"as '{spec.name}'",
            )
    check_version(spec, metadata)
    directory = rel.rpartition("/")[0] or "."
    where = Provenance(rel, directory, source.id, len(data), reader.manifest.section_of(rel))
    if spec.members is not None:
        return _members(spec, spec.members, metadata, rel, where)
    try:
        identity = identity_of(spec, metadata, rel)
    except ValueError as exc:
        raise NotRead("missing_field", str(exc)) from exc
    obj = LayerObject(
        spec.name,
        identity,
        title_of(spec, metadata, body),
        description_of(spec, metadata),
        metadata,
        text,
        body,
        spec.media_type,
        where,
    )
    return [obj], []


def read_entry(rel: str, source: SourceClass, reader: LayerReader) -> FileRead:
    """What one discovered file yields (see `FileRead`); the file is read once."""
    stamp = None
    try:
        spec = _spec(source, reader)
        try:
            data, info = reader.tree.read_stat(rel, SIZE_LIMIT)
        except Unsafe as exc:
            raise NotRead(_CODES.get(exc.code, exc.code), exc.about(rel)) from None
        stamp = (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)
        objects, findings = _read(rel, source, reader, spec, data)
    except NotRead as exc:
        named = None if stamp is None else _identity(rel, spec, reader, data)
        return FileRead([], [LayerDiagnostic("error", exc.code, exc.message, rel)], named, stamp)
    return FileRead(objects, findings, None, stamp)  # a members file names no one object


def _identity(rel: str, spec: KindSpec, reader: LayerReader, data: bytes) -> tuple[str, str] | None:
    try:
        spec, metadata, _body = _metadata(spec, _decode(data), reader)
    except NotRead:
        return None
    if spec.members is not None:
        return None
    try:
        return spec.name, identity_of(spec, metadata, rel)
    except ValueError:
        return None
