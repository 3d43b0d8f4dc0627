"""`as_of`: RFC 3339 moments and the records recorded at or before them."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from majordomus.projections.moment import (
    AsOf,
    epoch_of,
    moment_problem,
    parse_moment,
    recorded_by,
)
from majordomus.wire import StrictInput

from .builders import attempt, loaded, rec


@pytest.mark.parametrize(
    ("text", "utc"),
    [
        ("2026-10-01T09:30:00Z", "2026-10-01T09:30:00+00:00"),
        ("2026-10-01t09:30:00z", "2026-10-01T09:30:00+00:00"),
        ("2026-10-01T11:30:00.250+02:00", "2026-10-01T09:30:00.250000+00:00"),
        ("2026-10-01T09:30:00.123456789Z", "2026-10-01T09:30:00.123456+00:00"),
        ("2026-10-01T09:30:00-01:30", "2026-10-01T11:00:00+00:00"),
        ("2026-12-31T23:59:60Z", "2027-01-01T00:00:00+00:00"),
    ],
)
def test_rfc3339_times(text: str, utc: str) -> None:
    moment = parse_moment(text)
    assert moment is not None and moment.isoformat() == utc


@pytest.mark.parametrize(
    "text",
    [
        "yesterday",
        "2026-10-01",
        "2026-10-01 09:30:00Z",
        "2026-10-01T09:30:00",
        "2026-10-01T09:30Z",
        "2026-13-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2026-10-01T24:00:00Z",
        "2026-10-01T09:30:00+25:00",
        "0000-01-01T00:00:00Z",
        "",
        "2026-10-01T09:30:00Z\n",
    ],
)
def test_not_rfc3339(text: str) -> None:
    assert parse_moment(text) is None
    assert moment_problem(text) == f"'{text}' is not an RFC 3339 time (e.g. 2026-10-01T09:30:00Z)"


class Probe(StrictInput):
    as_of: AsOf = None


def test_the_input_type_refuses_what_is_not_a_time() -> None:
    assert Probe.model_validate({"as_of": "2026-10-01T09:30:00Z"}).as_of == "2026-10-01T09:30:00Z"
    assert Probe.model_validate({}).as_of is None
    with pytest.raises(ValidationError, match="is not an RFC 3339 time"):
        Probe.model_validate({"as_of": "yesterday"})
    assert Probe.model_json_schema()["properties"]["as_of"]["format"] == "date-time"


def test_as_of_keeps_records_at_or_before_the_moment_in_the_order_given() -> None:
    records = [
        rec("r-3", 3, attempt()),
        rec("r-1", 1, attempt()),
        rec("r-2", 2, attempt()),
        rec("r-4", 4, attempt()).model_copy(update={"recorded_at": "2026-10-01T00:00:02.001Z"}),
        rec("r-5", 5, attempt()).model_copy(update={"recorded_at": "not a time"}),
    ]
    moment = parse_moment("2026-10-01T00:00:02Z")
    assert moment is not None
    kept = recorded_by(loaded(*records, unreadable=("t/x.json",)), moment)
    assert [r.id for r in kept.records] == ["r-1", "r-2"]
    assert kept.unreadable == ["t/x.json"]


def test_a_stamp_epoch_seconds_reads_counts_too() -> None:
    odd = rec("r-1", 1, attempt()).model_copy(update={"recorded_at": "2026-02-30T00:00:00Z"})
    moment = parse_moment("2026-03-02T00:00:00Z")
    assert moment is not None
    assert [r.id for r in recorded_by(loaded(odd), moment).records] == ["r-1"]


def test_epoch_of_truncates_to_the_second() -> None:
    moment = dt.datetime(1970, 1, 1, 0, 1, 0, 999999, dt.UTC)
    assert epoch_of(moment) == 60
