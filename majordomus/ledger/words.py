"""The closed vocabularies of reasoning records (reasoning §6.3): enum members valued by wire word.

A leaf module: it imports nothing from the package, so `majordomus.advisors` can read a
`ConsultationStatus` from the history without importing the record models (which import
the advisors' plan and availability shapes).
"""

from __future__ import annotations

from enum import StrEnum


class ConsultationStatus(StrEnum):
    """How a consultation ended; only `completed` carries advice and counts as review."""

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
        """A failure that may pass by itself, so consecutive ones open an advisor's circuit."""
        return self in (
            ConsultationStatus.TIMEOUT,
            ConsultationStatus.UNAVAILABLE,
            ConsultationStatus.ERROR,
        )

    def as_str(self) -> str:
        return self.value


class Stance(StrEnum):
    """Where an answer stands against the executor's hypothesis: a label, never a vote."""

    SUPPORTS = "supports"
    OPPOSES = "opposes"
    ALTERNATIVE = "alternative"
    INCONCLUSIVE = "inconclusive"


class ValidationOutcome(StrEnum):
    PASS = "pass"
    FAIL = "fail"


class ReasoningEvidenceKind(StrEnum):
    """How a reader follows an evidence pointer; a prior external opinion is never a fact."""

    FILE = "file"
    TEST = "test"
    ADR = "adr"
    RULE = "rule"
    COMMIT = "commit"
    COMMAND = "command"
    RECORD = "record"
    DOCUMENT = "document"
    RUNTIME = "runtime"
    PRIOR_EXTERNAL_OPINION = "prior_external_opinion"


class RecordKind(StrEnum):
    """The record kinds; also the prefix of a minted id."""

    ASSESSMENT = "assessment"
    PLAN = "plan"
    CONSULTATION = "consultation"
    DISAGREEMENT = "disagreement"
    RESOLUTION = "resolution"
    CONCLUSION = "conclusion"
    VALIDATION = "validation"
    ATTEMPT = "attempt"
