"""What the reading worker and the build say to each other (docs/architecture.md,
"Reading a large layer in two processes").

Frames on a pipe: a 4-byte little-endian length, then `marshal` data. A file's read travels
as tuples of str, int, None, lists and dicts, the only values a read holds, and is made
again through the classes' own constructors: far cheaper than pickling slotted objects,
and cheaper for the build than reading the file itself.
"""

from __future__ import annotations

import marshal
import os
import select
from typing import Any

from majordomus.layer.model import Diagnostic, LayerObject, Provenance
from majordomus.layer.reader import FileRead

#: Bytes of the length before each frame.
_HEAD = 4
#: A frame larger than this is garbage, not a chunk of a layer's reads.
_LARGEST = 1 << 30


class Broken(Exception):
    """The other side went away, was too slow, or sent what is not a frame."""


def send(fd: int, value: Any) -> None:
    """Write `value` as one frame, blocking until the pipe took all of it."""
    data = marshal.dumps(value)
    view = memoryview(len(data).to_bytes(_HEAD, "little") + data)
    while view:
        view = view[os.write(fd, view) :]


def ready(fd: int) -> bool:
    """Whether a frame has begun to arrive (or the writer is gone), without waiting."""
    return bool(select.select([fd], [], [], 0)[0])


def receive(fd: int, timeout: float | None) -> Any:
    """The next frame's value; raises `Broken` at the end of the pipe, when nothing arrives
    within `timeout` seconds (None: wait as long as it takes), or on what `marshal` refuses."""
    size = int.from_bytes(_exactly(fd, _HEAD, timeout), "little")
    if size > _LARGEST:
        raise Broken(f"a frame of {size} bytes")
    try:
        return marshal.loads(_exactly(fd, size, timeout))
    except (EOFError, ValueError, TypeError) as exc:
        raise Broken(str(exc)) from None


def _exactly(fd: int, size: int, timeout: float | None) -> bytes:
    parts: list[bytes] = []
    while size:
        if timeout is not None and not select.select([fd], [], [], timeout)[0]:
            raise Broken("no answer in time")
        part = os.read(fd, size)
        if not part:
            raise Broken("the pipe ended")
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def pack(read: FileRead) -> tuple[Any, ...]:
    """A read as plain values (`unpack` makes it again); an object's body, the end of its
    content after the front matter, as where it starts in the content: a third fewer bytes
    to send and to unmarshal."""
    objects = [
        (
            obj.kind,
            obj.identity,
            obj.title,
            obj.description,
            obj.metadata,
            (text := obj.content),
            len(text) - len(body) if text.endswith(body := obj.body) else body,
            obj.media_type,
            (
                (where := obj.provenance).path,
                where.directory,
                where.source_class,
                where.bytes,
                where.section,
                where.member,
            ),
        )
        for obj in read.objects
    ]
    findings = [(d.severity, d.code, d.message, d.path) for d in read.findings]
    return objects, findings, read.excluded, read.stamp


#: A `FileRead` made without its Python-level `__new__`, as `majordomus.layer.reader` does.
_new = tuple.__new__


def unpack(packed: Any) -> FileRead:
    """The read `pack` was given, equal field by field."""
    objects, findings, excluded, stamp = packed
    return _new(
        FileRead,
        (
            [
                LayerObject(
                    kind,
                    identity,
                    title,
                    about,
                    metadata,
                    content,
                    content[body:] if type(body) is int else body,
                    media,
                    Provenance(*where),
                )
                for kind, identity, title, about, metadata, content, body, media, where in objects
            ],
            [Diagnostic(*fields) for fields in findings] if findings else [],
            excluded,
            stamp,
        ),
    )
