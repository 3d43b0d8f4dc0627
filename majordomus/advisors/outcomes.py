"""How a consultation ended, as far as availability cares.

Pure value types. `ConsultationStatus` is the vocabulary the ledger records; it lives here
because the circuit breakers read it and the advisors never depend on the ledger. The
ledger replays its consultation records into `Outcome`s; nothing here reads records.
"""

from __future__ import annotations

from enum import StrEnum

from majordomus.values import Value


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


class Outcome(Value):
    """One recorded consultation outcome: which record, which advisor, how, and when.

    `at` is the epoch second of the record's `recorded_at`; `retry_after` comes from the
    consultation's `retry_after_seconds`. `status` accepts any enum or string carrying a
    consultation word, so a caller's own enum with the same words is converted here.
    A plain slotted class (equal when every field is): a replay builds one per
    consultation, and a dataclass costs every process's start about half a millisecond.
    """

    __slots__ = ("advisor", "at", "id", "retry_after", "status")
    COMPARED = ("id", "advisor", "status", "at", "retry_after")

    def __init__(
        self,
        id: str,
        advisor: str,
        status: ConsultationStatus | str,
        at: int,
        retry_after: int | None = None,
    ) -> None:
        self.id = id
        self.advisor = advisor
        self.status = ConsultationStatus(getattr(status, "value", status))
        self.at = at
        self.retry_after = retry_after
