"""Where an assessment stands, derived from the records (docs/ledger.md). Pure."""

from __future__ import annotations

from enum import StrEnum

from majordomus.ledger.loaded import RecordIndex
from majordomus.ledger.record import ReasoningRecord


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


def standing_of(
    index: RecordIndex, assessment_id: str, conclusion: ReasoningRecord | None
) -> AssessmentStanding:
    """The standing of one assessment; `conclusion` is its conclusion in force."""
    if index.unresolved_disagreement(assessment_id):
        return AssessmentStanding.DISPUTED
    if conclusion is not None:
        passed, failed = index.validations(conclusion.id)
        if failed:
            return AssessmentStanding.VALIDATION_FAILED
        if passed:
            return AssessmentStanding.VALIDATED
        return AssessmentStanding.CONCLUDED
    if assessment_id in index.planned:
        return AssessmentStanding.PLANNED
    return AssessmentStanding.OPEN
