"""What `objects.list`, `objects.get` and `objects.search` find, and their answers as plain
JSON values, without pydantic.

The capabilities themselves (`majordomus.capabilities.core`) validate through their models
and build their answers from the same finding here. An MCP session's first call is answered
from these values alone when its arguments are provably valid (`majordomus.mcp.plain`), and
so is the command line's `objects list` (`majordomus.cli.plain`), so importing pydantic and
building the models is not on their way: each value below is the one
the capability's answer model dumps to (field order, omitted fields), or None wherever the
two could differ, and then the capability answers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace
    from majordomus.layer.model import LayerObject

#: The default and the bounds of the number of search hits.
DEFAULT_LIMIT = 20
MAX_LIMIT = 200

#: Nesting beyond which a value is left to the models (which bound it themselves).
_PLAIN_DEPTH = 64
#: Integers a JSON value carries as-is through every serialiser.
_INT_BOUND = 2**63


def check_kind(ctx: Workspace, kind: str | None) -> None:
    """A declared kind the index holds nothing of is an empty answer; an undeclared one is
    refused, listing the declared kinds."""
    if kind is None or kind in ctx.index.kinds:
        return
    from majordomus.errors import InvalidInput
    from majordomus.layer.kinds import load_kinds

    declared = sorted(load_kinds().kinds)
    if kind not in declared:
        raise InvalidInput(
            f"kind '{kind}' is not among the kinds this repository has: {', '.join(declared)}"
        )


def listed(ctx: Workspace, kind: str | None, tag: str | None) -> list[LayerObject]:
    """The objects `objects.list` answers, in index order. The rows show no working-tree
    state, so a build this starts runs no `git status`."""
    objects = ctx.index_without_status().objects
    check_kind(ctx, kind)
    if kind is None and tag is None:
        return objects
    out = []
    for obj in objects:
        if kind is not None and obj.kind != kind:
            continue
        if tag is not None:
            tags = obj.metadata.get("tags")
            if not isinstance(tags, list) or tag not in tags:
                continue
        out.append(obj)
    return out


def list_rows(ctx: Workspace, kind: str | None, tag: str | None) -> list[dict[str, Any]]:
    """The rows of `objects.list`: each `ObjectSummary` as it dumps, when its values are
    plain."""
    return [obj.summary_json() for obj in listed(ctx, kind, tag)]


def first_matching_line(content: str, needle: str) -> str | None:
    """The first line holding `needle` (lowered), stripped and cut to 200 characters."""
    for line in content.split("\n"):
        if needle in line.lower():
            return line.strip()[:200]
    return None


def search_text(obj: LayerObject) -> str:
    """Every text `objects.search` looks in, lowered as it lowers them (line by line)."""
    lines = "\n".join(line.lower() for line in obj.content.split("\n"))
    names = "\n".join(t.lower() for t in (obj.identity, obj.title, obj.description) if t)
    return f"{lines}\n{names}"


def search_limit(limit: int | None) -> int:
    """The number of hits a request asks for, within the bounds."""
    return DEFAULT_LIMIT if limit is None else min(MAX_LIMIT, max(1, limit))


def search_hits(
    ctx: Workspace, needle: str, kind: str | None, limit: int, *, narrow: bool = True
) -> Iterator[tuple[LayerObject, str | None]]:
    """Each hit of a search for `needle` (lowered) in index order with its snippet, at most
    `limit`: an object whose content holds it (the snippet is that line) or whose identity,
    title or description does. `narrow` lets the index's SQLite copy (built on its first
    use) pass over the objects that cannot match: the same hits, fewer objects looked at."""
    # the SQLite copy only narrows; the rule below decides every hit
    sqlite = ctx.sqlite if narrow else None
    candidates = sqlite.matching("search", [needle], search_text) if sqlite else None
    found = 0
    for obj in ctx.index.objects:
        if found >= limit:
            return
        if kind is not None and obj.kind != kind:
            continue
        if candidates is not None and obj.uri not in candidates:
            continue
        snippet = first_matching_line(obj.content, needle)
        named = any(
            needle in text.lower() for text in (obj.identity, obj.title, obj.description) if text
        )
        if snippet is not None or named:
            found += 1
            yield obj, snippet


def plain_text(value: str) -> bool:
    """A string every serialiser writes alike: valid Unicode (no lone surrogate)."""
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _always(_value: Any) -> bool:
    return True


#: Each scalar type a model dumps as it is, with what its value must be for that.
_SCALARS: dict[type, Callable[[Any], bool]] = {
    str: plain_text,
    bool: _always,
    type(None): _always,
    int: lambda value: -_INT_BOUND < value < _INT_BOUND,
    float: math.isfinite,
}


class NotPlain(Exception):
    """A value a model would convert on its way to JSON."""


def json_copy(value: Any, depth: int = 0) -> Any:
    """A copy of `value` when it is JSON as it is: exactly str, bool, None, a bounded int, a
    finite float, a list or a string-keyed dict of such, not deeply nested; a model dumps
    such a value unchanged. Anything else (a date, a tuple, a str subclass) it converts, so
    that raises `NotPlain`. A copy: an answer never shares a list or dict with the index."""
    kind = type(value)
    scalar = _SCALARS.get(kind)
    if scalar is not None:
        if not scalar(value):
            raise NotPlain
        return value
    if depth >= _PLAIN_DEPTH:
        raise NotPlain
    if kind is list:
        return [json_copy(item, depth + 1) for item in value]
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str or not plain_text(key):
                raise NotPlain
            out[key] = json_copy(item, depth + 1)
        return out
    raise NotPlain


def plain(value: Any) -> bool:
    """Whether `value` is JSON as it is (`json_copy`)."""
    try:
        json_copy(value)
    except NotPlain:
        return False
    return True


def summary_json(obj: LayerObject, snippet: str | None) -> dict[str, Any] | None:
    """An `ObjectSummary` as it dumps (`snippet` left out when None), or None when a value
    is not plain."""
    out = obj.summary_json()
    if snippet is not None:
        out["snippet"] = snippet
    try:
        return json_copy(out)  # type: ignore[no-any-return]
    except NotPlain:
        return None


def object_view_json(obj: LayerObject) -> dict[str, Any] | None:
    """The `ResourceView` of a declarative object as it dumps (empty metadata left out), or
    None when a value is not plain."""
    data = obj.to_json()
    out: dict[str, Any] = {
        "source": "declarative",
        "uri": data["uri"],
        "id": f"{obj.kind}.{obj.identity}",
        "kind": data["kind"],
        "identity": data["identity"],
        "title": data["title"],
        "description": data["description"],
    }
    if data["metadata"]:
        out["metadata"] = data["metadata"]
    out["provenance"] = data["provenance"]
    out["media_type"] = data["media_type"]
    out["content"] = data["content"]
    try:
        return json_copy(out)  # type: ignore[no-any-return]
    except NotPlain:
        return None


def get_json(ctx: Workspace, uri: str) -> dict[str, Any] | None:
    """`objects.get`'s answer for a URI or short id naming a declarative object; None for
    anything else (a query resource, an unknown or ambiguous name, a value not plain)."""
    from majordomus.errors import CapabilityError
    from majordomus.layer.shortid import expand

    try:
        expanded = expand(ctx.index.objects, uri)
    except CapabilityError:
        return None
    obj = ctx.index.find(expanded)
    return None if obj is None else object_view_json(obj)


def search_json(
    ctx: Workspace, query: str, kind: str | None, limit: int | None, *, narrow: bool
) -> dict[str, Any] | None:
    """`objects.search`'s answer (`narrow` as for `search_hits`); None for a request it
    refuses (a blank query, a kind the index has none of, a negative limit) or a hit whose
    values are not plain."""
    if not query.strip() or (kind is not None and kind not in ctx.index.kinds):
        return None
    if limit is not None and limit < 0:
        return None
    bounded = search_limit(limit)
    hits = []
    for obj, snippet in search_hits(ctx, query.lower(), kind, bounded, narrow=narrow):
        hit = summary_json(obj, snippet)
        if hit is None:
            return None
        hits.append(hit)
    return {"query": query, "count": len(hits), "limit": bounded, "hits": hits}
