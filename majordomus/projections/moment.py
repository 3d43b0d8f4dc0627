"""Replaying the ledger as of an RFC 3339 moment (`--as-of`), for every surface alike. Pure."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated

from pydantic import AfterValidator, Field

from majordomus.clock import epoch_seconds
from majordomus.ledger.loaded import Loaded
from majordomus.ledger.record import ReasoningRecord

_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z"
)

EXAMPLE = "2026-10-01T09:30:00Z"

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def parse_moment(text: str) -> dt.datetime | None:
    """The UTC moment an RFC 3339 time names (`:60` is the next minute), or None."""
    match = _RFC3339.match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    fraction, offset = match.group(7), match.group(8)
    if offset in ("Z", "z"):
        zone = dt.UTC
    else:
        hours, minutes = int(offset[1:3]), int(offset[4:6])
        if hours > 23 or minutes > 59:
            return None
        sign = -1 if offset[0] == "-" else 1
        zone = dt.timezone(sign * dt.timedelta(hours=hours, minutes=minutes))
    leap = second == 60
    micro = int((fraction[1:] + "000000")[:6]) if fraction else 0
    try:
        moment = dt.datetime(year, month, day, hour, minute, 59 if leap else second, micro, zone)
        if leap:
            moment += dt.timedelta(seconds=1)
        return moment.astimezone(dt.UTC)
    except (ValueError, OverflowError):
        return None


def moment_problem(text: str) -> str:
    """Why `text`, which `parse_moment` refused, cannot be an `as_of` moment."""
    return f"'{text}' is not an RFC 3339 time (e.g. {EXAMPLE})"


def _checked(text: str | None) -> str | None:
    if text is not None and parse_moment(text) is None:
        raise ValueError(moment_problem(text))
    return text


#: The `as_of` input field shared by the reasoning capabilities.
AsOf = Annotated[
    str | None,
    AfterValidator(_checked),
    Field(
        description="Replay only the records recorded at or before this RFC 3339 time, and "
        "evaluate advisor circuits at that moment (default: now, every record).",
        json_schema_extra={"format": "date-time"},
    ),
]


def recorded_moment(stamp: str) -> dt.datetime | None:
    """When a record says it was recorded; a stamp no reader understands gives None."""
    moment = parse_moment(stamp)
    if moment is not None:
        return moment
    seconds = epoch_seconds(stamp)
    if seconds is None:
        return None
    try:
        return _EPOCH + dt.timedelta(seconds=seconds)
    except OverflowError:
        return None


def recorded_by(loaded: Loaded, moment: dt.datetime) -> Loaded:
    """The records recorded at or before `moment`, in order; one with no readable stamp is out."""

    def recorded_in_time(record: ReasoningRecord) -> bool:
        at = recorded_moment(record.recorded_at)
        return at is not None and at <= moment

    return loaded.narrowed(recorded_in_time)


def epoch_of(moment: dt.datetime) -> int:
    """The whole epoch second of a moment: the `now` circuits are evaluated at."""
    return (moment - _EPOCH) // dt.timedelta(seconds=1)
