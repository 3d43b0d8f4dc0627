"""Totals over the reported records (reasoning §8.3): counts, reviewers and reported tokens.

Independent reviewers are distinct advisors with at least one completed consultation, however
often each was asked. Tokens are summed only from what adapters reported; a missing usage
adds nothing and nothing is ever estimated. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.ledger.record import ConsultationInput, ReasoningRecord
from majordomus.wire import Wire


class ReasoningTotals(Wire):
    """Counts over the records a state reports; every field is always written."""

    records: int = 0
    consultations_completed: int = 0
    consultations_failed: int = 0
    independent_reviewers: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


def totals_of(records: Iterable[ReasoningRecord]) -> ReasoningTotals:
    """Count records and consultations, distinct reviewers, and the reported token sums."""
    totals = ReasoningTotals()
    reviewers: set[str] = set()
    for record in records:
        totals.records += 1
        body = record.body
        if not isinstance(body, ConsultationInput):
            continue
        if body.status is ConsultationStatus.COMPLETED:
            totals.consultations_completed += 1
            reviewers.add(body.advisor)
        else:
            totals.consultations_failed += 1
        if body.usage is not None:
            totals.input_tokens += body.usage.input_tokens
            totals.output_tokens += body.usage.output_tokens
    totals.independent_reviewers = len(reviewers)
    return totals
