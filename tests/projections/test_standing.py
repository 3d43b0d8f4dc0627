"""Which assessment standing wins when several apply, case by case."""

from __future__ import annotations

from majordomus.projections.state import AssessmentStanding, derive

from .builders import (
    assessment,
    conclusion,
    disagreement,
    loaded,
    plan,
    rec,
    resolution,
    validation,
)


def standing(*records) -> AssessmentStanding:
    return derive(loaded(*records), None).assessments[0].standing


A = rec("assessment-1", 1, assessment())


def test_open() -> None:
    assert standing(A) is AssessmentStanding.OPEN


def test_planned() -> None:
    assert standing(A, rec("plan-2", 2, plan("assessment-1"))) is AssessmentStanding.PLANNED


def test_concluded_validated_and_failed() -> None:
    c = rec("conclusion-3", 3, conclusion("assessment-1"))
    assert standing(A, c) is AssessmentStanding.CONCLUDED
    passed = rec("validation-4", 4, validation("conclusion-3", "pass"))
    assert standing(A, c, passed) is AssessmentStanding.VALIDATED
    failed = rec("validation-5", 5, validation("conclusion-3", "fail"))
    assert standing(A, c, passed, failed) is AssessmentStanding.VALIDATION_FAILED


def test_an_unresolved_disagreement_wins_over_everything() -> None:
    records = [
        A,
        rec("plan-2", 2, plan("assessment-1")),
        rec("conclusion-3", 3, conclusion("assessment-1")),
        rec("validation-4", 4, validation("conclusion-3", "pass")),
        rec("disagreement-5", 5, disagreement("assessment-1")),
    ]
    assert standing(*records) is AssessmentStanding.DISPUTED
    records.append(rec("resolution-6", 6, resolution("disagreement-5")))
    assert standing(*records) is AssessmentStanding.VALIDATED


def test_validations_of_a_superseded_conclusion_do_not_count() -> None:
    records = [
        A,
        rec("conclusion-2", 2, conclusion("assessment-1")),
        rec("validation-3", 3, validation("conclusion-2", "fail")),
        rec("conclusion-4", 4, conclusion("assessment-1", "B", supersedes="conclusion-2")),
    ]
    state = derive(loaded(*records), None)
    assert state.assessments[0].standing is AssessmentStanding.CONCLUDED
    assert state.assessments[0].conclusion == "conclusion-4"


def test_a_conclusion_under_another_task_settles_the_assessment() -> None:
    records = [A, rec("conclusion-2", 2, conclusion("assessment-1"), task="other")]
    state = derive(loaded(*records), "t")
    assert state.assessments[0].standing is AssessmentStanding.CONCLUDED
    assert state.conclusions == []


def test_variant_names() -> None:
    assert [s.variant for s in AssessmentStanding] == [
        "Open",
        "Planned",
        "Disputed",
        "Concluded",
        "Validated",
        "ValidationFailed",
    ]
