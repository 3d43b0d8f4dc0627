"""The rows of the compiled answer, built from what the spend chose. Pure."""

from __future__ import annotations

from majordomus.devcontext.candidates import Candidate, version_of
from majordomus.devcontext.model import (
    CommitReference,
    ContextEntry,
    Diagnostic,
    EntryProvenance,
    Excluded,
    ExclusionReason,
    GitContext,
    Tier,
    TierSpend,
)
from majordomus.devcontext.relevance import best_first, confidence_of, round3
from majordomus.layer.git import GitState
from majordomus.layer.model import SEVERITY_RANK


def entry_of(cand: Candidate, size: int, paid: int, cost: int, required: bool) -> ContextEntry:
    """The selected row of a candidate; `paid` is the bytes charged (with a bundle's section)."""
    if cand.obj is not None:
        provenance = EntryProvenance.model_validate(cand.obj.provenance, from_attributes=True)
        version = version_of(cand.obj)
    else:
        path = cand.path if cand.path is not None else cand.uri
        directory = path.rpartition("/")[0] if "/" in path else "."
        provenance = EntryProvenance(
            path=path,
            directory=directory,
            source_class="local-state" if cand.uri.startswith("local:") else "named",
            bytes=size,
        )
        version = cand.facts.get("created_at")
    return ContextEntry(
        uri=cand.uri,
        kind=cand.kind,
        title=cand.title,
        provenance=provenance,
        tier=cand.tier,
        relevance=round3(cand.relevance),
        confidence=confidence_of(cand.discovered_by),
        discovered_by=best_first(cand.discovered_by),
        depth=cand.depth,
        cost_tokens=cost,
        cost_bytes=paid,
        version=version,
        status=cand.status,
        required=required,
        facts=cand.facts,
    )


def commits_of(
    selected: list[ContextEntry], candidates: dict[str, Candidate]
) -> list[CommitReference]:
    """The commits named by the evidence of selected objects, byte order, once each."""
    found: set[tuple[str, str, str | None]] = set()
    for entry in selected:
        cand = candidates.get(entry.uri)
        evidence = cand.obj.metadata.get("evidence") if cand and cand.obj else None
        if not isinstance(evidence, list):
            continue
        for item in evidence:
            if isinstance(item, dict) and isinstance(item.get("commit"), str):
                covers = item.get("covers")
                found.add((item["commit"], entry.uri, covers if isinstance(covers, str) else None))
    rows = sorted(found, key=lambda t: (t[0], t[1], t[2] is not None, t[2] or ""))
    return [CommitReference(commit=c, named_by=n, covers=v) for c, n, v in rows]


def git_context(git: GitState, commits: list[CommitReference]) -> GitContext:
    """Where the checkout stands, or why git cannot say, and the commits the layer names."""
    if git.available:
        return GitContext(
            branch=git.branch, head=git.head, working_tree=git.working_tree, commits=commits
        )
    return GitContext(working_tree=f"unavailable: {git.reason or ''}", commits=commits)


def tier_rows(selected: list[ContextEntry], excluded: list[Excluded]) -> list[TierSpend]:
    rows = []
    for tier in Tier.ORDER:
        mine = [e for e in selected if e.tier is tier]
        rows.append(
            TierSpend(
                tier=tier,
                meaning=tier.meaning(),
                selected=len(mine),
                excluded=sum(
                    1 for x in excluded if x.tier is tier and x.reason is ExclusionReason.BUDGET
                ),
                tokens=sum(e.cost_tokens for e in mine),
                required=sum(1 for e in mine if e.required),
            )
        )
    return rows


def ordered_diagnostics(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Severity descending, then code, then message; consecutive duplicates once."""
    ranked = sorted(
        diagnostics, key=lambda d: (-SEVERITY_RANK.get(d.severity, 0), d.code, d.message)
    )
    return [d for i, d in enumerate(ranked) if i == 0 or ranked[i - 1] != d]


def over_budget(selected: list[ContextEntry], limit: int) -> list[Diagnostic]:
    """The warning that what may not be dropped costs more than the limit, naming each."""
    required = [e for e in selected if e.required]
    cost = sum(e.cost_tokens for e in required)
    if cost <= limit:
        return []
    named = ", ".join(f"{e.uri} ({e.cost_tokens})" for e in required)
    message = (
        f"the {len(required)} entries that may not be dropped cost {cost} token(s), over the "
        f"limit of {limit}: {named}"
    )
    return [Diagnostic.warning("over_budget", message)]
