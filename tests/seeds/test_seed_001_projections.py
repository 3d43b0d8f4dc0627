"""Seed 001 examples about state, views, timeline, totals, explain, report and check
(the seed document's examples of those, and its additional report examples)."""

from __future__ import annotations

from pathlib import Path

from majordomus.advisors.catalogue import AdvisorCatalogue, References
from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.policy import Materiality
from majordomus.capabilities.reasoning import ReasoningCheck, ReasoningStatus
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
from tests.projections.builders import (
    assessment,
    attempt,
    conclusion,
    consultation,
    disagreement,
    rec,
    resolution,
    validation,
)


def test_standing_open_then_disputed() -> None:
    loaded = Loaded()
    loaded.records.append(rec("assessment-1", 1, assessment()))
    assert derive(loaded, None).assessments[0].standing is AssessmentStanding.OPEN
    loaded.records.append(rec("disagreement-2", 2, disagreement("assessment-1")))
    assert derive(loaded, None).assessments[0].standing is AssessmentStanding.DISPUTED


def test_assessment_view() -> None:
    body = assessment(
        "lock scope", materiality="trivial", questions=["is it held across an await?"]
    )
    state = derive(Loaded(records=[rec("assessment-1", 1, body)]), None)
    view: AssessmentView = state.assessments[0]
    assert (view.id, view.task) == ("assessment-1", "t")
    assert view.materiality is Materiality.TRIVIAL
    assert view.conclusion is None
    assert view.questions == ["is it held across an await?"]


def test_conclusion_view_and_supersession() -> None:
    loaded = Loaded()
    loaded.records.append(rec("conclusion-1", 1, conclusion("assessment-0", "A", supersedes=None)))
    loaded.records.append(rec("validation-2", 2, validation("conclusion-1", "fail", "x")))
    later = conclusion("assessment-0", "B", supersedes="conclusion-1")
    loaded.records.append(rec("conclusion-3", 3, later))
    state = derive(loaded, None)
    first: ConclusionView = state.conclusions[0]
    assert (first.validations_passed, first.validations_failed) == (0, 1)
    assert first.superseded_by == "conclusion-3"
    assert state.conclusions[1].superseded_by is None


def test_failed_consultation_view() -> None:
    body = consultation("plan-0", "alpha", "timeout", diagnostic="timeout: no answer in 60s")
    state = derive(Loaded(records=[rec("consultation-1", 1, body)]), None)
    view: ConsultationView = state.consultations[0]
    assert view.status is ConsultationStatus.TIMEOUT
    assert view.conclusion is None
    assert view.diagnostic == "timeout: no answer in 60s"
    assert state.totals.consultations_failed == 1


def test_disagreement_view_with_resolution() -> None:
    loaded = Loaded()
    loaded.records.append(rec("disagreement-1", 1, disagreement("assessment-0")))
    loaded.records.append(rec("resolution-2", 2, resolution("disagreement-1", "consultation-9")))
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
    loaded = Loaded(records=[rec("attempt-1", 1, attempt())])
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
    body = consultation("plan-0", "alpha", "unavailable")
    phases = [
        s.phase for s in derive(Loaded(records=[rec("consultation-1", 1, body)]), None).timeline
    ]
    assert phases == [ReasoningPhase.DEGRADATION]
    step = ReasoningStep(at="x", id="y", phase=ReasoningPhase.ADVISOR_RESPONSE, summary="")
    assert step.wire()["phase"] == "advisor_response"


def test_task_filtering() -> None:
    loaded = Loaded()
    loaded.records.append(rec("assessment-1", 0, assessment("a"), task="t1"))
    loaded.records.append(rec("assessment-2", 0, assessment("b"), task="t2"))
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
    body = attempt(
        attempt="share the client\nacross threads", observed_failure="the handle is not Sync"
    )
    step: ReasoningStep = derive(Loaded(records=[rec("attempt-1", 1, body)]), None).timeline[0]
    assert step.at == "2026-10-01T00:00:01Z"
    assert step.phase is ReasoningPhase.ATTEMPT
    assert step.summary == "share the client failed: the handle is not Sync"


def test_totals() -> None:
    usage = {"input_tokens": 100, "output_tokens": 20}
    loaded = Loaded()
    loaded.records.append(rec("consultation-1", 1, consultation("plan-a", usage=usage)))
    loaded.records.append(rec("consultation-2", 2, consultation("plan-b", usage=usage)))
    totals: ReasoningTotals = derive(loaded, None).totals
    assert totals.consultations_completed == 2
    assert totals.independent_reviewers == 1, "one advisor, however often asked"
    assert (totals.input_tokens, totals.output_tokens) == (200, 40)


def test_report_of_one_open_assessment() -> None:  # the seed's additional report example
    body = assessment("lock scope", questions=["held across an await?"])
    assert render_markdown(derive(Loaded(records=[rec("assessment-1", 1, body)]), None)) == (
        "Reasoning: 1 record(s); 0 consultation(s) completed, 0 failed; "
        "0 independent reviewer(s).\n"
        "- Unresolved assessment-1: lock scope (Open)\n"
        "  - open question: held across an await?\n"
    )


def test_report_names_a_degradation() -> None:  # the seed's additional report example
    body = consultation("plan-0", "alpha", "rate_limited")
    report = render_markdown(derive(Loaded(records=[rec("consultation-1", 1, body)]), None))
    assert "- Degradation: alpha rate_limited (consultation-1)" in report.split("\n")
