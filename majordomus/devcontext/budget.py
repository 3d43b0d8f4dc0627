"""The single-pot spend: de-duplication, exclusions, then first fit by band (docs/devcontext.md),
and the rows of the compiled answer built from what it chose.

Pure: sizes the index does not hold come from the injected size function."""

from __future__ import annotations

from dataclasses import dataclass, field

from majordomus.devcontext.bundle import section
from majordomus.devcontext.candidates import Band, Candidate, version_of
from majordomus.devcontext.inputs import Request
from majordomus.devcontext.model import (
    BYTES_PER_TOKEN,
    STALE_STATUSES,
    Budget,
    CommitReference,
    CompiledContext,
    Conflict,
    ContextEntry,
    Deduplicated,
    Diagnostic,
    EntryProvenance,
    Excluded,
    ExclusionReason,
    GitContext,
    Tier,
    TierSpend,
    tokens_for,
)
from majordomus.devcontext.relevance import below_floor_detail, best_first, confidence_of, round3
from majordomus.devcontext.select import Selection
from majordomus.devcontext.sources import CompileSources, SizeOf
from majordomus.layer.git import GitState
from majordomus.order import canonical, canonical_strings

_SPECIFICITY = {"file": 0, "document": 1}
_U32_MAX = 2**32 - 1
#: The most of the budget other issues (siblings of the milestone, issues that depend on or
#: name the work) may take, as a fraction of the limit.
OTHER_WORK_SHARE = 0.15
#: The most of the answer what lies beyond the work may take (other issues, sessions of
#: other work, what the walk reaches past the promise): it is funded after the promise and
#: never outweighs it.
BEYOND_SHARE = 0.25
#: A budget at least this many times what everything reached costs is ample: the shares
#: above then cut nothing, and nothing reached above the floor is dropped for budget.
AMPLE = 10


def is_required(cand: Candidate, object_seeds: set[str]) -> bool:
    """A seed, the policy, the scope, or a blocking rule the work is held to: never dropped."""
    return (
        cand.uri in object_seeds
        or cand.kind in ("policy", "scope")
        or (cand.kind == "rule" and cand.binding and cand.facts.get("class") == "blocking")
    )


