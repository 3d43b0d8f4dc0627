"""Admission: every rule, in order (the first failure wins), with its exact refusal sentence."""

from __future__ import annotations

from typing import Any

import pytest

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.advisors.policy import PlanOutcome
from majordomus.advisors.states import AdvisorState
from majordomus.errors import Refused
from majordomus.ledger.admission import Admission, Refusal, admit
from majordomus.ledger.loaded import Loaded
from majordomus.ledger.record import (
    RECORD_SCHEMA,
    AssessmentInput,
    ReasoningRecord,
    StoredConclusion,
    StoredPlan,
    parse_input,
)
from tests.advisors.fakes import state as advisor
from tests.ledger.records import EVIDENCE
from tests.ledger.records import conclusion_input as _conclusion


class Ledger:
    """Records admitted one after another, with ids `<kind>-<n>` and stamps `00:00:<n>`."""

    def __init__(self, states: list[AdvisorState] | None = None, mode: str = "standard"):
        self.loaded = Loaded()
        self.admission = Admission(
            mode=ModeResolution(mode=ReasoningMode(mode), source="default"),
            availability=states or [],
        )

    def add(self, data: dict[str, Any], task: str = "t") -> str:
        body = admit(parse_input(data), self.loaded, self.admission)
        n = len(self.loaded.records) + 1
        ident = f"{body.kind}-{n}"
        self.loaded.records.append(
            ReasoningRecord(
                schema=RECORD_SCHEMA,
                version=1,
                id=ident,
                task=task,
                recorded_at=f"2026-10-01T00:00:{n:02d}Z",
                body=body,
            )
        )
        return ident

    def refuse(self, data: dict[str, Any]) -> str:
        count = len(self.loaded.records)
        with pytest.raises(Refusal) as refused:
            admit(parse_input(data), self.loaded, self.admission)
        assert len(self.loaded.records) == count
        return str(refused.value)

    def material(self, subject: str = "lock scope") -> str:
        data = {"kind": "assessment", "subject": subject, "materiality": "material"}
        return self.add({**data, "evidence": EVIDENCE})

    def answer(self, plan: str, who: str = "a") -> str:
        return self.add(_asked(plan, "completed", who, conclusion="keep it", stance="supports"))


@pytest.fixture
def ledger() -> Ledger:
    return Ledger([advisor("a", "x-api"), advisor("b", "y-api")])


def test_a_refusal_is_a_refused_error_whose_text_is_the_sentence():
    refusal = Refusal("subject is empty")
    assert isinstance(refusal, Refused)
    assert str(refusal) == "subject is empty"
    assert refusal.code == "refused"


# assessment


def test_assessment_subject_must_not_be_blank(ledger):
    assert ledger.refuse({"kind": "assessment", "subject": "  \n"}) == "subject is empty"


@pytest.mark.parametrize("materiality", ["material", "high", "critical"])
def test_material_assessment_needs_evidence(ledger, materiality):
    assert ledger.refuse({"kind": "assessment", "subject": "s", "materiality": materiality}) == (
        "a material assessment carries the evidence gathered before anyone is asked: "
        "`evidence` is empty"
    )


def test_assessment_is_stored_unchanged(ledger):
    given = parse_input({"kind": "assessment", "subject": "s", "materiality": "low"})
    assert admit(given, ledger.loaded, ledger.admission) is given


def test_blank_subject_is_checked_before_evidence(ledger):
    refused = ledger.refuse({"kind": "assessment", "subject": "", "materiality": "critical"})
    assert refused == "subject is empty"


# plan


def test_plan_needs_a_recorded_assessment(ledger):
    assert ledger.refuse({"kind": "plan", "assessment": "assessment-1"}) == (
        "no assessment assessment-1 is recorded"
    )


def test_plan_names_a_record_of_another_kind(ledger):
    first = ledger.add({"kind": "assessment", "subject": "s"})
    plan = ledger.add({"kind": "plan", "assessment": first})
    assert ledger.refuse({"kind": "plan", "assessment": plan}) == (
        f"{plan} is a plan, not a assessment"
    )


