"""Where a long list goes into an answer written in parts: the sizes and the splice.

`majordomus.wire_parts` (a model's answer) and `majordomus.cli.plain` (the plain rows of
`objects list`) both write a pretty skeleton with a quoted marker in a long list's place,
then the list in batches, each a whole JSON array cleaned by the egress filter on its own
and indented into place; this module holds that splice once. No pydantic, so the plain
path can use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

#: A list longer than this is written in batches; shorter ones stay in the skeleton.
LONG = 256
#: Items serialised and cleaned together: large enough that the filter's fixed cost per
#: call does not count, small enough that a batch's copies stay a few hundred kilobytes.
BATCH = 1024
#: The string that stands in the skeleton for the n-th long list.
MARKER = "@@part-{}@@"


def indent_at(text: bytes, where: int) -> bytes:
    """The indentation of the line holding offset `where` (a marker's place)."""
    return text[text.rindex(b"\n", 0, where) + 1 : where]


def spliced_items(
    batches: Iterable[bytes], indent: bytes, clean: Callable[[bytes], bytes]
) -> Iterator[bytes]:
    """Each batch (`json.dumps(items, indent=2)` of some items) cleaned, then its items at
    `indent`, separated as `json.dumps(indent=2)` separates them in the whole list."""
    deeper = b"\n" + indent[2:]
    for number, batch in enumerate(batches):
        # `[\n  <item>,\n  <item>\n]`: the items without the brackets and the first indent
        inner = clean(batch)[4:-2].replace(b"\n", deeper)
        yield inner if number == 0 else b",\n" + indent + inner
