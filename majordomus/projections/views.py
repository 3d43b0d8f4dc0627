"""The views of docs/ledger.md and where an assessment stands; references resolve across every
loaded record. Pure. A view takes its record body's fields by name (`Wire` ignores the rest)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.policy import Materiality
from majordomus.ledger.loaded import RecordIndex
from majordomus.ledger.record import (
    AssessmentInput,
    DisagreementInput,
    ReasoningRecord,
    ResolutionInput,
    Stance,
    StoredConclusion,
)
from majordomus.wire import OMIT, Wire


class AssessmentStanding(StrEnum):
    """From open to validated; the report lists the first three as unresolved."""

    OPEN = "open"
    PLANNED = "planned"
    DISPUTED = "disputed"
    CONCLUDED = "concluded"
    VALIDATED = "validated"
    VALIDATION_FAILED = "validation_failed"

    @property
    def unresolved(self) -> bool:
        """Open, planned or disputed: work a reader must still pick up."""
        return self in _UNRESOLVED

    @property
    def variant(self) -> str:
        """The capitalised variant name the report prints (`Open`, `ValidationFailed`)."""
        return "".join(part.capitalize() for part in self.value.split("_"))


_UNRESOLVED = frozenset(
    {AssessmentStanding.OPEN, AssessmentStanding.PLANNED, AssessmentStanding.DISPUTED}
)


class AssessmentView(Wire):
    """One assessment: its subject, how much it matters, where it stands, what stays open."""

    id: str
    task: str
    subject: str
    materiality: Materiality
    standing: AssessmentStanding
    conclusion: Annotated[str | None, OMIT] = None
    questions: Annotated[list[str], OMIT] = Field(default_factory=list)


class ConsultationView(Wire):
    """One consultation; a failed one shows its status and diagnostic where advice would be."""

    id: str
    plan: str
    advisor: str
    status: ConsultationStatus
    stance: Annotated[Stance | None, OMIT] = None
    conclusion: Annotated[str | None, OMIT] = None
    diagnostic: Annotated[str | None, OMIT] = None


class DisagreementView(Wire):
    """One disagreement, the question that decides it, and its resolution once recorded."""

    id: str
    assessment: str
    discriminating_question: str
    resolution: Annotated[str | None, OMIT] = None
    favours: Annotated[str | None, OMIT] = None


class ConclusionView(Wire):
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
    risks: Annotated[list[str], OMIT] = Field(default_factory=list)


def assessment_view(
    record: ReasoningRecord, body: AssessmentInput, index: RecordIndex
) -> AssessmentView:
    """An assessment and where it stands: disputed while a disagreement on it is open, else
    as far as its conclusion in force and that conclusion's validations have taken it."""
    conclusion = index.conclusion_in_force(record.id)
    passed, failed = index.validations(conclusion.id) if conclusion is not None else (0, 0)
    if index.unresolved_disagreement(record.id):
        standing = AssessmentStanding.DISPUTED
    elif failed:
        standing = AssessmentStanding.VALIDATION_FAILED
    elif passed:
        standing = AssessmentStanding.VALIDATED
    elif conclusion is not None:
        standing = AssessmentStanding.CONCLUDED
    elif record.id in index.planned:
        standing = AssessmentStanding.PLANNED
    else:
        standing = AssessmentStanding.OPEN
    return AssessmentView(
        **dict(body),
        id=record.id,
        task=record.task,
        standing=standing,
        conclusion=conclusion.id if conclusion is not None else None,
    )


def disagreement_view(
    record: ReasoningRecord, body: DisagreementInput, index: RecordIndex
) -> DisagreementView:
    resolution = index.resolution_of(record.id)
    settled = resolution.body if resolution is not None else None
    assert settled is None or isinstance(settled, ResolutionInput)
    return DisagreementView(
        **dict(body),
        id=record.id,
        resolution=resolution.id if resolution is not None else None,
        favours=settled.favours if settled is not None else None,
    )


def conclusion_view(
    record: ReasoningRecord, body: StoredConclusion, index: RecordIndex
) -> ConclusionView:
    passed, failed = index.validations(record.id)
    return ConclusionView(
        **dict(body),
        id=record.id,
        validations_passed=passed,
        validations_failed=failed,
        superseded_by=index.superseded_by.get(record.id),
    )
