"""The store's writer lock: conflicting writers race and exactly one is admitted; a held lock
ends in "the ledger is busy" after a bounded wait; a platform without `fcntl` writes
nothing."""

from __future__ import annotations

import json
import multiprocessing
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.errors import Refused
from majordomus.ledger.admission import Admission
from majordomus.ledger.lock import LOCK_NAME, LedgerBusy
from majordomus.ledger.record import parse_input
from majordomus.ledger.service import Ledger
from majordomus.ledger.store import STATE_DIR, Store
from tests.advisors.fakes import state as advisor_state
from tests.ledger.records import EVIDENCE, conclusion_input
from tests.projections.builders import (
    assessment,
    consultation,
    disagreement,
    resolution,
)

ROUNDS = 12
WRITERS = 3


def _admission() -> Admission:
    mode = ModeResolution(mode=ReasoningMode.STANDARD, source="default")
    return Admission(mode=mode, availability=[advisor_state("reviewer", "reviewer-api")])


def _ledger(store: Store) -> Ledger:
    return Ledger(store, availability=lambda _: _admission(), head=lambda _: None)


def _record(store: Store, data: dict[str, Any]) -> str:
    return _ledger(store).record(parse_input(data), task="race").record.id


def _writer(root: str, barrier: Any, jobs: Any, results: Any, wait: float = 30) -> None:
    """One process: for each job, wait at the start line with the others, then record."""
    store = Store(Path(root), lock_wait=wait)
    while (job := jobs.get()) is not None:
        barrier.wait()
        try:
            results.put(("admitted", _record(store, job)))
        except Refused as refused:
            results.put(("refused", str(refused)))


@contextmanager
def writers(root: Path, count: int, wait: float = 30) -> Iterator[tuple[list[Any], Any]]:
    """`count` `_writer` processes at `root`, each with its own job queue, sharing one start
    line and one result queue; they stop when the block ends."""
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(count)
    jobs = [spawn.Queue() for _ in range(count)]
    results = spawn.Queue()
    workers = [
        spawn.Process(target=_writer, args=(str(root), barrier, queue, results, wait), daemon=True)
        for queue in jobs
    ]
    for worker in workers:
        worker.start()
    try:
        yield jobs, results
    finally:
        for queue in jobs:
            queue.put(None)
        for worker in workers:
            worker.join(timeout=30)


def _conflicts(store: Store, round_number: int) -> list[dict[str, Any]]:
    """The records of one round: every writer sends one of them, only one may be admitted."""
    subject = assessment(f"round {round_number}", materiality="high", evidence=EVIDENCE)
    first = _record(store, subject)
    planned = _record(store, {"kind": "plan", "assessment": first})
    answer = consultation(planned, "reviewer", conclusion="release the lock", stance="opposes")
    kind = round_number % 3
    if kind == 0:
        return [answer] * WRITERS
    answered = _record(store, answer)
    if kind == 1:
        return [
            conclusion_input(first, decision=f"decision {n}", consultations=[answered])
            for n in range(WRITERS)
        ]
    positions = [
        {"source": "primary", "position": "keep it"},
        {"source": answered, "position": "no"},
    ]
    dispute = _record(store, {**disagreement(first), "positions": positions})
    return [{**resolution(dispute), "experiment": f"experiment {n}"} for n in range(WRITERS)]


def test_conflicting_writers_in_separate_processes_admit_exactly_one(tmp_path: Path) -> None:
    store = Store(tmp_path)
    with writers(tmp_path, WRITERS) as (jobs, results):
        for round_number in range(ROUNDS):
            for queue, job in zip(jobs, _conflicts(store, round_number), strict=True):
                queue.put(job)
            outcomes = sorted(results.get(timeout=60) for _ in range(WRITERS))
            admitted = [text for verdict, text in outcomes if verdict == "admitted"]
            assert len(admitted) == 1, (round_number, outcomes)
            for verdict, text in outcomes:
                if verdict == "refused":
                    assert "already" in text, text
    loaded = store.load()
    assert loaded.unreadable == []
    assert len({r.id for r in loaded.records}) == len(loaded.records)


