"""`derive` over a real store: order, determinism, task scope (unreadable files are
tests/ledger/test_store.py's and tests/reliability/test_corruption.py's)."""

from __future__ import annotations

from pathlib import Path

from majordomus.ledger.store import Store
from majordomus.projections.state import ALL_TASKS, derive
from majordomus.wire import dumps_pretty

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


def store_with(root: Path, *records) -> Store:
    store = Store(root)
    for record in records:
        store.write(record)
    return store


def test_records_written_out_of_order_replay_in_recorded_at_order_after_what_they_cite(
    tmp_path: Path,
) -> None:
    store = store_with(
        tmp_path,
        rec("conclusion-3", 3, conclusion("assessment-1")),
        rec("assessment-1", 1, assessment()),
        rec("validation-4", 4, validation("conclusion-3", "fail")),
        rec("validation-2", 2, validation("conclusion-3", "pass")),
    )
    state = derive(store.load(), None)
    # validation-2 is stamped before the conclusion it tests: it follows it
    assert [s.id for s in state.timeline] == [
        "assessment-1",
        "conclusion-3",
        "validation-2",
        "validation-4",
    ]
    assert state.assessments[0].standing.value == "validation_failed"


def test_replaying_the_same_store_twice_gives_byte_identical_json(tmp_path: Path) -> None:
    store = store_with(
        tmp_path,
        rec("assessment-1", 1, assessment("lock scope", questions=["q?"])),
        rec("plan-2", 2, plan("assessment-1", selected=("alpha", "beta"))),
        rec("consultation-3", 3, consultation("plan-2", "alpha", usage={"input_tokens": 3})),
        rec("consultation-4", 4, consultation("plan-2", "beta", "timeout", diagnostic="slow")),
        rec("disagreement-5", 5, disagreement("assessment-1")),
        rec("resolution-6", 6, resolution("disagreement-5")),
        rec("conclusion-7", 7, conclusion("assessment-1", risks=["r"])),
        rec("validation-8", 8, validation("conclusion-7")),
        rec("attempt-9", 9, attempt("assessment-1"), task="other"),
    )
    first = dumps_pretty(derive(store.load(), None).wire())
    second = dumps_pretty(derive(store.load(), None).wire())
    assert first == second
    assert dumps_pretty(derive(store.load(), "other").wire()) == dumps_pretty(
        derive(store.load(), "other").wire()
    )


def test_an_empty_store_is_an_empty_state() -> None:
    state = derive(loaded(), None)
    assert state.task == ALL_TASKS
    assert state.wire() == {
        "task": "all",
        "assessments": [],
        "consultations": [],
        "disagreements": [],
        "conclusions": [],
        "timeline": [],
        "totals": {
            "records": 0,
            "consultations_completed": 0,
            "consultations_failed": 0,
            "independent_reviewers": 0,
            "input_tokens": 0,
            "output_tokens": 0,
        },
    }


def test_lists_keep_record_order_and_the_task_filters_them() -> None:
    records = [
        rec("assessment-2", 1, assessment("b"), task="t2"),
        rec("assessment-1", 2, assessment("a"), task="t1"),
        rec("assessment-3", 3, assessment("c"), task="t1"),
    ]
    assert [a.id for a in derive(loaded(*records), None).assessments] == [
        "assessment-2",
        "assessment-1",
        "assessment-3",
    ]
    one = derive(loaded(*records), "t1")
    assert [a.id for a in one.assessments] == ["assessment-1", "assessment-3"]
    assert [s.id for s in one.timeline] == ["assessment-1", "assessment-3"]
    assert derive(loaded(*records), "nobody").totals.records == 0
