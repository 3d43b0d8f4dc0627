"""The context compiler: what an assistant should be given for a task, under one token budget.

`compile_context` walks the typed graph of the layer from what a request names, spends a single
budget (required entries first, then the work's promise, other work last), lays the answer
out in tier order, optionally as one Markdown bundle, and reports every exclusion and
collapse; `explain` answers where one identifier stands; `policy` publishes the rules as
data. Contract: docs/devcontext.md.

The compiler and its vocabulary load eagerly; the wire models (which need pydantic) load on
first use, so a plain compile (`majordomus.mcp.plain`) imports no pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from majordomus.devcontext.compiler import CompileSources, compile_context
from majordomus.devcontext.explain import explain
from majordomus.devcontext.inputs import intent_terms
from majordomus.devcontext.policy import policy
from majordomus.devcontext.vocabulary import (
    BYTES_PER_TOKEN,
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_FLOOR,
    DEFAULT_MAX_DEPTH,
    DevContextStanding,
    ExclusionReason,
    Selector,
    Standing,
    Tier,
    tier_for_kind,
    tokens_for,
)

if TYPE_CHECKING:
    from majordomus.devcontext.model import (
        Budget,
        CommitReference,
        CompiledContext,
        CompileInput,
        CompilerPolicy,
        Conflict,
        ContextEntry,
        Deduplicated,
        DevContextExplainInput,
        DevContextInput,
        Diagnostic,
        EdgeRule,
        EntryProvenance,
        Excluded,
        ExplainInput,
        Explanation,
        GitContext,
        Route,
        Seed,
        SelectorRule,
        TierRule,
        TierSpend,
    )

#: Each name loaded on first use, by the module that holds it.
_LAZY = {
    **dict.fromkeys(
        (
            "Budget",
            "CommitReference",
            "CompiledContext",
            "CompileInput",
            "CompilerPolicy",
            "Conflict",
            "ContextEntry",
            "Deduplicated",
            "DevContextExplainInput",
            "DevContextInput",
            "Diagnostic",
            "EdgeRule",
            "EntryProvenance",
            "Excluded",
            "ExplainInput",
            "Explanation",
            "GitContext",
            "Route",
            "Seed",
            "SelectorRule",
            "TierRule",
            "TierSpend",
        ),
        "majordomus.devcontext.model",
    ),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
    "DevContextExplainInput",
    "DevContextInput",
    "DevContextStanding",
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
    "intent_terms",
    "policy",
    "tier_for_kind",
    "tokens_for",
]
