"""Pages of a list answer: `limit` and an opaque `cursor` in; `more`, `total` and
`next_cursor` out whenever a page does not hold every row (docs/mcp.md#paging)."""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Annotated, Any, ClassVar, Self, TypeVar

from pydantic import ConfigDict, Field
from pydantic_core import to_json

from majordomus.errors import InvalidInput
from majordomus.wire import OMIT, StrictInput, Wire, dumps_canonical


def _page_fields_last(schema: dict[str, Any]) -> None:
    """A request's own fields first in its schema, then the page's."""
    properties = schema.get("properties", {})
    for name in ("limit", "cursor"):
        if name in properties:
            properties[name] = properties.pop(name)


class PageInput(StrictInput):
    """`limit` and `cursor` of a list-like capability."""

    model_config = ConfigDict(json_schema_extra=_page_fields_last)

    #: The limit when none is given (None: every row) and the largest one taken.
    DEFAULT_LIMIT: ClassVar[int | None] = None
    MAX_LIMIT: ClassVar[int | None] = None

    limit: Annotated[
        int | None,
        Field(
            description="At most this many rows; every row when absent (over MCP, a page "
            "of about 2,000 tokens)."
        ),
    ] = None
    cursor: Annotated[
        str | None, Field(description="The `next_cursor` of the page before, to go on.")
    ] = None

    def page_limit(self) -> int | None:
        """The limit in force: the default when absent, held to 1..MAX_LIMIT."""
        if self.limit is not None and self.limit < 0:
            raise InvalidInput("limit: must not be negative")
        limit = self.DEFAULT_LIMIT if self.limit is None else max(1, self.limit)
        if limit is not None and self.MAX_LIMIT is not None:
            limit = min(limit, self.MAX_LIMIT)
        return limit


class Paged(Wire):
    """An answer whose rows may be cut into pages; the three fields appear only on a page
    that does not hold every row. Rows are the list `ROWS` names, counted by `count`."""

    ROWS: ClassVar[str]

    more: Annotated[bool | None, OMIT, Field(description="Rows remain after this page.")] = None
    total: Annotated[
        int | None, OMIT, Field(description="The rows in all, when a page holds fewer.")
    ] = None
    next_cursor: Annotated[
        str | None, OMIT, Field(description="The `cursor` that asks for the next page.")
    ] = None

    def row_sizes(self) -> list[int]:
        """The bytes each row takes in the answer's JSON."""
        return [len(to_json(row, by_alias=True)) for row in getattr(self, self.ROWS)]

    def page(self, start: int, stop: int) -> Self:
        """The answer holding only rows `start` to `stop`."""
        rows = getattr(self, self.ROWS)[start:stop]
        return self.model_copy(update={self.ROWS: rows, "count": len(rows)})


P = TypeVar("P", bound=Paged)


def cut(answer: P, request: PageInput, capability: str, page_bytes: int | None) -> P:
    """The page of `answer` that `request` asks for, at most `page_bytes` of rows."""
    sizes = answer.row_sizes()
    total = len(sizes)
    # What a cursor continues: the capability and a digest of the request's other fields.
    rest = request.model_dump(mode="json", by_alias=True, exclude={"limit", "cursor"})
    scope = f"{capability}:{hashlib.sha256(dumps_canonical(rest).encode()).hexdigest()[:12]}"
    start = 0 if request.cursor is None else offset_in(request.cursor, scope)
    if start is None or start > total:
        raise InvalidInput(
            "cursor: not a next_cursor of this request; repeat the request with the cursor "
            "its answer gave"
        )
    limit = request.page_limit()
    stop = total if limit is None else min(total, start + limit)
    if page_bytes is not None:
        end, spent = start, 0
        while end < stop and (end == start or spent + sizes[end] <= page_bytes):
            spent += sizes[end]
            end += 1
        stop = end
    if start == 0 and stop == total:
        return answer
    page = answer.page(start, stop)
    page.total = total
    if stop < total:
        page.more = True
        page.next_cursor = cursor(scope, stop)
    return page


def cursor(scope: str, offset: int) -> str:
    """An opaque cursor: what it continues (`scope`) and where the next page starts, in
    base32 and lower case (mixed case would look like a secret to the redaction at egress)."""
    return base64.b32encode(f"{scope}:{offset}".encode()).decode().rstrip("=").lower()


def offset_in(given: object, scope: str) -> int | None:
    """Where the page a cursor given for `scope` starts, None for anything else."""
    if not isinstance(given, str) or len(given) > 200:
        return None
    try:
        text = base64.b32decode(given.upper() + "=" * (-len(given) % 8)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    named, _, start = text.rpartition(":")
    digits = start.isascii() and start.isdigit() and start == str(int(start))
    return int(start) if named == scope and digits else None
