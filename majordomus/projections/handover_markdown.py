"""The handover as Markdown: a `# Task` heading per task, a `##` heading per section, then the
plain report unchanged under `# Reasoning`.

Free text from the records is written on one line with its whitespace collapsed, after a
list marker or a label, so nothing a record holds can open a heading, a list or a code
fence of its own. The chain is a fenced `mermaid` block, which GitHub renders as a graph.
Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from majordomus.projections.report import LOCAL_REASONING

if TYPE_CHECKING:
    from majordomus.projections.handover import Handover, TaskHandover

HEADINGS = {
    "state": "State",
    "decisions": "Decisions",
    "failed_attempts": "Failed attempts",
    "open_items": "Open items",
    "next_actions": "Next actions",
    "local_review": "Local review",
    "chain": "Chain",
    "reasoning": "Reasoning",
}

#: How the command that chooses the current task is named to the reader.
SET_TASK_HINT = "`majordomus reasoning task set NAME` chooses one"

NONE_RECORDED = "None recorded."


def flat(text: str) -> str:
    """Free text on one line, whitespace collapsed: nothing in it can start a Markdown block."""
    return " ".join(text.split())


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


def _state(task: TaskHandover) -> list[str]:
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


def _decisions(task: TaskHandover) -> list[str]:
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


def _attempts(task: TaskHandover) -> list[str]:
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


def _open_items(task: TaskHandover) -> list[str]:
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


def _next_actions(task: TaskHandover) -> list[str]:
    return [f"{n}. {flat(a.text)}" for n, a in enumerate(task.next_actions, 1)]


def _local_review(task: TaskHandover) -> list[str]:
    rows = []
    for review in task.local_review:
        rows.append(f"- Plan {flat(review.plan)} for {flat(review.assessment)}:")
        rows.extend(f"  - {flat(step)}" for step in review.steps)
    return rows


def _chain(task: TaskHandover) -> list[str]:
    if not task.graph:
        return []
    rows = ["```mermaid", *task.graph.rstrip("\n").split("\n"), "```"]
    if task.graph_omitted:
        rows.append("")
        rows.append(f"The graph shows the most recent records; {task.graph_omitted} earlier ones")
        rows[-1] += " are left out (`majordomus reasoning status` lists every step)."
    return rows


_SECTIONS = {
    "state": _state,
    "decisions": _decisions,
    "failed_attempts": _attempts,
    "open_items": _open_items,
    "next_actions": _next_actions,
    "local_review": _local_review,
    "chain": _chain,
}


def _task(task: TaskHandover) -> list[str]:
    rows = [f"# Task {flat(task.task)}"]
    for section, render in _SECTIONS.items():
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
