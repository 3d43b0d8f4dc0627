"""Where an assessment stands: derived from the records, never stored.

The precedence is the contract: an unresolved disagreement makes an assessment disputed
whatever else is recorded; otherwise its standing conclusion and that conclusion's
validations decide; without a conclusion a recorded plan makes it planned. Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from majordomus.ledger.loaded import Relations
from majordomus.projections.derived import DerivedEnum

if TYPE_CHECKING:
    from majordomus.ledger.record import ReasoningRecord


class AssessmentStanding(DerivedEnum):
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


def standing_of(relations: Relations, assessment_id: str) -> AssessmentStanding:
    """The standing of one assessment against every loaded record (in order)."""
    return standing_given(relations, assessment_id, relations.standing_conclusion(assessment_id))


def standing_given(
    relations: Relations, assessment_id: str, conclusion: ReasoningRecord | None
) -> AssessmentStanding:
    """`standing_of`, for a caller that has looked up the assessment's standing conclusion
    (`Relations.standing_conclusion`) already: a view reports it beside the standing."""
    if relations.unresolved_disagreement(assessment_id):
        return AssessmentStanding.DISPUTED
    if conclusion is not None:
        passed, failed = relations.validations(conclusion.id)
        if failed:
            return AssessmentStanding.VALIDATION_FAILED
        if passed:
            return AssessmentStanding.VALIDATED
        return AssessmentStanding.CONCLUDED
    if assessment_id in relations.planned:
        return AssessmentStanding.PLANNED
    return AssessmentStanding.OPEN
