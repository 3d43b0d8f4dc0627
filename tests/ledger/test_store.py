"""The store and its writer: layout, stamping, atomic never-overwriting writes, load."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.errors import Refused
from majordomus.layer.git import head as git_head
from majordomus.ledger import service as service_module
from majordomus.ledger.admission import Admission
from majordomus.ledger.lock import LOCK_NAME
from majordomus.ledger.record import ReasoningRecord, parse_input
from majordomus.ledger.refs import WRITER_FILE
from majordomus.ledger.service import Ledger, mint_id
from majordomus.ledger.store import STATE_DIR, Loaded, Store
from majordomus.ledger.tasks import CURRENT_FILE
from tests.layer.support import write
from tests.ledger.records import envelope

ADMISSION = Admission(mode=ModeResolution(mode=ReasoningMode.STANDARD, source="default"))


def no_head(root: Path) -> str | None:
    return None


def writer(root: Path, head: Callable[[Path], str | None] = no_head) -> Ledger:
    """The ledger over the store at `root`, admitting plans against a fixed availability."""
    return Ledger(Store(root), availability=lambda _: ADMISSION, head=head)


def assessment(subject: str = "lock scope") -> Any:
    return parse_input({"kind": "assessment", "subject": subject})


def stored(ident: str, stamp: str, task: str = "t", **extra: object) -> dict:
    body = {"kind": "attempt", "attempt": "a", "observed_failure": "f"}
    return envelope(ident, body, task=task, stamp=stamp, **extra)


def put(root: Path, relative: str, content: str | bytes) -> Path:
    return write(root / STATE_DIR, relative, content)


def files(root: Path) -> list[str]:
    base = root / STATE_DIR
    if not base.exists():
        return []
    return sorted(
        p.relative_to(base).as_posix()
        for p in base.rglob("*")
        if p.is_file() and p.name != LOCK_NAME
    )


@freeze_time("2026-10-01T09:30:00.123456Z")
def test_record_stamps_mints_and_writes_pretty_json(tmp_path):
    done = writer(tmp_path, head=lambda root: "f" * 40).record(assessment("verrou «portée»"))
    record = done.record
    assert record.recorded_at == "2026-10-01T09:30:00.123Z"
    writer_id = (tmp_path / WRITER_FILE).read_text().strip()
    assert re.fullmatch(rf"assessment-20261001T093000123Z-[0-9a-f]{{6}}-{writer_id}", record.id)
    assert (record.writer, record.lamport) == (writer_id, 1)
    assert record.task == "untasked"
    assert record.head == "f" * 40
    assert done.path == f"{STATE_DIR}/untasked/{record.id}.json"
    text = (tmp_path / done.path).read_text(encoding="utf-8")
    assert text == json.dumps(record.wire(), ensure_ascii=False, indent=2) + "\n"
    assert "«portée»" in text
    assert list(json.loads(text)) == [
        "schema",
        "version",
        "id",
        "task",
        "recorded_at",
        "lamport",
        "writer",
        "head",
        "body",
    ]


def test_record_into_the_current_task_or_a_named_one(tmp_path):
    put(tmp_path, "../current.yaml", "id: issue-4\nprofile: implementation\n")
    assert (tmp_path / CURRENT_FILE).is_file()
    ledger = writer(tmp_path)
    assert ledger.record(assessment()).record.task == "issue-4"
    named = ledger.record(assessment(), task="other")
    assert named.record.task == "other"
    assert named.path.startswith(f"{STATE_DIR}/other/")


def test_head_comes_from_git(tmp_path, git_repo):
    root = git_repo()
    record = writer(root, head=git_head).record(assessment()).record
    commit = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert record.head == commit
    outside = tmp_path / "plain"
    outside.mkdir()
    bare = writer(outside, head=git_head).record(assessment())
    assert bare.record.head is None
    assert '"head"' not in (outside / bare.path).read_text()


def test_an_existing_record_is_never_overwritten(tmp_path):
    store = Store(tmp_path)
    record = ReasoningRecord.model_validate(stored("attempt-1", "2026-10-01T00:00:00.000Z"))
    path = tmp_path / store.write(record)
    before = path.read_bytes()
    changed = record.model_copy(update={"recorded_at": "2027-01-01T00:00:00.000Z"})
    with pytest.raises(FileExistsError):
        store.write(changed)
    assert path.read_bytes() == before
    assert files(tmp_path) == ["t/attempt-1.json"], "no temporary file is left behind"


def test_a_racing_writer_of_the_same_temporary_name_is_not_clobbered(tmp_path):
    store = Store(tmp_path)
    record = ReasoningRecord.model_validate(stored("attempt-1", "2026-10-01T00:00:00.000Z"))
    other = put(tmp_path, "t/.attempt-1.json.tmp", "half written")
    with pytest.raises(FileExistsError):
        store.write(record)
    assert other.read_text() == "half written"
    assert not (tmp_path / STATE_DIR / "t" / "attempt-1.json").exists()


def test_a_taken_id_is_minted_again(tmp_path, monkeypatch):
    ids = iter(["assessment-same", "assessment-same", "assessment-fresh"])
    monkeypatch.setattr(service_module, "mint_id", lambda kind, stamp, writer: next(ids))
    ledger = writer(tmp_path)
    first = ledger.record(assessment("one"))
    second = ledger.record(assessment("two"))
    assert (first.record.id, second.record.id) == ("assessment-same", "assessment-fresh")
    assert json.loads((tmp_path / first.path).read_text())["body"]["subject"] == "one"


def test_a_write_failure_is_a_refusal_naming_the_file(tmp_path):
    put(tmp_path, "t", "a file where the task directory should be")
    with pytest.raises(Refused) as refused:
        writer(tmp_path).record(assessment(), task="t")
    message = refused.value.message
    assert message.startswith("the record could not be written: ")
    assert "not a directory" in message.lower()


@freeze_time("2026-10-01T00:00:00Z")
def test_ids_minted_in_one_instant_differ():
    ids = {mint_id("attempt", "2026-10-01T00:00:00.000Z", "0a1b2c3d") for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"attempt-20261001T000000000Z-[0-9a-f]{6}-0a1b2c3d", i) for i in ids)


def test_load_of_an_absent_store_is_empty(tmp_path):
    assert Store(tmp_path).load() == Loaded()


def test_load_orders_records_naturally_and_lists_unreadable_files(tmp_path):
    put(tmp_path, "t/b.json", json.dumps(stored("item-10", "2026-10-01T00:00:01.000Z")))
    put(tmp_path, "t/a.json", json.dumps(stored("item-2", "2026-10-01T00:00:01.000Z")))
    put(tmp_path, "u/c.json", json.dumps(stored("first", "2026-10-01T00:00:00.500Z", task="u")))
    put(tmp_path, "t/broken10.json", "{not json")
    put(tmp_path, "t/broken9.json", json.dumps({**stored("x", "s"), "schema": "other/schema"}))
    put(tmp_path, "u/version.json", json.dumps({**stored("y", "s"), "version": 2}))
    put(tmp_path, "u/body.json", json.dumps({**stored("z", "s"), "body": {"kind": "opinion"}}))
    put(tmp_path, "u/bytes.json", b"\xff\xfe not utf-8")
    put(tmp_path, "u/.item-3.json.tmp", json.dumps(stored("tmp", "2026-10-01T00:00:00.000Z")))
    put(tmp_path, "u/notes.txt", "not a record")
    put(tmp_path, "u/nested/deep.json", json.dumps(stored("deep", "2026-10-01T00:00:00.000Z")))
    put(tmp_path, "top.json", json.dumps(stored("top", "2026-10-01T00:00:00.000Z")))
    loaded = Store(tmp_path).load()
    assert [r.id for r in loaded.records] == ["first", "item-2", "item-10"]
    assert loaded.unreadable == [
        "t/broken9.json",
        "t/broken10.json",
        "u/body.json",
        "u/bytes.json",
        "u/version.json",
    ]


def test_load_does_not_compare_the_directory_with_the_task(tmp_path):
    put(tmp_path, "t/x.json", json.dumps(stored("x", "2026-10-01T00:00:00.000Z", task="other")))
    assert Store(tmp_path).load().records[0].task == "other"


def test_what_is_written_loads_back_equal(tmp_path):
    ledger = writer(tmp_path)
    first = ledger.record(assessment())
    plan = ledger.record(parse_input({"kind": "plan", "assessment": first.record.id}))
    assert ledger.store.load().records == [first.record, plan.record]


def test_load_lists_what_is_not_a_regular_record_file_as_unreadable(tmp_path, monkeypatch):
    """A FIFO, a directory, a symlink (to a valid record) and a file over the size cap under
    `.json` names are each unreadable: never waited on, followed or read past the cap."""
    import os

    from majordomus.ledger import store

    record = json.dumps(stored("real", "2026-10-01T00:00:00.000Z"))
    target = put(tmp_path, "t/real.json", record)
    folder = target.parent
    os.mkfifo(folder / "fifo.json")
    (folder / "dir.json").mkdir()
    (folder / "link.json").symlink_to(target)
    put(
        tmp_path, "t/large.json", json.dumps(stored("large", "2026-10-01T00:00:01.000Z")) + " " * 64
    )
    monkeypatch.setattr(store, "RECORD_FILE_LIMIT", len(record) + 32)
    loaded = Store(tmp_path).load()
    assert [r.id for r in loaded.records] == ["real"]
    assert loaded.unreadable == ["t/dir.json", "t/fifo.json", "t/large.json", "t/link.json"]
