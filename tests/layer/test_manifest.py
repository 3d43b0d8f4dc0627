"""`.ai/manifest.yaml`: the validation order and every fatal error."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.errors import EXIT_CONTRACT, EXIT_REFUSED
from majordomus.layer.manifest import InvalidManifest, parse_manifest, read_manifest
from majordomus.layer.root import LayerIOError

GOOD = """\
schema: ai-repository/v1
repo:
  path: repo
local:
  path: local
  tracked: false
  implicit_context: false
sections:
  policy: repo/policy.yaml
  rules: repo/rules
  rules-vendor: repo/rules/vendor
  knowledge: repo/knowledge/
context:
  documents: [README.md, AGENTS.md]
"""


def _parse(text: str):
    return parse_manifest(text, "M")


def test_a_valid_manifest_reads_into_the_typed_record() -> None:
    manifest = _parse(GOOD.replace("  rules-vendor: repo/rules/vendor\n", ""))
    assert manifest.schema == "ai-repository/v1"
    assert manifest.local_path == "local"
    assert manifest.sections == {
        "policy": "repo/policy.yaml",
        "rules": "repo/rules",
        "knowledge": "repo/knowledge",
    }
    assert manifest.section_path("rules") == ".ai/repo/rules"


def test_section_of_takes_the_longest_directory_prefix() -> None:
    manifest = _parse(GOOD.replace("  rules-vendor: repo/rules/vendor\n", ""))
    assert manifest.section_of(".ai/repo/rules/project/a.md") == "rules"
    assert manifest.section_of(".ai/repo/policy.yaml") == "policy"
    assert manifest.section_of(".ai/repo/rulesx/a.md") is None
    assert manifest.section_of("README.md") is None


def test_unknown_keys_are_named_in_document_order() -> None:
    with pytest.raises(InvalidManifest) as caught:
        _parse(GOOD)
    assert caught.value.message == "M: unknown key(s): sections.rules-vendor"
    assert caught.value.exit_code == EXIT_CONTRACT
    with pytest.raises(InvalidManifest, match=r"unknown key\(s\): owner, extra\.k$"):
        _parse(
            "owner: me\n"
            + GOOD.replace("  rules-vendor: repo/rules/vendor\n", "")
            + "extra:\n  k: v\n"
        )


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("schema: ai-repository/v1\n\tx: 1\n", InvalidManifest, "M: tab character on line 2"),
        ("repo:\n  path: repo\n", InvalidManifest, "layer schema ''"),
        ("schema: ai-repository/v1\n", InvalidManifest, "M: repo: Field required"),
        (
            GOOD.replace("repo/rules/vendor", "../outside").replace("rules-vendor", "why"),
            InvalidManifest,
            "sections.why '../outside' is not a path inside .ai/",
        ),
    ],
)  # the fatal fixtures of tests/layer/test_fixtures.py hold the other failures
def test_each_failure_is_fatal_with_exit_10(text: str, error: type, fragment: str) -> None:
    with pytest.raises(error) as caught:
        _parse(text)
    assert fragment in caught.value.message
    assert caught.value.exit_code == EXIT_CONTRACT


def test_allow_list_is_checked_before_the_schema_and_schema_before_types() -> None:
    with pytest.raises(InvalidManifest, match="unknown key"):
        _parse("schema: other\nbogus: 1\n")
    with pytest.raises(InvalidManifest, match="layer schema 'other' is not supported"):
        _parse("schema: other\n")


def test_read_manifest_names_the_file(tmp_path: Path) -> None:
    (tmp_path / ".ai").mkdir()
    path = tmp_path / ".ai" / "manifest.yaml"
    path.write_text("schema: x\n")
    with pytest.raises(InvalidManifest, match="is not supported") as caught:
        read_manifest(tmp_path)
    assert caught.value.message.startswith(f"{path}: ")
    path.write_bytes(b"schema: \xff\n")
    with pytest.raises(InvalidManifest, match="not valid UTF-8"):
        read_manifest(tmp_path)
    path.unlink()
    with pytest.raises(LayerIOError) as io:
        read_manifest(tmp_path)
    assert io.value.exit_code == EXIT_REFUSED
