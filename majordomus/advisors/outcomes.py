"""How a consultation ended, as far as availability cares. Pure value types.

`ConsultationStatus` lives here so the advisors never depend on the ledger."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ConsultationStatus(StrEnum):
    """Only `completed` carries advice; every other word is a degradation."""

    COMPLETED = "completed"
    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"
    AUTH_FAILED = "auth_failed"
    MALFORMED = "malformed"
    EMPTY = "empty"
    UNAVAILABLE = "unavailable"
    CANCELLED = "cancelled"
    ERROR = "error"

    def is_transient(self) -> bool:
        """Failures that may pass by themselves; two in a row open a circuit."""
        return self in _TRANSIENT


_TRANSIENT = frozenset(
    {ConsultationStatus.TIMEOUT, ConsultationStatus.UNAVAILABLE, ConsultationStatus.ERROR}
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One recorded consultation outcome; `at` is the epoch second of its `recorded_at`."""

    id: str
    advisor: str
    status: ConsultationStatus
    at: int
    retry_after: int | None = None
