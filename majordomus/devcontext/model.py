"""The context compiler's wire models, enums and constants. Pure: decides nothing.

Schema component names (`DevContextInput`, ...) are the class names; the seeds' short names
are aliases."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar

from pydantic import Field

from majordomus.order import DeclaredOrder, OrderKey
from majordomus.wire import OMIT, StrictInput, Wire

DEFAULT_BUDGET_TOKENS = 24_000
DEFAULT_MAX_DEPTH = 3
DEFAULT_FLOOR = 0.25
BYTES_PER_TOKEN = 4
SCHEMA_VERSION = 1
COMPOSED_GRAPH = "composed"
STALE_STATUSES = ("deprecated", "superseded", "rejected")


def tokens_for(size: int) -> int:
    """Estimated tokens of `size` bytes: a ceiling division by four, never fewer than one."""
    return max(1, -(-size // BYTES_PER_TOKEN))


class _Worded:
    """`as_str()`: a member's wire word, as the seeds read it."""

    def as_str(self) -> str:
        return str(self)


class Tier(_Worded, DeclaredOrder):
    """Where an entry sits in the order the budget spends in; declaration order is that order.

    The `str` mixin gives the wire word; comparisons are overridden so `<` means "spent
    before" (declaration index), never the alphabetical order of the words.
    """

    ORDER: ClassVar[tuple[Tier, ...]]

    TASK = "task"
    GOVERNANCE = "governance"
    SOURCE = "source"
    DECISION = "decision"
    KNOWLEDGE = "knowledge"
    HISTORY = "history"

    def meaning(self) -> str:
        """One line saying what the tier holds (carried by every tier row)."""
        return _TIER_MEANING[self]


Tier.ORDER = tuple(Tier)
_TIER_MEANING = {
    Tier.TASK: "what was asked for: the issue, its milestone, the paths named, the intent; "
    "never dropped, because a context without it is the wrong answer",
    Tier.GOVERNANCE: "what the work is judged against: the policy, the scope, the directory "
    "contracts that reach the named paths, and the rules; a blocking rule is never dropped",
    Tier.SOURCE: "the code and the test cases the work touches",
    Tier.DECISION: "the architectural decisions already in force over the work",
    Tier.KNOWLEDGE: "what earlier sessions left: handovers, session records, curated knowledge",
    Tier.HISTORY: "supporting evidence: use cases, claims, features and the rest of the layer",
}


_KIND_TIER = {
    **dict.fromkeys(("issue", "milestone", "project"), Tier.TASK),
    **dict.fromkeys(("policy", "scope", "rule", "context", "profile"), Tier.GOVERNANCE),
    **dict.fromkeys(("implementation", "test", "file", "command"), Tier.SOURCE),
    "adr": Tier.DECISION,
    **dict.fromkeys(("session", "session-context", "knowledge", "prompt", "skill"), Tier.KNOWLEDGE),
}


def tier_for_kind(kind: str) -> Tier:
    """The tier a kind is spent from when no selector fixes it; `history` for the rest."""
    return _KIND_TIER.get(kind, Tier.HISTORY)


class Selector(_Worded, DeclaredOrder):
    """What reached an entry; only `intent_match` infers, the other six follow declarations."""

    ALL: ClassVar[tuple[Selector, ...]]

    SEED = "seed"
    RELATION = "relation"
    SCOPE_PATH = "scope_path"
    CONTRACT = "contract"
    GOVERNANCE = "governance"
    SESSION_STATE = "session_state"
    INTENT_MATCH = "intent_match"

    def declared(self) -> bool:
        """True when the path follows something the repository states."""
        return self is not Selector.INTENT_MATCH


Selector.ALL = tuple(Selector)


class ExclusionReason(_Worded, StrEnum):
    """Why something reached did not survive; the first three are the request's own limits."""

    BUDGET = "budget"
    RELEVANCE = "relevance"
    DEPTH = "depth"
    STALE = "stale"
    SUPERSEDED = "superseded"
    UNRESOLVED = "unresolved"


class DevContextStanding(_Worded, StrEnum):
    """Where one identifier stands with respect to a compiled context."""

    SELECTED = "selected"
    EXCLUDED = "excluded"
    DEDUPLICATED = "deduplicated"
    NOT_REACHED = "not_reached"
    UNKNOWN = "unknown"


Standing = DevContextStanding


class DevContextInput(StrictInput):
    """The input of `devcontext.compile`: what to compile a context about."""

    issue: Annotated[str | None, OMIT] = Field(
        None,
        description="An issue id (`I0301`) or its canonical identifier. Its milestone, its "
        "dependencies,\nits declared scope and the decisions over that scope follow from it.",
    )
    milestone: Annotated[str | None, OMIT] = Field(
        None, description="A milestone id or slug, or its canonical identifier."
    )
    intent: Annotated[str | None, OMIT] = Field(
        None,
        description="What the session is trying to do, in words. The only input the "
        "compiler infers\nfrom, and every entry it produces says so and carries a "
        "confidence below one.",
    )
    paths: Annotated[list[str], OMIT] = Field(
        default_factory=list,
        description="Repository-relative paths the work touches, added to whatever the "
        "seeds declare.",
    )
    uris: Annotated[list[str], OMIT] = Field(
        default_factory=list,
        description="Canonical identifiers to seed with directly, for a request about "
        "something that is\nneither an issue nor a milestone.",
    )
    budget_tokens: Annotated[int | None, OMIT] = Field(
        None,
        ge=0,
        description=f"The ceiling in estimated tokens; {DEFAULT_BUDGET_TOKENS} when absent.",
    )
    max_depth: Annotated[int | None, OMIT] = Field(
        None,
        ge=0,
        description=f"How far from a seed the walk goes; {DEFAULT_MAX_DEPTH} when absent.",
    )
    floor: Annotated[float | None, OMIT] = Field(
        None,
        description="Relevance below which an entry is reported rather than given; "
        f"{DEFAULT_FLOOR}\nwhen absent.",
    )
    all_blocking_rules: Annotated[bool | None, OMIT] = Field(
        None,
        description="Every blocking rule of the layer, not only the ones the work reaches. "
        "Honest and\nusually over budget: the answer then says `over_budget` rather than "
        "dropping what it\nmay not drop.",
    )
    bundle: bool = Field(
        False,
        exclude_if=lambda v: not v,
        description="Also answer with the bundle: the selected entries' content as one "
        "Markdown text,\nin tier order, each headed by its identifier and why it is in; "
        "the headings are paid\nfrom the same budget.",
    )


CompileInput = DevContextInput


class DevContextExplainInput(DevContextInput):
    """The input of `devcontext.explain`: one identifier, and the request to judge it under."""

    uri: Annotated[str, Field(description="The canonical identifier to explain.")]


ExplainInput = DevContextExplainInput


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

    @classmethod
    def warning(cls, code: str, message: str, path: str | None = None) -> Diagnostic:
        return cls(severity="warning", code=code, path=path, message=message)


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
