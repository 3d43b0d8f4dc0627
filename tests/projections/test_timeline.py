"""Every timeline phase and summary template."""

from __future__ import annotations

from typing import Any

import pytest

from majordomus.projections.state import ReasoningPhase, derive

from .builders import (
    assessment,
    attempt,
    conclusion,
    consultation,
    disagreement,
    loaded,
    plan,
    rec,
    resolution,
    validation,
)


def step(body: dict[str, Any]) -> tuple[str, str]:
    s = derive(loaded(rec("r-1", 1, body)), None).timeline[0]
    return s.phase.value, s.summary


@pytest.mark.parametrize(
    ("body", "phase", "summary"),
    [
        (
            assessment(
                "lock scope",
                materiality="material",
                evidence=[{"kind": "file", "reference": "a.rs"}],
            ),
            "uncertainty",
            "lock scope (material, 1 evidence)",
        ),
        (
            plan("a-1", selected=("alpha", "beta"), reason="material\nsecond line"),
            "consulting",
            "consult alpha, beta (material)",
        ),
        (plan("a-1", "decide_locally", (), "no advisor"), "local", "no advisor"),
        (plan("a-1", "reuse_prior", (), "c-1 answers"), "reuse", "c-1 answers"),
        (consultation("p-1"), "advisor_response", "alpha supports: A"),
        (consultation("p-1", stance="opposes"), "advisor_response", "alpha opposes: A"),
        (
            consultation("p-1", stance="alternative"),
            "advisor_response",
            "alpha proposes an alternative: A",
        ),
        (
            consultation("p-1", stance="inconclusive"),
            "advisor_response",
            "alpha is inconclusive: A",
        ),
        (
            {
                "kind": "consultation",
                "plan": "p-1",
                "advisor": "alpha",
                "status": "completed",
                "conclusion": "fine",
            },
            "advisor_response",
            "alpha answered: fine",
        ),
        (consultation("p-1", status="timeout"), "degradation", "alpha timeout"),
        (
            consultation("p-1", status="error", diagnostic="exit 3\nstack"),
            "degradation",
            "alpha error: exit 3",
        ),
        (disagreement("a-1"), "disagreement", "2 positions; decided by: do callers retry?"),
        (
            resolution("d-1", "consultation-9"),
            "experiment",
            "read the callers → favours consultation-9",
        ),
        (
            conclusion("a-1", reviewed_by=["alpha"], independent_review_count=1),
            "conclusion",
            "keep the lock (1 independent review(s))",
        ),
        (validation("c-1", "pass"), "validation", "pass: cargo test"),
        (validation("c-1", "fail"), "validation", "fail: cargo test"),
        (attempt(), "attempt", "inline it failed: still slow"),
    ],
)
def test_phase_and_summary(body: dict[str, Any], phase: str, summary: str) -> None:
    assert step(body) == (phase, summary)


def test_a_composed_summary_is_one_line_of_at_most_140_characters() -> None:
    body = attempt(attempt="a" * 120, observed_failure="b" * 120)
    _, summary = step(body)
    assert len(summary) == 140
    assert summary.endswith("…")
    assert summary.startswith("a" * 120 + " failed: ")


def test_phase_words() -> None:
    assert [p.value for p in ReasoningPhase] == [
        "uncertainty",
        "consulting",
        "local",
        "reuse",
        "advisor_response",
        "degradation",
        "disagreement",
        "experiment",
        "conclusion",
        "validation",
        "attempt",
    ]


def test_every_reported_record_is_one_step_in_record_order() -> None:
    records = [rec("b-2", 2, attempt()), rec("a-1", 1, attempt()), rec("c-3", 3, attempt())]
    timeline = derive(loaded(*records), None).timeline
    assert [s.id for s in timeline] == ["b-2", "a-1", "c-3"]
