"""The context compiler: what an assistant should be given for a task, under one token budget.

Contract: docs/devcontext.md.
"""

from __future__ import annotations

from majordomus.devcontext.compiler import compile_context
from majordomus.devcontext.explain import explain
from majordomus.devcontext.model import (
    BYTES_PER_TOKEN,
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_FLOOR,
    DEFAULT_MAX_DEPTH,
    Budget,
    CommitReference,
    CompiledContext,
    CompileInput,
    CompilerPolicy,
    Conflict,
    ContextEntry,
    Deduplicated,
    Diagnostic,
    EdgeRule,
    EntryProvenance,
    Excluded,
    ExclusionReason,
    ExplainInput,
    Explanation,
    GitContext,
    Route,
    Seed,
    Selector,
    SelectorRule,
    Standing,
    Tier,
    TierRule,
    TierSpend,
    tier_for_kind,
    tokens_for,
)
from majordomus.devcontext.policy import policy
from majordomus.devcontext.sources import CompileSources

__all__ = [
    "BYTES_PER_TOKEN",
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_FLOOR",
    "DEFAULT_MAX_DEPTH",
    "Budget",
    "CommitReference",
    "CompileInput",
    "CompileSources",
    "CompiledContext",
    "CompilerPolicy",
    "Conflict",
    "ContextEntry",
    "Deduplicated",
    "Diagnostic",
    "EdgeRule",
    "EntryProvenance",
    "Excluded",
    "ExclusionReason",
    "ExplainInput",
    "Explanation",
    "GitContext",
    "Route",
    "Seed",
    "Selector",
    "SelectorRule",
    "Standing",
    "Tier",
    "TierRule",
    "TierSpend",
    "compile_context",
    "explain",
    "policy",
    "tier_for_kind",
    "tokens_for",
]
