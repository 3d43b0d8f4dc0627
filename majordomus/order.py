"""Canonical ordering shared by every list the product prints (devcontext §12, reasoning §0.2).

Pure: no I/O. `natural_cmp` compares digit runs numerically and letters ASCII-case-folded,
then breaks ties by code point, so equal-looking strings never compare equal by accident.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


def _fold(ch: str) -> str:
    return chr(ord(ch) + 32) if "A" <= ch <= "Z" else ch


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def natural_cmp(a: str, b: str) -> int:
    """-1, 0 or 1: digit runs by value (more leading zeros first), letters case-folded."""
    i = j = 0
    la, lb = len(a), len(b)
    while i < la and j < lb:
        ca, cb = a[i], b[j]
        if _is_digit(ca) and _is_digit(cb):
            si = i
            while i < la and _is_digit(a[i]):
                i += 1
            sj = j
            while j < lb and _is_digit(b[j]):
                j += 1
            run_a, run_b = a[si:i], b[sj:j]
            sa, sb = run_a.lstrip("0"), run_b.lstrip("0")
            if len(sa) != len(sb):
                return -1 if len(sa) < len(sb) else 1
            if sa != sb:
                return -1 if sa < sb else 1
            if len(run_a) != len(run_b):
                return -1 if len(run_a) > len(run_b) else 1
            continue
        fa, fb = _fold(ca), _fold(cb)
        if fa != fb:
            return -1 if fa < fb else 1
        i += 1
        j += 1
    if (i < la) != (j < lb):
        return -1 if i >= la else 1
    if a == b:
        return 0
    return -1 if a < b else 1


natural_key = functools.cmp_to_key(natural_cmp)


def canonical_strings(items: Iterable[str]) -> list[str]:
    """The strings in natural order."""
    return sorted(items, key=natural_key)


@dataclass(frozen=True)
class OrderKey:
    """group (present before absent, natural), rank (ascending), label and identity (natural)."""

    label: str
    identity: str
    rank: int = 0
    group: str | None = None


def _key_cmp(x: OrderKey, y: OrderKey) -> int:
    if x.group is not None or y.group is not None:
        if x.group is None:
            return 1
        if y.group is None:
            return -1
        c = natural_cmp(x.group, y.group)
        if c:
            return c
    if x.rank != y.rank:
        return -1 if x.rank < y.rank else 1
    return natural_cmp(x.label, y.label) or natural_cmp(x.identity, y.identity)


def canonical(items: Iterable[T], key: Callable[[T], OrderKey] | None = None) -> list[T]:
    """A stable sort of `items` by their order keys (`item.order_key()` when no key is given)."""
    cmp = functools.cmp_to_key(_key_cmp)
    if key is None:
        return sorted(items, key=lambda item: cmp(item.order_key()))  # type: ignore[attr-defined]
    return sorted(items, key=lambda item: cmp(key(item)))
