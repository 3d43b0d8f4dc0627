"""The views of docs/ledger.md: one assessment, consultation, disagreement or conclusion as
the state reports it.

A view carries what a reader needs to take the work over; references (standing conclusion,
resolution, supersession, validations) are resolved against every loaded record through
`Relations`, whatever task they were recorded under. Each view is made from the record and
its body, which the replay has read already: an attribute read of a record takes a pydantic
model's slow path, a few hundred instructions, thousands of times in a replay. Pure.
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
    ReasoningBody,
    ReasoningRecord,
    ResolutionInput,
    Stance,
    StoredConclusion,
)
from majordomus.projections.derived import DERIVED, OMIT_EMPTY, OMIT_NONE, Derived, assembler
from majordomus.projections.standing import AssessmentStanding, standing_given


@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)
class AssessmentView(Derived):
    """One assessment: its subject, how much it matters, where it stands, what stays open."""

    id: str
    task: str
    subject: str
    materiality: Materiality
    standing: AssessmentStanding
    conclusion: Annotated[str | None, OMIT_NONE] = None
    questions: Annotated[list[str], OMIT_EMPTY] = field(default_factory=list)


@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)
class ConsultationView(Derived):
    """One consultation; a failed one shows its status and diagnostic where advice would be."""

    id: str
    plan: str
    advisor: str
    status: ConsultationStatus
    stance: Annotated[Stance | None, OMIT_NONE] = None
    conclusion: Annotated[str | None, OMIT_NONE] = None
    diagnostic: Annotated[str | None, OMIT_NONE] = None


@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)
class DisagreementView(Derived):
    """One disagreement, the question that decides it, and its resolution once recorded."""

    id: str
    assessment: str
    discriminating_question: str
    resolution: Annotated[str | None, OMIT_NONE] = None
    favours: Annotated[str | None, OMIT_NONE] = None


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
    superseded_by: Annotated[str | None, OMIT_NONE] = None
    validation_plan: list[str]
    risks: Annotated[list[str], OMIT_EMPTY] = field(default_factory=list)


_assessment = assembler(AssessmentView)
_consultation = assembler(ConsultationView)
_disagreement = assembler(DisagreementView)
_conclusion = assembler(ConclusionView)


def assessment_view(
    record: ReasoningRecord, body: ReasoningBody, relations: Relations
) -> AssessmentView:
    assert isinstance(body, AssessmentInput)
    record_id = record.id
    conclusion = relations.standing_conclusion(record_id)
    return _assessment(
        record_id,
        record.task,
        body.subject,
        body.materiality,
        standing_given(relations, record_id, conclusion),
        conclusion.id if conclusion is not None else None,
        list(body.questions),
    )


def consultation_view(record: ReasoningRecord, body: ReasoningBody) -> ConsultationView:
    assert isinstance(body, ConsultationInput)
    return _consultation(
        record.id,
        body.plan,
        body.advisor,
        body.status,
        body.stance,
        body.conclusion,
        body.diagnostic,
    )


def disagreement_view(
    record: ReasoningRecord, body: ReasoningBody, relations: Relations
) -> DisagreementView:
    assert isinstance(body, DisagreementInput)
    record_id = record.id
    resolution = relations.resolution_of(record_id)
    if resolution is None:
        return _disagreement(record_id, body.assessment, body.discriminating_question, None, None)
    settled = resolution.body
    assert isinstance(settled, ResolutionInput)
    return _disagreement(
        record_id,
        body.assessment,
        body.discriminating_question,
        resolution.id,
        settled.favours,
    )


def conclusion_view(
    record: ReasoningRecord, body: ReasoningBody, relations: Relations
) -> ConclusionView:
    assert isinstance(body, StoredConclusion)
    record_id = record.id
    passed, failed = relations.validations(record_id)
    return _conclusion(
        record_id,
        body.assessment,
        body.decision,
        list(body.reviewed_by),
        body.independent_review_count,
        passed,
        failed,
        relations.superseded_by.get(record_id),
        list(body.validation_plan),
        list(body.risks),
    )