def test_a_held_lock_ends_in_a_one_line_busy_refusal(tmp_path: Path) -> None:
    holder = Store(tmp_path)
    waiter = Store(tmp_path, lock_wait=0)
    _record(waiter, {"kind": "assessment", "subject": "first"})
    with holder.locked(), pytest.raises(LedgerBusy) as busy:
        _record(waiter, {"kind": "assessment", "subject": "second"})
    assert str(busy.value) == (
        f"the ledger is busy: another writer holds {STATE_DIR}/{LOCK_NAME}; try again"
    )
    assert len(waiter.load().records) == 1
    _record(waiter, {"kind": "assessment", "subject": "third"})
    assert len(waiter.load().records) == 2


def test_recording_into_an_absent_store_creates_nothing_until_admitted(tmp_path: Path) -> None:
    store = Store(tmp_path, lock_wait=0)
    with pytest.raises(Refused, match="no assessment"):
        _record(store, {"kind": "plan", "assessment": "assessment-1"})
    assert not (tmp_path / ".ai").exists()


def test_a_writer_nests_its_own_lock(tmp_path: Path) -> None:
    store = Store(tmp_path, lock_wait=0)
    with store.locked(), store.locked():
        _ledger(store).record(parse_input({"kind": "assessment", "subject": "s"}))
    assert len(store.load().records) == 1


def test_a_symlinked_lock_file_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / STATE_DIR
    folder.mkdir(parents=True)
    (tmp_path / "elsewhere").write_text("", encoding="utf-8")
    (folder / LOCK_NAME).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(Refused, match="symbolic link"):
        _record(Store(tmp_path), {"kind": "assessment", "subject": "s"})


def test_without_any_file_lock_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "fcntl", None)
    with pytest.raises(Refused, match="no file lock"):
        _record(Store(tmp_path), {"kind": "assessment", "subject": "s"})
    assert Store(tmp_path).load().records == []


def test_the_wait_is_counted_in_tries_not_read_from_a_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from majordomus.ledger import lock

    naps: list[float] = []
    monkeypatch.setattr(lock.time, "sleep", naps.append)
    with Store(tmp_path).held(), pytest.raises(LedgerBusy):
        _record(Store(tmp_path, lock_wait=0.05), {"kind": "assessment", "subject": "s"})
    assert naps == [lock.POLL_INTERVAL] * 5


def test_the_cli_refuses_while_another_writer_holds_the_lock(tmp_path: Path) -> None:
    from tests.conftest import initialised_repo, run_majordomus

    root = initialised_repo(tmp_path / "repo")
    first = run_majordomus(
        ["reasoning", "record"], cwd=root, input='{"kind": "assessment", "subject": "one"}'
    )
    assert first.code == 0, first.stderr
    with Store(root).locked():
        done = run_majordomus(
            ["reasoning", "record"],
            cwd=root,
            input='{"kind": "assessment", "subject": "two"}',
            env={"MAJORDOMUS_LEDGER_LOCK_WAIT": "0"},
        )
    assert done.code == 13
    assert done.stderr == (
        f"majordomus: refused: the ledger is busy: another writer holds {STATE_DIR}/{LOCK_NAME}; "
        "try again\n"
    )


def test_record_into_all_is_refused_and_status_all_still_means_every_task(tmp_path: Path) -> None:
    from tests.conftest import initialised_repo, run_majordomus

    root = initialised_repo(tmp_path / "repo")
    refused = run_majordomus(
        ["reasoning", "record", "--task", "all"],
        cwd=root,
        input='{"kind": "assessment", "subject": "s"}',
    )
    assert refused.code == 13
    assert refused.stderr.startswith('majordomus: refused: task name "all" is reserved')
    for task in ("one", "two"):
        done = run_majordomus(
            ["reasoning", "record", "--task", task],
            cwd=root,
            input='{"kind": "assessment", "subject": "s"}',
        )
        assert done.code == 0, done.stderr
    status = run_majordomus(["reasoning", "status", "--task", "all", "--format", "json"], cwd=root)
    assert json.loads(status.stdout)["state"]["totals"]["records"] == 2
