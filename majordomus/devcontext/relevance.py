"""The arithmetic and printing of relevance numbers, and "best path first". Pure: no I/O."""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import Decimal

from majordomus.devcontext.model import Route


def round3(value: float) -> float:
    """Three decimals, half away from zero (not Python's banker's `round`)."""
    return math.floor(value * 1000 + 0.5) / 1000


def number(value: float) -> str:
    """A number as the answers print it: integral values bare (`1`), others shortest (`0.95`)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == int(value) and abs(value) < 1e16:
        return str(int(value))
    text = repr(value)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    return text


def best_first(ways: Iterable[Route]) -> list[Route]:
    """Confidence descending, depth ascending, selector order, reason: the best path first."""
    return sorted(ways, key=lambda d: (-d.confidence, d.depth, d.selector.rank, d.reason))


def confidence_of(ways: Iterable[Route]) -> float:
    """The highest confidence of any path (never the mean), rounded; 0 when there is none."""
    return round3(max((d.confidence for d in ways), default=0.0))


def below_floor_detail(relevance: float, floor: float) -> str:
    """The sentence of a `relevance` exclusion."""
    return f"relevance {number(round3(relevance))} is below the floor {number(floor)}"