def test_plan_runs_the_policy_against_the_availability_and_stores_it(ledger):
    first = ledger.material()
    plan_id = ledger.add({"kind": "plan", "assessment": first})
    stored = ledger.loaded.get(plan_id).body
    assert isinstance(stored, StoredPlan)
    assert stored.plan.outcome is PlanOutcome.CONSULT
    assert [s.advisor for s in stored.plan.selected] == ["a"]
    assert [s.id for s in stored.availability] == ["a", "b"]
    assert stored.availability == ledger.admission.availability
    assert stored.availability[0] is not ledger.admission.availability[0], "a snapshot, a copy"


def test_plan_carries_the_assessment_request(ledger):
    first = ledger.add(
        {
            "kind": "assessment",
            "subject": "s",
            "materiality": "critical",
            "confidence": "high",
            "capabilities": ["code_review"],
            "evidence": EVIDENCE,
        }
    )
    stored = admit(
        parse_input({"kind": "plan", "assessment": first}), ledger.loaded, ledger.admission
    )
    assert stored.plan.capabilities == ["code_review"]
    assert stored.plan.budget == 1
    assert stored.plan.outcome is PlanOutcome.DECIDE_LOCALLY


def test_plan_reuses_a_standing_conclusion_on_the_same_subject(ledger):
    old = ledger.add({"kind": "assessment", "subject": "Lock  scope", "materiality": "low"})
    conclusion = ledger.add(
        {"kind": "conclusion", "assessment": old, "decision": "d", "rationale": "r"}
    )
    new = ledger.add({"kind": "assessment", "subject": "lock scope", "materiality": "low"})
    stored = admit(
        parse_input({"kind": "plan", "assessment": new}), ledger.loaded, ledger.admission
    )
    assert stored.plan.outcome is PlanOutcome.REUSE_PRIOR
    assert stored.plan.reason.startswith(f"conclusion {conclusion} already answers")


def test_new_evidence_sets_the_prior_aside(ledger):
    old = ledger.add({"kind": "assessment", "subject": "s"})
    ledger.add({"kind": "conclusion", "assessment": old, "decision": "d", "rationale": "r"})
    new = ledger.add({"kind": "assessment", "subject": "s", "new_evidence": True})
    stored = admit(
        parse_input({"kind": "plan", "assessment": new}), ledger.loaded, ledger.admission
    )
    assert stored.plan.outcome is PlanOutcome.DECIDE_LOCALLY


# consultation


@pytest.fixture
def planned(ledger) -> tuple[Ledger, str, str]:
    first = ledger.material()
    return ledger, first, ledger.add({"kind": "plan", "assessment": first})


def _asked(plan: str, status: str, who: str = "a", **extra: Any) -> dict[str, Any]:
    return {"kind": "consultation", "plan": plan, "advisor": who, "status": status, **extra}


def test_consultation_needs_a_recorded_plan(ledger):
    assert ledger.refuse(_asked("plan-9", "timeout")) == "no plan plan-9 is recorded"


def test_consultation_of_an_advisor_the_plan_did_not_select(planned):
    ledger, _, plan = planned
    assert ledger.refuse(_asked(plan, "timeout", "b")) == (
        f"plan {plan} did not select advisor 'b' (it selected: a); "
        "a consultation no plan selected would be a review nobody planned"
    )


def test_consultation_of_a_plan_that_selected_nobody(ledger):
    first = ledger.add({"kind": "assessment", "subject": "s"})
    plan = ledger.add({"kind": "plan", "assessment": first})
    assert "(it selected: none)" in ledger.refuse(_asked(plan, "timeout"))


_NO_CONCLUSION = "a completed consultation carries the advisor's conclusion"


