"""The handover (docs/ledger.md, "The handover"): what the next session needs to take a task
over, derived from the records and the state they replay into.

Per task: its state (records, branch, HEAD, first and last record times), the decisions with
the question each answered, its rationale and review, the failed attempts with what was
observed, the open items with materiality, confidence and open questions, the next actions
those open items and unvalidated decisions call for, the local-review steps of its plans, and
the chain of its records as a Mermaid graph. The plain report of `reasoning status --report`
follows, unchanged, under a `# Reasoning` heading, so whatever reads that report reads it
here too. Pure: records and the git position in, the handover out.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from majordomus.advisors.policy import Materiality, ReasoningConfidence
from majordomus.ledger.loaded import Loaded, Relations
from majordomus.ledger.record import (
    AssessmentInput,
    AttemptInput,
    ReasoningRecord,
    StoredConclusion,
    StoredPlan,
)
from majordomus.order import natural_key
from majordomus.projections.chain_graph import chain_graph, omitted
from majordomus.projections.handover_markdown import flat, render_handover
from majordomus.projections.report import render_markdown
from majordomus.projections.standing import AssessmentStanding
from majordomus.projections.state import ReasoningState, derive
from majordomus.wire import OMIT, Wire

#: The sections of a task's handover, in order; the policy `init` writes requires these.
TASK_SECTIONS = (
    "state",
    "decisions",
    "failed_attempts",
    "open_items",
    "next_actions",
    "local_review",
    "chain",
)

#: Every section a handover gives: each task's, then the plain report.
SECTIONS = (*TASK_SECTIONS, "reasoning")


class GitPosition(Wire):
    """Where the checkout stands when the handover is written."""

    branch: Annotated[str | None, OMIT] = None
    head: Annotated[str | None, OMIT] = None


class HandoverState(Wire):
    """How much was recorded and when, and where the checkout stands."""

    records: int
    first_record_at: Annotated[str | None, OMIT] = None
    last_record_at: Annotated[str | None, OMIT] = None
    branch: Annotated[str | None, OMIT] = None
    head: Annotated[str | None, OMIT] = None
    recorded_head: Annotated[str | None, OMIT] = None


class HandoverDecision(Wire):
    """One conclusion with the question it answered, why, and who reviewed it."""

    id: str
    assessment: str
    question: Annotated[str | None, OMIT] = None
    decision: str
    rationale: str
    confidence: ReasoningConfidence
    reviewed_by: list[str] = Field(default_factory=list)
    independent_review_count: int = 0
    validations_passed: int = 0
    validations_failed: int = 0
    superseded_by: Annotated[str | None, OMIT] = None
    rejected: Annotated[list[str], OMIT] = Field(default_factory=list)
    risks: Annotated[list[str], OMIT] = Field(default_factory=list)
    validation_plan: Annotated[list[str], OMIT] = Field(default_factory=list)


class FailedAttempt(Wire):
    """Something tried that failed, what was observed, and what it changed."""

    id: str
    assessment: Annotated[str | None, OMIT] = None
    attempt: str
    observed_failure: str
    assumption_invalidated: Annotated[str | None, OMIT] = None
    updated_hypothesis: Annotated[str | None, OMIT] = None


class OpenItem(Wire):
    """An assessment still open, planned or disputed, and what it leaves open."""

    id: str
    subject: str
    materiality: Materiality
    confidence: ReasoningConfidence
    standing: AssessmentStanding
    hypothesis: Annotated[str | None, OMIT] = None
    questions: Annotated[list[str], OMIT] = Field(default_factory=list)


class NextActionKind(StrEnum):
    """What an open item or a decision asks of the next session."""

    PLAN = "plan"
    CONCLUDE = "conclude"
    RESOLVE = "resolve"
    VALIDATE = "validate"
    REVISIT = "revisit"


class NextAction(Wire):
    """One thing to do next, the record it is about, and the sentence saying it."""

    action: NextActionKind
    record: str
    text: str


class LocalReview(Wire):
    """The structured local review a plan asks for when no advisor is consulted."""

    plan: str
    assessment: str
    steps: list[str]


class TaskHandover(Wire):
    """One task's handover sections as data; `graph` is the Mermaid flowchart's text."""

    task: str
    state: HandoverState
    decisions: list[HandoverDecision] = Field(default_factory=list)
    failed_attempts: list[FailedAttempt] = Field(default_factory=list)
    open_items: list[OpenItem] = Field(default_factory=list)
    next_actions: list[NextAction] = Field(default_factory=list)
    local_review: list[LocalReview] = Field(default_factory=list)
    graph: str = ""
    graph_omitted: Annotated[int, OMIT] = 0


class TaskRecords(Wire):
    """A task that has records, and how many."""

    task: str
    records: int


class Handover(Wire):
    """The handover: every covered task's sections, the tasks that have records, the plain
    report of the same selection, and all of it as Markdown."""

    task: str
    current_task_set: bool
    sections: list[str]
    tasks: list[TaskHandover]
    tasks_with_records: list[TaskRecords]
    unreadable: Annotated[list[str], OMIT] = Field(default_factory=list)
    report: str
    markdown: str


def task_counts(records: list[ReasoningRecord]) -> list[TaskRecords]:
    """Every task that has records, with its count, in natural order of the names."""
    counts = Counter(r.task for r in records)
    return [
        TaskRecords(task=task, records=counts[task]) for task in sorted(counts, key=natural_key)
    ]


# -- the sections as data --------------------------------------------------------------------


def _state(records: list[ReasoningRecord], position: GitPosition) -> HandoverState:
    return HandoverState(
        records=len(records),
        first_record_at=records[0].recorded_at if records else None,
        last_record_at=records[-1].recorded_at if records else None,
        branch=position.branch,
        head=position.head,
        recorded_head=records[-1].head if records else None,
    )


def _decisions(state: ReasoningState, relations: Relations) -> list[HandoverDecision]:
    out = []
    for view in state.conclusions:
        record = relations.get(view.id)
        if record is None or not isinstance(record.body, StoredConclusion):
            continue
        body = record.body
        assessment = relations.get(body.assessment)
        question = (
            assessment.body.subject
            if assessment is not None and isinstance(assessment.body, AssessmentInput)
            else None
        )
        out.append(
            HandoverDecision(
                id=view.id,
                assessment=body.assessment,
                question=question,
                decision=body.decision,
                rationale=body.rationale,
                confidence=body.confidence,
                reviewed_by=list(view.reviewed_by),
                independent_review_count=view.independent_review_count,
                validations_passed=view.validations_passed,
                validations_failed=view.validations_failed,
                superseded_by=view.superseded_by,
                rejected=list(body.rejected),
                risks=list(body.risks),
                validation_plan=list(body.validation_plan),
            )
        )
    return out


def _attempts(records: list[ReasoningRecord]) -> list[FailedAttempt]:
    return [
        FailedAttempt(
            id=r.id,
            assessment=r.body.assessment,
            attempt=r.body.attempt,
            observed_failure=r.body.observed_failure,
            assumption_invalidated=r.body.assumption_invalidated,
            updated_hypothesis=r.body.updated_hypothesis,
        )
        for r in records
        if isinstance(r.body, AttemptInput)
    ]


def _open_items(state: ReasoningState, relations: Relations) -> list[OpenItem]:
    out = []
    for view in state.assessments:
        record = relations.get(view.id)
        if not view.standing.unresolved or record is None:
            continue
        if not isinstance(record.body, AssessmentInput):
            continue
        out.append(
            OpenItem(
                id=view.id,
                subject=view.subject,
                materiality=view.materiality,
                confidence=record.body.confidence,
                standing=view.standing,
                hypothesis=record.body.hypothesis,
                questions=list(view.questions),
            )
        )
    return out


def _next_actions(
    state: ReasoningState, items: list[OpenItem], decisions: list[HandoverDecision]
) -> list[NextAction]:
    """Open items first (record order), then every standing decision not yet validated."""
    actions = []
    for item in items:
        subject = flat(item.subject)
        if item.standing is AssessmentStanding.DISPUTED:
            questions = [
                flat(d.discriminating_question)
                for d in state.disagreements
                if d.assessment == item.id and d.resolution is None
            ]
            text = f"Resolve the disagreement on {item.id} ({subject})"
            if questions:
                text += f" by answering: {'; '.join(questions)}"
            actions.append(NextAction(action=NextActionKind.RESOLVE, record=item.id, text=text))
        elif item.standing is AssessmentStanding.PLANNED:
            text = f"Conclude {item.id} ({subject}) once the planned review is done"
            actions.append(NextAction(action=NextActionKind.CONCLUDE, record=item.id, text=text))
        else:
            text = f"Plan review of {item.id} ({subject}), or conclude it locally"
            actions.append(NextAction(action=NextActionKind.PLAN, record=item.id, text=text))
    for d in decisions:
        if d.superseded_by is not None:
            continue
        if d.validations_failed:
            text = (
                f"Revisit {d.id} ({flat(d.decision)}): a validation failed; fix what failed "
                "or supersede the decision"
            )
            actions.append(NextAction(action=NextActionKind.REVISIT, record=d.id, text=text))
        elif not d.validations_passed:
            text = f"Validate {d.id} ({flat(d.decision)})"
            if d.validation_plan:
                text += f": {'; '.join(flat(step) for step in d.validation_plan)}"
            actions.append(NextAction(action=NextActionKind.VALIDATE, record=d.id, text=text))
    return actions


def _local_review(records: list[ReasoningRecord]) -> list[LocalReview]:
    return [
        LocalReview(plan=r.id, assessment=r.body.assessment, steps=list(r.body.plan.local_review))
        for r in records
        if isinstance(r.body, StoredPlan) and r.body.plan.local_review
    ]


def task_handover(loaded: Loaded, task: str, position: GitPosition) -> TaskHandover:
    """One task's sections, replayed from every loaded record."""
    state = derive(loaded, task)
    records = [r for r in loaded.records if r.task == task]
    relations = Relations(loaded.records)
    decisions = _decisions(state, relations)
    items = _open_items(state, relations)
    return TaskHandover(
        task=task,
        state=_state(records, position),
        decisions=decisions,
        failed_attempts=_attempts(records),
        open_items=items,
        next_actions=_next_actions(state, items, decisions),
        local_review=_local_review(records),
        graph=chain_graph(records, {step.id: step.summary for step in state.timeline}),
        graph_omitted=omitted(records),
    )


def handover(
    loaded: Loaded,
    task: str | None,
    *,
    position: GitPosition | None = None,
    current_task_set: bool = True,
) -> Handover:
    """The handover of `task`, or of every task that has records when `task` is None."""
    position = position or GitPosition()
    with_records = task_counts(loaded.records)
    names = [t.task for t in with_records] if task is None else [task]
    report = render_markdown(derive(loaded, task))
    result = Handover(
        task="all" if task is None else task,
        current_task_set=current_task_set,
        sections=list(SECTIONS),
        tasks=[task_handover(loaded, name, position) for name in names],
        tasks_with_records=with_records,
        unreadable=list(loaded.unreadable),
        report=report,
        markdown="",
    )
    result.markdown = render_handover(result)
    return result


__all__ = [
    "SECTIONS",
    "TASK_SECTIONS",
    "GitPosition",
    "Handover",
    "TaskHandover",
    "TaskRecords",
    "handover",
    "task_counts",
]
