"""Admission: the rules a record input must pass before it may be stored, in the order of
the spec, the first failure winning. Pure: no disk, no clock."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from majordomus.advisors.modes import ModeResolution
from majordomus.advisors.policy import PlanRequest, plan
from majordomus.advisors.states import AdvisorState
from majordomus.errors import Refused
from majordomus.ledger.loaded import Loaded, RecordIndex
from majordomus.ledger.record import (
    AssessmentInput,
    AttemptInput,
    ConclusionInput,
    ConsultationInput,
    ConsultationStatus,
    DisagreementInput,
    PlanInput,
    ReasoningBody,
    ReasoningInput,
    ReasoningRecord,
    ResolutionInput,
    StoredConclusion,
    StoredPlan,
    ValidationInput,
)


class Refusal(Refused):
    """A record the ledger will not admit; its string form is the sentence alone."""


@dataclass(frozen=True)
class Admission:
    """What a plan is admitted against: the effective mode and every advisor's state now."""

    mode: ModeResolution
    availability: Sequence[AdvisorState] = ()


def _kind_of(loaded: Loaded, record_id: str, kind: str) -> ReasoningRecord:
    """The record `record_id`, which must exist and be of `kind`."""
    record = loaded.get(record_id)
    if record is None:
        raise Refusal(f"no {kind} {record_id} is recorded")
    if record.body.kind != kind:
        raise Refusal(f"{record_id} is a {record.body.kind}, not a {kind}")
    return record


def _nonempty(value: str, field: str) -> None:
    if not value.strip():
        raise Refusal(f"{field} is empty")


def _completed(record: ReasoningRecord) -> bool:
    body = record.body
    return isinstance(body, ConsultationInput) and body.status is ConsultationStatus.COMPLETED


def _assessment(given: AssessmentInput, loaded: Loaded) -> ReasoningBody:
    _nonempty(given.subject, "subject")
    if given.materiality.is_material() and not given.evidence:
        raise Refusal(
            "a material assessment carries the evidence gathered before anyone is asked: "
            "`evidence` is empty"
        )
    return given


def _plan(given: PlanInput, loaded: Loaded, admission: Admission) -> ReasoningBody:
    record = _kind_of(loaded, given.assessment, "assessment")
    assessment: AssessmentInput = record.body  # type: ignore[assignment]
    prior = RecordIndex(loaded.records).prior_on_subject(record)
    request = PlanRequest(
        materiality=assessment.materiality,
        confidence=assessment.confidence,
        capabilities=list(assessment.capabilities),
        prior_conclusion=prior.id if prior is not None else None,
        new_evidence=assessment.new_evidence,
    )
    states = [state.model_copy(deep=True) for state in admission.availability]
    decided = plan(request, admission.mode, states)
    return StoredPlan(assessment=given.assessment, plan=decided, availability=states)


def _consultation(given: ConsultationInput, loaded: Loaded) -> ReasoningBody:
    record = _kind_of(loaded, given.plan, "plan")
    stored: StoredPlan = record.body  # type: ignore[assignment]
    selected = [s.advisor for s in stored.plan.selected]
    if given.advisor not in selected:
        raise Refusal(
            f"plan {given.plan} did not select advisor '{given.advisor}' "
            f"(it selected: {', '.join(selected) or 'none'}); "
            "a consultation no plan selected would be a review nobody planned"
        )
    has_conclusion = given.conclusion is not None and bool(given.conclusion.strip())
    completed = given.status is ConsultationStatus.COMPLETED
    if completed and not has_conclusion:
        raise Refusal("a completed consultation carries the advisor's conclusion")
    if completed and given.stance is None:
        raise Refusal("a completed consultation says where the advice stands: `stance`")
    if not completed and has_conclusion:
        raise Refusal(
            f"a {given.status.value} consultation received no answer, so it carries no conclusion"
        )
    if completed and (given.plan, given.advisor) in RecordIndex(loaded.records).answers:
        raise Refusal(
            f"advisor '{given.advisor}' already answered plan {given.plan}; "
            "one plan, one answer per advisor"
        )
    return given


def _disagreement(given: DisagreementInput, loaded: Loaded) -> ReasoningBody:
    _kind_of(loaded, given.assessment, "assessment")
    _nonempty(given.discriminating_question, "discriminating_question")
    if len(given.positions) < 2:
        raise Refusal("a disagreement has at least two positions")
    sources = [p.source for p in given.positions]
    if len(set(sources)) != len(sources):
        raise Refusal("each position of a disagreement has its own source")
    for position in given.positions:
        _nonempty(position.position, "position")
        if position.source != "primary":
            consultation = _kind_of(loaded, position.source, "consultation")
            if not _completed(consultation):
                raise Refusal(f"{position.source} did not complete, so it holds no position")
    return given


def _resolution(given: ResolutionInput, loaded: Loaded) -> ReasoningBody:
    record = _kind_of(loaded, given.disagreement, "disagreement")
    disagreement: DisagreementInput = record.body  # type: ignore[assignment]
    _nonempty(given.experiment, "experiment")
    _nonempty(given.outcome, "outcome")
    if not given.evidence:
        raise Refusal(
            "a disagreement is settled by evidence, never by a count: `evidence` is empty"
        )
    if given.favours != "neither" and given.favours not in {
        p.source for p in disagreement.positions
    }:
        raise Refusal(
            f"'{given.favours}' is not a position of {given.disagreement}; "
            "favour one of its sources or `neither`"
        )
    if RecordIndex(loaded.records).resolution_of(given.disagreement) is not None:
        raise Refusal(f"{given.disagreement} is already resolved")
    return given


