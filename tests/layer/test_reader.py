"""Reading one file: the check order, identity, title,
description, provenance, collection members and self-declared kinds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from majordomus.layer.kinds import load_kinds
from majordomus.layer.model import SourceClass
from majordomus.layer.reader import (
    LayerReader,
    NotRead,
    check_version,
    description_of,
    heading_of,
    identity_of,
    read_entry,
    title_of,
)
from majordomus.safefs import Tree
from tests.layer.support import manifest, write

MANIFEST = manifest(rules="repo/rules", knowledge="repo/knowledge")
KINDS = load_kinds()


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[LayerReader]:
    with Tree(tmp_path) as tree:
        yield LayerReader(tree, MANIFEST, KINDS)


def _write(ctx: LayerReader, rel: str, data: str | bytes) -> str:
    write(ctx.tree.root, rel, data)
    return rel


def _read(ctx: LayerReader, rel: str, kind: str, cid: str | None = None):
    source = SourceClass(id=cid or kind, kind=kind, discovery="vcs", pathspec="", required=False)
    read = read_entry(rel, source, ctx)
    return read.objects, read.findings


def _one_error(ctx, rel, kind, cid=None) -> tuple[str, str]:
    objects, diagnostics = _read(ctx, rel, kind, cid)
    assert objects == []
    assert len(diagnostics) == 1
    assert diagnostics[0].severity == "error"
    assert diagnostics[0].path == rel
    return diagnostics[0].code, diagnostics[0].message


RULE = """\
---
id: project.alpha
version: 1
kind: rule
title: Alpha
description: What alpha requires.
---

# Rationale
"""


def test_a_rule_becomes_one_object_with_its_provenance(ctx) -> None:
    rel = _write(ctx, ".ai/repo/rules/project/alpha.v1.md", RULE)
    objects, diagnostics = _read(ctx, rel, "rule")
    assert diagnostics == []
    (obj,) = objects
    assert obj.uri == "majordomus://rule/project.alpha@1"
    assert obj.title == "Alpha"
    assert obj.description == "What alpha requires."
    assert obj.metadata == {
        "id": "project.alpha",
        "version": 1,
        "kind": "rule",
        "title": "Alpha",
        "description": "What alpha requires.",
    }
    assert obj.content == RULE
    assert obj.body == "\n# Rationale\n"
    assert obj.media_type == "text/markdown"
    assert obj.provenance.to_json() == {
        "path": rel,
        "directory": ".ai/repo/rules/project",
        "source_class": "rule",
        "section": "rules",
        "bytes": len(RULE.encode()),
    }


def test_a_root_file_has_directory_dot_and_no_section(ctx) -> None:
    rel = _write(ctx, "README.md", "# Héllo\n")
    (obj,) = _read(ctx, rel, "document", "readme")[0]
    assert obj.provenance.to_json() == {
        "path": "README.md",
        "directory": ".",
        "source_class": "readme",
        "bytes": 9,
    }
    assert obj.uri == "majordomus://document/README.md"
    assert obj.title == "Héllo"


def test_the_check_order_of_section_5_4(ctx) -> None:
    # unknown kind wins over everything, even a missing file
    assert _one_error(ctx, "nope.md", "widget", "w")[0] == "unknown_kind"
    assert _one_error(ctx, "nope.md", "rule")[0] == "unreadable"
    # unknown key comes before kind mismatch, which comes before identity
    rel = _write(ctx, "r/a.md", "---\nid: x\nkind: prompt\nowner: me\n---\n")
    assert _one_error(ctx, rel, "rule") == (
        "unknown_key",
        "key(s) not allowed here (see docs/generated/layer.md#rule): owner",
    )
    rel = _write(ctx, "r/b.md", "---\nkind: prompt\n---\n")
    assert _one_error(ctx, rel, "rule")[0] == "kind_mismatch"
    # version before identity
    rel = _write(ctx, "p.yaml", "version: 3\n")
    assert _one_error(ctx, rel, "policy") == (
        "unsupported_version",
        "'version' is 3; this executable reads 1",
    )


def test_a_file_at_the_size_limit_is_read(ctx) -> None:
    """The file checks' findings and messages are tests/layer/test_fixtures.py's, each from
    its broken fixture; a FIFO's is tests/reliability/test_hostile_filesystem.py's."""
    rel = _write(ctx, "docs/big.md", b"x" * (4 * 1024 * 1024))
    assert _read(ctx, rel, "document")[1] == []


def test_parse_failures(ctx) -> None:
    rel = _write(ctx, "p.yaml", "name: a\n\tb: 1\n")
    assert _one_error(ctx, rel, "profile") == ("malformed_yaml", "tab character on line 2")
    rel = _write(ctx, "r2.md", "---\nid: x\n  bad: 1\n---\n")
    assert _one_error(ctx, rel, "rule") == (
        "malformed_front_matter",
        "unexpected indentation on line 2",
    )


def test_without_front_matter_switches_to_the_fallback_kind(ctx) -> None:
    rel = _write(ctx, ".ai/repo/rules/README.md", "# Rules\n\nText.\n")
    (obj,) = _read(ctx, rel, "rule")[0]
    assert obj.uri == "majordomus://document/.ai/repo/rules/README.md"
    assert obj.title == "Rules"
    assert obj.provenance.source_class == "rule"


def test_a_markdown_file_may_declare_itself_a_context(ctx) -> None:
    text = "---\nschema: context/v1\nid: ai.repo.rules\nkind: context\ntitle: Rules\n---\n# R\n"
    rel = _write(ctx, ".ai/repo/rules/README.md", text)
    (obj,) = _read(ctx, rel, "rule")[0]
    assert obj.uri == "majordomus://context/ai.repo.rules"
    assert obj.provenance.source_class == "rule"
    rel = _write(ctx, ".ai/repo/prompts/README.md", text)
    assert _read(ctx, rel, "prompt")[0][0].kind == "context"
    # a kind that is not declarable is a mismatch, not a switch
    rel = _write(ctx, "x.md", "---\nid: a\nversion: 1\nkind: skill\n---\n")
    assert _one_error(ctx, rel, "rule")[0] == "kind_mismatch"


def test_text_kinds_have_no_metadata(ctx) -> None:
    rel = _write(ctx, "lib/thing.sh", "#!/bin/sh\n---\nkind: rule\n")
    (obj,) = _read(ctx, rel, "implementation", "library")[0]
    assert obj.uri == "majordomus://implementation/lib/thing.sh"
    assert obj.metadata == {}
    assert obj.media_type == "text/plain"
    assert obj.title is None and obj.description is None


CLAIMS = """\
version: 1
statuses:
  - id: guaranteed
    meaning: Proven.
