"""The consultation history the advisors' circuit breakers read, replayed from the records.
Pure."""

from __future__ import annotations

from majordomus.advisors.outcomes import Outcome
from majordomus.clock import epoch_seconds
from majordomus.ledger.loaded import Loaded
from majordomus.ledger.record import ConsultationInput


def history(loaded: Loaded) -> list[Outcome]:
    """One outcome per consultation with a readable `recorded_at`, in record order."""
    outcomes: list[Outcome] = []
    for record in loaded.records:
        body = record.body
        if not isinstance(body, ConsultationInput):
            continue
        at = epoch_seconds(record.recorded_at)
        if at is None:
            continue
        outcomes.append(
            Outcome(
                id=record.id,
                advisor=body.advisor,
                status=body.status,
                at=at,
                retry_after=body.retry_after_seconds,
            )
        )
    return outcomes
