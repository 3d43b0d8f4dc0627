from __future__ import annotations

from majordomus.projections.state import derive

from .builders import assessment, consultation, loaded, rec


def test_failed_statuses_count_as_failed_and_usage_only_as_reported() -> None:
    records = [
        rec("assessment-1", 1, assessment()),
        rec("c-2", 2, consultation("p", "alpha", usage={"input_tokens": 7})),
        rec("c-3", 3, consultation("p", "beta", "rate_limited")),
        rec("c-4", 4, consultation("p", "gamma", "cancelled", usage={"output_tokens": 5})),
        rec("c-5", 5, consultation("q", "beta")),
    ]
    totals = derive(loaded(*records), None).totals
    assert totals.wire() == {
        "records": 5,
        "consultations_completed": 2,
        "consultations_failed": 2,
        "independent_reviewers": 2,
        "input_tokens": 7,
        "output_tokens": 5,
    }


def test_totals_count_only_the_reported_task() -> None:
    records = [
        rec("c-1", 1, consultation("p", "alpha")),
        rec("c-2", 2, consultation("p", "beta"), task="other"),
    ]
    totals = derive(loaded(*records), "t").totals
    assert (totals.records, totals.independent_reviewers) == (1, 1)
