"""Sharing fields sets is allowed for frozen models only, and records and bodies are frozen."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from majordomus.compact import SharedFieldsSets
from majordomus.ledger.record import (
    RECORD_SCHEMA,
    RECORD_VERSION,
    AssessmentInput,
    ReasoningRecord,
)
from majordomus.wire import Wire


def _record(ident: str) -> ReasoningRecord:
    return ReasoningRecord(
        schema_=RECORD_SCHEMA,
        version=RECORD_VERSION,
        id=ident,
        task="t",
        recorded_at="2026-10-01T00:00:00.000Z",
        body=AssessmentInput(subject="lock scope"),
    )


def test_equal_sets_of_frozen_records_are_shared() -> None:
    shared = SharedFieldsSets()
    first, second = _record("a-1"), _record("a-2")
    assert first.__pydantic_fields_set__ is not second.__pydantic_fields_set__
    shared.adopt(first)
    shared.adopt(second)
    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    assert second.model_fields_set == {"schema_", "version", "id", "task", "recorded_at", "body"}


def test_a_model_that_is_not_frozen_is_refused() -> None:
    class Loose(Wire):
        name: str = ""

    with pytest.raises(TypeError, match="not frozen"):
        SharedFieldsSets().adopt(Loose(name="x"))


def test_records_and_bodies_refuse_assignment() -> None:
    record = _record("a-1")
    with pytest.raises(ValidationError):
        record.id = "a-2"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        record.body.subject = "other"  # type: ignore[union-attr, misc]


def test_adopting_many_at_once_is_adopting_each() -> None:
    """`adopt_all` (the loader's one call per record) shares as `adopt` does, and refuses a
    model that is not frozen the same way."""
    shared = SharedFieldsSets()
    first, second = _record("a-1"), _record("a-2")
    shared.adopt_all((first, first.body, second, second.body))
    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    assert first.body.__pydantic_fields_set__ is second.body.__pydantic_fields_set__

    class Loose(Wire):
        name: str = ""

    with pytest.raises(TypeError, match="not frozen"):
        shared.adopt_all((_record("a-3"), Loose(name="x")))
