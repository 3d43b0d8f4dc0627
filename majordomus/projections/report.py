"""The Markdown report: the state as a plain bullet list for handovers.

No headings and no tables, so it pastes into any document under any heading. Superseded
conclusions are left out; open, planned and disputed assessments are listed as unresolved,
and every degraded consultation is named. Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.projections.text import one_line as ol

if TYPE_CHECKING:
    from majordomus.projections.state import ReasoningState

#: What the report says for a conclusion nobody independent reviewed.
LOCAL_REASONING = "no independent advisor (local reasoning)"


def render_markdown(state: ReasoningState) -> str:
    """The report; empty when the state reports no record."""
    totals = state.totals
    if totals.records == 0:
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
    return "".join(f"{row}\n" for row in rows)
