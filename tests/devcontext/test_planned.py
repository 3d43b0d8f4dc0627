"""The original's unit-test scenarios B1–B17 (`test_b1`…`test_b17`), against the planned
repository `fixtures/layers/planned`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from majordomus.devcontext import (
    CompileInput,
    ExclusionReason,
    ExplainInput,
    Selector,
    Standing,
    Tier,
    compile_context,
    explain,
    policy,
)
from majordomus.devcontext.model import CompiledContext
from majordomus.errors import InvalidInput, NotFound
from majordomus.layer.model import Index
from tests.devcontext.conftest import HEAD, entry, planned_index

MILLION = 1_000_000
ALPHA = "majordomus://rule/project.alpha@1"
BETA = "majordomus://rule/project.beta@1"
GAMMA = "majordomus://rule/project.gamma@1"
ADR1 = "majordomus://adr/adr-0001"
ADR2 = "majordomus://adr/adr-0002"
I0001 = "majordomus://issue/I0001"
I0002 = "majordomus://issue/I0002"
M1 = "majordomus://milestone/m1"


def uris(compiled: CompiledContext) -> list[str]:
    return [e.uri for e in compiled.selected]


def test_planned_fixture_indexes_without_an_error(planned: Index) -> None:
    assert planned.state == "ok"
    assert len(planned.objects) == 16
    assert [d.code for d in planned.diagnostics] == ["claimed_twice"]


def test_b1_default_input(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput())
    assert compiled.seeds == []
    required = {e.kind for e in compiled.selected if e.required}
    assert {"policy", "scope"} <= required
    assert compiled.budget.limit_tokens == 24_000
    assert [t.tier for t in compiled.budget.tiers] == list(Tier.ORDER)
    assert compiled.git.branch == "master" and compiled.git.working_tree == "clean"
    assert compiled.git.head == HEAD


def test_b2_issue(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(issue="I0001"))
    issue = entry(compiled, I0001)
    assert issue.tier is Tier.TASK and issue.required
    assert issue.discovered_by[0].selector is Selector.SEED
    assert issue.relevance == 1.0
    assert issue.provenance.source_class == "issue"
    assert issue.facts["milestone"] == "m1"

    milestone = entry(compiled, M1)
    first = milestone.discovered_by[0]
    assert (first.selector, first.edge, first.depth) == (Selector.RELATION, "belongs_to", 1)
    assert milestone.confidence == 1.0 and milestone.relevance == 0.95
    assert entry(compiled, I0002).relevance == 0.6

    for e in compiled.selected:
        assert e.provenance.path and e.cost_tokens > 0
        assert 0.0 <= e.confidence <= 1.0 and e.discovered_by

    [row] = [d for d in compiled.deduplicated if d.key == "uri" and d.kept == I0001]
    assert row.paths == 2, "the issue never reaches itself through its milestone"
    assert row.detail.endswith("relation(depends_on), seed")

    thing = entry(compiled, "majordomus://implementation/lib/thing.sh")
    assert thing.discovered_by[0].selector is Selector.SCOPE_PATH
    layer = entry(compiled, "majordomus://context/ai.layer")
    assert layer.discovered_by[0].reason == "the contract tracks `lib`"
    session = entry(compiled, "majordomus://session/s-20260909000000-aaaa")
    assert session.tier is Tier.KNOWLEDGE
    assert session.discovered_by[0].selector is Selector.SESSION_STATE
    assert "changed" in session.discovered_by[0].reason

    [commit] = compiled.git.commits
    assert (commit.commit, commit.named_by, commit.covers) == (HEAD, I0001, "proof")


def test_b3_milestone(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(milestone="m1", budget_tokens=MILLION))
    assert [(s.uri, s.kind, s.from_) for s in compiled.seeds] == [(M1, "milestone", "milestone")]
    for issue in (I0001, I0002):
        found = entry(compiled, issue)
        assert any(
            d.edge == "belongs_to" and "same milestone" in d.reason for d in found.discovered_by
        )
    assert any(e.kind == "implementation" for e in compiled.selected)


def test_b3_milestone_by_slug_reports_what_it_resolved_to(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(milestone=" the-milestone "))
    assert compiled.seeds[0].resolved == "m1"
    assert compile_context(planned, CompileInput(milestone="m1")).seeds[0].resolved is None
    assert compile_context(planned, CompileInput(issue=I0001)).seeds[0].resolved == "I0001"


OUTSIDE = "is not repository-relative; a path outside the repository is not context"


@pytest.mark.parametrize(
    ("request_", "error", "message"),
    [
        (
            CompileInput(issue="I9999"),
            NotFound,
            "no issue 'I9999' in this repository; `objects.list` with kind `issue` names every one",
        ),
        (
            CompileInput(milestone="nothing"),
            NotFound,
            "no milestone 'nothing' in this repository; `objects.list` with kind `milestone` "
            "names every one",
        ),
        (
            CompileInput(uris=["majordomus://rule/nothing@1"]),
            NotFound,
            "the index holds nothing under `majordomus://rule/nothing@1`",
        ),
        (CompileInput(paths=["../outside"]), InvalidInput, f"'../outside' {OUTSIDE}"),
        (CompileInput(paths=["/etc"]), InvalidInput, f"'/etc' {OUTSIDE}"),
        (
            CompileInput(budget_tokens=0),
            InvalidInput,
            "a budget of zero tokens buys nothing; leave it out for the default",
        ),
        (CompileInput(floor=2.0), InvalidInput, "the relevance floor is between 0 and 1; got 2"),
        (CompileInput(issue="  "), InvalidInput, "issue: name one, or leave it out"),
    ],
)
def test_b4_errors(
    planned: Index, request_: CompileInput, error: type[InvalidInput | NotFound], message: str
) -> None:
    with pytest.raises(error) as caught:
        compile_context(planned, request_)
    assert caught.value.message == message


def test_b5_deterministic_and_ordered(planned: Index) -> None:
    request = CompileInput(issue="I0001", intent="the budget of a context", budget_tokens=MILLION)
    first, second = compile_context(planned, request), compile_context(planned, request)
    assert first == second
    assert first.model_dump_json(by_alias=True) == second.model_dump_json(by_alias=True)
    keys = [(e.tier.rank, -e.relevance, e.uri) for e in first.selected]
    assert keys == sorted(keys)


def test_b6_budget(planned: Index) -> None:
    tight = compile_context(planned, CompileInput(issue="I0001", budget_tokens=1))
    budget_rows = [x for x in tight.excluded if x.reason is ExclusionReason.BUDGET]
    assert budget_rows
    assert all(x.detail and x.cost_tokens > 0 for x in budget_rows)
    assert all(e.required for e in tight.selected)
    assert tight.budget.required_tokens > 1
    assert tight.budget.over_budget and tight.budget.remaining_tokens == 0

    wide = compile_context(planned, CompileInput(issue="I0001", budget_tokens=MILLION))
    assert len(wide.selected) > len(tight.selected)
    b = wide.budget
    assert not b.over_budget
    assert b.used_tokens + b.remaining_tokens == MILLION
    assert sum(t.tokens for t in b.tiers) == b.used_tokens
    assert sum(t.selected for t in b.tiers) == len(wide.selected)


def test_b7_budget_spends_in_tier_order(planned: Index) -> None:
    for limit in (150, 250, 400):
        compiled = compile_context(planned, CompileInput(issue="I0001", budget_tokens=limit))
        rows = [x for x in compiled.excluded if x.reason is ExclusionReason.BUDGET]
        assert all(x.tier is not Tier.TASK for x in rows)
        for row in rows:
            for e in compiled.selected:
                if not e.required and e.tier > row.tier:
                    assert e.cost_tokens <= row.cost_tokens


def test_b8_intent_and_all_blocking_rules(planned: Index) -> None:
    compiled = compile_context(
        planned,
        CompileInput(intent="alpha budget context", all_blocking_rules=True, budget_tokens=MILLION),
    )
    assert len(set(uris(compiled))) == len(compiled.selected)
    alpha = entry(compiled, ALPHA)
    assert {d.selector for d in alpha.discovered_by} == {Selector.GOVERNANCE, Selector.INTENT_MATCH}
    assert alpha.confidence == 1.0
    [row] = [d for d in compiled.deduplicated if d.key == "uri" and d.kept == ALPHA]
    assert row.paths == 2 and "discovery path" in row.detail


def test_b9_supersedes(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(uris=[ADR2]))
    [conflict] = compiled.conflicts
    assert (conflict.kind, conflict.current, conflict.against) == ("supersedes", ADR2, ADR1)
    [adr1] = [x for x in compiled.excluded if x.uri == ADR1]
    assert adr1.reason is ExclusionReason.SUPERSEDED and "stands in for" in adr1.detail
    [gamma] = [x for x in compiled.excluded if x.uri == GAMMA]
    assert gamma.reason is ExclusionReason.STALE
    beta = entry(compiled, BETA)
    assert beta.relevance == 0.8
    assert beta.discovered_by[0].edge == "put_in_force"
    assert entry(compiled, ALPHA).relevance == 0.72


def test_b10_stale(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(uris=[ALPHA]))
    [gamma] = [x for x in compiled.excluded if x.uri == GAMMA]
    assert gamma.reason is ExclusionReason.STALE and "deprecated" in gamma.detail
    assert gamma.detail == "the object declares `status: deprecated`"

    named = compile_context(planned, CompileInput(uris=[GAMMA]))
    assert GAMMA in uris(named)
    [stale] = [d for d in named.diagnostics if d.code == "stale_seed"]
    assert "gamma" in stale.message and stale.severity == "warning"


def test_b11_intent_only_entries(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(intent="alpha"))
    inferred = [
        e
        for e in compiled.selected
        if all(d.selector is Selector.INTENT_MATCH for d in e.discovered_by)
    ]
    assert ALPHA in [e.uri for e in inferred]
    assert entry(compiled, ALPHA).relevance == 0.6
    for e in inferred:
        assert e.relevance < 1
        assert all("intent" in d.reason for d in e.discovered_by)
    assert compiled.seeds[-1].kind == "intent"


def test_b12_paths(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(paths=["lib"]))
    thing = entry(compiled, "majordomus://implementation/lib/thing.sh")
    assert thing.tier is Tier.SOURCE
    assert thing.discovered_by[0].selector is Selector.SCOPE_PATH
    assert "lib" in thing.discovered_by[0].reason
    assert any(
        e.kind == "context"
        and e.tier is Tier.GOVERNANCE
        and e.discovered_by[0].selector is Selector.CONTRACT
        for e in compiled.selected
    )
    assert [(s.kind, s.uri) for s in compiled.seeds] == [("path", "lib")]

    rules = compile_context(planned, CompileInput(paths=["./.ai/repo/rules/"]))
    assert {"majordomus://context/ai.repo.rules", "majordomus://context/ai.layer"} <= set(
        uris(rules)
    )
    assert rules.seeds[0].uri == ".ai/repo/rules"


def test_b13_a_changed_file_changes_the_fingerprint(
    planned: Index, planned_copy: Callable[[dict[str, str]], Path]
) -> None:
    same = planned_index(planned_copy({}))
    assert same.fingerprint == planned.fingerprint
    changed = planned_index(planned_copy({"lib/thing.sh": "#!/bin/sh\n"}))
    assert changed.fingerprint != planned.fingerprint
    assert compile_context(changed, CompileInput()).fingerprint == changed.fingerprint


def test_b14_explain(planned: Index) -> None:
    wide = CompileInput(issue="I0001", budget_tokens=MILLION)
    compiled = compile_context(planned, wide)
    first = compiled.selected[0].uri
    chosen = explain(planned, ExplainInput(uri=first, issue="I0001", budget_tokens=MILLION))
    assert chosen.standing is Standing.SELECTED and "reached by" in chosen.detail
    assert chosen.budget.limit_tokens == MILLION

    absent = explain(planned, ExplainInput(uri="majordomus://rule/nothing-like-this@1"))
    assert absent.standing is Standing.UNKNOWN and "holds nothing" in absent.detail

    tight = compile_context(planned, CompileInput(issue="I0001", budget_tokens=1))
    dropped = tight.excluded[0].uri
    out = explain(planned, ExplainInput(uri=dropped, issue="I0001", budget_tokens=1))
    assert out.standing is Standing.EXCLUDED and "reached and not given" in out.detail
    assert out.excluded is not None and out.entry is None and out.deduplicated is None

    nobody = explain(planned, ExplainInput(uri=ADR2, issue="I0001"))
    assert nobody.standing is Standing.NOT_REACHED and "no selector" in nobody.detail

    with pytest.raises(InvalidInput, match="identifier"):
        explain(planned, ExplainInput(uri="   "))


def test_b14_explain_trims_and_propagates_request_errors(planned: Index) -> None:
    padded = explain(planned, ExplainInput(uri=f"  {ADR2} ", uris=[ADR2]))
    assert padded.uri == ADR2 and padded.standing is Standing.SELECTED
    with pytest.raises(NotFound):
        explain(planned, ExplainInput(uri=ADR2, issue="I9999"))


def test_b15_policy(planned: Index) -> None:
    p = policy(planned)
    assert p.graph == "composed" and p.schema_ == 1
    assert len(p.tiers) == 6
    assert (p.tiers[0].tier, p.tiers[0].position) == (Tier.TASK, 1)
    edges = {e.edge: e for e in p.edges}
    assert edges["is_a"].refused and "whole layer" in edges["is_a"].reason
    assert edges["is_a"].forward is None and edges["is_a"].reverse is None
    depends = edges["depends_on"]
    assert not depends.refused and depends.forward == 0.9 and depends.means
    assert [e.edge for e in p.edges] == sorted(edges)
    assert len(p.selectors) == 7
    assert [s.selector for s in p.selectors if not s.declared] == [Selector.INTENT_MATCH]
    assert (p.default_budget_tokens, p.bytes_per_token) == (24_000, 4)
    assert (p.default_max_depth, p.default_floor) == (3, 0.25)
    kinds = {t.tier: t.kinds for t in p.tiers}
    assert "policy" in kinds[Tier.GOVERNANCE] and "file" in kinds[Tier.SOURCE]
    wire = {e["edge"]: e for e in p.wire()["edges"]}
    assert "forward" not in wire["is_a"] and "reverse" not in wire["is_a"]


def test_b16_depth_and_floor(planned: Index) -> None:
    shallow = compile_context(planned, CompileInput(issue="I0001", max_depth=1))
    deep = compile_context(planned, CompileInput(issue="I0001", max_depth=4))
    assert len(shallow.selected) <= len(deep.selected)
    assert all(e.depth <= 1 for e in shallow.selected)

    high = compile_context(planned, CompileInput(issue="I0001", max_depth=4, floor=0.9))
    assert any(e.relevance >= 0.9 for e in high.selected)
    assert len(high.selected) < len(deep.selected)


def test_b17_all_blocking_rules(planned: Index) -> None:
    default = compile_context(planned, CompileInput(budget_tokens=MILLION))
    everything = compile_context(
        planned, CompileInput(all_blocking_rules=True, budget_tokens=MILLION)
    )
    assert everything.budget.used_tokens > default.budget.used_tokens
    rules = [e for e in everything.selected if e.kind == "rule"]
    assert [e.uri for e in rules] == [ALPHA]
    alpha = rules[0]
    assert alpha.tier is Tier.GOVERNANCE and alpha.facts["class"] == "blocking"
    assert alpha.discovered_by[0].selector is Selector.GOVERNANCE
    assert alpha.required, "D1: a blocking rule is required"
