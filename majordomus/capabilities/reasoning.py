"""The `reasoning` module, organised by capability."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic_core import to_json

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
from majordomus.capabilities.paging import Paged, PageInput
from majordomus.capabilities.record import REASONING_RECORD
from majordomus.capabilities.registry import EXPERIMENTAL, Capability, Cases, Module
from majordomus.errors import InvalidInput, NotFound, Refused
from majordomus.ledger.loaded import Loaded, RecordIndex, history
from majordomus.ledger.store import Store
from majordomus.ledger.team import Pulled, Pushed, Synced, pull, push, sync
from majordomus.projections.check import CHECKS, ReasoningFinding
from majordomus.projections.check import run as run_checks
from majordomus.projections.handover import GitPosition, Handover, handover
from majordomus.projections.moment import AsOf, epoch_of, parse_moment, recorded_by
from majordomus.projections.state import (
    ALL_TASKS,
    ReasoningExplanation,
    ReasoningState,
    derive,
    explain,
    render_markdown,
)
from majordomus.wire import OMIT, StrictInput, Wire

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace


@dataclass(frozen=True, slots=True)
class ReasoningSituation:
    """What every reasoning capability knows about one request."""

    store: Store
    loaded: Loaded
    advisors: AdvisorSituation


def reasoning_situation(
    ctx: Workspace, as_of: str | None = None, *, local: bool = True
) -> ReasoningSituation:
    """Resolve the situation, as of `as_of` when given; an invalid catalogue is refused naming
    its file. `local` false reads only the published records (`reasoning check --shared`)."""
    store = Store(ctx.root)
    loaded = store.load(local=local)
    now = None
    if as_of is not None:
        moment = parse_moment(as_of)
        assert moment is not None  # the AsOf type lets only a moment through
        loaded, now = recorded_by(loaded, moment), epoch_of(moment)
    try:
        advisors = resolve_advisors(ctx.root, ctx.environ, history(loaded), now=now)
    except CatalogueError as exc:
        raise Refused(exc.message) from None
    return ReasoningSituation(store=store, loaded=loaded, advisors=advisors)


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


class AdvisorsInput(StrictInput):
    """When to look: now (default) or as of an earlier moment."""

    as_of: AsOf = None


def reasoning_advisors(ctx: Workspace, request: AdvisorsInput) -> AdvisorsReport:
    """`operational` is true whatever the counts."""
    situation = reasoning_situation(ctx, request.as_of).advisors
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


REASONING_ADVISORS = Capability(
    id="reasoning.advisors",
    title="Advisors and their availability",
    description="The reasoning mode and where it came from, every advisor of the catalogue "
    "with its status, the one reason word and what was probed, the capacity per advisory "
    "capability, and the catalogue's findings. Contacts no advisor. Read-only.",
    handler=reasoning_advisors,
    resource=("majordomus://reasoning/advisors", "reasoning-advisors"),
    http=("GET", "/api/v1/reasoning/advisors"),
    tags=("reasoning", "advisors"),
)


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
        list[str] | None,
        BeforeValidator(lambda given: [given] if isinstance(given, str) else given),
        Field(
            description="Advisory capability words, as a list like a record's `capabilities` "
            "or comma-separated (default `independent_reasoning`); `majordomus reasoning "
            "advisors` lists them."
        ),
    ] = None


def reasoning_plan(ctx: Workspace, request: PlanPreviewInput) -> ReviewPlan:
    """The capability words are split at commas and trimmed; each must be in the catalogue."""
    advisors = reasoning_situation(ctx).advisors
    words = [w.strip() for item in request.capabilities or [] for w in item.split(",") if w.strip()]
    for word in words:
        if not advisors.loaded.catalogue.knows_capability(word):
            raise InvalidInput(
                f"'{word}' is not an advisory capability; "
                "`majordomus reasoning advisors` lists them"
            )
    preview = PlanRequest(
        materiality=request.materiality or Materiality.default(),
        confidence=request.confidence or ReasoningConfidence.default(),
        capabilities=words,
    )
    return plan(preview, advisors.mode, advisors.states)


REASONING_PLAN = Capability(
    id="reasoning.plan",
    title="Preview a review plan",
    description="How much independent review an uncertainty of the given materiality and "
    "confidence deserves under the current mode, which available advisors would be asked "
    "and why, or the structured local review when none would. Records nothing. Read-only.",
    handler=reasoning_plan,
    http=("GET", "/api/v1/reasoning/plan"),
    tags=("reasoning", "policy"),
    cases=(("material", {"materiality": "material"}),),
)


class RemoteInput(StrictInput):
    """Which remote to share the ledger with."""

    remote: Annotated[
        str | None,
        Field(description="A configured remote (default: the branch's upstream, else origin)."),
    ] = None


class PushInput(RemoteInput):
    """Which remote to publish to, and whether only to show what would be published."""

    dry_run: Annotated[
        bool, Field(description="List what would be published; make no git object, push nothing.")
    ] = False


def reasoning_push(ctx: Workspace, request: PushInput) -> Pushed:
    return push(ctx.root, request.remote, dry_run=request.dry_run)


def reasoning_pull(ctx: Workspace, request: RemoteInput) -> Pulled:
    return pull(ctx.root, request.remote)


def reasoning_sync(ctx: Workspace, request: RemoteInput) -> Synced:
    return sync(ctx.root, request.remote)


def _team(name: str, description: str, **declared: Any) -> Capability:
    """A team-ledger command: on the command line and in the library, never over MCP or
    HTTP (an assistant reads the ledger; a person decides to publish it)."""
    return Capability(
        id=f"reasoning.{name}",
        description=description,
        kind="command",
        writes_repository=True,
        tags=("reasoning", "team"),
        waived="external_dependency",
        **declared,
    )


REASONING_PUSH = _team(
    "push",
    "Publish the records this clone wrote since its last push on its writer ref "
    "(refs/majordomus/ledger/<writer>), each redacted again, and push that ref, never forced "
    "(docs/team.md). Writes git objects and refs/majordomus/ only.",
    title="Publish the ledger",
    handler=reasoning_push,
)
REASONING_PULL = _team(
    "pull",
    "Fetch every writer's ledger ref from a remote and replay each that appends to what was "
    "seen; a rewritten one is kept aside (refs/majordomus/quarantine/) and named. Writes "
    "refs/majordomus/ only.",
    title="Fetch the team's ledger",
    handler=reasoning_pull,
)
REASONING_SYNC = _team(
    "sync",
    "`reasoning pull`, then `reasoning push`, with one remote.",
    title="Pull, then push",
    handler=reasoning_sync,
)


Task = Annotated[
    str | None,
    Field(description="A task id, or `all` for every task (default: the current task)."),
]


class ReasoningStatusInput(PageInput):
    """Which task to report, as of when, and which page of its records."""

    task: Task = None
    as_of: AsOf = None


class ReasoningStatus(Paged):
    """The mode in force, the advisor counts, the state the records derive, and that state
    rendered as the Markdown a handover carries. Its rows are the records, in the
    timeline's order: a page holds the views and steps of its records, the totals of all."""

    mode: ModeResolution
    advisors_available: int
    advisors_unavailable: int
    state: ReasoningState
    report: str

    def row_sizes(self) -> list[int]:
        views = (view for name in _VIEWS for view in getattr(self.state, name))
        sizes = {view.id: len(to_json(view)) for view in views}
        return [len(to_json(step)) + sizes.get(step.id, 0) for step in self.state.timeline]

    def page(self, start: int, stop: int) -> ReasoningStatus:
        steps = self.state.timeline[start:stop]
        ids = {step.id for step in steps}
        kept = {name: [v for v in getattr(self.state, name) if v.id in ids] for name in _VIEWS}
        state = self.state.model_copy(update={**kept, "timeline": steps})
        return self.model_copy(update={"state": state, "report": render_markdown(state)})


