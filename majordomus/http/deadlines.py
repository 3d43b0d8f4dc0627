"""Read deadlines for HTTP connections: a client that is slow to send drops off.

uvicorn closes an idle keep-alive connection, but a client that trickles its request head,
or sends the head and then its body a byte at a time, keeps the connection (and, once the
head is in, one of the 64 in-flight slots) for as long as it likes. This protocol gives the
head `HEADER_TIMEOUT` seconds from the moment the server waits for it (a new connection, or
the end of the previous response) and the body `BODY_TIMEOUT` seconds from the end of the
head; past either the connection is closed. Bytes arriving do not extend a deadline. The
application then sees `http.disconnect` and runs nothing (see `majordomus.http.middleware`).

`MAJORDOMUS_HTTP_READ_TIMEOUT` (seconds) sets both, so tests can use a short one.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from majordomus.logger import log

HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
ENV_READ_TIMEOUT = "MAJORDOMUS_HTTP_READ_TIMEOUT"


def read_timeouts() -> tuple[float, float]:
    """(header, body) seconds: the defaults, or both from `MAJORDOMUS_HTTP_READ_TIMEOUT`
    when it holds a positive number."""
    raw = os.environ.get(ENV_READ_TIMEOUT, "").strip()
    try:
        value = float(raw)
    except ValueError:
        return HEADER_TIMEOUT, BODY_TIMEOUT
    if not 0 < value < float("inf"):
        return HEADER_TIMEOUT, BODY_TIMEOUT
    return value, value


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each phase of reading a request."""

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._phase: str | None = None
        self._deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._track()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._arm(None, 0)
        super().connection_lost(exc)

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


def protocol_class(header_timeout: float, body_timeout: float) -> type[DeadlineProtocol]:
    """`DeadlineProtocol` with these deadlines, for `uvicorn.Config(http=...)`."""
    attributes: dict[str, Any] = {"header_timeout": header_timeout, "body_timeout": body_timeout}
    return type("Deadlines", (DeadlineProtocol,), attributes)
