"""The views of docs/ledger.md: one assessment, consultation, disagreement or conclusion as
the state reports it.

A view carries what a reader needs to take the work over; references (standing conclusion,
resolution, supersession, validations) are resolved against every loaded record through
`Relations`, whatever task they were recorded under. Pure.
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated

from pydantic.dataclasses import dataclass

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.policy import Materiality
from majordomus.ledger.loaded import Relations
from majordomus.ledger.record import (
    AssessmentInput,
    ConsultationInput,
    DisagreementInput,
    ReasoningRecord,
    ResolutionInput,
    Stance,
    StoredConclusion,
)
from majordomus.projections.derived import DERIVED, Derived, assembled
from majordomus.projections.standing import AssessmentStanding, standing_of
from majordomus.wire import OMIT


@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)
class AssessmentView(Derived):
    """One assessment: its subject, how much it matters, where it stands, what stays open."""

    id: str
    task: str
    subject: str
    materiality: Materiality
    standing: AssessmentStanding
    conclusion: Annotated[str | None, OMIT] = None
    questions: Annotated[list[str], OMIT] = field(default_factory=list)


@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)
class ConsultationView(Derived):
    """One consultation; a failed one shows its status and diagnostic where advice would be."""

    id: str
    plan: str
    advisor: str
    status: ConsultationStatus
    stance: Annotated[Stance | None, OMIT] = None
    conclusion: Annotated[str | None, OMIT] = None
    diagnostic: Annotated[str | None, OMIT] = None


@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)
class DisagreementView(Derived):
    """One disagreement, the question that decides it, and its resolution once recorded."""

    id: str
    assessment: str
    discriminating_question: str
    resolution: Annotated[str | None, OMIT] = None
    favours: Annotated[str | None, OMIT] = None


@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)
class ConclusionView(Derived):
    """One conclusion with its computed review, its validations and what superseded it."""

    id: str
    assessment: str
    decision: str
    reviewed_by: list[str]
    independent_review_count: int
    validations_passed: int
    validations_failed: int
    superseded_by: Annotated[str | None, OMIT] = None
    validation_plan: list[str]
    risks: Annotated[list[str], OMIT] = field(default_factory=list)


def assessment_view(record: ReasoningRecord, relations: Relations) -> AssessmentView:
    body = record.body
    assert isinstance(body, AssessmentInput)
    conclusion = relations.standing_conclusion(record.id)
    return assembled(
        AssessmentView,
        id=record.id,
        task=record.task,
        subject=body.subject,
        materiality=body.materiality,
        standing=standing_of(relations, record.id),
        conclusion=conclusion.id if conclusion is not None else None,
        questions=list(body.questions),
    )


def consultation_view(record: ReasoningRecord) -> ConsultationView:
    body = record.body
    assert isinstance(body, ConsultationInput)
    return assembled(
        ConsultationView,
        id=record.id,
        plan=body.plan,
        advisor=body.advisor,
        status=body.status,
        stance=body.stance,
        conclusion=body.conclusion,
        diagnostic=body.diagnostic,
    )


def disagreement_view(record: ReasoningRecord, relations: Relations) -> DisagreementView:
    body = record.body
    assert isinstance(body, DisagreementInput)
    resolution = relations.resolution_of(record.id)
    favours = None
    if resolution is not None:
        assert isinstance(resolution.body, ResolutionInput)
        favours = resolution.body.favours
    return assembled(
        DisagreementView,
        id=record.id,
        assessment=body.assessment,
        discriminating_question=body.discriminating_question,
        resolution=resolution.id if resolution is not None else None,
        favours=favours,
    )


def conclusion_view(record: ReasoningRecord, relations: Relations) -> ConclusionView:
    body = record.body
    assert isinstance(body, StoredConclusion)
    passed, failed = relations.validations(record.id)
    return assembled(
        ConclusionView,
        id=record.id,
        assessment=body.assessment,
        decision=body.decision,
        reviewed_by=list(body.reviewed_by),
        independent_review_count=body.independent_review_count,
        validations_passed=passed,
        validations_failed=failed,
        superseded_by=relations.superseded_by.get(record.id),
        validation_plan=list(body.validation_plan),
        risks=list(body.risks),
    )
