"""`AllowList.unknown_in(mapping)` answers what `unknown(key_paths(mapping))` answers."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.layer.allow import available, load_allow_list, parse_allow_list
from majordomus.layer.yaml import key_paths

KEYS = st.sampled_from(
    ["id", "tags", "depends_on", "x-majordomus", "validator", "applies_to", "scope", "zz", "0"]
)
LEAVES = st.sampled_from(["a", 1, True, "", [], {}])
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=8,
)
NAMES = st.sampled_from(sorted(available()))


@settings(max_examples=1500)
@given(NAMES, st.dictionaries(KEYS, VALUES, max_size=6))
def test_unknown_in_equals_unknown_of_the_key_paths(name: str, mapping: dict[str, Any]) -> None:
    shipped = load_allow_list(name)
    fresh = parse_allow_list(name, "\n".join(shipped.patterns))  # no verdict remembered
    assert shipped.unknown_in(mapping) == fresh.unknown(key_paths(mapping))
    assert fresh.unknown_in(mapping) == shipped.unknown(key_paths(mapping))


def test_a_remembered_refusal_is_still_reported() -> None:
    rule = parse_allow_list("rule", "^id$\n^tags(\\.[0-9]+)?$")
    for _ in range(2):
        assert rule.unknown_in({"id": 1, "nope": 2, "tags": ["a", "b"]}) == ["nope"]
        assert rule.unknown(["nope", "id", "tags.1"]) == ["nope"]
