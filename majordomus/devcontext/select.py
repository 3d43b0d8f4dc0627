"""The seven selectors, run in order over the index and its graph (docs/devcontext.md); the
paths a decision, knowledge or rule lies over are read from its own front matter.

Pure: the only I/O is what the injected continuity provider and size function do. Long on
purpose: the selectors share one candidate set and walk state, one method each, in order."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from majordomus.devcontext.candidates import Band, Candidate, scalar_facts, scalar_text
from majordomus.devcontext.graph import Node, followed
from majordomus.devcontext.inputs import Request
from majordomus.devcontext.model import (
    Diagnostic,
    Excluded,
    ExclusionReason,
    Route,
    Selector,
    Tier,
    tier_for_kind,
    tokens_for,
)
from majordomus.devcontext.relevance import below_floor_detail, number
from majordomus.devcontext.sources import RECORD_FIELDS, CompileSources
from majordomus.layer.model import LayerObject, UnresolvedReference
from majordomus.layer.ranking import Ranking, layer_ranking, plan, rank, why
from majordomus.layer.relations import strings_in
from majordomus.paths import escapes, is_under

SOURCE_KINDS = ("implementation", "test")
LOCAL_RECORDS = (
    ("handover", "handover the last session left", 0.95),
    ("checkpoint", "newest checkpoint", 0.8),
)
TRUSTED_DIVERGENCE = (None, "exact", "advanced")
#: The kinds always given, as the repository's governance, and why.
GOVERNING = {
    "policy": "the repository's policy: it decides what every session is held to",
    "scope": "the repository's scope: what a worker reads and what it never reads",
}
#: Relevance of a decision, knowledge or rule over the work's own scope, and over the scope
#: of its milestone.
OVER_SCOPE = 0.8
OVER_MILESTONE_SCOPE = 0.6
GOVERNS_SCOPE = 0.85
#: An intent's hit is at most this relevant (its score scales it); at most `INTENT_HITS` of
#: them are offered. An issue or milestone seed recalls at most `RECALLED_DECISIONS`
#: decisions whose own title holds `TITLE_WORDS` of its words.
INTENT_WEIGHT = 0.6
INTENT_HITS = 25
RECALLED_DECISIONS = 2
TITLE_WORDS = 2

#: Kinds matched against a scope through the paths they refer to.
REFERRING_KINDS = ("adr", "knowledge")
_PATH_PREFIXES = ("file:", "test:")


def _clean(path: str) -> str | None:
    """A repository-relative path without a trailing glob or slash; None when it is not one."""
    path = path.strip()
    for tail in ("/**", "/*"):
        if path.endswith(tail):
            path = path[: -len(tail)]
    path = path.rstrip("/")
    while path.startswith("./"):
        path = path[2:]
    if not path or escapes(path) or "*" in path:
        return None
    return path


def _cleaned(texts: Iterable[str]) -> list[str]:
    """The repository-relative paths among `texts`, in byte order, once each."""
    return sorted({path for text in texts if (path := _clean(text)) is not None})


def referenced_paths(obj: LayerObject) -> list[str]:
    """The `file:`/`test:` references and `tracks` of an object."""
    referred = (
        text[len(prefix) :]
        for text in strings_in(obj.metadata)
        for prefix in _PATH_PREFIXES
        if text.startswith(prefix)
    )
    return _cleaned([*referred, *strings_in(obj.metadata.get("tracks"))])


def governed_paths(obj: LayerObject) -> list[str]:
    """The paths a rule declares it applies to (`applies_to`, or `scope` as a list)."""
    scope = obj.metadata.get("scope")
    declared = [obj.metadata.get("applies_to"), scope if isinstance(scope, list) else None]
    return _cleaned(strings_in(declared))


@dataclass(frozen=True, slots=True)
class Selection:
    """What the selectors produced, before anything is spent."""

    candidates: dict[str, Candidate]
    diagnostics: list[Diagnostic]
    unresolved: dict[UnresolvedReference, str]
    unreached: list[Excluded]


class _Selector:
    """One run of the pipeline: the request, the graph and what has been reached so far."""

    def __init__(self, source: CompileSources, request: Request) -> None:
        self.source = source
        self.index = source.index
        self.graph = source.graph
        self.request = request
        self.found: dict[str, Candidate] = {}
        self.diagnostics: list[Diagnostic] = []
        self.below_floor: dict[str, float] = {}
        self.beyond_depth: dict[str, float] = {}
        self.seed_set = set(request.object_seeds)

    def run(self) -> Selection:
        self.seeds()
        self.walk()
        paths = self.effective_paths()
        self.scope_and_contracts(paths)
        self.governance()
        self.sessions(paths)
        self.local_records()
        self.intent()
        self.recalled()
        return Selection(self.found, self.diagnostics, self.unresolved(), self.unreached())

    def offer(
        self,
        uri: str,
        tier: Tier,
        relevance: float,
        selector: Selector,
        reason: str,
        *,
        depth: int = 1,
        via: str | None = None,
        edge: str | None = None,
        weight: float | None = None,
        confidence: float = 1.0,
        band: Band = Band.REST,
        binding: bool = False,
    ) -> None:
        """Offer `uri` as `selector` reached it (one step, weighing the relevance unless told);
        a later offer merges into the first, and what the graph does not hold is not offered."""
        way = Route(
            selector=selector,
            reason=reason,
            via=via,
            edge=edge,
            depth=depth,
            confidence=confidence,
            weight=relevance if weight is None else weight,
        )
        known = self.found.get(uri)
        if known is not None:
            known.merge(relevance, tier, way, band, binding)
        elif (node := self.graph.nodes.get(uri)) is not None:
            self.found[uri] = Candidate.of(node, tier, relevance, way, band, binding)

    def seeds(self) -> None:
        why = "named in the request"
        for uri in self.request.object_seeds:
            self.offer(
                uri, Tier.TASK, 1.0, Selector.SEED, why, depth=0, band=Band.WORK, binding=True
            )

    def walk(self) -> None:
        floor, max_depth = self.request.floor, self.request.max_depth
        queue = deque((s, 1.0, 0, Band.WORK) for s in self.request.object_seeds if s in self.found)
        seen = set(self.request.object_seeds)
        while queue:
            node, rel, depth, band = queue.popleft()
            steps = self._steps(node)
            if depth >= max_depth:
                for target, _kind, w, _reason, _forward in steps:
                    if rel * w >= floor:
                        self._remember(self.beyond_depth, target, rel * w)
                continue
            for target, kind, w, reason, forward in steps:
                if not forward and kind == "belongs_to" and target in self.seed_set:
                    continue  # the seed is not "another issue" of its own milestone
                nxt = rel * w
                if nxt < floor:
                    self._remember(self.below_floor, target, nxt)
                    continue
                target_kind = self.graph.nodes[target].kind
                step_band = self._step_band(node, band, kind, forward, target_kind)
                tier = tier_for_kind(target_kind)
                if step_band is not Band.WORK and tier is Tier.TASK:
                    tier = Tier.HISTORY  # other work is evidence, not the thing asked about
                self.offer(
                    target,
                    tier,
                    nxt,
                    Selector.RELATION,
                    reason,
                    depth=depth + 1,
                    via=node,
                    edge=kind,
                    weight=w,
                    band=step_band,
                    binding=forward and self._binds(node),
                )
                if target not in seen:
                    seen.add(target)
                    queue.append((target, nxt, depth + 1, step_band))

    def _step_band(self, node: str, band: Band, kind: str, forward: bool, target_kind: str) -> Band:
        """How close one step of the walk stays to the work (docs/devcontext.md, "Bands")."""
        if node in self.seed_set and (forward or kind == "belongs_to"):
            return Band.WORK
        if (
            forward
            and kind == "names"
            and band is Band.WORK
            and self.graph.nodes[node].kind == "milestone"
        ):
            return Band.MILESTONE
        return Band.OTHER_WORK if target_kind == "issue" else Band.REST

    def _scope_follows(self, cand: Candidate) -> bool:
        """A seed, the work's milestone, or an issue of a seed milestone."""
        if cand.uri in self.seed_set or cand.kind == "milestone":
            return True
        return any(d.edge == "belongs_to" and d.via in self.seed_set for d in cand.discovered_by)

    def _binds(self, node: str) -> bool:
        """Whether what `node` points at binds the work: `node` is a seed or a binding rule."""
        if node in self.seed_set:
            return True
        cand = self.found.get(node)
        return cand is not None and cand.kind == "rule" and cand.binding

    def _steps(self, node: str) -> list[tuple[str, str, float, str, bool]]:
        """Forward edges first, then reverse ones, each with its weight and reason."""
        steps: list[tuple[str, str, float, str, bool]] = []
        for target, kind in self.graph.out.get(node, ()):
            rule = followed(kind)
            if rule is not None and rule.forward is not None:
                steps.append((target, kind, rule.forward, rule.forward_reason, True))
        for source, kind in self.graph.into.get(node, ()):
            rule = followed(kind)
            if rule is not None and rule.reverse is not None:
                steps.append((source, kind, rule.reverse, rule.reverse_reason, False))
        return steps

    @staticmethod
    def _remember(misses: dict[str, float], uri: str, relevance: float) -> None:
        misses[uri] = max(relevance, misses.get(uri, relevance))

    def effective_paths(self) -> list[tuple[str, Band]]:
        """The declared scope, each path with its band; other issues' scope is not followed."""
        paths: dict[str, Band] = dict.fromkeys(self.request.paths, Band.WORK)
        for cand in sorted(self.found.values(), key=lambda c: (c.band, c.uri)):
            if cand.depth > 1 or cand.kind not in ("issue", "milestone") or cand.obj is None:
                continue
            if cand.band is not Band.WORK or not self._scope_follows(cand):
                continue
            band = Band.WORK if cand.uri in self.seed_set else Band.MILESTONE
            scope = cand.obj.metadata.get("scope")
            if not isinstance(scope, list):
                continue
            for item in scope:
                text = scalar_text(item)
                if text is None:
                    continue
                text = text.strip().rstrip("/")
                if text and not escapes(text):
                    paths[text] = min(paths.get(text, band), band)
        return sorted(paths.items())

    def scope_and_contracts(self, paths: list[tuple[str, Band]]) -> None:
        """What lies under each declared path, and what lies over it or governs it."""
        if not paths:
            return
        for obj in self.index.objects:
            source = obj.kind in SOURCE_KINDS
            if obj.kind in REFERRING_KINDS:
                over: list[str] | None = referenced_paths(obj)
            else:
                over = governed_paths(obj) if obj.kind == "rule" else None
            contract = (
                obj.kind == "context" and scalar_text(obj.metadata.get("status")) != "deprecated"
            )
            for path, band in paths:
                own = band is Band.WORK
                whose = "the work" if own else "its milestone"
                # code and tests under any declared scope, anything but a contract under the
                # work's own
                held = source or (own and obj.kind != "context")
                if held and is_under(path, obj.provenance.path):
                    self.offer(
                        obj.uri,
                        tier_for_kind(obj.kind),
                        0.8,
                        Selector.SCOPE_PATH,
                        f"under `{path}`, which {whose} declares as its scope",
                        via=path,
                        band=Band.WORK if own else Band.REST,
                    )
                if over is not None:
                    self._over_scope(obj, over, path, band, whose)
                elif contract:
                    why = _contract_reason(obj.metadata, obj.provenance.directory, path)
                    if why is not None:
                        tier = Tier.GOVERNANCE
                        self.offer(obj.uri, tier, 0.85, Selector.CONTRACT, why, via=path, band=band)

    def _over_scope(
        self, obj: LayerObject, paths: list[str], scope: str, band: Band, whose: str
    ) -> None:
        """A decision, knowledge or rule whose paths lie under (or contain) a scope path."""
        hits = [p for p in paths if is_under(scope, p) or is_under(p, scope)]
        if not hits:
            return
        own = band is Band.WORK
        if obj.kind == "rule":
            relevance = GOVERNS_SCOPE if own else OVER_MILESTONE_SCOPE
            says = f"it applies to `{hits[0]}`"
        else:
            relevance = OVER_SCOPE if own else OVER_MILESTONE_SCOPE
            more = f" and {len(hits) - 1} more" if len(hits) > 1 else ""
            says = f"it refers to `{hits[0]}`{more}"
        self.offer(
            obj.uri,
            tier_for_kind(obj.kind),
            relevance,
            Selector.SCOPE_PATH,
            f"{says}, over `{scope}`, which {whose} declares as its scope",
            via=scope,
            band=band,
            binding=own and obj.kind == "rule",
        )

    def governance(self) -> None:
        every_rule = self.request.all_blocking_rules
        for obj in self.index.objects:
            relevance, reason = 1.0, GOVERNING.get(obj.kind)
            if obj.kind == "rule" and every_rule and obj.metadata.get("class") == "blocking":
                relevance = 0.6
                reason = "a blocking rule of the layer; the request asked for all of them"
            if reason is not None:
                self.offer(
                    obj.uri,
                    Tier.GOVERNANCE,
                    relevance,
                    Selector.GOVERNANCE,
                    reason,
                    depth=0,
                    band=Band.WORK,
                    binding=True,
                )

    def sessions(self, scope: list[tuple[str, Band]]) -> None:
        paths = [path for path, _ in scope]
        branch = self.index.git.branch if self.index.git.available else None
        for obj in self.index.objects:
            if obj.kind != "session":
                continue
            changed = obj.metadata.get("changed_files")
            touched = [
                f
                for f in (changed if isinstance(changed, list) else [])
                if isinstance(f, str) and any(is_under(p, f) for p in paths)
            ]
            recorded = scalar_text(obj.metadata.get("branch"))
            if touched:
                relevance = 0.75
                reason = (
                    f"a recorded session that changed {len(touched)} file(s) under the "
                    "declared scope"
                )
            elif branch is not None and recorded is not None and recorded == branch:
                relevance = 0.5
                reason = f"a recorded session of this branch ({recorded})"
            else:
                continue
            # the closest band of a path it changed a file under; a branch's session is the rest
            band = min((b for p, b in scope for f in touched if is_under(p, f)), default=Band.REST)
            self.offer(
                obj.uri, Tier.KNOWLEDGE, relevance, Selector.SESSION_STATE, reason, band=band
            )

    def local_records(self) -> None:
        if self.source.continuity is None:
            return
        try:
            state = self.source.continuity() or {}
        except Exception as exc:  # a provider is outside code; any failure is a finding
            message = f"the local continuity state could not be read: {exc}"
            self.diagnostics.append(Diagnostic.warning("continuity", message))
            return
        for key, phrase, weight in LOCAL_RECORDS:
            record = state.get(key)
            if not isinstance(record, Mapping) or not isinstance(record.get("path"), str):
                continue
            self._local(key, phrase, weight, record)

    def _local(self, key: str, phrase: str, weight: float, record: Mapping[str, Any]) -> None:
        path: str = record["path"]
        facts = scalar_facts(record, RECORD_FIELDS)
        facts["bytes"] = str(self.source.size_of(path) or 0)
        divergence = record.get("divergence")
        divergence = divergence if isinstance(divergence, str) else None
        trusted = divergence in TRUSTED_DIVERGENCE
        if not trusted:
            message = (
                f"the {phrase} was written against a different context ({divergence}); trust "
                "git, not this record"
            )
            self.diagnostics.append(Diagnostic.warning("stale_record", message, path))
        matched = record.get("matched")
        reason = (
            f"the {phrase} the two-tier resolver chose ({matched})"
            if isinstance(matched, str)
            else f"the {phrase} of this checkout"
        )
        # not a node of the graph, so made into one to be a candidate like any other
        node = Node(f"local:{path}", f"local-{key}", path, path, divergence)
        way = Route(
            selector=Selector.SESSION_STATE, reason=reason, depth=0, confidence=1.0, weight=weight
        )
        relevance = weight if trusted else weight / 2
        found = Candidate.of(node, Tier.KNOWLEDGE, relevance, way, Band.MILESTONE, False)
        found.facts = facts
        self.found[node.id] = found

    @cached_property
    def ranking(self) -> Ranking:
        return self.source.ranking or layer_ranking(self.index)

    def intent(self) -> None:
        """The objects recall ranks highest for the intent; only a whole match binds a rule."""
        if not self.request.intent:
            return
        terms = plan(self.request.intent, [self.ranking])
        for hit in rank(terms, [self.ranking])[:INTENT_HITS]:
            confidence = min(1.0, len(hit.words) / len(terms))
            relevance = round(INTENT_WEIGHT * hit.score, 4)
            if relevance < self.request.floor:
                self._remember(self.below_floor, hit.document.uri, relevance)
                continue
            self.offer(
                hit.document.uri,
                tier_for_kind(hit.document.kind),
                relevance,
                Selector.INTENT_MATCH,
                f"recall ranks it {number(hit.score)} for the intent ({why(hit)})",
                confidence=confidence,
                band=Band.MILESTONE if confidence >= 1.0 else Band.REST,
                binding=confidence >= 1.0,
            )

    def recalled(self) -> None:
        """The decisions recall ranks highest for each issue or milestone seed's own words."""
        seeds = [self.index.by_uri.get(uri) for uri in self.request.object_seeds]
        asked = [o for o in seeds if o is not None and o.kind in ("issue", "milestone")]
        if not asked or "adr" not in self.index.kinds:
            return
        for seed in asked:
            text = f"{seed.title or ''} {scalar_text(seed.metadata.get('objective')) or ''}"
            hits = rank(plan(text, [self.ranking]), [self.ranking])
            itself = next((h.score for h in hits if h.document.uri == seed.uri), 0.0)
            decisions = [h for h in hits if h.document.kind == "adr"][:RECALLED_DECISIONS]
            for hit in decisions if itself else []:
                if len(hit.fields[0]) < TITLE_WORDS:
                    continue
                relevance = round(min(INTENT_WEIGHT, hit.score / itself), 4)
                if relevance < self.request.floor:
                    self._remember(self.below_floor, hit.document.uri, relevance)
                    continue
                self.offer(
                    hit.document.uri,
                    Tier.DECISION,
                    relevance,
                    Selector.INTENT_MATCH,
                    f"recall ranks it {number(hit.score)} for the title and objective of "
                    f"{seed.identity} ({why(hit)})",
                    via=seed.uri,
                    confidence=round(hit.score, 4),
                    band=Band.REST,
                )

    def unresolved(self) -> dict[UnresolvedReference, str]:
        """The references a reached object names and the index does not hold, each once and
        with the sentence that says so."""
        declared_here = {c.path for c in self.found.values() if c.path is not None}
        return {
            ref: f"{ref.declared_in} names it under `{ref.key}`; {ref.correction}"
            for ref in self.index.unresolved
            if ref.declared_in in declared_here
        }

    def unreached(self) -> list[Excluded]:
        """Rows for what the floor or the depth kept out and nothing else brought in."""
        rows: list[Excluded] = []
        limit = self.request.max_depth
        for uri in sorted(set(self.below_floor) | set(self.beyond_depth)):
            node = self.graph.nodes.get(uri)
            if uri in self.found or node is None:
                continue
            if uri in self.beyond_depth:
                relevance = self.beyond_depth[uri]
                reason = ExclusionReason.DEPTH
                detail = f"{limit + 1} hop(s) from a seed; the request allows {limit}"
            else:
                relevance = self.below_floor[uri]
                reason = ExclusionReason.RELEVANCE
                detail = below_floor_detail(relevance, self.request.floor)
            if node.obj is not None:
                size = node.obj.provenance.bytes
            else:
                size = (self.source.size_of(node.source) if node.source else None) or 0
            rows.append(
                Excluded(
                    uri=uri,
                    kind=node.kind,
                    tier=tier_for_kind(node.kind),
                    reason=reason,
                    detail=detail,
                    cost_tokens=tokens_for(size),
                    relevance=relevance,
                )
            )
        return rows


def _contract_reason(metadata: Mapping[str, Any], directory: str, path: str) -> str | None:
    """Why a directory contract reaches `path`, or None when it does not."""
    scope = scalar_text(metadata.get("scope")) or "directory"
    if scope == "subtree" and is_under(directory, path):
        return f"the contract of `{directory}` reaches `{path}` (scope subtree)"
    if scope == "directory" and directory == path:
        return f"the contract of `{path}` itself (scope directory)"
    if scope == "explicit" and any(is_under(e, path) for e in strings_in(metadata.get("paths"))):
        return f"`{path}` is a declared path of this contract"
    if any(is_under(t, path) or is_under(path, t) for t in strings_in(metadata.get("tracks"))):
        return f"the contract tracks `{path}`"
    return None


def select(source: CompileSources, request: Request) -> Selection:
    """Run the seven selectors in order over `source` and gather what they reached."""
    return _Selector(source, request).run()