@dataclass(slots=True)
class _Spend:
    cands: dict[str, Candidate]
    object_seeds: set[str]
    supersedes: dict[str, list[str]]
    size_of: SizeOf
    bundle: bool = False
    excluded: list[Excluded] = field(default_factory=list)
    deduplicated: list[Deduplicated] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    dropped: set[str] = field(default_factory=set)

    def bytes_of(self, cand: Candidate) -> int:
        if cand.obj is not None:
            return cand.obj.provenance.bytes
        recorded = cand.facts.get("bytes")
        if recorded is not None and recorded.isdigit():
            return int(recorded)
        if cand.path is not None:
            return self.size_of(cand.path) or 0
        return 0

    def costed(self, cand: Candidate, required: bool) -> tuple[int, int]:
        """The bytes of the thing and the bytes it costs: in a bundle, with its section."""
        size = self.bytes_of(cand)
        if not self.bundle:
            return size, size
        path = cand.path if cand.path is not None else cand.uri
        content = cand.obj.content if cand.obj is not None else None
        text = section(cand.uri, cand.tier, path, required, best_first(cand.discovered_by), content)
        return size, len(text.encode("utf-8")) + (0 if content is not None else size)

    def exclude(
        self, cand: Candidate, reason: ExclusionReason, detail: str, cost: int | None = None
    ) -> None:
        """Report `cand` as not given; `cost` is what its own bytes cost unless told."""
        if cost is None:
            cost = tokens_for(self.bytes_of(cand))
        self.excluded.append(
            Excluded(
                uri=cand.uri,
                kind=cand.kind,
                tier=cand.tier,
                reason=reason,
                detail=detail,
                cost_tokens=cost,
                relevance=cand.relevance,
            )
        )

    def fold(self, kept: str, losers: list[str], key: str, detail: str) -> None:
        """`losers` are `kept` under another name: dropped, and reported as folded into it."""
        self.dropped.update(losers)
        self.deduplicated.append(
            Deduplicated(kept=kept, dropped=losers, key=key, detail=detail, paths=1)
        )

    # step 1
    def structural(self) -> None:
        for uri, cand in self.cands.items():
            ways, n = cand.discovered_by, len(cand.discovered_by)
            if n < 2:
                continue
            # each way named once, as `selector` or `selector(edge)`
            words = (f"{d.selector.value}({d.edge})" if d.edge else d.selector.value for d in ways)
            named = ", ".join(dict.fromkeys(canonical_strings(words)))
            self.deduplicated.append(
                Deduplicated(
                    kept=uri,
                    dropped=[],
                    key="uri",
                    detail=f"one object reached by {n} discovery path(s): {named}",
                    paths=n,
                )
            )

    # step 2
    def same_path(self) -> None:
        groups: dict[str, list[Candidate]] = {}
        for cand in self.cands.values():
            if cand.path is not None:
                groups.setdefault(cand.path, []).append(cand)
        for path, group in groups.items():
            if len(group) < 2:
                continue
            ranked = sorted(group, key=lambda c: (_SPECIFICITY.get(c.kind, 2), -c.relevance, c.uri))
            detail = (
                f"`{path}` is indexed under {len(group)} identifiers; the most specific kind is "
                "kept"
            )
            self.fold(ranked[0].uri, [c.uri for c in ranked[1:]], "path", detail)

    # step 3
    def versions(self) -> None:
        stems: dict[str, list[tuple[int, str]]] = {}
        for uri in self.cands:
            stem, at, version = uri.rpartition("@")
            if at and version.isascii() and version.isdigit() and int(version) <= _U32_MAX:
                stems.setdefault(stem, []).append((int(version), uri))
        for stem, group in stems.items():
            if len(group) < 2:
                continue
            ranked = sorted(group, key=lambda pair: (-pair[0], pair[1]))
            kept = ranked[0][1]
            losers = [uri for _, uri in ranked[1:]]
            detail = f"`{stem}` is in the answer at two versions; the higher one is what applies"
            self.conflicts.extend(
                Conflict(current=kept, against=loser, kind="version", detail=detail)
                for loser in losers
            )
            self.fold(kept, losers, "identity", f"`{stem}` at {len(group)} versions")

    # step 4
    def superseded(self) -> None:
        for later in sorted(self.supersedes):
            if later not in self.cands:
                continue
            for earlier in self.supersedes[later]:
                if earlier in self.cands and earlier not in self.object_seeds:
                    detail = (
                        f"`{later}` stands in for `{earlier}`; the later decision is what holds"
                    )
                    self.conflicts.append(
                        Conflict(current=later, against=earlier, kind="supersedes", detail=detail)
                    )
                    self.dropped.add(earlier)

    # step 5 (a same-path loser is only folded, so `explain` answers `deduplicated`)
    def drop(self) -> None:
        for uri in sorted(self.dropped):
            cand = self.cands.pop(uri)
            conflict = next((c for c in self.conflicts if c.against == uri), None)
            if conflict is not None:
                self.exclude(cand, ExclusionReason.SUPERSEDED, conflict.detail)

    # step 6
    def stale(self) -> list[Diagnostic]:
        diagnostics: list[Diagnostic] = []
        for uri, cand in list(self.cands.items()):
            if cand.status not in STALE_STATUSES:
                continue
            if uri in self.object_seeds:
                message = (
                    f"`{uri}` is `{cand.status}` and was named in the request; it is kept anyway"
                )
                diagnostics.append(Diagnostic.warning("stale_seed", message, cand.path))
                continue
            del self.cands[uri]
            detail = f"the object declares `status: {cand.status}`"
            self.exclude(cand, ExclusionReason.STALE, detail)
        return diagnostics

    # below the floor or beyond the depth: reported as an exclusion
    def below_floor(self, floor: float) -> None:
        for uri, cand in list(self.cands.items()):
            if cand.relevance < floor and not is_required(cand, self.object_seeds):
                del self.cands[uri]
                detail = below_floor_detail(cand.relevance, floor)
                self.exclude(cand, ExclusionReason.RELEVANCE, detail)

    # steps 7–8
    def first_fit(self, limit: int, frame: int = 0) -> tuple[list[ContextEntry], int, int]:
        """Fund what may not be dropped, then the rest by band, first fit within `limit - frame`."""
        required = [c for c in self.cands.values() if is_required(c, self.object_seeds)]
        rest = sorted(
            (c for c in self.cands.values() if not is_required(c, self.object_seeds)),
            key=lambda c: (c.band, -c.relevance, c.tier.rank, c.uri),
        )
        chosen: list[tuple[Candidate, int, int, int, bool]] = []
        for cand in required:
            size, paid = self.costed(cand, True)
            chosen.append((cand, size, paid, tokens_for(paid), True))
        used = required_tokens = sum(cost for *_, cost, _ in chosen)
        room = limit - frame
        reached = used + sum(tokens_for(self.costed(c, False)[1]) for c in rest)
        shares = None if AMPLE * reached <= room else _Shares(limit, bool(self.object_seeds))
        for cand in rest:
            size, paid = self.costed(cand, False)
            cost = tokens_for(paid)
            if used + cost > room:
                refusal: str | None = (
                    f"{cost} token(s) would not fit: {used} of {limit} already spent, "
                    f"{max(0, limit - used)} left"
                )
            else:
                refusal = shares.refusal(cand.band, cost, used) if shares else None
            if refusal is not None:
                self.exclude(cand, ExclusionReason.BUDGET, refusal, cost)
                continue
            used += cost
            chosen.append((cand, size, paid, cost, False))
        chosen.sort(key=lambda t: (t[0].tier.rank, -t[0].relevance, t[0].uri))
        selected = [entry_of(*row) for row in chosen]
        return selected, used, required_tokens