_VIEWS = ("assessments", "consultations", "disagreements", "conclusions")


def reasoning_status(ctx: Workspace, request: ReasoningStatusInput) -> ReasoningStatus:
    state, advisors = _derived_state(ctx, request.task, request.as_of)
    return ReasoningStatus(
        mode=advisors.mode,
        advisors_available=advisors.available(),
        advisors_unavailable=advisors.unavailable(),
        state=state,
        report=render_markdown(state),
    )


def _derived_state(
    ctx: Workspace, task: str | None, as_of: str | None
) -> tuple[ReasoningState, AdvisorSituation]:
    """The state of `task` (default: the current one) and the advisors; the records are let go
    on return, before the report is rendered (the peak memory of a large store)."""
    situation = reasoning_situation(ctx, as_of)
    if task is None:
        task = situation.store.current_task()
    loaded = situation.loaded
    state = derive(loaded, None if task == ALL_TASKS else task, RecordIndex(loaded.records))
    return state, situation.advisors


#: The current task and every task, for each capability that reads one task.
TASK_CASES: Cases = (("current", {}), ("all", {"task": ALL_TASKS}))

REASONING_STATUS = Capability(
    id="reasoning.status",
    title="Reasoning state of a task",
    description="The assessments, consultations, disagreements and conclusions of the current "
    "task (or one task, or `all`), each with where it stands, the timeline of every record, "
    "totals, unreadable store files, and the Markdown report a handover carries; optionally "
    "as of an earlier moment. Derived from the records, never stored. Read-only.",
    handler=reasoning_status,
    resource=("majordomus://reasoning", "reasoning"),
    http=("GET", "/api/v1/reasoning"),
    tags=("reasoning", "session"),
    cases=TASK_CASES,
)


class ReasoningHandoverInput(StrictInput):
    """Which task to hand over, and as of when."""

    task: Task = None
    as_of: AsOf = None


