"""Canonical ordering shared by every list the product prints.

Pure: no I/O. Digit runs compare numerically and letters ASCII-case-folded, then ties break
by code point, so equal-looking strings never compare equal by accident.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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


def canonical(items: Iterable[T], key: Callable[[T], OrderKey] | None = None) -> list[T]:
    """A stable sort of `items` by their order keys (`item.order_key()` when no key is given)."""
    if key is None:
        return sorted(items, key=lambda item: _sort_key(item.order_key()))  # type: ignore[attr-defined]
    return sorted(items, key=lambda item: _sort_key(key(item)))
