"""The writer lock is what it says (docs/RELIABILITY.md, "The writer lock"): deleting,
renaming or replacing `.ai/local/state/reasoning/.lock` while a writer holds it (a cleanup
job, `git clean -X`) lets no second writer in, and a writer that locked a file which is no
longer at the lock's name tries again. 100 tries each way admit no conflicting record."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import pytest

from majordomus import safefs
from majordomus.errors import Refused
from majordomus.ledger.lock import LOCK_NAME, LedgerBusy
from majordomus.ledger.store import STATE_DIR, Store
from tests.ledger.records import conclusion_input
from tests.ledger.test_lock import _record, writers

TRIES = 100


def _swap(folder: Path, how: int) -> None:
    """Take the lock's name away: deleted, renamed away, or replaced by a new file."""
    path = folder / LOCK_NAME
    if how == 0:
        path.unlink(missing_ok=True)
    elif how == 1 and path.exists():
        path.replace(folder / "lock.old")
    elif how == 2:
        (folder / "lock.new").write_text("", encoding="utf-8")
        (folder / "lock.new").replace(path)


def test_a_lock_taken_away_from_its_holder_admits_no_second_writer(tmp_path: Path) -> None:
    holder = Store(tmp_path)
    other = Store(tmp_path, lock_wait=0)
    folder = tmp_path / STATE_DIR
    conflicting = 0
    for attempt in range(TRIES):
        assessment = _record(holder, {"kind": "assessment", "subject": f"try {attempt}"})
        with holder.locked():
            _swap(folder, attempt % 3)
            try:
                _record(other, conclusion_input(assessment, decision="the other writer's"))
                conflicting += 1
            except LedgerBusy:
                pass
            _record(holder, conclusion_input(assessment, decision="the holder's"))
        with pytest.raises(Refused, match="already concludes"):
            _record(other, conclusion_input(assessment, decision="late"))
    assert conflicting == 0
    assert (folder / LOCK_NAME).exists()  # the lock file is never deleted by a writer


def test_writers_racing_a_cleanup_job_admit_one_conclusion_per_assessment(tmp_path: Path) -> None:
    store = Store(tmp_path)
    folder = tmp_path / STATE_DIR
    stop = threading.Event()

    def cleanup() -> None:
        how = 0
        while not stop.is_set():
            with contextlib.suppress(OSError):
                _swap(folder, how % 3)
            how += 1

    conflicting = []
    with writers(tmp_path, 2, wait=60) as (jobs, results):
        try:
            _record(store, {"kind": "assessment", "subject": "the store exists"})
            cleaner = threading.Thread(target=cleanup, daemon=True)
            cleaner.start()
            for attempt in range(TRIES):
                assessment = _record(store, {"kind": "assessment", "subject": f"race {attempt}"})
                for n, queue in enumerate(jobs):
                    queue.put(conclusion_input(assessment, decision=f"writer {n}"))
                outcomes = [results.get(timeout=120) for _ in jobs]
                if sum(verdict == "admitted" for verdict, _ in outcomes) != 1:
                    conflicting.append((attempt, outcomes))
        finally:
            stop.set()
    assert conflicting == []


def test_a_lock_file_replaced_between_opening_and_locking_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path)
    _record(store, {"kind": "assessment", "subject": "the store exists"})
    folder = tmp_path / STATE_DIR
    real = safefs.open_lock_file
    opened: list[int] = []

    def replaced_after_the_first_open(dir_fd: int, name: str) -> int:
        fd = real(dir_fd, name)
        opened.append(os.fstat(fd).st_ino)
        if len(opened) == 1:
            _swap(folder, 2)
        return fd

    monkeypatch.setattr(safefs, "open_lock_file", replaced_after_the_first_open)
    with store.locked():
        held = (folder / LOCK_NAME).stat().st_ino
    assert len(opened) == 2 and opened[0] != held and opened[1] == held
