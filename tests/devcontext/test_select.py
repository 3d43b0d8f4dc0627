"""The selectors beyond B1–B17: the seed's D2 rows, D6, and the local continuity records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from majordomus.devcontext import (
    CompileInput,
    CompileSources,
    ExclusionReason,
    Tier,
    compile_context,
)
from majordomus.devcontext.model import CompiledContext, Excluded
from majordomus.devcontext.sources import sources_of
from majordomus.layer.model import Index
from tests.devcontext.conftest import planned_index

ALPHA = "majordomus://rule/project.alpha@1"
BETA = "majordomus://rule/project.beta@1"


def row(compiled: CompiledContext, uri: str) -> Excluded:
    [found] = [x for x in compiled.excluded if x.uri == uri]
    return found


def test_below_floor_steps_and_candidates_are_reported(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(issue="I0001", floor=0.9))
    walked = row(compiled, "majordomus://issue/I0002")
    assert walked.reason is ExclusionReason.RELEVANCE
    assert walked.relevance == 0.6, "the best would-be relevance of every refused step"
    assert walked.detail == "relevance 0.6 is below the floor 0.9"
    assert walked.kind == "issue" and walked.tier is Tier.TASK and walked.cost_tokens == 39
    contract = row(compiled, "majordomus://context/ai.layer")
    assert contract.reason is ExclusionReason.RELEVANCE
    assert contract.detail == "relevance 0.85 is below the floor 0.9"
    assert row(compiled, "majordomus://session/s-20260909000000-aaaa").relevance == 0.75
    assert all(e.relevance >= 0.9 or e.required for e in compiled.selected)
    assert all(t.excluded == 0 for t in compiled.budget.tiers), "tier rows count budget only"


def test_beyond_depth_is_reported_with_its_best_would_be_relevance(planned: Index) -> None:
    compiled = compile_context(
        planned, CompileInput(uris=["majordomus://adr/adr-0002"], max_depth=1)
    )
    alpha = row(compiled, ALPHA)
    assert alpha.reason is ExclusionReason.DEPTH
    assert alpha.detail == "2 hop(s) from a seed; the request allows 1"
    assert alpha.relevance == pytest.approx(0.72)
    assert (alpha.kind, alpha.tier, alpha.cost_tokens) == ("rule", Tier.GOVERNANCE, 90)


def test_depth_zero_walks_nothing(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(issue="I0001", max_depth=0))
    assert [e.kind for e in compiled.selected if e.tier is Tier.TASK] == ["issue"]
    milestone = row(compiled, "majordomus://milestone/m1")
    assert milestone.reason is ExclusionReason.DEPTH
    assert milestone.detail == "1 hop(s) from a seed; the request allows 0"


def test_intent_matches_below_the_floor_are_reported(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(intent="alpha budget context"))
    beta = row(compiled, BETA)
    assert beta.reason is ExclusionReason.RELEVANCE
    assert 0 < beta.relevance < 0.25
    assert beta.detail.startswith("relevance 0.") and beta.detail.endswith("below the floor 0.25")


def test_the_intent_is_ranked_as_recall_ranks_it(planned: Index) -> None:
    """The intent's hits are recall's, in recall's order, each saying why it matched."""
    from majordomus.layer.ranking import layer_ranking, plan, rank

    compiled = compile_context(planned, CompileInput(intent="Context, ALPHA and budget!"))
    [alpha] = [e for e in compiled.selected if e.uri == ALPHA]
    ranking = layer_ranking(planned)
    [best, *_] = rank(plan("Context, ALPHA and budget!", [ranking]), [ranking])
    assert best.document.uri == ALPHA
    assert alpha.discovered_by[0].reason.startswith(
        f"recall ranks it {best.score:g} for the intent"
    )
    assert "title: alpha" in alpha.discovered_by[0].reason


def test_a_walked_blocking_rule_is_required_and_may_overspend(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(uris=[BETA], budget_tokens=1))
    [alpha] = [e for e in compiled.selected if e.uri == ALPHA]
    assert alpha.required and alpha.discovered_by[0].edge == "depends_on"
    assert compiled.budget.over_budget


HANDOVER = """\
---
created_at: 2026-09-10T12:00:00Z
branch: master
head: 0123456789abcdef0123456789abcdef01234567
matched: branch
divergence: {divergence}
next_action: finish the compiler
---
# Handover
"""
CHECKPOINT = """\
---
created_at: {stamp}
branch: master
---
# Checkpoint
"""


