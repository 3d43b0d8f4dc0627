"""The YAML depth limit: refused while the lines are read, before anything recursive sees
the mapping (docs/RELIABILITY.md); the file's one `too_deep` diagnostic is
tests/reliability/test_parse_limits.py's."""

from __future__ import annotations

import pytest

from majordomus.layer.yaml import YamlError, key_paths, parse
from majordomus.limits import MAX_YAML_DEPTH


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
    with pytest.raises(YamlError) as refused:
        parse(blocks(levels))
    assert refused.value.code == "too_deep"
    line = MAX_YAML_DEPTH + 1
    assert refused.value.message == f"nested more than {MAX_YAML_DEPTH} levels deep on line {line}"


def test_list_items_count_towards_the_depth() -> None:
    within = (MAX_YAML_DEPTH - 1) // 2
    assert depth(parse(items(within))) <= MAX_YAML_DEPTH + 2
    with pytest.raises(YamlError, match="levels deep"):
        parse(items(MAX_YAML_DEPTH))
