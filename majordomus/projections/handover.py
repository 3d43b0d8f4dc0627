"""The handover (docs/ledger.md, "The handover"), as data and as Markdown. Pure.

Free text is written with `flat`, so nothing a record holds opens a Markdown block. The chain
of a task's records is a Mermaid flowchart that renders on GitHub: large tasks show their most
recent records only. Long on purpose: the sections as data and as Markdown are read together."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from majordomus.advisors.policy import Materiality, ReasoningConfidence
from majordomus.ledger.loaded import Collision, Loaded, RecordIndex, cites
from majordomus.ledger.record import (
    AssessmentInput,
    AttemptInput,
    ReasoningRecord,
    StoredConclusion,
    StoredPlan,
    ValidationInput,
    ValidationOutcome,
)
from majordomus.order import natural_key
from majordomus.projections.state import LOCAL_REASONING, ReasoningState, derive, render_markdown
from majordomus.projections.timeline import one_line
from majordomus.projections.views import AssessmentStanding
from majordomus.redaction.redactor import redact_secrets
from majordomus.wire import OMIT, Wire

#: At most this many records are drawn (the most recent ones): GitHub refuses larger graphs.
MAX_GRAPH_RECORDS = 100

#: Characters of a label's summary.
LABEL_LIMIT = 60

#: Mermaid entity codes for what would end a label, open HTML or close the code fence.
_ESCAPES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "`": "#96;"}
_PLAIN = frozenset(_ESCAPES)


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


def flat(text: str) -> str:
    """Free text on one line, whitespace collapsed: nothing in it can start a Markdown block."""
    # redacted before the line breaks go, which would hide a secret split across lines from
    # the redactor (docs/RELIABILITY.md); egress redacts a printable one-line text on the way out
    return " ".join((text if text.isprintable() else redact_secrets(text)).split())


def _decisions(state: ReasoningState, index: RecordIndex) -> list[HandoverDecision]:
    out = []
    for view in state.conclusions:
        record = index.get(view.id)
        if record is None or not isinstance(record.body, StoredConclusion):
            continue
        assessment = index.get(record.body.assessment)
        question = (
            assessment.body.subject
            if assessment is not None and isinstance(assessment.body, AssessmentInput)
            else None
        )
        out.append(
            HandoverDecision.model_validate(
                {**dict(record.body), **dict(view), "question": question}
            )
        )
    return out


def _open_items(state: ReasoningState, index: RecordIndex) -> list[OpenItem]:
    out = []
    for view in state.assessments:
        record = index.get(view.id)
        body = record.body if record is not None else None
        if view.standing.unresolved and isinstance(body, AssessmentInput):
            out.append(OpenItem.model_validate({**dict(body), **dict(view)}))
    return out


def _next_actions(
    state: ReasoningState, items: list[OpenItem], decisions: list[HandoverDecision]
) -> list[NextAction]:
    """Open items first (record order), then every decision in force not yet validated."""
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


# -- the sections as Markdown --------------------------------------------------------------------

#: How the command that chooses the current task is named to the reader.
SET_TASK_HINT = "`majordomus reasoning task set NAME` chooses one"

NONE_RECORDED = "None recorded."


def tasks_line(handover: Handover) -> str:
    """The tasks that have records, with their counts, as one phrase."""
    if not handover.tasks_with_records:
        return "no task has records yet"
    named = ", ".join(f"{flat(t.task)} ({t.records})" for t in handover.tasks_with_records)
    return f"tasks with records: {named}"


def _notice(handover: Handover) -> list[str]:
    """Why a reader may be looking at the wrong task, and which tasks have records."""
    if not handover.current_task_set:
        return [f"No current task is set ({SET_TASK_HINT}); {tasks_line(handover)}.", ""]
    if handover.task != "all" and not any(t.state.records for t in handover.tasks):
        return [f"Task {flat(handover.task)} has no records; {tasks_line(handover)}.", ""]
    return []


def _state_rows(task: TaskHandover) -> list[str]:
    state = task.state
    rows = [f"- Records: {state.records}"]
    if state.first_record_at and state.last_record_at:
        rows.append(f"- First record: {flat(state.first_record_at)}")
        rows.append(f"- Last record: {flat(state.last_record_at)}")
    rows.append(f"- Branch: {flat(state.branch) if state.branch else 'none (detached or no git)'}")
    rows.append(f"- HEAD: {flat(state.head) if state.head else 'none'}")
    if state.recorded_head and state.recorded_head != state.head:
        rows.append(f"- HEAD at the last record: {flat(state.recorded_head)}")
    return rows


def _decision_rows(task: TaskHandover) -> list[str]:
    rows: list[str] = []
    for d in task.decisions:
        review = (
            f"reviewed by {', '.join(flat(r) for r in d.reviewed_by)} "
            f"({d.independent_review_count} independent review(s))"
            if d.reviewed_by
            else LOCAL_REASONING
        )
        if rows:
            rows.append("")
        rows.append(f"### Decision {flat(d.id)}")
        rows.append("")
        question = flat(d.assessment)
        if d.question:
            question = f"{flat(d.question)} ({question})"
        rows.append(f"- Question: {question}")
        rows.append(f"- Decision: {flat(d.decision)}")
        rows.append(f"- Rationale: {flat(d.rationale)}")
        rows.append(
            f"- Review: {review}; validation {d.validations_passed} passed, "
            f"{d.validations_failed} failed; confidence {d.confidence.value}"
        )
        rows.extend(f"- Rejected: {flat(item)}" for item in d.rejected)
        rows.extend(f"- Risk: {flat(item)}" for item in d.risks)
        rows.extend(f"- Validation plan: {flat(item)}" for item in d.validation_plan)
        if d.superseded_by:
            rows.append(f"- Superseded by {flat(d.superseded_by)}")
    return rows


def _attempt_rows(task: TaskHandover) -> list[str]:
    rows = []
    for a in task.failed_attempts:
        about = f" ({flat(a.assessment)})" if a.assessment else ""
        rows.append(f"- {flat(a.attempt)} ({flat(a.id)}){about}")
        rows.append(f"  - observed: {flat(a.observed_failure)}")
        if a.assumption_invalidated:
            rows.append(f"  - assumption invalidated: {flat(a.assumption_invalidated)}")
        if a.updated_hypothesis:
            rows.append(f"  - updated hypothesis: {flat(a.updated_hypothesis)}")
    return rows


def _open_item_rows(task: TaskHandover) -> list[str]:
    rows = []
    for item in task.open_items:
        rows.append(
            f"- {flat(item.id)}: {flat(item.subject)} (materiality {item.materiality.value}, "
            f"confidence {item.confidence.value}, {item.standing.value})"
        )
        if item.hypothesis:
            rows.append(f"  - hypothesis: {flat(item.hypothesis)}")
        rows.extend(f"  - open question: {flat(q)}" for q in item.questions)
    return rows


def _next_action_rows(task: TaskHandover) -> list[str]:
    return [f"{n}. {flat(a.text)}" for n, a in enumerate(task.next_actions, 1)]


def _local_review_rows(task: TaskHandover) -> list[str]:
    rows = []
    for review in task.local_review:
        rows.append(f"- Plan {flat(review.plan)} for {flat(review.assessment)}:")
        rows.extend(f"  - {flat(step)}" for step in review.steps)
    return rows


def _label_text(text: str) -> str:
    # redacted before it is cut and escaped, which would hide a secret from the egress filter;
    # a short printable label is neither, and the filter sees it whole
    if len(text) > LABEL_LIMIT or not text.isprintable() or not _PLAIN.isdisjoint(text):
        text = redact_secrets(text)
    text = one_line(text)
    if len(text) > LABEL_LIMIT:
        text = text[: LABEL_LIMIT - 1] + "…"
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _sources(record: ReasoningRecord) -> list[str]:
    """The ids of the records this record answers: what it cites, but a conclusion that cites
    consultations or disagreements answers those and not its assessment."""
    found = cites(record)
    body = record.body
    if isinstance(body, StoredConclusion) and (body.consultations or body.disagreements):
        return found[1:]
    return found


def chain_graph(records: Sequence[ReasoningRecord], summaries: dict[str, str]) -> str:
    """The flowchart (without its fence) of `records`, labelled by `summaries`; "" for none."""
    shown = list(records)[-MAX_GRAPH_RECORDS:]
    if not shown:
        return ""
    node = {record.id: f"r{position}" for position, record in enumerate(shown, 1)}
    rows = ["flowchart TD"]
    for record in shown:
        label = _label_text(f"{record.kind}: {summaries.get(record.id, record.id)}")
        rows.append(f'  {node[record.id]}["{label}"]')
    for record in shown:
        for source in dict.fromkeys(_sources(record)):
            if source in node:
                rows.append(f"  {node[source]} --> {node[record.id]}")
    failed = [
        node[r.id]
        for r in shown
        if isinstance(r.body, AttemptInput)
        or (isinstance(r.body, ValidationInput) and r.body.outcome is ValidationOutcome.FAIL)
    ]
    if failed:
        rows.append("  classDef failed stroke:#c00,stroke-width:2px")
        rows.append(f"  class {','.join(failed)} failed")
    return "".join(f"{row}\n" for row in rows)


def _chain_rows(task: TaskHandover) -> list[str]:
    if not task.graph:
        return []
    rows = ["```mermaid", *task.graph.rstrip("\n").split("\n"), "```"]
    if task.graph_omitted:
        rows.append("")
        rows.append(f"The graph shows the most recent records; {task.graph_omitted} earlier ones")
        rows[-1] += " are left out (`majordomus reasoning status` lists every step)."
    return rows


_SECTION_ROWS = {
    "state": _state_rows,
    "decisions": _decision_rows,
    "failed_attempts": _attempt_rows,
    "open_items": _open_item_rows,
    "next_actions": _next_action_rows,
    "local_review": _local_review_rows,
    "chain": _chain_rows,
}

#: Every section a handover gives, in order: each task's (the policy `init` writes requires
#: these), then the report.
SECTIONS = (*_SECTION_ROWS, "reasoning")

#: Each section's heading: its name in words (`failed_attempts`: `Failed attempts`).
HEADINGS = {section: section.replace("_", " ").capitalize() for section in SECTIONS}


def _task(task: TaskHandover) -> list[str]:
    rows = [f"# Task {flat(task.task)}"]
    for section, render in _SECTION_ROWS.items():
        rows.extend(["", f"## {HEADINGS[section]}", ""])
        rows.extend(render(task) or [NONE_RECORDED])
    return rows


def render_handover(handover: Handover) -> str:
    """The whole handover; its `# Reasoning` section is the report exactly as given."""
    rows = _notice(handover)
    for task in handover.tasks:
        rows.extend([*_task(task), ""])
    if handover.unreadable:
        rows.append(
            f"{len(handover.unreadable)} store file(s) could not be read; "
            "`majordomus reasoning check` lists them."
        )
        rows.append("")
    rows.extend([f"# {HEADINGS['reasoning']}", ""])
    text = "".join(f"{row}\n" for row in rows)
    return text + (handover.report or f"{NONE_RECORDED}\n")


def task_handover(
    loaded: Loaded,
    task: str,
    position: GitPosition,
    index: RecordIndex,
    records: list[ReasoningRecord],
    collisions: list[Collision],
) -> TaskHandover:
    """One task's sections; `index` and `collisions` are found once for all tasks."""
    state = derive(loaded, task, index, records, collisions)
    decisions = _decisions(state, index)
    items = _open_items(state, index)
    return TaskHandover(
        task=task,
        state=HandoverState(
            **dict(position),
            records=len(records),
            first_record_at=records[0].recorded_at if records else None,
            last_record_at=records[-1].recorded_at if records else None,
            recorded_head=records[-1].head if records else None,
        ),
        decisions=decisions,
        failed_attempts=[
            FailedAttempt(**dict(r.body), id=r.id)
            for r in records
            if isinstance(r.body, AttemptInput)
        ],
        open_items=items,
        next_actions=_next_actions(state, items, decisions),
        local_review=[
            LocalReview(
                plan=r.id, assessment=r.body.assessment, steps=list(r.body.plan.local_review)
            )
            for r in records
            if isinstance(r.body, StoredPlan) and r.body.plan.local_review
        ],
        graph=chain_graph(records, {step.id: step.summary for step in state.timeline}),
        graph_omitted=max(0, len(records) - MAX_GRAPH_RECORDS),
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
    index = RecordIndex(loaded.records)
    by_task: dict[str, list[ReasoningRecord]] = {name: [] for name in names}
    for record in loaded.records:
        if record.task in by_task:
            by_task[record.task].append(record)
    collisions = loaded.collisions()
    report = render_markdown(derive(loaded, task, index, None, collisions))
    result = Handover(
        task="all" if task is None else task,
        current_task_set=current_task_set,
        sections=list(SECTIONS),
        tasks=[
            task_handover(loaded, name, position, index, by_task[name], collisions)
            for name in names
        ],
        tasks_with_records=with_records,
        unreadable=list(loaded.unreadable),
        report=report,
        markdown="",
    )
    result.markdown = render_handover(result)
    return result
