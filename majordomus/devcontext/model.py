"""The wire shapes of the context compiler: every pydantic model it reads or answers with.

The constants and the four enums live in `majordomus.devcontext.vocabulary` (re-exported
here), and the compiler builds plain twins of the output models
(`majordomus.devcontext.shapes`), which `compile_context` validates into these. Pure: no
I/O, no clock. Nothing here decides what is selected; `select`, `budget` and `explain` do.

Class names that are also JSON-Schema component names (`DevContextInput`,
`DevContextExplainInput`, `DevContextStanding`) are spelt that way, and the short Python names
the seed examples import are aliases, so a schema generated from any surface names them
as docs/generated/modules/devcontext.md does.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from majordomus.devcontext.vocabulary import (
    BYTES_PER_TOKEN,
    COMPOSED_GRAPH,
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_FLOOR,
    DEFAULT_MAX_DEPTH,
    SCHEMA_VERSION,
    STALE_STATUSES,
    DevContextStanding,
    ExclusionReason,
    Selector,
    Standing,
    Tier,
    tier_for_kind,
    tokens_for,
)
from majordomus.order import OrderKey
from majordomus.wire import OMIT, StrictInput, Wire

__all__ = [
    "BYTES_PER_TOKEN",
    "COMPOSED_GRAPH",
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_FLOOR",
    "DEFAULT_MAX_DEPTH",
    "SCHEMA_VERSION",
    "STALE_STATUSES",
    "DevContextStanding",
    "ExclusionReason",
    "Selector",
    "Standing",
    "Tier",
    "tier_for_kind",
    "tokens_for",
]


# --- inputs ---------------------------------------------------------------------------------


class DevContextInput(StrictInput):
    """The input of `devcontext.compile`: what to compile a context about."""

    issue: Annotated[
        str | None,
        OMIT,
        Field(
            description="An issue id (`I0301`) or its canonical identifier. Its milestone, its "
            "dependencies,\nits declared scope and the decisions over that scope follow from it."
        ),
    ] = None
    milestone: Annotated[
        str | None,
        OMIT,
        Field(description="A milestone id or slug, or its canonical identifier."),
    ] = None
    intent: Annotated[
        str | None,
        OMIT,
        Field(
            description="What the session is trying to do, in words. The only input the "
            "compiler infers\nfrom, and every entry it produces says so and carries a "
            "confidence below one."
        ),
    ] = None
    paths: Annotated[
        list[str],
        OMIT,
        Field(
            description="Repository-relative paths the work touches, added to whatever the "
            "seeds declare."
        ),
    ] = Field(default_factory=list)
    uris: Annotated[
        list[str],
        OMIT,
        Field(
            description="Canonical identifiers to seed with directly, for a request about "
            "something that is\nneither an issue nor a milestone."
        ),
    ] = Field(default_factory=list)
    budget_tokens: Annotated[
        int | None,
        OMIT,
        Field(
            ge=0,
            description=f"The ceiling in estimated tokens; {DEFAULT_BUDGET_TOKENS} when absent.",
        ),
    ] = None
    max_depth: Annotated[
        int | None,
        OMIT,
        Field(
            ge=0,
            description=f"How far from a seed the walk goes; {DEFAULT_MAX_DEPTH} when absent.",
        ),
    ] = None
    floor: Annotated[
        float | None,
        OMIT,
        Field(
            description="Relevance below which an entry is reported rather than given; "
            f"{DEFAULT_FLOOR}\nwhen absent."
        ),
    ] = None
    all_blocking_rules: Annotated[
        bool | None,
        OMIT,
        Field(
            description="Every blocking rule of the layer, not only the ones the work reaches. "
            "Honest and\nusually over budget: the answer then says `over_budget` rather than "
            "dropping what it\nmay not drop."
        ),
    ] = None

    bundle: Annotated[
        bool,
        Field(
            exclude_if=lambda v: not v,
            description="Also answer with the bundle: the selected entries' content as one "
            "Markdown text,\nin tier order, each headed by its identifier and why it is in; "
            "the headings are paid\nfrom the same budget.",
        ),
    ] = False

    def request(self) -> DevContextInput:
        """The compile request these fields describe."""
        return DevContextInput.model_validate(
            {name: getattr(self, name) for name in DevContextInput.model_fields}
        )


CompileInput = DevContextInput


class DevContextExplainInput(DevContextInput):
    """The input of `devcontext.explain`: one identifier, and the request to judge it under."""

    uri: Annotated[str, Field(description="The canonical identifier to explain.")]


ExplainInput = DevContextExplainInput


# --- output pieces --------------------------------------------------------------------------


class Route(Wire):
    """One way an entry was reached: which selector, why, how far, and how sure."""

    selector: Selector
    reason: str
    via: Annotated[str | None, OMIT] = None
    edge: Annotated[str | None, OMIT] = None
    depth: int = Field(ge=0)
    confidence: float
    weight: float


class EntryProvenance(Wire):
    """Where the selected thing lives, copied from the index's own provenance."""

    path: str
    directory: str
    source_class: str
    section: Annotated[str | None, OMIT] = None
    bytes: int = Field(ge=0)


