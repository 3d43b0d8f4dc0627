"""The canonical order of record files (majordomus/ledger/store.py): by `recorded_at`, then
id, then path, each in natural order, whether or not stamps are shared or hand-written."""

from __future__ import annotations

import random

import pytest

from majordomus.ledger.loaded import Placed
from majordomus.ledger.record import ReasoningRecord
from majordomus.ledger.store import _canonical
from majordomus.order import natural_key


def record(ident: str, stamp: str) -> ReasoningRecord:
    return ReasoningRecord.model_validate(
        {
            "schema": "majordomus/reasoning-record",
            "version": 1,
            "id": ident,
            "task": "t",
            "recorded_at": stamp,
            "body": {"kind": "assessment", "subject": "s"},
        }
    )


def reference(found: list[Placed]) -> list[Placed]:
    return sorted(
        found,
        key=lambda p: (
            natural_key(p.record.recorded_at),
            natural_key(p.record.id),
            natural_key(p.path),
        ),
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("hand_written", [False, True])
def test_files_sort_by_stamp_then_id_then_path(seed: int, hand_written: bool) -> None:
    rng = random.Random(seed)
    stamps = [f"2026-10-01T00:00:{s:02}.{ms:03}Z" for s in range(3) for ms in (0, 5, 10)]
    if hand_written:
        stamps.append("2026-10-01T00:00:01Z")
    found = []
    for n in range(60):
        ident = f"a-{rng.randrange(12)}"
        stamp = rng.choice(stamps)
        folder = rng.choice(["t", "other", "t2"])
        found.append(Placed(f"{folder}/{ident}-{n % 3}.json", record(ident, stamp)))
    rng.shuffle(found)
    assert _canonical(list(found)) == reference(found)


def test_unique_written_stamps_sort_as_plain_strings() -> None:
    found = [
        Placed(f"t/r{n}.json", record(f"r{n}", f"2026-10-01T00:{n // 60:02}:{n % 60:02}.000Z"))
        for n in range(100)
    ]
    shuffled = list(found)
    random.Random(1).shuffle(shuffled)
    assert _canonical(shuffled) == found


def test_the_writers_stamps_are_told_apart_as_a_match_per_stamp_would() -> None:
    """The one pass over every stamp that decides whether they sort as plain strings agrees
    with a match of the writer's shape per stamp, on near misses of every kind."""
    import re

    from majordomus.ledger.store import _all_written

    shape = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")
    good = ["2026-10-01T09:00:00.000Z", "1999-12-31T23:59:59.999Z"]
    near = ["2026-10-1T9:00:00Z", "2026-10-01T09:00:00.000Z\n", "2026-10-01T09:00:00.000Z0"]
    near += ["026-10-01T09:00:00.000Z", "2026-10-01 09:00:00.000Z", "x" * 24, ""]
    chooser = random.Random(5)
    for _ in range(3000):
        stamps = [chooser.choice(good * 4 + near) for _ in range(chooser.randint(0, 4))]
        if stamps and chooser.random() < 0.5:
            at = chooser.randrange(len(stamps))
            chars = list(stamps[at]) or ["x"]
            chars[chooser.randrange(len(chars))] = chooser.choice("09-:T.Zz x\u0660")
            stamps[at] = "".join(chars)
        assert _all_written(stamps) == all(shape.fullmatch(s) for s in stamps), stamps
