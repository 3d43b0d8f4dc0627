"""The consultation history the circuit breakers read, replayed from
the same records as the state, so circuits open and close from the ledger alone.

A consultation whose `recorded_at` is not a time `epoch_seconds` reads is left out: it
cannot say when it happened. Pure.
"""

from __future__ import annotations

from majordomus.advisors.outcomes import Outcome
from majordomus.clock import epoch_seconds
from majordomus.ledger.loaded import Loaded, Relations
from majordomus.ledger.record import ConsultationInput


def history(loaded: Loaded, relations: Relations | None = None) -> list[Outcome]:
    """One outcome per consultation record, in record order.

    `relations`, when the caller indexed the same records already, lists the consultations:
    the records are then not walked a second time (at 10k records, milliseconds)."""
    consultations = (
        relations.consultations
        if relations is not None
        else [r for r in loaded.records if r.body.kind == "consultation"]
    )
    outcomes: list[Outcome] = []
    for record in consultations:
        body = record.body
        assert isinstance(body, ConsultationInput)
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
