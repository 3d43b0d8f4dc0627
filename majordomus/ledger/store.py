"""The store: the one writer and reader of `.ai/local/state/reasoning/<task>/<id>.json`,
never overwriting a file (`safefs.write_new`). Persistence only: what a record holds and
when it may be written is `majordomus.ledger.service`'s."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from majordomus import safefs
from majordomus.errors import Refused
from majordomus.ledger.loaded import Loaded, Placed, by_citation
from majordomus.ledger.lock import DEFAULT_WAIT, LOCK_NAME, exclusive
from majordomus.ledger.record import ReasoningRecord, parse_stored
from majordomus.ledger.refs import published
from majordomus.ledger.tasks import check_task, current_task
from majordomus.order import natural_key
from majordomus.wire import dumps_pretty

STATE_DIR = ".ai/local/state/reasoning"

#: The largest record file read back: a record is at most 1 MiB, its pretty-printed
#: envelope a few times that at most.
RECORD_FILE_LIMIT = 4 * 1024 * 1024

#: A record id becomes `<id>.json` and `.<id>.json.tmp`: one plain name of at most 255 bytes.
_RECORD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
MAX_ID_LENGTH = 255 - len("..json.tmp")


def is_record_id(ident: str) -> bool:
    """Whether `ident` is a plain file name, as every minted id is."""
    return len(ident) <= MAX_ID_LENGTH and _RECORD_ID.fullmatch(ident) is not None


def check_record_id(ident: str) -> None:
    """Refuse an id that is not a plain file name (a minted id always is)."""
    if not is_record_id(ident):
        shown = json.dumps(ident if len(ident) <= 64 else ident[:60] + "…", ensure_ascii=False)
        raise Refused(
            f"record id {shown} is not allowed: an id starts with a letter or digit, holds only "
            f"letters, digits, '.', '_' and '-', and is at most {MAX_ID_LENGTH} characters "
            "(it becomes a file name)"
        )


def _canonical(found: list[Placed]) -> list[Placed]:
    """Records without a Lamport counter first, in the order they always had (`recorded_at`,
    id, path, then writer, each in natural order), then the others by counter, writer, id and
    path: an order every clone agrees on."""

    def by_stamp(p: Placed) -> tuple[tuple[str, str], ...]:
        return tuple(map(natural_key, (p.record.recorded_at, p.record.id, p.path, p.origin)))

    def by_counter(p: Placed) -> tuple[int, str, str, str, str]:
        return p.record.lamport or 0, p.record.writer or "", p.record.id, p.path, p.origin

    legacy = [p for p in found if p.record.lamport is None]
    counted = [p for p in found if p.record.lamport is not None]
    return sorted(legacy, key=by_stamp) + sorted(counted, key=by_counter)


def record_bytes(record: ReasoningRecord) -> bytes:
    """The exact bytes of a record file: 2-space JSON and a final newline."""
    return (dumps_pretty(record.wire()) + "\n").encode("utf-8")


class Store:
    """The record store of one checkout, rooted at the repository root."""

    def __init__(self, root: Path, *, lock_wait: float = DEFAULT_WAIT) -> None:
        self.root = Path(root)
        self.lock_wait = lock_wait
        self._mutex = threading.RLock()
        self._held = False

    @contextmanager
    def held(self) -> Iterator[None]:
        """The writer lock, re-entrant; creates the store's directory when missing."""
        with self._mutex:
            if self._held:
                yield
                return
            from majordomus.layer.init import warn_if_tracked

            warn_if_tracked(self.root)
            try:
                fd = safefs.ensure_dir(self.root, STATE_DIR)
            except safefs.Unsafe as exc:
                raise Refused(f"the record could not be written: {exc.message}") from None
            try:
                with exclusive(fd, f"{STATE_DIR}/{LOCK_NAME}", self.lock_wait):
                    self._held = True
                    try:
                        yield
                    finally:
                        self._held = False
            finally:
                os.close(fd)

    @contextmanager
    def locked(self) -> Iterator[Loaded]:
        """The store loaded under the writer lock, so admission still holds at the write; a
        store that does not exist, with nothing published, is yielded without the lock
        (against no record only records citing nothing are admitted, and they conflict
        with none)."""
        if not safefs.is_directory(self.root, STATE_DIR):
            loaded = self.load()
            if not loaded.placed:
                yield loaded
                return
        with self.held():
            yield self.load()

    def current_task(self) -> str:
        """The current task's id from `current.yaml`, or `untasked`."""
        return current_task(self.root)

    def load(self, *, local: bool = True, team: bool = True) -> Loaded:
        """Every readable record of the store and of the published refs, in canonical order;
        a file both hold (same path, id, writer) is placed once, the store's first."""
        found, unreadable = self._files() if local else ([], [])
        shared = published(self.root) if team else Loaded()
        held = {(p.path, p.record.id, p.record.writer) for p in found}
        for entry in shared.placed:
            key = (entry.path, entry.record.id, entry.record.writer)
            if key not in held:
                held.add(key)
                found.append(entry)
        placed = _canonical(found)
        records: list[ReasoningRecord] = []
        seen: set[str] = set()
        for entry in placed:
            if entry.record.id not in seen:
                seen.add(entry.record.id)
                records.append(entry.record)
        return Loaded(
            records=by_citation(records),
            unreadable=sorted(unreadable + shared.unreadable, key=natural_key),
            placed=placed,
            quarantined=shared.quarantined,
        )

    def _files(self) -> tuple[list[Placed], list[str]]:
        """The store's readable record files, and the paths of those that are none; a
        directory that cannot be listed is skipped, no link followed."""
        found: list[Placed] = []
        unreadable: list[str] = []
        with safefs.Tree(self.root) as tree:
            try:
                store = tree.directory(STATE_DIR)
                tasks = [e.name for e in os.scandir(store) if e.is_dir(follow_symlinks=False)]
            except (safefs.Unsafe, OSError):
                return found, unreadable
            for task in tasks:
                try:
                    directory = tree.directory(f"{STATE_DIR}/{task}")
                    names = [e.name for e in os.scandir(directory)]
                except (safefs.Unsafe, OSError):
                    continue
                for name in names:
                    if not name.endswith(".json") or name == ".json":
                        continue
                    try:
                        data: bytes | None = tree.read_in(directory, name, RECORD_FILE_LIMIT)
                    except safefs.Unsafe:
                        data = None
                    record = parse_stored(data)
                    if record is None:
                        unreadable.append(f"{task}/{name}")
                    else:
                        found.append(Placed(f"{task}/{name}", record))
        return found, unreadable

    def write(self, record: ReasoningRecord) -> str:
        """Write one stamped record atomically and return its root-relative path; an existing
        `<id>.json` (or its temporary file) raises `FileExistsError`, anything else is refused."""
        check_task(record.task)
        check_record_id(record.id)
        rel = f"{STATE_DIR}/{record.task}/{record.id}.json"
        try:
            safefs.write_file(self.root, rel, record_bytes(record))
        except safefs.Unsafe as exc:
            raise Refused(f"the record could not be written: {exc.message}") from None
        except FileExistsError:
            raise
        except OSError as exc:
            # the writes are relative to a directory, so `filename` is a bare name
            reason = exc.strerror or str(exc)
            shown = f"{exc.filename}: {reason}" if exc.filename else reason
            raise Refused(f"the record could not be written: {shown}") from exc
        return rel
