"""Rounding, number display and the order of discovery paths."""

from __future__ import annotations

from majordomus.devcontext import Selector, tokens_for
from majordomus.devcontext.model import Route
from majordomus.devcontext.relevance import best_first, confidence_of, number, round3


def test_tokens_for() -> None:
    assert [tokens_for(b) for b in (0, 4, 8, 4001, 8192)] == [1, 1, 2, 1001, 2048]


def test_round3_is_half_away_from_zero() -> None:
    assert round3(0.8 * 0.85) == 0.68
    assert round3(0.0005) == 0.001
    assert round3(1 / 3) == 0.333
    assert round3(0.6 * 0.56) == 0.336


def test_number_prints_like_the_answers_do() -> None:
    assert [number(v) for v in (1.0, 0.0, 0.95, 0.336, 2.0)] == ["1", "0", "0.95", "0.336", "2"]
    assert number(1e-7) == "0.0000001"
    assert number(float("nan")) == "NaN"


def test_best_path_first() -> None:
    def way(selector: Selector, reason: str, depth: int, confidence: float) -> Route:
        return Route(
            selector=selector, reason=reason, depth=depth, confidence=confidence, weight=0.5
        )

    ways = [
        way(Selector.INTENT_MATCH, "i", 1, 0.4),
        way(Selector.RELATION, "b", 2, 1.0),
        way(Selector.RELATION, "a", 2, 1.0),
        way(Selector.GOVERNANCE, "g", 0, 1.0),
        way(Selector.SEED, "s", 0, 1.0),
    ]
    assert [(d.selector.value, d.reason) for d in best_first(ways)] == [
        ("seed", "s"),
        ("governance", "g"),
        ("relation", "a"),
        ("relation", "b"),
        ("intent_match", "i"),
    ]
    assert confidence_of(ways) == 1.0 and confidence_of([]) == 0.0
    assert confidence_of([way(Selector.INTENT_MATCH, "i", 1, 1 / 3)]) == 0.333
