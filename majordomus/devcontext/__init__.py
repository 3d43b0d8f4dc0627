"""The context compiler: what a task's assistant is given under one budget (docs/devcontext.md)."""

from __future__ import annotations

from majordomus.devcontext.compiler import compile_context, explain, policy
from majordomus.devcontext.model import (
    BYTES_PER_TOKEN,
    Budget,
    CommitReference,
    CompiledContext,
    CompileInput,
    CompilerPolicy,
    Conflict,
    ContextEntry,
    Deduplicated,
    EntryProvenance,
    Excluded,
    ExclusionReason,
    ExplainInput,
    Explanation,
    Route,
    Selector,
    Standing,
    Tier,
    TierSpend,
    tokens_for,
)
from majordomus.devcontext.sources import CompileSources

__all__ = [
    "BYTES_PER_TOKEN",
    "Budget",
    "CommitReference",
    "CompileInput",
    "CompileSources",
    "CompiledContext",
    "CompilerPolicy",
    "Conflict",
    "ContextEntry",
    "Deduplicated",
    "EntryProvenance",
    "Excluded",
    "ExclusionReason",
    "ExplainInput",
    "Explanation",
    "Route",
    "Selector",
    "Standing",
    "Tier",
    "TierSpend",
    "compile_context",
    "explain",
    "policy",
    "tokens_for",
]
