"""One stdio MCP session: the loop that reads lines and writes answers, and the idle check.

Only the loop's thread answers; the idle check runs on a background thread every
`IDLE_CHECK_SECONDS` once the client is initialised, so a change of the layer is announced
unasked. The two never run at once (one lock over the server's state), and nothing but one
compact JSON value per line ever reaches stdout (a stray `print` lands on stderr). Logs go
to stderr.
"""

from __future__ import annotations

import threading
from typing import IO, TYPE_CHECKING

from majordomus.logger import log
from majordomus.mcp.framing import OutputClosed, encode, write
from majordomus.pipes import silence

if TYPE_CHECKING:
    from majordomus.mcp.dispatch import Dispatcher


EXIT_OK = 0
EXIT_IO = 13

#: Seconds between the checks an idle session makes, so a change is announced unasked.
IDLE_CHECK_SECONDS = 2.0


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
        for raw in inp:
            with turn:
                for line in server.answer_lines(raw):
                    write(out, line)
    except OutputClosed:
        log.info("the client closed the output; stopping")
        stop.set()
        with turn:
            silence(out)
        return EXIT_OK
    except OSError as exc:
        log.error("I/O failure: %s", exc)
        return EXIT_IO
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
