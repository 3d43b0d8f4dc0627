"""Properties of the YAML subset: agreement with PyYAML on the well-behaved core (that any
text raises only `YamlError` is tests/reliability/test_yaml_fuzz.py's)."""

from __future__ import annotations

import json
import string
from typing import Any

import yaml as pyyaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majordomus.layer.yaml import parse

PROPERTY = settings(
    derandomize=True,
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# A plain scalar PyYAML also reads as a string: it starts with a letter that no implicit
# resolver (bool y/n/t/f/o, null n, float/int/date digits) begins with.
_SAFE_LEAD = "abcdeghijklmpqrsuvwxzABCDEGHIJKLMPQRSUVWXZ"
_WORD = string.ascii_letters + string.digits + "_-./"
_BLOCK_EXTRA = "#:!%@`'\"()<>=&*|?+"

keys = st.builds(
    lambda lead, rest: lead + rest,
    st.sampled_from(_SAFE_LEAD + "_"),
    st.text(string.ascii_letters + string.digits + "_-", max_size=8),
)


def _plain(alphabet: str) -> st.SearchStrategy[str]:
    """Words of `alphabet` joined by single spaces, with a safe first letter."""
    word = st.text(alphabet, min_size=1, max_size=8)
    return st.builds(
        lambda lead, words: lead + " ".join(words),
        st.sampled_from(_SAFE_LEAD),
        st.lists(word, max_size=3),
    ).filter(lambda s: ": " not in s and " #" not in s and not s.endswith(":"))


_QUOTABLE = st.characters(
    blacklist_categories=("Cs", "Cc", "Cf", "Co", "Cn", "Zl", "Zp"),
    blacklist_characters="\"'\\\ufeff",
)
_quoted_body = st.text(_QUOTABLE, max_size=12)
block_strings = st.one_of(
    _plain(_WORD + _BLOCK_EXTRA),
    _quoted_body.map(lambda s: ("double", s)),
    _quoted_body.map(lambda s: ("single", s)),
)
inline_strings = st.one_of(
    _plain(_WORD),
    _quoted_body.filter(lambda s: "," not in s).map(lambda s: ("double", s)),
    _quoted_body.filter(lambda s: "," not in s).map(lambda s: ("single", s)),
)
integers = st.integers(min_value=-(2**63), max_value=2**63 - 1)
block_scalars = st.one_of(block_strings, integers, st.booleans())
inline_scalars = st.one_of(inline_strings, integers, st.booleans())


def _mapping(values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(keys, values, min_size=1, max_size=4)


documents = st.dictionaries(
    keys,
    st.recursive(
        st.one_of(block_scalars, st.lists(inline_scalars, max_size=4).map(lambda v: ("inline", v))),
        lambda inner: st.one_of(
            _mapping(inner),
            st.lists(st.one_of(block_scalars, _mapping(inner)), min_size=1, max_size=4),
        ),
        max_leaves=12,
    ),
    max_size=5,
)


def _text(value: Any) -> str:
    """A scalar written in the subset."""
    if type(value) is tuple:
        style, body = value
        return f'"{body}"' if style == "double" else f"'{body}'"
    if type(value) is bool:
        return "true" if value else "false"
    return str(value)


def _expected(value: Any) -> Any:
    """The Python value a generated node stands for."""
    if type(value) is tuple:
        return [_expected(v) for v in value[1]] if value[0] == "inline" else value[1]
    if type(value) is dict:
        return {k: _expected(v) for k, v in value.items()}
    if type(value) is list:
        return [_expected(v) for v in value]
    return value


def _render_entry(key: str, value: Any, indent: int, lead: str, draw: Any) -> list[str]:
    """`key: value` at `indent`; `lead` replaces the indentation of the first line (`- `)."""
    head = lead.rjust(indent) if lead else " " * indent
    if type(value) is tuple and value[0] == "inline":
        return [f"{head}{key}: [{', '.join(_text(v) for v in value[1])}]"]
    if type(value) is dict:
        return [f"{head}{key}:", *_render_mapping(value, indent + 2, draw)]
    if type(value) is list:
        items_indent = indent + 2 if draw(st.booleans()) else indent
        return [f"{head}{key}:", *_render_items(value, items_indent, draw)]
    return [f"{head}{key}: {_text(value)}"]


def _render_mapping(mapping: dict[str, Any], indent: int, draw: Any) -> list[str]:
    lines: list[str] = []
    for key, value in mapping.items():
        lines.extend(_render_entry(key, value, indent, "", draw))
    return lines


def _render_items(items: list[Any], indent: int, draw: Any) -> list[str]:
    lines: list[str] = []
    for item in items:
        if type(item) is dict:
            for position, (key, value) in enumerate(item.items()):
                lead = "- " if position == 0 else ""
                lines.extend(_render_entry(key, value, indent + 2, lead, draw))
        else:
            lines.append(f"{' ' * indent}- {_text(item)}")
    return lines


def _typed_json(value: Any) -> str:
    """JSON keeps `True` and `1` apart, and key order, where `==` would not."""
    return json.dumps(value, ensure_ascii=False)


@settings(PROPERTY, max_examples=150)
@given(documents, st.data())
def test_core_documents_agree_with_pyyaml(document: dict[str, Any], data: st.DataObject) -> None:
    text = "\n".join(_render_mapping(document, 0, data.draw)) + "\n"
    expected = _expected(document)
    got = parse(text)
    assert _typed_json(got) == _typed_json(expected), text
    assert _typed_json(got) == _typed_json(pyyaml.safe_load(text) or {}), text