def _checkout(root: Path) -> CompileSources:
    return sources_of(SimpleNamespace(index=planned_index(root)))


def test_local_records_are_knowledge(planned_copy: Callable[[dict[str, str]], Path]) -> None:
    root = planned_copy(
        {
            ".ai/local/state/handovers/20260910T120000Z--master.md": HANDOVER.format(
                divergence="exact"
            ),
            ".ai/local/state/checkpoints/a.md": CHECKPOINT.format(stamp="2026-09-10T11:00:00Z"),
            ".ai/local/state/checkpoints/b.md": CHECKPOINT.format(stamp="2026-09-10T10:00:00Z"),
        }
    )
    compiled = compile_context(_checkout(root), CompileInput())
    handover_path = ".ai/local/state/handovers/20260910T120000Z--master.md"
    [handover] = [e for e in compiled.selected if e.kind == "local-handover"]
    assert handover.uri == f"local:{handover_path}"
    assert (handover.tier, handover.relevance, handover.depth) == (Tier.KNOWLEDGE, 0.95, 0)
    assert handover.provenance.source_class == "local-state"
    assert handover.provenance.directory == ".ai/local/state/handovers"
    assert handover.version == "2026-09-10T12:00:00Z"
    assert handover.status == "exact"
    size = (root / handover_path).stat().st_size
    assert handover.facts["bytes"] == str(size) and handover.cost_bytes == size
    assert handover.discovered_by[0].reason == (
        "the handover the last session left the two-tier resolver chose (branch)"
    )
    [checkpoint] = [e for e in compiled.selected if e.kind == "local-checkpoint"]
    assert checkpoint.uri == "local:.ai/local/state/checkpoints/a.md", "newest by created_at"
    assert checkpoint.relevance == 0.8
    assert checkpoint.discovered_by[0].reason == "the newest checkpoint of this checkout"


def test_an_untrustworthy_record_is_halved_not_doubted(
    planned_copy: Callable[[dict[str, str]], Path],
) -> None:
    root = planned_copy({".ai/local/state/handovers/h.md": HANDOVER.format(divergence="diverged")})
    compiled = compile_context(_checkout(root), CompileInput())
    [handover] = [e for e in compiled.selected if e.kind == "local-handover"]
    assert handover.relevance == 0.475
    assert handover.confidence == 1.0, "D6: a declared selector is sure of itself"
    [stale] = [d for d in compiled.diagnostics if d.code == "stale_record"]
    assert stale.path == ".ai/local/state/handovers/h.md"
    assert stale.message == (
        "the handover the last session left was written against a different context "
        "(diverged); trust git, not this record"
    )


def test_a_failing_provider_is_a_diagnostic(planned: Index) -> None:
    def broken() -> dict[str, object]:
        raise OSError("disk on fire")

    compiled = compile_context(CompileSources(planned, continuity=broken), CompileInput())
    [note] = compiled.diagnostics
    assert (note.severity, note.code, note.path) == ("warning", "continuity", None)
    assert note.message == "the local continuity state could not be read: disk on fire"
    assert compiled.selected == compile_context(planned).selected, "the rest is compiled as ever"


def test_records_without_a_path_are_ignored(planned: Index) -> None:
    ctx = CompileSources(planned, continuity=lambda: {"handover": {"branch": "x"}})
    compiled = compile_context(ctx, CompileInput())
    assert not any(e.uri.startswith("local:") for e in compiled.selected)
    assert compiled.diagnostics == []


def test_an_external_node_is_a_candidate_sized_by_the_size_function(planned: Index) -> None:
    ctx = CompileSources(planned, size_of=lambda path: 4096 if path == "lib" else None)
    compiled = compile_context(ctx, CompileInput(uris=["majordomus://context/ai.layer"]))
    [lib] = [e for e in compiled.selected if e.uri == "file:lib"]
    assert (lib.kind, lib.tier) == ("file", Tier.SOURCE)
    assert (lib.cost_bytes, lib.cost_tokens) == (4096, 1024)
    assert lib.provenance.source_class == "named" and lib.provenance.directory == "."
    assert lib.discovered_by[0].reason == "the contract tracks this file"