@pytest.mark.parametrize(
    ("given", "sentence"),
    [
        ({"status": "completed", "stance": "supports"}, _NO_CONCLUSION),
        ({"status": "completed", "stance": "supports", "conclusion": "   "}, _NO_CONCLUSION),
        (
            {"status": "completed", "conclusion": "c"},
            "a completed consultation says where the advice stands: `stance`",
        ),
        (
            {"status": "rate_limited", "conclusion": "c"},
            "a rate_limited consultation received no answer, so it carries no conclusion",
        ),
    ],
)
def test_consultation_answer_rules(planned, given, sentence):
    ledger, _, plan = planned
    assert (
        ledger.refuse({"kind": "consultation", "plan": plan, "advisor": "a", **given}) == sentence
    )


def test_failed_consultation_may_carry_a_stance_and_repeat(planned):
    ledger, _, plan = planned
    for _ in range(2):
        ledger.add(
            _asked(plan, "timeout", stance="opposes", diagnostic="timeout: no answer in 60s")
        )
    ledger.answer(plan)


def test_one_answer_per_advisor_and_plan(planned):
    ledger, _, plan = planned
    ledger.answer(plan)
    assert ledger.refuse(_asked(plan, "completed", conclusion="again", stance="opposes")) == (
        f"advisor 'a' already answered plan {plan}; one plan, one answer per advisor"
    )
    ledger.add(_asked(plan, "error"))


def test_an_answer_after_the_circuit_opened_still_belongs_to_its_plan(planned):
    ledger, _, plan = planned
    ledger.admission = Admission(mode=ledger.admission.mode, availability=[])
    ledger.answer(plan)


# disagreement


def _disagreement(assessment: str, *sources: str, **extra: Any) -> dict[str, Any]:
    return {
        "kind": "disagreement",
        "assessment": assessment,
        "positions": [{"source": s, "position": f"pos {s}"} for s in sources],
        "discriminating_question": "do callers retry?",
        **extra,
    }


def test_disagreement_rules_in_order(planned):
    ledger, first, plan = planned
    answer = ledger.answer(plan)
    failed = ledger.add(_asked(plan, "empty"))
    assert ledger.refuse(_disagreement("assessment-9", "primary", answer)) == (
        "no assessment assessment-9 is recorded"
    )
    assert (
        ledger.refuse(_disagreement(first, "primary", answer, discriminating_question=" "))
        == "discriminating_question is empty"
    )
    assert ledger.refuse(_disagreement(first, "primary")) == (
        "a disagreement has at least two positions"
    )
    assert ledger.refuse(_disagreement(first, "primary", "primary")) == (
        "each position of a disagreement has its own source"
    )
    blank = _disagreement(first, "primary", answer)
    blank["positions"][1]["position"] = ""
    assert ledger.refuse(blank) == "position is empty"
    assert ledger.refuse(_disagreement(first, "primary", "consultation-99")) == (
        "no consultation consultation-99 is recorded"
    )
    assert ledger.refuse(_disagreement(first, "primary", plan)) == (
        f"{plan} is a plan, not a consultation"
    )
    assert ledger.refuse(_disagreement(first, "primary", failed)) == (
        f"{failed} did not complete, so it holds no position"
    )
    ledger.add(_disagreement(first, "primary", answer))


# resolution


def _resolution(disagreement: str, **extra: Any) -> dict[str, Any]:
    return {
        "kind": "resolution",
        "disagreement": disagreement,
        "experiment": "read the callers",
        "outcome": "none retries",
        "favours": "primary",
        "evidence": EVIDENCE,
        **extra,
    }


def test_resolution_rules_in_order(planned):
    ledger, first, plan = planned
    answer = ledger.answer(plan)
    dispute = ledger.add(_disagreement(first, "primary", answer))
    assert ledger.refuse(_resolution("disagreement-99")) == (
        "no disagreement disagreement-99 is recorded"
    )
    assert ledger.refuse(_resolution(first)) == f"{first} is a assessment, not a disagreement"
    assert ledger.refuse(_resolution(dispute, experiment="")) == "experiment is empty"
    assert ledger.refuse(_resolution(dispute, outcome=" ")) == "outcome is empty"
    assert ledger.refuse(_resolution(dispute, evidence=[])) == (
        "a disagreement is settled by evidence, never by a count: `evidence` is empty"
    )
    assert ledger.refuse(_resolution(dispute, favours="majority")) == (
        f"'majority' is not a position of {dispute}; favour one of its sources or `neither`"
    )
    ledger.add(_resolution(dispute, favours="neither"))
    assert ledger.refuse(_resolution(dispute, favours=answer)) == f"{dispute} is already resolved"


