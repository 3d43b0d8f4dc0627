"""Records read back (`Loaded`), the one-pass index admission and replay share
(`RecordIndex`), and the consultation history the advisors' circuit breakers read
(`history`). "First" and "last" follow the order given. Pure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from majordomus.advisors.outcomes import ConsultationStatus, Outcome
from majordomus.clock import epoch_seconds
from majordomus.errors import InvalidInput
from majordomus.ledger.record import (
    CITING,
    AssessmentInput,
    ConsultationInput,
    DisagreementInput,
    ReasoningRecord,
    ResolutionInput,
    StoredConclusion,
    StoredPlan,
    ValidationInput,
    ValidationOutcome,
)


def cites(record: ReasoningRecord) -> list[str]:
    """The ids of the records this record names (`CITING`): what it answers, concludes or
    supersedes."""
    found: list[str] = []
    for name in CITING.get(record.kind, ()):
        value = getattr(record.body, name)
        if isinstance(value, list):
            found.extend(value)
        elif value is not None:
            found.append(value)
    return found


def by_citation(records: list[ReasoningRecord]) -> list[ReasoningRecord]:
    """The records in the order given, each moved after the records it cites (a clock that
    stepped back); a cycle of citations comes last. Linear."""
    ids = {r.id for r in records}
    out: list[ReasoningRecord] = []
    replayed: set[str] = set()
    waiting: dict[str, list[ReasoningRecord]] = {}
    for record in records:
        queue = [record]
        while queue:
            one = queue.pop()
            missing = [c for c in cites(one) if c in ids and c != one.id and c not in replayed]
            if missing:
                waiting.setdefault(missing[0], []).append(one)
                continue
            out.append(one)
            replayed.add(one.id)
            queue.extend(reversed(waiting.pop(one.id, [])))
    return out + [r for r in records if r.id not in replayed]


def subject_key(subject: str) -> str:
    """Whitespace collapsed and lower-cased: two subjects with one key are one question."""
    return " ".join(subject.split()).lower()


@dataclass(frozen=True, slots=True)
class Placed:
    """A readable record file at `<task>/<name>.json`, and the writer whose published ref
    holds it (empty for the local store)."""

    path: str
    record: ReasoningRecord
    origin: str = ""

    @property
    def folder(self) -> str:
        return self.path.split("/", 1)[0]

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def shown(self) -> str:
        """The path, after `<writer>:` for a published record (docs/team.md)."""
        return f"{self.origin}:{self.path}" if self.origin else self.path


@dataclass(frozen=True, slots=True)
class Collision:
    """One id held by several files: the one replayed, then the others, in canonical order."""

    id: str
    holders: list[Placed]


@dataclass(slots=True)
class Loaded:
    """Readable records, one per id (the first in canonical order), every readable file
    (`placed`, duplicates included) and the paths that did not parse."""

    records: list[ReasoningRecord] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    quarantined: list[str] = field(default_factory=list)

    def collisions(self) -> list[Collision]:
        """Every id more than one file holds, in the order its first holder is placed."""
        holders: dict[str, list[Placed]] = {}
        for entry in self.placed:
            holders.setdefault(entry.record.id, []).append(entry)
        return [Collision(ident, held) for ident, held in holders.items() if len(held) > 1]

    def get(self, record_id: str) -> ReasoningRecord | None:
        """The first record with this id."""
        return next((r for r in self.records if r.id == record_id), None)

    def full_id(self, text: str) -> str:
        """The id `text` stands for: itself, or the one id whose 6 hex digits are `text` or
        which starts with it; none leaves `text`, several are refused."""
        if not text or any(r.id == text for r in self.records):
            return text
        found = sorted(
            {r.id for r in self.records if _short(r.id) == text or r.id.startswith(text)}
        )
        if len(found) > 1:
            raise InvalidInput(f"'{text}' names more than one record: {', '.join(found)}")
        return found[0] if found else text

    def narrowed(self, keep: Callable[[ReasoningRecord], bool]) -> Loaded:
        """The records and files whose record `keep` accepts, in order; unreadable paths stay."""
        return Loaded(
            records=[r for r in self.records if keep(r)],
            unreadable=list(self.unreadable),
            placed=[p for p in self.placed if keep(p.record)],
            quarantined=list(self.quarantined),
        )


class RecordIndex:
    """Lookups over every given record, whatever its task, as they were when built."""

    def __init__(self, records: Sequence[ReasoningRecord]) -> None:
        self.by_id: dict[str, ReasoningRecord] = {}
        self.assessments: list[ReasoningRecord] = []
        self.superseded_by: dict[str, str] = {}
        self.resolutions: dict[str, list[ReasoningRecord]] = {}
        self.answers: dict[tuple[str, str], list[ReasoningRecord]] = {}
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
            self.resolutions.setdefault(body.disagreement, []).append(record)
        elif isinstance(body, ConsultationInput) and body.status is ConsultationStatus.COMPLETED:
            self.answers.setdefault((body.plan, body.advisor), []).append(record)
        elif isinstance(body, DisagreementInput):
            self.disagreements.setdefault(body.assessment, []).append(record.id)
        elif isinstance(body, StoredPlan):
            self.planned.add(body.assessment)
        elif isinstance(body, AssessmentInput):
            self.assessments.append(record)

    def get(self, record_id: str) -> ReasoningRecord | None:
        """The first record with this id."""
        return self.by_id.get(record_id)

    def conclusion_in_force(self, assessment_id: str) -> ReasoningRecord | None:
        """The last conclusion on the assessment whose id no conclusion supersedes."""
        for record in reversed(self.conclusions.get(assessment_id, ())):
            if record.id not in self.superseded_by:
                return record
        return None

    def resolution_of(self, disagreement_id: str) -> ReasoningRecord | None:
        """The first resolution that settles the disagreement."""
        settled = self.resolutions.get(disagreement_id)
        return settled[0] if settled else None

    def unresolved_disagreement(self, assessment_id: str) -> bool:
        """Whether some disagreement on the assessment has no resolution yet."""
        return any(d not in self.resolutions for d in self.disagreements.get(assessment_id, ()))

    def validations(self, conclusion_id: str) -> tuple[int, int]:
        """(passed, failed) over every validation naming the conclusion."""
        return self.passed.get(conclusion_id, 0), self.failed.get(conclusion_id, 0)

    def prior_on_subject(self, record: ReasoningRecord) -> ReasoningRecord | None:
        """The conclusion in force of another assessment (any task) on the same subject."""
        if not isinstance(record.body, AssessmentInput):
            return None
        key = subject_key(record.body.subject)
        for other in reversed(self.assessments):
            if other.id != record.id and subject_key(other.body.subject) == key:  # type: ignore[union-attr]
                in_force = self.conclusion_in_force(other.id)
                if in_force is not None:
                    return in_force
        return None

    def assessment_of(self, record: ReasoningRecord) -> str | None:
        """The assessment a record belongs to, following its citations (a cycle: None)."""
        seen: set[str] = set()
        current: ReasoningRecord | None = record
        while current is not None and current.id not in seen:
            seen.add(current.id)
            if isinstance(current.body, AssessmentInput):
                return current.id
            parent = CITING[current.kind][0]
            if parent == "assessment":
                return getattr(current.body, parent)
            current = self.get(getattr(current.body, parent))
        return None


def _short(record_id: str) -> str | None:
    """A record id's 6 hex digits: its third part (ids written before writer ids end there)."""
    parts = record_id.split("-")
    return parts[2] if len(parts) >= 3 else None


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
