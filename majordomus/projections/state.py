"""State derivation: `derive(loaded, task)` composes standing, views, timeline
and totals into the `ReasoningState` every surface reports.

Reported records are those of the task (every record when `task` is None), in the order of
`loaded.records`; references resolve against every loaded record whatever its task.
This module also gathers the names the seed examples import from `reasoning::state`.
Pure: records in, state out; the same input gives byte-identical JSON.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from majordomus.ledger.loaded import Loaded, Relations
from majordomus.ledger.record import ConsultationInput
from majordomus.projections.explain import ReasoningExplanation, explain
from majordomus.projections.report import render_markdown
from majordomus.projections.standing import AssessmentStanding
from majordomus.projections.timeline import ReasoningPhase, ReasoningStep, step_for
from majordomus.projections.totals import ReasoningTotals, totals_over
from majordomus.projections.views import (
    AssessmentView,
    ConclusionView,
    ConsultationView,
    DisagreementView,
    assessment_view,
    conclusion_view,
    consultation_view,
    disagreement_view,
)
from majordomus.wire import OMIT, Wire

__all__ = [
    "ALL_TASKS",
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


class ReasoningState(Wire):
    """Assessments, consultations, disagreements and conclusions of a task, the timeline of
    each of its records, totals, and the store files that could not be read."""

    task: str
    assessments: list[AssessmentView] = Field(default_factory=list)
    consultations: list[ConsultationView] = Field(default_factory=list)
    disagreements: list[DisagreementView] = Field(default_factory=list)
    conclusions: list[ConclusionView] = Field(default_factory=list)
    timeline: list[ReasoningStep] = Field(default_factory=list)
    totals: ReasoningTotals = Field(default_factory=ReasoningTotals)
    unreadable: Annotated[list[str], OMIT] = Field(default_factory=list)


def derive(loaded: Loaded, task: str | None, relations: Relations | None = None) -> ReasoningState:
    """The state of `task` (every task when None), replayed from the loaded records alone;
    `relations` are theirs when the caller indexed them already.

    One pass over the reported records builds the timeline, the views and what the totals
    count: at 10k records each further pass costs milliseconds in memory traffic alone."""
    if relations is None:
        relations = Relations(loaded.records)
    timeline: list[ReasoningStep] = []
    assessments: list[AssessmentView] = []
    consultations: list[ConsultationView] = []
    disagreements: list[DisagreementView] = []
    conclusions: list[ConclusionView] = []
    asked: list[ConsultationInput] = []
    for record in loaded.records:
        if task is not None and record.task != task:
            continue
        body = record.body
        kind = body.kind
        timeline.append(step_for(record, body, kind))
        if kind == "assessment":
            assessments.append(assessment_view(record, body, relations))
        elif kind == "consultation":
            assert isinstance(body, ConsultationInput)
            consultations.append(consultation_view(record, body))
            asked.append(body)
        elif kind == "disagreement":
            disagreements.append(disagreement_view(record, body, relations))
        elif kind == "conclusion":
            conclusions.append(conclusion_view(record, body, relations))
    # every value is of its field's type already (majordomus/projections/derived.py says
    # why): built unvalidated, the state's validator is never built
    return ReasoningState.model_construct(
        task=ALL_TASKS if task is None else task,
        assessments=assessments,
        consultations=consultations,
        disagreements=disagreements,
        conclusions=conclusions,
        timeline=timeline,
        totals=totals_over(len(timeline), asked),
        unreadable=list(loaded.unreadable),
    )