# conclusion


def test_conclusion_field_rules_in_order(ledger):
    first = ledger.material()
    assert ledger.refuse(_conclusion("assessment-9", decision="")) == (
        "no assessment assessment-9 is recorded"
    )
    assert ledger.refuse(_conclusion(first, decision="")) == "decision is empty"
    assert ledger.refuse(_conclusion(first, rationale="\t")) == "rationale is empty"
    assert ledger.refuse(_conclusion(first, evidence=[], validation_plan=[])) == (
        "a conclusion on material uncertainty rests on evidence: `evidence` is empty"
    )
    assert ledger.refuse(_conclusion(first, validation_plan=[])) == (
        "a conclusion on material uncertainty says how it will be proven: "
        "`validation_plan` is empty"
    )


def test_conclusion_on_low_uncertainty_needs_no_evidence(ledger):
    first = ledger.add({"kind": "assessment", "subject": "s"})
    ledger.add(_conclusion(first, evidence=[], validation_plan=[]))


def test_conclusion_consultation_rules_in_order(planned):
    ledger, first, plan = planned
    other = ledger.material("another subject")
    other_plan = ledger.add({"kind": "plan", "assessment": other})
    elsewhere = ledger.answer(other_plan)
    failed = ledger.add(_asked(plan, "timeout"))
    answer = ledger.answer(plan)
    assert ledger.refuse(_conclusion(first, consultations=["consultation-99"])) == (
        "no consultation consultation-99 is recorded"
    )
    assert ledger.refuse(_conclusion(first, consultations=[failed])) == (
        f"{failed} ended timeout, so no advice came from it to weigh"
    )
    assert ledger.refuse(_conclusion(first, consultations=[elsewhere])) == (
        f"{elsewhere} was asked about another assessment"
    )
    assert ledger.refuse(_conclusion(first)) == (
        f"{answer} (advisor 'a') answered this assessment and the conclusion does not weigh "
        "it; cite it, and reject it in `rejected` if it is wrong"
    )
    ident = ledger.add(_conclusion(first, consultations=[answer]))
    stored = ledger.loaded.get(ident).body
    assert isinstance(stored, StoredConclusion)
    assert (stored.reviewed_by, stored.independent_review_count) == (["a"], 1)


def test_reviewers_are_counted_once_in_canonical_order():
    ledger = Ledger(
        [advisor("beta10", "x"), advisor("beta9", "y"), advisor("Alpha", "z")], mode="strict"
    )
    first = ledger.add(
        {"kind": "assessment", "subject": "s", "materiality": "critical", "evidence": EVIDENCE}
    )
    plan = ledger.add({"kind": "plan", "assessment": first})
    second = ledger.add({"kind": "plan", "assessment": first})
    cited = [
        ledger.answer(plan, "beta10"),
        ledger.answer(plan, "beta9"),
        ledger.answer(plan, "Alpha"),
        ledger.answer(second, "beta9"),
    ]
    stored = ledger.loaded.get(ledger.add(_conclusion(first, consultations=cited))).body
    assert stored.reviewed_by == ["Alpha", "beta9", "beta10"]
    assert stored.independent_review_count == 3


