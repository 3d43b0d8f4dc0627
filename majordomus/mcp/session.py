"""One stdio MCP session: the loop that reads lines and writes answers, and the idle check."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import IO

from majordomus.egress import silence
from majordomus.errors import EXIT_OK, EXIT_REFUSED
from majordomus.limits import MAX_LINE_BYTES
from majordomus.mcp.jsonrpc import INVALID_REQUEST, Dispatcher, OutputClosed, encode, error, write

log = logging.getLogger(__name__)

#: Seconds between the checks an idle session makes, so a change is announced unasked.
IDLE_CHECK_SECONDS = 2.0

#: How much of an over-long line is read at a time while it is dropped.
_DROP_CHUNK = 64 * 1024

_MIB = MAX_LINE_BYTES // (1024 * 1024)
_OVER_LONG = encode(
    error(None, INVALID_REQUEST, f"the line is over the {_MIB} MiB limit ({MAX_LINE_BYTES} bytes)")
)


def _lines(inp: IO[bytes]) -> Iterator[bytes | None]:
    """Each line of `inp` up to its end, or None for a line over `MAX_LINE_BYTES`."""
    while raw := inp.readline(MAX_LINE_BYTES + 1):
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            yield raw
            continue
        while not raw.endswith(b"\n") and (raw := inp.readline(_DROP_CHUNK)):
            pass
        yield None


def run(server: Dispatcher, inp: IO[bytes], out: IO[bytes]) -> int:
    """Serve until EOF (exit 0), a closed output (exit 0) or another I/O failure (13)."""
    turn = threading.Lock()
    stop = threading.Event()
    threading.Thread(
        target=_idle_check,
        args=(server, out, turn, stop),
        name="majordomus-idle-check",
        daemon=True,
    ).start()
    try:
        for raw in _lines(inp):
            with turn:
                for line in [_OVER_LONG] if raw is None else server.answer_lines(raw):
                    write(out, line)
    except OutputClosed:
        log.info("the client closed the output; stopping")
        stop.set()
        with turn:
            silence(out)
        return EXIT_OK
    except OSError as exc:
        log.error("I/O failure: %s", exc)
        return EXIT_REFUSED
    finally:
        stop.set()
        with turn:
            pass  # an idle check under way ends before the session does
    log.info("input ended; stopping")
    return EXIT_OK


def _idle_check(
    server: Dispatcher, out: IO[bytes], turn: threading.Lock, stop: threading.Event
) -> None:
    while not stop.wait(IDLE_CHECK_SECONDS):
        if not server.initialized:
            continue
        with turn:
            if stop.is_set():
                return
            try:
                for message in server.refresh():
                    write(out, encode(message))
            except OutputClosed:
                return
            except Exception as exc:
                log.error("the idle check failed: %s: %s", type(exc).__name__, exc)
                return
