"""Invariants the seed states, over generated layers and requests (hypothesis)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majordomus.devcontext import (
    CompileInput,
    ExclusionReason,
    Standing,
    compile_context,
    tokens_for,
)
from majordomus.devcontext.compiler import judge
from majordomus.devcontext.graph import edge_kinds
from majordomus.devcontext.relevance import round3
from majordomus.layer.model import (
    Edge,
    ExternalNode,
    GitState,
    Index,
    LayerObject,
    Provenance,
    UnresolvedReference,
)
from tests.layer.support import manifest

KINDS = (
    "rule",
    "issue",
    "milestone",
    "adr",
    "policy",
    "scope",
    "context",
    "implementation",
    "test",
    "session",
    "document",
    "claim",
)
WORDS = ("alpha", "budget", "context", "scope", "rule", "issue", "lib", "the")
MANIFEST = manifest()


@st.composite
def layers(draw: st.DrawFn) -> Index:
    count = draw(st.integers(min_value=1, max_value=14))
    objects: list[LayerObject] = []
    for i in range(count):
        kind = draw(st.sampled_from(KINDS))
        identity = f"x{i}@{draw(st.integers(1, 3))}" if kind == "rule" else f"x{i}"
        shared = draw(st.booleans()) and kind == "claim"
        path = (
            "docs/CLAIMS.yaml"
            if shared
            else draw(st.sampled_from([f"lib/x{i}.sh", f"docs/x{i}.md", f".ai/x{i}.md"]))
        )
        metadata: dict[str, object] = {}
        status = draw(st.sampled_from([None, "active", "deprecated", "superseded", "rejected"]))
        if status:
            metadata["status"] = status
        if kind == "rule":
            metadata["class"] = draw(st.sampled_from(["blocking", "advisory"]))
        if kind in ("issue", "milestone", "context"):
            metadata["scope"] = draw(st.sampled_from([["lib"], ["docs"], "subtree", []]))
        if kind == "context":
            metadata["tracks"] = draw(st.sampled_from([["lib"], []]))
        if kind == "session":
            metadata["changed_files"] = ["lib/x.sh"]
            metadata["branch"] = "main"
        metadata["tags"] = draw(st.lists(st.sampled_from(WORDS), max_size=2))
        objects.append(
            LayerObject(
                kind=kind,
                identity=identity,
                title=draw(st.sampled_from([None, "The alpha rule", "A budget"])),
                description=None,
                metadata=metadata,
                content="",
                body="",
                media_type="text/plain",
                provenance=Provenance(
                    path=path,
                    directory=path.rpartition("/")[0] or ".",
                    source_class=kind,
                    bytes=draw(st.integers(0, 20_000)),
                ),
            )
        )
    by_uri = {o.uri: o for o in objects}
    objects = sorted(by_uri.values(), key=lambda o: o.uri)
    ends = [*by_uri, "file:lib"]
    edges = draw(
        st.lists(
            st.builds(
                Edge,
                source=st.sampled_from(ends),
                target=st.sampled_from(ends),
                kind=st.sampled_from(sorted(edge_kinds())),
            ),
            max_size=20,
        )
    )
    unresolved = [
        UnresolvedReference(o.provenance.path, "depends_on", f"missing-{o.identity}", "fix it")
        for o in objects
        if draw(st.booleans())
    ]
    return Index(
        root=Path("/nonexistent"),
        manifest=MANIFEST,
        sources=[],
        discovery="filesystem",
        git=draw(
            st.sampled_from(
                [
                    GitState.unavailable("generated"),
                    GitState(state="available", branch="main", working_tree="clean"),
                ]
            )
        ),
        objects=objects,
        diagnostics=[],
        edges=sorted(set(edges)),
        external={"file:lib": ExternalNode("file:lib", "file", "lib", "lib")},
        unresolved=sorted(unresolved),
    )


@st.composite
def requests(draw: st.DrawFn, index: Index) -> CompileInput:
    uris = [o.uri for o in index.objects]
    return CompileInput(
        uris=draw(st.lists(st.sampled_from(uris), max_size=3)),
        paths=draw(st.lists(st.sampled_from(["lib", "docs", ".ai"]), max_size=2)),
        intent=draw(st.none() | st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)),
        budget_tokens=draw(st.none() | st.integers(1, 6000)),
        max_depth=draw(st.none() | st.integers(0, 4)),
        floor=draw(st.none() | st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0])),
        all_blocking_rules=draw(st.none() | st.just(True)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_invariants(data: st.DataObject) -> None:
    index = data.draw(layers())
    request = data.draw(requests(index))
    compiled = compile_context(index, request)
    assert compile_context(index, request) == compiled, "deterministic"

    selected = [e.uri for e in compiled.selected]
    assert len(set(selected)) == len(selected)
    for e in compiled.selected:
        assert e.confidence == round3(max(d.confidence for d in e.discovered_by))
        assert e.depth == min(d.depth for d in e.discovered_by)
        assert e.cost_tokens == tokens_for(e.cost_bytes)

    seeds = set(request.uris)
    for row in compiled.excluded:
        if row.reason is ExclusionReason.BUDGET:
            obj = index.by_uri.get(row.uri)
            assert row.uri not in seeds
            assert row.kind not in ("policy", "scope")
            # A blocking rule binds the work when the request asks for every one of them (or
            # names it, above); only a rule that does not bind may give way to the budget
            # (docs/devcontext.md, "why an entry is in").
            blocking = (
                obj is not None and obj.kind == "rule" and obj.metadata.get("class") == "blocking"
            )
            assert not (blocking and request.all_blocking_rules)
        assert row.uri not in selected

    b = compiled.budget
    assert b.over_budget == (b.used_tokens > b.limit_tokens)
    assert b.remaining_tokens >= 0
    assert b.remaining_tokens == max(0, b.limit_tokens - b.used_tokens)
    assert b.used_tokens == sum(e.cost_tokens for e in compiled.selected)
    assert sum(t.tokens for t in b.tiers) == b.used_tokens
    assert sum(t.selected for t in b.tiers) == len(compiled.selected)
    assert all(t.required <= t.selected for t in b.tiers)

    excluded = {x.uri for x in compiled.excluded}
    dropped = {u for d in compiled.deduplicated for u in d.dropped}
    assert not dropped & set(selected)
    for obj in index.objects:
        standing = judge(index, compiled, obj.uri).standing
        assert standing is not Standing.UNKNOWN
        expected = (
            Standing.SELECTED
            if obj.uri in selected
            else Standing.EXCLUDED
            if obj.uri in excluded
            else Standing.DEDUPLICATED
            if obj.uri in dropped
            else Standing.NOT_REACHED
        )
        assert standing is expected
