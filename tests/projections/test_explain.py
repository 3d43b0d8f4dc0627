"""`explain(loaded, id)` and its chain."""

from __future__ import annotations

from majordomus.projections.state import explain

from .builders import (
    assessment,
    attempt,
    conclusion,
    consultation,
    disagreement,
    loaded,
    plan,
    rec,
    resolution,
    validation,
)

RECORDS = [
    rec("assessment-1", 1, assessment()),
    rec("assessment-2", 2, assessment("other")),
    rec("plan-3", 3, plan("assessment-1")),
    rec("consultation-4", 4, consultation("plan-3"), task="elsewhere"),
    rec("disagreement-5", 5, disagreement("assessment-1")),
    rec("resolution-6", 6, resolution("disagreement-5")),
    rec("conclusion-7", 7, conclusion("assessment-1")),
    rec("validation-8", 8, validation("conclusion-7")),
    rec("attempt-9", 9, attempt("assessment-1")),
    rec("attempt-10", 10, attempt()),
    rec("plan-11", 11, plan("assessment-2")),
]

CHAIN = [
    "assessment-1",
    "plan-3",
    "consultation-4",
    "disagreement-5",
    "resolution-6",
    "conclusion-7",
    "validation-8",
    "attempt-9",
]


def test_every_record_of_an_assessment_explains_to_the_same_chain() -> None:
    for record_id in CHAIN:
        e = explain(loaded(*RECORDS), record_id)
        assert e is not None
        assert e.record.id == record_id
        assert e.assessment == "assessment-1"
        assert [s.id for s in e.chain] == CHAIN


def test_a_record_of_no_assessment_is_its_own_chain() -> None:
    e = explain(loaded(*RECORDS), "attempt-10")
    assert e is not None
    assert "assessment" not in e.wire()
    assert [s.id for s in e.chain] == ["attempt-10"]


def test_a_consultation_of_an_absent_plan_belongs_to_no_assessment() -> None:
    e = explain(loaded(rec("consultation-1", 1, consultation("plan-0"))), "consultation-1")
    assert e is not None and e.assessment is None and len(e.chain) == 1


def test_unknown_id() -> None:
    assert explain(loaded(*RECORDS), "nothing-here") is None


def test_a_circle_of_references_belongs_to_no_assessment() -> None:
    records = [
        rec("validation-1", 1, validation("validation-2")),
        rec("validation-2", 2, validation("validation-1")),
    ]
    e = explain(loaded(*records), "validation-1")
    assert e is not None and e.assessment is None
    assert [s.id for s in e.chain] == ["validation-1"]
