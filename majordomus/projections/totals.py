"""Totals over the reported records: counts, reviewers and reported (never estimated) tokens."""

from __future__ import annotations

from collections.abc import Iterable

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.ledger.record import ConsultationInput
from majordomus.wire import Wire


class ReasoningTotals(Wire):
    """Counts over the records a state reports; every field is always written."""

    records: int = 0
    consultations_completed: int = 0
    consultations_failed: int = 0
    independent_reviewers: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


def totals_over(count: int, consultations: Iterable[ConsultationInput]) -> ReasoningTotals:
    """The totals of `count` records whose consultations are `consultations`."""
    completed = failed = input_tokens = output_tokens = 0
    reviewers: set[str] = set()
    for body in consultations:
        if body.status is ConsultationStatus.COMPLETED:
            completed += 1
            reviewers.add(body.advisor)
        else:
            failed += 1
        if body.usage is not None:
            input_tokens += body.usage.input_tokens
            output_tokens += body.usage.output_tokens
    return ReasoningTotals(
        records=count,
        consultations_completed=completed,
        consultations_failed=failed,
        independent_reviewers=len(reviewers),
        input_tokens=input_tokens,
        output_tokens=output_tokens,
    )
