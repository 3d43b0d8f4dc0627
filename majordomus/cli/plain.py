"""`objects list` answered without pydantic: the command line read here, the rows written
from the index's plain values.

The rows of `objects list` are the index's own strings, so building and serialising the
`ObjectList` model adds nothing to the answer but the cost of importing pydantic and of
validating every row. A command line this module can read exactly as click would (the
options `OPTIONS` names, each in its place, no help, no positional argument, no value that
looks like an option) is answered here; anything else returns None and takes the click
path, which words every usage error. The option table is the one the click command of the
capability declares: tests/cli/test_plain.py builds that command from the input model and
compares, and proves the answers (bytes, stderr and exit code) the same on both paths.

A row holding a value a model would convert (a lone surrogate) is answered by the
capability itself, over the index already built.
"""

from __future__ import annotations

import json
import sys
from json.encoder import encode_basestring as _quoted
from typing import TYPE_CHECKING, Any

from majordomus.cli.plain_args import (
    Settings,
    asked,
    read_command,
    respond,
    workspace,
    write_parts,
)
from majordomus.json_parts import BATCH, LONG, MARKER, indent_at, spliced_items

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace
    from majordomus.layer.model import LayerObject

#: The words of the command answered here.
WORDS = ("objects", "list")
#: The capability behind it.
CAPABILITY = "objects.list"

#: The options of `objects list` itself: its input fields, each an optional text.
OPTIONS = {"--kind": "kind", "--tag": "tag"}

#: The skeleton's stand-in for the rows when they are written in batches.
_QUOTED_MARKER = json.dumps(MARKER.format(0)).encode("ascii")


class Request(Settings):
    """A command line read: the shared settings and the filters."""

    __slots__ = ("kind", "tag")

    def __init__(self) -> None:
        super().__init__()
        self.kind: str | None = None
        self.tag: str | None = None


def read_request(args: list[str]) -> Request | None:
    """The request `args` make when they are `[shared] objects [shared] list [options]`
    exactly as click reads them; None for anything else."""
    request = Request()
    return request if read_command(args, WORDS, OPTIONS, {}, request) else None


def answer(args: list[str]) -> int | None:
    """The exit code of `args` answered here, or None when the click path must answer."""
    request = read_request(args)
    if request is None:
        return None
    return respond(request, _answer)


def _answer(request: Request) -> int:
    from majordomus.capabilities.objects_json import listed

    ctx = workspace(request)
    objects = asked(CAPABILITY, lambda: listed(ctx, request.kind, request.tag))
    if request.format == "json":
        parts = json_answer(objects)
        if parts is None:
            return _by_capability(ctx, request)
        return write_parts(parts)
    rows = [obj.summary_json() for obj in objects]
    if not plain_rows(rows):
        return _by_capability(ctx, request)
    _write_text(list_text({"objects": rows}))
    return 0


def _by_capability(ctx: Workspace, request: Request) -> int:
    """The answer of the capability itself (the click path's), over `ctx`'s index."""
    from majordomus.capabilities.builtin import builtin_module

    cap = next(c for c in builtin_module("objects").composed() if c.id == CAPABILITY)
    raw = {key: value for key, value in (("kind", request.kind), ("tag", request.tag)) if value}
    if request.format == "json":
        return write_parts(ctx.executor.run_json_parts(cap, raw, _clean_json))
    _write_text(list_text(ctx.executor.run(cap, raw, observe=True)))
    return 0


def _write_text(text: str) -> None:
    from majordomus.egress import clean

    sys.stdout.write(clean(text))
    sys.stdout.flush()


def list_text(out: Any) -> str:
    """One row per object; an empty answer says `count 0` rather than nothing."""
    objects = out["objects"]
    if not objects:
        return "count 0\n"
    width = max(len(o["uri"]) for o in objects)
    return "".join(f"{o['uri']:<{width}}  {o['title'] or ''}".rstrip() + "\n" for o in objects)


def _indented(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def _clean_json(data: bytes) -> bytes:
    from majordomus.egress import clean_json_bytes

    return clean_json_bytes(data, _indented)


def _pretty(value: Any) -> bytes:
    return _indented(value).encode("utf-8")


def plain_rows(rows: list[dict[str, Any]]) -> bool:
    """Whether every value of these summary rows is a string every serialiser writes alike
    (valid Unicode) or None: what the model would take and dump unchanged."""
    try:
        "\n".join([value for row in rows for value in row.values() if value is not None]).encode()
    except (TypeError, UnicodeEncodeError):
        return False
    return True


#: The keys of a summary row, in the order its model dumps them.
SUMMARY_KEYS = ("uri", "kind", "identity", "title", "description", "path")
_SUMMARY_ROW = "  {\n" + ",\n".join(f'    "{key}": %s' for key in SUMMARY_KEYS) + "\n  }"


def _pretty_batch(objects: list[LayerObject]) -> bytes:
    """`_pretty` of these objects' summary rows: `json` indents in pure Python, so the rows
    are written here from a template, each string quoted by the encoder `json` itself uses.
    A value that is not a string (TypeError) or not valid Unicode (UnicodeEncodeError) is
    not written: the model would not take it as it is."""
    rows = []
    for obj in objects:
        title, description = obj.title, obj.description
        rows.append(
            _SUMMARY_ROW
            % (
                _quoted(obj.uri),
                _quoted(obj.kind),
                _quoted(obj.identity),
                "null" if title is None else _quoted(title),
                "null" if description is None else _quoted(description),
                _quoted(obj.provenance.path),
            )
        )
    return ("[\n" + ",\n".join(rows) + "\n]").encode("utf-8")


def json_answer(objects: list[LayerObject]) -> list[bytes] | None:
    """The `--format json` answer of `objects list` in parts, as `majordomus.wire_parts`
    writes the `ObjectList` model: up to `LONG` rows the whole text, cleaned at once; more,
    the text with a marker in the list's place, then the rows in batches of `BATCH`, each
    cleaned on its own and indented into place. None when a value is not plain."""
    if len(objects) <= LONG:
        rows = [obj.summary_json() for obj in objects]
        if not plain_rows(rows):
            return None
        return [_clean_json(_pretty({"count": len(rows), "objects": rows}))]
    try:
        batches = [
            _pretty_batch(objects[start : start + BATCH]) for start in range(0, len(objects), BATCH)
        ]
    except (TypeError, UnicodeEncodeError):
        return None
    text = _clean_json(_pretty({"count": len(objects), "objects": [MARKER.format(0)]}))
    where = text.index(_QUOTED_MARKER)  # the skeleton holds no other text that could spell it
    return [
        text[:where],
        *spliced_items(batches, indent_at(text, where), _clean_json),
        text[where + len(_QUOTED_MARKER) :],
    ]
