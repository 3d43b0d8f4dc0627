"""Canonical ordering shared by every list the product prints.

Pure: no I/O. `natural_cmp` compares digit runs numerically and letters ASCII-case-folded,
then breaks ties by code point, so equal-looking strings never compare equal by accident.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


def _fold(ch: str) -> str:
    return chr(ord(ch) + 32) if "A" <= ch <= "Z" else ch


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def _run_end(s: str, i: int) -> int:
    while i < len(s) and _is_digit(s[i]):
        i += 1
    return i


def _cmp_runs(run_a: str, run_b: str) -> int:
    """Two digit runs by value, then more leading zeros first; 0 when they are the same."""
    sa, sb = run_a.lstrip("0"), run_b.lstrip("0")
    if len(sa) != len(sb):
        return -1 if len(sa) < len(sb) else 1
    if sa != sb:
        return -1 if sa < sb else 1
    if len(run_a) != len(run_b):
        return -1 if len(run_a) > len(run_b) else 1
    return 0


def natural_cmp(a: str, b: str) -> int:
    """-1, 0 or 1: digit runs by value (more leading zeros first), letters case-folded."""
    i = j = 0
    la, lb = len(a), len(b)
    while i < la and j < lb:
        ca, cb = a[i], b[j]
        if _is_digit(ca) and _is_digit(cb):
            ei, ej = _run_end(a, i), _run_end(b, j)
            runs = _cmp_runs(a[i:ei], b[j:ej])
            if runs:
                return runs
            i, j = ei, ej
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


_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_DIGITS = re.compile(r"[0-9]+")
_TOP = 0x10FFFF


def _run_token(match: re.Match[str]) -> str:
    """A digit run as one token that sorts the way `natural_cmp` compares runs.

    `0` first: a run meets a non-digit character exactly where a digit would, and two runs
    meet on equal footing. Then the significant length, the significant digits, and the
    whole length inverted (more leading zeros first). Equal runs give equal tokens of equal
    length, so the tokens that follow stay aligned.
    """
    run = match.group()
    value = run.lstrip("0")
    return f"0{chr(len(value))}{value}{chr(_TOP - len(run))}"


def natural_key(text: str) -> tuple[str, str]:
    """A sort key ordering exactly as `natural_cmp` does, computed once per string.

    Letters are folded and each digit run becomes one token (`_run_token`); the text itself
    breaks ties by code point, as `natural_cmp` does last.
    """
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
    """Group (present before absent, natural), rank, label and identity (natural)."""
    group = (1,) if k.group is None else (0, natural_key(k.group))
    return group, k.rank, natural_key(k.label), natural_key(k.identity)


def canonical(items: Iterable[T], key: Callable[[T], OrderKey] | None = None) -> list[T]:
    """A stable sort of `items` by their order keys (`item.order_key()` when no key is given)."""
    if key is None:
        return sorted(items, key=lambda item: _sort_key(item.order_key()))  # type: ignore[attr-defined]
    return sorted(items, key=lambda item: _sort_key(key(item)))
