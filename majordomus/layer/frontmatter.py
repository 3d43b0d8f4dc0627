"""Splitting a markdown document into front matter and body: the fences and the size limit."""

from __future__ import annotations

LIMIT_BYTES = 65536


class FrontMatterError(ValueError):
    """Front matter that cannot be cut out; `message` is the one-line text docs/layer.md lists."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _closing(text: str, start: int) -> tuple[int, int] | None:
    """(start, end) of the first line from `start` on that is `---` without its line ending."""
    search = start - 1  # the opening fence's newline: a closing line may follow it directly
    while True:
        found = text.find("\n---", search)
        if found < 0:
            return None
        begin = found + 1
        after = begin + 3
        if after == len(text):
            return begin, after
        if text[after] == "\n":
            return begin, after + 1
        if text[after] == "\r" and (after + 1 == len(text) or text[after + 1] == "\n"):
            return begin, min(after + 2, len(text))
        search = after


def split(text: str) -> tuple[str | None, str]:
    """(front matter text or None, body). Only a text starting `---\\n` / `---\\r\\n` has one."""
    if text.startswith("---\n") or text == "---":  # a lone fence finds no closing one
        start = 4
    elif text.startswith("---\r\n"):
        start = 5
    else:
        return None, text
    fence = _closing(text, start)
    if fence is None:
        raise FrontMatterError("front matter opened on line 1 and never closed")
    front = text[start : fence[0]]
    size = len(front.encode("utf-8", "surrogatepass"))
    if size > LIMIT_BYTES:
        raise FrontMatterError(f"front matter is {size} bytes, over the {LIMIT_BYTES} byte limit")
    return front, text[fence[1] :]
