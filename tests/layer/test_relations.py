"""The relation table, target resolution and unresolved references
(docs/devcontext.md#how-objects-link)."""

from __future__ import annotations

from typing import Any

from majordomus.layer.model import Edge, LayerObject, Provenance, UnresolvedReference
from majordomus.layer.relations import derive_relations


def obj(kind: str, identity: str, path: str | None = None, **metadata: Any) -> LayerObject:
    rel = path or f"{kind}/{identity}.md"
    return LayerObject(
        kind=kind,
        identity=identity,
        title=None,
        description=None,
        metadata=metadata,
        content="",
        body="",
        media_type="text/markdown",
        provenance=Provenance(
            path=rel, directory=rel.rpartition("/")[0] or ".", source_class=kind, bytes=0
        ),
    )


def index(*objects: LayerObject) -> list[LayerObject]:
    return sorted(objects, key=lambda o: o.uri)


def triples(rel) -> set[tuple[str, str, str]]:
    return {(e.source, e.kind, e.target) for e in rel.edges}


def object_correction(kind: str, ref: str, fix: str = "name") -> str:
    """The parity text of a reference to no object of `kind`."""
    return f"no object of kind `{kind}` has the identity `{ref}`; register it or correct the {fix}"


def test_rule_depends_on_by_identity_or_stem_and_dash_means_none() -> None:
    alpha1 = obj("rule", "p.alpha@1")
    alpha2 = obj("rule", "p.alpha@2")
    beta = obj("rule", "p.beta@1", depends_on=["p.alpha", "p.alpha@2", "-", "p.zeta", 7])
    gamma = obj("rule", "p.gamma@1", depends_on="-")
    rel = derive_relations(index(alpha1, alpha2, beta, gamma))
    assert triples(rel) == {
        ("majordomus://rule/p.beta@1", "depends_on", "majordomus://rule/p.alpha@1"),
        ("majordomus://rule/p.beta@1", "depends_on", "majordomus://rule/p.alpha@2"),
    }
    assert rel.unresolved == [
        UnresolvedReference(
            "rule/p.beta@1.md", "depends_on", "p.zeta", object_correction("rule", "p.zeta")
        )
    ]
    assert [(d.severity, d.code, d.path, d.message) for d in rel.diagnostics] == [
        ("warning", "unresolved_reference", "rule/p.beta@1.md", object_correction("rule", "p.zeta"))
    ]


def test_adr_supersedes_by_declared_id_and_related_prefixed_targets() -> None:
    rule = obj("rule", "p.alpha@1")
    old = obj("adr", "adr-0001", id="adr-0001")
    new = obj(
        "adr",
        "adr-0002",
        id="adr-0002",
        supersedes=["adr-0001", "adr-0404"],
        related=[
            "rule:p.alpha",
            "rule:p.missing",
            "file:lib/x.sh",
            "test:test/cases/a.sh",
            "file:rule/p.alpha@1.md",
            "claim:c1",
            "no-colon",
        ],
    )
    rel = derive_relations(index(rule, old, new))
    src = "majordomus://adr/adr-0002"
    assert triples(rel) == {
        (src, "supersedes", "majordomus://adr/adr-0001"),
        (src, "put_in_force", "majordomus://rule/p.alpha@1"),
        (src, "put_in_force", "file:lib/x.sh"),
        (src, "put_in_force", "test:test/cases/a.sh"),
        (src, "put_in_force", "majordomus://rule/p.alpha@1"),
        (src, "put_in_force", "claim:c1"),
    }
    assert {(u.key, u.reference, u.correction) for u in rel.unresolved} == {
        (
            "supersedes",
            "adr-0404",
            "no decision declares the id `adr-0404`; correct the name or record the decision",
        ),
        ("related", "rule:p.missing", object_correction("rule", "p.missing", "reference")),
        (
            "related",
            "no-colon",
            "`no-colon` is not `<kind>:<name>`; a reference names what kind of thing it points at",
        ),
    }
    ext = rel.external
    assert ext["file:lib/x.sh"].source == "lib/x.sh"
    assert ext["file:lib/x.sh"].label == "x.sh"
    assert ext["test:test/cases/a.sh"].kind == "test"
    assert ext["claim:c1"].source is None
    assert ext["claim:c1"].kind == "claim"


