"""The review-plan policy: budgets, greedy selection, reasons, reuse."""

from __future__ import annotations

import pytest

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.advisors.policy import (
    LOCAL_REVIEW,
    Materiality,
    PlanOutcome,
    PlanRequest,
    ReasoningConfidence,
    budget,
    plan,
)
from tests.advisors.fakes import state

STANDARD = ModeResolution(mode=ReasoningMode.STANDARD, source="default")


MODES = ["ci", "fast", "standard", "offline", "strict"]
TABLE = {
    "ci": [0, 0, 0, 0, 0],
    "fast": [0, 0, 0, 1, 1],
    "standard": [0, 0, 1, 2, 2],
    "offline": [0, 0, 1, 2, 2],
    "strict": [0, 0, 1, 2, 3],
}
SURE_TABLE = {
    "ci": [0, 0, 0, 0, 0],
    "fast": [0, 0, 0, 0, 0],
    "standard": [0, 0, 0, 1, 1],
    "offline": [0, 0, 0, 1, 1],
    "strict": [0, 0, 0, 1, 2],
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("confidence", ["low", "medium", "high"])
def test_the_budget_table(mode: str, confidence: str) -> None:
    table = SURE_TABLE if confidence == "high" else TABLE
    got = [budget(ReasoningMode(mode), m, ReasoningConfidence(confidence)) for m in Materiality]
    assert got == table[mode]
    resolution = ModeResolution(mode=ReasoningMode(mode), source="default")
    planned = [
        plan(PlanRequest(materiality=m, confidence=ReasoningConfidence(confidence)), resolution, [])
        for m in Materiality
    ]
    assert [p.budget for p in planned] == table[mode]


def test_orders_and_defaults() -> None:
    assert sorted(Materiality, reverse=True)[0] is Materiality.CRITICAL
    assert Materiality.TRIVIAL < Materiality.LOW < Materiality.MATERIAL < Materiality.HIGH
    assert ReasoningConfidence.LOW < ReasoningConfidence.MEDIUM < ReasoningConfidence.HIGH
    assert ReasoningConfidence.default() is ReasoningConfidence.MEDIUM
    assert [o.value for o in PlanOutcome] == ["consult", "decide_locally", "reuse_prior"]
    request = PlanRequest()
    assert (request.materiality, request.confidence) == (
        Materiality.LOW,
        ReasoningConfidence.MEDIUM,
    )
    assert request.wire() == {
        "materiality": "low",
        "confidence": "medium",
        "capabilities": [],
        "new_evidence": False,
    }


def test_worked_example_one_skips_a_rate_limited_advisor() -> None:
    states = [
        state("first", "x-api"),
        state("limited", "y-api", "rate_limited", reason="rate_limited"),
        state("second", "z-cli"),
    ]
    p = plan(PlanRequest(materiality=Materiality.HIGH), STANDARD, states)
    assert p.outcome is PlanOutcome.CONSULT
    assert [s.advisor for s in p.selected] == ["first", "second"]
    assert p.excluded[0].advisor == "limited"
    assert p.excluded[0].reason.startswith("rate_limited")
    assert p.excluded[0].reason == "rate_limited: rate_limited"
    assert [s.why for s in p.selected] == [
        "the first available advisor in preference order covering the most requested capabilities",
        "an independent source for a second opinion",
    ]
    assert (
        p.reason
        == "high uncertainty under mode standard: 2 independent review(s) within a budget of 2"
    )
    assert (p.budget, p.available) == (2, 2)
    assert "local_review" not in p.wire()


def test_worked_example_two_prefers_coverage_then_an_independent_source() -> None:
    wanted = ["independent_reasoning", "code_review"]
    states = [
        state("a", "x", capabilities=["independent_reasoning", "architecture_review"]),
        state("a2", "x", capabilities=["independent_reasoning", "architecture_review"]),
        state("b", "y", capabilities=["code_review", "independent_reasoning"]),
    ]
    p = plan(PlanRequest(materiality=Materiality.HIGH, capabilities=wanted), STANDARD, states)
    assert [(s.advisor, s.covers) for s in p.selected] == [
        ("b", ["code_review", "independent_reasoning"]),
        ("a", ["independent_reasoning"]),
    ]
    assert [(e.advisor, e.status.value, e.reason) for e in p.excluded] == [
        ("a2", "available", "the budget was spent on advisors earlier in the selection")
    ]
    assert p.selected[1].why == "an independent source for a second opinion"


def test_why_names_fresh_coverage_and_shared_sources() -> None:
    strict = ModeResolution(mode=ReasoningMode.STRICT, source="profile deep")
    wanted = ["code_review", "security_review", "test_review"]
    states = [
        state("one", "x", capabilities=["code_review"]),
        state("two", "x", capabilities=["code_review", "security_review", "test_review"]),
        state("three", "x", capabilities=["security_review"]),
    ]
    p = plan(PlanRequest(materiality=Materiality.CRITICAL, capabilities=wanted), strict, states)
    assert [(s.advisor, s.why) for s in p.selected] == [
        (
            "two",
            "the first available advisor in preference order covering the most requested "
            "capabilities",
        ),
        ("one", "the next available advisor in preference order"),
        ("three", "the next available advisor in preference order"),
    ]
    fresh = plan(
        PlanRequest(materiality=Materiality.CRITICAL, capabilities=wanted),
        strict,
        [
            state("c", "x", capabilities=["code_review"]),
            state("s", "x", capabilities=["security_review", "test_review"]),
        ],
    )
    assert fresh.selected[0].advisor == "s"
    assert fresh.selected[1].why == "covers 1 requested capability(ies) the selection did not"


def test_exclusions_keep_the_order_of_the_states() -> None:
    states = [
        state("late", "a", capabilities=["independent_reasoning"]),
        state("off", "b", "not_configured", reason="credential_absent"),
        state("other", "c", capabilities=["repository_analysis"]),
        state("extra", "d"),
        state("ci", "e", "disabled", reason="mode_ci"),
    ]
    p = plan(
        PlanRequest(
            materiality=Materiality.MATERIAL, capabilities=["independent_reasoning", "code_review"]
        ),
        STANDARD,
        states,
    )
    assert [s.advisor for s in p.selected] == ["late"]
    assert [(e.advisor, e.status.value, e.reason) for e in p.excluded] == [
        ("off", "not_configured", "not_configured: credential_absent"),
        ("other", "available", "offers none of independent_reasoning, code_review"),
        ("extra", "available", "the budget was spent on advisors earlier in the selection"),
        ("ci", "disabled", "disabled: mode_ci"),
    ]
    assert p.available == 3


@pytest.mark.parametrize(
    ("mode", "materiality", "confidence", "reason", "local"),
    [
        (
            "standard",
            "low",
            "medium",
            "low uncertainty is decided on local evidence; review would cost more than it "
            "could change",
            False,
        ),
        (
            "strict",
            "trivial",
            "low",
            "trivial uncertainty is decided on local evidence; review would cost more than it "
            "could change",
            False,
        ),
        (
            "ci",
            "critical",
            "medium",
            "mode ci with medium confidence allows no independent review for critical uncertainty",
            True,
        ),
        (
            "fast",
            "material",
            "high",
            "mode fast with high confidence allows no independent review for material uncertainty",
            True,
        ),
        (
            "standard",
            "high",
            "low",
            "no available advisor offers independent_reasoning; decide on local evidence after "
            "a structured local review",
            True,
        ),
    ],
)
def test_deciding_locally(
    mode: str, materiality: str, confidence: str, reason: str, local: bool
) -> None:
    p = plan(
        PlanRequest(
            materiality=Materiality(materiality), confidence=ReasoningConfidence(confidence)
        ),
        ModeResolution(mode=ReasoningMode(mode), source="default"),
        [state("gone", "x", "unavailable", reason="executable_not_found")],
    )
    assert p.outcome is PlanOutcome.DECIDE_LOCALLY
    assert p.reason == reason
    assert p.local_review == (list(LOCAL_REVIEW) if local else [])
    assert p.selected == []


def test_the_local_review_steps() -> None:
    assert LOCAL_REVIEW == (
        "state the hypothesis and the strongest alternative to it",
        "list each assumption with the evidence that supports it, and mark the unsupported ones",
        "name what observation would falsify the hypothesis",
        "run the smallest experiment that discriminates between hypothesis and alternative",
        "record the conclusion with its evidence, rejected alternatives, risks and validation plan",
    )


def test_a_standing_conclusion_is_reused_without_new_evidence() -> None:
    states = [state("a", "x"), state("b", "y", "rate_limited", reason="rate_limited")]
    request = PlanRequest(materiality=Materiality.CRITICAL, prior_conclusion="conclusion-7")
    p = plan(request, STANDARD, states)
    assert p.outcome is PlanOutcome.REUSE_PRIOR
    assert p.budget == 0
    assert p.reason == (
        "conclusion conclusion-7 already answers this subject and the assessment brings no "
        "new evidence"
    )
    assert [(e.advisor, e.status.value, e.reason) for e in p.excluded] == [
        ("a", "available", "a standing conclusion answers the subject"),
        ("b", "rate_limited", "a standing conclusion answers the subject"),
    ]
    assert (p.selected, p.local_review, p.available) == ([], [], 1)
    fresh = plan(request.model_copy(update={"new_evidence": True}), STANDARD, states)
    assert fresh.outcome is PlanOutcome.CONSULT


def test_the_plan_json_shape() -> None:
    p = plan(PlanRequest(materiality=Materiality.MATERIAL), STANDARD, [state("a", "x")])
    assert p.wire() == {
        "mode": "standard",
        "mode_source": "default",
        "materiality": "material",
        "confidence": "medium",
        "capabilities": ["independent_reasoning"],
        "budget": 1,
        "outcome": "consult",
        "reason": "material uncertainty under mode standard: 1 independent review(s) within a "
        "budget of 1",
        "selected": [
            {
                "advisor": "a",
                "covers": ["independent_reasoning"],
                "why": "the first available advisor in preference order covering the most "
                "requested capabilities",
            }
        ],
        "excluded": [],
        "available": 1,
    }
