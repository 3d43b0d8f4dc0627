"""`natural_key` orders exactly as `natural_cmp`, the comparison spelled out, compares."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.order import OrderKey, canonical, natural_key


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


ALPHABET = st.sampled_from(list("0123456789aAbBzZ-._:/ ~é\u00ff\U0001f600\x00"))
TEXT = st.text(ALPHABET, max_size=12) | st.text(max_size=8)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


@settings(max_examples=3000)
@given(TEXT, TEXT)
def test_the_key_agrees_with_the_comparison(a: str, b: str) -> None:
    ka, kb = natural_key(a), natural_key(b)
    assert sign(natural_cmp(a, b)) == (ka > kb) - (ka < kb)


def test_sorting_by_the_key_is_sorting_by_the_comparison() -> None:
    words = ["a10", "a9", "A9", "a09", "a-1", "a_1", "a", "ab", "a1b", "a01", "a001", "2026-10-01"]
    by_key = sorted(words, key=natural_key)
    assert by_key == sorted(words, key=functools.cmp_to_key(natural_cmp))
    assert by_key[:4] == ["2026-10-01", "a", "a-1", "a001"]


def reference_cmp(x: OrderKey, y: OrderKey) -> int:
    """The order of `OrderKey` as its docstring states it, comparison by comparison."""
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


@dataclass(frozen=True)
class Row:
    key: OrderKey

    def order_key(self) -> OrderKey:
        return self.key


KEYS = st.builds(
    OrderKey,
    label=TEXT,
    identity=TEXT,
    rank=st.integers(-2, 2),
    group=st.none() | TEXT,
)


@settings(max_examples=500)
@given(st.lists(KEYS, max_size=12))
def test_canonical_sorts_as_the_reference_comparison(keys: list[OrderKey]) -> None:
    rows = [Row(k) for k in keys]
    ordered = sorted(keys, key=functools.cmp_to_key(reference_cmp))
    assert [row.key for row in canonical(rows)] == ordered