def test_conclusion_disagreement_rules_in_order(planned):
    ledger, first, plan = planned
    answer = ledger.answer(plan)
    assert (
        ledger.refuse(_conclusion(first, consultations=[answer], disagreements=["disagreement-99"]))
        == "no disagreement disagreement-99 is recorded"
    )
    dispute = ledger.add(_disagreement(first, "primary", answer))
    assert ledger.refuse(_conclusion(first, consultations=[answer])) == (
        f"disagreement {dispute} is unresolved: settle it with evidence (a `resolution`), "
        "not by counting who agrees"
    )
    ledger.add(_resolution(dispute))
    assert ledger.refuse(_conclusion(first, consultations=[answer])) == (
        f"disagreement {dispute} bears on this assessment and the conclusion does not cite it"
    )
    ledger.add(_conclusion(first, consultations=[answer], disagreements=[dispute]))


def test_supersession_rules(ledger):
    first = ledger.add({"kind": "assessment", "subject": "s"})
    plain = {"kind": "conclusion", "assessment": first, "decision": "A", "rationale": "r"}
    assert ledger.refuse({**plain, "supersedes": "conclusion-9"}) == (
        "no conclusion conclusion-9 is recorded"
    )
    assert ledger.refuse({**plain, "supersedes": first}) == (
        f"{first} is a assessment, not a conclusion"
    )
    one = ledger.add(plain)
    assert ledger.refuse(plain) == (
        f"{one} already concludes this assessment; a new conclusion names it in `supersedes`"
    )
    two = ledger.add({**plain, "decision": "B", "supersedes": one})
    assert ledger.refuse(plain).startswith(f"{two} already concludes")
    assert ledger.refuse({**plain, "decision": "C", "supersedes": one}) == (
        f"{one} is already superseded by {two}; "
        "supersede the assessment's standing conclusion instead"
    )


def test_a_conclusion_supersedes_only_one_of_its_own_assessment(ledger):
    first = ledger.add({"kind": "assessment", "subject": "s"})
    other = ledger.add({"kind": "assessment", "subject": "t"})
    theirs = ledger.add(_conclusion(other, evidence=[], validation_plan=[]))
    assert ledger.refuse(
        _conclusion(first, evidence=[], validation_plan=[], supersedes=theirs)
    ) == (
        f"{theirs} concludes assessment {other}, not {first}; "
        "a conclusion supersedes only a conclusion of its own assessment"
    )


def test_conclusion_input_never_claims_its_review():
    with pytest.raises(ValueError):
        parse_input(_conclusion("a", reviewed_by=["alpha"]))


# validation and attempt


def test_validation_rules_in_order(ledger):
    first = ledger.add({"kind": "assessment", "subject": "s"})
    check = {"kind": "validation", "conclusion": first, "check": "soak", "outcome": "pass"}
    assert ledger.refuse({**check, "conclusion": "conclusion-9"}) == (
        "no conclusion conclusion-9 is recorded"
    )
    assert ledger.refuse(check) == f"{first} is a assessment, not a conclusion"
    done = ledger.add(
        {"kind": "conclusion", "assessment": first, "decision": "d", "rationale": "r"}
    )
    assert ledger.refuse({**check, "conclusion": done, "check": ""}) == "check is empty"
    ledger.add({**check, "conclusion": done, "outcome": "fail"})


def test_attempt_rules_in_order(ledger):
    tried = {"kind": "attempt", "attempt": "inline it", "observed_failure": "still slow"}
    assert ledger.refuse({**tried, "assessment": "assessment-9"}) == (
        "no assessment assessment-9 is recorded"
    )
    assert ledger.refuse({**tried, "attempt": " "}) == "attempt is empty"
    assert ledger.refuse({**tried, "observed_failure": ""}) == "observed_failure is empty"
    ledger.add(tried)
    first = ledger.add({"kind": "assessment", "subject": "s"})
    ledger.add({**tried, "assessment": first})


def test_admission_never_touches_the_loaded_records(planned):
    ledger, first, _ = planned
    before = [r.model_copy(deep=True) for r in ledger.loaded.records]
    admit(parse_input({"kind": "plan", "assessment": first}), ledger.loaded, ledger.admission)
    assert ledger.loaded.records == before
    assert isinstance(ledger.loaded.records[0].body, AssessmentInput)