class _Shares:
    """What the bands beyond the work may take of a scarce budget (docs/devcontext.md)."""

    def __init__(self, limit: int, named_work: bool) -> None:
        self.limit = limit
        self.share = int(limit * OTHER_WORK_SHARE)
        self.named_work = named_work
        self.others = self.beyond = 0
        self.allowance: int | None = None

    def refusal(self, band: Band, cost: int, used: int) -> str | None:
        """Why `cost` more tokens of `band` would not fit, or None (and they are counted)."""
        if band > Band.MILESTONE and self.named_work:
            if self.allowance is None:  # set by what is promised: `BEYOND_SHARE` of the whole
                self.allowance = int(used * BEYOND_SHARE / (1 - BEYOND_SHARE))
            if self.beyond + cost > self.allowance:
                return (
                    f"{cost} token(s) would not fit in what lies beyond the work may take: "
                    f"{self.beyond} of {self.allowance} already spent "
                    f"({BEYOND_SHARE:.0%} of the answer)"
                )
            self.beyond += cost
        if band is Band.OTHER_WORK:
            if self.others + cost > self.share:
                return (
                    f"{cost} token(s) would not fit in the share other issues may take: "
                    f"{self.others} of {self.share} already spent "
                    f"({OTHER_WORK_SHARE:.0%} of {self.limit})"
                )
            self.others += cost
        return None


def spend(
    source: CompileSources, request: Request, selection: Selection, frame: int | None = None
) -> CompiledContext:
    """The twelve steps (docs/devcontext.md); `frame`: the tokens a bundle's frame holds back."""
    candidates = selection.candidates
    object_seeds, limit = set(request.object_seeds), request.limit
    run = _Spend(
        dict(sorted(candidates.items())),
        object_seeds,
        source.graph.supersedes,
        source.size_of,
        bundle=frame is not None,
    )
    run.structural()
    run.same_path()
    run.versions()
    run.superseded()
    run.drop()
    stale_seeds = run.stale()
    run.below_floor(request.floor)
    selected, used, required_tokens = run.first_fit(limit, frame or 0)
    selected_paths = {e.provenance.path for e in selected}
    held: set[str] = set()
    for ref, detail in selection.unresolved.items():
        if ref.declared_in in selected_paths and ref.reference not in held:
            held.add(ref.reference)
            run.excluded.append(
                Excluded(
                    uri=ref.reference,
                    tier=Tier.HISTORY,
                    reason=ExclusionReason.UNRESOLVED,
                    detail=detail,
                    cost_tokens=1,
                    relevance=0.0,
                )
            )
    excluded = canonical([*run.excluded, *selection.unreached])
    # every note is a warning: ordered by code, then message; consecutive duplicates once
    notes = sorted(
        [
            *selection.diagnostics,
            *stale_seeds,
            *over_budget(selected, limit),
            *(
                Diagnostic.warning(
                    "unresolved_reference", f"`{ref.reference}` is named and not held: {detail}"
                )
                for ref, detail in selection.unresolved.items()
            ),
        ],
        key=lambda d: (d.code, d.message),
    )
    budget = Budget(
        limit_tokens=limit,
        used_tokens=used,
        required_tokens=required_tokens,
        remaining_tokens=max(0, limit - used),
        over_budget=used > limit,
        bytes_per_token=BYTES_PER_TOKEN,
        tiers=tier_rows(selected, excluded),
    )
    return CompiledContext(
        fingerprint=source.index.fingerprint,
        git=git_context(source.index.git, commits_of(selected, candidates)),
        seeds=request.seeds,
        selected=selected,
        excluded=excluded,
        deduplicated=canonical(run.deduplicated),
        conflicts=canonical(run.conflicts),
        budget=budget,
        diagnostics=[d for i, d in enumerate(notes) if i == 0 or notes[i - 1] != d],
    )


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