def reasoning_handover(ctx: Workspace, request: ReasoningHandoverInput) -> Handover:
    """The handover of the requested task (the current one by default), replayed from the
    records; the `# Reasoning` section is exactly what `reasoning.status` reports."""
    from majordomus.layer import git
    from majordomus.ledger.tasks import UNTASKED

    situation = reasoning_situation(ctx, request.as_of)
    current = situation.store.current_task()
    task = request.task if request.task is not None else current
    try:
        branch = git.current_branch(ctx.root)
    except git.GitError:
        branch = None
    return handover(
        situation.loaded,
        None if task == ALL_TASKS else task,
        position=GitPosition(branch=branch, head=git.head(ctx.root)),
        current_task_set=request.task is not None or current != UNTASKED,
    )


REASONING_HANDOVER = Capability(
    id="reasoning.handover",
    title="Hand a task over",
    description="The Markdown a next session takes a task over from, with the same sections "
    "as data: per task its state (records, branch, HEAD, first and last record times), "
    "decisions with question, rationale and review, failed attempts, open items, next "
    "actions, local-review steps and a Mermaid graph of the chain; then the plain report "
    "under `# Reasoning`. The current task, one task or `all`; optionally as of an earlier "
    "moment. Read-only.",
    handler=reasoning_handover,
    http=("GET", "/api/v1/reasoning/handover"),
    tags=("reasoning", "session"),
    cases=TASK_CASES,
)


class ReasoningExplainInput(StrictInput):
    """The record to explain, and as of when."""

    id: Annotated[
        str,
        Field(
            description="A record id, e.g. `conclusion-20261001T093000123Z-1a2b3c`, or its "
            "last 6 hex digits (`1a2b3c`)."
        ),
    ]
    as_of: AsOf = None


def reasoning_explain(ctx: Workspace, request: ReasoningExplainInput) -> ReasoningExplanation:
    loaded = reasoning_situation(ctx, request.as_of).loaded
    explanation = explain(loaded, loaded.full_id(request.id))
    if explanation is None:
        raise NotFound(f"no reasoning record {request.id}")
    return explanation


REASONING_EXPLAIN = Capability(
    id="reasoning.explain",
    title="Explain a reasoning record",
    description="One record with the assessment it belongs to and that assessment's whole "
    "chain (plans, consultations, disagreements, resolutions, conclusions, validations, "
    "attempts) as timeline steps in order. An unknown id is not found. Read-only.",
    handler=reasoning_explain,
    http=("GET", "/api/v1/reasoning/explain"),
    tags=("reasoning", "provenance"),
    waived="transient_state",
    cases=(("absent", {"id": "assessment-absent"}),),
)


class ReasoningCheckInput(StrictInput):
    """As of when to check the records (default: now, every record), and which records."""

    as_of: AsOf = None
    shared: Annotated[
        bool,
        Field(
            description="Check the published records alone (the refs below "
            "refs/majordomus/, as a CI job fetched them), not this checkout's store."
        ),
    ] = False


class ReasoningCheck(Wire):
    """Whether the reasoning rules hold: `ok` exactly when there is no finding."""

    ok: bool
    checks: list[str]
    findings: list[ReasoningFinding]


def reasoning_check(ctx: Workspace, request: ReasoningCheckInput) -> ReasoningCheck:
    situation = reasoning_situation(ctx, request.as_of, local=not request.shared)
    used = situation.advisors.loaded
    findings = run_checks(
        ctx.root, used.catalogue, used.references, situation.loaded, source=used.source
    )
    return ReasoningCheck(ok=not findings, checks=list(CHECKS), findings=findings)


REASONING_CHECK = Capability(
    id="reasoning.check",
    title="Check the reasoning rules",
    description="The six checks in order: the catalogue's findings, a transport module per "
    "adapter, provider-independent code that names an advisor, CI that depends on a model "
    "credential, documents asserting a refused claim, and records that do not parse or claim "
    "review the ledger does not show, and fetched ledger refs kept aside as rewritten. "
    "Findings are reported, never fixed. Read-only.",
    handler=reasoning_check,
    http=("GET", "/api/v1/reasoning/check"),
    tags=("reasoning", "governance"),
)


REASONING = Module(
    id="reasoning",
    title="Reasoning",
    description="The reasoning ledger: advisors and their availability, review plans, "
    "typed records, derived state, provenance and governance checks. Offline: no "
    "capability contacts an advisor.",
    stability=EXPERIMENTAL,
    capabilities=(
        REASONING_ADVISORS,
        REASONING_PLAN,
        REASONING_RECORD,
        REASONING_STATUS,
        REASONING_EXPLAIN,
        REASONING_CHECK,
        REASONING_HANDOVER,
        REASONING_PUSH,
        REASONING_PULL,
        REASONING_SYNC,
    ),
)

MODULES = (REASONING,)
