"""`reasoning.status`'s answer: the state of a task replayed from the records, the mode,
the advisor counts and the Markdown report.

Its own module, apart from the capability's declaration (`majordomus.capabilities.reasoning`),
so that the command line's plain path (`majordomus.cli.plain_reasoning`) answers a status
without importing every other reasoning capability's shapes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from majordomus.advisors.modes import ModeResolution
from majordomus.capabilities.reasoning_situation import reasoning_situation
from majordomus.projections.state import ALL_TASKS, ReasoningState, derive, render_markdown
from majordomus.wire import Wire

if TYPE_CHECKING:
    from majordomus.advisors.situation import AdvisorSituation
    from majordomus.capabilities.workspace import Workspace


class ReasoningStatus(Wire):
    """The mode in force, the advisor counts, the state the records derive, and that state
    rendered as the Markdown a handover carries."""

    mode: ModeResolution
    advisors_available: int
    advisors_unavailable: int
    state: ReasoningState
    report: str


def status_of(ctx: Workspace, task: str | None, as_of: str | None) -> ReasoningStatus:
    """The status of `task` as of `as_of`, values an input already admitted: what the
    handler answers, and what the command line's plain path (`majordomus.cli.plain_reasoning`)
    asks for without building the input."""
    state, advisors = _status_state(ctx, task, as_of)
    # values of their fields' types already: built unvalidated, its validator is never built
    return ReasoningStatus.model_construct(
        mode=advisors.mode,
        advisors_available=advisors.available(),
        advisors_unavailable=advisors.unavailable(),
        state=state,
        report=render_markdown(state),
    )


def _status_state(
    ctx: Workspace, task: str | None, as_of: str | None
) -> tuple[ReasoningState, AdvisorSituation]:
    """The state and the advisors of a status; the records and their index are let go on
    return, before the report and the answer are built beside the state (the peak memory
    of a large replay; a smaller one a one-shot command keeps, see `reasoning_situation`)."""
    situation = reasoning_situation(ctx, as_of, indexed=True)
    if task is None:
        task = situation.store.current_task()
    state = derive(situation.loaded, None if task == ALL_TASKS else task, situation.relations)
    return state, situation.advisors
