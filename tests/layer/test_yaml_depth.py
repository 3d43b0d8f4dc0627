"""The YAML depth limit: refused while the lines are read, before anything recursive sees
the mapping, as one `too_deep` diagnostic for the file (docs/RELIABILITY.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.layer.kinds import load_kinds
from majordomus.layer.model import SourceClass
from majordomus.layer.reader import LayerReader, read_entry
from majordomus.layer.yaml import YamlError, YamlTooDeep, key_paths, parse
from majordomus.limits import MAX_YAML_DEPTH
from tests.layer.support import manifest

MANIFEST = manifest(rules="repo/rules", knowledge="repo/knowledge")


def blocks(levels: int) -> str:
    lines = ["  " * i + f"k{i}:" for i in range(levels)]
    return "\n".join([*lines, "  " * levels + "leaf: x"]) + "\n"


def items(levels: int) -> str:
    """A list item holding a mapping whose key opens the next list, `levels` times."""
    lines = ["top:"] + ["  " * i + f"- k{i}:" for i in range(levels)]
    return "\n".join([*lines, "  " * levels + "- leaf"]) + "\n"


def depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


def test_blocks_nested_to_the_limit_are_read() -> None:
    mapping = parse(blocks(MAX_YAML_DEPTH))
    assert depth(mapping) == MAX_YAML_DEPTH + 1
    assert key_paths(mapping) == [".".join(f"k{i}" for i in range(MAX_YAML_DEPTH)) + ".leaf"]


@pytest.mark.parametrize("levels", [MAX_YAML_DEPTH + 1, 1_100])
def test_blocks_nested_past_the_limit_are_refused(levels: int) -> None:
    with pytest.raises(YamlTooDeep) as refused:
        parse(blocks(levels))
    assert refused.value.code == "too_deep"
    assert isinstance(refused.value, YamlError)
    line = MAX_YAML_DEPTH + 1
    assert refused.value.message == f"nested more than {MAX_YAML_DEPTH} levels deep on line {line}"


def test_list_items_count_towards_the_depth() -> None:
    within = (MAX_YAML_DEPTH - 1) // 2
    assert depth(parse(items(within))) <= MAX_YAML_DEPTH + 2
    with pytest.raises(YamlTooDeep):
        parse(items(MAX_YAML_DEPTH))


@pytest.fixture
def ctx(tmp_path: Path) -> LayerReader:
    return LayerReader(root=tmp_path, manifest=MANIFEST, kinds=load_kinds())


@pytest.mark.parametrize(
    ("rel", "kind", "text"),
    [
        ("deep.yaml", "profile", "name: deep\n" + blocks(1_100)),
        ("deep.md", "rule", "---\nid: deep\n" + blocks(MAX_YAML_DEPTH + 1) + "---\nBody.\n"),
    ],
    ids=["yaml", "front-matter"],
)
def test_a_file_nested_too_deep_is_one_too_deep_diagnostic(
    ctx: LayerReader, rel: str, kind: str, text: str
) -> None:
    (ctx.root / rel).write_text(text, encoding="utf-8")
    source = SourceClass(id=kind, kind=kind, discovery="vcs", pathspec="", required=False)
    read = read_entry(rel, source, ctx)
    objects, diagnostics = read.objects, read.findings
    assert objects == []
    [diagnostic] = diagnostics
    assert (diagnostic.severity, diagnostic.code, diagnostic.path) == ("error", "too_deep", rel)
    assert diagnostic.message.startswith(f"nested more than {MAX_YAML_DEPTH} levels deep")
