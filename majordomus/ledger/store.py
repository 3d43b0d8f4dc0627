"""The store: the one writer and reader of `.ai/local/state/reasoning/`.

One JSON file per record at `<task>/<id>.json`, never edited and never overwritten: a
record is written to a temporary file in its task directory, flushed to disk, then
published under its final name without replacing one that exists (`safefs.write_new`;
docs/RELIABILITY.md says how, with and without hard links). No directory on the way is a
symlink. Reading back skips temporary files, never follows a symlink, and lists every file
that does not parse as `unreadable` instead of failing. Persistence only: the layout, the
writer lock, the bytes of a record file; what a record holds and when it may be written is
the ledger's (`majordomus.ledger.service`).
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import ValidationError

from majordomus import safefs
from majordomus.compact import SharedFieldsSets
from majordomus.errors import Refused
from majordomus.ledger import readahead
from majordomus.ledger.loaded import Loaded, Placed
from majordomus.ledger.lock import DEFAULT_WAIT, LOCK_NAME, exclusive
from majordomus.ledger.readahead import RECORD_FILE_LIMIT, STATE_DIR, files, task_names
from majordomus.ledger.record import (
    RECORD_SCHEMA,
    RECORD_VERSION,
    ReasoningRecord,
)
from majordomus.ledger.tasks import CURRENT_FILE, UNTASKED, check_task, current_task
from majordomus.order import natural_key
from majordomus.wire import dumps_pretty

__all__ = [
    "CURRENT_FILE",
    "RECORD_FILE_LIMIT",
    "STATE_DIR",
    "UNTASKED",
    "Loaded",
    "Store",
    "record_bytes",
]

#: A record id becomes `<id>.json` and `.<id>.json.tmp`: one plain name of at most 255 bytes.
_RECORD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
MAX_ID_LENGTH = 255 - len("..json.tmp")


def check_record_id(ident: str) -> None:
    """Refuse an id that is not a plain file name (a minted id always is)."""
    if not _RECORD_ID.fullmatch(ident) or len(ident) > MAX_ID_LENGTH:
        shown = json.dumps(ident if len(ident) <= 64 else ident[:60] + "…", ensure_ascii=False)
        raise Refused(
            f"record id {shown} is not allowed: an id starts with a letter or digit, holds only "
            f"letters, digits, '.', '_' and '-', and is at most {MAX_ID_LENGTH} characters "
            "(it becomes a file name)"
        )


#: The stamp the writer mints (`clock.now_stamp()`): fixed width, digits in fixed places,
#: each digit written here as `0`.
_WRITTEN_STAMP = b"0000-00-00T00:00:00.000Z"
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"0" * 9)


def _all_written(stamps: list[str]) -> bool:
    """Whether every stamp has the writer's shape: each as long as it, and all of them
    together, digits written as `0`, that shape repeated (one pass in C over the stamps, not
    a match per stamp)."""
    if not stamps:
        return True
    if set(map(len, stamps)) != {len(_WRITTEN_STAMP)}:
        return False
    joined = "".join(stamps)
    if not joined.isascii():
        return False
    shape = joined.encode("ascii").translate(_DIGITS_AS_ZERO)
    return shape == _WRITTEN_STAMP * len(stamps)


def canonical_order(records: list[ReasoningRecord]) -> list[ReasoningRecord]:
    """Sorted by `recorded_at`, then id, both in natural order."""
    return [p.record for p in _canonical([Placed("", r) for r in records], by_path=False)]


def _canonical(
    found: list[Placed], *, by_path: bool = True, stamps: list[str] | None = None
) -> list[Placed]:
    """Files by `recorded_at`, then id, both in natural order, then (`by_path`) by path.
    `stamps` are the files' `recorded_at` in order, when the caller collected them already.

    When every stamp has the writer's fixed shape, natural order and code-point order agree
    on them (equal-length digit runs in the same places), so the stamps sort as plain
    strings and only files sharing a stamp are ordered by natural keys (of their ids, then
    paths). Any other stamp (a hand-edited store) sorts the whole list by natural keys.
    """

    def tie(p: Placed) -> tuple[tuple[str, str], ...]:
        ident = natural_key(p.record.id)
        return (ident, natural_key(p.path)) if by_path else (ident,)

    if stamps is None:
        stamps = [p.record.recorded_at for p in found]
    if not _all_written(stamps):
        return sorted(found, key=lambda p: (natural_key(p.record.recorded_at), *tie(p)))
    # positions sorted by stamp (stable, as sorting the files themselves would be)
    order = sorted(range(len(found)), key=stamps.__getitem__)
    ordered = [found[i] for i in order]
    if len(set(stamps)) == len(stamps):
        return ordered
    stamps = [stamps[i] for i in order]
    start = 0
    while start < len(ordered):
        end = start + 1
        while end < len(ordered) and stamps[end] == stamps[start]:
            end += 1
        if end - start > 1:
            ordered[start:end] = sorted(ordered[start:end], key=tie)
        start = end
    return ordered


def _assemble(found: list[Placed], stamps: list[str], ids: int, unreadable: list[str]) -> Loaded:
    """Files in canonical order (ties by path), and each id's first record alone in `records`;
    `stamps` are the files' `recorded_at` in order, `ids` how many ids they hold."""
    placed = _canonical(found, stamps=stamps)
    records = [entry.record for entry in placed]
    if ids < len(records):
        records = _first_of_each_id(records)
    return Loaded(records=records, unreadable=unreadable, placed=placed)


