"""Records read back, and the lookups over them (reasoning §6.5, §7.2, §7.5).

`Loaded` is what the store's `load()` returns and what admission, state derivation,
`explain` and `check` take. The lookups iterate `records` in the order given (only `load()`
sorts). Pure: no disk, no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from majordomus.ledger.record import (
    AssessmentInput,
    ConsultationInput,
    ReasoningRecord,
    ResolutionInput,
    StoredConclusion,
    ValidationInput,
)


def subject_key(subject: str) -> str:
    """Whitespace collapsed and lower-cased: two subjects with one key are one question."""
    return " ".join(subject.split()).lower()


@dataclass
class Loaded:
    """Readable records (canonical order when loaded) and the store paths that did not parse."""

    records: list[ReasoningRecord] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    def get(self, record_id: str) -> ReasoningRecord | None:
        """The first record with this id."""
        return next((r for r in self.records if r.id == record_id), None)

    def assessment_of(self, record: ReasoningRecord) -> str | None:
        """The assessment a record belongs to, following plan / disagreement / conclusion."""
        return assessment_of(record, self.get)

    def standing_conclusion(self, assessment_id: str) -> ReasoningRecord | None:
        """The latest conclusion on the assessment that no conclusion supersedes."""
        superseded = {
            r.body.supersedes
            for r in self.records
            if isinstance(r.body, StoredConclusion) and r.body.supersedes is not None
        }
        for r in reversed(self.records):
            body = r.body
            if (
                isinstance(body, StoredConclusion)
                and body.assessment == assessment_id
                and r.id not in superseded
            ):
                return r
        return None

    def resolution_of(self, disagreement_id: str) -> ReasoningRecord | None:
        """The first resolution that settles the disagreement."""
        return next(
            (
                r
                for r in self.records
                if isinstance(r.body, ResolutionInput) and r.body.disagreement == disagreement_id
            ),
            None,
        )

    def prior_on_subject(self, record: ReasoningRecord) -> ReasoningRecord | None:
        """A standing conclusion of another assessment (any task) on the same subject."""
        if not isinstance(record.body, AssessmentInput):
            return None
        key = subject_key(record.body.subject)
        for r in reversed(self.records):
            if (
                r.id != record.id
                and isinstance(r.body, AssessmentInput)
                and subject_key(r.body.subject) == key
            ):
                standing = self.standing_conclusion(r.id)
                if standing is not None:
                    return standing
        return None


def assessment_of(
    record: ReasoningRecord, get: Callable[[str], ReasoningRecord | None]
) -> str | None:
    """The assessment a record belongs to (§6.5), following plan / disagreement / conclusion.

    A hand-edited store may make references run in a circle; such a chain belongs to no
    assessment rather than looping.
    """
    seen: set[str] = set()
    current: ReasoningRecord | None = record
    while current is not None and current.id not in seen:
        seen.add(current.id)
        body = current.body
        if isinstance(body, AssessmentInput):
            return current.id
        if isinstance(body, ConsultationInput):
            current = get(body.plan)
        elif isinstance(body, ResolutionInput):
            current = get(body.disagreement)
        elif isinstance(body, ValidationInput):
            current = get(body.conclusion)
        else:
            return getattr(body, "assessment", None)
    return None
