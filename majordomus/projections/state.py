"""`derive` (the `ReasoningState` every surface reports), `render_markdown` (its report) and
`explain` (one record's chain). Also gathers the names the seeds import from
`reasoning::state`. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.ledger.loaded import Collision, Loaded, RecordIndex
from majordomus.ledger.record import (
    AssessmentInput,
    ConsultationInput,
    DisagreementInput,
    ReasoningRecord,
    StoredConclusion,
)
from majordomus.projections.timeline import ReasoningPhase, ReasoningStep, step_of
from majordomus.projections.timeline import one_line as ol
from majordomus.projections.views import (
    AssessmentStanding,
    AssessmentView,
    ConclusionView,
    ConsultationView,
    DisagreementView,
    assessment_view,
    conclusion_view,
    disagreement_view,
)
from majordomus.wire import OMIT, Wire

__all__ = [
    "ALL_TASKS",
    "LOCAL_REASONING",
    "AssessmentStanding",
    "AssessmentView",
    "ConclusionView",
    "ConsultationView",
    "DisagreementView",
    "ReasoningExplanation",
    "ReasoningPhase",
    "ReasoningState",
    "ReasoningStep",
    "ReasoningTotals",
    "derive",
    "explain",
    "render_markdown",
]

#: The task a state reports when it covers every task.
ALL_TASKS = "all"

#: What the report says for a conclusion nobody independent reviewed.
LOCAL_REASONING = "no independent advisor (local reasoning)"


class ReasoningTotals(Wire):
    """Counts over the records a state reports; every field is always written."""

    records: int = 0
    consultations_completed: int = 0
    consultations_failed: int = 0
    independent_reviewers: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class IdCollision(Wire):
    """One id several files hold: the one replayed and the ones that are not (a published
    file is named `<writer>:<task>/<id>.json`)."""

    id: str
    replayed: str
    not_replayed: list[str]


class ReasoningState(Wire):
    """Assessments, consultations, disagreements and conclusions of a task, the timeline of
    each of its records, totals, the store files that could not be read, and the ids of the
    task that several files hold."""

    task: str
    assessments: list[AssessmentView] = Field(default_factory=list)
    consultations: list[ConsultationView] = Field(default_factory=list)
    disagreements: list[DisagreementView] = Field(default_factory=list)
    conclusions: list[ConclusionView] = Field(default_factory=list)
    timeline: list[ReasoningStep] = Field(default_factory=list)
    totals: ReasoningTotals = Field(default_factory=ReasoningTotals)
    unreadable: Annotated[list[str], OMIT] = Field(default_factory=list)
    collisions: Annotated[list[IdCollision], OMIT] = Field(default_factory=list)


def derive(
    loaded: Loaded,
    task: str | None,
    index: RecordIndex | None = None,
    records: Sequence[ReasoningRecord] | None = None,
    collisions: Sequence[Collision] | None = None,
) -> ReasoningState:
    """The state of `task` (None: every task); a caller passes what it computed for all tasks."""
    if index is None:
        index = RecordIndex(loaded.records)
    state = ReasoningState(task=ALL_TASKS if task is None else task)
    asked: list[ConsultationInput] = []
    for record in loaded.records if records is None else records:
        if task is not None and record.task != task:
            continue
        state.timeline.append(step_of(record))
        body = record.body
        if isinstance(body, AssessmentInput):
            state.assessments.append(assessment_view(record, body, index))
        elif isinstance(body, ConsultationInput):
            state.consultations.append(ConsultationView(**dict(body), id=record.id))
            asked.append(body)
        elif isinstance(body, DisagreementInput):
            state.disagreements.append(disagreement_view(record, body, index))
        elif isinstance(body, StoredConclusion):
            state.conclusions.append(conclusion_view(record, body, index))
    completed = [body.advisor for body in asked if body.status is ConsultationStatus.COMPLETED]
    usage = [body.usage for body in asked if body.usage is not None]
    state.totals = ReasoningTotals(
        records=len(state.timeline),
        consultations_completed=len(completed),
        consultations_failed=len(asked) - len(completed),
        independent_reviewers=len(set(completed)),
        input_tokens=sum(u.input_tokens for u in usage),
        output_tokens=sum(u.output_tokens for u in usage),
    )
    state.unreadable = list(loaded.unreadable)
    state.collisions = [
        IdCollision(
            id=c.id, replayed=c.holders[0].shown, not_replayed=[h.shown for h in c.holders[1:]]
        )
        for c in (loaded.collisions() if collisions is None else collisions)
        if task is None or any(h.record.task == task for h in c.holders)
    ]
    return state


def render_markdown(state: ReasoningState) -> str:
    """The report as a bullet list (no headings, no tables, so it pastes under any heading)."""
    totals = state.totals
    if totals.records == 0 and not state.collisions:
        return ""
    rows = [
        f"Reasoning: {totals.records} record(s); {totals.consultations_completed} "
        f"consultation(s) completed, {totals.consultations_failed} failed; "
        f"{totals.independent_reviewers} independent reviewer(s)."
    ]
    for c in state.conclusions:
        if c.superseded_by is not None:
            continue
        reviewers = ", ".join(c.reviewed_by) if c.reviewed_by else LOCAL_REASONING
        rows.append(
            f"- Decision {c.id}: {ol(c.decision)} — reviewed by {reviewers}; "
            f"validation {c.validations_passed} passed, {c.validations_failed} failed."
        )
        rows.extend(f"  - risk: {ol(risk)}" for risk in c.risks)
    for a in state.assessments:
        if not a.standing.unresolved:
            continue
        rows.append(f"- Unresolved {a.id}: {ol(a.subject)} ({a.standing.variant})")
        rows.extend(f"  - open question: {ol(q)}" for q in a.questions)
    rows.extend(
        f"- Degradation: {c.advisor} {c.status.value} ({c.id})"
        for c in state.consultations
        if c.status is not ConsultationStatus.COMPLETED
    )
    rows.extend(
        f"- Collision: id {c.id} is held by {', '.join([c.replayed, *c.not_replayed])}; "
        f"only {c.replayed} is replayed"
        for c in state.collisions
    )
    return "".join(f"{row}\n" for row in rows)


class ReasoningExplanation(Wire):
    """The record, the assessment it belongs to, and that assessment's chain in time order."""

    record: ReasoningRecord
    assessment: Annotated[str | None, OMIT] = None
    chain: list[ReasoningStep]


def explain(loaded: Loaded, record_id: str) -> ReasoningExplanation | None:
    """`record_id`'s explanation (its assessment's all-task timeline); None when not loaded."""
    index = RecordIndex(loaded.records)
    record = index.get(record_id)
    if record is None:
        return None
    assessment = index.assessment_of(record)
    if assessment is None:
        chain = [step_of(r) for r in loaded.records if r is record]
    else:
        chain = [step_of(r) for r in loaded.records if index.assessment_of(r) == assessment]
    return ReasoningExplanation(record=record, assessment=assessment, chain=chain)
