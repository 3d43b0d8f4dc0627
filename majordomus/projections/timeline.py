"""The timeline: one step per record, its phase and a one-line summary. Pure.

`one_line` is the form every summary and report line is cut to: only `\\n` ends a line (not
`str.splitlines()`), and the limit counts code points."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.policy import PlanOutcome
from majordomus.ledger.record import ConsultationInput, ReasoningRecord, Stance, StoredPlan
from majordomus.wire import Wire

#: At most this many characters per summary or report fragment, the ellipsis included.
LINE_LIMIT = 140

ELLIPSIS = "…"


def one_line(text: str) -> str:
    """The first line, trimmed, cut to 139 characters plus `…` when it is longer than 140."""
    first = text.split("\n", 1)[0].strip()
    return first if len(first) <= LINE_LIMIT else first[: LINE_LIMIT - 1] + ELLIPSIS


class ReasoningPhase(StrEnum):
    """What a step was in the course of the reasoning."""

    UNCERTAINTY = "uncertainty"
    CONSULTING = "consulting"
    LOCAL = "local"
    REUSE = "reuse"
    ADVISOR_RESPONSE = "advisor_response"
    DEGRADATION = "degradation"
    DISAGREEMENT = "disagreement"
    EXPERIMENT = "experiment"
    CONCLUSION = "conclusion"
    VALIDATION = "validation"
    ATTEMPT = "attempt"


class ReasoningStep(Wire):
    """When, which record, which phase, and one line on what happened."""

    at: str
    id: str
    phase: ReasoningPhase
    summary: str


_PLAN_PHASES = {
    PlanOutcome.CONSULT: ReasoningPhase.CONSULTING,
    PlanOutcome.DECIDE_LOCALLY: ReasoningPhase.LOCAL,
    PlanOutcome.REUSE_PRIOR: ReasoningPhase.REUSE,
}

_STANCE_PHRASES = {
    Stance.SUPPORTS: "supports",
    Stance.OPPOSES: "opposes",
    Stance.ALTERNATIVE: "proposes an alternative",
    Stance.INCONCLUSIVE: "is inconclusive",
}


def _plan(body: StoredPlan) -> tuple[ReasoningPhase, str]:
    phase = _PLAN_PHASES[body.plan.outcome]
    if phase is ReasoningPhase.CONSULTING:
        selected = ", ".join(s.advisor for s in body.plan.selected)
        return phase, f"consult {selected} ({one_line(body.plan.reason)})"
    return phase, one_line(body.plan.reason)


def _consultation(body: ConsultationInput) -> tuple[ReasoningPhase, str]:
    if body.status is ConsultationStatus.COMPLETED:
        phrase = _STANCE_PHRASES[body.stance] if body.stance is not None else "answered"
        return (
            ReasoningPhase.ADVISOR_RESPONSE,
            f"{body.advisor} {phrase}: {one_line(body.conclusion or '')}",
        )
    summary = f"{body.advisor} {body.status.value}"
    if body.diagnostic is not None:
        summary += f": {one_line(body.diagnostic)}"
    return ReasoningPhase.DEGRADATION, summary


#: The phase and summary of a body, by its `kind` (the tag that chose its type when read).
_BY_KIND: dict[str, Callable[[Any], tuple[ReasoningPhase, str]]] = {
    "assessment": lambda body: (
        ReasoningPhase.UNCERTAINTY,
        f"{one_line(body.subject)} ({body.materiality.value}, {len(body.evidence)} evidence)",
    ),
    "plan": _plan,
    "consultation": _consultation,
    "disagreement": lambda body: (
        ReasoningPhase.DISAGREEMENT,
        f"{len(body.positions)} positions; decided by: {one_line(body.discriminating_question)}",
    ),
    "resolution": lambda body: (
        ReasoningPhase.EXPERIMENT,
        f"{one_line(body.experiment)} → favours {body.favours}",
    ),
    "conclusion": lambda body: (
        ReasoningPhase.CONCLUSION,
        f"{one_line(body.decision)} ({body.independent_review_count} independent review(s))",
    ),
    "validation": lambda body: (
        ReasoningPhase.VALIDATION,
        f"{body.outcome.value}: {one_line(body.check)}",
    ),
    "attempt": lambda body: (
        ReasoningPhase.ATTEMPT,
        f"{one_line(body.attempt)} failed: {one_line(body.observed_failure)}",
    ),
}


def step_of(record: ReasoningRecord) -> ReasoningStep:
    """The record's step: its stamp, id, phase and a summary of one line."""
    phase, summary = _BY_KIND[record.body.kind](record.body)
    return ReasoningStep(
        at=record.recorded_at, id=record.id, phase=phase, summary=one_line(summary)
    )
