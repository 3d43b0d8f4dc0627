"""`compile_context`: the order of the stages (resolve, select, spend, bundle); `explain`:
where one identifier stands in what a request compiles; `policy`: the rules applied, as data.

Pure given what the sources inject: the same index and request give an equal answer."""

from __future__ import annotations

from typing import Any

from majordomus.devcontext.budget import spend
from majordomus.devcontext.bundle import frame_reserve, render
from majordomus.devcontext.graph import UNRULED, EdgeKind, edge_kinds
from majordomus.devcontext.inputs import resolve
from majordomus.devcontext.model import (
    CompiledContext,
    CompileInput,
    CompilerPolicy,
    EdgeRule,
    ExplainInput,
    Explanation,
    Selector,
    SelectorRule,
    Standing,
    Tier,
    TierRule,
    tier_for_kind,
)
from majordomus.devcontext.relevance import number
from majordomus.devcontext.select import select
from majordomus.devcontext.sources import sources_of
from majordomus.errors import InvalidInput
from majordomus.layer.model import Index
from majordomus.layer.shortid import why_absent

REGISTRY_KINDS = ("module", "capability", "projection")


def compile_context(ctx: Any, request: CompileInput | None = None) -> CompiledContext:
    """The context a session should be given for `request`; `ctx` as `sources_of` takes it."""
    given = request if request is not None else CompileInput()
    source = sources_of(ctx)
    wanted = resolve(source.index, given)
    frame = frame_reserve(wanted.seeds, wanted.limit) if given.bundle else None
    compiled = spend(source, wanted, select(source, wanted), frame)
    if given.bundle:
        compiled.bundle = render(compiled, source.index)
    return compiled


def explain(ctx: Any, given: ExplainInput) -> Explanation:
    """Why `given.uri` is, or is not, in the context `given`'s request compiles."""
    uri = given.uri.strip()
    if not uri:
        raise InvalidInput("name the canonical identifier to explain")
    source = sources_of(ctx)
    return judge(source.index, compile_context(source, given), uri)


def judge(index: Index, compiled: CompiledContext, uri: str) -> Explanation:
    """The first standing of docs/devcontext.md that applies to `uri` in `compiled`."""

    def answer(standing: Standing, detail: str, **row: Any) -> Explanation:
        return Explanation(uri=uri, standing=standing, detail=detail, budget=compiled.budget, **row)

    for entry in compiled.selected:
        if entry.uri == uri:
            ways = "; ".join(f"{d.selector.value}: {d.reason}" for d in entry.discovered_by)
            detail = (
                f"in the {entry.tier.value} tier at relevance {number(entry.relevance)} and "
                f"confidence {number(entry.confidence)}, costing {entry.cost_tokens} token(s); "
                f"reached by {len(entry.discovered_by)} path(s) — {ways}"
            )
            return answer(Standing.SELECTED, detail, entry=entry)
    for row in compiled.excluded:
        if row.uri == uri:
            detail = f"reached and not given: {row.reason.value} — {row.detail}"
            return answer(Standing.EXCLUDED, detail, excluded=row)
    for folded in compiled.deduplicated:
        if uri in folded.dropped:
            detail = f"folded into `{folded.kept}` by {folded.key}: {folded.detail}"
            return answer(Standing.DEDUPLICATED, detail, deduplicated=folded)
    if uri in index.by_uri:
        return answer(
            Standing.NOT_REACHED,
            f"the index holds `{uri}` and no selector of this request reached it: no seed names "
            "it, no followed edge leads to it, no declared path contains it, and it is not "
            "governance",
        )
    return answer(
        Standing.UNKNOWN, why_absent(index, uri, f"the index holds nothing under `{uri}`")
    )


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
        rule = known.get(kind) or EdgeKind(means=kind, refusal=UNRULED)
        followed = f"{rule.forward_reason}; reversed: {rule.reverse_reason}"
        edges.append(
            EdgeRule(
                edge=kind,
                means=rule.means,
                forward=rule.forward,
                reverse=rule.reverse,
                reason=followed if rule.followed else rule.refusal,
                refused=not rule.followed,
            )
        )
    selectors = [SelectorRule(selector=s, declared=s.declared()) for s in Selector.ALL]
    return CompilerPolicy(tiers=tiers, edges=edges, selectors=selectors)
