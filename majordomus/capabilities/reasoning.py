"""The `reasoning` module (reasoning §10, capabilities §2.1), organised by capability.

The situation (§10.1) is resolved once per request and shared by every reasoning
capability: the advisor catalogue in force, the mode, the record store and its records,
the consultation history replayed from them, and every advisor's state now. None of these
capabilities contacts an advisor; each section below declares one capability and its
wire shapes, and `MODULES` lists them in declaration order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from majordomus.advisors.availability import AdvisorState, ModeResolution
from majordomus.advisors.loading import CatalogueError
from majordomus.advisors.policy import (
    Materiality,
    PlanRequest,
    ReasoningConfidence,
    ReviewPlan,
    plan,
)
from majordomus.advisors.situation import AdvisorSituation, resolve_advisors
from majordomus.capabilities.core import Empty
from majordomus.capabilities.registry import Capability, Module
from majordomus.errors import InvalidInput, Refused
from majordomus.wire import OMIT, StrictInput, Wire

if TYPE_CHECKING:
    from majordomus.capabilities.context import Context
    from majordomus.ledger.loaded import Loaded
    from majordomus.ledger.store import Store

EXPERIMENTAL = "experimental"


# -- the situation -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReasoningSituation:
    """What every reasoning capability knows about one request (§10.1)."""

    store: Store
    loaded: Loaded
    advisors: AdvisorSituation

    @property
    def mode(self) -> ModeResolution:
        return self.advisors.mode


def reasoning_situation(ctx: Context) -> ReasoningSituation:
    """Resolve the situation; an invalid catalogue is refused naming the file it came from."""
    from majordomus.ledger.store import Store
    from majordomus.projections.history import history

    store = Store(ctx.root)
    loaded = store.load()
    try:
        advisors = resolve_advisors(ctx.root, ctx.environ, history(loaded))
    except CatalogueError as exc:
        raise Refused(exc.message) from None
    return ReasoningSituation(store=store, loaded=loaded, advisors=advisors)


# -- reasoning.advisors ------------------------------------------------------------------------


class AdvisorCapacity(Wire):
    """One advisory capability and who can provide it now; none means the local review path."""

    capability: str
    description: str
    available: list[str]


class AdvisorsReport(Wire):
    """The mode in force, how many advisors may and may not be asked, each advisor's state,
    the capacity per advisory capability and the catalogue's own findings."""

    operational: bool
    mode: ModeResolution
    available: int
    unavailable: int
    advisors: list[AdvisorState]
    capacity: list[AdvisorCapacity]
    diagnostics: Annotated[list[str], OMIT] = Field(default_factory=list)


def advisors_report(situation: AdvisorSituation) -> AdvisorsReport:
    """The report of one situation; `operational` is true whatever the counts."""
    states = situation.states
    capacity = [
        AdvisorCapacity(
            capability=entry.id,
            description=entry.description,
            available=[s.id for s in states if s.is_available() and entry.id in s.capabilities],
        )
        for entry in situation.loaded.catalogue.capabilities
    ]
    return AdvisorsReport(
        operational=True,
        mode=situation.mode,
        available=situation.available(),
        unavailable=situation.unavailable(),
        advisors=states,
        capacity=capacity,
        diagnostics=situation.diagnostics,
    )


def reasoning_advisors(ctx: Context, _: Empty) -> AdvisorsReport:
    return advisors_report(reasoning_situation(ctx).advisors)


ADVISORS = Capability(
    id="reasoning.advisors",
    title="Advisors and their availability",
    description="The reasoning mode and where it came from, every advisor of the catalogue "
    "with its status, the one reason word and what was probed, the capacity per advisory "
    "capability, and the catalogue's findings. Contacts no advisor. Read-only.",
    input=Empty,
    output=AdvisorsReport,
    handler=reasoning_advisors,
    tool="majordomus_reasoning_advisors",
    resource=("majordomus://reasoning/advisors", "reasoning-advisors"),
    http=("GET", "/api/v1/reasoning/advisors"),
    cli=("reasoning", "advisors"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "advisors"),
)


# -- reasoning.plan ----------------------------------------------------------------------------


class PlanPreviewInput(StrictInput):
    """A stated uncertainty to plan review for; nothing is recorded."""

    materiality: Annotated[
        Materiality | None,
        Field(description="How much the decision could matter (default `low`)."),
    ] = None
    confidence: Annotated[
        ReasoningConfidence | None,
        Field(description="How sure the executor is of its hypothesis (default `medium`)."),
    ] = None
    capabilities: Annotated[
        str | None,
        Field(
            description="Comma-separated advisory capability words (default "
            "`independent_reasoning`); `majordomus reasoning advisors` lists them."
        ),
    ] = None


def requested_capabilities(text: str | None, situation: AdvisorSituation) -> list[str]:
    """The comma list split and trimmed; every word must be in the catalogue's vocabulary."""
    words = [w.strip() for w in (text or "").split(",") if w.strip()]
    for word in words:
        if not situation.loaded.catalogue.knows_capability(word):
            raise InvalidInput(
                f"'{word}' is not an advisory capability; "
                "`majordomus reasoning advisors` lists them"
            )
    return words


def reasoning_plan(ctx: Context, request: PlanPreviewInput) -> ReviewPlan:
    advisors = reasoning_situation(ctx).advisors
    preview = PlanRequest(
        materiality=request.materiality or Materiality.default(),
        confidence=request.confidence or ReasoningConfidence.default(),
        capabilities=requested_capabilities(request.capabilities, advisors),
    )
    return plan(preview, advisors.mode, advisors.states)


def _plan_cases(_: Context) -> list[tuple[str, dict[str, Any]]]:
    return [("material", {"materiality": "material"})]


PLAN = Capability(
    id="reasoning.plan",
    title="Preview a review plan",
    description="How much independent review an uncertainty of the given materiality and "
    "confidence deserves under the current mode, which available advisors would be asked "
    "and why, or the structured local review when none would. Records nothing. Read-only.",
    input=PlanPreviewInput,
    output=ReviewPlan,
    handler=reasoning_plan,
    tool="majordomus_reasoning_plan",
    http=("GET", "/api/v1/reasoning/plan"),
    cli=("reasoning", "plan"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "policy"),
    cases=_plan_cases,
)


# -- the module --------------------------------------------------------------------------------


MODULES = (
    Module(
        id="reasoning",
        title="Reasoning",
        description="The reasoning ledger: advisors and their availability, review plans, "
        "typed records, derived state, provenance and governance checks. Offline: no "
        "capability contacts an advisor.",
        stability=EXPERIMENTAL,
        capabilities=(ADVISORS, PLAN),
    ),
)