claims:
  - id: one
    claim: The first
    note: n
  - plain text
  - claim: no id
  - id: bad id
  - id: two
    claim: The second
"""


def test_collection_members(ctx) -> None:
    rel = _write(ctx, "docs/CLAIMS.yaml", CLAIMS)
    objects, diagnostics = _read(ctx, rel, "claim", "claims")
    assert [(o.uri, o.provenance.member, o.title, o.description) for o in objects] == [
        ("majordomus://claim/one", "claims.0", "The first", "n"),
        ("majordomus://claim/two", "claims.4", "The second", None),
    ]
    first = objects[0]
    assert first.metadata == {"id": "one", "claim": "The first", "note": "n"}
    assert first.content == json.dumps(first.metadata, ensure_ascii=False, indent=2)
    assert first.media_type == "application/json"
    assert first.provenance.bytes == len(first.content.encode())
    assert first.provenance.path == rel
    assert [(d.code, d.path, d.message) for d in diagnostics] == [
        ("malformed_yaml", rel, "member claims.1 is not a mapping"),
        ("missing_field", rel, "member claims.2: identity field 'id' is missing"),
        (
            "missing_field",
            rel,
            "member claims.3: identity field 'id' holds 'bad id', which has a '/', '@' or "
            "whitespace",
        ),
    ]


def test_collection_file_level_checks(ctx) -> None:
    rel = _write(ctx, "c1.yaml", "version: 2\nclaims: []\n")
    assert _one_error(ctx, rel, "claim")[0] == "unsupported_version"
    rel = _write(ctx, "c2.yaml", "version: 1\n")
    assert _read(ctx, rel, "claim") == ([], [])
    rel = _write(ctx, "c3.yaml", "version: 1\nclaims: nope\n")
    assert _one_error(ctx, rel, "claim") == ("malformed_yaml", "'claims' is not a list")
    rel = _write(ctx, "c4.yaml", "version: 1\nclaims:\n  - id: a\n    owner: me\n")
    assert _one_error(ctx, rel, "claim") == (
        "unknown_key",
        "key(s) not allowed here (see docs/generated/layer.md#claim): claims.0.owner",
    )


# --- identity, title, description, version -------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "metadata", "expected"),
    [
        ("rule", {"id": "a.b", "version": 1}, "a.b@1"),
        ("rule", {"id": "a", "version": True}, "a@true"),
        ("prompt", {"name": "continue"}, "continue"),
        ("prompt", {"name": 7}, "7"),
        ("policy", {"version": 1}, ".ai/repo/policy.yaml"),
    ],
)
def test_identity_rule(kind: str, metadata: dict, expected: str) -> None:
    assert identity_of(KINDS.kinds[kind], metadata, ".ai/repo/policy.yaml") == expected


BAD = ", which has a '/', '@' or whitespace"


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        ({"version": 1}, "identity field 'id' is missing"),
        ({"id": "", "version": 1}, "identity field 'id' is empty"),
        ({"id": ["a"], "version": 1}, "identity field 'id' is not a scalar"),
        ({"id": None, "version": 1}, "identity field 'id' is not a scalar"),
        ({"id": "a/b", "version": 1}, f"identity field 'id' holds 'a/b'{BAD}"),
        ({"id": "a@b", "version": 1}, f"identity field 'id' holds 'a@b'{BAD}"),
        ({"id": "a b", "version": 1}, f"identity field 'id' holds 'a b'{BAD}"),
        ({"id": "a", "version": {}}, "identity field 'version' is not a scalar"),
    ],
)  # fmt: skip
def test_identity_failures_name_the_field(metadata: dict, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        identity_of(KINDS.kinds["rule"], metadata, "x")
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("# Title\n", "Title"),
        ("text\n# Later  \n# Second\n", "Later"),
        ("## Not\n#Nope\n # indented\n", None),
        ("#  \n# Second\n", None),
        ("# CRLF\r\nmore\r\n", "CRLF"),
        ("", None),
    ],
)
def test_heading_title(body: str, expected: str | None) -> None:
    assert heading_of(body) == expected
    assert title_of(KINDS.kinds["document"], {"title": "ignored"}, body) == expected


def test_field_title_and_description() -> None:
    prompt = KINDS.kinds["prompt"]
    assert title_of(prompt, {"name": "n"}, "# H\n") == "n"
    assert title_of(prompt, {"name": ""}, "") == ""
    assert title_of(prompt, {"name": [1]}, "") is None
    assert title_of(prompt, {}, "") is None
    assert description_of(prompt, {"description": 5}) == "5"
    assert description_of(prompt, {"description": False}) == "false"
    assert description_of(prompt, {}) is None
    assert description_of(KINDS.kinds["policy"], {"description": "x"}) is None
    assert title_of(KINDS.kinds["policy"], {"title": "x"}, "# H") is None
    adr = KINDS.kinds["adr"]
    assert description_of(adr, {"title": "T"}) == title_of(adr, {"title": "T"}, "") == "T"


READS = "; this executable reads"


@pytest.mark.parametrize(
    ("kind", "metadata", "outcome"),
    [
        ("policy", {"version": 1}, None),
        ("policy", {}, ("missing_field", "no integer 'version'")),
        ("policy", {"version": "1"}, ("missing_field", "no integer 'version'")),
        ("policy", {"version": True}, ("missing_field", "no integer 'version'")),
        ("policy", {"version": -1}, ("missing_field", "no integer 'version'")),
        ("policy", {"version": 2}, ("unsupported_version", f"'version' is 2{READS} 1")),
        ("context", {"schema": "context/v1"}, None),
        ("context", {}, ("missing_field", "no 'schema'")),
        ("context", {"schema": "context/v2"},
         ("unsupported_version", f"'schema' is context/v2{READS} context/v1")),
        ("context", {"schema": 1}, ("unsupported_version", f"'schema' is 1{READS} context/v1")),
        ("rule", {}, None),
    ],
)  # fmt: skip
def test_version_check(kind: str, metadata: dict, outcome) -> None:
    if outcome is None:
        check_version(KINDS.kinds[kind], metadata)
        return
    with pytest.raises(NotRead) as caught:
        check_version(KINDS.kinds[kind], metadata)
    assert (caught.value.code, caught.value.message) == outcome
