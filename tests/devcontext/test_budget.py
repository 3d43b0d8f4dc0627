"""The spend stage: collapses, conflicts, the seed's D3 and D4, and the structural record."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from majordomus.devcontext import (
    CompileInput,
    CompileSources,
    ExclusionReason,
    ExplainInput,
    Selector,
    Standing,
    Tier,
    compile_context,
    explain,
)
from majordomus.devcontext.budget import spend
from majordomus.devcontext.candidates import Candidate
from majordomus.devcontext.inputs import resolve
from majordomus.devcontext.model import Route
from majordomus.devcontext.select import Selection
from majordomus.layer.model import Index
from tests.devcontext.conftest import PLANNED, planned_index

BETA_PATH = ".ai/repo/rules/project/beta.v1.md"
CLAIMS_CLASS = """\
  - id: claims
    kind: claim
    discovery: vcs
    pathspec: ':(glob)docs/CLAIMS.yaml'
    required: false
"""
CLAIMS = """\
version: 1
claims:
  - id: c-one
    claim: The compiler keeps a blocking rule
    status: guaranteed
  - id: c-two
    claim: The compiler reports what it dropped
    status: guaranteed
"""


def _beta_naming(extra: str) -> str:
    text = (PLANNED / BETA_PATH).read_text(encoding="utf-8")
    return text.replace("depends_on: [project.alpha]", f"depends_on: [project.alpha, {extra}]")


def test_a_dangling_reference_of_a_selected_object_is_unresolved(
    planned_copy: Callable[[dict[str, str]], Path],
) -> None:
    index = planned_index(planned_copy({BETA_PATH: _beta_naming("project.nothing")}))
    compiled = compile_context(index, CompileInput(uris=["majordomus://rule/project.beta@1"]))
    [row] = [x for x in compiled.excluded if x.reason is ExclusionReason.UNRESOLVED]
    detail = (
        f"{BETA_PATH} names it under `depends_on`; no object of kind `rule` has the identity "
        "`project.nothing`; register it or correct the name"
    )
    assert row.uri == "project.nothing" and row.kind is None
    assert (row.tier, row.cost_tokens, row.relevance, row.detail) == (
        Tier.HISTORY,
        1,
        0.0,
        detail,
    )
    assert "kind" not in row.wire()
    [note] = [d for d in compiled.diagnostics if d.code == "unresolved_reference"]
    assert note.path is None and note.severity == "warning"
    assert note.message == f"`project.nothing` is named and not held: {detail}"
    why = explain(index, ExplainInput(uri="project.nothing"))
    assert why.standing is Standing.UNKNOWN, "not reached by the default request"
    why = explain(
        index, ExplainInput(uri="project.nothing", uris=["majordomus://rule/project.beta@1"])
    )
    assert why.standing is Standing.EXCLUDED and why.detail.startswith(
        "reached and not given: unresolved — "
    )


def test_a_dangling_reference_of_an_object_not_given_is_only_a_diagnostic(
    planned_copy: Callable[[dict[str, str]], Path],
) -> None:
    index = planned_index(planned_copy({BETA_PATH: _beta_naming("project.nothing")}))
    compiled = compile_context(
        index, CompileInput(uris=["majordomus://adr/adr-0002"], budget_tokens=80)
    )
    assert any(
        x.uri == "majordomus://rule/project.beta@1" and x.reason is ExclusionReason.BUDGET
        for x in compiled.excluded
    )
    assert not any(x.reason is ExclusionReason.UNRESOLVED for x in compiled.excluded)
    assert [d.code for d in compiled.diagnostics] == ["over_budget", "unresolved_reference"]
    assert compile_context(index, CompileInput()).diagnostics == [], "nothing reached names it"


def test_one_file_under_two_identifiers_is_folded_not_excluded(
    planned_copy: Callable[[dict[str, str]], Path],
) -> None:
    sources = (PLANNED / ".ai/repo/knowledge/sources.yaml").read_text(encoding="utf-8")
    root = planned_copy(
        {".ai/repo/knowledge/sources.yaml": sources + CLAIMS_CLASS, "docs/CLAIMS.yaml": CLAIMS}
    )
    index = planned_index(root)
    assert index.state == "ok"
    compiled = compile_context(index, CompileInput(intent="compiler"))
    kept, dropped = "majordomus://claim/c-one", "majordomus://claim/c-two"
    assert kept in [e.uri for e in compiled.selected]
    assert dropped not in [e.uri for e in compiled.selected]
    assert dropped not in [x.uri for x in compiled.excluded], "D4: folded, not excluded"
    [row] = [d for d in compiled.deduplicated if d.key == "path"]
    assert (row.kept, row.dropped, row.paths) == (kept, [dropped], 1)
    assert row.detail == (
        "`docs/CLAIMS.yaml` is indexed under 2 identifiers; the most specific kind is kept"
    )
    why = explain(index, ExplainInput(uri=dropped, intent="compiler"))
    assert why.standing is Standing.DEDUPLICATED
    assert why.deduplicated == row and why.entry is None and why.excluded is None
    assert why.detail == f"folded into `{kept}` by path: {row.detail}"


def test_two_versions_of_one_rule(planned_copy: Callable[[dict[str, str]], Path]) -> None:
    alpha = (PLANNED / ".ai/repo/rules/project/alpha.v1.md").read_text(encoding="utf-8")
    root = planned_copy(
        {".ai/repo/rules/project/alpha.v2.md": alpha.replace("version: 1", "version: 2")}
    )
    index = planned_index(root)
    compiled = compile_context(index, CompileInput(intent="alpha"))
    old, new = "majordomus://rule/project.alpha@1", "majordomus://rule/project.alpha@2"
    assert new in [e.uri for e in compiled.selected]
    [conflict] = compiled.conflicts
    detail = (
        "`majordomus://rule/project.alpha` is in the answer at two versions; the higher one is "
        "what applies"
    )
    assert (conflict.kind, conflict.current, conflict.against, conflict.detail) == (
        "version",
        new,
        old,
        detail,
    )
    [row] = [x for x in compiled.excluded if x.uri == old]
    assert row.reason is ExclusionReason.SUPERSEDED and row.detail == detail
    [folded] = [d for d in compiled.deduplicated if d.key == "identity"]
    assert (folded.kept, folded.dropped, folded.detail) == (
        new,
        [old],
        "`majordomus://rule/project.alpha` at 2 versions",
    )
    assert explain(index, ExplainInput(uri=old, intent="alpha")).standing is Standing.EXCLUDED


def _way(selector: Selector, reason: str, edge: str | None = None) -> Route:
    return Route(selector=selector, reason=reason, edge=edge, depth=1, confidence=1.0, weight=1.0)


def test_the_structural_record_names_each_way_once(planned: Index) -> None:
    cand = Candidate(
        uri="majordomus://rule/x@1",
        kind="rule",
        title=None,
        tier=Tier.GOVERNANCE,
        relevance=0.5,
        depth=1,
        discovered_by=[
            _way(Selector.RELATION, "b", "depends_on"),
            _way(Selector.INTENT_MATCH, "c"),
            _way(Selector.RELATION, "a", "depends_on"),
        ],
    )
    sources = CompileSources(planned)
    request = resolve(planned, CompileInput(budget_tokens=100))
    spent = spend(sources, request, Selection({cand.uri: cand}, [], {}, []))
    [row] = spent.deduplicated
    assert row.detail == (
        "one object reached by 3 discovery path(s): intent_match, relation(depends_on)"
    )
    assert row.paths == 3 and row.dropped == []
    [entry] = spent.selected
    assert (entry.cost_bytes, entry.cost_tokens) == (0, 1), "nothing to measure is one token"
    assert entry.provenance.path == entry.uri and entry.provenance.source_class == "named"


def test_remaining_is_floored_and_the_overspend_is_readable(
    planned_copy: Callable[[dict[str, str]], Path],
) -> None:
    index = planned_index(planned_copy({}))
    compiled = compile_context(index, CompileInput(issue="I0001", budget_tokens=10))
    b = compiled.budget
    assert b.over_budget and b.used_tokens > b.limit_tokens
    assert b.remaining_tokens == 0 and b.required_tokens == b.used_tokens
    first = compiled.excluded[0]
    assert (first.uri, first.reason) == ("majordomus://milestone/m1", ExclusionReason.BUDGET)
    assert first.detail == "29 token(s) would not fit: 103 of 10 already spent, 0 left"
    assert all(x.tier <= y.tier for x, y in pairwise(compiled.excluded))
