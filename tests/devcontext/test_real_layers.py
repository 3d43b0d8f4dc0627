"""An issue's promise on a layer that resembles a real one (fixtures/layers/ledgerly): its
milestone, its dependencies, its scope, the decisions and rules over that scope, what it
names; other issues below all of these and inside their share; required entries funded
first; a partial intent match never required. docs/devcontext.md is the contract."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from majordomus.cli.views.devcontext import compile_text
from majordomus.devcontext import CompileInput, ExclusionReason, Selector, Tier, compile_context
from majordomus.devcontext.budget import OTHER_WORK_SHARE
from majordomus.devcontext.model import CompiledContext, ContextEntry
from majordomus.layer.model import Index
from tests.devcontext.conftest import entry, planned_index

ALPHA = "majordomus://rule/project.alpha@1"


def u(kind: str, identity: str) -> str:
    return f"majordomus://{kind}/{identity}"


def selected(compiled: CompiledContext) -> set[str]:
    return {e.uri for e in compiled.selected}


def other_issues(compiled: CompiledContext) -> list[ContextEntry]:
    return [e for e in compiled.selected if e.kind == "issue" and e.tier is Tier.HISTORY]


def test_an_issue_names_decisions_rules_and_issues_in_its_text(ledgerly: Index) -> None:
    names = {(e.source, e.target) for e in ledgerly.edges if e.kind == "names"}
    assert (u("issue", "I0105"), u("adr", "adr-0006")) in names  # "ADR 0006"
    assert (u("issue", "I0101"), u("rule", "project.money-is-decimal@1")) in names
    assert (u("milestone", "billing"), u("adr", "adr-0009")) in names
    # a declared dependency is not repeated as a mention, and nothing names itself
    assert all(source != target for source, target in names)
    assert (u("issue", "I0104"), u("issue", "I0101")) not in names


def test_ids_urls_and_paths_in_text_become_edges(
    planned_copy: Callable[[dict[str, str]], Path],
) -> None:
    issue = (
        "id: I0003\nmilestone: m1\ntitle: Third\n"
        'objective: "Follow adr-0002 and majordomus://rule/project.beta@1; see I0002 and '
        '`.ai/repo/policy.yaml` and project.alpha."\n'
        "scope:\n  - .ai/repo/scope.yaml\nnon_scope:\n  - Anything I0001 does\n"
    )
    index = planned_index(planned_copy({".ai/repo/project/issues/I0003.yaml": issue}))
    named = {e.target for e in index.edges if e.kind == "names" and e.source.endswith("I0003")}
    assert named == {
        u("adr", "adr-0002"),
        u("rule", "project.beta@1"),
        u("rule", "project.alpha@1"),
        u("issue", "I0002"),
        u("policy", ".ai/repo/policy.yaml"),
    }, "scope and non_scope are not mentions"


def test_the_promise_of_an_issue(ledgerly: Index) -> None:
    compiled = compile_context(ledgerly, CompileInput(issue="I0105"))
    got = selected(compiled)
    assert {u("milestone", "billing"), u("issue", "I0103")} <= got
    tax = entry(compiled, u("adr", "adr-0006"))
    assert tax.tier is Tier.DECISION and tax.relevance == pytest.approx(0.9)
    scope = [d for d in tax.discovered_by if d.selector is Selector.SCOPE_PATH]
    assert scope and "src/billing/tax.py" in scope[0].reason and "the work" in scope[0].reason
    money = entry(compiled, u("adr", "adr-0001"))
    assert money.relevance == 0.6 and "its milestone" in money.discovered_by[0].reason
    lesson = entry(compiled, u("knowledge", "rounding-lessons"))
    assert lesson.discovered_by[0].selector is Selector.SCOPE_PATH
    rule = entry(compiled, u("rule", "project.tax-tables-are-data@1"))
    assert rule.required and rule.tier is Tier.GOVERNANCE
    assert "applies to `src/billing/tax.py`" in rule.discovered_by[0].reason
    assert not entry(compiled, u("rule", "project.issued-invoices-are-immutable@1")).required


def test_other_issues_rank_below_the_promise_and_keep_to_their_share(ledgerly: Index) -> None:
    for limit in (3_000, 8_000, 24_000):
        compiled = compile_context(ledgerly, CompileInput(issue="I0105", budget_tokens=limit))
        others = other_issues(compiled)
        assert sum(e.cost_tokens for e in others) <= limit * OTHER_WORK_SHARE
        promised = [
            x
            for x in compiled.excluded
            if x.reason is ExclusionReason.BUDGET and x.tier is Tier.DECISION
        ]
        if promised:
            assert others == [], "no other issue while a decision over the scope is left out"
    tight = compile_context(ledgerly, CompileInput(issue="I0105", budget_tokens=3_000))
    assert any(x.tier is Tier.HISTORY and x.kind == "issue" for x in tight.excluded)


def test_what_lies_beyond_the_work_is_at_most_a_quarter(ledgerly: Index) -> None:
    compiled = compile_context(ledgerly, CompileInput(issue="I0107", budget_tokens=24_000))
    beyond = [x for x in compiled.excluded if "what lies beyond the work may take" in x.detail]
    assert beyond and all(x.reason is ExclusionReason.BUDGET for x in beyond)


def test_an_ample_budget_drops_nothing_reached_above_the_floor(ledgerly: Index) -> None:
    compiled = compile_context(ledgerly, CompileInput(issue="I0107", budget_tokens=1_000_000))
    assert not [x for x in compiled.excluded if x.reason is ExclusionReason.BUDGET]
    assert all(e.relevance >= 0.25 or e.required for e in compiled.selected)


def test_a_rule_over_the_milestone_scope_ranks_after_the_work(ledgerly: Index) -> None:
    compiled = compile_context(ledgerly, CompileInput(issue="I0203"))
    versioned = entry(compiled, u("rule", "project.api-is-versioned@1"))
    assert versioned.required, "a blocking rule over the work's own scope binds it"
    assert u("milestone", "billing") not in {
        e.uri for e in compiled.selected if e.tier is Tier.TASK
    }, "a dependency's milestone is not this work's"


def test_required_entries_are_funded_first(ledgerly: Index) -> None:
    compiled = compile_context(ledgerly, CompileInput(issue="I0105", budget_tokens=2_000))
    required = [e for e in compiled.selected if e.required]
    cost = sum(e.cost_tokens for e in required)
    assert compiled.budget.required_tokens == cost
    if cost > 2_000:
        assert compiled.budget.over_budget and compiled.budget.used_tokens == cost
        [note] = [d for d in compiled.diagnostics if d.code == "over_budget"]
        assert f"cost {cost} token(s), over the limit of 2000" in note.message
        assert all(f"{e.uri} ({e.cost_tokens})" in note.message for e in required)
    else:
        assert not compiled.budget.over_budget
    fits = compile_context(ledgerly, CompileInput(issue="I0105", budget_tokens=8_000))
    assert not fits.budget.over_budget
    assert all(e.uri in selected(fits) for e in required)


def test_the_over_budget_message_is_true(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(issue="I0001", budget_tokens=50))
    required = [e for e in compiled.selected if e.required]
    assert compiled.selected == required
    assert compiled.budget.used_tokens == compiled.budget.required_tokens > 50
    [note] = [d for d in compiled.diagnostics if d.code == "over_budget"]
    assert note.message.startswith(
        f"the {len(required)} entries that may not be dropped cost "
        f"{compiled.budget.required_tokens} token(s), over the limit of 50: "
    )


def test_a_partial_intent_match_never_makes_a_rule_required(planned: Index) -> None:
    partial = compile_context(planned, CompileInput(intent="alpha elsewhere unrelated", floor=0.1))
    alpha = entry(partial, ALPHA)
    assert alpha.discovered_by[0].selector is Selector.INTENT_MATCH and not alpha.required
    whole = compile_context(planned, CompileInput(intent="alpha"))
    assert entry(whole, ALPHA).required


def test_a_blocking_rule_put_in_force_beyond_the_work_does_not_bind(ledgerly: Index) -> None:
    compiled = compile_context(ledgerly, CompileInput(issue="I0203", budget_tokens=1_000_000))
    migrations = u("rule", "project.migrations-are-reversible@1")
    assert all(not e.required for e in compiled.selected if e.uri == migrations)


def test_the_cli_over_budget_line_names_what_may_not_be_dropped(planned: Index) -> None:
    compiled = compile_context(planned, CompileInput(issue="I0001", budget_tokens=50))
    text = compile_text(compiled.wire(), {})
    required = [e for e in compiled.selected if e.required]
    assert (
        f"OVER BUDGET: the {len(required)} entries that may not be dropped cost "
        f"{compiled.budget.required_tokens} token(s), more than the limit (50)"
    ) in text
    assert "over_budget" in text, "the diagnostic lists each with its cost"