def test_use_case_and_application_rows() -> None:
    rule = obj("rule", "p.alpha@1")
    claim = obj("claim", "c1", path="docs/CLAIMS.yaml")
    app = obj("application", "solo", use_cases=["uc", "ghost"], doctrines=["p.alpha", "loose"])
    uc = obj(
        "use-case",
        "uc",
        commands=["doctor", "check"],
        doctrines=["p.alpha", "loose"],
        claims=["c1", "c9"],
        applications=["solo"],
        mcp_tools=["majordomus_get", "majordomus_nope"],
    )
    rel = derive_relations(index(rule, claim, app, uc), mcp_tools={"majordomus_get": "objects.get"})
    u, a = "majordomus://use-case/uc", "majordomus://application/solo"
    assert triples(rel) == {
        (u, "runs", "command:doctor"),
        (u, "runs", "command:check"),
        (u, "exercises", "majordomus://rule/p.alpha@1"),
        (u, "exercises", "doctrine:loose"),
        (u, "evidences", "majordomus://claim/c1"),
        (u, "serves", a),
        (u, "exercises", "capability:objects.get"),
        (a, "governed_by", "majordomus://rule/p.alpha@1"),
        (a, "governed_by", "doctrine:loose"),
    }
    assert rel.external["capability:objects.get"].kind == "capability"
    assert [(x.declared_in, x.key, x.reference) for x in rel.unresolved] == [
        ("application/solo.md", "use_cases", "ghost"),
        ("use-case/uc.md", "claims", "c9"),
        ("use-case/uc.md", "mcp_tools", "majordomus_nope"),
    ]
    assert rel.unresolved[0].correction == object_correction("use-case", "ghost")


def test_no_known_mcp_tools_leaves_every_tool_unresolved() -> None:
    uc = obj("use-case", "uc", mcp_tools="majordomus_get")
    rel = derive_relations([uc])
    assert rel.edges == []
    assert rel.unresolved[0].correction == (
        "no capability is exposed as the MCP tool `majordomus_get`; correct the name or declare "
        "the exposure"
    )


def test_plan_rows_and_tracks_and_claim_paths() -> None:
    m1 = obj("milestone", "M1", path="p/M1.yaml", claims=["c1"], depends_on=["M0"])
    i1 = obj("issue", "I1", path="p/I1.yaml", milestone="M1")
    i2 = obj("issue", "I2", path="p/I2.yaml", milestone="M1", depends_on=["I1"])
    impl = obj("implementation", "lib/x.sh", path="lib/x.sh")
    claim = obj(
        "claim", "c1", path="docs/CLAIMS.yaml",
        source="docs/A.md", implementation="lib/x.sh", test="-",
    )  # fmt: skip
    ctx = obj("context", "ai", path=".ai/README.md", tracks=["lib/x.sh", "lib"])
    rel = derive_relations(index(m1, i1, i2, impl, claim, ctx))
    assert triples(rel) == {
        ("majordomus://issue/I1", "belongs_to", "majordomus://milestone/M1"),
        ("majordomus://issue/I2", "belongs_to", "majordomus://milestone/M1"),
        ("majordomus://issue/I2", "depends_on", "majordomus://issue/I1"),
        ("majordomus://milestone/M1", "evidences", "majordomus://claim/c1"),
        ("majordomus://claim/c1", "defined_in", "file:docs/A.md"),
        ("majordomus://claim/c1", "implemented_by", "majordomus://implementation/lib/x.sh"),
        ("majordomus://context/ai", "tracks", "majordomus://implementation/lib/x.sh"),
        ("majordomus://context/ai", "tracks", "file:lib"),
    }
    assert [(u.reference, u.correction) for u in rel.unresolved] == [
        ("M0", object_correction("milestone", "M0"))
    ]


def test_skill_related_and_order_and_dedup() -> None:
    a = obj("skill", "a", related=["b", "b", "zz"])
    b = obj("skill", "b", related="a")
    rel = derive_relations(index(a, b))
    assert rel.edges == [
        Edge("majordomus://skill/a", "majordomus://skill/b", "related_to"),
        Edge("majordomus://skill/b", "majordomus://skill/a", "related_to"),
    ]
    assert len(rel.unresolved) == 1


def test_unresolved_references_are_sorted_and_unique() -> None:
    x = obj("rule", "x@1", path="b.md", depends_on=["q", "p", "q"])
    y = obj("rule", "y@1", path="a.md", depends_on=["z"])
    rel = derive_relations(index(x, y))
    assert [(u.declared_in, u.reference) for u in rel.unresolved] == [
        ("a.md", "z"),
        ("b.md", "p"),
        ("b.md", "q"),
    ]
    assert [d.path for d in rel.diagnostics] == ["a.md", "b.md", "b.md"]
