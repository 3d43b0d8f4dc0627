"""Every fixture layer of `fixtures/layers/`, built in a temporary git repository.

`healthy` indexes clean; each `broken/<code>` yields exactly its diagnostic; each fatal
fixture raises its error with the exit code README.md lists for it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from majordomus.errors import Fatal
from majordomus.layer.index import build
from majordomus.layer.kinds import load_kinds
from majordomus.layer.manifest import InvalidManifest
from majordomus.layer.reader import SIZE_LIMIT
from majordomus.layer.root import LayerIOError
from majordomus.layer.sources import InvalidSources
from tests.conftest import FIXTURES, git

BROKEN = FIXTURES / "layers" / "broken"

DUP = (
    "majordomus://rule/majordomus.scope-integrity@1 is claimed by "
    ".ai/repo/rules/project/copy.v1.md and .ai/repo/rules/vendor/scope-integrity.v1.md; "
    "all of them are excluded"
)

#: code -> (path, message) of the one error broken/<code> yields
ONE_ERROR: dict[str, tuple[str | None, str]] = {
    "required_source_empty": (
        None,
        "class 'policy' is required but its pathspec ':(glob).ai/repo/policy.yaml' matches no file",
    ),
    "unknown_kind": (
        ".ai/repo/widgets/w.yaml",
        "class 'widget' declares kind 'widget', which this executable does not read "
        "(its kinds: docs/generated/layer.md)",
    ),
    "unreadable": ("docs/GONE.md", "cannot stat: No such file or directory"),
    "symlink": ("docs/link.md", "is a symbolic link; symlinks are never followed"),
    "not_a_file": ("docs/dir.md", "is not a regular file"),
    "oversized": ("docs/BIG.md", "4194305 bytes, over the 4194304 byte limit"),
    "invalid_utf8": ("docs/latin1.md", "not valid UTF-8 (byte 0xe9 at offset 5)"),
    "malformed_yaml": (
        ".ai/repo/profiles/review.yaml",
        "unsupported YAML construct on line 2: &anchor text",
    ),
    "malformed_front_matter": (
        ".ai/repo/rules/project/broken.v1.md",
        "front matter opened on line 1 and never closed",
    ),
    "missing_front_matter": (
        ".ai/repo/prompts/triage.md",
        "no front matter, and the kind requires it",
    ),
    "unknown_key": (
        ".ai/repo/rules/project/x.v1.md",
        "key(s) not allowed here (see docs/generated/layer.md#rule): owner, extra.k",
    ),
    "kind_mismatch": (
        ".ai/repo/rules/project/x.v1.md",
        "declares kind 'prompt' but was discovered by class 'rule' as 'rule'",
    ),
    "unsupported_version": (".ai/repo/policy.yaml", "'version' is 2; this executable reads 1"),
    "missing_field": (".ai/repo/prompts/nameless.md", "identity field 'name' is missing"),
}

# code -> the exact diagnostics (severity, code, path, message) of broken/<code>
EXPECTED: dict[str, list[tuple[str, str, str | None, str]]] = {
    **{code: [("error", code, *found)] for code, found in ONE_ERROR.items()},
    "claimed_twice": [
        (
            "warning",
            "claimed_twice",
            ".ai/repo/rules/a.v1.md",
            "matched by class 'extra' after class 'rule'; kept under 'rule'",
        )
    ],
    "duplicate_identity": [
        ("error", "duplicate_identity", ".ai/repo/rules/project/copy.v1.md", DUP),
        ("error", "duplicate_identity", ".ai/repo/rules/vendor/scope-integrity.v1.md", DUP),
    ],
    "unresolved_reference": [
        (
            "warning",
            "unresolved_reference",
            ".ai/repo/rules/project/a.v1.md",
            "no object of kind `rule` has the identity `project.nothing`; register it or "
            "correct the name",
        )
    ],
}

FATAL: dict[str, tuple[type[Fatal], int, str]] = {
    "invalid_manifest": (InvalidManifest, 10, "cannot parse line 10: rules:repo/rules"),
    "invalid_manifest_type": (InvalidManifest, 10, "local.tracked"),
    "unknown_manifest_keys": (InvalidManifest, 10, "unknown key(s): sections.bogus, owner"),
    "unsupported_schema": (InvalidManifest, 10, "'ai-repository/v2' is not supported"),
    "missing_knowledge_section": (InvalidManifest, 10, "no 'knowledge' section"),
    "missing_sources": (LayerIOError, 13, "sources.yaml"),
    "invalid_sources_version": (InvalidSources, 10, "version is 2; only version 1 is read"),
    "invalid_sources_duplicate_id": (InvalidSources, 10, "class id 'document' is declared twice"),
    "invalid_sources_pathspec": (InvalidSources, 10, "does not start with :(glob)"),
    "invalid_sources_unknown_key": (InvalidSources, 10, "sources.0.note"),
    "invalid_sources_discovery": (InvalidSources, 10, "sources.0.discovery"),
    "invalid_sources_quoted_required": (InvalidSources, 10, "sources.0.required"),
}


def _setup(code: str, root: Path) -> None:
    """The SETUP.md step of the fixtures that cannot be committed as they are."""
    if code == "unreadable":
        (root / "docs" / "GONE.md").unlink()
    elif code == "symlink":
        os.symlink("GUIDE.md", root / "docs" / "link.md")
        git(root, "add", "docs/link.md")
    elif code == "not_a_file":
        (root / "docs" / "dir.md").unlink()
        (root / "docs" / "dir.md").mkdir()
        (root / "docs" / "dir.md" / "inner.txt").write_text("x\n")
    elif code == "oversized":
        (root / "docs" / "BIG.md").write_bytes(b"# Big\n" + b"x" * (SIZE_LIMIT + 1 - 6))
        git(root, "add", "docs/BIG.md")


def test_every_code_of_the_spec_has_a_fixture() -> None:
    codes = {
        "claimed_twice", "required_source_empty", "unknown_kind", "unreadable", "symlink",
        "not_a_file", "oversized", "invalid_utf8", "malformed_yaml", "malformed_front_matter",
        "missing_front_matter", "unknown_key", "kind_mismatch", "unsupported_version",
        "missing_field", "duplicate_identity", "unresolved_reference",
    }  # fmt: skip
    assert set(EXPECTED) == codes
    on_disk = {p.name for p in BROKEN.iterdir() if p.is_dir()}
    assert on_disk == set(EXPECTED) | set(FATAL)


def test_healthy_indexes_clean_with_every_shipped_kind(git_repo) -> None:
    index = build(git_repo("layers/healthy")).index
    assert [d.to_json() for d in index.diagnostics] == []
    assert index.state == "ok"
    assert set(index.kinds) == set(load_kinds().kinds)  # the set test_kinds.py pins
    assert index.unresolved == []
    uris = [obj.uri for obj in index.objects]
    assert uris == sorted(uris)
    claim = index.by_uri["majordomus://claim/reader-refuses"]
    assert claim.provenance.member == "claims.0"
    assert claim.media_type == "application/json"
    assert claim.title == "The reader refuses what it cannot read"
    skill = index.by_uri["majordomus://skill/review"]
    assert skill.provenance.path == ".ai/repo/skills/review/SKILL.md"
    assert skill.provenance.section == "skills"


def test_healthy_relations_resolve(git_repo) -> None:
    index = build(git_repo("layers/healthy")).index
    triples = {(e.source, e.kind, e.target) for e in index.edges}
    expected = {
        ("majordomus://rule/project.beta@1", "depends_on", "majordomus://rule/project.alpha@1"),
        ("majordomus://adr/adr-0002", "supersedes", "majordomus://adr/adr-0001"),
        ("majordomus://adr/adr-0001", "put_in_force", "majordomus://rule/project.alpha@1"),
        ("majordomus://adr/adr-0002", "put_in_force", "majordomus://claim/reader-refuses"),
        ("majordomus://skill/review", "related_to", "majordomus://skill/triage"),
        ("majordomus://issue/I0001", "belongs_to", "majordomus://milestone/M001"),
        ("majordomus://issue/I0002", "depends_on", "majordomus://issue/I0001"),
        ("majordomus://milestone/M001", "evidences", "majordomus://claim/reader-refuses"),
        ("majordomus://use-case/read-the-layer", "runs", "command:mcp"),
        ("majordomus://use-case/read-the-layer", "exercises", "doctrine:no-such-doctrine"),
        (
            "majordomus://use-case/read-the-layer",
            "serves",
            "majordomus://application/solo-work",
        ),
        ("majordomus://application/solo-work", "governed_by", "majordomus://rule/project.beta@1"),
        (
            "majordomus://claim/reader-refuses",
            "tested_by",
            "majordomus://test/test/cases/01_thing.sh",
        ),
        ("majordomus://claim/served-read-only", "implemented_by", "file:lib/serve.sh"),
        (
            "majordomus://context/ai.layer",
            "tracks",
            "majordomus://implementation/lib/thing.sh",
        ),
    }
    assert expected <= triples
    assert list(index.edges) == sorted(index.edges)
    assert index.external["file:lib/serve.sh"].source == "lib/serve.sh"
    assert index.external["file:lib/serve.sh"].label == "serve.sh"


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_broken_fixture_yields_exactly_its_diagnostics(code: str, git_repo) -> None:
    root = git_repo(f"layers/broken/{code}")
    _setup(code, root)
    index = build(root).index
    got = [(d.severity, d.code, d.path, d.message) for d in index.diagnostics]
    assert got == EXPECTED[code]
    errors = any(severity == "error" for severity, *_ in EXPECTED[code])
    assert index.state == ("degraded" if errors else "ok")


@pytest.mark.parametrize("name", sorted(FATAL))
def test_fatal_fixture_raises_its_error(name: str, git_repo) -> None:
    error, exit_code, fragment = FATAL[name]
    root = git_repo(f"layers/broken/{name}")
    with pytest.raises(error) as caught:
        build(root)
    assert caught.value.exit_code == exit_code
    assert fragment in caught.value.message
    assert "\n" not in caught.value.message


def test_ledgerly_indexes_clean(git_repo) -> None:
    """The hand-written layer the context benchmark reads: no diagnostic, every reference
    resolves, every kind it is about present."""
    index = build(git_repo("layers/ledgerly")).index
    assert [d.to_json() for d in index.diagnostics] == []
    assert index.state == "ok" and index.unresolved == []
    kinds = {"adr", "context", "implementation", "issue", "knowledge", "milestone", "rule"}
    assert kinds <= set(index.kinds)
    assert sum(1 for o in index.objects if o.kind == "issue") == 18
