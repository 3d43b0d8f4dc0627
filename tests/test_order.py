"""`natural_key` orders exactly as `natural_cmp` compares (the key is the fast path)."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.order import OrderKey, canonical, natural_cmp, natural_key

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
    assert canonical(keys, key=lambda k: k) == sorted(keys, key=functools.cmp_to_key(reference_cmp))
