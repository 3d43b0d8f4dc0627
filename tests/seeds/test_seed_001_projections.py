"""Seed 001 examples about state, views, timeline, totals, explain, report and check
(the seed document's examples of those, and its additional report examples)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from majordomus.advisors.catalogue import AdvisorCatalogue, References
from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.policy import Materiality
from majordomus.capabilities.reasoning import ReasoningCheck, ReasoningStatus
from majordomus.ledger.record import ReasoningRecord
from majordomus.ledger.store import Loaded
from majordomus.projections.check import CHECKS, ReasoningFinding, run
from majordomus.projections.state import (
    AssessmentStanding,
    AssessmentView,
    ConclusionView,
    ConsultationView,
    DisagreementView,
    ReasoningExplanation,
    ReasoningPhase,
    ReasoningState,
    ReasoningStep,
    ReasoningTotals,
    derive,
    explain,
    render_markdown,
)


def rec(record_id: str, n: int, body: dict[str, Any], task: str = "t") -> ReasoningRecord:
    return ReasoningRecord.model_validate(
        {
            "schema": "majordomus/reasoning-record",
            "version": 1,
            "id": record_id,
            "task": task,
            "recorded_at": f"2026-10-01T00:00:{n:02}Z",
            "body": body,
        }
    )


def test_standing_open_then_disputed() -> None:
    loaded = Loaded()
    loaded.records.append(rec("assessment-1", 1, {"kind": "assessment", "subject": "s"}))
    assert derive(loaded, None).assessments[0].standing is AssessmentStanding.OPEN
    loaded.records.append(
        rec(
            "disagreement-2",
            2,
            {
                "kind": "disagreement",
                "assessment": "assessment-1",
                "positions": [
                    {"source": "primary", "position": "A"},
                    {"source": "consultation-9", "position": "B"},
                ],
                "discriminating_question": "do callers retry?",
            },
        )
    )
    assert derive(loaded, None).assessments[0].standing is AssessmentStanding.DISPUTED


def test_assessment_view() -> None:
    loaded = Loaded()
    loaded.records.append(
        rec(
            "assessment-1",
            1,
            {
                "kind": "assessment",
                "subject": "lock scope",
                "materiality": "trivial",
                "questions": ["is it held across an await?"],
            },
        )
    )
    state = derive(loaded, None)
    view: AssessmentView = state.assessments[0]
    assert (view.id, view.task) == ("assessment-1", "t")
    assert view.materiality is Materiality.TRIVIAL
    assert view.conclusion is None
    assert view.questions == ["is it held across an await?"]


def test_conclusion_view_and_supersession() -> None:
    def conclusion(decision: str, supersedes: str | None) -> dict[str, Any]:
        return {
            "kind": "conclusion",
            "assessment": "assessment-0",
            "decision": decision,
            "rationale": "r",
            "supersedes": supersedes,
            "reviewed_by": [],
            "independent_review_count": 0,
        }

    loaded = Loaded()
    loaded.records.append(rec("conclusion-1", 1, conclusion("A", None)))
    loaded.records.append(
        rec(
            "validation-2",
            2,
            {"kind": "validation", "conclusion": "conclusion-1", "check": "x", "outcome": "fail"},
        )
    )
    loaded.records.append(rec("conclusion-3", 3, conclusion("B", "conclusion-1")))
    state = derive(loaded, None)
    first: ConclusionView = state.conclusions[0]
    assert (first.validations_passed, first.validations_failed) == (0, 1)
    assert first.superseded_by == "conclusion-3"
    assert state.conclusions[1].superseded_by is None


def test_failed_consultation_view() -> None:
    loaded = Loaded()
    loaded.records.append(
        rec(
            "consultation-1",
            1,
            {
                "kind": "consultation",
                "plan": "plan-0",
                "advisor": "alpha",
                "status": "timeout",
                "diagnostic": "timeout: no answer in 60s",
            },
        )
    )
    state = derive(loaded, None)
    view: ConsultationView = state.consultations[0]
    assert view.status is ConsultationStatus.TIMEOUT
    assert view.conclusion is None
    assert view.diagnostic == "timeout: no answer in 60s"
    assert state.totals.consultations_failed == 1


def test_disagreement_view_with_resolution() -> None:
    loaded = Loaded()
    loaded.records.append(
        rec(
            "disagreement-1",
            1,
            {
                "kind": "disagreement",
                "assessment": "assessment-0",
                "positions": [
                    {"source": "primary", "position": "A"},
                    {"source": "consultation-9", "position": "B"},
                ],
                "discriminating_question": "do callers retry?",
            },
        )
    )
    loaded.records.append(
        rec(
            "resolution-2",
            2,
            {
                "kind": "resolution",
                "disagreement": "disagreement-1",
                "experiment": "read the callers",
                "outcome": "none retries",
                "favours": "consultation-9",
                "evidence": [{"kind": "file", "reference": "src/caller.rs"}],
            },
        )
    )
    state = derive(loaded, None)
    view: DisagreementView = state.disagreements[0]
    assert view.discriminating_question == "do callers retry?"
    assert view.resolution == "resolution-2"
    assert view.favours == "consultation-9"


def test_reasoning_check_parses() -> None:
    check = ReasoningCheck.model_validate_json('{"ok":true,"checks":["catalogue"],"findings":[]}')
    assert check.ok
    assert check.findings == []
    assert check.checks == ["catalogue"]


def test_explain_a_lone_attempt() -> None:
    loaded = Loaded()
    loaded.records.append(
        rec(
            "attempt-1",
            1,
            {"kind": "attempt", "attempt": "inline it", "observed_failure": "still slow"},
        )
    )
    e = explain(loaded, "attempt-1")
    assert isinstance(e, ReasoningExplanation)
    assert e.record.id == "attempt-1"
    assert e.assessment is None
    assert len(e.chain) == 1


def test_check_on_an_unreadable_file(tmp_path: Path) -> None:
    loaded = Loaded(records=[], unreadable=["t/broken.json"])
    found = run(tmp_path, AdvisorCatalogue.default(), References(), loaded)
    expected = ReasoningFinding(
        check="records",
        subject="t/broken.json",
        message="a reasoning record that does not parse",
    )
    assert found == [expected]
    assert found[0].check in CHECKS


def test_degradation_phase() -> None:
    loaded = Loaded()
    loaded.records.append(
        rec(
            "consultation-1",
            1,
            {"kind": "consultation", "plan": "plan-0", "advisor": "alpha", "status": "unavailable"},
        )
    )
    phases = [s.phase for s in derive(loaded, None).timeline]
    assert phases == [ReasoningPhase.DEGRADATION]
    step = ReasoningStep(at="x", id="y", phase=ReasoningPhase.ADVISOR_RESPONSE, summary="")
    assert step.wire()["phase"] == "advisor_response"


def test_task_filtering() -> None:
    def at_zero(record_id: str, task: str, subject: str) -> ReasoningRecord:
        return ReasoningRecord.model_validate(
            {
                "schema": "majordomus/reasoning-record",
                "version": 1,
                "id": record_id,
                "task": task,
                "recorded_at": "2026-10-01T00:00:00Z",
                "body": {"kind": "assessment", "subject": subject},
            }
        )

    loaded = Loaded()
    loaded.records.append(at_zero("assessment-1", "t1", "a"))
    loaded.records.append(at_zero("assessment-2", "t2", "b"))
    loaded.unreadable.append("t2/broken.json")
    one: ReasoningState = derive(loaded, "t1")
    assert (one.task, len(one.assessments)) == ("t1", 1)
    everything = derive(loaded, None)
    assert (everything.task, everything.totals.records) == ("all", 2)
    assert everything.unreadable == ["t2/broken.json"]


def test_reasoning_status_schema() -> None:
    required = ReasoningStatus.model_json_schema()["required"]
    for field in ("mode", "advisors_available", "advisors_unavailable", "state", "report"):
        assert field in required, field


def test_attempt_step() -> None:
    loaded = Loaded()
    loaded.records.append(
        rec(
            "attempt-1",
            1,
            {
                "kind": "attempt",
                "attempt": "share the client\nacross threads",
                "observed_failure": "the handle is not Sync",
            },
        )
    )
    step: ReasoningStep = derive(loaded, None).timeline[0]
    assert step.at == "2026-10-01T00:00:01Z"
    assert step.phase is ReasoningPhase.ATTEMPT
    assert step.summary == "share the client failed: the handle is not Sync"


def test_totals() -> None:
    def answer(plan: str) -> dict[str, Any]:
        return {
            "kind": "consultation",
            "plan": plan,
            "advisor": "alpha",
            "status": "completed",
            "conclusion": "A",
            "stance": "supports",
            "usage": {"input_tokens": 100, "output_tokens": 20},
        }

    loaded = Loaded()
    loaded.records.append(rec("consultation-1", 1, answer("plan-a")))
    loaded.records.append(rec("consultation-2", 2, answer("plan-b")))
    totals: ReasoningTotals = derive(loaded, None).totals
    assert totals.consultations_completed == 2
    assert totals.independent_reviewers == 1, "one advisor, however often asked"
    assert (totals.input_tokens, totals.output_tokens) == (200, 40)


def test_report_of_one_open_assessment() -> None:  # the seed's additional report example
    loaded = Loaded()
    loaded.records.append(
        rec(
            "assessment-1",
            1,
            {
                "kind": "assessment",
                "subject": "lock scope",
                "questions": ["held across an await?"],
            },
        )
    )
    assert render_markdown(derive(loaded, None)) == (
        "Reasoning: 1 record(s); 0 consultation(s) completed, 0 failed; "
        "0 independent reviewer(s).\n"
        "- Unresolved assessment-1: lock scope (Open)\n"
        "  - open question: held across an await?\n"
    )


def test_report_names_a_degradation() -> None:  # the seed's additional report example
    loaded = Loaded()
    loaded.records.append(
        rec(
            "consultation-1",
            1,
            {
                "kind": "consultation",
                "plan": "plan-0",
                "advisor": "alpha",
                "status": "rate_limited",
            },
        )
    )
    report = render_markdown(derive(loaded, None))
    assert "- Degradation: alpha rate_limited (consultation-1)" in report.split("\n")
