"""The canonical order of record files (majordomus/ledger/store.py): by `recorded_at`, then
id, then path, each in natural order, whether or not stamps are shared or hand-written."""

from __future__ import annotations

import random

import pytest

from majordomus.ledger.loaded import Placed
from majordomus.ledger.record import ReasoningRecord
from majordomus.ledger.store import _canonical
from majordomus.order import natural_key
from tests.ledger.records import stored_record


def record(ident: str, stamp: str) -> ReasoningRecord:
    return stored_record(ident, {"kind": "assessment", "subject": "s"}, stamp=stamp)


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
def test_files_sort_by_stamp_then_id_then_path(seed: int) -> None:
    rng = random.Random(seed)
    stamps = [f"2026-10-01T00:00:{s:02}.{ms:03}Z" for s in range(3) for ms in (0, 5, 10)]
    stamps.append("2026-10-01T00:00:01Z")
    found = []
    for n in range(60):
        ident = f"a-{rng.randrange(12)}"
        stamp = rng.choice(stamps)
        folder = rng.choice(["t", "other", "t2"])
        found.append(Placed(f"{folder}/{ident}-{n % 3}.json", record(ident, stamp)))
    rng.shuffle(found)
    assert _canonical(list(found)) == reference(found)
