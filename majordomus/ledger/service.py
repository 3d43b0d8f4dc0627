"""The ledger as one service: `Ledger.record` is the whole write path of one record input,
for every surface; the store only persists what this decides."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from majordomus import clock
from majordomus.errors import InvalidInput, Refused
from majordomus.layer import git
from majordomus.ledger.admission import Admission, admit
from majordomus.ledger.loaded import Loaded, history
from majordomus.ledger.lock import DEFAULT_WAIT
from majordomus.ledger.record import (
    CITING,
    MAX_LAMPORT,
    RECORD_SCHEMA,
    RECORD_VERSION,
    DisagreementInput,
    PlanInput,
    ReasoningBody,
    ReasoningInput,
    ReasoningRecord,
    parse_body,
    record_size_problem,
)
from majordomus.ledger.refs import writer_id
from majordomus.ledger.store import Store
from majordomus.ledger.tasks import CURRENT_FILE, check_task
from majordomus.redaction.redactor import redact_value
from majordomus.wire import dumps_compact

#: Seconds a writer waits for another one to finish before it is refused (default 10).
LOCK_WAIT_VARIABLE = "MAJORDOMUS_LEDGER_LOCK_WAIT"

#: How many fresh ids a write tries when a racing writer already took the minted name.
_MINT_ATTEMPTS = 8

_SUFFIX_SPACE = 16**6


def lock_wait(environ: Mapping[str, str]) -> float:
    """The writer's wait from the environment: 0 to 3600 seconds, else the default."""
    try:
        wait = float(environ.get(LOCK_WAIT_VARIABLE, ""))
    except ValueError:
        return DEFAULT_WAIT
    return wait if 0 <= wait <= 3600 else DEFAULT_WAIT


class _Suffixes:
    """Consecutive suffixes from a random start drawn once per process (a forked child draws
    its own): unique within a process, rarely meeting across processes."""

    pid = -1
    start = 0
    counter = itertools.count()

    @classmethod
    def next(cls) -> int:
        if cls.pid != os.getpid():
            cls.pid = os.getpid()
            cls.start = int.from_bytes(os.urandom(3), "big")
            cls.counter = itertools.count()
        return (cls.start + next(cls.counter)) % _SUFFIX_SPACE


def mint_id(kind: str, recorded_at: str, writer: str) -> str:
    """`<kind>-<stamp without punctuation>-<6 hex>-<writer>`."""
    digits = "".join(ch for ch in recorded_at if ch.isascii() and ch.isalnum())
    return f"{kind}-{digits}-{_Suffixes.next():06x}-{writer}"


def record_size(given: ReasoningInput) -> int:
    """Bytes of the record as given, as one compact JSON line; a lone surrogate is refused."""
    text = dumps_compact(given.model_dump(mode="json", exclude_unset=True))
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise InvalidInput("must be valid text") from None


def redact(body: ReasoningBody) -> tuple[ReasoningBody, list[str]]:
    """The body with every secret replaced, and the shapes found; refused when the redacted
    form no longer parses (the refusal names the shapes, never the value)."""
    value = body.wire()
    cleaned, kinds = redact_value(value)
    if cleaned == value:
        return body, kinds
    try:
        return parse_body(cleaned), kinds
    except ValidationError:
        raise Refused(
            f"the record holds a secret ({', '.join(kinds)}) where its redacted form is no "
            "longer a valid record; remove the secret and record again"
        ) from None


def with_full_ids(given: ReasoningInput, loaded: Loaded) -> ReasoningInput:
    """`given` with each short id it cites (`1a2b3c`) made full (`Loaded.full_id`)."""
    update: dict[str, Any] = {}
    for name in CITING.get(given.kind, ()):
        value = getattr(given, name)
        if isinstance(value, list):
            update[name] = [loaded.full_id(v) for v in value]
        elif value is not None:
            update[name] = loaded.full_id(value)
    if isinstance(given, DisagreementInput):
        update["positions"] = [
            p
            if p.source == "primary"
            else p.model_copy(update={"source": loaded.full_id(p.source)})
            for p in given.positions
        ]
    return given.model_copy(update=update)


@dataclass(frozen=True, slots=True)
class Recorded:
    """A record as stored and where: `path` is relative to the repository root, `/`-separated."""

    record: ReasoningRecord
    path: str


#: How a plan learns the mode and every advisor's state now, from the records under the lock.
AvailabilityNow = Callable[[Loaded], Admission]


def availability_now(root: Path, environ: Mapping[str, str]) -> AvailabilityNow:
    """The advisors' availability from `environ`, the catalogue and the records' circuits."""

    def resolve(loaded: Loaded) -> Admission:
        from majordomus.advisors.loading import CatalogueError
        from majordomus.advisors.situation import resolve_advisors

        try:
            advisors = resolve_advisors(root, environ, history(loaded))
        except CatalogueError as exc:
            raise Refused(exc.message) from None
        return Admission(mode=advisors.mode, availability=advisors.states)

    return resolve


class Ledger:
    """The write path of one checkout's reasoning ledger."""

    def __init__(
        self,
        store: Store,
        *,
        availability: AvailabilityNow,
        head: Callable[[Path], str | None] = git.head,
    ) -> None:
        self.store = store
        self._availability = availability
        self._head = head

    @classmethod
    def open(cls, root: Path, environ: Mapping[str, str]) -> Ledger:
        """The ledger at `root` as every surface runs it, configured from `environ`."""
        store = Store(root, lock_wait=lock_wait(environ))
        return cls(store, availability=availability_now(store.root, environ))

    def record(self, given: ReasoningInput, *, task: str | None = None) -> Recorded:
        """Admit, redact, stamp and write one record into `task` (default: the current one)
        under the writer lock; a refusal writes nothing."""
        problem = record_size_problem(record_size(given))
        if problem is not None:
            raise InvalidInput(problem)
        with self.store.locked() as loaded:
            given = with_full_ids(given, loaded)
            # only a plan is admitted against the advisors' availability now
            admission = self._availability(loaded) if isinstance(given, PlanInput) else None
            body, redacted = redact(admit(given, loaded, admission))
            if task is None:
                name = check_task(self.store.current_task(), origin=CURRENT_FILE)
            else:
                name = check_task(task)
            seen = max((p.record.lamport or 0 for p in loaded.placed), default=0)
            with self.store.held():
                return self._stamp_and_write(body, redacted, name, min(seen + 1, MAX_LAMPORT))

    def _stamp_and_write(
        self, body: ReasoningBody, redacted: list[str], task: str, lamport: int
    ) -> Recorded:
        """A taken id is minted again."""
        recorded_at = clock.now_stamp()
        head = self._head(self.store.root)
        writer = writer_id(self.store.root)
        for _ in range(_MINT_ATTEMPTS):
            record = ReasoningRecord(
                schema_=RECORD_SCHEMA,
                version=RECORD_VERSION,
                id=mint_id(body.kind, recorded_at, writer),
                task=task,
                recorded_at=recorded_at,
                lamport=lamport,
                writer=writer,
                head=head,
                redacted=redacted,
                body=body,
            )
            try:
                path = self.store.write(record)
            except FileExistsError:
                continue
            return Recorded(record=record, path=path)
        raise Refused(
            f"the record could not be written: {_MINT_ATTEMPTS} minted ids in a row already exist"
        )
