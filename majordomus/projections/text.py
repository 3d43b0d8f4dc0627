"""`one_line`: the one-line form every summary and report line is cut to. Pure.

Only `\\n` ends a line (not `str.splitlines()`); the limit counts code points."""

from __future__ import annotations

#: At most this many characters per summary or report fragment, the ellipsis included.
LINE_LIMIT = 140

ELLIPSIS = "…"


def one_line(text: str) -> str:
    """The first line, trimmed, cut to 139 characters plus `…` when it is longer than 140."""
    first = text.split("\n", 1)[0].strip()
    return first if len(first) <= LINE_LIMIT else first[: LINE_LIMIT - 1] + ELLIPSIS
