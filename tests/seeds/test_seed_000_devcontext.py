"""The seed document's doctests of `devcontext.explain`, A1–A12 in its order, as pytests."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest
from pydantic import TypeAdapter

from majordomus.devcontext import (
    BYTES_PER_TOKEN,
    Budget,
    CompileInput,
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
    compile_context,
    explain,
    tokens_for,
)
from majordomus.order import canonical
from majordomus.synthetic import SyntheticRepository


def to_value(value: object) -> object:
    """`serde_json::to_value` for an enum: its JSON form."""
    return TypeAdapter(type(value)).dump_python(value, mode="json")


@pytest.fixture(scope="module")
def repo() -> Iterator[SyntheticRepository]:
    with SyntheticRepository.small() as repo:
        yield repo


def test_a1_explanation_over_the_synthetic_repository(repo: SyntheticRepository) -> None:
    ctx = repo.context()
    compiled = compile_context(ctx, CompileInput())
    selected = compiled.selected[0].uri

    # something in the answer: the entry is the evidence, and the other two are empty
    e: Explanation = explain(ctx, ExplainInput(uri=selected))
    assert e.standing == Standing.SELECTED
    assert e.entry is not None and e.entry.uri == selected
    assert e.excluded is None and e.deduplicated is None
    assert e.detail, "the standing always reads as a sentence too"

    # something this repository does not hold: an answer, not an error, with the budget
    absent: Explanation = explain(ctx, ExplainInput(uri="majordomus://adr/9999"))
    assert absent.standing == Standing.UNKNOWN
    assert absent.entry is None
    assert absent.budget.limit_tokens == compiled.budget.limit_tokens


def test_a1_derived_parity_values(repo: SyntheticRepository) -> None:
    ctx = repo.context()
    compiled = compile_context(ctx, CompileInput())
    [entry] = compiled.selected
    assert entry.uri == "majordomus://policy/.ai/repo/policy.yaml"
    assert (entry.tier, entry.relevance, entry.depth, entry.required) == (
        Tier.GOVERNANCE,
        1.0,
        0,
        True,
    )
    assert entry.cost_tokens == 14
    assert [d.selector for d in entry.discovered_by] == [Selector.GOVERNANCE]
    budget = compiled.budget
    assert (budget.used_tokens, budget.required_tokens, budget.remaining_tokens) == (14, 14, 23986)
    assert not budget.over_budget
    rows = {t.tier: (t.selected, t.tokens, t.required) for t in budget.tiers}
    assert rows[Tier.GOVERNANCE] == (1, 14, 1)
    assert all(rows[t] == (0, 0, 0) for t in Tier.ORDER if t is not Tier.GOVERNANCE)
    assert not compiled.excluded and not compiled.deduplicated and not compiled.conflicts
    assert not compiled.seeds
    assert compiled.git.working_tree == "unavailable: synthetic repository"
    assert compiled.git.branch is None and compiled.git.head is None
    e = explain(ctx, ExplainInput(uri=entry.uri))
    assert e.detail == (
        "in the governance tier at relevance 1 and confidence 1, costing 14 token(s); reached "
        "by 1 path(s) — governance: the repository's policy: it decides what every session is "
        "held to"
    )
    absent = explain(ctx, ExplainInput(uri="majordomus://adr/9999"))
    assert absent.detail == "the index holds nothing under `majordomus://adr/9999`"


def test_a2_budget_wire_form() -> None:
    def tier(name: str, tokens: int, required: int) -> dict[str, object]:
        return {
            "tier": name,
            "meaning": "as this tier is for",
            "selected": 1,
            "excluded": 0,
            "tokens": tokens,
            "required": required,
        }

    b = Budget.model_validate(
        {
            "limit_tokens": 1_000,
            "used_tokens": 2_500,
            "required_tokens": 2_500,
            "remaining_tokens": 0,
            "over_budget": True,
            "bytes_per_token": BYTES_PER_TOKEN,
            "tiers": [tier("task", 2_000, 1), tier("governance", 500, 1)],
        }
    )
    assert b.over_budget
    assert b.used_tokens > b.limit_tokens, "the overspend is read from these two"
    assert b.required_tokens == b.used_tokens, "all of it was undroppable"
    assert b.remaining_tokens == 0, "floored, so it is safe to display"
    assert b.bytes_per_token == BYTES_PER_TOKEN == 4
    order = [t.tier for t in b.tiers]
    assert order == [Tier.TASK, Tier.GOVERNANCE]
    assert all(a < b for a, b in pairwise(order))


def test_a3_context_entry_wire_form() -> None:
    e = ContextEntry.model_validate(
        {
            "uri": "majordomus://adr/0052",
            "kind": "adr",
            "title": "The episode is the boundary",
            "provenance": {
                "path": ".ai/repo/adrs/0052.md",
                "directory": ".ai/repo/adrs",
                "source_class": "adr",
                "section": "adrs",
                "bytes": 8_192,
            },
            "tier": "decision",
            "relevance": 0.82,
            "confidence": 1.0,
            "discovered_by": [
                {
                    "selector": "relation",
                    "reason": "in force over this scope",
                    "via": "majordomus://issue/I0301",
                    "edge": "governed_by",
                    "depth": 1,
                    "confidence": 1.0,
                    "weight": 0.9,
                },
                {
                    "selector": "intent_match",
                    "reason": "the intent's words occur in it",
                    "depth": 2,
                    "confidence": 0.4,
                    "weight": 0.4,
                },
            ],
            "depth": 1,
            "cost_tokens": 2_048,
            "cost_bytes": 8_192,
            "version": "2026-09-11",
            "status": "accepted",
            "required": False,
        }
    )
    assert e.tier == Tier.DECISION
    assert e.cost_tokens == tokens_for(e.cost_bytes) == 2_048
    best = max((d.confidence for d in e.discovered_by), default=0.0)
    assert e.confidence == best
    assert e.depth == min(d.depth for d in e.discovered_by)
    assert len(e.discovered_by) == 2
    assert e.discovered_by[0].selector == Selector.RELATION, "best path first"
    assert e.uri.startswith("majordomus://")
    assert e.facts == {}


def test_a4_deduplicated_wire_form() -> None:
    structural = Deduplicated.model_validate(
        {
            "kept": "majordomus://adr/0052",
            "dropped": [],
            "key": "uri",
            "detail": "one object reached by 4 discovery path(s)",
            "paths": 4,
        }
    )
    assert not structural.dropped, "nothing lost; this is a record, not a decision"
    assert structural.paths > 1, "which is what makes the row worth printing"
    assert structural.key == "uri"

    semantic = Deduplicated.model_validate(
        {
            "kept": "majordomus://rule/project.x@2",
            "dropped": ["majordomus://rule/project.x@1"],
            "key": "identity",
            "detail": "one rule at two versions; the newer is in the answer",
            "paths": 1,
        }
    )
    assert semantic.dropped == ["majordomus://rule/project.x@1"]
    assert semantic.kept != semantic.dropped[0], "two names, and one of them lost"


def test_a5_standing() -> None:
    present = [Standing.SELECTED, Standing.DEDUPLICATED]
    request_bound = [Standing.EXCLUDED, Standing.NOT_REACHED]
    for s in present:
        assert s not in request_bound
    assert Standing.NOT_REACHED.as_str() == "not_reached"
    assert Standing.NOT_REACHED != Standing.UNKNOWN
    assert to_value(Standing.NOT_REACHED) == Standing.NOT_REACHED.as_str()


def test_a6_discovery_wire_form() -> None:
    seed = Route.model_validate(
        {
            "selector": "seed",
            "reason": "named in the request",
            "depth": 0,
            "confidence": 1.0,
            "weight": 1.0,
        }
    )
    assert seed.selector == Selector.SEED
    assert seed.via is None and seed.edge is None
    assert seed.selector.declared() and seed.confidence == 1.0
    wire = seed.wire()
    assert "via" not in wire and "edge" not in wire

    walked = Route.model_validate(
        {
            "selector": "relation",
            "reason": "the decision in force over this scope",
            "via": "majordomus://issue/I0301",
            "edge": "governed_by",
            "depth": 1,
            "confidence": 1.0,
            "weight": 0.9,
        }
    )
    assert walked.edge == "governed_by"
    assert walked.via == "majordomus://issue/I0301"

    guessed = Route.model_validate(
        {
            "selector": "intent_match",
            "reason": "the intent's words occur in it",
            "depth": 2,
            "confidence": 0.4,
            "weight": 0.4,
        }
    )
    assert not guessed.selector.declared() and guessed.confidence < 1.0


def test_a7_entry_provenance() -> None:
    p = EntryProvenance.model_validate(
        {
            "path": ".ai/repo/adrs/0052-the-episode-is-the-boundary.md",
            "directory": ".ai/repo/adrs",
            "source_class": "adr",
            "section": "adrs",
            "bytes": 8_192,
        }
    )
    assert tokens_for(p.bytes) == 2_048

    rootish = EntryProvenance.model_validate(
        {"path": "README.md", "directory": ".", "source_class": "readme", "bytes": 4_000}
    )
    assert rootish.section is None
    assert rootish.directory == ".", "the root is `.`, not the empty string"


def test_a8_excluded_canonical_order() -> None:
    def row(uri: str, tier: str, reason: str, cost: int) -> Excluded:
        return Excluded.model_validate(
            {
                "uri": uri,
                "tier": tier,
                "reason": reason,
                "detail": "as measured",
                "cost_tokens": cost,
                "relevance": 0.4,
            }
        )

    excluded = canonical(
        [
            row("majordomus://knowledge/b", "history", "budget", 900),
            row("majordomus://adr/0001", "decision", "superseded", 300),
            row("majordomus://knowledge/a", "history", "budget", 1_200),
        ]
    )
    assert excluded[0].tier == Tier.DECISION
    assert excluded[0].reason == ExclusionReason.SUPERSEDED
    assert [e.uri for e in excluded[1:]] == [
        "majordomus://knowledge/a",
        "majordomus://knowledge/b",
    ]
    assert max(excluded, key=lambda e: e.cost_tokens).cost_tokens == 1_200


def test_a9_exclusion_reason() -> None:
    request_bound = [ExclusionReason.BUDGET, ExclusionReason.RELEVANCE, ExclusionReason.DEPTH]
    repository_bound = [
        ExclusionReason.STALE,
        ExclusionReason.SUPERSEDED,
        ExclusionReason.UNRESOLVED,
    ]
    for r in repository_bound:
        assert r not in request_bound, f"{r.as_str()} is not the caller's to fix"
    assert ExclusionReason.SUPERSEDED.as_str() == "superseded"
    assert to_value(ExclusionReason.UNRESOLVED) == ExclusionReason.UNRESOLVED.as_str()


def test_a10_selector() -> None:
    inferred = [s.as_str() for s in Selector.ALL if not s.declared()]
    assert inferred == ["intent_match"]
    words = [s.as_str() for s in Selector.ALL]
    assert len(set(words)) == len(words) == 7
    assert to_value(Selector.SCOPE_PATH) == "scope_path"


def test_a11_tier() -> None:
    assert sorted(Tier.ORDER) == list(Tier.ORDER)
    assert min(Tier.ORDER) == Tier.TASK
    assert Tier.TASK < Tier.GOVERNANCE and Tier.GOVERNANCE < Tier.HISTORY
    assert to_value(Tier.GOVERNANCE) == Tier.GOVERNANCE.as_str() == "governance"


def test_a12_tier_spend() -> None:
    t = TierSpend.model_validate(
        {
            "tier": "governance",
            "meaning": Tier.GOVERNANCE.meaning(),
            "selected": 9,
            "excluded": 2,
            "tokens": 6_400,
            "required": 3,
        }
    )
    assert t.tier == Tier.GOVERNANCE
    assert t.required <= t.selected
    assert t.meaning == Tier.GOVERNANCE.meaning()
    assert "policy" in t.meaning
