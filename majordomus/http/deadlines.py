"""Deadlines for HTTP connections: a client that is slow to send, or that does not take its
answer, drops off.

uvicorn closes an idle keep-alive connection, but a client that trickles its request head,
or sends the head and then its body a byte at a time, keeps the connection (and, once the
head is in, one of the 64 in-flight slots) for as long as it likes. This protocol gives the
head `HEADER_TIMEOUT` seconds from the moment the server waits for it (a new connection, or
the end of the previous response) and the body `BODY_TIMEOUT` seconds from the end of the
head; past either the connection is closed. Bytes arriving do not extend a deadline. The
application then sees `http.disconnect` and runs nothing (see `majordomus.http.middleware`).

An answer is held in memory until the client takes it, so a client that sends a request and
never reads would hold its answer for as long as it stays. The write buffer signals the
protocol whenever anything is left in it (its high-water mark is 0): from then the client
has `WRITE_TIMEOUT` seconds to take everything, else the connection is aborted and what
was left is dropped. Bytes taken do not extend the deadline.

Answers built for many clients at once leave garbage in reference cycles and freed memory
the C allocator keeps for the life of the process. So after a burst (`BURST` connections
open at once), once the last connection has gone and none came for `IDLE_SECONDS`, the
cycles are collected and the allocator is asked to return its free memory to the system
(`malloc_trim`, where the C library has it).

A request h11 cannot read as HTTP/1.1 (conflicting framing headers, a malformed head) is
answered 400 with the JSON error body of every other error, and the connection is closed.

`MAJORDOMUS_HTTP_READ_TIMEOUT` (seconds) sets both read deadlines and
`MAJORDOMUS_HTTP_WRITE_TIMEOUT` the write deadline, so tests can use short ones.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import os
from collections.abc import Callable
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from majordomus.http.errors import error_json
from majordomus.http.middleware import NOT_HTTP
from majordomus.logger import log

HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
WRITE_TIMEOUT = 30.0
IDLE_SECONDS = 1.0
BURST = 16
ENV_READ_TIMEOUT = "MAJORDOMUS_HTTP_READ_TIMEOUT"
ENV_WRITE_TIMEOUT = "MAJORDOMUS_HTTP_WRITE_TIMEOUT"


def _seconds(variable: str, default: float) -> float:
    """A positive number of seconds from the environment, else `default`."""
    try:
        value = float(os.environ.get(variable, "").strip())
    except ValueError:
        return default
    return value if 0 < value < float("inf") else default


def timeouts() -> tuple[float, float, float]:
    """(header, body, write) seconds: the defaults, or what the environment sets."""
    read = _seconds(ENV_READ_TIMEOUT, 0)
    return read or HEADER_TIMEOUT, read or BODY_TIMEOUT, _seconds(ENV_WRITE_TIMEOUT, WRITE_TIMEOUT)


def _malloc_trim() -> Callable[[int], int] | None:
    """The C library's `malloc_trim` (glibc), or None."""
    try:
        return getattr(ctypes.CDLL(None), "malloc_trim", None)
    except OSError:
        return None


_TRIM = _malloc_trim()


class _Reclaim:
    """One server's reclaim after a burst; see the module docstring."""

    def __init__(self) -> None:
        self.peak = 0
        self.timer: asyncio.TimerHandle | None = None

    def opened(self, open_now: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.peak = max(self.peak, open_now)

    def closed(self, loop: asyncio.AbstractEventLoop, open_now: int) -> None:
        if not open_now and self.peak >= BURST and self.timer is None:
            self.timer = loop.call_later(IDLE_SECONDS, self._run)

    def _run(self) -> None:
        self.timer, self.peak = None, 0
        gc.collect()
        if _TRIM is not None:
            _TRIM(0)


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each phase of reading a request and on the
    client taking its answer."""

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    write_timeout = WRITE_TIMEOUT
    reclaim = _Reclaim()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._phase: str | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._write_deadline: asyncio.TimerHandle | None = None
        transport.set_write_buffer_limits(high=0)
        super().connection_made(transport)
        self.reclaim.opened(len(self.connections))
        self._track()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._arm(None, 0)
        self._untimed()
        super().connection_lost(exc)
        self.reclaim.closed(self.loop, len(self.connections))

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_deadline is None:
            self._write_deadline = self.loop.call_later(self.write_timeout, self._untaken)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._untimed()

    def _untimed(self) -> None:
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None

    def _untaken(self) -> None:
        self._write_deadline = None
        log.info("dropped a client that did not take its answer")
        self.transport.abort()

    def send_400_response(self, msg: str) -> None:
        """The JSON error body instead of uvicorn's plain text; the connection closes."""
        body = error_json("invalid_input", NOT_HTTP).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()

    def _track(self) -> None:
        """Arm the deadline of the phase the connection is in; a new phase, a new deadline."""
        state = self.conn.their_state
        if state is h11.IDLE:
            self._arm("head", self.header_timeout)
        elif state is h11.SEND_BODY:
            self._arm("body", self.body_timeout)
        else:
            self._arm(None, 0)

    def _arm(self, phase: str | None, seconds: float) -> None:
        if phase == self._phase:
            return
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = phase
        if phase is not None:
            self._deadline = self.loop.call_later(seconds, self._expired, phase)

    def _expired(self, phase: str) -> None:
        self._deadline = None
        if self._phase == phase and not self.transport.is_closing():
            log.info("dropped a client too slow to send its request %s", phase)
            self.transport.close()


def protocol_class(
    header_timeout: float, body_timeout: float, write_timeout: float
) -> type[DeadlineProtocol]:
    """`DeadlineProtocol` with these deadlines, for `uvicorn.Config(http=...)`."""
    attributes: dict[str, Any] = {
        "header_timeout": header_timeout,
        "body_timeout": body_timeout,
        "write_timeout": write_timeout,
        "reclaim": _Reclaim(),
    }
    return type("Deadlines", (DeadlineProtocol,), attributes)
