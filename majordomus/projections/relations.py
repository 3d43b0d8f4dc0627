"""The relations between records, indexed once per replay (reasoning §6.5, §7.5, §8.2–8.3).

`Relations` answers the same questions as `Loaded`'s lookups (first record with an id, the
standing conclusion, the resolution of a disagreement, what a record belongs to) but builds
its tables in one pass, so deriving the state of a large store stays linear. "First" and
"last" keep the meaning they have over `loaded.records` in the order given. Following
references never loops: a chain that comes back to an id it already passed belongs to no
assessment (as in `Loaded.assessment_of`). Pure: no disk, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence

from majordomus.ledger.loaded import assessment_of
from majordomus.ledger.record import (
    DisagreementInput,
    ReasoningRecord,
    ResolutionInput,
    StoredConclusion,
    StoredPlan,
    ValidationInput,
    ValidationOutcome,
)


class Relations:
    """Lookups over every loaded record, whatever task it was recorded under."""

    def __init__(self, records: Sequence[ReasoningRecord]) -> None:
        self.by_id: dict[str, ReasoningRecord] = {}
        self.superseded_by: dict[str, str] = {}
        self.resolutions: dict[str, ReasoningRecord] = {}
        self.planned: set[str] = set()
        self.disagreements: dict[str, list[str]] = {}
        self.conclusions: dict[str, list[ReasoningRecord]] = {}
        self.passed: dict[str, int] = {}
        self.failed: dict[str, int] = {}
        for record in records:
            self.by_id.setdefault(record.id, record)
            self._index(record)

    def _index(self, record: ReasoningRecord) -> None:
        body = record.body
        if isinstance(body, StoredConclusion):
            self.conclusions.setdefault(body.assessment, []).append(record)
            if body.supersedes is not None:
                self.superseded_by.setdefault(body.supersedes, record.id)
        elif isinstance(body, ValidationInput):
            tally = self.passed if body.outcome is ValidationOutcome.PASS else self.failed
            tally[body.conclusion] = tally.get(body.conclusion, 0) + 1
        elif isinstance(body, ResolutionInput):
            self.resolutions.setdefault(body.disagreement, record)
        elif isinstance(body, DisagreementInput):
            self.disagreements.setdefault(body.assessment, []).append(record.id)
        elif isinstance(body, StoredPlan):
            self.planned.add(body.assessment)

    def get(self, record_id: str) -> ReasoningRecord | None:
        """The first record with this id."""
        return self.by_id.get(record_id)

    def standing_conclusion(self, assessment_id: str) -> ReasoningRecord | None:
        """The last conclusion on the assessment whose id no conclusion supersedes."""
        for record in reversed(self.conclusions.get(assessment_id, ())):
            if record.id not in self.superseded_by:
                return record
        return None

    def resolution_of(self, disagreement_id: str) -> ReasoningRecord | None:
        """The first resolution that settles the disagreement."""
        return self.resolutions.get(disagreement_id)

    def unresolved_disagreement(self, assessment_id: str) -> bool:
        """Whether some disagreement on the assessment has no resolution yet."""
        return any(d not in self.resolutions for d in self.disagreements.get(assessment_id, ()))

    def validations(self, conclusion_id: str) -> tuple[int, int]:
        """(passed, failed) over every validation naming the conclusion."""
        return self.passed.get(conclusion_id, 0), self.failed.get(conclusion_id, 0)

    def assessment_of(self, record: ReasoningRecord) -> str | None:
        """The assessment a record belongs to (§6.5), as the ledger follows it."""
        return assessment_of(record, self.get)
