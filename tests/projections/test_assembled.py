"""Derived values are assembled from validated values without a second validation
(majordomus/projections/derived.py): each is exactly what the validating constructor
builds from the same values, field types included."""

from __future__ import annotations

import dataclasses
import enum
from pathlib import Path
from typing import Any

import pytest

from majordomus.ledger.store import Store
from majordomus.projections.derived import Derived, assembler
from majordomus.projections.standing import AssessmentStanding
from majordomus.projections.state import derive
from majordomus.projections.timeline import ReasoningPhase, ReasoningStep
from majordomus.synthetic import synthetic_ledger


def fields_of(value: Derived) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}  # type: ignore[arg-type]


def test_every_derived_value_is_what_validation_would_build(tmp_path: Path) -> None:
    synthetic_ledger(tmp_path, 64)
    state = derive(Store(tmp_path).load(), None)
    derived: list[Derived] = [
        *state.timeline,
        *state.assessments,
        *state.consultations,
        *state.disagreements,
        *state.conclusions,
    ]
    assert {type(value).__name__ for value in derived} == {
        "ReasoningStep",
        "AssessmentView",
        "ConsultationView",
        "DisagreementView",
        "ConclusionView",
    }
    for value in derived:
        values = fields_of(value)
        validated = type(value)(**values)
        assert validated == value
        assert {k: type(v) for k, v in fields_of(validated).items()} == {
            k: type(v) for k, v in values.items()
        }
        assert validated.wire() == value.wire()


def test_a_missing_or_extra_field_is_refused() -> None:
    make = assembler(ReasoningStep)
    with pytest.raises(TypeError):
        make("2026-01-01T00:00:00.000Z", "a", "local")
    with pytest.raises(TypeError):
        make("2026-01-01T00:00:00.000Z", "a", "local", "summary", "extra")


def test_fields_are_set_in_declaration_order() -> None:
    step = assembler(ReasoningStep)("2026-01-01T00:00:00.000Z", "a", ReasoningPhase.LOCAL, "s")
    assert step == ReasoningStep(
        at="2026-01-01T00:00:00.000Z", id="a", phase=ReasoningPhase.LOCAL, summary="s"
    )


def test_a_derived_enum_reads_its_value_as_enum_does() -> None:
    enum_value = enum.Enum.__dict__["value"]
    for member in [*ReasoningPhase, *AssessmentStanding]:
        assert member.value == enum_value.__get__(member, type(member))
        assert type(member.value) is str
        assert type(member)(member.value) is member
    assert AssessmentStanding.VALIDATION_FAILED.variant == "ValidationFailed"
