"""Allow-lists: which metadata key paths a kind admits (docs/layer-internals.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property

from majordomus.errors import ProtocolFailure
from majordomus.shipped import shipped, shipped_text

#: The shipped lists.
_LISTS = shipped("layer", "data", "allow")


class AllowListError(ProtocolFailure):
    """A shipped allow-list is missing or holds a pattern that does not compile (exit 13)."""


@dataclass
class AllowList:
    """One list: its name, its patterns as written, and their compiled alternation; two lists
    are equal when their names and patterns are."""

    name: str
    patterns: tuple[str, ...]
    #: The line of each pattern in the list's text, to name one that does not compile.
    lines: tuple[int, ...] = field(default=(), compare=False)

    @cached_property
    def matcher(self) -> re.Pattern[str]:
        """The alternation of the patterns, compiled on first use: a process pays only for
        the lists of the kinds it meets (compiling is most of loading a list). Only when it fails
        is each pattern compiled alone, to name the line that does not compile."""
        joined = "|".join(f"(?:{p})" for p in self.patterns) if self.patterns else r"(?!)"
        try:
            return re.compile(joined)
        except re.error:
            for number, line in zip(self.lines, self.patterns, strict=True):
                try:
                    re.compile(line)
                except re.error as exc:
                    raise AllowListError(
                        f"allow-list {self.name}.txt line {number}: pattern {line!r} does not "
                        f"compile: {exc}"
                    ) from exc
            raise

    def unknown(self, key_paths: list[str]) -> list[str]:
        """The key paths no pattern matches, in the order given (search semantics)."""
        return [path for path in key_paths if self.matcher.search(path) is None]

    def message(self, unknown: list[str]) -> str:
        """The refusal names the list by its reference page (the file ships in the package)."""
        page = f"docs/generated/layer.md#{self.name}"
        return f"key(s) not allowed here (see {page}): {', '.join(unknown)}"


def _read_list(name: str, text: str) -> AllowList:
    """The list `text` holds, not compiled yet (`AllowList.matcher`)."""
    numbers: list[int] = []
    patterns: list[str] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            numbers.append(number)
            patterns.append(line)
    return AllowList(name=name, patterns=tuple(patterns), lines=tuple(numbers))


@cache
def available() -> frozenset[str]:
    """Names of the shipped lists, listed once per process."""
    return frozenset(
        entry.name.removesuffix(".txt") for entry in _LISTS.iterdir() if entry.name.endswith(".txt")
    )


@cache
def load_allow_list(name: str) -> AllowList:
    """The shipped list `name`, read once per process and compiled on first use (every
    shipped list compiles: tests/layer/test_kinds.py)."""
    try:
        text = shipped_text("layer", "data", "allow", f"{name}.txt")
    except (OSError, UnicodeDecodeError) as exc:
        raise AllowListError(f"allow-list {name}.txt cannot be read: {exc}") from exc
    return _read_list(name, text)
