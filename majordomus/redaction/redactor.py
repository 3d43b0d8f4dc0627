"""Secret redaction: matching the secret shapes, the control scrub and the walk over a JSON
value; a shape is tried only where the text holds one of its gate literals
(docs/RELIABILITY.md, "Redaction and egress"). Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cached_property
from typing import Any

from majordomus.order import canonical_strings
from majordomus.redaction import unlabelled
from majordomus.redaction.shapes import (
    ALSO,
    ANCHORS,
    ANY_CASE,
    GATES,
    SHAPE_NAMES,
    SHAPES,
    UNLABELLED,
    WORD_END,
)


class _Shape:
    """One shape with its gate, its anchor and its marker; compiled on first need."""

    def __init__(self, name: str, source: str) -> None:
        self.source = source
        gate = GATES[name]
        at = gate.index(ANY_CASE) if ANY_CASE in gate else len(gate)
        self.exact, self.any_case = gate[:at], gate[at + 1 :]
        self.also = tuple(literal.encode("ascii") for literal in ALSO.get(name, ()))
        self.anchor = ANCHORS.get(name)
        self.marker = f"[redacted:{name}]"
        self.keep = "(?P<keep>" in source

    def replace(self, match: re.Match[str]) -> str:
        return (match.group("keep") or "") + self.marker if self.keep else self.marker

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.source, re.ASCII)

    @cached_property
    def anchored(self) -> re.Pattern[str]:
        assert self.anchor is not None
        return re.compile(self.anchor)

    def sub(self, text: str, lowered: str | None) -> tuple[str, bool]:
        """The text with every match replaced, and whether one was; an anchored shape is
        tried only where its key words start in `lowered` (the text lower-cased)."""
        pattern = self.pattern
        if self.anchor is None:
            matches: Iterator[re.Match[str] | None] = pattern.finditer(text)
        else:
            assert lowered is not None
            starts = (hit.start() for hit in self.anchored.finditer(lowered))
            matches = (pattern.match(text, start) for start in starts)
        pieces: list[str] = []
        done = 0
        for match in matches:
            if match is None or match.start() < done:
                continue
            pieces += (text[done : match.start()], self.replace(match))
            done = match.end()
        return ("".join((*pieces, text[done:])), True) if pieces else (text, False)


def _lowered(text: str) -> str:
    """`text` with its ASCII letters lower-cased and every offset kept: the shapes' key words
    are ASCII, and their patterns match ASCII letters alone (`re.ASCII`)."""
    if text.isascii():
        return text.lower()
    return text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


#: What may not follow a literal ending in `WORD_END`, in lower-cased bytes.
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")


def _holds(data: bytes, literal: str) -> bool:
    """Whether `data` holds `literal`, followed by no letter or digit if it ends in
    `WORD_END`."""
    bare = literal.removesuffix(WORD_END).encode("ascii")
    if not literal.endswith(WORD_END):
        return bare in data
    at = data.find(bare)
    while at >= 0:
        end = at + len(bare)
        if end == len(data) or data[end] not in _WORD_BYTES:
            return True
        at = data.find(bare, at + 1)
    return False


_COMPILED: tuple[_Shape, ...] = tuple(_Shape(name, source) for name, source in SHAPES)
_EXACT = sorted({literal for shape in _COMPILED for literal in shape.exact})
_ANY_CASE = sorted({literal for shape in _COMPILED for literal in shape.any_case})

_MARKER = re.compile(r"\[redacted:([a-z-]+)\]")
_UNLABELLED_MARKER = f"[redacted:{UNLABELLED}]".encode("ascii")


#: An ESC `[` sequence up to its letter, or one control character (category Cc) but `\n`.
_CONTROL = re.compile(r"\x1b\[[^A-Za-z]*[A-Za-z]?|[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def strip_controls(text: str) -> str:
    """Drop control characters other than `\\n`; an ESC `[` sequence goes up to its letter."""
    return _CONTROL.sub("", text)


class Candidates:
    """The gate literals one text's UTF-8 bytes hold: a shape none of whose literals they
    hold cannot match and is not tried."""

    __slots__ = ("any_case", "data", "exact")

    def __init__(self, data: bytes) -> None:
        self.data = data
        lowered = data.lower()
        self.exact = frozenset(literal for literal in _EXACT if _holds(data, literal))
        self.any_case = frozenset(literal for literal in _ANY_CASE if _holds(lowered, literal))

    def admits(self, shape: _Shape) -> bool:
        """Whether the text holds one of `shape`'s gate literals and all its `also`."""
        if self.exact.isdisjoint(shape.exact) and self.any_case.isdisjoint(shape.any_case):
            return False
        return all(literal in self.data for literal in shape.also)


def redact_secrets(text: str) -> str:
    """Replace every secret shape, in table order, then every unlabelled token, by its
    marker (controls left alone)."""
    data = text.encode("utf-8", "surrogatepass")
    candidates = Candidates(data)
    lowered: str | None = None
    for shape in _COMPILED:
        if not candidates.admits(shape):
            continue
        if lowered is None and shape.anchor is not None:
            lowered = _lowered(text)
        text, replaced = shape.sub(text, lowered)
        if replaced:
            # a marker may complete another shape's literal
            data = text.encode("utf-8", "surrogatepass")
            candidates, lowered = Candidates(data), None
    cleaned = unlabelled.redacted(data, _UNLABELLED_MARKER)
    return text if cleaned is None else cleaned.decode("utf-8", "surrogatepass")


def redact_text(text: str) -> str:
    """Scrub controls, then replace every secret shape, in table order, by its marker."""
    return redact_secrets(strip_controls(text))


def shapes_in(text: str) -> set[str]:
    """The shape names whose markers appear in `text` (a marker given as input counts too)."""
    return {name for name in _MARKER.findall(text) if name in SHAPE_NAMES}


def redact_value(value: Any, redact: Callable[[str], str] = redact_text) -> tuple[Any, list[str]]:
    """Every string value of a JSON value passed through `redact` (keys untouched), and the
    shapes found, in canonical order."""
    found: set[str] = set()

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            cleaned = redact(node)
            found.update(shapes_in(cleaned))
            return cleaned
        if isinstance(node, list):
            return [walk(item) for item in node]
        if isinstance(node, dict):
            return {key: walk(item) for key, item in node.items()}
        return node

    cleaned = walk(value)
    return cleaned, canonical_strings(found)
