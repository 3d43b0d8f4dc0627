"""`dumps_pretty` writes exactly the bytes of `json.dumps(indent=2, ensure_ascii=False)`."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.wire import dumps_pretty

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.sampled_from([1e-5, 1e-7, 0.0001, 1e16, 1e22, -0.0, 5e-324, "1e-5", "\x7f\x00\u2028"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=2000)
@given(VALUES)
def test_the_bytes_are_those_of_json(value: Any) -> None:
    assert dumps_pretty(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_a_lone_surrogate_is_written_as_json_writes_it() -> None:
    value = {"text": "\ud800"}
    assert dumps_pretty(value) == json.dumps(value, ensure_ascii=False, indent=2)
