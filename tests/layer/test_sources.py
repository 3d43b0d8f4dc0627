"""`sources.yaml`: typed read, rules, and where it is found."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.errors import EXIT_CONTRACT, EXIT_REFUSED
from majordomus.layer.manifest import parse_manifest
from majordomus.layer.root import LayerIOError
from majordomus.layer.sources import InvalidSources, parse_sources, read_sources, sources_path

CLASS = """\
  - id: {id}
    kind: {kind}
    discovery: vcs
    pathspec: '{pathspec}'
    required: {required}
"""


def _text(*classes: tuple[str, str, str, str], version: str = "1") -> str:
    body = "".join(CLASS.format(id=i, kind=k, pathspec=p, required=r) for i, k, p, r in classes)
    return f"version: {version}\nsources:\n{body}"


def _parse(text: str):
    return parse_sources(text, "S")


def test_classes_keep_declared_order_and_kinds_are_not_checked() -> None:
    classes = _parse(
        _text(
            ("rule", "rule", ":(glob).ai/repo/rules/**/*.md", "true"),
            ("widget", "widget", ":(glob)w/*.yaml", "false"),
        )
    )
    assert [(c.id, c.kind, c.discovery, c.pathspec, c.required) for c in classes] == [
        ("rule", "rule", "vcs", ":(glob).ai/repo/rules/**/*.md", True),
        ("widget", "widget", "vcs", ":(glob)w/*.yaml", False),
    ]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (_text(("a", "document", ":(glob)*.md", "true"), version='"1"'), "version"),
        (_text(("a", "document", ":(glob)*.md", "true"), version="true"), "version"),
        (_text(("a", "document", ":(glob)*.md", "yes")), "sources.0.required"),
        (_text(("a", "document", ":(glob)*.md", "true")) + "other: 1\n", "other"),
        (
            _text(("a", "document", ":(glob)*.md", "true")).replace("    kind: document\n", ""),
            "sources.0.kind",
        ),
        ("version: 1\n", "sources"),
        ("version: 1\nsources:\n  - id: &x\n", "unsupported YAML construct on line 3"),
    ],
)  # the fatal fixtures of tests/layer/test_fixtures.py hold the other violations
def test_every_violation_is_fatal_with_exit_10(text: str, fragment: str) -> None:
    with pytest.raises(InvalidSources) as caught:
        _parse(text)
    assert fragment in caught.value.message
    assert caught.value.message.startswith("S: ")
    assert caught.value.exit_code == EXIT_CONTRACT


def test_sources_are_found_through_the_knowledge_section(tmp_path: Path) -> None:
    manifest = parse_manifest(
        "schema: ai-repository/v1\nrepo:\n  path: repo\nlocal:\n  path: local\n"
        "  tracked: false\n  implicit_context: false\nsections:\n  knowledge: repo/know\n",
        "M",
    )
    path = sources_path(tmp_path, manifest)
    assert path == tmp_path / ".ai" / "repo" / "know" / "sources.yaml"
    with pytest.raises(LayerIOError) as caught:
        read_sources(tmp_path, manifest)
    assert caught.value.exit_code == EXIT_REFUSED
    path.parent.mkdir(parents=True)
    path.write_text(_text(("doc", "document", ":(glob)docs/*.md", "false")))
    assert [c.id for c in read_sources(tmp_path, manifest)] == ["doc"]
