"""Deadlines for HTTP connections: a client slow to send, or to take its answer, drops off."""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from majordomus.http.errors import error_json

log = logging.getLogger(__name__)

HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
WRITE_TIMEOUT = 30.0
IDLE_SECONDS = 1.0
BURST = 16
ENV_READ_TIMEOUT = "MAJORDOMUS_HTTP_READ_TIMEOUT"
ENV_WRITE_TIMEOUT = "MAJORDOMUS_HTTP_WRITE_TIMEOUT"
NOT_HTTP = (
    "the request is not valid HTTP/1.1 (RFC 9112): a malformed head, or framing headers "
    "that contradict each other"
)


def _seconds(variable: str, default: float) -> float:
    """A positive number of seconds from the environment, else `default`."""
    try:
        value = float(os.environ.get(variable, "").strip())
    except ValueError:
        return default
    return value if 0 < value < float("inf") else default


#: The C library's `malloc_trim` (glibc), or None.
_TRIM: Callable[[int], int] | None
try:
    _TRIM = getattr(ctypes.CDLL(None), "malloc_trim", None)
except OSError:
    _TRIM = None


class _Reclaim:
    """Once a burst of connections has closed, the memory it held goes back to the system."""

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


class DeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on each phase of reading a request and on
    the client taking its answer."""

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    write_timeout = WRITE_TIMEOUT
    reclaim = _Reclaim()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._phase: str | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._write_deadline: asyncio.TimerHandle | None = None
        self._in_message = False
        transport.set_write_buffer_limits(high=0)
        super().connection_made(transport)
        self.reclaim.opened(len(self.connections))
        self._arm("head", self.header_timeout)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_message = True
        self._arm("head", self.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm("body", self.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_message = False
        self._arm(None, 0)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The next request's head is awaited only when none is being read or queued already.
        if not self._in_message and not self.pipeline and not self.transport.is_closing():
            self._arm("head", self.header_timeout)

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
        self.transport.write(
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\ncache-control: no-store\r\nconnection: close\r\n\r\n%s"
            % (len(body), body)
        )
        self.transport.close()

    def _arm(self, phase: str | None, seconds: float) -> None:
        """The deadline of the phase the connection is in; a new phase, a new deadline."""
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


def protocol_class() -> type[DeadlineProtocol]:
    """`DeadlineProtocol` with the environment's deadlines, for `uvicorn.Config(http=...)`."""
    read = _seconds(ENV_READ_TIMEOUT, 0)
    attributes: dict[str, Any] = {
        "header_timeout": read or HEADER_TIMEOUT,
        "body_timeout": read or BODY_TIMEOUT,
        "write_timeout": _seconds(ENV_WRITE_TIMEOUT, WRITE_TIMEOUT),
        "reclaim": _Reclaim(),
    }
    return type("Deadlines", (DeadlineProtocol,), attributes)
