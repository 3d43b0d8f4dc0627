"""Seed 001: the doctests about the catalogue, transports, availability, circuits, modes and plans.

Each test is one Rust doctest of `seeds/001_b4e9bd702be2fbea.txt` translated literally
(in the seed's order); the Python names are those of `majordomus.advisors`.
"""

from __future__ import annotations

import json

from majordomus.advisors.availability import (
    AdvisorCircuit,
    AdvisorStatus,
    Inputs,
    ModeResolution,
    Outcome,
    ReasoningMode,
    derive_availability,
    resolve_mode,
)
from majordomus.advisors.catalogue import AdvisorCatalogue, AdvisorTransport, References
from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.policy import (
    LOCAL_REVIEW,
    ExcludedAdvisor,
    Materiality,
    PlanOutcome,
    PlanRequest,
    ReasoningConfidence,
    ReviewPlan,
    SelectedAdvisor,
    plan,
)
from majordomus.capabilities.reasoning import AdvisorCapacity, AdvisorsReport
from majordomus.layer.yaml import parse_into
from tests.advisors.fakes import Everything, Only
from tests.advisors.fakes import state as advisor


def test_open_circuit_from_a_rate_limit() -> None:
    c = parse_into(
        "version: 1\ncapabilities:\n  - id: code_review\n    description: x\nadvisors:\n"
        "  - id: a\n    title: A\n    transport: cli\n    adapter: a-cli\n    executable: a\n"
        "    capabilities: [code_review]\n",
        AdvisorCatalogue,
    )
    limited = [
        Outcome(
            id="consultation-1",
            advisor="a",
            status=ConsultationStatus.RATE_LIMITED,
            at=0,
            retry_after=60,
        )
    ]
    inputs = Inputs(refs=References(), presence=Everything(), history=limited, now=10)
    states = derive_availability(c, inputs)
    circuit = states[0].circuit
    assert isinstance(circuit, AdvisorCircuit)
    assert circuit.opened_by == "consultation-1"
    assert circuit.until == "1970-01-01T00:01:00Z"


def test_absent_local_runtime_state() -> None:
    c = parse_into(
        "version: 1\ncapabilities:\n  - id: code_review\n    description: x\nadvisors:\n"
        "  - id: a\n    title: A\n    transport: local_runtime\n    adapter: a-rt\n"
        "    executable: rt\n    capabilities: [code_review]\n",
        AdvisorCatalogue,
    )
    state = derive_availability(c, Inputs(refs=References(), presence=Only())).pop(0)
    assert (state.id, state.status) == ("a", AdvisorStatus.UNAVAILABLE)
    assert state.probe == "executable rt on PATH"
    assert state.circuit is None and not state.recovering


def test_advisor_status_words() -> None:
    assert AdvisorStatus.NOT_CONFIGURED.value == "not_configured"
    assert json.loads(json.dumps(AdvisorStatus.NOT_CONFIGURED)) == "not_configured"
    s = AdvisorStatus(json.loads('"rate_limited"'))
    assert s is AdvisorStatus.RATE_LIMITED


def test_transport_local_runtime_is_not_remote() -> None:
    t = AdvisorTransport(json.loads('"local_runtime"'))
    assert t is AdvisorTransport.LOCAL_RUNTIME
    assert not t.is_remote()


def test_budget_exclusion() -> None:
    mode = ModeResolution(mode=ReasoningMode.STANDARD, source="default")
    request = PlanRequest(materiality=Materiality.MATERIAL)
    states = [advisor("a", "x-api", "available"), advisor("b", "y-api", "available")]
    p = plan(request, mode, states)
    left = p.excluded[0]
    assert isinstance(left, ExcludedAdvisor)
    assert (left.advisor, left.status) == ("b", AdvisorStatus.AVAILABLE)
    assert "budget was spent" in left.reason


def test_materiality_order_and_words() -> None:
    assert Materiality.default() is Materiality.LOW
    assert Materiality.MATERIAL < Materiality.CRITICAL
    m = Materiality(json.loads('"high"'))
    assert m is Materiality.HIGH


def test_resolve_mode_under_ci() -> None:
    r = resolve_mode(None, True, None)
    assert r == ModeResolution(mode=ReasoningMode.CI, source="CI")


def test_plan_outcome_decide_locally_under_ci() -> None:
    mode = ModeResolution(mode=ReasoningMode.CI, source="CI")
    request = PlanRequest(materiality=Materiality.CRITICAL)
    outcome = plan(request, mode, []).outcome
    assert outcome is PlanOutcome.DECIDE_LOCALLY
    assert json.loads(json.dumps(outcome)) == "decide_locally"


def test_high_confidence_lowers_the_budget() -> None:
    mode = ModeResolution(mode=ReasoningMode.STRICT, source="default")

    def budget(confidence: ReasoningConfidence) -> int:
        request = PlanRequest(materiality=Materiality.CRITICAL, confidence=confidence)
        return plan(request, mode, []).budget

    assert budget(ReasoningConfidence.MEDIUM) == 3
    assert budget(ReasoningConfidence.HIGH) == 2


def test_mode_words() -> None:
    assert ReasoningMode.default() is ReasoningMode.STANDARD
    assert json.loads(json.dumps(ReasoningMode.OFFLINE)) == "offline"
    m = ReasoningMode(json.loads('"strict"'))
    assert m is ReasoningMode.STRICT


def test_local_review_plan() -> None:
    mode = ModeResolution(mode=ReasoningMode.OFFLINE, source="MAJORDOMUS_REASONING_MODE")
    request = PlanRequest(materiality=Materiality.MATERIAL)
    p = plan(request, mode, [])
    assert isinstance(p, ReviewPlan)
    assert p.mode_source == "MAJORDOMUS_REASONING_MODE"
    assert p.capabilities == ["independent_reasoning"]
    assert (p.budget, p.available) == (1, 0)
    assert len(p.local_review) == len(LOCAL_REVIEW)
    assert p.reason.startswith("no available advisor offers")


def test_selected_advisor() -> None:
    mode = ModeResolution(mode=ReasoningMode.STANDARD, source="default")
    request = PlanRequest(materiality=Materiality.MATERIAL)
    p = plan(request, mode, [advisor("a", "x-api", "available")])
    chosen = p.selected[0]
    assert isinstance(chosen, SelectedAdvisor)
    assert chosen.advisor == "a"
    assert chosen.covers == ["independent_reasoning"]
    assert chosen.why.startswith("the first available advisor")


def test_advisor_capacity_row() -> None:
    row = AdvisorCapacity.model_validate(
        {"capability": "code_review", "description": "Critique of a change.", "available": []}
    )
    assert row.capability == "code_review"
    assert row.available == []


def test_advisors_report_parse() -> None:
    report = AdvisorsReport.model_validate(
        {
            "operational": True,
            "mode": {"mode": "ci", "source": "CI"},
            "available": 0,
            "unavailable": 0,
            "advisors": [],
            "capacity": [],
        }
    )
    assert report.operational and report.advisors == []
    assert report.mode.source == "CI"
    assert report.diagnostics == [], "absent findings are the ordinary case"