def _first_of_each_id(records: list[ReasoningRecord]) -> list[ReasoningRecord]:
    """The records in order, each id's first alone (a store holding one id twice)."""
    kept: list[ReasoningRecord] = []
    seen: set[str] = set()
    for record in records:
        if record.id not in seen:
            seen.add(record.id)
            kept.append(record)
    return kept


def _parsed(
    data: bytes | None, validate: Callable[[bytes], ReasoningRecord]
) -> ReasoningRecord | None:
    """The record these bytes hold, or None when they hold none of this schema and version."""
    if data is None:
        return None
    try:
        record = validate(data)
    except ValidationError:
        return None
    if record.schema_ != RECORD_SCHEMA or record.version != RECORD_VERSION:
        return None
    return record


def record_bytes(record: ReasoningRecord) -> bytes:
    """The exact bytes of a record file: 2-space JSON and a final newline."""
    return (dumps_pretty(record.wire()) + "\n").encode("utf-8")


class Store:
    """The record store of one checkout, rooted at the repository root."""

    def __init__(self, root: Path, *, lock_wait: float = DEFAULT_WAIT) -> None:
        self.root = Path(root)
        self.directory = self.root / STATE_DIR
        self.lock_wait = lock_wait
        self._mutex = threading.RLock()
        self._depth = 0

    @contextmanager
    def held(self) -> Iterator[None]:
        """The store's writer lock, taken once however deeply a writer nests; the store's
        directory is created for it when missing."""
        with self._mutex:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            try:
                fd = safefs.ensure_dir(self.root, STATE_DIR)
            except safefs.Unsafe as exc:
                raise Refused(f"the record could not be written: {exc.message}") from None
            try:
                with exclusive(fd, f"{STATE_DIR}/{LOCK_NAME}", self.lock_wait):
                    self._depth = 1
                    try:
                        yield
                    finally:
                        self._depth = 0
            finally:
                os.close(fd)

    @contextmanager
    def locked(self) -> Iterator[Loaded]:
        """Hold the writer lock and yield the store as loaded under it.

        Admit against what this yields and write inside the block: no other writer
        can add a record between the read and the write, so what admission checked still
        holds when the record lands. Readers never wait for it. A store that does not exist
        yet is empty and is not created here: against an empty store only records citing
        nothing can be admitted, and those conflict with no other writer's.
        """
        if not safefs.is_directory(self.root, STATE_DIR):
            yield Loaded()
            return
        with self.held():
            # read here, never taken from a read-ahead: admission needs the store as it is
            # under the lock
            yield self._load()

    def current_task(self) -> str:
        """The current task's id from `current.yaml`, or `untasked`."""
        return current_task(self.root)

    def relative(self, path: Path) -> str:
        """A store path relative to the repository root, with `/` separators."""
        return path.relative_to(self.root).as_posix()

    def _describe(self, exc: OSError) -> str:
        """One line: the file concerned (relative to the root when inside it) and the reason."""
        reason = exc.strerror or str(exc)
        if not exc.filename:
            return reason
        path = Path(exc.filename)
        shown = self.relative(path) if path.is_relative_to(self.root) else str(path)
        return f"{shown}: {reason}"

    def load(self) -> Loaded:
        """Every readable record in canonical order, and every store file that is not one.

        A read-ahead of this store (`majordomus.ledger.readahead`, started by a read-only
        command) stands in for the reading: the same walk, read a moment earlier by a child
        process, replayed through the same validation; if it fails at any point, the store
        is read here from the start."""
        walked = readahead.taken(self.root)
        if walked is not None:
            try:
                return self._load_files(walked)
            except readahead.Failed:
                pass  # what was replayed is dropped: the store read from the start
        return self._load()

    def _load(self) -> Loaded:
        with safefs.Tree(self.root) as tree:
            try:
                tasks = task_names(tree)
            except (safefs.Unsafe, OSError):
                return Loaded()
            return self._load_files(files(tree, tasks))

    def _load_files(self, walked: Iterable[tuple[str, bytes | None]]) -> Loaded:
        """The store from its walk (`readahead.files`: each record file's path and bytes, None
        for one the tree refused); a file that holds no record is listed as unreadable.

        One loop with the bound validator in hand: at 10k records each call level saved per
        file is milliseconds of a replay."""
        found: list[Placed] = []
        # what ordering and the duplicate check need, taken while each record is at hand
        stamps: list[str] = []
        ids: set[str] = set()
        unreadable: list[str] = []
        shared = SharedFieldsSets()
        adopt = shared.adopt_all
        validate = ReasoningRecord.__pydantic_validator__.validate_json
        for path, data in walked:
            record = _parsed(data, validate)
            if record is None:
                unreadable.append(path)
                continue
            body = record.body
            # with the one nested shape most records hold (half of them, at 100k); read
            # from the instance's own fields, since a missing attribute costs pydantic a
            # raise
            adopt((record, body, *body.__dict__.get("evidence", ())))
            found.append(Placed(path, record))
            stamps.append(record.recorded_at)
            ids.add(record.id)
        unreadable.sort(key=natural_key)
        return _assemble(found, stamps, len(ids), unreadable)

    def write(self, record: ReasoningRecord) -> Path:
        """Write one stamped record atomically and return its path; never overwrites.

        An existing `<id>.json` (or another writer's temporary file of the same id) raises
        `FileExistsError`; a task name or an id that is not a plain file name is refused
        first. Every directory from the root down to the task's is a real directory, created
        when missing: a symlink or a file in the way (`.ai/local` committed as a link) is
        refused naming it, and nothing is written. Any other failure is refused naming the
        file and the reason.
        """
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
            raise Refused(f"the record could not be written: {self._describe(exc)}") from exc
        return self.root / rel
