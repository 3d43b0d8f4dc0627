"""The one clock: every domain reading of the current time goes through here."""

from __future__ import annotations

import datetime as _dt


def now() -> _dt.datetime:
    """The current moment, timezone-aware UTC."""
    return _dt.datetime.now(_dt.UTC)


def now_epoch() -> int:
    """The current moment as whole seconds since the epoch."""
    return int(now().timestamp())


def now_stamp() -> str:
    """RFC 3339 UTC with milliseconds, fixed width: `YYYY-MM-DDTHH:MM:SS.mmmZ`."""
    moment = now()
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


#: The last second a four-digit year can name (9999-12-31T23:59:59Z).
LAST_EPOCH_SECOND = 253402300799


def stamp_of(seconds: int) -> str:
    """RFC 3339 without fraction for epoch seconds, clamped to years 1970 through 9999."""
    moment = _dt.datetime.fromtimestamp(max(0, min(seconds, LAST_EPOCH_SECOND)), _dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date; rolls over like the original."""
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def epoch_seconds(stamp: str) -> int | None:
    """Parse the fixed-slice RFC 3339 shape of docs/ledger.md; anything else is None."""
    if len(stamp) < 20 or stamp[4] != "-" or stamp[7] != "-" or stamp[10] != "T":
        return None
    if not stamp.endswith("Z"):
        return None
    try:
        year, month, day = int(stamp[0:4]), int(stamp[5:7]), int(stamp[8:10])
        hour, minute, second = int(stamp[11:13]), int(stamp[14:16]), int(stamp[17:19])
    except ValueError:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour <= 23 and minute <= 59 and second <= 60):
        return None
    if min(year, day, hour, minute, second) < 0:
        return None
    return _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
