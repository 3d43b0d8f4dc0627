"""The context compiler's vocabulary: its constants and the four enums whose values are the
wire words (tiers in spend order, selectors, exclusion reasons, standings).

Pydantic-free on purpose: the compiler builds its answer from these and the plain shapes
(`majordomus.devcontext.shapes`), so an MCP session's first compile imports no pydantic.
The wire models (`majordomus.devcontext.model`) re-export every name here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

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


class Tier(StrEnum):
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

    @property
    def rank(self) -> int:
        """The position in spend order (0 = task); `<` compares these."""
        return _TIER_INDEX[self]

    def as_str(self) -> str:
        return self.value

    def meaning(self) -> str:
        """One line saying what the tier holds (carried by every tier row)."""
        return _TIER_MEANING[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tier):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Tier):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Tier):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Tier):
            return NotImplemented
        return self.rank >= other.rank


Tier.ORDER = tuple(Tier)
_TIER_INDEX = {tier: i for i, tier in enumerate(Tier.ORDER)}
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


class Selector(StrEnum):
    """What reached an entry; only `intent_match` infers, the other six follow declarations."""

    ALL: ClassVar[tuple[Selector, ...]]

    SEED = "seed"
    RELATION = "relation"
    SCOPE_PATH = "scope_path"
    CONTRACT = "contract"
    GOVERNANCE = "governance"
    SESSION_STATE = "session_state"
    INTENT_MATCH = "intent_match"

    @property
    def rank(self) -> int:
        """The position in declaration order, the tie-break of "best path first"."""
        return _SELECTOR_INDEX[self]

    def as_str(self) -> str:
        return self.value

    def declared(self) -> bool:
        """True when the path follows something the repository states."""
        return self is not Selector.INTENT_MATCH


Selector.ALL = tuple(Selector)
_SELECTOR_INDEX = {selector: i for i, selector in enumerate(Selector.ALL)}


class ExclusionReason(StrEnum):
    """Why something reached did not survive; the first three are the request's own limits."""

    BUDGET = "budget"
    RELEVANCE = "relevance"
    DEPTH = "depth"
    STALE = "stale"
    SUPERSEDED = "superseded"
    UNRESOLVED = "unresolved"

    def as_str(self) -> str:
        return self.value

    def request_bound(self) -> bool:
        """True when a different request (a higher limit) could bring the entry back."""
        return self in (ExclusionReason.BUDGET, ExclusionReason.RELEVANCE, ExclusionReason.DEPTH)


class DevContextStanding(StrEnum):
    """Where one identifier stands with respect to a compiled context."""

    SELECTED = "selected"
    EXCLUDED = "excluded"
    DEDUPLICATED = "deduplicated"
    NOT_REACHED = "not_reached"
    UNKNOWN = "unknown"

    def as_str(self) -> str:
        return self.value


Standing = DevContextStanding
