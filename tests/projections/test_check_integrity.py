"""`reasoning check` sees what admission forbids when a hand (or an older writer) placed it:
one id in two files, a file named after another id, a record in another task's directory,
two standing conclusions, two answers of one advisor on one plan, a supersedes across
assessments, a second resolution. Each is one finding naming the files; status counts a
duplicated id once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from majordomus.ledger.store import Store
from majordomus.projections.check import run
from majordomus.projections.moment import parse_moment, recorded_by
from majordomus.projections.state import derive

from .builders import assessment, conclusion, consultation, disagreement, plan, resolution
from .store_files import put
from .test_check import CATALOGUE, REFS


def record_findings(root: Path) -> list[tuple[str, str]]:
    found = run(root, CATALOGUE, REFS, Store(root).load(), source=".ai/repo/advisors.yaml")
    return [(f.subject, f.message) for f in found if f.check == "records"]


def place(root: Path, relative: str, record_id: str, task: str, body: dict[str, Any]) -> None:
    put(root, record_id, "2026-10-01T00:00:09Z", body, task, file=relative)


def test_files_that_break_the_layout_are_findings_naming_them(tmp_path: Path) -> None:
    put(tmp_path, "assessment-1", "2026-10-01T00:00:01Z", assessment("one"))
    place(tmp_path, "u/assessment-1.json", "assessment-1", "u", assessment("copy"))
    place(tmp_path, "t/renamed.json", "assessment-2", "t", assessment("two"))
    place(tmp_path, "t/assessment-3.json", "assessment-3", "elsewhere", assessment("three"))
    assert record_findings(tmp_path) == [
        (
            "t/assessment-1.json",
            "id assessment-1 is held by 2 files (t/assessment-1.json, u/assessment-1.json); "
            "an id names one record, and only t/assessment-1.json is replayed",
        ),
        ("t/renamed.json", "holds record assessment-2, whose file is named assessment-2.json"),
        (
            "t/assessment-3.json",
            "holds a record of task elsewhere in the directory of task t",
        ),
    ]
    state = derive(Store(tmp_path).load(), None)
    assert state.totals.records == 3
    assert [a.subject for a in state.assessments] == ["one", "two", "three"]


def test_what_admission_refuses_is_found_when_placed_by_hand(tmp_path: Path) -> None:
    at = "2026-10-01T00:00:{:02d}Z".format
    put(tmp_path, "assessment-1", at(1), assessment("one"))
    put(tmp_path, "assessment-2", at(2), assessment("two"))
    put(tmp_path, "plan-3", at(3), plan("assessment-1"))
    put(tmp_path, "consultation-4", at(4), consultation("plan-3", "alpha"))
    put(tmp_path, "consultation-5", at(5), consultation("plan-3", "alpha"))
    put(tmp_path, "disagreement-6", at(6), disagreement("assessment-1"))
    put(tmp_path, "resolution-7", at(7), resolution("disagreement-6"))
    put(tmp_path, "resolution-8", at(8), resolution("disagreement-6", favours="neither"))
    put(tmp_path, "conclusion-9", at(9), conclusion("assessment-1"))
    put(tmp_path, "conclusion-10", at(10), conclusion("assessment-1"))
    other = {**conclusion("assessment-2"), "supersedes": "conclusion-9"}
    put(tmp_path, "conclusion-11", at(11), other)
    put(tmp_path, "conclusion-12", at(12), conclusion("assessment-1"))
    assert record_findings(tmp_path) == [
        (
            "t/conclusion-11.json",
            "conclusion-11 concludes assessment assessment-2 and supersedes conclusion-9 "
            "(t/conclusion-9.json), a conclusion of assessment assessment-1",
        ),
        (
            "t/conclusion-12.json",
            "2 conclusions stand on assessment assessment-1: conclusion-10 "
            "(t/conclusion-10.json), conclusion-12 (t/conclusion-12.json); a later conclusion "
            "names the earlier in `supersedes`",
        ),
        (
            "t/consultation-5.json",
            "advisor 'alpha' answered plan plan-3 2 times: consultation-4 "
            "(t/consultation-4.json), consultation-5 (t/consultation-5.json); one plan, one "
            "answer per advisor",
        ),
        (
            "t/resolution-8.json",
            "disagreement disagreement-6 is resolved 2 times: resolution-7 "
            "(t/resolution-7.json), resolution-8 (t/resolution-8.json); the first settles it",
        ),
    ]


def test_a_store_the_writer_wrote_has_no_record_finding(tmp_path: Path) -> None:
    put(tmp_path, "assessment-1", "2026-10-01T00:00:01Z", assessment("one"))
    put(tmp_path, "conclusion-2", "2026-10-01T00:00:02Z", conclusion("assessment-1"))
    superseding = {**conclusion("assessment-1"), "supersedes": "conclusion-2"}
    put(tmp_path, "conclusion-3", "2026-10-01T00:00:03Z", superseding)
    assert record_findings(tmp_path) == []


def test_as_of_narrows_the_files_with_the_records(tmp_path: Path) -> None:
    put(tmp_path, "assessment-1", "2026-10-01T00:00:01Z", assessment("one"))
    place(tmp_path, "u/assessment-1.json", "assessment-1", "u", assessment("copy"))
    loaded = Store(tmp_path).load()
    before = recorded_by(loaded, parse_moment("2026-10-01T00:00:05Z"))  # type: ignore[arg-type]
    assert [p.path for p in before.placed] == ["t/assessment-1.json"]
    later = recorded_by(loaded, parse_moment("2026-10-01T00:00:09Z"))  # type: ignore[arg-type]
    assert [p.path for p in later.placed] == ["t/assessment-1.json", "u/assessment-1.json"]
    assert [r.id for r in later.records] == ["assessment-1"]


def test_a_clock_stepped_back_is_a_finding_and_replay_follows_the_citations(
    tmp_path: Path,
) -> None:
    """The clock stepped back between an assessment and its conclusion: `check` says so, and
    the replay puts the conclusion (and what waits on it) after its assessment."""
    put(tmp_path, "assessment-1", "2026-10-01T10:00:00Z", assessment("one"))
    put(tmp_path, "conclusion-2", "2026-10-01T09:00:00Z", conclusion("assessment-1"))
    put(tmp_path, "assessment-3", "2026-10-01T09:30:00Z", assessment("two"))
    superseding = {**conclusion("assessment-1"), "supersedes": "conclusion-2"}
    put(tmp_path, "conclusion-4", "2026-10-01T09:10:00Z", superseding)
    assert record_findings(tmp_path) == [
        (
            record_id,
            f"was recorded at {at}, before assessment-1 (2026-10-01T10:00:00Z), which it "
            "cites: the clock ran backwards; replay puts it after what it cites",
        )
        for record_id, at in (
            ("conclusion-2", "2026-10-01T09:00:00Z"),
            ("conclusion-4", "2026-10-01T09:10:00Z"),
        )
    ]
    loaded = Store(tmp_path).load()
    order = ["assessment-3", "assessment-1", "conclusion-2", "conclusion-4"]
    assert [r.id for r in loaded.records] == order
    assert [s.id for s in derive(loaded, "t").timeline] == order
