"""One stdio MCP session: the loop that reads lines and writes answers, the idle check and
the warm-up, and `serve`, which owns stdout for the whole session.

Only the loop's thread writes stdout, and the background thread (idle check) writes only
inside its turn; nothing but one compact JSON value per line ever reaches it (a stray `print`
lands on stderr). Logs go to stderr.

Turns: answers and background work never run at once, and a waiting answer goes first. Once
the client is quiet after the first answer (no line read or answered for `QUIET_SECONDS`), the
background thread does, in short steps, what a later list or call would otherwise do
(`Server.warm_steps`); then it checks every `IDLE_CHECK_SECONDS` whether the layer changed, so
a change is announced unasked. A client that calls right after the handshake never waits
behind a step: a step run beside its call would only slow it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import IO, TYPE_CHECKING

from majordomus.logger import log
from majordomus.mcp.framing import OutputClosed, encode, write
from majordomus.pipes import silence

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace
    from majordomus.mcp.server import Server


EXIT_OK = 0
EXIT_IO = 13

#: Seconds between the checks an idle session makes, so a change is announced unasked.
IDLE_CHECK_SECONDS = 2.0
#: Seconds without a line read or answered before the warm-up takes a turn.
QUIET_SECONDS = 0.1


class Turns:
    """One lock over the server's state, with the answers first: background work takes a
    turn only while no answer waits for one."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._busy = False
        self._waiting = 0
        self._answer = _AnswerTurn(self)

    def answer(self) -> AbstractContextManager[None]:
        """An answer's turn, taken as soon as no turn is under way (one object for every
        answer: only the loop's thread answers, once per line)."""
        return self._answer

    def _take_for_answer(self) -> None:
        with self._cond:
            self._waiting += 1
            while self._busy:
                self._cond.wait()
            self._waiting -= 1
            self._busy = True

    @contextmanager
    def background(self) -> Iterator[None]:
        with self._cond:
            while self._busy or self._waiting:
                self._cond.wait()
            self._busy = True
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        with self._cond:
            self._busy = False
            self._cond.notify_all()


class _AnswerTurn:
    """`Turns.answer` as a plain context manager (a generator's costs more on every line)."""

    __slots__ = ("_turns",)

    def __init__(self, turns: Turns) -> None:
        self._turns = turns

    def __enter__(self) -> None:
        self._turns._take_for_answer()

    def __exit__(self, *_exc: object) -> None:
        self._turns._release()


def run(server: Server, inp: IO[bytes], out: IO[bytes]) -> int:
    """Serve until EOF (exit 0), a closed output (exit 0) or another I/O failure (13).

    The background thread starts its work once the first answer is written (the handshake
    stays as short as it was)."""
    turns = Turns()
    answered = threading.Event()
    # When a line was last read or answered: the loop writes it and the background thread
    # only reads it, so no line wakes that thread.
    heard = [time.monotonic()]
    stop = threading.Event()
    background = threading.Thread(
        target=_background,
        args=(server, out, turns, answered, heard, stop),
        name="majordomus-background",
        daemon=True,
    )
    background.start()
    try:
        for raw in inp:
            heard[0] = time.monotonic()
            with turns.answer():
                lines = server.answer_lines(raw)
                for line in lines:
                    write(out, line)
            heard[0] = time.monotonic()
            if lines and not answered.is_set():
                answered.set()
    except OutputClosed:
        log.info("the client closed the output; stopping")
        stop.set()
        with turns.answer():
            silence(out)
        return EXIT_OK
    except OSError as exc:
        log.error("I/O failure: %s", exc)
        return EXIT_IO
    finally:
        stop.set()
        answered.set()
        with turns.answer():
            pass  # a background step under way ends before the session does
    log.info("input ended; stopping")
    return EXIT_OK


def _background(
    server: Server,
    out: IO[bytes],
    turns: Turns,
    answered: threading.Event,
    heard: list[float],
    stop: threading.Event,
) -> None:
    answered.wait()
    while not stop.is_set():
        left = heard[0] + QUIET_SECONDS - time.monotonic()
        if left <= 0:
            break
        stop.wait(left)
    _warm(server.warm_steps(), turns, stop)
    while not stop.wait(IDLE_CHECK_SECONDS):
        if not server.initialized:
            continue
        with turns.background():
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


def _warm(steps: Iterator[Callable[[], object]], turns: Turns, stop: threading.Event) -> None:
    """Run the warm-up steps one turn each (the steps are made inside the turn too: making
    one reads the server's state); a failing step ends the warm-up (the request that needs
    the same work reports the failure)."""
    while True:
        with turns.background():
            if stop.is_set():
                return
            try:
                step = next(steps, None)
                if step is None:
                    return
                step()
            except Exception as exc:
                log.debug("warm-up stopped: %s: %s", type(exc).__name__, exc)
                return


def serve(ctx: Workspace, *, read_only: bool) -> int:
    """`majordomus mcp`: build the index and the registry once, then serve stdio until EOF.

    A strict refusal or a registry that fails to build raises before anything is served, so
    stdout stays empty and the CLI maps the error to its exit code.
    """
    from majordomus.mcp.server import Server

    protocol_out = sys.stdout.buffer
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        server = Server(ctx, read_only=read_only)
        return server.run(sys.stdin.buffer, protocol_out)
    finally:
        sys.stdout = saved