class ContextEntry(Wire):
    """One thing a session should be given: what it is, how it was reached, what it costs."""

    uri: str
    kind: str
    title: Annotated[str | None, OMIT] = None
    provenance: EntryProvenance
    tier: Tier
    relevance: float
    confidence: float
    discovered_by: list[Route]
    depth: int = Field(ge=0)
    cost_tokens: int = Field(ge=0)
    cost_bytes: int = Field(ge=0)
    version: Annotated[str | None, OMIT] = None
    status: Annotated[str | None, OMIT] = None
    required: bool
    facts: Annotated[dict[str, str], OMIT] = Field(default_factory=dict)


class Excluded(Wire):
    """One thing reached and not given, with what keeping it would have cost."""

    uri: str
    kind: Annotated[str | None, OMIT] = None
    tier: Tier
    reason: ExclusionReason
    detail: str
    cost_tokens: int = Field(ge=0)
    relevance: float

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.reason.value, identity=self.uri, rank=self.tier.rank)


class Deduplicated(Wire):
    """Two names, one thing: the collapse and, for a semantic one, what lost."""

    kept: str
    dropped: list[str]
    key: str
    detail: str
    paths: int = Field(ge=0)

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.kept, identity=self.kept, group=self.key)


class Conflict(Wire):
    """Two entries that cannot both hold: a supersession or two versions of one stem."""

    current: str
    against: str
    kind: str
    detail: str

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.current, identity=self.against, group=self.kind)


class TierSpend(Wire):
    """What one tier took from the single pot; a report, not an allowance."""

    tier: Tier
    meaning: str
    selected: int = Field(ge=0)
    excluded: int = Field(ge=0)
    tokens: int = Field(ge=0)
    required: int = Field(ge=0)


class Budget(Wire):
    """The budget and what became of it; `over_budget` only through undroppable entries."""

    limit_tokens: int = Field(ge=0)
    used_tokens: int = Field(ge=0)
    required_tokens: int = Field(ge=0)
    remaining_tokens: int = Field(ge=0)
    over_budget: bool
    bytes_per_token: int = Field(ge=0)
    tiers: list[TierSpend]


class Seed(Wire):
    """One starting point the request named, as resolved."""

    uri: str
    kind: str
    from_: str = Field(alias="from")
    resolved: Annotated[str | None, OMIT] = None


class CommitReference(Wire):
    """A commit the evidence of a selected object names."""

    commit: str
    named_by: str
    covers: Annotated[str | None, OMIT] = None

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.commit, identity=self.named_by)


class GitContext(Wire):
    """What git says about the checkout, and the commits the selected layer names."""

    branch: Annotated[str | None, OMIT] = None
    head: Annotated[str | None, OMIT] = None
    working_tree: str
    commits: Annotated[list[CommitReference], OMIT] = Field(default_factory=list)


class Diagnostic(Wire):
    """A finding about the compilation (a stale seed, a dangling reference, a stale record)."""

    severity: str
    code: str
    path: Annotated[str | None, OMIT] = None
    message: str


class CompiledContext(Wire):
    """The answer of `devcontext.compile`."""

    schema_: int = Field(SCHEMA_VERSION, alias="schema")
    fingerprint: str
    git: GitContext
    seeds: list[Seed]
    selected: list[ContextEntry]
    excluded: list[Excluded]
    deduplicated: list[Deduplicated]
    conflicts: list[Conflict]
    budget: Budget
    diagnostics: list[Diagnostic]
    bundle: Annotated[
        str | None,
        OMIT,
        Field(description="The selected entries' content as one Markdown text, when asked for."),
    ] = None


class Explanation(Wire):
    """Why one identifier is, or is not, in a compiled context; the budget is always carried."""

    uri: str
    standing: Standing
    detail: str
    entry: Annotated[ContextEntry | None, OMIT] = None
    excluded: Annotated[Excluded | None, OMIT] = None
    deduplicated: Annotated[Deduplicated | None, OMIT] = None
    budget: Budget


class TierRule(Wire):
    """One tier of the policy: its place, its meaning and the graph's kinds spent from it."""

    tier: Tier
    position: int
    meaning: str
    kinds: list[str]


class EdgeRule(Wire):
    """How the walk treats one edge kind of the composed graph."""

    edge: str
    means: str
    forward: Annotated[float | None, OMIT] = None
    reverse: Annotated[float | None, OMIT] = None
    reason: str
    refused: bool


class SelectorRule(Wire):
    """One selector, and whether it follows a declaration or infers."""

    selector: Selector
    declared: bool


class CompilerPolicy(Wire):
    """The answer of `devcontext.policy`: the rules the compiler applies, as data."""

    schema_: int = Field(SCHEMA_VERSION, alias="schema")
    graph: str = COMPOSED_GRAPH
    tiers: list[TierRule]
    edges: list[EdgeRule]
    selectors: list[SelectorRule]
    default_budget_tokens: int = DEFAULT_BUDGET_TOKENS
    default_max_depth: int = DEFAULT_MAX_DEPTH
    default_floor: float = DEFAULT_FLOOR
    bytes_per_token: int = BYTES_PER_TOKEN
