"""A field marked OMIT leaves no key in the JSON when it is None or empty."""

from __future__ import annotations

import json
from typing import Annotated

from pydantic import Field

from majordomus.wire import OMIT, Wire


def test_omitted_fields_leave_no_key_and_present_ones_stay() -> None:
    class Sample(Wire):
        kept: str
        maybe: Annotated[str | None, OMIT] = None
        items: Annotated[list[str], OMIT] = Field(default_factory=list)
        pairs: Annotated[tuple[int, ...], OMIT] = ()
        table: Annotated[dict[str, int], OMIT] = Field(default_factory=dict)
        blank: Annotated[str | None, OMIT] = None

    assert Sample(kept="k").wire() == {"kept": "k"}
    full = Sample(kept="k", maybe="m", items=["i"], pairs=(1,), table={"a": 1}, blank="")
    assert full.wire() == {
        "kept": "k",
        "maybe": "m",
        "items": ["i"],
        "pairs": [1],
        "table": {"a": 1},
        "blank": "",
    }
    assert json.loads(full.model_dump_json()) == full.wire()
