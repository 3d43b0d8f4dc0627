"""Allow-list spellings admit exactly what the compiled patterns admit, without compiling."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.layer.allow import available, load_allow_list, parse_allow_list
from majordomus.layer.allow_literals import spelled_path, spellings

NAMES = sorted(available())


def _words(name: str) -> list[str]:
    return sorted(
        set(re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", "".join(load_allow_list(name).patterns)))
    )


@st.composite
def paths(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(NAMES))
    segment = st.sampled_from([*_words(name), "0", "7", "12", "x", "", "٣", "#", "a.b"])
    return name, ".".join(draw(st.lists(segment, min_size=1, max_size=4)))


@settings(max_examples=3000)
@given(paths())
def test_a_spelled_path_is_one_the_patterns_match(case: tuple[str, str]) -> None:
    name, path = case
    allow = load_allow_list(name)
    if spelled_path(path) in allow.literals:
        assert allow.matcher.search(path) is not None


@settings(max_examples=3000)
@given(paths())
def test_verdicts_equal_the_compiled_patterns(case: tuple[str, str]) -> None:
    name, path = case
    allow = parse_allow_list(name, "\n".join(load_allow_list(name).patterns))
    assert allow.unknown([path]) == ([] if allow.matcher.search(path) else [path])


@pytest.mark.parametrize(
    ("pattern", "spelled"),
    [
        ("^(id|title)$", {"id", "title"}),
        (r"^tags(\.[0-9]+)?$", {"tags", "tags.#"}),
        (r"^arguments\.[0-9]+\.(name|required)$", {"arguments.#.name", "arguments.#.required"}),
        ("^version$", {"version"}),
        (r"^out\.[A-Za-z_][A-Za-z0-9_-]*\.max_bytes$", set()),
        ("^a|b$", set()),
        ("^ab?$", set()),
        ("^(a|b)?$", set()),
        ("^a.b$", set()),
        (r"^a\$", set()),
        ("id", set()),
        ("^(?i)id$", set()),
    ],
)
def test_spellings(pattern: str, spelled: set[str]) -> None:
    assert spellings(pattern) == spelled


def test_spelled_path() -> None:
    assert spelled_path("tags.12.name") == "tags.#.name"
    assert spelled_path("id") == "id"
    assert spelled_path("a.٣") == "a.٣"  # a digit, but not one `[0-9]` matches
    assert spelled_path("a.#") is None


def test_admitted_keys_compile_nothing() -> None:
    rule = parse_allow_list("rule", "\n".join(load_allow_list("rule").patterns))
    rule._compiled.clear()
    mapping = {
        "id": "x",
        "version": 1,
        "tags": ["a", "b"],
        "depends_on": [],
        "x-majordomus": {"claims": ["c"]},
    }
    assert rule.unknown_in(mapping) == []
    assert not rule._compiled
    assert rule.unknown_in({"id": "x", "nope": 1}) == ["nope"]
    assert rule._compiled
