"""Canonical ordering shared by every list the product prints.

Pure: no I/O. Digit runs compare numerically and letters ASCII-case-folded, then ties break
by code point, so equal-looking strings never compare equal by accident.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import TypeVar

T = TypeVar("T")

_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_DIGITS = re.compile(r"[0-9]+")
_TOP = 0x10FFFF


def _run_token(match: re.Match[str]) -> str:
    """A digit run as one token: `0` (where a digit would sort), significant length and digits,
    then the whole length inverted; equal runs give equal-length tokens, keeping keys aligned."""
    run = match.group()
    value = run.lstrip("0")
    return f"0{chr(len(value))}{value}{chr(_TOP - len(run))}"


def natural_key(text: str) -> tuple[str, str]:
    """The natural sort key: letters folded, each digit run one token (`_run_token`), and the
    text itself last, to break ties by code point."""
    return _DIGITS.sub(_run_token, text.translate(_FOLD)), text


def canonical_strings(items: Iterable[str]) -> list[str]:
    """The strings in natural order."""
    return sorted(items, key=natural_key)


@dataclass(frozen=True, slots=True)
class OrderKey:
    """group (present before absent, natural), rank (ascending), label and identity (natural)."""

    label: str
    identity: str
    rank: int = 0
    group: str | None = None


def _sort_key(k: OrderKey) -> tuple[object, ...]:
    group = (1,) if k.group is None else (0, natural_key(k.group))
    return group, k.rank, natural_key(k.label), natural_key(k.identity)


def canonical(items: Iterable[T]) -> list[T]:
    """A stable sort of `items` by their order keys (`item.order_key()`)."""
    return sorted(items, key=lambda item: _sort_key(item.order_key()))  # type: ignore[attr-defined]


@cache
def _positions(words: type[DeclaredOrder]) -> dict[DeclaredOrder, int]:
    return {word: position for position, word in enumerate(words)}


def _by_rank(compare: Callable[[int, int], bool]) -> Callable[[DeclaredOrder, object], bool]:
    def method(self: DeclaredOrder, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, DeclaredOrder)
        return compare(self.rank, other.rank)

    return method


class DeclaredOrder(StrEnum):
    """A word whose order is its declaration order, not its spelling's: the `str` mixin gives
    the wire word, and `<` compares positions among the members (`rank`)."""

    @property
    def rank(self) -> int:
        """The position in declaration order, 0 first."""
        return _positions(type(self))[self]

    __lt__ = _by_rank(operator.lt)
    __le__ = _by_rank(operator.le)
    __gt__ = _by_rank(operator.gt)
    __ge__ = _by_rank(operator.ge)