def _conclusion(given: ConclusionInput, loaded: Loaded) -> ReasoningBody:
    record = _kind_of(loaded, given.assessment, "assessment")
    assessment: AssessmentInput = record.body  # type: ignore[assignment]
    _nonempty(given.decision, "decision")
    _nonempty(given.rationale, "rationale")
    if assessment.materiality.is_material():
        _grounded(given)
    index = RecordIndex(loaded.records)
    reviewers = _reviewers(given, loaded, index)
    _every_answer_weighed(given, loaded, index)
    _disagreements_settled(given, loaded, index)
    if given.supersedes is not None:
        _supersedes_in_force(given, given.supersedes, loaded, index)
    else:
        in_force = index.conclusion_in_force(given.assessment)
        if in_force is not None:
            raise Refusal(
                f"{in_force.id} already concludes this assessment; "
                "a new conclusion names it in `supersedes`"
            )
    return StoredConclusion.of(given, reviewers)


def _grounded(given: ConclusionInput) -> None:
    """A conclusion on material uncertainty names its evidence and how it will be proven."""
    if not given.evidence:
        raise Refusal("a conclusion on material uncertainty rests on evidence: `evidence` is empty")
    if not given.validation_plan:
        raise Refusal(
            "a conclusion on material uncertainty says how it will be proven: "
            "`validation_plan` is empty"
        )


def _reviewers(given: ConclusionInput, loaded: Loaded, index: RecordIndex) -> list[str]:
    """The advisors of the cited consultations, in citation order; each answered this one."""
    reviewers: list[str] = []
    for cited in given.consultations:
        consultation = _kind_of(loaded, cited, "consultation")
        body: ConsultationInput = consultation.body  # type: ignore[assignment]
        if body.status is not ConsultationStatus.COMPLETED:
            raise Refusal(f"{cited} ended {body.status.value}, so no advice came from it to weigh")
        if index.assessment_of(consultation) != given.assessment:
            raise Refusal(f"{cited} was asked about another assessment")
        if body.advisor not in reviewers:
            reviewers.append(body.advisor)
    return reviewers


def _every_answer_weighed(given: ConclusionInput, loaded: Loaded, index: RecordIndex) -> None:
    """No completed consultation on the assessment is left out of the conclusion."""
    for other in loaded.records:
        if (
            _completed(other)
            and index.assessment_of(other) == given.assessment
            and other.id not in given.consultations
        ):
            raise Refusal(
                f"{other.id} (advisor '{other.body.advisor}') answered this assessment and "  # type: ignore[union-attr]
                "the conclusion does not weigh it; cite it, and reject it in `rejected` "
                "if it is wrong"
            )


def _disagreements_settled(given: ConclusionInput, loaded: Loaded, index: RecordIndex) -> None:
    """Cited disagreements exist; every disagreement on the assessment is resolved and cited."""
    for cited in given.disagreements:
        _kind_of(loaded, cited, "disagreement")
    for disagreement in index.disagreements.get(given.assessment, ()):
        if index.resolution_of(disagreement) is None:
            raise Refusal(
                f"disagreement {disagreement} is unresolved: settle it with evidence "
                "(a `resolution`), not by counting who agrees"
            )
        if disagreement not in given.disagreements:
            raise Refusal(
                f"disagreement {disagreement} bears on this assessment and the conclusion "
                "does not cite it"
            )


def _supersedes_in_force(
    given: ConclusionInput, supersedes: str, loaded: Loaded, index: RecordIndex
) -> None:
    """`supersedes` is a conclusion of the same assessment that nothing superseded yet."""
    earlier = _kind_of(loaded, supersedes, "conclusion")
    concluded = earlier.body.assessment  # type: ignore[union-attr]
    if concluded != given.assessment:
        raise Refusal(
            f"{supersedes} concludes assessment {concluded}, not {given.assessment}; "
            "a conclusion supersedes only a conclusion of its own assessment"
        )
    later = index.superseded_by.get(supersedes)
    if later is not None:
        raise Refusal(
            f"{supersedes} is already superseded by {later}; "
            "supersede the assessment's standing conclusion instead"
        )


def _validation(given: ValidationInput, loaded: Loaded) -> ReasoningBody:
    _kind_of(loaded, given.conclusion, "conclusion")
    _nonempty(given.check, "check")
    return given


def _attempt(given: AttemptInput, loaded: Loaded) -> ReasoningBody:
    if given.assessment is not None:
        _kind_of(loaded, given.assessment, "assessment")
    _nonempty(given.attempt, "attempt")
    _nonempty(given.observed_failure, "observed_failure")
    return given


_RULES: dict[type, Callable[[Any, Loaded], ReasoningBody]] = {
    AssessmentInput: _assessment,
    ConsultationInput: _consultation,
    DisagreementInput: _disagreement,
    ResolutionInput: _resolution,
    ConclusionInput: _conclusion,
    ValidationInput: _validation,
    AttemptInput: _attempt,
}


def admit(
    given: ReasoningInput, loaded: Loaded, admission: Admission | None = None
) -> ReasoningBody:
    """The body to store for `given`, or a `Refusal` naming the first rule it breaks."""
    if not isinstance(given, PlanInput):
        return _RULES[type(given)](given, loaded)
    if admission is None:
        raise TypeError("a plan is admitted against the mode and the advisors' states now")
    return _plan(given, loaded, admission)
