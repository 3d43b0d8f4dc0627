"""`policy`: the rules the compiler applies, as data (docs/devcontext.md). Pure."""

from __future__ import annotations

from typing import Any

from majordomus.devcontext.graph import UNRULED, edge_kinds
from majordomus.devcontext.model import (
    CompilerPolicy,
    EdgeRule,
    Selector,
    SelectorRule,
    Tier,
    TierRule,
    tier_for_kind,
)
from majordomus.devcontext.sources import sources_of

REGISTRY_KINDS = ("module", "capability", "projection")


def policy(ctx: Any) -> CompilerPolicy:
    """The compiler's policy over the composed graph of `ctx`'s index."""
    graph = sources_of(ctx).graph
    kinds = sorted({node.kind for node in graph.nodes.values()} | set(REGISTRY_KINDS))
    tiers = [
        TierRule(
            tier=tier,
            position=i + 1,
            meaning=tier.meaning(),
            kinds=[k for k in kinds if tier_for_kind(k) is tier],
        )
        for i, tier in enumerate(Tier.ORDER)
    ]
    edges = []
    known = edge_kinds()
    for kind in sorted(set(known) | {edge.kind for edge in graph.edges}):
        rule = known.get(kind)
        if rule is None:
            edges.append(EdgeRule(edge=kind, means=kind, reason=UNRULED, refused=True))
        elif rule.refusal is not None:
            edges.append(EdgeRule(edge=kind, means=rule.means, reason=rule.refusal, refused=True))
        else:
            edges.append(
                EdgeRule(
                    edge=kind,
                    means=rule.means,
                    forward=rule.forward,
                    reverse=rule.reverse,
                    reason=f"{rule.forward_reason}; reversed: {rule.reverse_reason}",
                    refused=False,
                )
            )
    selectors = [SelectorRule(selector=s, declared=s.declared()) for s in Selector.ALL]
    return CompilerPolicy(tiers=tiers, edges=edges, selectors=selectors)
