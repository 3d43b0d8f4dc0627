"""The review-plan policy: how much independent review an uncertainty deserves.

Pure: contacts nobody, records nothing; deciding locally is an ordinary outcome."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.advisors.states import AdvisorState, AdvisorStatus, count_available
from majordomus.order import DeclaredOrder
from majordomus.wire import OMIT, Wire

#: What a plan asks for when the request names no advisory capability.
DEFAULT_CAPABILITY = "independent_reasoning"

LOCAL_REVIEW: tuple[str, ...] = (
    "state the hypothesis and the strongest alternative to it",
    "list each assumption with the evidence that supports it, and mark the unsupported ones",
    "name what observation would falsify the hypothesis",
    "run the smallest experiment that discriminates between hypothesis and alternative",
    "record the conclusion with its evidence, rejected alternatives, risks and validation plan",
)


class Materiality(DeclaredOrder):
    """How much an uncertain decision could matter; `material` and above earn review."""

    TRIVIAL = "trivial"
    LOW = "low"
    MATERIAL = "material"
    HIGH = "high"
    CRITICAL = "critical"

    @classmethod
    def default(cls) -> Materiality:
        return cls.LOW

    def is_material(self) -> bool:
        return self >= Materiality.MATERIAL


class ReasoningConfidence(DeclaredOrder):
    """How sure the executor is of its hypothesis; `high` lowers the budget by one."""

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"

    @classmethod
    def default(cls) -> ReasoningConfidence:
        return cls.MEDIUM


class PlanOutcome(StrEnum):
    CONSULT = "consult"
    DECIDE_LOCALLY = "decide_locally"
    REUSE_PRIOR = "reuse_prior"


_BUDGETS: dict[ReasoningMode, tuple[int, int, int, int, int]] = {
    ReasoningMode.CI: (0, 0, 0, 0, 0),
    ReasoningMode.FAST: (0, 0, 0, 1, 1),
    ReasoningMode.STANDARD: (0, 0, 1, 2, 2),
    ReasoningMode.OFFLINE: (0, 0, 1, 2, 2),
    ReasoningMode.STRICT: (0, 0, 1, 2, 3),
}


def budget(mode: ReasoningMode, materiality: Materiality, confidence: ReasoningConfidence) -> int:
    """How many advisors a plan may select: mode × materiality, less one when sure."""
    allowed = _BUDGETS[mode][materiality.rank]
    return max(0, allowed - 1) if confidence is ReasoningConfidence.HIGH else allowed


class PlanRequest(Wire):
    """What a plan answers: the uncertainty, how sure the executor is, what review it needs."""

    materiality: Materiality = Materiality.LOW
    confidence: ReasoningConfidence = ReasoningConfidence.MEDIUM
    capabilities: list[str] = Field(default_factory=list)
    prior_conclusion: Annotated[str | None, OMIT] = None
    new_evidence: bool = False


class SelectedAdvisor(Wire):
    advisor: str
    covers: list[str]
    why: str


class ExcludedAdvisor(Wire):
    advisor: str
    status: AdvisorStatus
    reason: str


class ReviewPlan(Wire):
    """The decision with its reasons attached: budget, outcome, who is asked, who is not."""

    mode: ReasoningMode
    mode_source: str
    materiality: Materiality
    confidence: ReasoningConfidence
    capabilities: list[str]
    budget: int
    outcome: PlanOutcome
    reason: str
    selected: list[SelectedAdvisor] = Field(default_factory=list)
    excluded: list[ExcludedAdvisor] = Field(default_factory=list)
    available: int = 0
    local_review: Annotated[list[str], OMIT] = Field(default_factory=list)


def plan(request: PlanRequest, mode: ModeResolution, states: Sequence[AdvisorState]) -> ReviewPlan:
    """The review plan of docs/ledger.md; `states` arrive in preference order."""
    wanted = list(request.capabilities) or [DEFAULT_CAPABILITY]
    allowed = budget(mode.mode, request.materiality, request.confidence)
    selected: list[SelectedAdvisor] = []
    local_review: list[str] = []
    if request.prior_conclusion is not None and not request.new_evidence:
        allowed = 0
        outcome = PlanOutcome.REUSE_PRIOR
        reason = (
            f"conclusion {request.prior_conclusion} already answers this subject "
            "and the assessment brings no new evidence"
        )
        excluded = [
            ExcludedAdvisor(
                advisor=s.id, status=s.status, reason="a standing conclusion answers the subject"
            )
            for s in states
        ]
    else:
        selected, excluded = _select(states, wanted, allowed)
        if selected:
            outcome = PlanOutcome.CONSULT
            reason = (
                f"{request.materiality.value} uncertainty under mode {mode.mode.value}: "
                f"{len(selected)} independent review(s) within a budget of {allowed}"
            )
        else:
            outcome = PlanOutcome.DECIDE_LOCALLY
            reason = _local_reason(request, mode.mode, allowed, wanted)
            if request.materiality.is_material():
                local_review = list(LOCAL_REVIEW)
    return ReviewPlan(
        mode=mode.mode,
        mode_source=mode.source,
        materiality=request.materiality,
        confidence=request.confidence,
        capabilities=wanted,
        budget=allowed,
        outcome=outcome,
        reason=reason,
        selected=selected,
        excluded=excluded,
        available=count_available(states),
        local_review=local_review,
    )


def _select(
    states: Sequence[AdvisorState], wanted: list[str], allowed: int
) -> tuple[list[SelectedAdvisor], list[ExcludedAdvisor]]:
    """Greedy selection by (fresh capabilities, independent adapter) among the available states
    offering a wanted capability; the rest are excluded, each with why, in preference order."""
    excluded: list[tuple[int, ExcludedAdvisor]] = []
    pool: list[tuple[int, AdvisorState]] = []
    for index, s in enumerate(states):
        if s.status is not AdvisorStatus.AVAILABLE:
            reason = f"{s.status.value}: {s.reason}"
        elif not any(c in wanted for c in s.capabilities):
            reason = f"offers none of {', '.join(wanted)}"
        else:
            pool.append((index, s))
            continue
        excluded.append((index, ExcludedAdvisor(advisor=s.id, status=s.status, reason=reason)))
    selected: list[SelectedAdvisor] = []
    covered: list[str] = []
    sources: set[str] = set()
    while len(selected) < allowed and pool:
        scores = [
            (
                sum(1 for c in s.capabilities if c in wanted and c not in covered),
                0 if s.adapter in sources else 1,
            )
            for _, s in pool
        ]
        best = max(range(len(pool)), key=lambda i: (scores[i], -i))
        fresh, independent = scores[best]
        _, chosen = pool.pop(best)
        covers = [c for c in chosen.capabilities if c in wanted]
        if not selected:
            why = (
                "the first available advisor in preference order covering the most "
                "requested capabilities"
            )
        elif fresh > 0:
            why = f"covers {fresh} requested capability(ies) the selection did not"
        elif independent:
            why = "an independent source for a second opinion"
        else:
            why = "the next available advisor in preference order"
        selected.append(SelectedAdvisor(advisor=chosen.id, covers=covers, why=why))
        covered.extend(c for c in covers if c not in covered)
        sources.add(chosen.adapter)
    spent = "the budget was spent on advisors earlier in the selection"
    excluded.extend(
        (index, ExcludedAdvisor(advisor=s.id, status=s.status, reason=spent)) for index, s in pool
    )
    return selected, [e for _, e in sorted(excluded, key=lambda pair: pair[0])]


def _local_reason(
    request: PlanRequest, mode: ReasoningMode, allowed: int, wanted: list[str]
) -> str:
    if not request.materiality.is_material():
        return (
            f"{request.materiality.value} uncertainty is decided on local evidence; "
            "review would cost more than it could change"
        )
    if allowed == 0:
        return (
            f"mode {mode.value} with {request.confidence.value} confidence allows no "
            f"independent review for {request.materiality.value} uncertainty"
        )
    return (
        f"no available advisor offers {', '.join(wanted)}; "
        "decide on local evidence after a structured local review"
    )
